// The well-known documents (spec §4.3, §5.2; PROFILE.md §4.8): GET and HEAD,
// application/json, no authentication; issued packs verify under the served key.
import { describe, expect, it } from 'vitest';
import { operatorKeyOf, validateMessage, verifyCashPack, verifyConfirmation, type CashPack } from '../../../profile/cashpack/index.ts';
import { PROFILE_ID } from '../../../profile/version.ts';
import { Clock } from '../../../reference/clock.ts';
import { serializeResponse } from '../../../reference/http/respond.ts';
import { createOperator } from '../../../reference/operator/index.ts';
import { EUR, createFixture, expectProblem } from './fixture.ts';

const POLICY = '/.well-known/cashpack-policy.json';
const PUBKEY = '/.well-known/cashpack-pubkey.json';

describe('well-known documents', () => {
  it('serves the signing key as a JWK set under which issued packs and confirmations verify', async () => {
    const f = createFixture();
    const reply = await f.send('GET', PUBKEY);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(validateMessage('pubkey', reply.body)).toEqual({ ok: true });
    expect(reply.body.keys[0]).toEqual({ ...f.operator.jwk, use: 'sig', alg: 'EdDSA' });
    const served = operatorKeyOf(reply.body)!;
    const { pack, bearer } = await f.issuePack();
    expect(verifyCashPack(pack, served)).toBe(true);
    const renewed = await f.renewPack(pack, bearer);
    expect(verifyCashPack(renewed.pack, served)).toBe(true);
    const confirmation = (await f.redeem(renewed.pack, f.redemption(renewed.pack, renewed.bearer))).body;
    expect(verifyConfirmation(confirmation, served)).toBe(true);
    expect(pack.operator_kid).toBe(reply.body.keys[0].kid);
  });

  it('serves the Policy Document with the reference defaults', async () => {
    const f = createFixture();
    const reply = await f.send('GET', POLICY);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(validateMessage('policy', reply.body)).toEqual({ ok: true });
    expect(reply.body).toEqual({
      profile: PROFILE_ID,
      operator_kid: f.operator.jwk.kid,
      assets: [EUR],
      max_amount: '1000000',
      max_chain_depth: 8,
      expiry_min_seconds: 60,
      expiry_max_seconds: 2_592_000,
      required_identity_level: 2,
      request_window_seconds: 300,
      max_body_bytes: 65_536,
    });
  });

  it('reflects a configured policy', async () => {
    const f = createFixture({ policy: { max_amount: '5000', max_chain_depth: 3 } });
    expect((await f.send('GET', POLICY)).body).toMatchObject({ max_amount: '5000', max_chain_depth: 3, expiry_min_seconds: 60 });
  });

  it.each([POLICY, PUBKEY])('answers HEAD %s with the headers of GET, Content-Length included, and no body', async (path) => {
    const operator = createOperator({ clock: new Clock() });
    const request = (method: string) => ({ method, path, query: new URLSearchParams(), headers: {}, body: new Uint8Array(), authority: 'localhost', secure: true });
    const get = serializeResponse(await operator.handler(request('GET')), 'GET');
    const head = serializeResponse(await operator.handler(request('HEAD')), 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/json');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(Number(get.headers['content-length'])).toBe(get.body.length);
    expect(head.body).toHaveLength(0);
  });

  it.each([POLICY, PUBKEY])('answers POST %s with 405 and Allow', async (path) => {
    const f = createFixture();
    const reply = await f.send('POST', path, { json: {} });
    expectProblem(reply, 'METHOD_NOT_ALLOWED');
    expect(reply.headers.allow).toBe('GET, HEAD');
  });

  it('keeps the same key for the same signing seed', () => {
    const seed = new Uint8Array(32).fill(7);
    const a = createOperator({ clock: new Clock(), signingSeed: seed });
    const b = createOperator({ clock: new Clock(), signingSeed: seed });
    expect(a.jwk).toEqual(b.jwk);
  });

  it('derives pack ids from the id seed and the signed Lock Request, in whatever order requests come', async () => {
    const idSeed = new Uint8Array(32).fill(9);
    const a = createFixture({ idSeed });
    const locks = ['6f1c2a3e-0000-4000-8000-000000000001', '6f1c2a3e-0000-4000-8000-000000000002'].map((request_id) => a.lockRequest({ request_id }));
    // The same signed requests to each Operator: its Principal provisioned with a's key.
    const ids = async (f: ReturnType<typeof createFixture>, order: readonly number[]) => {
      if (f !== a) f.operator.provisionPrincipal({ public_key: a.principal.jwk, asset: EUR, balance: f.operator.policy.max_amount });
      const out: string[] = [];
      for (const i of order) {
        const reply = await f.issue(locks[i]);
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        out[i] = (reply.body as CashPack).pack_id;
      }
      return out;
    };
    const seeded = await ids(a, [0, 1]);
    expect(await ids(createFixture({ idSeed }), [1, 0])).toEqual(seeded);
    expect(seeded[0]).not.toBe(seeded[1]);
    expect((await ids(createFixture(), [0, 1]))[0]).not.toBe(seeded[0]);
  });

  it('gives a request_id the Operator has forgotten, back in a new Lock Request, a new seeded pack id', async () => {
    const f = createFixture({ idSeed: new Uint8Array(32).fill(9) });
    const request_id = '6f1c2a3e-0000-4000-8000-000000000003';
    const first = await f.issuePack({ request_id });
    // PROFILE.md §6: ids are remembered for twice the freshness window.
    f.clock.advance(2 * f.operator.policy.request_window_seconds + 1);
    const again = await f.issuePack({ request_id });
    expect(again.pack.pack_id).not.toBe(first.pack.pack_id);
  });

  it.each([
    ['a minimum above the maximum', { expiry_min_seconds: 10, expiry_max_seconds: 5 }],
    ['an amount that is not an amount', { max_amount: '0' }],
    ['no assets', { assets: [] }],
    ['an identity level above 3', { required_identity_level: 4 }],
  ])('refuses to start with %s', (_name, policy) => {
    expect(() => createOperator({ clock: new Clock(), policy })).toThrow(RangeError);
  });
});
