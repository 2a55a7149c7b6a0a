// validCpr (generators/cpr.ts): every value is a valid CPR, and the interesting
// shapes (memos at the limit, astral characters, extensions, mirrors, open amounts)
// actually occur.
import fc from 'fast-check';
import { isValidBIC, isValidIBAN } from 'ibantools';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOW, allowedRailHints, compatibleRailHints, validCpr, type ValidCprConstraints } from '../../generators/index.ts';
import {
  SUB_INTERFACES,
  addressFields,
  codePoints,
  findPayerMembers,
  validateCpr,
  type Cpr,
  type SubInterface,
} from '../../profile/cpr/index.ts';
import { parseIJson, parseTimestamp } from '../../profile/index.ts';

const SEED = 20260101;
const RUNS = { seed: SEED, numRuns: 200 };
type Doc = Record<string, unknown>;

const subOf = (cpr: Cpr): SubInterface => {
  const r = validateCpr(cpr);
  if (!r.ok) throw new Error(JSON.stringify(r.violations));
  return r.subInterface;
};

describe('validCpr', () => {
  it('generates CPRs that validateCpr accepts, with and without the validity window', () => {
    fc.assert(
      fc.property(validCpr(), (cpr) => {
        expect(validateCpr(cpr)).toMatchObject({ ok: true });
        expect(validateCpr(cpr, { validitySeconds: 900 })).toMatchObject({ ok: true });
      }),
      RUNS,
    );
  });

  it.each(SUB_INTERFACES)('generates only %s requests when asked, each valid', (sub) => {
    fc.assert(fc.property(validCpr({ subInterface: sub }), (cpr) => void expect(subOf(cpr)).toBe(sub)), { seed: SEED, numRuns: 100 });
  });

  it('never carries a payer-named member, extensions included', () => {
    fc.assert(fc.property(validCpr(), (cpr) => void expect(findPayerMembers(cpr)).toEqual([])), RUNS);
  });

  it('keeps every memo within the limit it is given', () => {
    fc.assert(
      fc.property(validCpr(), (cpr) => void expect(codePoints(cpr.memo ?? '')).toBeLessThanOrEqual(140)),
      RUNS,
    );
    fc.assert(
      fc.property(validCpr({ maxMemoCodePoints: 5 }), (cpr) => void expect(codePoints(cpr.memo ?? '')).toBeLessThanOrEqual(5)),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('mirrors address fields at the top level only with the rail_address value', () => {
    fc.assert(
      fc.property(validCpr(), (cpr) => {
        const doc = cpr as unknown as Doc;
        const rail = cpr.payee.rail_address as Doc;
        for (const field of addressFields(subOf(cpr))) if (Object.hasOwn(doc, field)) expect(doc[field]).toBe(rail[field]);
      }),
      RUNS,
    );
  });

  it('uses only rail hints a request of its sub-interface may carry, and hints of another sub-interface too', () => {
    let crossed = 0;
    fc.assert(
      fc.property(validCpr(), (cpr) => {
        const sub = subOf(cpr);
        if (sub === 'ON_CHAIN') expect(cpr.rail_hint).toBe('ON_CHAIN');
        else if (cpr.rail_hint !== undefined) {
          expect(allowedRailHints(sub)).toContain(cpr.rail_hint);
          if (!(compatibleRailHints(sub) as readonly string[]).includes(cpr.rail_hint)) crossed++;
        }
      }),
      RUNS,
    );
    // An IBAN request hinted PIX, say: advisory (PROFILE.md §7.4), and a derivation keeps the IBAN request's own conditions.
    expect(crossed).toBeGreaterThan(0);
  });

  it('is unexpired at `now` and within the validity window', () => {
    const check = (c: ValidCprConstraints & { now: number; validitySeconds: number }) =>
      fc.assert(
        fc.property(validCpr(c), (cpr) => {
          const created = parseTimestamp(cpr.created_at)!;
          const expires = parseTimestamp(cpr.expires_at)!;
          expect(created).toBeLessThanOrEqual(c.now);
          expect(expires).toBeGreaterThan(c.now);
          expect(expires - created).toBeLessThanOrEqual(c.validitySeconds * 1000);
        }),
        { seed: SEED, numRuns: 100 },
      );
    check({ now: DEFAULT_NOW, validitySeconds: 900 });
    check({ now: Date.UTC(2030, 5, 15, 12, 0, 0, 123), validitySeconds: 1 });
  });

  it('survives a strict I-JSON round trip unchanged', () => {
    fc.assert(fc.property(validCpr(), (cpr) => void expect(parseIJson(JSON.stringify(cpr))).toEqual(cpr)), RUNS);
  });

  it('honours the amount constraint', () => {
    fc.assert(fc.property(validCpr({ amount: 'fixed' }), (cpr) => void expect(cpr.value.amount).toMatch(/^[1-9][0-9]{0,77}$/)), { seed: SEED, numRuns: 100 });
    fc.assert(fc.property(validCpr({ amount: 'open' }), (cpr) => void expect(cpr.value).not.toHaveProperty('amount')), { seed: SEED, numRuns: 100 });
  });

  it('reaches the shapes it promises', () => {
    const sample = fc.sample(validCpr(), { seed: SEED, numRuns: 1500 });
    const seen = new Set<string>();
    const note = (label: string, yes: boolean) => yes && seen.add(label);
    for (const cpr of sample) {
      const doc = cpr as unknown as Doc;
      const rail = cpr.payee.rail_address as Doc;
      const memo = cpr.memo ?? '';
      note(`sub:${subOf(cpr)}`, true);
      note('memo:at-140', codePoints(memo) === 140);
      note('memo:astral-at-140', codePoints(memo) === 140 && [...memo].some((c) => c.codePointAt(0)! > 0xffff));
      note('memo:absent', cpr.memo === undefined);
      note('amount:open', cpr.value.amount === undefined);
      note('amount:over-20-digits', (cpr.value.amount?.length ?? 0) > 20);
      note('extensions:std', Object.keys(cpr.extensions ?? {}).some((k) => k.startsWith('std:')));
      note('extensions:reverse-domain', Object.keys(cpr.extensions ?? {}).some((k) => /^[a-z]+\./.test(k)));
      note('extensions:nested-value', Object.values(cpr.extensions ?? {}).some((v) => typeof v === 'object' && v !== null));
      note('mirror', Object.keys(rail).some((f) => Object.hasOwn(doc, f)));
      note('rail_hint:absent', cpr.rail_hint === undefined);
      note('rail_hint:OPEN', cpr.rail_hint === 'OPEN');
      note('display_name:absent', cpr.payee.display_name === undefined);
      note('timestamp:fraction', /\.\d{1,3}Z$/.test(cpr.expires_at));
      note('timestamp:short-fraction', /\.\d{1,2}Z$/.test(cpr.expires_at));
      note('timestamp:whole', /:\d\dZ$/.test(cpr.expires_at));
      const address = rail.receiver_address;
      if (typeof address === 'string') {
        const digits = address.slice(2);
        note('evm:lower', digits === digits.toLowerCase() && /[a-f]/.test(digits));
        note('evm:upper', digits === digits.toUpperCase() && /[A-F]/.test(digits));
        note('evm:mixed', /[a-f]/.test(digits) && /[A-F]/.test(digits));
      }
      if (typeof rail.iban === 'string') {
        note(`iban:${rail.iban.slice(0, 2)}`, true);
        expect(isValidIBAN(rail.iban)).toBe(true);
      }
      if (typeof rail.bic === 'string') expect(isValidBIC(rail.bic)).toBe(true);
      note('asset:caip2', typeof cpr.value.asset.chain_id === 'string' && cpr.value.asset.chain_id.includes(':'));
      note(`asset:${cpr.value.asset.type}`, true);
    }
    const expected = [
      ...SUB_INTERFACES.map((s) => `sub:${s}`),
      'memo:at-140',
      'memo:astral-at-140',
      'memo:absent',
      'amount:open',
      'amount:over-20-digits',
      'extensions:std',
      'extensions:reverse-domain',
      'extensions:nested-value',
      'mirror',
      'rail_hint:absent',
      'rail_hint:OPEN',
      'display_name:absent',
      'timestamp:fraction',
      'timestamp:short-fraction',
      'timestamp:whole',
      'evm:lower',
      'evm:upper',
      'evm:mixed',
      ...['DE', 'FR', 'GB', 'NL', 'AT', 'CH'].map((c) => `iban:${c}`),
      'asset:caip2',
      ...['fiat', 'stablecoin', 'crypto', 'tokenized'].map((t) => `asset:${t}`),
    ];
    expect(expected.filter((label) => !seen.has(label))).toEqual([]);
  });

  it.each<[string, ValidCprConstraints]>([
    ['subInterface', { subInterface: 'SEPA' as SubInterface }],
    ['amount', { amount: 'some' as 'any' }],
    ['validitySeconds', { validitySeconds: 0 }],
    ['validitySeconds', { validitySeconds: 1.5 }],
    ['now', { now: Number.NaN }],
    ['now', { now: Date.UTC(10000, 0, 1) }],
    ['maxMemoCodePoints', { maxMemoCodePoints: 141 }],
    ['maxMemoCodePoints', { maxMemoCodePoints: -1 }],
    ['maxExtensionKeys', { maxExtensionKeys: 17 }],
    ['optionalFields', { optionalFields: 'some' as 'any' }],
  ])('throws a RangeError naming %s for a bad constraint', (name, constraints) => {
    expect(() => validCpr(constraints)).toThrow(RangeError);
    expect(() => validCpr(constraints)).toThrow(name);
  });

  it("optionalFields 'all' writes every optional member of the sub-interface", () => {
    for (const cpr of fc.sample(validCpr({ subInterface: 'IBAN', optionalFields: 'all', maxExtensionKeys: 1 }), { seed: 5, numRuns: 20 })) {
      expect(Object.keys(cpr)).toEqual(expect.arrayContaining(['memo', 'extensions', 'remittance_info', 'end_to_end_id', 'purpose_code']));
      expect(JSON.stringify(cpr)).toContain('"display_name"');
    }
  });

  it('is deterministic by seed', () => {
    const a = fc.sample(validCpr(), { seed: 42, numRuns: 5 });
    const b = fc.sample(validCpr(), { seed: 42, numRuns: 5 });
    expect(a).toEqual(b);
    expect(fc.sample(validCpr(), { seed: 43, numRuns: 5 })).not.toEqual(a);
  });
});
