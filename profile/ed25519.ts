// Ed25519 (RFC 8032) with the strict verification rule of PROFILE.md §2.3.
// node:crypto (OpenSSL) does the arithmetic: it checks S < L and the cofactorless
// equation by comparing encodings. The canonical-encoding and small-order
// restrictions, on which libraries disagree, are checked here first.
import { createPrivateKey, createPublicKey, hash, KeyObject, randomFillSync, sign, verify } from 'node:crypto';

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
// y-coordinates of the eight points of small order (order 1, 2, 4 and 8):
// (0,1), (0,-1), (±sqrt(-1),0) and the four order-8 points with y = ±Y8.
const Y8 = 2707385501144840649318225287225658788936804267575313519463743609750303402022n;

/** The 32-byte little-endian encoding of n < 2^256. */
function encoded(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}

// The bounds and the small-order y values as little-endian bytes: every check
// compares bytes, never building an integer of the input.
const P_BYTES = encoded(P);
const L_BYTES = encoded(L);
const SMALL_ORDER_Y = [0n, 1n, P - 1n, Y8, P - Y8].map(encoded);

interface Ed25519KeyPair {
  /** 32-byte seed (RFC 8032 private key). */
  readonly secretKey: Uint8Array;
  /** 32-byte public key A. */
  readonly publicKey: Uint8Array;
}

// OpenSSL 3 parses DER slowly (a PKCS#8 import costs over ten times a fresh key
// pair, an SPKI import ten times a JWK one), so keys are read as JWK. A private
// key is its seed imported as a private JWK: the import derives the public key
// (OpenSSL computes it from d; the x member the JWK reader requires is not used),
// which the key's own JWK export then carries: one scalar multiplication per
// key. Keys are never made by generateKeyPairSync and exported: exporting a
// KeyObject whose generation job is being collected can deadlock Node 20 (the
// job's destructor takes the key's lock that the export holds while allocating).
/** Stands in for x in a private JWK whose public key OpenSSL derives from d. */
const UNUSED_X = 'A'.repeat(43);

// Fresh seeds are cut from a pool filled by one call to the CSPRNG: a call per
// 32 bytes costs several times the copy.
const SEED_POOL = Buffer.alloc(32 * 128);
let seedPoolAt = SEED_POOL.length;

function freshSeed(): Uint8Array {
  if (seedPoolAt === SEED_POOL.length) {
    randomFillSync(SEED_POOL);
    seedPoolAt = 0;
  }
  const seed = new Uint8Array(32);
  seed.set(SEED_POOL.subarray(seedPoolAt, (seedPoolAt += 32)));
  return seed;
}

/** The pair of `seed`, or of a fresh random seed; its key object is kept for signing. */
export function generateKeyPair(seed: Uint8Array = freshSeed()): Ed25519KeyPair {
  // The private key's JWK export carries the x OpenSSL derived from d.
  const x = privateKeyObject(seed).export({ format: 'jwk' }).x!;
  return { secretKey: Uint8Array.from(seed), publicKey: new Uint8Array(Buffer.from(x, 'base64url')) };
}

export function signBytes(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, message, privateKeyObject(secretKey)));
}

/**
 * Whether the 32-byte little-endian number in `bytes` (its top bit cleared
 * when `clearSign`) is below the one `bound` encodes.
 */
function below(bytes: Uint8Array, bound: Uint8Array, clearSign: boolean): boolean {
  for (let i = 31; i >= 0; i--) {
    const b = i === 31 && clearSign ? bytes[i]! & 0x7f : bytes[i]!;
    if (b !== bound[i]) return b < bound[i]!;
  }
  return false;
}

/** Whether y (the encoding with its sign bit cleared) is one of `values`. */
function yAmong(bytes: Uint8Array, values: readonly Uint8Array[]): boolean {
  return values.some((value) => {
    if ((bytes[31]! & 0x7f) !== value[31]) return false;
    for (let i = 0; i < 31; i++) if (bytes[i] !== value[i]) return false;
    return true;
  });
}

