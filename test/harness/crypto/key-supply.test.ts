import { describe, expect, it } from 'vitest';
import { generateKeyPair, signBytes, verifyStrict } from '../../../profile/ed25519.ts';
import { suppliedKeys, supplyFreshKeys } from '../../../harness/crypto/key-supply.ts';

/** Fresh pairs until `count` came from the supply (each call may be made in this thread while the supply's first batch is on its way). */
async function suppliedPairs(count: number): Promise<ReturnType<typeof generateKeyPair>[]> {
  const pairs: ReturnType<typeof generateKeyPair>[] = [];
  const start = suppliedKeys();
  for (let waited = 0; suppliedKeys() - start < count; waited++) {
    if (waited > 500) throw new Error('the supply handed out no key within 5 s');
    const before = suppliedKeys();
    const pair = generateKeyPair();
    if (suppliedKeys() > before) pairs.push(pair);
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return pairs;
}

describe('the fresh-key supply (harness/crypto/key-supply.ts)', () => {
  supplyFreshKeys();

  it('hands out pairs whose public key is the one the seed gives, that sign and verify, each distinct', async () => {
    const pairs = await suppliedPairs(200);
    const seen = new Set<string>();
    for (const [i, pair] of pairs.entries()) {
      // The same seed given explicitly is never supplied: the pair is computed here.
      const own = generateKeyPair(pair.secretKey);
      expect(Buffer.from(pair.publicKey).toString('hex')).toBe(Buffer.from(own.publicKey).toString('hex'));
      const message = new TextEncoder().encode(`message ${i}`);
      const signature = signBytes(message, pair.secretKey);
      expect(verifyStrict(pair.publicKey, message, signature)).toBe(true);
      expect(verifyStrict(pair.publicKey, new TextEncoder().encode(`message ${i + 1}`), signature)).toBe(false);
      seen.add(Buffer.from(pair.secretKey).toString('hex'));
    }
    expect(seen.size).toBe(pairs.length);
  });

  it('a pair handed out owns its secret: writing to the caller’s array changes neither the supply nor other pairs', async () => {
    const [a, b] = await suppliedPairs(2);
    const seed = Uint8Array.from(a!.secretKey);
    a!.secretKey.fill(0);
    const message = new TextEncoder().encode('still signs');
    // The zeroed array is a different key now: it signs as that key, not as the supplied one.
    expect(verifyStrict(a!.publicKey, message, signBytes(message, a!.secretKey))).toBe(false);
    expect(verifyStrict(a!.publicKey, message, signBytes(message, seed))).toBe(true);
    expect(verifyStrict(b!.publicKey, message, signBytes(message, b!.secretKey))).toBe(true);
  });

  it('keys with a seed are never taken from the supply', () => {
    const before = suppliedKeys();
    const seed = new Uint8Array(32).fill(7);
    expect(generateKeyPair(seed).publicKey).toEqual(generateKeyPair(seed).publicKey);
    expect(suppliedKeys()).toBe(before);
  });
});
