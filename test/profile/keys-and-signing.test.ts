import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeB64url, encodeB64url } from '../../profile/b64url.ts';
import { chainDigests, genesisDigest, renewalDigest } from '../../profile/chain.ts';
import { generateKeyPair, signBytes } from '../../profile/ed25519.ts';
import { jwkThumbprint, publicJwk, readJwk } from '../../profile/jwk.ts';
import { SIGNING_TAGS, signObject, signingInput, verifyObject, type MessageType } from '../../profile/signing.ts';

describe('OKP JWKs (PROFILE.md §2.1)', () => {
  it('computes the RFC 8037 appendix A.3 thumbprint', () => {
    expect(jwkThumbprint('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo')).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('reads back the JWK it writes', () => {
    const { publicKey } = generateKeyPair();
    const jwk = publicJwk(publicKey);
    const read = readJwk(jwk);
    expect(read.ok && Buffer.from(read.publicKey).equals(Buffer.from(publicKey))).toBe(true);
  });

  const good = publicJwk(generateKeyPair().publicKey);
  it.each([
    ['a kid that is not the thumbprint', { ...good, kid: 'x' }],
    ['a private member d', { ...good, d: good.x }],
    ['another curve', { ...good, crv: 'X25519' }],
    ['a 31-byte x', { ...good, x: encodeB64url(new Uint8Array(31)) }],
    ['x with padding', { ...good, x: `${good.x}=` }],
    ['a missing kid', { kty: good.kty, crv: good.crv, x: good.x }],
    ['an array', [good]],
  ])('rejects %s', (_name, jwk) => {
    expect(readJwk(jwk).ok).toBe(false);
  });
});

describe('signed objects (PROFILE.md §2.2)', () => {
  const key = generateKeyPair();
  const object = { b: 'é', a: [1, 2], nested: { z: true, y: null } };

  it('signs tag || LF || JCS of the object without its signature', () => {
    const signed = signObject('lock-request', object, key.secretKey);
    const expectedInput = 'CPP-PROFILE-1.0/lock-request\n{"a":[1,2],"b":"é","nested":{"y":null,"z":true}}';
    expect(Buffer.from(signingInput('lock-request', signed)).toString('utf8')).toBe(expectedInput);
    expect(signed.signature).toBe(encodeB64url(signBytes(Buffer.from(expectedInput, 'utf8'), key.secretKey)));
    expect(verifyObject('lock-request', signed, key.publicKey)).toBe(true);
  });

  it('never lets a signature for one message type pass as another', () => {
    const types = Object.keys(SIGNING_TAGS) as MessageType[];
    for (const signedAs of types) {
      const signed = signObject(signedAs, object, key.secretKey);
      for (const checkedAs of types) expect(verifyObject(checkedAs, signed, key.publicKey)).toBe(signedAs === checkedAs);
    }
  });

  it('fails when any member changes, the key differs or the signature is not strict base64url', () => {
    const signed = signObject('cash-pack', object, key.secretKey);
    expect(verifyObject('cash-pack', { ...signed, b: 'e' }, key.publicKey)).toBe(false);
    expect(verifyObject('cash-pack', { ...signed, extra: 1 }, key.publicKey)).toBe(false);
    expect(verifyObject('cash-pack', signed, generateKeyPair().publicKey)).toBe(false);
    expect(verifyObject('cash-pack', { ...signed, signature: `${signed.signature}==` }, key.publicKey)).toBe(false);
    expect(verifyObject('cash-pack', { ...signed, signature: undefined }, key.publicKey)).toBe(false);
  });
});

describe('chain digest (PROFILE.md §3)', () => {
  // The digests written out by hand from the profile's byte layout.
  const sha = (...parts: (Uint8Array | string)[]) => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return new Uint8Array(h.digest());
  };
  const packId = '3f1c2a4e-8b7d-4c3a-9e2f-1a2b3c4d5e6f';
  const uuid16 = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
  const bearers = [1, 2, 3, 4].map((n) => generateKeyPair(new Uint8Array(32).fill(n)));
  const renewalIds = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];

  it('starts from D0 = SHA-256(genesis tag, LF, pack id, initial bearer key)', () => {
    const d0 = sha('CPP-PROFILE-1.0/chain-genesis\n', uuid16(packId), bearers[0]!.publicKey);
    expect(encodeB64url(genesisDigest(packId, bearers[0]!.publicKey))).toBe(encodeB64url(d0));
  });

  it('rolls Di = SHA-256(renewal tag, LF, D(i-1), renewal id, new bearer key, signature) at depths 1 to 3', () => {
    const links = renewalIds.map((renewal_id, i) => ({
      renewal_id,
      new_bearer_key: bearers[i + 1]!.publicKey,
      signature: signBytes(Buffer.from(renewal_id), bearers[i]!.secretKey),
    }));
    const digests = chainDigests(packId, bearers[0]!.publicKey, links);
    expect(digests).toHaveLength(4);
    let expected = sha('CPP-PROFILE-1.0/chain-genesis\n', uuid16(packId), bearers[0]!.publicKey);
    links.forEach((link, i) => {
      expected = sha('CPP-PROFILE-1.0/chain-renewal\n', expected, uuid16(link.renewal_id), link.new_bearer_key, link.signature);
      expect(encodeB64url(digests[i + 1]!)).toBe(encodeB64url(expected));
      expect(renewalDigest(digests[i]!, link.renewal_id, link.new_bearer_key, link.signature)).toEqual(digests[i + 1]);
    });
  });

  it('refuses fields of the wrong length instead of hashing an ambiguous string', () => {
    expect(() => renewalDigest(new Uint8Array(31), renewalIds[0]!, bearers[0]!.publicKey, new Uint8Array(64))).toThrow(RangeError);
    expect(() => genesisDigest('not-a-uuid', bearers[0]!.publicKey)).toThrow(TypeError);
    expect(decodeB64url(encodeB64url(genesisDigest(packId, bearers[0]!.publicKey)))).toHaveLength(32);
  });
});