/**
 * PROFILE.md §2.3 step 2, the part OpenSSL leaves open: the encoding is canonical
 * (y < p) and the point is not of small order. The x = 0 points with the sign bit
 * set have y = 1 or y = p - 1, which are small order, so they fall here too.
 * Whether the encoding decodes to a curve point at all is left to the verifier.
 */
export function isAcceptablePointEncoding(bytes: Uint8Array): boolean {
  return bytes.length === 32 && below(bytes, P_BYTES, true) && !yAmong(bytes, SMALL_ORDER_Y);
}

/** The strict verification rule of PROFILE.md §2.3. Never throws on bad input. */
export function verifyStrict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const r = signature.subarray(0, 32);
  if (!below(signature.subarray(32), L_BYTES, false)) return false;
  if (!isAcceptablePointEncoding(publicKey) || !isAcceptablePointEncoding(r)) return false;
  const id = Buffer.concat([publicKey, signature]).toString('base64');
  const seen = recall(verified, id);
  if (seen !== undefined && digestOf(message).equals(seen)) return true;
  const key = publicKeyObject(publicKey);
  if (!key) return false;
  let valid: boolean;
  try {
    valid = verify(null, message, key, signature);
  } catch {
    return false;
  }
  if (valid) remember(verified, id, digestOf(message), VERIFIED_LIMIT);
  return valid;
}

// Signatures that verified, by key and signature, with the SHA-256 of the message:
// one verification is the price of about forty such digests, and the same signed
// bytes come back (a cash-pack is presented at every renewal and redemption, a
// burst presents it N times; in one process, the harness verified it on receipt).
const verified = new Map<string, Buffer>();
const VERIFIED_LIMIT = 1024;

function digestOf(message: Uint8Array): Buffer {
  return hash('sha256', message, 'buffer');
}

// Key objects are cached: importing a key is a measurable share of a verification.
const publicCache = new Map<string, KeyObject | null>();
const privateCache = new Map<string, KeyObject>();
const CACHE_LIMIT = 4096;

/** A hit moves to the back: the least recently used key is the one dropped. */
function recall<V>(cache: Map<string, V>, key: string): V | undefined {
  const value = cache.get(key);
  if (value !== undefined) {
    cache.delete(key);
    cache.set(key, value);
  }
  return value;
}

function remember<V, T extends V>(cache: Map<string, V>, key: string, value: T, limit = CACHE_LIMIT): T {
  if (cache.size >= limit && !cache.has(key)) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

function publicKeyObject(publicKey: Uint8Array): KeyObject | undefined {
  const id = Buffer.from(publicKey).toString('hex');
  const cached = recall(publicCache, id);
  if (cached !== undefined) return cached ?? undefined;
  let key: KeyObject | null;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' });
  } catch {
    key = null;
  }
  return remember(publicCache, id, key) ?? undefined;
}

function privateKeyObject(secretKey: Uint8Array): KeyObject {
  if (secretKey.length !== 32) throw new RangeError('an Ed25519 secret key is a 32-byte seed');
  const seen = privateByArray.get(secretKey);
  if (seen !== undefined && sameBytes(seen.seed, secretKey)) return seen.key;
  const id = Buffer.from(secretKey).toString('hex');
  const key = recall(privateCache, id) ?? remember(privateCache, id, createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: Buffer.from(secretKey).toString('base64url'), x: UNUSED_X }, format: 'jwk' }));
  privateByArray.set(secretKey, { seed: Uint8Array.from(secretKey), key });
  return key;
}

// A signer passes the same array for each message it signs: its key object is
// found by the array, with the bytes it held then (an array written since is
// looked up by its bytes again), without a hex id and a move in the LRU cache.
const privateByArray = new WeakMap<Uint8Array, { readonly seed: Uint8Array; readonly key: KeyObject }>();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
