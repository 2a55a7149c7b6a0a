// amountVariant: amounts in the classes of PROFILE.md §1's amount rule.
//
// | class                | members                                                                           | an amount |
// |----------------------|-----------------------------------------------------------------------------------|-----------|
// | amount.large         | 2^53 − 1 to 10^78 − 1, biased to 2^53, 2^64 and 10^21 (where a double rounds, or   | yes       |
// |                      | prints an exponent)                                                               |           |
// | amount.non-canonical | zero, leading zeros, a sign, an exponent, a fraction of zeros, white space, digits | no        |
// |                      | of other scripts, a separator, a JSON number                                      |           |
// | amount.bound         | the bound, one below and one above (1 and 10^78 − 1 are the ends)                 | yes       |
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export interface AmountVariantConstraints {
  readonly class: 'amount.large' | 'amount.non-canonical' | 'amount.bound';
  /** For amount.bound: the bound, an amount. */
  readonly bound?: bigint;
  /** For amount.large: the largest value to generate (at least 2^53). @defaultValue 10^78 − 1 */
  readonly max?: bigint;
}

export const MAX_AMOUNT = 10n ** 78n - 1n;
const TWO_53 = 2n ** 53n;

export function amountVariant(constraints: AmountVariantConstraints): fc.Arbitrary<ClassValue<unknown>> {
  const { class: cls, bound, max = MAX_AMOUNT } = constraints;
  switch (cls) {
    case 'amount.large': {
      if (typeof max !== 'bigint' || max < TWO_53 || max > MAX_AMOUNT) throw new RangeError(`amountVariant: constraints.max must be a bigint from 2^53 to 10^78 − 1, got ${String(max)}`);
      const near = (centre: bigint) => fc.bigInt({ min: -3n, max: 3n }).map((d) => centre + d);
      const pick = fc.oneof(near(TWO_53), near(2n ** 64n), near(10n ** 21n), fc.bigInt({ min: TWO_53 - 1n, max }), fc.constant(max));
      return pick.map((n) => (n < TWO_53 - 1n ? TWO_53 - 1n : n > max ? max : n)).map((n) => ({ class: cls, value: n.toString(), note: `${n.toString().length} digits` }));
    }
    case 'amount.non-canonical':
      return fc
        .tuple(fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String), fc.integer({ min: 0, max: 11 }))
        .map(([digits, form]): ClassValue<unknown> => {
          const forms: readonly [unknown, string][] = [
            ['0', 'zero'],
            [`0${digits}`, 'a leading zero'],
            [`+${digits}`, 'a plus sign'],
            [`-${digits}`, 'a minus sign'],
            [`${digits}e0`, 'an exponent'],
            [`${digits}.0`, 'a fraction of zeros'],
            [` ${digits}`, 'white space'],
            [`${digits}\u00a0`, 'a no-break space'],
            [[...digits].map((d) => String.fromCodePoint(0x0660 + Number(d))).join(''), 'Arabic-Indic digits'],
            [digits.replace(/(\d)(?=(\d{3})+$)/g, '$1,'), 'thousands separators'],
            [Number(digits.slice(0, 15)), 'a JSON number'],
            ['1'.repeat(79), '79 digits'],
          ];
          const [value, note] = forms[form]!;
          // Three digits or fewer have no separator to write: a leading zero instead.
          return typeof value === 'string' && value === digits ? { class: cls, value: `0${digits}`, note: 'a leading zero' } : { class: cls, value, note };
        });
    case 'amount.bound': {
      if (typeof bound !== 'bigint' || bound < 1n || bound > MAX_AMOUNT) throw new RangeError(`amountVariant: constraints.bound must be an amount as a bigint, got ${String(bound)}`);
      const candidates = [bound - 1n, bound, bound + 1n].filter((n) => n >= 1n && n <= MAX_AMOUNT);
      return fc.constantFrom(...candidates).map((n) => ({ class: cls, value: n.toString(), note: n === bound ? 'at the bound' : n < bound ? 'one below the bound' : 'one above the bound' }));
    }
    default:
      throw new RangeError(`amountVariant: constraints.class must be amount.large, amount.non-canonical or amount.bound, got ${String(cls)}`);
  }
}
