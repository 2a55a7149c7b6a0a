// brokenCpr (generators/cpr-broken.ts): each value breaks exactly the rule it
// claims, every mutation of the table is reachable, and a paying application
// rejects each one for that rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CPR_MUTATIONS, DEFAULT_NOW, brokenCpr, type BrokenCpr, type BrokenCprConstraints } from '../../generators/index.ts';
import { CPR_RULES, SUB_INTERFACES, validateCpr } from '../../profile/cpr/index.ts';
import { findRequirement } from '../../profile/registry.ts';
import { accept } from '../../reference/paying-app/accept.ts';

const SEED = 20260102;
const RUNS = { seed: SEED, numRuns: 300 };

function brokenRules(b: BrokenCpr, validitySeconds?: number): Set<string> {
  const r = validateCpr(b.cpr, validitySeconds === undefined ? {} : { validitySeconds });
  return new Set(r.ok ? [] : r.violations.map((v) => v.requirement));
}

describe('brokenCpr', () => {
  it('fails validateCpr for exactly its claimed rule (plus any declared alsoBreaks)', () => {
    fc.assert(
      fc.property(brokenCpr(), (b) => {
        const expected = new Set([b.rule, ...b.alsoBreaks]);
        for (const window of [undefined, 900]) {
          const rules = brokenRules(b, window);
          expect(rules.has(b.rule), `${b.mutation}: ${b.description}`).toBe(true);
          expect(rules, `${b.mutation}: ${b.description}`).toEqual(expected);
        }
      }),
      RUNS,
    );
  });

  it('is rejected by the reference paying application for that rule', () => {
    fc.assert(
      fc.property(brokenCpr(), (b) => {
        const result = accept(b.cpr, DEFAULT_NOW);
        expect(result.ok, b.description).toBe(false);
        if (result.ok) return;
        expect(result.code).toBe(b.rule === 'CPR-VER-1' ? 'CPR_VERSION_UNSUPPORTED' : 'CPR_INVALID');
        expect((result.violations ?? []).map((v) => v.requirement)).toContain(b.rule);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('reaches every mutation and every rule of the table', () => {
    const sample = fc.sample(brokenCpr(), { seed: SEED, numRuns: 1500 });
    const mutations = new Set(sample.map((b) => b.mutation));
    expect(CPR_MUTATIONS.map((m) => m.name).filter((n) => !mutations.has(n))).toEqual([]);
    expect(new Set(sample.map((b) => b.rule))).toEqual(new Set(CPR_MUTATIONS.map((m) => m.rule)));
  });

  it('names only the rules of CPR_RULES, and every one of them: what a check that validates a CPR can charge', () => {
    const named = new Set(fc.sample(brokenCpr(), { seed: SEED, numRuns: 1500 }).flatMap((b) => [...brokenRules(b, 900)]));
    expect([...named].filter((id) => !CPR_RULES.includes(id))).toEqual([]);
    expect(CPR_RULES.filter((id) => !named.has(id))).toEqual([]);
    for (const id of CPR_RULES) expect(findRequirement(id), id).toBeDefined();
  });

  it('has a table of uniquely named mutations whose rules are registry IDs', () => {
    const names = CPR_MUTATIONS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const m of CPR_MUTATIONS) {
      expect(findRequirement(m.rule), m.name).toBeDefined();
      for (const also of m.alsoBreaks) expect(findRequirement(also), m.name).toBeDefined();
      expect(m.subInterfaces.length, m.name).toBeGreaterThan(0);
    }
  });

  it('covers every rule validateCpr reports', () => {
    const rules = new Set(CPR_MUTATIONS.map((m) => m.rule));
    for (const id of ['CPR-VER-1', 'CPR-ID-1', 'CPR-TIME-1', 'CPR-TIME-2', 'PRF-TIME-1', 'CPR-MEMO-1', 'CPR-RAIL-1', 'CPR-EXT-1', 'CPR-PAYER-1', 'PRF-CPR-1', 'CPR-PAYEE-1', 'CPR-VAL-1', 'CPR-VAL-2', 'CPR-VAL-3', 'PRF-AMT-1', 'PRF-ASSET-1', 'SUB-CHAIN-1', 'SUB-CHAIN-3', 'SUB-IBAN-1', 'SUB-IBAN-2', 'SUB-ACCT-1', 'SUB-KEY-1', 'PRF-EVM-1', 'PRF-IBAN-1', 'PRF-FIELD-1', 'PRF-RAIL-1']) {
      expect(rules.has(id), id).toBe(true);
    }
  });

  it('restricts itself to constraints.rules, constraints.mutations and the sub-interface', () => {
    fc.assert(fc.property(brokenCpr({ rules: ['SUB-IBAN-1', 'CPR-MEMO-1'] }), (b) => void expect(['SUB-IBAN-1', 'CPR-MEMO-1']).toContain(b.rule)), { seed: SEED, numRuns: 50 });
    fc.assert(fc.property(brokenCpr({ mutations: ['mirror:mismatch'] }), (b) => void expect(b.mutation).toBe('mirror:mismatch')), { seed: SEED, numRuns: 50 });
    for (const sub of SUB_INTERFACES) {
      fc.assert(
        fc.property(brokenCpr({ subInterface: sub }), (b) => {
          expect(b.subInterface).toBe(sub);
          expect(brokenRules(b)).toEqual(new Set([b.rule, ...b.alsoBreaks]));
        }),
        { seed: SEED, numRuns: 60 },
      );
    }
  });

  it('labels each value with a path and a description', () => {
    for (const b of fc.sample(brokenCpr(), { seed: SEED, numRuns: 100 })) {
      expect(b.path === '' || b.path.startsWith('/')).toBe(true);
      expect(b.description.length).toBeGreaterThan(0);
    }
  });

  it.each<[string, BrokenCprConstraints]>([
    ['rules', { rules: [] }],
    ['rules', { rules: ['NOPE-1'] }],
    ['mutations', { mutations: ['no-such-mutation'] }],
    ['constraints.rules', { rules: ['SUB-IBAN-1'], subInterface: 'ON_CHAIN' }],
    ['subInterface', { subInterface: 'SWIFT' as 'IBAN' }],
    ['maxMemoCodePoints', { maxMemoCodePoints: 200 }],
  ])('throws a RangeError naming %s for a bad constraint', (name, constraints) => {
    expect(() => brokenCpr(constraints)).toThrow(RangeError);
    expect(() => brokenCpr(constraints)).toThrow(name);
  });

  it('is deterministic by seed', () => {
    expect(fc.sample(brokenCpr(), { seed: 7, numRuns: 10 })).toEqual(fc.sample(brokenCpr(), { seed: 7, numRuns: 10 }));
  });
});
