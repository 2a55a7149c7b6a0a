import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateKeyPair, isAcceptablePointEncoding, signBytes, verifyStrict } from '../../profile/ed25519.ts';
import { describeExternal, hex, speccheckCases, wycheproofEd25519 } from '../support/external-vectors.ts';
import { noble, nobleVerifyStrict } from '../support/noble-oracle.ts';

describeExternal('Ed25519 strict verification (PROFILE.md §2.3): Wycheproof and speccheck', () => {
  const wycheproof = wycheproofEd25519();

  it('reads all 151 Wycheproof cases', () => {
    expect(wycheproof).toHaveLength(151);
  });

  it.each(wycheproof.map(({ publicKey, test }) => [test.tcId, test.comment, publicKey, test] as const))(
    'matches the Wycheproof verdict for tcId %i (%s)',
    (_id, _comment, publicKey, test) => {
      const verdict = verifyStrict(hex(publicKey), hex(test.msg), hex(test.sig));
      expect(test.result).not.toBe('acceptable'); // the file has none; an 'acceptable' case would need a profile decision
      expect(verdict).toBe(test.result === 'valid');
      expect(nobleVerifyStrict(hex(publicKey), hex(test.msg), hex(test.sig))).toBe(verdict);
    },
  );

  // ../shared/external-vectors/README.md: a strict verifier accepts only case 3.
  const expected = [false, false, false, true, false, false, false, false, false, false, false, false];
  it.each(speccheckCases().map((c, i) => [i, c, expected[i]] as const))('gives speccheck case %i the predicted verdict', (_i, c, verdict) => {
    expect(verifyStrict(hex(c.pub_key), hex(c.message), hex(c.signature))).toBe(verdict);
    expect(nobleVerifyStrict(hex(c.pub_key), hex(c.message), hex(c.signature))).toBe(verdict);
  });
});

describe('Ed25519 strict verification (PROFILE.md §2.3)', () => {

  it('signs the RFC 8032 §7.1 TEST 1 known answer', () => {
    const kp = generateKeyPair(hex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'));
    expect(Buffer.from(kp.publicKey).toString('hex')).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(Buffer.from(signBytes(new Uint8Array(), kp.secretKey)).toString('hex')).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
  });

  it('agrees with @noble/ed25519 on keys, signatures and verdicts for random inputs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 200 }), fc.nat(63), (seed, msg, flip) => {
        const kp = generateKeyPair(seed);
        expect(Buffer.from(noble.getPublicKey(seed))).toEqual(Buffer.from(kp.publicKey));
        const sig = signBytes(msg, kp.secretKey);
        expect(Buffer.from(noble.sign(msg, seed))).toEqual(Buffer.from(sig));
        expect(verifyStrict(kp.publicKey, msg, sig)).toBe(true);
        const bad = Uint8Array.from(sig);
        bad[flip] = bad[flip]! ^ 0x01;
        expect(verifyStrict(kp.publicKey, msg, bad)).toBe(false);
        expect(nobleVerifyStrict(kp.publicKey, msg, bad)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('makes fresh pairs whose public key is the seed\'s, as noble derives it, and whose signatures are noble\'s', () => {
    for (let i = 0; i < 50; i++) {
      const kp = generateKeyPair();
      expect(Buffer.from(noble.getPublicKey(kp.secretKey))).toEqual(Buffer.from(kp.publicKey));
      const msg = Uint8Array.of(i, 1, 2, 3);
      const sig = signBytes(msg, kp.secretKey);
      expect(Buffer.from(noble.sign(msg, kp.secretKey))).toEqual(Buffer.from(sig));
      expect(verifyStrict(kp.publicKey, msg, sig)).toBe(true);
    }
  });

  it('signs with the bytes a secret key array holds now, after another key was written into it', () => {
    const secret = generateKeyPair().secretKey;
    const msg = Uint8Array.of(7, 8, 9);
    expect(Buffer.from(signBytes(msg, secret))).toEqual(Buffer.from(noble.sign(msg, secret)));
    for (let i = 0; i < 3; i++) {
      secret.set(generateKeyPair().secretKey);
      expect(Buffer.from(signBytes(msg, secret))).toEqual(Buffer.from(noble.sign(msg, secret)));
    }
  });

  it('rejects exactly the small-order points noble identifies, and non-canonical encodings', () => {
    // The eight torsion points: multiples of an order-8 point.
    const order8 = noble.Point.fromHex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05');
    let p = noble.Point.ZERO;
    for (let i = 0; i < 8; i++) {
      expect(p.isSmallOrder()).toBe(true);
      expect(isAcceptablePointEncoding(p.toBytes())).toBe(false);
      p = p.add(order8);
    }
    // y = p (non-canonical encoding of y = 0) and y = 2^255 - 1.
    const P = 2n ** 255n - 19n;
    for (const y of [P, P + 1n, 2n ** 255n - 1n]) {
      const bytes = Buffer.from(y.toString(16).padStart(64, '0'), 'hex').reverse();
      expect(isAcceptablePointEncoding(bytes)).toBe(false);
    }
    expect(isAcceptablePointEncoding(generateKeyPair().publicKey)).toBe(true);
  });

  it.each([
    ['a 31-byte key', new Uint8Array(31), new Uint8Array(64)],
    ['a 63-byte signature', generateKeyPair().publicKey, new Uint8Array(63)],
  ])('returns false without throwing for %s', (_name, key, sig) => {
    expect(verifyStrict(key, new Uint8Array(), sig)).toBe(false);
  });
});
