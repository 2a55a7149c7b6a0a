// Text building blocks for the generators (PROFILE.md §1 "text length": a
// "character" is a Unicode code point, so an astral character counts once).
// Internal: not re-exported from generators/index.ts.
import fc from 'fast-check';

const fromCodePoint = (cp: number): string => String.fromCodePoint(cp);

/** Printable ASCII, U+0020..U+007E. */
const ascii = fc.integer({ min: 0x20, max: 0x7e }).map(fromCodePoint);
/** BMP outside ASCII and the surrogate block (lone surrogates are not JSON text, PROFILE.md §1). */
const bmp = fc.oneof(fc.integer({ min: 0xa0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0xfffd })).map(fromCodePoint);
/** Planes 1..16: one code point, two UTF-16 units. */
const astral = fc.integer({ min: 0x10000, max: 0x10ffff }).map(fromCodePoint);
/** Real-world astral and combining characters that break naive length counting. */
const tricky = fc.constantFrom('😀', '🎉', '💶', '🇪', '🇺', '𝄞', '𠜎', '\u0301', '\u200d', '\ufeff', 'ß', '€');
/** C0 controls other than NUL: valid in a JSON string once escaped. */
const control = fc.integer({ min: 0x01, max: 0x1f }).map(fromCodePoint);

/** One code point (never a lone surrogate), biased towards ASCII, with astral characters common. */
const codePoint: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: ascii },
  { weight: 2, arbitrary: bmp },
  { weight: 2, arbitrary: astral },
  { weight: 2, arbitrary: tricky },
  { weight: 1, arbitrary: control },
);

/** A string of min..max code points; about a third of the time exactly max (the limit itself). */
export function codePointText(min: number, max: number): fc.Arbitrary<string> {
  const any = fc.string({ unit: codePoint, minLength: min, maxLength: max });
  if (max === min) return any;
  return fc.oneof({ weight: 2, arbitrary: any }, { weight: 1, arbitrary: fc.string({ unit: codePoint, minLength: max, maxLength: max }) });
}

/** Exactly n code points, mixing ASCII with astral characters (for "one over the limit" cases). */
export function exactCodePoints(n: number): fc.Arbitrary<string> {
  return fc.string({ unit: codePoint, minLength: n, maxLength: n });
}

/** 1..max printable ASCII characters (ISO 20022 Max35Text and the like). */
export function printableAscii(min: number, max: number): fc.Arbitrary<string> {
  return fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: max });
}

