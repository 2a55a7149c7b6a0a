// Ed25519 keys from fc.uint8Array seeds (32 bytes, all distinct within one value),
// so a value depends only on the seed and shrinks like any other.
import fc from 'fast-check';
import { createSigningKey, type SigningKey } from '../../profile/cashpack/index.ts';

const seed = fc.uint8Array({ minLength: 32, maxLength: 32 });

// Importing a new Ed25519 key costs about half a millisecond in node:crypto, so keys
// are memoised by seed (fast-check repeats seeds while shrinking) and the ones only
// some corruptions need are made on first use.
const KEY_MEMO = new Map<string, SigningKey>();
const KEY_MEMO_LIMIT = 8192;

export function keyFromSeed(s: Uint8Array): SigningKey {
  const id = Buffer.from(s).toString('hex');
  let key = KEY_MEMO.get(id);
  if (key === undefined) {
    if (KEY_MEMO.size >= KEY_MEMO_LIMIT) KEY_MEMO.delete(KEY_MEMO.keys().next().value!);
    key = createSigningKey(s);
    KEY_MEMO.set(id, key);
  }
  return key;
}

export function lazyKey(s: Uint8Array): () => SigningKey {
  return () => keyFromSeed(s);
}

/** n distinct seeds. */
export function seeds(n: number): fc.Arbitrary<Uint8Array[]> {
  return fc.uniqueArray(seed, { minLength: n, maxLength: n, selector: (s) => Buffer.from(s).toString('hex') });
}

/** n keys from n distinct seeds. */
export function keys(n: number): fc.Arbitrary<SigningKey[]> {
  return seeds(n).map((ss) => ss.map(keyFromSeed));
}
