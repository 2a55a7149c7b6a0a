// The rolling chain digest, PROFILE.md §3: SHA-256 over fixed-length fields.
import { createHash } from 'node:crypto';
import { decodeB64urlFixed, encodeB64url } from './b64url.ts';
import { uuidBytes } from './uuid.ts';
import { TAG_NAMESPACE } from './version.ts';

// Names, not versions: they stay CPP-PROFILE-1.0 whatever the identifier (PROFILE.md §13).
const GENESIS_TAG = Buffer.from(`${TAG_NAMESPACE}/chain-genesis\n`, 'ascii');
const RENEWAL_TAG = Buffer.from(`${TAG_NAMESPACE}/chain-renewal\n`, 'ascii');

/** D0 = SHA-256(tag || 0x0A || uuid16(pack_id) || x(initial_bearer_pk)). */
export function genesisDigest(packId: string, initialBearerKey: Uint8Array): Uint8Array {
  if (initialBearerKey.length !== 32) throw new RangeError('a bearer key is 32 bytes');
  return sha256(GENESIS_TAG, uuidBytes(packId), initialBearerKey);
}

/** Di = SHA-256(tag || 0x0A || D(i-1) || uuid16(renewal_id) || x(new_bearer_pk) || signature). */
export function renewalDigest(previous: Uint8Array, renewalId: string, newBearerKey: Uint8Array, signature: Uint8Array): Uint8Array {
  if (previous.length !== 32 || newBearerKey.length !== 32 || signature.length !== 64) {
    throw new RangeError('chain fields have fixed lengths: digest 32, key 32, signature 64 bytes');
  }
  return sha256(RENEWAL_TAG, previous, uuidBytes(renewalId), newBearerKey, signature);
}

export interface ChainLink {
  readonly renewal_id: string;
  readonly new_bearer_key: Uint8Array;
  readonly signature: Uint8Array;
}

/** Every digest along a chain: [D0, D1, ..., Dn]. */
export function chainDigests(packId: string, initialBearerKey: Uint8Array, links: readonly ChainLink[]): Uint8Array[] {
  const digests = [genesisDigest(packId, initialBearerKey)];
  for (const link of links) digests.push(renewalDigest(digests.at(-1)!, link.renewal_id, link.new_bearer_key, link.signature));
  return digests;
}

export function digestText(digest: Uint8Array): string {
  return encodeB64url(digest);
}

export function readDigest(text: unknown): Uint8Array | undefined {
  return decodeB64urlFixed(text, 32);
}

function sha256(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}
