// An independent implementation of PROFILE.md §2.3 written on @noble/ed25519's
// point arithmetic (not OpenSSL), used only as a test oracle for profile/ed25519.ts.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

ed.hashes.sha512 = sha512;

const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function le(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function decodeStrict(bytes: Uint8Array): ed.Point | undefined {
  try {
    const point = ed.Point.fromBytes(bytes, false); // zip215=false: canonical encodings only
    if (point.isSmallOrder()) return undefined;
    // Re-encoding pins canonicity, whatever fromBytes tolerates.
    if (Buffer.compare(Buffer.from(point.toBytes()), Buffer.from(bytes)) !== 0) return undefined;
    return point;
  } catch {
    return undefined;
  }
}

export function nobleVerifyStrict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const rBytes = signature.subarray(0, 32);
  const s = le(signature.subarray(32));
  if (s >= L) return false;
  const a = decodeStrict(publicKey);
  const r = decodeStrict(rBytes);
  if (!a || !r) return false;
  const k = le(sha512(new Uint8Array([...rBytes, ...publicKey, ...message]))) % L;
  const sb = s === 0n ? ed.Point.ZERO : ed.Point.BASE.multiply(s);
  const ka = k === 0n ? ed.Point.ZERO : a.multiplyUnsafe(k);
  const candidate = sb.subtract(ka);
  return Buffer.compare(Buffer.from(candidate.toBytes()), Buffer.from(rBytes)) === 0;
}

export const noble = ed;
