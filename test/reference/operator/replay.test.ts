// DUPLICATE_ID (spec §7.1) and the replay rules of PROFILE.md §6: one namespace for
// request_id, renewal_id and redemption_id, recorded once the message verified and
// is fresh, whatever follows; identical resends are replays; the store is bounded.
import { describe, expect, it } from 'vitest';
import { newUuid, signObject } from '../../../profile/index.ts';
import { createSigningKey } from '../../../profile/cashpack/index.ts';
import { createFixture, expectProblem } from './fixture.ts';

describe('DUPLICATE_ID', () => {
  it('refuses a second Lock Request with a used request_id and locks nothing more', async () => {
    const f = createFixture({ balance: '1000' });
    const id = newUuid();
    expect((await f.issue(f.lockRequest({ request_id: id }))).status).toBe(200);
    expectProblem(await f.issue(f.lockRequest({ request_id: id, amount: '7' })), 'DUPLICATE_ID');
    expect(f.balance()).toMatchObject({ available: '900', locked: '100' });
  });

  it('refuses an identical resend of a successful Lock Request', async () => {
    const f = createFixture({ balance: '1000' });
    const lock = f.lockRequest();
    expect((await f.issue(lock)).status).toBe(200);
    expectProblem(await f.issue(lock), 'DUPLICATE_ID');
    expect(f.balance()).toMatchObject({ locked: '100' });
  });

  it('refuses a used renewal_id, and an identical resend of a renewal', async () => {
    const f = createFixture();
    const first = await f.issuePack();
    const { entry, next } = f.renewal(first.pack, first.bearer);
    const renewed = await f.renew(first.pack, entry);
    expect(renewed.status).toBe(200);
    expectProblem(await f.renew(first.pack, entry), 'DUPLICATE_ID');
    const reuse = f.renewal(renewed.body, next, { renewal_id: entry.renewal_id });
    expectProblem(await f.renew(renewed.body, reuse.entry), 'DUPLICATE_ID');
    expect((await f.status(first.pack.pack_id)).body.chain_depth).toBe(1);
  });

  it('refuses a used redemption_id, and an identical resend of a redemption', async () => {
    const f = createFixture();
    const a = await f.issuePack();
    const redemption = f.redemption(a.pack, a.bearer);
    expect((await f.redeem(a.pack, redemption)).status).toBe(200);
    expectProblem(await f.redeem(a.pack, redemption), 'DUPLICATE_ID');
    const b = await f.issuePack();
    expectProblem(await f.redeem(b.pack, f.redemption(b.pack, b.bearer, { redemption_id: redemption.redemption_id })), 'DUPLICATE_ID');
    expect(f.redeemed()).toBe('100');
  });

  describe('one namespace across roles (PROFILE.md §6)', () => {
    it.each([
      ['a request_id reused as a renewal_id', 'issue', 'renew'],
      ['a request_id reused as a redemption_id', 'issue', 'redeem'],
      ['a renewal_id reused as a request_id', 'renew', 'issue'],
      ['a renewal_id reused as a redemption_id', 'renew', 'redeem'],
      ['a redemption_id reused as a request_id', 'redeem', 'issue'],
      ['a redemption_id reused as a renewal_id', 'redeem', 'renew'],
    ] as const)('%s', async (_name, first, second) => {
      const f = createFixture();
      const id = newUuid();
      const use = async (role: 'issue' | 'renew' | 'redeem') => {
        if (role === 'issue') return f.issue(f.lockRequest({ request_id: id }));
        const { pack, bearer } = await f.issuePack();
        if (role === 'renew') return f.renew(pack, f.renewal(pack, bearer, { renewal_id: id }).entry);
        return f.redeem(pack, f.redemption(pack, bearer, { redemption_id: id }));
      };
      expect((await use(first)).status).toBe(200);
      expectProblem(await use(second), 'DUPLICATE_ID');
    });
  });

  it('records an id whose message failed a later step (here BEARER_MISMATCH)', async () => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    const id = newUuid();
    expectProblem(await f.renew(pack, f.renewal(pack, createSigningKey(), { renewal_id: id }).entry), 'BEARER_MISMATCH');
    expectProblem(await f.renew(pack, f.renewal(pack, bearer, { renewal_id: id }).entry), 'DUPLICATE_ID');
  });

  it('does not record an id whose message failed before the replay step', async () => {
    const f = createFixture();
    const id = newUuid();
    const lock = f.lockRequest({ request_id: id });
    expectProblem(await f.issue(signObject('lock-request', lock, createSigningKey().secretKey)), 'INVALID_SIGNATURE');
    expectProblem(await f.issue(f.lockRequest({ request_id: id, created_at: f.clock.now() - 301_000 })), 'STALE_REQUEST');
    expect((await f.issue(lock)).status).toBe(200);
  });

  it('checks replay before status: a renewal replayed after the pack was redeemed → DUPLICATE_ID', async () => {
    const f = createFixture();
    const first = await f.issuePack();
    const { entry, next } = f.renewal(first.pack, first.bearer);
    const renewed = await f.renew(first.pack, entry);
    expect((await f.redeem(renewed.body, f.redemption(renewed.body, next))).status).toBe(200);
    expectProblem(await f.renew(first.pack, entry), 'DUPLICATE_ID');
  });

  it('forgets ids after twice the request window, keeping the store bounded', async () => {
    const f = createFixture({ policy: { request_window_seconds: 10 } });
    for (let i = 0; i < 5; i++) await f.issuePack({ amount: '1' });
    expect(f.operator.replayStoreSize()).toBe(5);
    f.clock.advance(20);
    await f.issuePack({ amount: '1' });
    expect(f.operator.replayStoreSize()).toBe(6);
    f.clock.advance(1);
    await f.issuePack({ amount: '1' });
    expect(f.operator.replayStoreSize()).toBe(2);
  });

  it('a forgotten id can no longer be replayed: the message is stale by then', async () => {
    const f = createFixture({ policy: { request_window_seconds: 10 } });
    const lock = f.lockRequest({ created_at: f.clock.now() + 10_000 }); // as far ahead as allowed
    expect((await f.issue(lock)).status).toBe(200);
    f.clock.advance(20);
    expectProblem(await f.issue(lock), 'DUPLICATE_ID'); // still remembered, still fresh
    f.clock.advance(1);
    expectProblem(await f.issue(lock), 'STALE_REQUEST');
  });
});
