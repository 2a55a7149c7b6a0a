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

  it('text.length: exactly max code points with more UTF-16 units and UTF-8 bytes, or one over, or one under', () => {
    fc.assert(
      fc.property(textVariant({ class: 'text.length', min: 1, max: 35 }), (v) => {
        expect(v.codePoints).toBe(cp(v.value));
        expect([0, 35, 36]).toContain(v.codePoints);
        if (v.codePoints === 35) expect(v.value.length > 35 && Buffer.byteLength(v.value) > 35).toBe(true);
        expect(v.withinBounds).toBe(v.codePoints === 35);
      }),
      { seed: 10, numRuns: 200 },
    );
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
