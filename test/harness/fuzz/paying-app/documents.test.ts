// The paying-app fuzzer's documents drawn from the field classes
// (harness/fuzz/paying-app/documents.ts): every draw names a field of the
// inventory and a class it has, every class of the CPR is drawn, the same seed
// draws the same documents. What they find is campaign.test.ts's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawnCpr, FAR_AHEAD } from '../../../../harness/fuzz/paying-app/index.ts';
import { fieldsOf } from '../../../../harness/properties/fields.ts';
import { validateCpr } from '../../../../profile/cpr/index.ts';

describe('drawnCpr', () => {
  const sample = fc.sample(drawnCpr({ now: FAR_AHEAD }), { seed: 5, numRuns: 400 });

  it('sets each drawn field to a member of a class the inventory gives it', () => {
    const cpr = fieldsOf('cpr');
    for (const { draws } of sample) {
      expect(draws.length).toBeGreaterThanOrEqual(1);
      expect(draws.length).toBeLessThanOrEqual(3);
      expect(new Set(draws.map((d) => d.field)).size).toBe(draws.length);
      for (const d of draws) expect(cpr.find((f) => f.id === d.field)?.classes, d.field).toContain(d.class);
    }
  });

  it('draws every class of the CPR it has a generator for, and documents both valid and not', () => {
    const drawn = new Set(sample.flatMap((s) => s.draws.map((d) => d.class)));
    for (const cls of ['identifier.case', 'identifier.form', 'timestamp.fraction', 'timestamp.offset', 'timestamp.leap-second', 'timestamp.boundary', 'amount.large', 'amount.non-canonical', 'amount.bound', 'text.non-ascii', 'text.length', 'text.normalisation', 'enum.case', 'code.case', 'payer.depth']) {
      expect(drawn, cls).toContain(cls);
    }
    const valid = sample.filter((s) => validateCpr(s.drawn).ok).length;
    expect(valid).toBeGreaterThan(40);
    expect(valid).toBeLessThan(360);
  });

  it('draws the same documents from the same seed, and refuses a bad count', () => {
    expect(fc.sample(drawnCpr({ now: FAR_AHEAD }), { seed: 5, numRuns: 20 })).toEqual(sample.slice(0, 20));
    expect(() => drawnCpr({ now: FAR_AHEAD, maxDraws: 0 })).toThrow(RangeError);
  });
});
