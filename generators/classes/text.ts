// textVariant: free text in the classes of PROFILE.md §1's "text length" rule
// and of the fields that carry text unchanged.
//
// | class              | members                                                                          |
// |--------------------|----------------------------------------------------------------------------------|
// | text.non-ascii     | BMP letters, astral characters, combining marks, right-to-left text, ZWJ, emoji   |
// |                    | sequences, within the bounds; two in three hold a line break or other control    |
// |                    | (LF, CR, CRLF, tab, VT, FF, NEL, U+2028, U+2029, NUL, DEL, one in four any       |
// |                    | other C0 or C1 control) that a one-line field folds or a store drops;            |
// |                    | one in four begins and ends with white space (a space, a no-break, an em or an   |
// |                    | ideographic space) that a trim would take away; one text in eight is made of     |
// |                    | space characters alone (Unicode Zs, one at least not ASCII), which a trim empties; |
// |                    | one unit in five is a character an escaper rewrites (& < > " ' \ / % +)        |
// | text.length        | exactly max code points holding astral characters (more UTF-16 units and UTF-8   |
// |                    | bytes than max; line breaks and controls among the others), max + 1 code points, |
// |                    | exactly min (the empty text when min is 0), min − 1 code points                  |
// | text.normalisation | a text in NFD that NFC writes otherwise, or in NFC that NFD writes otherwise      |
//
// Each value says how many code points it has and whether it lies within the
// bounds; the field's own format (printable ASCII only, say) is the oracle's.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export interface TextVariantConstraints {
  readonly class: 'text.non-ascii' | 'text.length' | 'text.normalisation';
  /** Fewest code points the field takes, 0 or more. */
  readonly min: number;
  /** Most code points the field takes, at least max(min, 1). */
  readonly max: number;
}

export interface TextValue extends ClassValue<string> {
  readonly codePoints: number;
  /** Within min..max code points. */
  readonly withinBounds: boolean;
}

const cp = (s: string): number => [...s].length;

