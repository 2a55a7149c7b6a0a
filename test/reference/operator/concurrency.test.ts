// Atomicity over real HTTP (spec §1.2, §3.2; PROFILE.md §5.1): of concurrent
// renewals or redemptions of one pack exactly one succeeds and funds move once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { signRequest } from '../../../profile/index.ts';
import { type CashPack } from '../../../profile/cashpack/index.ts';
import { listen, type Listening } from '../../../reference/http/server.ts';
import { createFixture, type Fixture } from './fixture.ts';

const PARALLEL = 20;
const INITIAL = 1_000_000n;

let f: Fixture;
let server: Listening;
let agent: Agent;

beforeAll(async () => {
  f = createFixture({ balance: INITIAL.toString() });
  server = await listen(f.operator.handler);
  agent = new Agent({ connections: PARALLEL * 2, pipelining: 1 });
});

afterAll(async () => {
  await agent.close();
  await server.close();
});

interface Prepared {
  readonly path: string;
  readonly body: string;
  readonly headers: Record<string, string>;
}

/** Builds every request first, then releases them together. */
async function fireTogether(prepared: readonly Prepared[]): Promise<{ status: number; code?: string }[]> {
  const responses = await Promise.all(
    prepared.map((p) => request(`${server.url}${p.path}`, { method: 'POST', body: p.body, headers: p.headers, dispatcher: agent })),
  );
  return Promise.all(
    responses.map(async (r) => {
      const body = (await r.body.json()) as { code?: string };
      return { status: r.statusCode, ...(body.code ? { code: body.code } : {}) };
    }),
  );
}

function redeemRequest(pack: CashPack, redemption: unknown): Prepared {
  const body = JSON.stringify({ cash_pack: pack, redemption });
  const authority = new URL(server.url).host;
  const signature = signRequest(
    { method: 'POST', authority, path: '/v1/cashpack/redeem', body: new TextEncoder().encode(body) },
    { secretKey: f.redeemer.secretKey, kid: f.redeemer.jwk.kid },
    f.clock.nowSeconds(),
  );
  return { path: '/v1/cashpack/redeem', body, headers: { 'content-type': 'application/json', ...signature } };
}

function conserved(): bigint {
  const { available, locked, held } = f.balance();
  return BigInt(available) + BigInt(locked) + BigInt(held) + BigInt(f.redeemed());
}

describe('concurrent requests on one pack', () => {
  it(`${PARALLEL} parallel redemptions: exactly one 200, the redeemer credited once`, async () => {
    const { pack, bearer } = await f.issuePack({ amount: '1000' });
    const before = BigInt(f.redeemed());
    const results = await fireTogether(Array.from({ length: PARALLEL }, () => redeemRequest(pack, f.redemption(pack, bearer))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.code === 'INSTRUMENT_NOT_ACTIVE')).toBe(true);
    expect(BigInt(f.redeemed()) - before).toBe(1000n);
    expect(f.operator.packStatus(pack.pack_id)).toMatchObject({ ok: true, value: { status: 'REDEEMED' } });
    expect(conserved()).toBe(INITIAL);
  });

  it(`${PARALLEL} parallel renewals: exactly one 200, the chain grows by one`, async () => {
    const { pack, bearer } = await f.issuePack({ amount: '1000' });
    const prepared = Array.from({ length: PARALLEL }, () => ({
      path: '/v1/cashpack/renew',
      body: JSON.stringify({ cash_pack: pack, renewal: f.renewal(pack, bearer).entry }),
      headers: { 'content-type': 'application/json' },
    }));
    const results = await fireTogether(prepared);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // The losers see the new bearer (step 8 comes before the digest check).
    expect(results.filter((r) => r.status !== 200).every((r) => r.code === 'BEARER_MISMATCH')).toBe(true);
    expect(f.operator.packStatus(pack.pack_id)).toMatchObject({ ok: true, value: { status: 'ACTIVE', chain_depth: 1 } });
    expect(conserved()).toBe(INITIAL);
  });

  it('renewals and redemptions racing on one pack: exactly one wins, funds move at most once', async () => {
    const { pack, bearer } = await f.issuePack({ amount: '1000' });
    const before = BigInt(f.redeemed());
    const prepared = Array.from({ length: PARALLEL }, (_, i) =>
      i % 2 === 0
        ? redeemRequest(pack, f.redemption(pack, bearer))
        : { path: '/v1/cashpack/renew', body: JSON.stringify({ cash_pack: pack, renewal: f.renewal(pack, bearer).entry }), headers: { 'content-type': 'application/json' } },
    );
    const results = await fireTogether(prepared);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect([0n, 1000n]).toContain(BigInt(f.redeemed()) - before);
    expect(conserved()).toBe(INITIAL);
  });
});
