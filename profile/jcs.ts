// RFC 8785 JSON Canonicalization Scheme. The `canonicalize` package is the RFC
// authors' reference implementation for JavaScript; tests cross-check it against
// the RFC's own vectors and a second implementation.
import canonicalize from 'canonicalize';

const encoder = new TextEncoder();

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalJson(value));
}
