// INVALID_SIGNATURE (spec §5.2, §7.1; PROFILE.md §2.2, §2.3): every body signature
// is checked under its key with its domain tag, and an independent Ed25519
// implementation (@noble/ed25519) agrees with the Operator in both directions.
import { randomBytes } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { decodeB64urlFixed, encodeB64url, signObject, signingInput, type MessageType } from '../../../profile/index.ts';
import { createSigningKey, type CashPack, type SigningKey } from '../../../profile/cashpack/index.ts';
import { createFixture, expectProblem, type Fixture } from './fixture.ts';

ed.hashes.sha512 = sha512;

/** Re-signs `object` with @noble/ed25519 over the profile's signing input. */
function nobleSign<T extends Record<string, unknown>>(type: MessageType, object: T, secretKey: Uint8Array): T {
  return { ...object, signature: encodeB64url(ed.sign(signingInput(type, object), secretKey)) };
}

/** Flips one bit of a base64url signature, keeping it strict base64url of 64 bytes. */
function flipSignature(signature: string): string {
  const bytes = decodeB64urlFixed(signature, 64)!;
  bytes[10] = bytes[10]! ^ 0x01;
  return encodeB64url(bytes);
}

type Attempt = (f: Fixture, pack: CashPack, bearer: SigningKey) => ReturnType<Fixture['send']>;

describe('INVALID_SIGNATURE', () => {
  const cases: [name: string, attempt: Attempt][] = [
    ['a tampered Lock Request (amount changed after signing)', (f) => f.issue({ ...f.lockRequest(), amount: '99' })],
    ['a Lock Request with a flipped signature bit', (f) => {
      const lock = f.lockRequest();
      return f.issue({ ...lock, signature: flipSignature(lock.signature) });
    }],
    ['a Lock Request signed by another key', (f) => f.issue(signObject('lock-request', f.lockRequest(), createSigningKey().secretKey))],
    ['a tampered Renewal Entry (new_bearer_pk swapped after signing)', (f, pack, bearer) =>
      f.renew(pack, { ...f.renewal(pack, bearer).entry, new_bearer_pk: createSigningKey().jwk })],
    ['a Renewal Entry signed by a key other than its bearer_pk', (f, pack, bearer) =>
      f.renew(pack, signObject('renewal-entry', f.renewal(pack, bearer).entry, createSigningKey().secretKey))],
    ['a tampered Redemption Request (redeemer_kid changed after signing)', (f, pack, bearer) =>
      f.redeem(pack, { ...f.redemption(pack, bearer), redeemer_kid: createSigningKey().jwk.kid })],
    ['a tampered cash-pack on renew (amount raised)', (f, pack, bearer) => f.renew({ ...pack, amount: '1000' }, f.renewal(pack, bearer).entry)],
    ['a tampered cash-pack on redeem (expiry extended)', (f, pack, bearer) =>
      f.redeem({ ...pack, expiry: '2027-01-01T00:00:00Z' }, f.redemption(pack, bearer))],
    ['a cash-pack signed by the bearer instead of the Operator', (f, pack, bearer) =>
      f.redeem(signObject('cash-pack', pack, bearer.secretKey), f.redemption(pack, bearer))],
  ];

  it.each(cases)('refuses %s', async (_name, attempt) => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    const before = f.balance();
    expectProblem(await attempt(f, pack, bearer), 'INVALID_SIGNATURE');
    expect(f.balance()).toEqual(before);
    expect((await f.status(pack.pack_id)).body).toMatchObject({ status: 'ACTIVE', chain_depth: 0 });
  });

  describe('domain separation (PROFILE.md §2.2): a signature made for another message type never verifies', () => {
    const cases: [name: string, attempt: Attempt][] = [
      ['a Lock Request signed with the cash-pack tag', (f) => f.issue(signObject('cash-pack', f.lockRequest(), f.principal.secretKey))],
      ['a Renewal Entry signed with the redemption-request tag', (f, pack, bearer) =>
        f.renew(pack, signObject('redemption-request', f.renewal(pack, bearer).entry, bearer.secretKey))],
      ['a Redemption Request signed with the renewal-entry tag', (f, pack, bearer) =>
        f.redeem(pack, signObject('renewal-entry', f.redemption(pack, bearer), bearer.secretKey))],
    ];
    it.each(cases)('refuses %s', async (_name, attempt) => {
      const f = createFixture();
      const { pack, bearer } = await f.issuePack();
      expectProblem(await attempt(f, pack, bearer), 'INVALID_SIGNATURE');
    });

    it('refuses a cash-pack signed by the Operator\'s own key with the redemption-confirmation tag', async () => {
      const seed = randomBytes(32); // the Ed25519 secret key is the seed
      const f = createFixture({ signingSeed: seed });
      const { pack, bearer } = await f.issuePack();
      const retagged = signObject('redemption-confirmation', pack, seed);
      expectProblem(await f.renew(retagged, f.renewal(pack, bearer).entry), 'INVALID_SIGNATURE');
      // The same key and content with the right tag is accepted.
      expect((await f.renew(signObject('cash-pack', pack, seed), f.renewal(pack, bearer).entry)).status).toBe(200);
    });
  });

  it('checks the cash-pack signature before the message signature and the pack state', async () => {
    const f = createFixture();
    const { pack } = await f.issuePack();
    const stranger = createSigningKey();
    const reply = await f.renew({ ...pack, amount: '5' }, f.renewal(pack, stranger).entry);
    expectProblem(reply, 'INVALID_SIGNATURE');
    expect(reply.body.detail).toMatch(/cash_pack/);
  });
});

describe('cross-check with @noble/ed25519, an independent signer and verifier', () => {
  it('accepts a Lock Request, Renewal Entry and Redemption Request signed by noble', async () => {
    const f = createFixture();
    const bearer = createSigningKey();
    const lock = nobleSign('lock-request', f.lockRequest({ initialBearer: bearer.jwk }), f.principal.secretKey);
    const issued = await f.issue(lock);
    expect(issued.status).toBe(200);
    const pack = issued.body as CashPack;

    const { entry, next } = f.renewal(pack, bearer);
    const renewed = await f.renew(pack, nobleSign('renewal-entry', entry, bearer.secretKey));
    expect(renewed.status).toBe(200);

    const redemption = nobleSign('redemption-request', f.redemption(renewed.body, next), next.secretKey);
    expect((await f.redeem(renewed.body, redemption)).status).toBe(200);
  });

  it('verifies the Operator\'s pack and confirmation signatures with noble', async () => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    const confirmation = (await f.redeem(pack, f.redemption(pack, bearer))).body;
    for (const [type, object] of [['cash-pack', pack], ['redemption-confirmation', confirmation]] as const) {
      const signature = decodeB64urlFixed(object.signature, 64)!;
      expect(ed.verify(signature, signingInput(type, object), f.operator.publicKey)).toBe(true);
      expect(ed.verify(signature, signingInput('lock-request', object), f.operator.publicKey)).toBe(false);
    }
  });

  it('noble derives the same public key from the secret key', () => {
    const key = createSigningKey();
    expect(ed.getPublicKey(key.secretKey)).toEqual(key.publicKey);
  });
});
