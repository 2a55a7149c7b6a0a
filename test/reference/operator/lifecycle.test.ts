// Status transitions and funds (spec §1.2, §3.2; PROFILE.md §5.1): funds locked on
// issue, released on redemption, returned on expiry, held on cancellation; the
// terminal states never change.
import { describe, expect, it } from 'vitest';
import { createFixture, expectProblem } from './fixture.ts';

describe('pack lifecycle', () => {
  it('ACTIVE → REDEEMED: the locked amount goes to the redeemer', async () => {
    const f = createFixture({ balance: '1000' });
    const { pack, bearer } = await f.issuePack({ amount: '300' });
    expect(f.balance()).toMatchObject({ available: '700', locked: '300', held: '0' });
    f.clock.advance(10);
    expect((await f.redeem(pack, f.redemption(pack, bearer))).status).toBe(200);
    expect((await f.status(pack.pack_id)).body).toMatchObject({ status: 'REDEEMED', updated_at: '2026-01-01T00:00:10Z' });
    expect(f.balance()).toMatchObject({ available: '700', locked: '0', held: '0' });
    expect(f.redeemed()).toBe('300');
  });

  describe('ACTIVE → EXPIRED: funds return to the Principal exactly at the expiry instant', () => {
    it('is still ACTIVE and locked one second before expiry', async () => {
      const f = createFixture({ balance: '1000' });
      const { pack } = await f.issuePack({ amount: '300', requested_expiry: f.clock.now() + 3_600_000 });
      f.clock.advance(3_599);
      expect(f.balance()).toMatchObject({ available: '700', locked: '300' });
      expect((await f.status(pack.pack_id)).body.status).toBe('ACTIVE');
    });

    it('is EXPIRED with the funds available at the expiry instant, seen first through the balance', async () => {
      const f = createFixture({ balance: '1000' });
      const { pack } = await f.issuePack({ amount: '300', requested_expiry: f.clock.now() + 3_600_000 });
      f.clock.advance(3_600);
      expect(f.balance()).toMatchObject({ available: '1000', locked: '0', held: '0' });
      expect((await f.status(pack.pack_id)).body).toMatchObject({ status: 'EXPIRED', updated_at: pack.expiry });
    });

    it('is EXPIRED when first seen through the status long after, dated at the expiry instant', async () => {
      const f = createFixture({ balance: '1000' });
      const { pack } = await f.issuePack({ amount: '300', requested_expiry: f.clock.now() + 3_600_000 });
      f.clock.advance(86_400);
      expect((await f.status(pack.pack_id)).body).toMatchObject({ status: 'EXPIRED', updated_at: pack.expiry });
      expect(f.balance()).toMatchObject({ available: '1000', locked: '0' });
    });

    it('returns each expired pack once, whatever the order of reads', async () => {
      const f = createFixture({ balance: '1000' });
      const a = await f.issuePack({ amount: '100', requested_expiry: f.clock.now() + 60_000 });
      await f.issuePack({ amount: '200', requested_expiry: f.clock.now() + 120_000 });
      f.clock.advance(60);
      await f.status(a.pack.pack_id);
      expect(f.balance()).toMatchObject({ available: '800', locked: '200' });
      f.clock.advance(60);
      expect(f.balance()).toMatchObject({ available: '1000', locked: '0' });
      expect(f.balance()).toMatchObject({ available: '1000', locked: '0' });
    });
  });

  it('ACTIVE → CANCELLED: the amount moves from locked to held', async () => {
    const f = createFixture({ balance: '1000' });
    const { pack } = await f.issuePack({ amount: '300' });
    expect(f.operator.cancel(pack.pack_id)).toEqual({ ok: true, value: { pack_id: pack.pack_id, status: 'CANCELLED' } });
    expect((await f.status(pack.pack_id)).body.status).toBe('CANCELLED');
    expect(f.balance()).toEqual({ asset: pack.asset, available: '700', locked: '0', held: '300' });
  });

  describe('terminal states never change (spec §3.2)', () => {
    it.each(['REDEEMED', 'EXPIRED', 'CANCELLED'] as const)('a %s pack cannot be cancelled (409) nor expire again', async (state) => {
      const f = createFixture({ balance: '1000' });
      const { pack, bearer } = await f.issuePack({ amount: '300', requested_expiry: f.clock.now() + 60_000 });
      if (state === 'REDEEMED') await f.redeem(pack, f.redemption(pack, bearer));
      if (state === 'EXPIRED') f.clock.advance(60);
      if (state === 'CANCELLED') f.operator.cancel(pack.pack_id);
      const balance = f.balance();

      const cancel = await f.send('POST', `/_control/operator/packs/${pack.pack_id}/cancel`);
      expectProblem(cancel, 'INSTRUMENT_NOT_ACTIVE');
      f.clock.advance(3_600);
      expect((await f.status(pack.pack_id)).body.status).toBe(state);
      expect(f.balance()).toEqual(balance);
    });

    it('cancelling an expired-but-unread pack finds it EXPIRED and returns its funds, not holds them', async () => {
      const f = createFixture({ balance: '1000' });
      const { pack } = await f.issuePack({ amount: '300', requested_expiry: f.clock.now() + 60_000 });
      f.clock.advance(60);
      expect(f.operator.cancel(pack.pack_id)).toMatchObject({ ok: false, problem: { code: 'INSTRUMENT_NOT_ACTIVE' } });
      expect(f.balance()).toMatchObject({ available: '1000', held: '0' });
    });
  });

  it('conserves funds across a mixed history (available + locked + held + redeemed = initial)', async () => {
    const f = createFixture({ balance: '1000' });
    const a = await f.issuePack({ amount: '100' });
    await f.issuePack({ amount: '200', requested_expiry: f.clock.now() + 60_000 }); // expires
    const c = await f.issuePack({ amount: '300' });
    const a2 = await f.renewPack(a.pack, a.bearer);
    await f.redeem(a2.pack, f.redemption(a2.pack, a2.bearer));
    f.operator.cancel(c.pack.pack_id);
    f.clock.advance(60);
    const { available, locked, held } = f.balance();
    expect({ available, locked, held, redeemed: f.redeemed() }).toEqual({ available: '600', locked: '0', held: '300', redeemed: '100' });
    expect(BigInt(available) + BigInt(locked) + BigInt(held) + BigInt(f.redeemed())).toBe(1000n);
  });
});
