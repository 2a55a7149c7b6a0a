// Arbitraries built on their first draw (generators/parts/deferred.ts): the
// same values, shrinks and seeds as the arbitrary built at once, and nothing
// built before a draw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deferred, matching } from '../../generators/parts/deferred.ts';

describe('deferred', () => {
  it('builds nothing before the first draw, then once', () => {
    let builds = 0;
    const arb = deferred(() => {
      builds++;
      return fc.integer({ min: 0, max: 9 });
    });
    expect(builds).toBe(0);
    fc.sample(arb, { seed: 1, numRuns: 5 });
    fc.sample(arb, { seed: 2, numRuns: 5 });
    expect(builds).toBe(1);
  });

  it('draws and shrinks as the arbitrary it defers, seed for seed', () => {
    const direct = fc.record({ a: fc.stringMatching(/^[a-z]{2,6}$/), b: fc.array(fc.nat(50)) });
    const later = deferred(() => fc.record({ a: matching(/^[a-z]{2,6}$/), b: fc.array(fc.nat(50)) }));
    for (const seed of [1, 7, 42]) expect(fc.sample(later, { seed, numRuns: 20 })).toEqual(fc.sample(direct, { seed, numRuns: 20 }));
    // A failing property shrinks to the same counterexample through either.
    const counterexample = (arb: fc.Arbitrary<{ a: string; b: number[] }>) => fc.check(fc.property(arb, (v) => v.b.length < 3 || v.a.length < 4), { seed: 3 }).counterexample;
    expect(counterexample(later)).toEqual(counterexample(direct));
    expect(counterexample(direct)).not.toBeNull();
  });

  it('gives strings that match the pattern', () => {
    for (const value of fc.sample(matching(/^[A-Z][A-Z0-9_]{0,31}$/), { seed: 5, numRuns: 200 })) expect(value).toMatch(/^[A-Z][A-Z0-9_]{0,31}$/);
  });
});
