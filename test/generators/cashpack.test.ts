// Cash-pack messages (generators/cashpack/): valid ones validate and verify;
// corrupted ones are broken exactly as labelled. A small model of PROFILE.md §5's
// check order (below) says which code an Operator answers; the Lock Request cases
// are also sent to the reference Operator.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CORRUPTION_KINDS,
  CORRUPTION_STATUS,
  corruptedMessage,
  validLockRequest,
  validRedemption,
  validRenewal,
  type CashpackConstraints,
  type CashpackPolicy,
  type CorruptedMessage,
} from '../../generators/index.ts';
import { PROBLEM_STATUS, decodeB64urlFixed, parseTimestamp, verifyObject } from '../../profile/index.ts';
import {
  recomputeChainDigest,
  validateMessage,
  verifyCashPack,
  type CashPack,
  type LockRequest,
  type RedeemRequest,
  type RenewRequest,
} from '../../profile/cashpack/index.ts';
import type { OkpJwk } from '../../profile/jwk.ts';
import { Clock } from '../../reference/clock.ts';
import { createOperator } from '../../reference/operator/index.ts';
import { recased } from '../../generators/cashpack/corruptions.ts';

const SEED = 20260104;
const RUNS = { seed: SEED, numRuns: 100 };

const key = (jwk: OkpJwk): Uint8Array => decodeB64urlFixed(jwk.x, 32)!;
const sameAsset = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);

interface World {
  readonly operatorKey: Uint8Array;
  readonly policy: CashpackPolicy;
  readonly now: number;
  readonly recorded: ReadonlySet<string>;
}

/**
 * PROFILE.md §5 for one message, against an Operator whose state is the presented
 * pack (its own, stored as presented) and whose replay store holds `recorded`.
 * Returns 'OK' or the problem code. Identity, balance and registration always pass.
 */
function operatorAnswer(kind: CorruptedMessage['kind'], message: unknown, w: World): string {
  if (!validateMessage(kind, message).ok) return 'MALFORMED_REQUEST';
  const fresh = (t: string) => Math.abs(parseTimestamp(t, 'cashpack')! - w.now) <= w.policy.request_window_seconds * 1000;
  if (kind === 'lock-request') {
    const m = message as LockRequest;
    if (!verifyObject('lock-request', m, key(m.principal_pk))) return 'INVALID_SIGNATURE';
    if (!fresh(m.created_at)) return 'STALE_REQUEST';
    if (w.recorded.has(m.request_id)) return 'DUPLICATE_ID';
    if (!w.policy.assets.some((a) => sameAsset(a, m.asset))) return 'ASSET_NOT_SUPPORTED';
    if (BigInt(m.amount) > BigInt(w.policy.max_amount)) return 'AMOUNT_EXCEEDS_LIMIT';
    const life = parseTimestamp(m.requested_expiry, 'cashpack')! - w.now;
    if (life < w.policy.expiry_min_seconds * 1000 || life > w.policy.expiry_max_seconds * 1000) return 'EXPIRY_INVALID';
    return 'OK';
  }
  const body = message as RenewRequest | RedeemRequest;
  const pack: CashPack = body.cash_pack;
  if (!verifyCashPack(pack, w.operatorKey)) return 'INVALID_SIGNATURE';
  const [inner, tag, id] =
    kind === 'renew-request'
      ? [(body as RenewRequest).renewal, 'renewal-entry' as const, (body as RenewRequest).renewal.renewal_id]
      : [(body as RedeemRequest).redemption, 'redemption-request' as const, (body as RedeemRequest).redemption.redemption_id];
  if (!verifyObject(tag, inner, key(inner.bearer_pk))) return 'INVALID_SIGNATURE';
  if (!fresh(inner.created_at)) return 'STALE_REQUEST';
  if (w.recorded.has(id)) return 'DUPLICATE_ID';
  if (parseTimestamp(pack.expiry, 'cashpack')! <= w.now) return 'INSTRUMENT_NOT_ACTIVE';
  if (inner.bearer_pk.x !== pack.current_bearer_pk.x) return 'BEARER_MISMATCH';
  if (kind === 'renew-request') {
    if ((inner as RenewRequest['renewal']).prev_chain_digest !== pack.chain_digest) return 'CHAIN_DIGEST_MISMATCH';
    if (pack.renewal_chain.length >= w.policy.max_chain_depth) return 'CHAIN_DEPTH_EXCEEDED';
  }
  return 'OK';
}

