import { describe, expect, it } from 'vitest';
import { buildRenewal, createSigningKey, recomputeChainDigest, type CashPack, type SigningKey } from '../../../profile/cashpack/index.ts';
import { assetKey, ENDPOINT_RULES, OperatorModel, type IssueMessage, type ModelPolicy, type RedeemMessage, type RenewMessage } from '../../../harness/fuzz/model.ts';

const EUR = assetKey({ type: 'fiat', code: 'EUR' });
const POLICY: ModelPolicy = {
  assets: [EUR],
  maxAmount: 1000n,
  maxChainDepth: 2,
  expiryMinSeconds: 60,
  expiryMaxSeconds: 3600,
  requiredIdentityLevel: 2,
  requestWindowSeconds: 300,
};
const T0 = Date.UTC(2030, 0, 1);
const seconds = (s: number) => T0 + s * 1000;

const key = (n: number): SigningKey => createSigningKey(new Uint8Array(32).fill(n));
const K = [key(1), key(2), key(3), key(4)] as const;
const x = (k: SigningKey) => k.jwk.x;

let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

function model(): OperatorModel {
  const m = new OperatorModel(POLICY, T0);
  m.addPrincipal('alice', EUR, 500n);
  m.addPrincipal('bob', EUR, 0n);
  m.addRedeemer('r2', 2);
  m.addRedeemer('r1', 1);
  m.addStaff('staff');
  return m;
}

function lock(over: Partial<IssueMessage> = {}): IssueMessage {
  return { kind: 'issue', id: uuid(), principalKid: 'alice', signatureValid: true, amount: 100n, asset: EUR, initialBearer: x(K[0]), expiryMs: seconds(600), createdMs: T0, ...over };
}

/** Issues a pack and returns its id (the Operator's choice, here ours). */
function issue(m: OperatorModel, over: Partial<IssueMessage> = {}): string {
  const step = m.issue(lock(over));
  expect(step.outcome.ok).toBe(true);
  const packId = uuid();
  step.commit(packId);
  return packId;
}

/** A real Renewal Entry (its signature enters the digest) as the model reads it. */
function renewal(m: OperatorModel, packId: string, by: SigningKey, to: SigningKey, over: Partial<RenewMessage> = {}): RenewMessage {
  const pack = m.pack(packId)!;
  const entry = buildRenewal({ bearer: by, pack: { pack_id: packId, chain_digest: pack.digests.at(-1)! } as CashPack, new_bearer: to.jwk, created_at: m.now, ...(over.id ? { renewal_id: over.id } : {}), ...(over.prevDigest ? { prev_chain_digest: over.prevDigest } : {}) });
  return { kind: 'renew', id: entry.renewal_id, packId, packAuthentic: true, signatureValid: true, createdMs: m.now, bearer: x(by), prevDigest: entry.prev_chain_digest, newBearer: x(to), signature: entry.signature, ...over };
}

function redemption(m: OperatorModel, packId: string, by: SigningKey, over: Partial<RedeemMessage> = {}): RedeemMessage {
  return { kind: 'redeem', id: uuid(), packId, packAuthentic: true, signatureValid: true, createdMs: m.now, bearer: x(by), redeemerKid: 'r2', identity: { kind: 'signed', kid: 'r2', createdSeconds: Math.floor(m.now / 1000) }, ...over };
}

const codeOf = (o: { ok: boolean; code?: string; status: number }) => (o.ok ? o.status : `${o.status} ${o.code}`);

