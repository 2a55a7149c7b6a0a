// PROP-APP-011: the paying application judges expiry to the millisecond, in
// UTC, whatever the device's time zone: a CPR expiring at an instant inside
// daylight-saving time of a common zone (the process's TZ set to that zone
// while it is judged) is derived just before the instant and refused at and
// after it, within the second either side; a lifetime shorter than a second is
// a lifetime (spec §4.5.1, §4.7.2; PROFILE.md §1, §8.3).
//
// The time zone is the harness process's: an in-process paying application
// (the module adapter) sees it; a child process keeps the zone it was started
// with, so run the harness under TZ=<zone> to vary it there.
import fc from 'fast-check';
import { formatTimestamp } from '../../../profile/time.ts';
import { validCpr } from '../../../generators/index.ts';
import { boundaryOffset, dstInstant, type ClassValue, type DstInstant } from '../../../generators/classes/index.ts';
import { CONTEXT, crashed, define, derive, FUTURE } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';

const FILE = 'harness/properties/field-classes/app-time.ts';

interface TimeCase {
  readonly cpr: Record<string, unknown>;
  readonly instant: DstInstant;
  /** now − expires_at of the first derivation. */
  readonly expiry: ClassValue<number>;
  /** expires_at − created_at of the second (≤ 0: not a lifetime). */
  readonly lifetime: ClassValue<number>;
  /** Milliseconds past the whole second of the instant. */
  readonly fraction: number;
  /** A lifetime inside the second expires_at falls in (1 ms up to the fraction), for a third derivation. */
  readonly withinSecond: number;
  /** Write timestamps with all three fraction digits, or as few as the instant needs. */
  readonly padded: boolean;
}

const COVERS: Coverage[] = ['cpr/expires_at', 'cpr/created_at', 'derivation-context/now'].flatMap((field) => [
  { field, class: 'timestamp.dst' as const },
  { field, class: 'timestamp.boundary' as const },
]);

const stamp = (ms: number, padded: boolean): string => {
  const text = formatTimestamp(ms, 'cpr');
  return padded && !text.includes('.') ? text.replace(/Z$/, '.000Z') : text;
};

/** Runs `judge` with the process's TZ set to `zone`, and puts it back. */
export async function inZone<T>(zone: string, judge: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await judge();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

export const APP_TIME = define<TimeCase>({
  id: 'PROP-APP-011',
  title: 'expiry is judged to the millisecond in UTC, in any time zone: inside daylight-saving time, at and within a second of expires_at, with sub-second lifetimes',
  requirements: ['DRV-EXP-1', 'DRV-VALID-1'],
  level: 'MUST',
  role: 'paying-app',
  sections: ['§4.5.1', '§4.7.2', 'PROFILE §1', 'PROFILE §8.3'],
  needs: [],
  // It sets the process's TZ while a case is judged: a paying application beside it, in this process, would judge in that zone too.
  shares: 'time-zone',
  defaultRuns: 20,
  file: FILE,
  covers: COVERS,
  arbitrary: () =>
    fc.record({
      cpr: validCpr({ now: FUTURE, amount: 'fixed', maxExtensionKeys: 0 }).map((c) => c as unknown as Record<string, unknown>),
      instant: dstInstant(),
      expiry: boundaryOffset({ tick: 'ms' }),
      lifetime: boundaryOffset({ tick: 'ms' }),
      // None, and fractions written with two leading zeros, one, or none (.005, .05, .5): each digit's place read right.
      fraction: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 10, max: 99 }), fc.integer({ min: 100, max: 999 })),
      withinSecond: fc.integer({ min: 1, max: 999 }),
      padded: fc.boolean(),
    }),
  async check(ctx, c) {
    const at = c.instant.value + c.fraction;
    const where = `expires_at ${new Date(at).toISOString()} judged in ${c.instant.zone}`;
    return inZone(c.instant.zone, async (): Promise<PropertyFailure | undefined> => {
      // expires_at inside daylight-saving time, now at and around it.
      const cpr = { ...c.cpr, created_at: stamp(at - 60_000, c.padded), expires_at: stamp(at, c.padded) };
      const now = at + c.expiry.value;
      const first = await derive(ctx, cpr, { ...CONTEXT, now: formatTimestamp(now, 'cpr') });
      const expired = now >= at;
      if (crashed(first) || first.ok === expired) {
        return {
          expected: expired ? 'refused: expired' : 'a Payment',
          actual: crashed(first) ? { crashed: first.message } : first.ok ? 'a Payment' : { code: first.code, message: first.message },
          message: `${where}, now ${c.expiry.note}`,
          requirements: [expired ? 'DRV-EXP-1' : 'DRV-VALID-1'],
        };
      }
      // Lifetimes at and around nothing, and one that begins and ends within a second: valid exactly when expires_at is after created_at.
      const start = Math.floor(at / 1000) * 1000;
      const inSecond = start + Math.max(c.withinSecond, 2);
      for (const [expires, lifetime] of [[at, c.lifetime.value], [inSecond, 1 + ((c.withinSecond - 1) % (inSecond - start))]] as const) {
        const lived = { ...c.cpr, created_at: stamp(expires - lifetime, c.padded), expires_at: stamp(expires, c.padded) };
        const answer = await derive(ctx, lived, { ...CONTEXT, now: formatTimestamp(expires - 120_000, 'cpr') });
        const valid = lifetime > 0;
        if (crashed(answer) || answer.ok !== valid) {
          return {
            expected: valid ? 'a Payment' : 'refused: expires_at is not after created_at',
            actual: crashed(answer) ? { crashed: answer.message } : answer.ok ? 'a Payment' : { code: answer.code, message: answer.message },
            message: `expires_at ${lived.expires_at} judged in ${c.instant.zone}, created_at ${lifetime} ms before it (${lived.created_at})`,
            requirements: ['DRV-VALID-1'],
          };
        }
      }
      return undefined;
    });
  },
});
