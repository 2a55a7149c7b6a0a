import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountVariant, MAX_AMOUNT } from '../../../generators/classes/amount.ts';
import { isAmount } from '../../../profile/amount.ts';

describe('amountVariant', () => {
  it('amount.large: profile amounts from 2^53 − 1 to 10^78 − 1', () => {
    fc.assert(
      fc.property(amountVariant({ class: 'amount.large' }), (v) => {
        expect(isAmount(v.value)).toBe(true);
        expect(BigInt(v.value as string) >= 2n ** 53n - 1n && BigInt(v.value as string) <= MAX_AMOUNT).toBe(true);
      }),
      { seed: 6, numRuns: 300 },
    );
  });

  it('amount.non-canonical: never a profile amount', () => {
    fc.assert(
      fc.property(amountVariant({ class: 'amount.non-canonical' }), (v) => {
        expect(isAmount(v.value)).toBe(false);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('amount.bound: the bound and one unit either side, within the profile', () => {
    const seen = new Set(fc.sample(amountVariant({ class: 'amount.bound', bound: 1000n }), { seed: 8, numRuns: 60 }).map((v) => v.value));
    expect([...seen].sort()).toEqual(['1000', '1001', '999']);
    expect(new Set(fc.sample(amountVariant({ class: 'amount.bound', bound: MAX_AMOUNT }), { seed: 8, numRuns: 30 }).map((v) => v.value)).has((MAX_AMOUNT + 1n).toString())).toBe(false);
  });

  it('refuses a bad constraint when it is built', () => {
    expect(() => amountVariant({ class: 'amount.bound' })).toThrow(RangeError);
    expect(() => amountVariant({ class: 'amount.large', max: 10n })).toThrow(RangeError);
    expect(() => amountVariant({ class: 'text.length' as never })).toThrow(RangeError);
  });
});
