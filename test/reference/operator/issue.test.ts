// POST /v1/cashpack/issue: PROFILE.md §5 issue steps 2–10 and their boundaries
// (spec §7.1 INSUFFICIENT_BALANCE, AMOUNT_EXCEEDS_LIMIT, EXPIRY_INVALID; spec §8).
import { describe, expect, it } from 'vitest';
import { signObject } from '../../../profile/index.ts';
import { createSigningKey, validateMessage, verifyCashPack } from '../../../profile/cashpack/index.ts';
import { EUR, HOUR_MS, T0, createFixture, expectProblem, provisionPrincipal } from './fixture.ts';

describe('issue', () => {
  it('returns a signed ACTIVE pack naming the initial bearer and locks the amount (spec §1.2)', async () => {
    const f = createFixture({ balance: '1000' });
    const bearer = createSigningKey();
    const lock = f.lockRequest({ amount: '250', initialBearer: bearer.jwk });
    const reply = await f.issue(lock);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(validateMessage('cash-pack', reply.body)).toEqual({ ok: true });
    expect(verifyCashPack(reply.body, f.operator.publicKey)).toBe(true);
    expect(reply.body).toMatchObject({
      amount: '250',
      asset: EUR,
      issued_at: '2026-01-01T00:00:00Z',
      expiry: lock.requested_expiry,
      initial_bearer_pk: bearer.jwk,
      current_bearer_pk: bearer.jwk,
      renewal_chain: [],
      operator_kid: f.operator.jwk.kid,
    });
    expect(f.balance()).toEqual({ asset: EUR, available: '750', locked: '250', held: '0' });
    expect((await f.status(reply.body.pack_id)).body.status).toBe('ACTIVE');
  });

  it('gives each pack its own pack_id', async () => {
    const f = createFixture();
    const a = await f.issuePack();
    const b = await f.issuePack();
    expect(a.pack.pack_id).not.toBe(b.pack.pack_id);
  });

  describe('INSUFFICIENT_BALANCE (spec §7.1): available < amount', () => {
    it('allows an amount equal to the available balance', async () => {
      const f = createFixture({ balance: '500' });
      expect((await f.issue(f.lockRequest({ amount: '500' }))).status).toBe(200);
      expect(f.balance()).toMatchObject({ available: '0', locked: '500' });
    });

    it('refuses one unit above the available balance and changes nothing', async () => {
      const f = createFixture({ balance: '500' });
      expectProblem(await f.issue(f.lockRequest({ amount: '501' })), 'INSUFFICIENT_BALANCE');
      expect(f.balance()).toMatchObject({ available: '500', locked: '0' });
    });

    it('counts only what is available: locked funds are not spendable twice', async () => {
      const f = createFixture({ balance: '500' });
      await f.issuePack({ amount: '300' });
      expectProblem(await f.issue(f.lockRequest({ amount: '201' })), 'INSUFFICIENT_BALANCE');
      expect((await f.issue(f.lockRequest({ amount: '200' }))).status).toBe(200);
    });

    it('treats a Principal with a zero balance as insufficient', async () => {
      const f = createFixture();
      const poor = provisionPrincipal(f, '0');
      expectProblem(await f.issue(f.lockRequest({ principal: poor, amount: '1' })), 'INSUFFICIENT_BALANCE');
    });
  });

  describe('AMOUNT_EXCEEDS_LIMIT (spec §7.1, §8): amount > max_amount', () => {
    it.each([
      ['at the maximum', '1000000', 200],
      ['one above the maximum', '1000001', 422],
      ['far above the maximum (exact arithmetic)', '9'.repeat(78), 422],
    ])('%s', async (_name, amount, status) => {
      const f = createFixture({ balance: '9'.repeat(78) });
      const reply = await f.issue(f.lockRequest({ amount }));
      if (status === 200) expect(reply.status).toBe(200);
      else expectProblem(reply, 'AMOUNT_EXCEEDS_LIMIT');
    });
  });

  describe('EXPIRY_INVALID (spec §7.1, §8): requested_expiry − now outside [min, max], both ends inclusive', () => {
    it.each([
      ['one second below the minimum', 59, false],
      ['exactly the minimum', 60, true],
      ['exactly the maximum', 2_592_000, true],
      ['one second above the maximum', 2_592_001, false],
      ['in the past', -1, false],
      ['now', 0, false],
    ])('%s', async (_name, seconds, ok) => {
      const f = createFixture();
      const reply = await f.issue(f.lockRequest({ requested_expiry: T0 + seconds * 1000 }));
      if (ok) expect(reply.status).toBe(200);
      else expectProblem(reply, 'EXPIRY_INVALID');
    });

    it('measures the range from the clock at receipt, not from created_at', async () => {
      const f = createFixture();
      const lock = f.lockRequest({ created_at: T0 - 200_000, requested_expiry: T0 + 60_000 });
      expect((await f.issue(lock)).status).toBe(200);
    });
  });

  describe('STALE_REQUEST (PROFILE.md §6): created_at within request_window_seconds, before or after', () => {
    it.each([
      ['301 s old', -301, false],
      ['300 s old', -300, true],
      ['300 s ahead', 300, true],
      ['301 s ahead', 301, false],
    ])('created_at %s', async (_name, offset, ok) => {
      const f = createFixture();
      const reply = await f.issue(f.lockRequest({ created_at: T0 + offset * 1000 }));
      if (ok) expect(reply.status).toBe(200);
      else expectProblem(reply, 'STALE_REQUEST');
    });
  });

  it('refuses a Lock Request by a key that is not a registered Principal: PRINCIPAL_UNKNOWN', async () => {
    const f = createFixture();
    const stranger = createSigningKey();
    expectProblem(await f.issue(f.lockRequest({ principal: stranger })), 'PRINCIPAL_UNKNOWN');
  });

  it('refuses an asset the policy does not list: ASSET_NOT_SUPPORTED', async () => {
    const f = createFixture();
    for (const asset of [{ type: 'fiat', code: 'USD' }, { type: 'stablecoin', code: 'EUR', chain_id: '1' }] as const) {
      expectProblem(await f.issue(f.lockRequest({ asset })), 'ASSET_NOT_SUPPORTED');
    }
  });

  it('treats a policy asset other than the Principal account asset as an empty balance', async () => {
    const usd = { type: 'fiat', code: 'USD' } as const;
    const f = createFixture({ policy: { assets: [EUR, usd] } });
    expectProblem(await f.issue(f.lockRequest({ asset: usd, amount: '1' })), 'INSUFFICIENT_BALANCE');
  });

  it('refuses a Lock Request whose signature is not the Principal\'s: INVALID_SIGNATURE', async () => {
    const f = createFixture();
    const lock = f.lockRequest();
    const forged = signObject('lock-request', lock, createSigningKey().secretKey);
    expectProblem(await f.issue(forged), 'INVALID_SIGNATURE');
  });

  describe('check order (PROFILE.md §5 issue): the first failing step answers', () => {
    const stranger = createSigningKey();
    it.each([
      ['bad signature and unknown Principal → INVALID_SIGNATURE', { principal: stranger }, true, 'INVALID_SIGNATURE'],
      ['unknown Principal and stale → PRINCIPAL_UNKNOWN', { principal: stranger, created_at: T0 - HOUR_MS }, false, 'PRINCIPAL_UNKNOWN'],
      ['stale and over the limit → STALE_REQUEST', { created_at: T0 - HOUR_MS, amount: '1000001' }, false, 'STALE_REQUEST'],
      ['unsupported asset and over the limit → ASSET_NOT_SUPPORTED', { asset: { type: 'fiat', code: 'USD' }, amount: '1000001' }, false, 'ASSET_NOT_SUPPORTED'],
      ['over the limit and bad expiry → AMOUNT_EXCEEDS_LIMIT', { amount: '1000001', requested_expiry: T0 }, false, 'AMOUNT_EXCEEDS_LIMIT'],
      ['bad expiry and insufficient balance → EXPIRY_INVALID', { amount: '1000000', requested_expiry: T0 }, false, 'EXPIRY_INVALID'],
    ] as const)('%s', async (_name, overrides, tamper, code) => {
      const f = createFixture({ balance: '10' });
      let lock = f.lockRequest(overrides);
      if (tamper) lock = { ...lock, amount: '101' };
      expectProblem(await f.issue(lock), code);
      expect(f.balance()).toMatchObject({ available: '10', locked: '0' });
    });
  });
});