describe('the operator model (PROFILE.md §5, §6)', () => {
  describe('issue: the first failing check answers', () => {
    it.each([
      ['a bad signature before an unknown Principal', { signatureValid: false, principalKid: 'nobody' }, '400 INVALID_SIGNATURE'],
      ['an unknown Principal before a stale request', { principalKid: 'nobody', createdMs: seconds(-301) }, '403 PRINCIPAL_UNKNOWN'],
      ['a stale request', { createdMs: seconds(301) }, '422 STALE_REQUEST'],
      ['created exactly at the edge of the window is fresh', { createdMs: seconds(-300) }, 200],
      ['an unsupported asset', { asset: assetKey({ type: 'fiat', code: 'USD' }) }, '422 ASSET_NOT_SUPPORTED'],
      ['an amount over max_amount before an invalid expiry', { amount: 1001n, expiryMs: seconds(10) }, '422 AMOUNT_EXCEEDS_LIMIT'],
      ['an invalid expiry before an insufficient balance', { amount: 900n, expiryMs: seconds(3601) }, '422 EXPIRY_INVALID'],
      ['exactly the minimum lifetime', { expiryMs: seconds(60) }, 200],
      ['one second under the minimum', { expiryMs: seconds(59) }, '422 EXPIRY_INVALID'],
      ['exactly the maximum lifetime', { expiryMs: seconds(3600) }, 200],
      ['more than the available balance', { amount: 501n }, '422 INSUFFICIENT_BALANCE'],
      ['exactly the available balance', { amount: 500n }, 200],
      ['a Principal with no funds', { principalKid: 'bob', amount: 1n }, '422 INSUFFICIENT_BALANCE'],
    ] as const)('%s', (_name, over, expected) => {
      expect(codeOf(model().issue(lock(over)).outcome)).toBe(expected);
    });
  });

  it('locks the amount on issue and starts the chain at D0', () => {
    const m = model();
    const packId = issue(m, { amount: 120n });
    expect(m.principal('alice')).toMatchObject({ available: 380n, locked: 120n, held: 0n });
    const pack = m.pack(packId)!;
    expect(pack.digests).toEqual([recomputeChainDigest({ pack_id: packId, initial_bearer_pk: K[0].jwk, renewal_chain: [] })]);
    expect(m.totalFunds()).toBe(500n);
  });

  it('records an id once signature and freshness pass, whatever follows, in one namespace for all messages', () => {
    const m = model();
    const refused = lock({ amount: 5000n });
    const step = m.issue(refused);
    expect(codeOf(step.outcome)).toBe('422 AMOUNT_EXCEEDS_LIMIT');
    step.commit(undefined);
    expect(codeOf(m.issue(lock({ id: refused.id })).outcome)).toBe('409 DUPLICATE_ID');
    const packId = issue(m);
    expect(codeOf(m.renew(renewal(m, packId, K[0], K[1], { id: refused.id })).outcome)).toBe('409 DUPLICATE_ID');
    expect(codeOf(m.redeem(redemption(m, packId, K[0], { id: refused.id })).outcome)).toBe('409 DUPLICATE_ID');
  });

  it('does not record the id of a stale request or of an unknown Principal', () => {
    const m = model();
    const stale = lock({ createdMs: seconds(-400) });
    m.issue(stale).commit(undefined);
    const unknown = lock({ principalKid: 'nobody' });
    m.issue(unknown).commit(undefined);
    expect(m.remembers(stale.id) || m.remembers(unknown.id)).toBe(false);
    expect(codeOf(m.issue(lock({ id: stale.id })).outcome)).toBe(200);
  });

  it('copies: a copy remembers the ids recorded before it, and neither sees what the other records after', () => {
    const m = model();
    const before = lock();
    m.issue(before).commit(uuid());
    const copies = [m.clone(), m.clone()];
    const inOriginal = lock();
    m.issue(inOriginal).commit(uuid());
    const inCopy = lock();
    copies[0]!.issue(inCopy).commit(uuid());
    const later = m.clone();
    expect([m, ...copies, later].map((c) => [before, inOriginal, inCopy].map((msg) => c.remembers(msg.id)))).toEqual([
      [true, true, false],
      [true, false, true],
      [true, false, false],
      [true, true, false],
    ]);
    expect(codeOf(copies[1]!.issue(lock({ id: inOriginal.id })).outcome)).toBe(200);
    expect(codeOf(later.issue(lock({ id: inOriginal.id })).outcome)).toBe('409 DUPLICATE_ID');
  });

  it('remembers an id for less than twice the window (§6: MUST), may have forgotten it from then on, and a resend is stale by then', () => {
    const m = model();
    const message = lock();
    m.issue(message).commit(uuid());
    m.advance(599);
    expect([m.remembers(message.id), m.mayHaveForgotten(message.id)]).toEqual([true, false]);
    m.advance(1);
    expect([m.remembers(message.id), m.mayHaveForgotten(message.id)]).toEqual([false, true]);
    expect(codeOf(m.issue(message).outcome)).toBe('422 STALE_REQUEST');
    expect(m.recordedAt(message.id)).toBe(T0);
  });

  it('renews: bearer before digest before depth, and the digest rolls as PROFILE.md §3 says', () => {
    const m = model();
    const packId = issue(m);
    const d0 = m.pack(packId)!.digests[0]!;
    const first = renewal(m, packId, K[0], K[1]);
    const step = m.renew(first);
    expect(step.outcome.ok).toBe(true);
    step.commit();
    const entry = { renewal_id: first.id, pack_id: packId, prev_chain_digest: d0, bearer_pk: K[0].jwk, new_bearer_pk: K[1].jwk, created_at: '', signature: first.signature };
    expect(m.pack(packId)!.digests.at(-1)).toBe(recomputeChainDigest({ pack_id: packId, initial_bearer_pk: K[0].jwk, renewal_chain: [entry] }));
    // The previous bearer with a stale digest: step 8 answers first.
    expect(codeOf(m.renew(renewal(m, packId, K[0], K[2], { prevDigest: d0 })).outcome)).toBe('403 BEARER_MISMATCH');
    expect(codeOf(m.renew(renewal(m, packId, K[1], K[2], { prevDigest: d0 })).outcome)).toBe('409 CHAIN_DIGEST_MISMATCH');
    m.renew(renewal(m, packId, K[1], K[2])).commit();
    expect(codeOf(m.renew(renewal(m, packId, K[2], K[3])).outcome)).toBe('422 CHAIN_DEPTH_EXCEEDED');
    expect(m.pack(packId)!.bearers).toEqual([x(K[0]), x(K[1]), x(K[2])]);
  });

  it('redeems: bearer before identity; every unidentified redeemer is REDEEMER_NOT_IDENTIFIED; funds move once', () => {
    const m = model();
    const packId = issue(m, { amount: 70n });
    const now = Math.floor(m.now / 1000);
    const cases: [Partial<RedeemMessage>, string | number][] = [
      [{ bearer: x(K[1]), identity: { kind: 'none' } }, '403 BEARER_MISMATCH'],
      [{ identity: { kind: 'none' } }, '403 REDEEMER_NOT_IDENTIFIED'],
      [{ redeemerKid: 'r1', identity: { kind: 'signed', kid: 'r1', createdSeconds: now } }, '403 REDEEMER_NOT_IDENTIFIED'],
      [{ identity: { kind: 'signed', kid: 'r1', createdSeconds: now } }, '403 REDEEMER_NOT_IDENTIFIED'],
      [{ identity: { kind: 'signed', kid: 'alice', createdSeconds: now } }, '403 REDEEMER_NOT_IDENTIFIED'],
      [{ identity: { kind: 'signed', kid: 'r2', createdSeconds: now - 301 } }, '403 REDEEMER_NOT_IDENTIFIED'],
    ];
    for (const [over, expected] of cases) expect(codeOf(m.redeem(redemption(m, packId, K[0], over)).outcome)).toBe(expected);
    const step = m.redeem(redemption(m, packId, K[0]));
    expect(step.outcome).toMatchObject({ ok: true, amount: 70n, redeemerKid: 'r2' });
    step.commit();
    expect(m.principal('alice')).toMatchObject({ available: 430n, locked: 0n });
    expect(m.credit('r2', EUR)).toBe(70n);
    expect(codeOf(m.redeem(redemption(m, packId, K[0])).outcome)).toBe('409 INSTRUMENT_NOT_ACTIVE');
    expect(m.totalFunds()).toBe(500n);
  });

  it('expires a pack at its expiry instant and returns the funds; terminal states never change', () => {
    const m = model();
    const packId = issue(m, { amount: 40n, expiryMs: seconds(120) });
    m.advance(119);
    expect(m.pack(packId)!.status).toBe('ACTIVE');
    m.advance(1);
    expect(m.pack(packId)!.status).toBe('EXPIRED');
    expect(m.principal('alice')).toMatchObject({ available: 500n, locked: 0n });
    expect(codeOf(m.renew(renewal(m, packId, K[1], K[2])).outcome)).toBe('409 INSTRUMENT_NOT_ACTIVE');
    expect(codeOf(m.cancel(packId).outcome)).toBe('409 INSTRUMENT_NOT_ACTIVE');
  });

  it('cancels an ACTIVE pack into held funds; an unknown pack is NOT_FOUND', () => {
    const m = model();
    const packId = issue(m, { amount: 30n });
    const step = m.cancel(packId);
    expect(step.outcome.ok).toBe(true);
    step.commit();
    expect(m.principal('alice')).toMatchObject({ available: 470n, locked: 0n, held: 30n });
    expect(codeOf(m.redeem(redemption(m, packId, K[0])).outcome)).toBe('409 INSTRUMENT_NOT_ACTIVE');
    expect(codeOf(m.cancel(uuid()).outcome)).toBe('404 NOT_FOUND');
  });

  it('answers a status read 401, then 403, then 404', () => {
    const m = model();
    const packId = issue(m);
    const now = Math.floor(m.now / 1000);
    const signed = (kid: string, createdSeconds = now) => ({ kind: 'signed' as const, kid, createdSeconds });
    const cases: [string, Parameters<OperatorModel['status']>[0]['caller'], string | number][] = [
      [packId, { kind: 'none' }, '401 UNAUTHENTICATED'],
      [packId, signed('a bearer key'), '401 UNAUTHENTICATED'],
      [packId, signed('alice', now - 301), '401 UNAUTHENTICATED'],
      [packId, signed('bob'), '403 FORBIDDEN'],
      [packId, signed('r2'), '403 FORBIDDEN'],
      [uuid(), signed('alice'), '403 FORBIDDEN'],
      [uuid(), signed('staff'), '404 NOT_FOUND'],
      [packId, signed('staff'), 200],
      [packId, signed('alice'), 200],
    ];
    for (const [id, caller, expected] of cases) expect(codeOf(m.status({ packId: id, caller }))).toBe(expected);
    expect(m.status({ packId, caller: signed('alice') })).toMatchObject({ view: { status: 'ACTIVE', amount: 100n, depth: 0 } });
  });

  it('judges later requests on an account provisioned again (PROFILE.md §12): a new available balance, a new identity level', () => {
    const m = model();
    const first = issue(m, { amount: 100n });
    const second = issue(m, { amount: 50n, initialBearer: x(K[1]) });
    m.reprovisionPrincipal('alice', 10n);
    expect(m.principal('alice')).toMatchObject({ available: 10n, locked: 150n, held: 0n });
    expect(codeOf(m.issue(lock({ amount: 11n })).outcome)).toBe('422 INSUFFICIENT_BALANCE');
    m.reprovisionRedeemer('r2', 1);
    expect(codeOf(m.redeem(redemption(m, first, K[0])).outcome)).toBe('403 REDEEMER_NOT_IDENTIFIED');
    m.reprovisionRedeemer('r1', 3);
    const now = Math.floor(m.now / 1000);
    const redeemed = m.redeem(redemption(m, second, K[1], { redeemerKid: 'r1', identity: { kind: 'signed', kid: 'r1', createdSeconds: now } }));
    expect(redeemed.outcome.ok).toBe(true);
    redeemed.commit();
    expect(m.credit('r1', EUR)).toBe(50n);
    expect(() => m.reprovisionRedeemer('nobody', 1)).toThrow(TypeError);
    expect(() => m.reprovisionPrincipal('nobody', 1n)).toThrow(TypeError);
  });

  it("holds a Principal's funds in its own asset only, and credits a redeemer in the asset of the pack", () => {
    const USD = assetKey({ type: 'fiat', code: 'USD' });
    const m = new OperatorModel({ ...POLICY, assets: [EUR, USD] }, T0);
    m.addPrincipal('alice', USD, 500n);
    m.addRedeemer('r2', 2);
    expect(codeOf(m.issue(lock({ asset: EUR, amount: 1n })).outcome)).toBe('422 INSUFFICIENT_BALANCE');
    expect(codeOf(m.issue(lock({ asset: assetKey({ type: 'fiat', code: 'XTS' }), amount: 1n })).outcome)).toBe('422 ASSET_NOT_SUPPORTED');
    const packId = issue(m, { asset: USD, amount: 20n });
    expect(m.pack(packId)).toMatchObject({ asset: USD, issuedAtMs: T0 });
    m.redeem(redemption(m, packId, K[0])).commit();
    expect([m.credit('r2', USD), m.credit('r2', EUR)]).toEqual([20n, 0n]);
  });

  it('answers the first broken check of every pair (and triple) of issue checks, as PROFILE.md §5 orders them', () => {
    const m = model();
    m.issue(lock({ id: 'seen-id', amount: 5000n })).commit(undefined);
    // One way to break each check of ENDPOINT_RULES.issue, in its order.
    const breaks: Partial<IssueMessage>[] = [
      { signatureValid: false },
      { principalKid: 'nobody' },
      { createdMs: seconds(-301) },
      { id: 'seen-id' },
      { asset: assetKey({ type: 'fiat', code: 'XTS' }) },
      { amount: 1001n },
      { expiryMs: seconds(3601) },
      { principalKid: 'bob' },
    ];
    expect(breaks).toHaveLength(ENDPOINT_RULES.issue.checks.length);
    const sets = breaks.flatMap((_, i) => breaks.flatMap((_, j) => (j > i ? [[i, j], ...breaks.flatMap((_, k) => (k > j ? [[i, j, k]] : []))] : [])));
    for (const set of sets) {
      // bob has no funds: the last check's break, which an unknown Principal (check 1) makes moot.
      const over = Object.assign({}, ...set.map((i) => breaks[i]!), set.includes(1) ? { principalKid: 'nobody' } : {}) as Partial<IssueMessage>;
      const outcome = m.issue(lock(over)).outcome;
      expect(outcome.ok ? -1 : outcome.at, JSON.stringify(set)).toBe(set[0]);
    }
  });

  it('changes nothing until a decision is committed', () => {
    const m = model();
    const packId = issue(m);
    m.redeem(redemption(m, packId, K[0]));
    m.cancel(packId);
    expect(m.pack(packId)!.status).toBe('ACTIVE');
    expect(m.principal('alice')).toMatchObject({ available: 400n, locked: 100n });
  });
});
