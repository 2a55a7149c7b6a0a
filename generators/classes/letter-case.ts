// letterCaseVariant: a value written in another letter case (classes enum.case
// and code.case). Whether the variant is still acceptable is the oracle's to
// say: an unlisted rail_hint is read as no preference, a lower-case BIC is no
// BIC, an all-lower EVM address is one address and a mixed one must pass its
// checksum.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export interface LetterCaseVariantConstraints {
  readonly class: 'enum.case' | 'code.case';
  /** The value to vary: a string with at least one cased letter. */
  readonly value: string;
}

const hasCase = (s: string): boolean => s.toLowerCase() !== s.toUpperCase();

export function letterCaseVariant(constraints: LetterCaseVariantConstraints): fc.Arbitrary<ClassValue<string>> {
  const { class: cls, value } = constraints;
  if (cls !== 'enum.case' && cls !== 'code.case') throw new RangeError(`letterCaseVariant: constraints.class must be enum.case or code.case, got ${String(cls)}`);
  if (typeof value !== 'string' || !hasCase(value)) throw new RangeError(`letterCaseVariant: constraints.value must be a string with a cased letter, got ${JSON.stringify(value)}`);
  const chars = [...value];
  return fc
    .oneof(
      fc.constant(value.toLowerCase()),
      fc.constant(value.toUpperCase()),
      fc.constant(value.charAt(0).toUpperCase() + value.slice(1).toLowerCase()),
      fc.array(fc.boolean(), { minLength: chars.length, maxLength: chars.length }).map((flips) => chars.map((c, i) => (flips[i] ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : c)).join('')),
    )
    .map((variant) => {
      // The value itself is no variant: flip its first cased letter.
      const v = variant === value ? chars.map((c, i) => (i === chars.findIndex(hasCase) ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : c)).join('') : variant;
      return { class: cls, value: v, note: `${JSON.stringify(value)} written ${JSON.stringify(v)}` };
    });
}