/** Text that is not ASCII, one code point each: letters, astral characters, marks, bidi and joiners. */
const NON_ASCII_UNITS = ['é', 'ß', 'Ω', 'Ж', 'ש', 'ع', '中', '한', '😀', '𝄞', '𠜎', '💶', '\u0301', '\u200d', '\u200f', '\u00a0', 'ǅ', 'ﬃ', 'İ', 'ı'];
const nonAsciiUnit = fc.oneof(fc.constantFrom(...NON_ASCII_UNITS), fc.integer({ min: 0xa0, max: 0xd7ff }).map((c) => String.fromCodePoint(c)), fc.integer({ min: 0x10000, max: 0x10fff }).map((c) => String.fromCodePoint(c)));
const asciiUnit = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCodePoint(c));
/** ASCII that an HTML, XML, JSON or URL escaper writes otherwise: carried as written, it says whether a field was escaped on its way. */
const markupUnit = fc.constantFrom('&', '<', '>', '"', "'", '\\', '/', '%', '+');
/** Line breaks and other controls that a field written on one line folds into a space or drops, and NUL and DEL, which a store of C strings or a text column drops (CRLF is two code points). */
const LINE_BREAKS = ['\n', '\r', '\r\n', '\t', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029', '\u0000', '\u007f'];
/** A control code point (C0, DEL, C1) or a line or paragraph separator. */
const CONTROL = /^[\u0000-\u001f\u007f-\u009f\u2028\u2029]$/u;
/** The named ones, or any other C0 or C1 control. */
const lineBreakUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...LINE_BREAKS) },
  { weight: 1, arbitrary: fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })).map((c) => String.fromCodePoint(c)) },
);
/** A code point outside ASCII that is neither white space nor a control: what a text.non-ascii value always holds. */
const visible = (u: string): boolean => u.codePointAt(0)! > 0x7f && u.trim() !== '' && !CONTROL.test(u);
/** White space a trim takes away (String.prototype.trim, most languages' strip). */
const edgeSpace = fc.constantFrom(' ', '\u00a0', '\u2003', '\u3000');
const astral = fc.constantFrom('😀', '𝄞', '𠜎', '💶', '🇪', '🀄');
/** The space separators (Unicode Zs) but the ASCII space: white space that is not a control, which every trim takes away. */
const WIDE_SPACES = ['\u00a0', '\u1680', '\u2000', '\u2001', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200a', '\u202f', '\u205f', '\u3000'];

/** Words whose NFC and NFD spellings differ. */
const COMPOSABLE = ['é', 'ñ', 'Å', 'ü', 'ç', 'ő', 'ǖ', 'ệ', '한', '가', 'Ḩ', 'ë', 'ș', 'ā'];

export function textVariant(constraints: TextVariantConstraints): fc.Arbitrary<TextValue> {
  const { class: cls, min, max } = constraints;
  if (!Number.isInteger(min) || min < 0) throw new RangeError(`textVariant: constraints.min must be an integer ≥ 0, got ${String(min)}`);
  if (!Number.isInteger(max) || max < Math.max(min, 1)) throw new RangeError(`textVariant: constraints.max must be an integer ≥ max(min, 1), got ${String(max)}`);
  const label = (value: string, note: string): TextValue => ({ class: cls, value, note, codePoints: cp(value), withinBounds: cp(value) >= min && cp(value) <= max });
  switch (cls) {
    case 'text.non-ascii': {
      const written = fc
        .tuple(
          fc.array(fc.oneof({ weight: 3, arbitrary: nonAsciiUnit }, { weight: 1, arbitrary: asciiUnit }, { weight: 1, arbitrary: markupUnit }), { minLength: Math.max(min, 1), maxLength: Math.min(max, 40) }),
          fc.option(fc.tuple(edgeSpace, edgeSpace), { freq: 3 }),
          // Two texts in three hold a line break or control, anywhere.
          fc.option(fc.tuple(lineBreakUnit, fc.nat()), { freq: 3 }),
        )
        .map(([units, edges, lineBreak]) => {
          // Inside the text where it has room, where white space framing it leaves it.
          const at = lineBreak === null ? 0 : units.length < 2 ? units.length : 1 + (lineBreak[1] % (units.length - 1));
          const withBreak = lineBreak === null ? units : [...units.slice(0, at), lineBreak[0], ...units.slice(at)];
          // One code point each but CRLF: a text cut back to its bounds.
          const cut = [...withBreak.join('')].slice(0, Math.max(Math.min(max, 40), min));
          const inner = cut.some(visible) ? cut : ['é', ...cut.slice(1)];
          const breaks = (text: readonly string[]) => (text.some((u) => CONTROL.test(u)) ? ', with a line break or control' : '');
          if (edges === null || inner.length < 3) return label(inner.join(''), `${inner.length} code point(s), not ASCII${breaks(inner)}`);
          // White space at either end, in place of the first and last code points: the same length.
          const middle = inner.slice(1, -1);
          if (!middle.some(visible)) middle[0] = 'é';
          const framed = [edges[0], ...middle, edges[1]];
          return label(framed.join(''), `${framed.length} code point(s), not ASCII${breaks(framed)}, beginning and ending with white space`);
        });
      return fc.oneof({ weight: 7, arbitrary: written }, { weight: 1, arbitrary: blankText(constraints) });
    }
    case 'text.length': {
      const atMax = fc.array(fc.oneof(astral, nonAsciiUnit, asciiUnit, lineBreakUnit.filter((u) => u !== '\r\n')), { minLength: max - 1, maxLength: max - 1 }).chain((rest) =>
        astral.map((a) => {
          const value = [a, ...rest].join('');
          return label(value, `exactly ${max} code points, ${value.length} UTF-16 units, ${Buffer.byteLength(value)} UTF-8 bytes`);
        }),
      );
      const over = fc.array(fc.oneof(astral, asciiUnit), { minLength: max + 1, maxLength: max + 1 }).map((units) => label(units.join(''), `${max + 1} code points, one over`));
      const atMin = fc.array(fc.oneof(astral, asciiUnit), { minLength: min, maxLength: min }).map((units) => label(units.join(''), min === 0 ? 'the empty text (0 code points, the least)' : `exactly ${min} code point(s), the least`));
      const under = min > 0 ? [fc.array(asciiUnit, { minLength: min - 1, maxLength: min - 1 }).map((units) => label(units.join(''), `${min - 1} code points, one under`))] : [];
      return fc.oneof(atMax, over, atMin, ...under);
    }
    case 'text.normalisation':
      return fc
        .tuple(fc.array(fc.constantFrom(...COMPOSABLE), { minLength: 1, maxLength: 6 }), fc.array(asciiUnit, { maxLength: 10 }), fc.constantFrom<'NFD' | 'NFC'>('NFD', 'NFC'))
        .map(([letters, ascii, form]) => {
          // Interleave, then cut to the bounds in the written form.
          const nfc = letters.map((l, i) => `${l}${ascii[i] ?? ''}`).join('');
          let value = nfc.normalize(form);
          while (cp(value) > max) value = [...value].slice(0, max).join('').normalize(form);
          // A cut may leave only characters both forms write alike: one composable letter in the chosen form.
          if (value.normalize('NFC') === value.normalize('NFD')) value = 'é'.normalize(form);
          const other = form === 'NFD' ? 'NFC' : 'NFD';
          return label(value, `written in ${form} (${cp(value)} code points; ${other} has ${cp(value.normalize(other))})`);
        });
    default:
      throw new RangeError(`textVariant: constraints.class must be text.non-ascii, text.length or text.normalisation, got ${String(cls)}`);
  }
}

/**
 * The class text.non-ascii's member made of space characters alone (Unicode
 * Zs, one at least not ASCII), within min..max code points (8 at most): a
 * text a trim empties, which a field of that length carries as written.
 */
export function blankText(constraints: Omit<TextVariantConstraints, 'class'>): fc.Arbitrary<TextValue> {
  const { min, max } = constraints;
  if (!Number.isInteger(min) || min < 0) throw new RangeError(`blankText: constraints.min must be an integer ≥ 0, got ${String(min)}`);
  if (!Number.isInteger(max) || max < Math.max(min, 1)) throw new RangeError(`blankText: constraints.max must be an integer ≥ max(min, 1), got ${String(max)}`);
  return fc
    .tuple(fc.constantFrom(...WIDE_SPACES), fc.array(fc.constantFrom(' ', ...WIDE_SPACES), { minLength: Math.max(min, 1) - 1, maxLength: Math.max(Math.min(max, 8), min) - 1 }), fc.nat())
    .map(([wide, rest, at]) => {
      const units = [...rest];
      units.splice(at % (rest.length + 1), 0, wide);
      const value = units.join('');
      return { class: 'text.non-ascii', value, note: `${units.length} code point(s) of space characters alone (Unicode Zs), which a trim empties`, codePoints: units.length, withinBounds: units.length >= min && units.length <= max };
    });
}
