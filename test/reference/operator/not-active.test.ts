// INSTRUMENT_NOT_ACTIVE (spec §3.2, §7.1; PROFILE.md §5 renew/redeem step 7):
// renewal and redemption need an ACTIVE pack, and terminal states never change.
import { describe, expect, it } from 'vitest';
import type { CashPack, SigningKey } from '../../../profile/cashpack/index.ts';
import { createFixture, expectProblem, type Fixture } from './fixture.ts';

type Terminal = 'REDEEMED' | 'EXPIRED' | 'CANCELLED';

/** Brings a freshly issued pack (expiry one minute ahead) into a terminal state. */
const END: Record<Terminal, (f: Fixture, pack: CashPack, bearer: SigningKey) => Promise<void>> = {
  REDEEMED: async (f, pack, bearer) => {
    expect((await f.redeem(pack, f.redemption(pack, bearer))).status).toBe(200);
  },
  EXPIRED: async (f) => {
    f.clock.advance(60);
  },
  CANCELLED: async (f, pack) => {
    expect(f.operator.cancel(pack.pack_id).ok).toBe(true);
  },
};

const ATTEMPT = {
  renew: (f: Fixture, pack: CashPack, bearer: SigningKey) => f.renew(pack, f.renewal(pack, bearer).entry),
  redeem: (f: Fixture, pack: CashPack, bearer: SigningKey) => f.redeem(pack, f.redemption(pack, bearer)),
};

describe('INSTRUMENT_NOT_ACTIVE', () => {
  const cases = (['REDEEMED', 'EXPIRED', 'CANCELLED'] as const).flatMap((state) =>
    (['renew', 'redeem'] as const).map((endpoint) => [endpoint, state] as const),
  );

  it.each(cases)('refuses %s of a %s pack and leaves it and the balances unchanged', async (endpoint, state) => {
    const f = createFixture({ balance: '100' });
    const { pack, bearer } = await f.issuePack({ requested_expiry: f.clock.now() + 60_000 });
    await END[state](f, pack, bearer);
    const before = { status: (await f.status(pack.pack_id)).body, balance: f.balance(), redeemed: f.redeemed() };
    expect(before.status.status).toBe(state);

    expectProblem(await ATTEMPT[endpoint](f, pack, bearer), 'INSTRUMENT_NOT_ACTIVE');
    expect({ status: (await f.status(pack.pack_id)).body, balance: f.balance(), redeemed: f.redeemed() }).toEqual(before);
  });

  it('applies expiry before the check: at the expiry instant a renewal is refused', async () => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack({ requested_expiry: f.clock.now() + 120_000 });
    f.clock.advance(119);
    const { entry } = f.renewal(pack, bearer);
    f.clock.advance(1);
    expectProblem(await f.renew(pack, entry), 'INSTRUMENT_NOT_ACTIVE');
  });

  it('still allows a redemption one second before expiry', async () => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack({ requested_expiry: f.clock.now() + 120_000 });
    f.clock.advance(119);
    expect((await f.redeem(pack, f.redemption(pack, bearer))).status).toBe(200);
  });
});
