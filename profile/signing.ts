// Signed objects, PROFILE.md §2.2: signing_input = ASCII(tag) || 0x0A || JCS(object without "signature").
import { decodeB64urlFixed, encodeB64url } from './b64url.ts';
import { signBytes, verifyStrict } from './ed25519.ts';
import { canonicalJson } from './jcs.ts';
import { TAG_NAMESPACE } from './version.ts';

/** Named under TAG_NAMESPACE, which never follows the profile identifier (PROFILE.md §13). */
export const SIGNING_TAGS = {
  'lock-request': `${TAG_NAMESPACE}/lock-request`,
  'cash-pack': `${TAG_NAMESPACE}/cash-pack`,
  'renewal-entry': `${TAG_NAMESPACE}/renewal-entry`,
  'redemption-request': `${TAG_NAMESPACE}/redemption-request`,
  'redemption-confirmation': `${TAG_NAMESPACE}/redemption-confirmation`,
} as const;

export type MessageType = keyof typeof SIGNING_TAGS;
export const MESSAGE_TYPES = Object.keys(SIGNING_TAGS) as MessageType[];

const encoder = new TextEncoder();

export function signingInput(type: MessageType, object: Readonly<Record<string, unknown>>): Uint8Array {
  const { signature: _omitted, ...unsigned } = object;
  return encoder.encode(`${SIGNING_TAGS[type]}\n${canonicalJson(unsigned)}`);
}

/** Returns a copy of `object` with its `signature` member set. */
export function signObject<T extends Record<string, unknown>>(type: MessageType, object: T, secretKey: Uint8Array): T & { signature: string } {
  const { signature: _old, ...unsigned } = object;
  const signature = encodeB64url(signBytes(signingInput(type, unsigned), secretKey));
  return { ...(unsigned as T), signature };
}

/** Verifies the object's `signature` member under `publicKey` with the strict rule (§2.3), or another given verifier. */
export function verifyObject(type: MessageType, object: Readonly<Record<string, unknown>>, publicKey: Uint8Array, verify: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean = verifyStrict): boolean {
  const signature = decodeB64urlFixed(object.signature, 64);
  if (!signature) return false;
  let input: Uint8Array;
  try {
    input = signingInput(type, object);
  } catch {
    return false; // not representable as JSON (lone surrogate and the like)
  }
  return verify(publicKey, input, signature);
}
