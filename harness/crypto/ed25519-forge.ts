// Ed25519 signatures a careless verifier accepts and the strict rule of
// PROFILE.md §2.3 refuses, made with a real private key: R is a point of small
// order (the identity, written canonically or with y = p + 1) and S = k·a, so
// that [S]B − [k]A equals R once R is read as a point. The published vectors and
// the scenarios send them; nothing here is used to sign for real.
import { createHash } from 'node:crypto';

export const L = 2n ** 252n + 27742317777372353535851937790883648493n;
export const P = 2n ** 255n - 19n;

/** The point encodings of R a forged signature carries. */
const TORSION_R = {
  /** The identity (0, 1), canonically: y = 1. Small order, canonical. */
  'small-order': le32(1n),
  /** The identity written with y = p + 1: not canonical, and small order once reduced. */
  'non-canonical': le32(P + 1n),
} as const;
export type TorsionR = keyof typeof TORSION_R;
export const TORSION_R_KINDS = Object.keys(TORSION_R) as TorsionR[];

export function le32(n: bigint): Buffer {
  const out = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}

export function leInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/** RFC 8032 §5.1.5: the secret scalar a of a seed, so that A = [a]B. */
export function secretScalar(seed: Uint8Array): bigint {
  const h = createHash('sha512').update(seed).digest();
  const a = Buffer.from(h.subarray(0, 32));
  a[0]! &= 248;
  a[31]! &= 127;
  a[31]! |= 64;
  return leInt(a);
}

/** A 64-byte signature of `message` under the key (`seed`, `publicKey`) whose R is a torsion point. */
export function forgeTorsionSignature(seed: Uint8Array, publicKey: Uint8Array, message: Uint8Array, r: TorsionR): Buffer {
  const rBytes = TORSION_R[r];
  const k = leInt(createHash('sha512').update(rBytes).update(publicKey).update(message).digest()) % L;
  return Buffer.concat([rBytes, le32((k * secretScalar(seed)) % L)]);
}
