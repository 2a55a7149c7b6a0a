// UUIDs in canonical lower-case text form (RFC 9562 §4), PROFILE.md §1.
import { randomUUID } from 'node:crypto';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

export function newUuid(): string {
  return randomUUID();
}

/** The 16 bytes of a canonical UUID (used by the chain digest, PROFILE.md §3). */
export function uuidBytes(id: string): Uint8Array {
  if (!isUuid(id)) throw new TypeError(`not a canonical UUID: ${JSON.stringify(id)}`);
  return Uint8Array.from(Buffer.from(id.replaceAll('-', ''), 'hex'));
}
