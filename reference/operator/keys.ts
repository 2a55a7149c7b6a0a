// The Operator's signing key (spec §5.2: the Operator countersigns issued packs and
// publishes its current key) and the pubkey document (spec §4.3, PROFILE.md §4.8).
import { publicJwk, signObject, type MessageType, type OkpJwk } from '../../profile/index.ts';
import { createSigningKey, type PubkeyDocument } from '../../profile/cashpack/index.ts';

export interface OperatorKeys {
  readonly publicKey: Uint8Array;
  readonly jwk: OkpJwk;
  /** Signs an Operator message (cash-pack or Redemption Confirmation) with its domain tag (PROFILE.md §2.2). */
  sign<T extends Record<string, unknown>>(type: Extract<MessageType, 'cash-pack' | 'redemption-confirmation'>, object: T): T & { signature: string };
}

/** The secret key stays in this closure: it never leaves the Operator (PROFILE.md §12 staff row). */
export function createOperatorKeys(seed?: Uint8Array): OperatorKeys {
  const { secretKey, publicKey } = createSigningKey(seed);
  return {
    publicKey,
    jwk: publicJwk(publicKey),
    sign: (type, object) => signObject(type, object, secretKey),
  };
}

/** PROFILE.md §4.8: a JWK set with exactly the current key, marked for signatures. */
export function pubkeyDocument(keys: OperatorKeys): PubkeyDocument {
  return { keys: [{ ...keys.jwk, use: 'sig', alg: 'EdDSA' }] };
}
