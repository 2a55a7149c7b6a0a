// The published test keys of the vectors (vectors/README.md): Ed25519 key pairs
// whose RFC 8032 seeds are SHA-256 of a fixed ASCII label, so anyone can rebuild
// them and reproduce every signature. They sign nothing outside test vectors.
import { createHash } from 'node:crypto';
import { generateKeyPair } from '../../profile/ed25519.ts';
import { publicJwk, type OkpJwk } from '../../profile/jwk.ts';

export interface TestKey {
  /** Stable name used in vectors ("test-key-1"). */
  readonly name: string;
  /** The text whose SHA-256 is the seed. */
  readonly label: string;
  /** What the vectors use it for. */
  readonly role: string;
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly jwk: OkpJwk;
}

const ROLES = [
  'Principal: signs Lock Requests',
  'initial bearer: signs the first Renewal Entry or Redemption Request of a pack',
  'second bearer: new_bearer_pk of the first renewal',
  'third bearer, and the "wrong key" of invalid cases',
  'operator of the vectors: signs cash-packs and Redemption Confirmations in signatures.json and jcs.json',
  'redeemer account key: its kid is the redeemer_kid of Redemption Requests',
] as const;

function makeKey(index: number, role: string): TestKey {
  const label = `cpr-conformance test key ${index}`;
  const seed = new Uint8Array(createHash('sha256').update(label, 'ascii').digest());
  const { publicKey } = generateKeyPair(seed);
  return { name: `test-key-${index}`, label, role, seed, publicKey, jwk: publicJwk(publicKey) };
}

export const TEST_KEYS: readonly TestKey[] = ROLES.map((role, i) => makeKey(i + 1, role));

export function testKey(name: string): TestKey {
  const key = TEST_KEYS.find((k) => k.name === name);
  if (!key) throw new RangeError(`no published test key named ${JSON.stringify(name)} (known: ${TEST_KEYS.map((k) => k.name).join(', ')})`);
  return key;
}

/** Key n (1-based). */
export function key(n: 1 | 2 | 3 | 4 | 5 | 6): TestKey {
  return TEST_KEYS[n - 1]!;
}

/** The header lines that publish the keys: name, role, seed recipe and hex, public JWK. */
export function keyHeaderLines(names: readonly string[] = TEST_KEYS.map((k) => k.name)): string[] {
  return names.map((name) => {
    const k = testKey(name);
    return `${k.name} (${k.role}): seed = SHA-256(ASCII "${k.label}") = ${Buffer.from(k.seed).toString('hex')}; public JWK ${JSON.stringify(k.jwk)}`;
  });
}
