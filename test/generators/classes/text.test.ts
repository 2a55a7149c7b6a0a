import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textVariant } from '../../../generators/classes/text.ts';

const cp = (s: string) => [...s].length;

describe('textVariant', () => {
  it('text.non-ascii: within the bounds, never all ASCII', () => {
    fc.assert(
      fc.property(textVariant({ class: 'text.non-ascii', min: 1, max: 140 }), (v) => {
        expect(v.withinBounds).toBe(true);
        expect(/[^\x00-\x7f]/u.test(v.value)).toBe(true);
      }),
      { seed: 9, numRuns: 200 },
    );
  });

  it('text.non-ascii: some texts begin and end with white space a trim takes away, at the same length', () => {
    const framed = fc.sample(textVariant({ class: 'text.non-ascii', min: 1, max: 140 }), { seed: 3, numRuns: 400 }).filter((v) => v.note.includes('white space'));
    expect(framed.length).toBeGreaterThan(40);
    for (const v of framed) {
      expect(v.value.trim()).not.toBe(v.value);
      expect(/^\s.*\S.*\s$/su.test(v.value)).toBe(true);
      expect(v.codePoints).toBe(cp(v.value));
      expect(v.withinBounds).toBe(true);
      expect(/[^\x00-\x7f]/u.test(v.value.trim())).toBe(true);
    }
  });

  it('text.non-ascii: some texts are space characters alone, one at least not ASCII, which a trim empties, within the bounds', () => {
    for (const [min, max] of [[1, 140], [0, 1], [3, 5]] as const) {
      const blank = fc.sample(textVariant({ class: 'text.non-ascii', min, max }), { seed: 4, numRuns: 400 }).filter((v) => v.value.trim() === '');
      expect(blank.length).toBeGreaterThan(25);
      for (const v of blank) {
        expect(v.note).toContain('space characters alone');
        expect(/^\p{Zs}+$/u.test(v.value)).toBe(true);
        expect(/[^\x00-\x7f]/u.test(v.value)).toBe(true);
        expect(v.codePoints).toBe(cp(v.value));
        expect(v.withinBounds).toBe(true);
      }
    }
  });

  it('text.non-ascii: many texts hold a line break or another control a one-line field folds, within the bounds (none of one code point, which is not ASCII)', () => {
    const breaks = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
    for (const max of [1, 3, 140]) {
      const values = fc.sample(textVariant({ class: 'text.non-ascii', min: 0, max }), { seed: 5, numRuns: 300 });
      const held = values.filter((v) => breaks.test(v.value));
      if (max === 1) expect(held).toEqual([]);
      else expect(held.length).toBeGreaterThan(max === 3 ? 90 : 150);
      for (const v of values) {
        expect(v.withinBounds).toBe(true);
        expect(v.note.includes('line break')).toBe(breaks.test(v.value));
      }
    }
  });

  it('text.length: exactly max code points with more UTF-16 units and UTF-8 bytes, or one over, or exactly min, or one under', () => {
    const seen = new Set<number>();
    fc.assert(
      fc.property(textVariant({ class: 'text.length', min: 1, max: 35 }), (v) => {
        seen.add(v.codePoints);
        expect(v.codePoints).toBe(cp(v.value));
        expect([0, 1, 35, 36]).toContain(v.codePoints);
        if (v.codePoints === 35) expect(v.value.length > 35 && Buffer.byteLength(v.value) > 35).toBe(true);
        expect(v.withinBounds).toBe(v.codePoints === 35 || v.codePoints === 1);
      }),
      { seed: 10, numRuns: 200 },
    );
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 35, 36]);
  });

  it('text.length with no least length: the empty text is its lower edge, and nothing is under it', () => {
    const values = fc.sample(textVariant({ class: 'text.length', min: 0, max: 10 }), { seed: 12, numRuns: 200 });
    expect(values.some((v) => v.value === '' && v.withinBounds)).toBe(true);
    expect(values.every((v) => v.codePoints >= 0 && (v.withinBounds ? v.codePoints <= 10 : v.codePoints === 11))).toBe(true);
  });

  it('text.normalisation: written in one form that the other writes otherwise', () => {
    fc.assert(
      fc.property(textVariant({ class: 'text.normalisation', min: 0, max: 20 }), (v) => {
        expect(v.value.normalize('NFC') !== v.value.normalize('NFD')).toBe(true);
        expect(v.value === v.value.normalize('NFC') || v.value === v.value.normalize('NFD')).toBe(true);
        expect(cp(v.value)).toBeLessThanOrEqual(20);
      }),
      { seed: 11, numRuns: 200 },
    );
  });

  it('refuses a bad constraint when it is built', () => {
    expect(() => textVariant({ class: 'text.length', min: -1, max: 10 })).toThrow(RangeError);
    expect(() => textVariant({ class: 'text.length', min: 5, max: 4 })).toThrow(RangeError);
  });
});