/** The pack a renew or redeem body presents is authentic and consistent. */
function expectSoundPack(pack: CashPack, operatorKey: Uint8Array): void {
  expect(validateMessage('cash-pack', pack)).toEqual({ ok: true });
  expect(verifyCashPack(pack, operatorKey)).toBe(true);
  expect(recomputeChainDigest(pack)).toBe(pack.chain_digest);
  const bearers = [pack.initial_bearer_pk, ...pack.renewal_chain.map((e) => e.new_bearer_pk)];
  pack.renewal_chain.forEach((entry, i) => {
    expect(entry.bearer_pk).toEqual(bearers[i]);
    expect(verifyObject('renewal-entry', entry, key(entry.bearer_pk))).toBe(true);
  });
  expect(pack.current_bearer_pk).toEqual(bearers.at(-1));
}

describe('validLockRequest', () => {
  it('validates, verifies under principal_pk and passes every Operator check', () => {
    fc.assert(
      fc.property(validLockRequest(), (c) => {
        expect(validateMessage('lock-request', c.message)).toEqual({ ok: true });
        expect(verifyObject('lock-request', c.message, c.principal.publicKey)).toBe(true);
        expect(c.message.initial_bearer_pk).toEqual(c.initialBearer.jwk);
        expect(operatorAnswer('lock-request', c.message, { operatorKey: new Uint8Array(32), policy: c.policy, now: c.now, recorded: new Set() })).toBe('OK');
      }),
      RUNS,
    );
  });

  it('follows a custom policy, boundaries included', () => {
    const policy = { assets: [{ type: 'stablecoin' as const, code: 'USDC', chain_id: '1' }], max_amount: '500', expiry_min_seconds: 10, expiry_max_seconds: 20 };
    const sample = fc.sample(validLockRequest({ policy }), { seed: SEED, numRuns: 150 });
    for (const c of sample) expect(operatorAnswer('lock-request', c.message, { operatorKey: new Uint8Array(32), policy: c.policy, now: c.now, recorded: new Set() })).toBe('OK');
    expect(sample.some((c) => c.message.amount === '500')).toBe(true);
    const lifetimes = new Set(sample.map((c) => (parseTimestamp(c.message.requested_expiry, 'cashpack')! - c.now) / 1000));
    expect(lifetimes.has(10) && lifetimes.has(20)).toBe(true);
  });

  it('keeps clockSkewSeconds away from the bounds', () => {
    for (const c of fc.sample(validLockRequest({ clockSkewSeconds: 30 }), { seed: SEED, numRuns: 100 })) {
      const life = (parseTimestamp(c.message.requested_expiry, 'cashpack')! - c.now) / 1000;
      expect(life).toBeGreaterThanOrEqual(c.policy.expiry_min_seconds + 30);
      expect(Math.abs(parseTimestamp(c.message.created_at, 'cashpack')! - c.now) / 1000).toBeLessThanOrEqual(c.policy.request_window_seconds - 30);
    }
  });
});

describe('validRenewal', () => {
  it('presents a sound pack and a renewal by its current bearer that passes every Operator check', () => {
    fc.assert(
      fc.property(validRenewal(), (c) => {
        expect(validateMessage('renew-request', c.message)).toEqual({ ok: true });
        expectSoundPack(c.message.cash_pack, c.operator.publicKey);
        expect(verifyObject('renewal-entry', c.message.renewal, c.bearer.publicKey)).toBe(true);
        expect(c.message.renewal.new_bearer_pk).toEqual(c.newBearer.jwk);
        expect(c.priorIds).toEqual(c.message.cash_pack.renewal_chain.map((e) => e.renewal_id));
        expect(operatorAnswer('renew-request', c.message, { operatorKey: c.operator.publicKey, policy: c.policy, now: c.now, recorded: new Set(c.priorIds) })).toBe('OK');
      }),
      RUNS,
    );
  });

  it('builds chains of every depth up to maxPriorRenewals, below max_chain_depth', () => {
    const depths = new Set(fc.sample(validRenewal({ maxPriorRenewals: 3 }), { seed: SEED, numRuns: 80 }).map((c) => c.message.cash_pack.renewal_chain.length));
    expect([...depths].sort()).toEqual([0, 1, 2, 3]);
    for (const c of fc.sample(validRenewal({ policy: { max_chain_depth: 2 }, maxPriorRenewals: 5 }), { seed: SEED, numRuns: 30 })) {
      expect(c.message.cash_pack.renewal_chain.length).toBeLessThan(2);
    }
  });
});

