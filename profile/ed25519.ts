// Ed25519 (RFC 8032) with the strict verification rule of PROFILE.md §2.3.
// node:crypto (OpenSSL) does the arithmetic: it checks S < L and the cofactorless
// equation by comparing encodings. The canonical-encoding and small-order
// restrictions, on which libraries disagree, are checked here first.
import { createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
// y-coordinates of the eight points of small order (order 1, 2, 4 and 8):
// (0,1), (0,-1), (±sqrt(-1),0) and the four order-8 points with y = ±Y8.
const Y8 = 2707385501144840649318225287225658788936804267575313519463743609750303402022n;
const SMALL_ORDER_Y = new Set([0n, 1n, P - 1n, Y8, P - Y8]);

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface Ed25519KeyPair {
  /** 32-byte seed (RFC 8032 private key). */
  readonly secretKey: Uint8Array;
  /** 32-byte public key A. */
  readonly publicKey: Uint8Array;
}

export function generateKeyPair(seed: Uint8Array = randomBytes(32)): Ed25519KeyPair {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  const priv = privateKeyObject(seed);
  const spki = createPublicKey(priv).export({ format: 'der', type: 'spki' });
  return { secretKey: Uint8Array.from(seed), publicKey: Uint8Array.from(spki.subarray(SPKI_PREFIX.length)) };
}

export function signBytes(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, message, privateKeyObject(secretKey)));
}

/** Little-endian integer of 32 bytes, with the top bit of the last byte cleared when `clearSign`. */
function littleEndian(bytes: Uint8Array, clearSign: boolean): bigint {
  let n = 0n;
  for (let i = 31; i >= 0; i--) n = (n << 8n) | BigInt(i === 31 && clearSign ? bytes[i]! & 0x7f : bytes[i]!);
  return n;
}

/**
 * PROFILE.md §2.3 step 2, the part OpenSSL leaves open: the encoding is canonical
 * (y < p) and the point is not of small order. The x = 0 points with the sign bit
 * set have y = 1 or y = p - 1, which are small order, so they fall here too.
 * Whether the encoding decodes to a curve point at all is left to the verifier.
 */
export function isAcceptablePointEncoding(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  const y = littleEndian(bytes, true);
  return y < P && !SMALL_ORDER_Y.has(y);
}

/** The strict verification rule of PROFILE.md §2.3. Never throws on bad input. */
export function verifyStrict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const r = signature.subarray(0, 32);
  if (littleEndian(signature.subarray(32), false) >= L) return false;
  if (!isAcceptablePointEncoding(publicKey) || !isAcceptablePointEncoding(r)) return false;
  const key = publicKeyObject(publicKey);
  if (!key) return false;
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

// Key objects are cached: parsing DER is a measurable share of a verification.
const publicCache = new Map<string, KeyObject | null>();
const privateCache = new Map<string, KeyObject>();
const CACHE_LIMIT = 4096;

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

function publicKeyObject(publicKey: Uint8Array): KeyObject | undefined {
  const id = Buffer.from(publicKey).toString('hex');
  const cached = publicCache.get(id);
  if (cached !== undefined) return cached ?? undefined;
  let key: KeyObject | null;
  try {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
  } catch {
    key = null;
  }
  return remember(publicCache, id, key) ?? undefined;
}

function privateKeyObject(secretKey: Uint8Array): KeyObject {
  if (secretKey.length !== 32) throw new RangeError('an Ed25519 secret key is a 32-byte seed');
  const id = Buffer.from(secretKey).toString('hex');
  return (
    privateCache.get(id) ??
    remember(privateCache, id, createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, secretKey]), format: 'der', type: 'pkcs8' }))
  );
}
