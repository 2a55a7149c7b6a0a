// The test-control interface, Operator rows (PROFILE.md §12): provisioning,
// cancellation and balances over the handler, as a harness uses them.
import { describe, expect, it } from 'vitest';
import { newUuid } from '../../../profile/index.ts';
import { createSigningKey } from '../../../profile/cashpack/index.ts';
import { Clock } from '../../../reference/clock.ts';
import { createOperator } from '../../../reference/operator/index.ts';
import { EUR, createFixture, expectProblem } from './fixture.ts';

describe('test control', () => {
  it('provisions a Principal that can then obtain issuance, and reports its balance', async () => {
    const f = createFixture();
    const key = createSigningKey();
    const created = await f.send('POST', '/_control/operator/principals', { json: { public_key: key.jwk, asset: EUR, balance: '700' } });
    expect(created).toMatchObject({ status: 201, body: { kid: key.jwk.kid } });
    expect((await f.issue(f.lockRequest({ principal: key, amount: '200' }))).status).toBe(200);
    const balance = await f.send('GET', `/_control/operator/principals/${key.jwk.kid}/balance`);
    expect(balance).toMatchObject({ status: 200, body: { asset: EUR, available: '500', locked: '200', held: '0' } });
  });

  it('re-provisioning a Principal sets its available balance and keeps locked funds', async () => {
    const f = createFixture({ balance: '1000' });
    await f.issuePack({ amount: '300' });
    await f.send('POST', '/_control/operator/principals', { json: { public_key: f.principal.jwk, asset: EUR, balance: '50' } });
    expect(f.balance()).toMatchObject({ available: '50', locked: '300' });
    const usd = { type: 'fiat', code: 'USD' };
    expectProblem(await f.send('POST', '/_control/operator/principals', { json: { public_key: f.principal.jwk, asset: usd, balance: '50' } }), 'MALFORMED_REQUEST');
  });

  it('re-provisioning a Principal after a pack expired, with nothing read since, replaces the available balance the expiry made (PROFILE.md §12, §5.1)', async () => {
    const f = createFixture({ balance: '1000' });
    await f.issuePack({ amount: '300' });
    f.clock.advance(3_600);
    await f.send('POST', '/_control/operator/principals', { json: { public_key: f.principal.jwk, asset: EUR, balance: '50' } });
    expect(f.balance()).toMatchObject({ available: '50', locked: '0' });
  });

  it('re-provisioning a redeemer changes the level its next redemption is judged on', async () => {
    const f = createFixture();
    const redeemer = createSigningKey();
    await f.send('POST', '/_control/operator/redeemers', { json: { public_key: redeemer.jwk, identity_level: 3 } });
    const first = await f.issuePack();
    expect((await f.redeem(first.pack, f.redemption(first.pack, first.bearer, { redeemer_kid: redeemer.jwk.kid }), { signer: redeemer })).status).toBe(200);
    await f.send('POST', '/_control/operator/redeemers', { json: { public_key: redeemer.jwk, identity_level: 0 } });
    const second = await f.issuePack();
    expectProblem(await f.redeem(second.pack, f.redemption(second.pack, second.bearer, { redeemer_kid: redeemer.jwk.kid }), { signer: redeemer }), 'REDEEMER_NOT_IDENTIFIED');
    expect(await f.send('GET', `/_control/operator/redeemers/${redeemer.jwk.kid}/balance`)).toMatchObject({ status: 200, body: { available: '100' } });
  });

  it('provisions redeemers with a level and staff keys', async () => {
    const f = createFixture();
    const redeemer = createSigningKey();
    const staff = createSigningKey();
    expect(await f.send('POST', '/_control/operator/redeemers', { json: { public_key: redeemer.jwk, identity_level: 3 } })).toMatchObject({ status: 201, body: { kid: redeemer.jwk.kid } });
    expect(await f.send('POST', '/_control/operator/staff', { json: { public_key: staff.jwk } })).toMatchObject({ status: 201, body: { kid: staff.jwk.kid } });
    const { pack, bearer } = await f.issuePack();
    expect((await f.status(pack.pack_id, staff)).status).toBe(200);
    const redeemed = await f.redeem(pack, f.redemption(pack, bearer, { redeemer_kid: redeemer.jwk.kid }), { signer: redeemer });
    expect(redeemed.status).toBe(200);
    expect(await f.send('GET', `/_control/operator/redeemers/${redeemer.jwk.kid}/balance`)).toMatchObject({ status: 200, body: { asset: EUR, available: '100' } });
  });

  it.each([
    ['principals', { public_key: createSigningKey().jwk, asset: EUR }],
    ['principals', { public_key: createSigningKey().jwk, asset: EUR, balance: '-5' }],
    ['principals', { public_key: createSigningKey().jwk, asset: EUR, balance: 5 }],
    ['principals', { public_key: { ...createSigningKey().jwk, kid: 'x' }, asset: EUR, balance: '0' }],
    ['principals', { public_key: createSigningKey().jwk, asset: { type: 'fiat', code: 'eur' }, balance: '0' }],
    ['redeemers', { public_key: createSigningKey().jwk, identity_level: 4 }],
    ['redeemers', { public_key: createSigningKey().jwk, identity_level: 1.5 }],
    ['redeemers', { public_key: createSigningKey().jwk, identity_level: 2, extra: true }],
    ['staff', { public_key: { ...createSigningKey().jwk, d: 'AAAA' } }],
    ['staff', []],
  ])('refuses a malformed %s provisioning: %j', async (kind, body) => {
    const f = createFixture();
    expectProblem(await f.send('POST', `/_control/operator/${kind}`, { json: body }), 'MALFORMED_REQUEST');
  });

  it('cancels an ACTIVE pack (200) and refuses an unknown one (404)', async () => {
    const f = createFixture();
    const { pack } = await f.issuePack();
    expect(await f.send('POST', `/_control/operator/packs/${pack.pack_id}/cancel`)).toMatchObject({
      status: 200,
      body: { pack_id: pack.pack_id, status: 'CANCELLED' },
    });
    expectProblem(await f.send('POST', `/_control/operator/packs/${newUuid()}/cancel`), 'NOT_FOUND');
  });

  it.each(['principals', 'redeemers'])('answers 404 for the balance of an unknown %s kid', async (kind) => {
    const f = createFixture();
    expectProblem(await f.send('GET', `/_control/operator/${kind}/${createSigningKey().jwk.kid}/balance`), 'NOT_FOUND');
  });

  it('answers 404 CONTROL_DISABLED when the interface is off, and still serves the API', async () => {
    const operator = createOperator({ clock: new Clock(), control: false });
    const request = (method: string, path: string) => operator.handler({
      method, path, query: new URLSearchParams(), headers: {}, body: new Uint8Array(), authority: 'operator.test', secure: true,
    });
    expect(request('GET', '/_control/operator/principals/x/balance')).toMatchObject({ status: 404, body: { code: 'CONTROL_DISABLED' } });
    expect(request('GET', '/.well-known/cashpack-policy.json').status).toBe(200);
  });
});
