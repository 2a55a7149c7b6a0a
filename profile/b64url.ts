// Strict base64url without padding (RFC 4648 §5), PROFILE.md §1: every byte string
// has exactly one accepted encoding.
const ALPHABET = /^[A-Za-z0-9_-]*$/;

export function encodeB64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** Decodes strict base64url; returns undefined for anything that is not the one canonical encoding. */
export function decodeB64url(text: string): Uint8Array | undefined {
  if (typeof text !== 'string' || !ALPHABET.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Re-encoding catches non-zero unused bits in the last character.
  if (bytes.toString('base64url') !== text) return undefined;
  // A copy, not a view: a small Buffer is a slice of a shared 8 KiB pool, and a
  // view kept for good (an account's key) would keep the whole pool alive.
  return new Uint8Array(bytes);
}

/** Decodes strict base64url of exactly `length` bytes. */
export function decodeB64urlFixed(text: unknown, length: number): Uint8Array | undefined {
  if (typeof text !== 'string' || text.length !== Math.ceil((length * 4) / 3)) return undefined;
  const bytes = decodeB64url(text);
  return bytes && bytes.length === length ? bytes : undefined;
}
