import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dstInstant, zoneOffsetMinutes } from '../../../generators/classes/time-zone.ts';

describe('dstInstant', () => {
  it('gives whole-second instants in summer time of their zone, or within two seconds of a switch', () => {
    const from = Date.UTC(2026, 0, 1);
    fc.assert(
      fc.property(dstInstant({ from }), (i) => {
        expect(i.value % 1000).toBe(0);
        expect(i.value).toBeGreaterThanOrEqual(from);
        const year = new Date(i.value).getUTCFullYear();
        const standard = Math.min(zoneOffsetMinutes(i.zone, Date.UTC(year, 0, 15)), zoneOffsetMinutes(i.zone, Date.UTC(year, 6, 15)));
        const nearSwitch = [-3000, 3000].some((d) => zoneOffsetMinutes(i.zone, i.value + d) !== zoneOffsetMinutes(i.zone, i.value));
        expect(i.offsetMinutes !== standard || nearSwitch, i.note).toBe(true);
      }),
      { seed: 5, numRuns: 60 },
    );
  });

  it('places the instants near a switch to the second: the offset changes between the second before it and the switch', () => {
    let near = 0;
    fc.assert(
      fc.property(dstInstant({ from: Date.UTC(2026, 0, 1) }), (i) => {
        const around = /, (-?\d) s from a switch of /.exec(i.note)?.[1];
        if (around === undefined) return;
        near++;
        const at = i.value - Number(around) * 1000;
        expect(zoneOffsetMinutes(i.zone, at - 1000), i.note).not.toBe(zoneOffsetMinutes(i.zone, at));
      }),
      { seed: 11, numRuns: 80 },
    );
    expect(near).toBeGreaterThan(10);
  });

  it('reads offsets from Intl whatever the process TZ', () => {
    const before = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      expect(zoneOffsetMinutes('Europe/Berlin', Date.UTC(2026, 6, 1))).toBe(120);
      expect(zoneOffsetMinutes('Europe/Berlin', Date.UTC(2026, 0, 1))).toBe(60);
      expect(zoneOffsetMinutes('Australia/Sydney', Date.UTC(2026, 0, 1))).toBe(660);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('refuses a bad constraint when it is built', () => {
    expect(() => dstInstant({ from: -1 })).toThrow(RangeError);
    expect(() => dstInstant({ withinDays: 0 })).toThrow(RangeError);
  });
});
