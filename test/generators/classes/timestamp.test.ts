import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timestampVariant } from '../../../generators/classes/timestamp.ts';
import { parseTimestamp } from '../../../profile/time.ts';

const AT = Date.UTC(2026, 6, 1, 12, 30, 45);

describe('timestampVariant', () => {
  it.each([
    ['timestamp.fraction', 'cpr'],
    ['timestamp.fraction', 'cashpack'],
    ['timestamp.offset', 'cpr'],
    ['timestamp.leap-second', 'cashpack'],
  ] as const)('%s (%s): accepted exactly as PROFILE.md §1 says, denoting the instant it names', (cls, kind) => {
    fc.assert(
      fc.property(timestampVariant({ class: cls, kind, at: AT }), (v) => {
        expect(parseTimestamp(v.value, kind) !== undefined).toBe(v.accepted);
        if (v.accepted) expect(parseTimestamp(v.value, kind)).toBe(v.ms);
        if (v.ms !== undefined && cls === 'timestamp.offset') expect(Date.parse(v.value.replace(/z$/, 'Z').replace(' ', 'T').replace(/(T\d\d:\d\d:\d\d)$/, '$1Z').replace('t', 'T'))).toBe(v.ms);
      }),
      { seed: 3, numRuns: 60 },
    );
  });

  it('timestamp.fraction: 1 to 9 digits, all of them generated', () => {
    const digits = new Set(fc.sample(timestampVariant({ class: 'timestamp.fraction', kind: 'cpr', at: AT }), { seed: 4, numRuns: 150 }).map((v) => /\.(\d+)Z$/.exec(v.value)![1]!.length));
    expect([...digits].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('refuses a bad constraint when it is built', () => {
    expect(() => timestampVariant({ class: 'timestamp.offset', kind: 'iso' as never, at: AT })).toThrow(RangeError);
    expect(() => timestampVariant({ class: 'timestamp.offset', kind: 'cpr', at: Number.NaN })).toThrow(RangeError);
    expect(() => timestampVariant({ class: 'timestamp.dst' as never, kind: 'cpr', at: AT })).toThrow(RangeError);
  });
});
