// The vectors' own correctness, checked against sources independent of the
// profile code: a second JCS implementation (json-canonicalize), the RFC 8785
// test data, and an Ed25519 verifier written on @noble/ed25519 (test/support).
import { createHash } from 'node:crypto';
import { canonicalize as secondJcs } from 'json-canonicalize';
import { describe, expect, it } from 'vitest';
import { verifyStrict } from '../../profile/ed25519.ts';
import { canonicalBytes } from '../../profile/jcs.ts';
import { TEST_KEYS } from '../../harness/vectors/keys.ts';
import { describeExternal, listExternal, readExternal } from '../support/external-vectors.ts';
import { noble, nobleVerifyStrict } from '../support/noble-oracle.ts';
import { testsOf } from './support.ts';

/** Strict base64url (PROFILE.md §1), written here rather than taken from profile/b64url.ts. */
function strictB64url(text: string, length: number): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length !== Math.ceil((length * 4) / 3)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.length === length && bytes.toString('base64url') === text ? new Uint8Array(bytes) : undefined;
}

const TAG = 'CPP-PROFILE-1.0/';

describe('jcs.json against independent canonicalizers', () => {
  const valid = testsOf('jcs').filter((t) => t.result === 'valid');

  it.each(valid.map((t) => [t.tcId, t] as const))('tcId %i: json-canonicalize gives the same canonical text', (_id, t) => {
    const expected = t['canonical'] as string;
    expect(secondJcs(JSON.parse(t['input'] as string))).toBe(expected);
    expect(Buffer.from(expected, 'utf8').toString('hex')).toBe(t['canonical_hex']);
  });
});

describeExternal('jcs.json: the canonicalizer that made it against RFC 8785 test data', () => {
  it.each(listExternal('jcs/input'))('the canonicalizer that made the vectors reproduces RFC 8785 test data %s', (name) => {
    const expectedHex = readExternal(`jcs/outhex/${name.replace(/\.json$/, '.txt')}`).replace(/\s+/g, '');
    expect(Buffer.from(canonicalBytes(JSON.parse(readExternal(`jcs/input/${name}`)))).toString('hex')).toBe(expectedHex);
  });
});

describe('signatures.json against two strict verifiers', () => {
  const cases = testsOf('signatures');

  it.each(cases.map((t) => [t.tcId, t.result, t] as const))('tcId %i (%s): verifyStrict and the noble oracle agree with the expected result', (_id, result, t) => {
    const input = Buffer.from(`${TAG}${t['message_type'] as string}\n${secondJcs(t['object'])}`, 'utf8');
    expect(input.toString('hex')).toBe(t['signing_input_hex']);
    const jwk = t['public_key_jwk'] as { x: string };
    const key = strictB64url(jwk.x, 32);
    const sig = strictB64url(t['signature'] as string, 64);
    const profile = key !== undefined && sig !== undefined && verifyStrict(key, input, sig);
    const oracle = key !== undefined && sig !== undefined && nobleVerifyStrict(key, input, sig);
    expect(oracle).toBe(profile);
    expect(profile).toBe(result === 'valid');
  });

  it('every valid signature is reproduced by noble from the published seed (deterministic signing)', () => {
    for (const t of cases.filter((c) => c.result === 'valid')) {
      const signer = TEST_KEYS.find((k) => k.jwk.x === (t['public_key_jwk'] as { x: string }).x)!;
      expect(Buffer.from(noble.getPublicKey(signer.seed)).toString('base64url')).toBe(signer.jwk.x);
      expect(Buffer.from(noble.sign(Buffer.from(t['signing_input_hex'] as string, 'hex'), signer.seed)).toString('base64url')).toBe(t['signature']);
    }
  });

  it('the published seeds are SHA-256 of their labels', () => {
    for (const k of TEST_KEYS) expect(Buffer.from(k.seed).toString('hex')).toBe(createHash('sha256').update(k.label).digest('hex'));
  });
});

describe('jwk-thumbprints.json', () => {
  it('carries RFC 8037 A.3 with the thumbprint the RFC prints', () => {
    const rfc = testsOf('jwk-thumbprints').find((t) => (t['jwk'] as { x: string }).x === '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo')!;
    expect(rfc.result).toBe('valid');
    expect(rfc['thumbprint']).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });
});
