// Ed25519 verifiers with one fault each, as they are found in the wild (the
// Ed25519 speccheck study): used only by mutants (reference/mutants.ts), to
// show that the suite refuses what PROFILE.md §2.3 refuses, on the wire.
import { createPublicKey, verify } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { isAcceptablePointEncoding, verifyStrict } from '../../profile/ed25519.ts';

ed.hashes.sha512 = sha512;

const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const P = 2n ** 255n - 19n;

function le(bytes: Uint8Array, clearSign = false): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(i === 31 && clearSign ? bytes[i]! & 0x7f : bytes[i]!);
  return n;
}

/**
 * Mutant op-small-order-r-accepted: every check of §2.3 on A and on S, and R's
 * encoding checked for canonicity, but not for small order; OpenSSL does the
 * rest, and OpenSSL alone accepts R = the identity with S = k·a.
 */
export function verifyAllowingSmallOrderR(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  if (le(signature.subarray(32)) >= L || !isAcceptablePointEncoding(publicKey) || le(signature.subarray(0, 32), true) >= P) return false;
  try {
    return verify(null, message, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' }), signature);
  } catch {
    return false;
  }
}

/**
 * Mutant op-non-canonical-r-accepted: R is looked up in the table of small-order
 * y values as written (y = p + 1 is not in it), then read as a point, reduced,
 * and compared as a point: the identity written with y = p + 1 passes.
 */
export function verifyReducingR(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const rBytes = signature.subarray(0, 32);
  const s = le(signature.subarray(32));
  if (s >= L || !isAcceptablePointEncoding(publicKey)) return false;
  const y = le(rBytes, true);
  if (y < P && !isAcceptablePointEncoding(rBytes)) return false; // small order, as written
  try {
    const a = ed.Point.fromBytes(publicKey, false);
    const r = ed.Point.fromBytes(rBytes, true);
    const k = le(sha512(new Uint8Array([...rBytes, ...publicKey, ...message]))) % L;
    const sb = s === 0n ? ed.Point.ZERO : ed.Point.BASE.multiply(s);
    const ka = k === 0n ? ed.Point.ZERO : a.multiplyUnsafe(k);
    return sb.subtract(ka).equals(r);
  } catch {
    return false;
  }
}

/**
 * Mutant op-redemption-s-unreduced: S taken modulo L before the strict rule, as
 * libraries that reduce the scalar do; S + L then verifies like S.
 */
export function verifyReducingS(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  const s = le(signature.subarray(32)) % L;
  const reduced = new Uint8Array(signature);
  for (let i = 0; i < 32; i++) reduced[32 + i] = Number((s >> BigInt(8 * i)) & 0xffn);
  return verifyStrict(publicKey, message, reduced);
}

/**
 * Mutant op-lock-request-cofactored-verify: the cofactored equation
 * [8][S]B = [8]R + [8][k]A, which RFC 8032 §5.1.7 allows and PROFILE.md §2.3
 * does not (a mixed-order R passes it); encodings, small order and S checked
 * as §2.3 has them.
 */
export function verifyCofactored(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const rBytes = signature.subarray(0, 32);
  const s = le(signature.subarray(32));
  if (s >= L || !isAcceptablePointEncoding(publicKey) || !isAcceptablePointEncoding(rBytes)) return false;
  try {
    const a = ed.Point.fromBytes(publicKey, false);
    const r = ed.Point.fromBytes(rBytes, false);
    const k = le(sha512(new Uint8Array([...rBytes, ...publicKey, ...message]))) % L;
    const sb = s === 0n ? ed.Point.ZERO : ed.Point.BASE.multiply(s);
    const ka = k === 0n ? ed.Point.ZERO : a.multiplyUnsafe(k);
    return sb.subtract(ka).subtract(r).clearCofactor().is0();
  } catch {
    return false;
  }
}

/**
 * Mutant op-renewal-mixed-order-key-refused: the strict rule after a subgroup
 * check on A and R, so a key or R with a torsion component (mixed order) is
 * refused where §2.3 accepts it (speccheck's case 3).
 */
export function verifyPrimeOrder(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    if (!ed.Point.fromBytes(publicKey, false).isTorsionFree() || !ed.Point.fromBytes(signature.subarray(0, 32), false).isTorsionFree()) return false;
  } catch {
    return false;
  }
  return verifyStrict(publicKey, message, signature);
}