describe('validRedemption', () => {
  it('presents a sound pack and a redemption by its current bearer naming the redeemer', () => {
    fc.assert(
      fc.property(validRedemption(), (c) => {
        expect(validateMessage('redeem-request', c.message)).toEqual({ ok: true });
        expectSoundPack(c.message.cash_pack, c.operator.publicKey);
        expect(verifyObject('redemption-request', c.message.redemption, c.bearer.publicKey)).toBe(true);
        expect(c.message.redemption.redeemer_kid).toBe(c.redeemer.jwk.kid);
        expect(operatorAnswer('redeem-request', c.message, { operatorKey: c.operator.publicKey, policy: c.policy, now: c.now, recorded: new Set(c.priorIds) })).toBe('OK');
      }),
      RUNS,
    );
  });
});

describe('corruptedMessage', () => {
  const world = (c: CorruptedMessage): World => ({
    operatorKey: c.base.kind === 'lock-request' ? new Uint8Array(32) : c.base.operator.publicKey,
    policy: c.base.policy,
    now: c.base.now,
    recorded: new Set(c.priorIds),
  });

  it('is schema-valid and answered with exactly the labelled code', () => {
    fc.assert(
      fc.property(corruptedMessage(), (c) => {
        expect(validateMessage(c.kind, c.message), c.description).toEqual({ ok: true });
        expect(operatorAnswer(c.kind, c.message, world(c)), `${c.kind} ${c.corruption} (${c.variant}): ${c.description}`).toBe(c.expected.code);
        expect(c.expected.status).toBe(PROBLEM_STATUS[c.expected.code]);
        // Without the corruption the same situation is fine: the base case passes.
        expect(operatorAnswer(c.kind, c.base.message, { ...world(c), recorded: new Set(c.base.kind === 'lock-request' ? [] : c.base.priorIds) })).toBe('OK');
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('breaks signatures detectably: a flipped byte or another key fails verifyObject', () => {
    const sample = fc.sample(corruptedMessage({ corruptions: ['flipped-signature-byte', 'wrong-signing-key'] }), { seed: SEED, numRuns: 60 });
    for (const c of sample) {
      if (c.kind === 'lock-request') {
        const m = c.message as LockRequest;
        expect(verifyObject('lock-request', m, key(m.principal_pk))).toBe(false);
        continue;
      }
      const body = c.message as RenewRequest & RedeemRequest;
      const inner = c.kind === 'renew-request' ? body.renewal : body.redemption;
      const tag = c.kind === 'renew-request' ? 'renewal-entry' : 'redemption-request';
      const packOk = verifyCashPack(body.cash_pack, world(c).operatorKey);
      const innerOk = verifyObject(tag, inner, key(inner.bearer_pk));
      expect(packOk && innerOk, c.description).toBe(false);
    }
  });

  it('reaches every corruption of every message kind it applies to', () => {
    const seen = new Set(fc.sample(corruptedMessage(), { seed: SEED, numRuns: 250 }).map((c) => `${c.kind}/${c.corruption}`));
    const expected = [
      ...['flipped-signature-byte', 'wrong-signing-key', 'reused-id'].flatMap((k) => ['lock-request', 'renew-request', 'redeem-request'].map((m) => `${m}/${k}`)),
      'lock-request/expiry-out-of-range',
      'lock-request/amount-over-limit',
      'renew-request/stale-digest',
      'renew-request/not-current-bearer',
      'redeem-request/not-current-bearer',
    ];
    expect(expected.filter((e) => !seen.has(e))).toEqual([]);
    expect(new Set(CORRUPTION_KINDS)).toEqual(new Set(expected.map((e) => e.split('/')[1])));
    expect(Object.keys(CORRUPTION_STATUS).sort()).toEqual(['AMOUNT_EXCEEDS_LIMIT', 'BEARER_MISMATCH', 'CHAIN_DIGEST_MISMATCH', 'DUPLICATE_ID', 'EXPIRY_INVALID', 'INVALID_SIGNATURE']);
  });

  it('restricts itself to constraints.corruptions and constraints.kinds', () => {
    for (const c of fc.sample(corruptedMessage({ corruptions: ['reused-id'], kinds: ['redeem-request'] }), { seed: SEED, numRuns: 30 })) {
      expect([c.kind, c.corruption, c.expected.code]).toEqual(['redeem-request', 'reused-id', 'DUPLICATE_ID']);
    }
  });

  it('is answered with the labelled code by the reference Operator (Lock Requests)', () => {
    fc.assert(
      fc.property(corruptedMessage({ kinds: ['lock-request'] }), (c) => {
        const base = c.base;
        if (base.kind !== 'lock-request') return;
        const clock = new Clock();
        clock.freeze(base.now);
        const operator = createOperator({ clock, control: false });
        expect(operator.provisionPrincipal({ public_key: base.principal.jwk, asset: base.policy.assets[0]!, balance: base.policy.max_amount }).ok).toBe(true);
        const post = (body: unknown) =>
          operator.handler({
            method: 'POST',
            path: '/v1/cashpack/issue',
            query: new URLSearchParams(),
            headers: { 'content-type': 'application/json' },
            body: new TextEncoder().encode(JSON.stringify(body)),
            authority: 'operator.test',
            secure: true,
          });
        for (const prior of c.prior) expect(post(prior).status).toBe(200);
        const response = post(c.message);
        expect((response.body as { code?: string }).code, c.description).toBe(c.expected.code);
        expect(response.status).toBe(c.expected.status);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});

describe('cash-pack constraints', () => {
  it.each<[string, CashpackConstraints]>([
    ['policy.assets', { policy: { assets: [] } }],
    ['policy.assets', { policy: { assets: [{ type: 'fiat', code: 'euro' }] } }],
    ['policy.max_amount', { policy: { max_amount: '0' } }],
    ['policy.request_window_seconds', { policy: { request_window_seconds: 0 } }],
    ['policy.expiry_max_seconds', { policy: { expiry_min_seconds: 100, expiry_max_seconds: 50 } }],
    ['clockSkewSeconds', { clockSkewSeconds: -1 }],
    ['clockSkewSeconds', { clockSkewSeconds: 300 }],
    ['now', { now: 0 }],
    ['maxPriorRenewals', { maxPriorRenewals: 33 }],
  ])('throw a RangeError naming %s', (name, constraints) => {
    for (const make of [validLockRequest, validRenewal, validRedemption, corruptedMessage]) {
      expect(() => make(constraints)).toThrow(RangeError);
      expect(() => make(constraints)).toThrow(name);
    }
  });

  it('refuse what the policy makes impossible', () => {
    expect(() => validRenewal({ policy: { max_chain_depth: 0 } })).toThrow(/max_chain_depth/);
    expect(() => corruptedMessage({ kinds: ['renew-request'], policy: { max_chain_depth: 0 } })).toThrow(RangeError);
    expect(() => corruptedMessage({ corruptions: ['stale-digest'], kinds: ['lock-request'] })).toThrow(RangeError);
    expect(() => corruptedMessage({ corruptions: ['nope' as 'reused-id'] })).toThrow(/corruptions/);
  });

  it('are deterministic by seed: the same keys, ids and signatures', () => {
    for (const arb of [validLockRequest(), validRenewal(), validRedemption(), corruptedMessage()]) {
      const a = fc.sample(arb as fc.Arbitrary<{ message: unknown }>, { seed: 5, numRuns: 3 }).map((c) => JSON.stringify(c.message));
      const b = fc.sample(arb as fc.Arbitrary<{ message: unknown }>, { seed: 5, numRuns: 3 }).map((c) => JSON.stringify(c.message));
      expect(a).toEqual(b);
    }
  });
});

describe('recased', () => {
  it('changes the letter case of one to three letters of base64url text, never its last character: another canonical value of the same length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat(), (bytes, pick) => {
        const text = Buffer.from(bytes).toString('base64url');
        const changed = recased(text, pick);
        const differing = [...text].filter((ch, i) => ch !== changed[i]).length;
        expect(changed.length).toBe(text.length);
        expect(changed.at(-1)).toBe(text.at(-1));
        expect(changed.toLowerCase()).toBe(text.toLowerCase());
        expect(decodeB64urlFixed(changed, 32)).toBeDefined();
        expect(differing >= 1 && differing <= 3 ? 'one to three' : differing).toBe('one to three');
      }),
      { seed: 21, numRuns: 300 },
    );
  });
});
