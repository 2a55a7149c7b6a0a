// UUIDs in canonical lower-case text form (RFC 9562 §4), PROFILE.md §1.
import { createHash, randomUUID } from 'node:crypto';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

export function newUuid(): string {
  return randomUUID();
}

/**
 * A version-4-shaped UUID derived from `seed` and `name`: the first 16 bytes of
 * SHA-256(seed || name) with the version and variant bits set. For servers that
 * must give the same answers to the same requests whatever order concurrent
 * requests arrive in (a replayed benchmark); never for ids that must be unguessable.
 */
export function seededUuid(seed: Uint8Array, name: string): string {
  return uuidOfBytes(createHash('sha256').update(seed).update(name).digest().subarray(0, 16), 4);
}

/**
 * The canonical text of 16 bytes made a UUID of this version (RFC 9562 §4.1,
 * §4.2): the version in the high nibble of byte 6, the variant bits 10 in
 * byte 8, every other bit as given.
 */
export function uuidOfBytes(bytes: Uint8Array, version: number): string {
  const copy = Buffer.from(bytes.subarray(0, 16));
  copy[6] = (copy[6]! & 0x0f) | (version << 4);
  copy[8] = (copy[8]! & 0x3f) | 0x80;
  const hex = copy.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The 16 bytes of a canonical UUID (used by the chain digest, PROFILE.md §3). */
export function uuidBytes(id: string): Uint8Array {
  if (!isUuid(id)) throw new TypeError(`not a canonical UUID: ${JSON.stringify(id)}`);
  return Uint8Array.from(Buffer.from(id.replaceAll('-', ''), 'hex'));
}
