// The model's judgement of concurrent requests: some order of them must
// explain every answer.
import { describe, expect, it } from 'vitest';
import { createSigningKey, type SigningKey } from '../../../profile/cashpack/index.ts';
import { BREAKERS, BREACHABLE } from '../../../harness/fuzz/breach.ts';
import type { Reply } from '../../../harness/fuzz/client.ts';
import { answerMatches } from '../../../harness/fuzz/judge.ts';
import { linearize, modelOrders, orders, type Concurrent } from '../../../harness/fuzz/linearize.ts';
import { assetKey, ENDPOINT_RULES, OperatorModel, type RedeemMessage, type StatusQuery } from '../../../harness/fuzz/model.ts';
import { lifetimesOf } from '../../../harness/fuzz/volume.ts';

const EUR = assetKey({ type: 'fiat', code: 'EUR' });
const POLICY = { assets: [EUR], maxAmount: 1000n, maxChainDepth: 2, expiryMinSeconds: 60, expiryMaxSeconds: 3600, requiredIdentityLevel: 0, requestWindowSeconds: 300 };
const T0 = Date.UTC(2030, 0, 1);
const key = (n: number): SigningKey => createSigningKey(new Uint8Array(32).fill(n));
const BEARER = key(1).jwk.x;
let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

function world(): { m: OperatorModel; packId: string } {
  const m = new OperatorModel(POLICY, T0);
  m.addPrincipal('alice', EUR, 500n);
  m.addRedeemer('r', 0);
  const packId = uuid();
  m.issue({ kind: 'issue', id: uuid(), principalKid: 'alice', signatureValid: true, amount: 100n, asset: EUR, initialBearer: BEARER, expiryMs: T0 + 600_000, createdMs: T0 }).commit(packId);
  return { m, packId };
}

const reply = (status: number, body: unknown): Reply => ({ status, headers: { 'content-type': status === 200 ? 'application/json' : 'application/problem+json' }, body, text: JSON.stringify(body) });
const refused = (status: number, code: string) => reply(status, { code });

function redemption(packId: string): Concurrent<Reply> {
  const message: RedeemMessage = { kind: 'redeem', id: uuid(), packId, packAuthentic: true, signatureValid: true, createdMs: T0, bearer: BEARER, redeemerKid: 'r', identity: { kind: 'signed', kid: 'r', createdSeconds: T0 / 1000 } };
  return {
    decide: (model) => {
      const d = model.redeem(message);
      return { outcome: d.outcome, commit: () => d.commit() };
    },
    explains: (outcome, r) => answerMatches('redeem', outcome, r),
  };
}

function statusRead(packId: string): Concurrent<Reply> {
  const query: StatusQuery = { packId, caller: { kind: 'signed', kid: 'alice', createdSeconds: T0 / 1000 } };
  return {
    decide: (model) => ({ outcome: model.status(query), commit: () => undefined }),
    explains: (outcome, r) => answerMatches('status', outcome, r) && (!outcome.ok || (r.body as { status?: unknown }).status === (outcome as unknown as { view: { status: string } }).view.status),
  };
}

describe('linearisability as the model judges it', () => {
  it('tries every order of the requests, lexicographically', () => {
    expect(orders(3)).toEqual([
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ]);
    expect(orders(4)).toHaveLength(24);
  });

  it('accepts the answers some order explains, and names the orders', () => {
    const { m, packId } = world();
    const ops = [redemption(packId), redemption(packId)];
    const verdict = linearize(m, ops, [refused(409, 'INSTRUMENT_NOT_ACTIVE'), reply(200, {})]);
    expect('best' in verdict).toBe(false);
    expect(verdict.explained.map((r) => r.order)).toEqual([[1, 0]]);
    expect(verdict.explained[0]!.model.credit('r', EUR)).toBe(100n);
    // The model itself is untouched: the orders ran on copies.
    expect(m.pack(packId)!.status).toBe('ACTIVE');
  });

  it('calls two successes of one pack a concurrency fault: each answer alone is one some order gives', () => {
    const { m, packId } = world();
    const verdict = linearize(m, [redemption(packId), redemption(packId)], [reply(200, {}), reply(200, {})]);
    expect(verdict).toMatchObject({ explained: [], at: 1, alone: true, best: { order: [0, 1], explained: 1 } });
  });

  it('calls an answer no order gives a fault of its own rule', () => {
    const { m, packId } = world();
    // A status that says REDEEMED while the redemption beside it was refused.
    const verdict = linearize(m, [redemption(packId), statusRead(packId)], [refused(403, 'BEARER_MISMATCH'), reply(200, { status: 'REDEEMED' })]);
    expect(verdict).toMatchObject({ explained: [], alone: false });
  });

  it('gives the state every order leaves when each request answers as predicted', () => {
    const { m, packId } = world();
    const all = modelOrders(m, [redemption(packId), statusRead(packId)]);
    expect(all.map((o) => o.outcomes.map((x) => x.ok))).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(all.map((o) => (o.outcomes[1] as unknown as { view: { status: string } }).view.status)).toEqual(['REDEEMED', 'ACTIVE']);
  });
});

describe('the breakers of a breach', () => {
  it.each(Object.keys(BREAKERS) as (keyof typeof BREAKERS)[])('break the checks of %s in the order of the model table, one for each', (endpoint) => {
    expect(BREAKERS[endpoint].map((b) => b.code)).toEqual(ENDPOINT_RULES[endpoint].checks.map((c) => c.code));
    expect(BREACHABLE[endpoint]).toBe(ENDPOINT_RULES[endpoint].checks.length);
  });
});

describe('the lifetimes of packs issued together', () => {
  it('put expiry order against issue order, or shuffle it, within the policy', () => {
    const policy = { ...POLICY, expiryMinSeconds: 60, expiryMaxSeconds: 3600 };
    expect(lifetimesOf(4, 'descending', policy)).toEqual([2715, 1830, 945, 60]);
    expect(lifetimesOf(4, 'ascending', policy)).toEqual([60, 945, 1830, 2715]);
    const shuffled = lifetimesOf(20, { shuffle: 7 }, policy);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(lifetimesOf(20, 'ascending', policy));
    expect(shuffled).not.toEqual(lifetimesOf(20, 'ascending', policy));
    expect(lifetimesOf(3, 'ascending', { ...policy, expiryMinSeconds: 60, expiryMaxSeconds: 60 })).toEqual([60, 60, 60]);
  });
});
