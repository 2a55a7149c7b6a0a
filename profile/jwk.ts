// Ed25519 public keys as OKP JWKs (RFC 8037) with kid = RFC 7638 thumbprint, PROFILE.md §2.1.
import { createHash } from 'node:crypto';
import { decodeB64urlFixed, encodeB64url } from './b64url.ts';

export interface OkpJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
}

/** RFC 7638 §3: SHA-256 over the required members in lexicographic order, no white space. */
export function jwkThumbprint(x: string): string {
  // Every message validation checks every kid it carries, mostly of the same few
  // keys: the digests are remembered (a bounded map, oldest dropped first).
  const known = thumbprints.get(x);
  if (known !== undefined) return known;
  const members = `{"crv":"Ed25519","kty":"OKP","x":"${x}"}`;
  const kid = encodeB64url(createHash('sha256').update(members, 'utf8').digest());
  if (x.length !== 43) return kid; // not a 32-byte key: nothing worth remembering
  if (thumbprints.size >= THUMBPRINT_LIMIT) thumbprints.delete(thumbprints.keys().next().value!);
  thumbprints.set(x, kid);
  return kid;
}

const thumbprints = new Map<string, string>();
const THUMBPRINT_LIMIT = 4096;

export function publicJwk(publicKey: Uint8Array): OkpJwk {
  const x = encodeB64url(publicKey);
  return { kty: 'OKP', crv: 'Ed25519', x, kid: jwkThumbprint(x) };
}

/** The members of a profile JWK, in the order publicJwk writes them. */
export const JWK_MEMBERS = ['kty', 'crv', 'x', 'kid'] as const;

/** The same key with its members written in `order`: JSON objects are unordered, two keys are the same exactly when their x are (§2.1). */
export function jwkInMemberOrder(jwk: OkpJwk, order: readonly (typeof JWK_MEMBERS)[number][]): OkpJwk {
  return Object.fromEntries(order.map((member) => [member, jwk[member]])) as unknown as OkpJwk;
}

type JwkResult = { readonly ok: true; readonly publicKey: Uint8Array; readonly kid: string } | { readonly ok: false; readonly reason: string };

const MEMBERS = ['crv', 'kid', 'kty', 'x'];

/** Reads a profile JWK: exactly kty, crv, x and kid, with kid the key's thumbprint. */
export function readJwk(value: unknown, extraMembers: readonly string[] = []): JwkResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'a JWK is a JSON object' };
  const jwk = value as Record<string, unknown>;
  const unexpected = Object.keys(jwk).filter((k) => !MEMBERS.includes(k) && !extraMembers.includes(k));
  if (unexpected.length > 0) return { ok: false, reason: `unexpected JWK member(s): ${unexpected.join(', ')}` };
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return { ok: false, reason: 'kty must be "OKP" and crv "Ed25519"' };
  const publicKey = decodeB64urlFixed(jwk.x, 32);
  if (!publicKey) return { ok: false, reason: 'x must be the strict base64url of 32 bytes' };
  if (jwk.kid !== jwkThumbprint(jwk.x as string)) return { ok: false, reason: 'kid must be the RFC 7638 thumbprint of the key' };
  return { ok: true, publicKey, kid: jwk.kid as string };
}
