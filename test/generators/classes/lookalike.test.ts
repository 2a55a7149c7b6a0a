import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lookalikeString, lookalikeValue } from '../../../generators/classes/lookalike.ts';

const strings = (value: unknown): unknown[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value : Object.values(value as object));

describe('lookalikeString / lookalikeValue (json.lookalike)', () => {
  const sample = fc.sample(lookalikeString, { seed: 11, numRuns: 800 });

  it.each([
    ['a date-time at an offset', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/],
    ['a date-time with more than three fraction digits', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{4,9}Z$/],
    ['a date-time as toISOString writes it', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/],
    ['an impossible date', /^\d{4}-(02-3[01]|04-31|13-\d\d|\d\d-00)T/],
    ['a bare date', /^\d{4}-\d\d-\d\d$/],
    ['an integer past 2^53', /^-?\d{17,}$/],
    ['an exponent', /^-?\d+(\.\d+)?[eE][+-]?\d+$/],
    ['hexadecimal', /^0[xX][0-9a-fA-F]+$/],
    ["another type's word", /^(true|false|null|undefined|NaN|Infinity)$/],
    ['white space around it', /^\s|\s$/],
  ])('generates %s', (_what, pattern) => {
    expect(sample.some((s) => pattern.test(s))).toBe(true);
  });

  it('is text and nothing else: strings alone, in arrays, or as an object’s members, each surviving JSON as written', () => {
    fc.assert(
      fc.property(lookalikeValue, (value) => {
        for (const s of strings(value)) expect(typeof s).toBe('string');
        expect(JSON.parse(JSON.stringify(value))).toEqual(value);
      }),
      { seed: 5, numRuns: 200 },
    );
  });

  it('depends only on the seed', () => {
    expect(fc.sample(lookalikeValue, { seed: 9, numRuns: 50 })).toEqual(fc.sample(lookalikeValue, { seed: 9, numRuns: 50 }));
  });
});
