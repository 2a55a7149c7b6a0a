// timestampVariant: the text of an instant in the classes of PROFILE.md §1's
// timestamp rule that a careless reader gets wrong. Each value is labelled
// with the instant it denotes when it denotes one (`ms`), whether the profile
// accepts it for the given kind of timestamp, and why.
//
// | class                 | members                                                                 | accepted        |
// |-----------------------|-------------------------------------------------------------------------|-----------------|
// | timestamp.fraction    | a fraction of 1 to 9 digits                                             | CPR: 1 to 3     |
// | timestamp.offset      | +00:00, -00:00, another offset naming the same instant, t / z, no zone  | never           |
// | timestamp.leap-second | second 60, 24:00:00, 29 February of a common year, 30 February, day 31  | never           |
//
// Instants inside daylight-saving time are dstInstant's (time-zone.ts);
// boundaries are boundaryOffset's (boundary.ts).
import fc from 'fast-check';
import { matching } from '../parts/deferred.ts';
import type { ClassValue } from './catalogue.ts';

export type TimestampKind = 'cpr' | 'cashpack';

export interface TimestampVariantConstraints {
  readonly class: 'timestamp.fraction' | 'timestamp.offset' | 'timestamp.leap-second';
  /** CPR timestamps take 1 to 3 fraction digits, cash-pack timestamps none (PROFILE.md §1). */
  readonly kind: TimestampKind;
  /** The instant (ms since the epoch, whole seconds used) the variants are written around; between 1970 and 9998. */
  readonly at: number;
}

export interface TimestampValue extends ClassValue<string> {
  /** The instant the text denotes, when it denotes one. */
  readonly ms?: number;
  /** Whether PROFILE.md §1 accepts the text for this kind of timestamp. */
  readonly accepted: boolean;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function parts(ms: number) {
  const d = new Date(ms);
  return { y: pad(d.getUTCFullYear(), 4), mo: pad(d.getUTCMonth() + 1), d: pad(d.getUTCDate()), h: pad(d.getUTCHours()), mi: pad(d.getUTCMinutes()), s: pad(d.getUTCSeconds()) };
}

/** The instant written with an offset of `minutes` east of UTC (the same instant). */
function withOffset(ms: number, minutes: number, sign: '+' | '-' = minutes < 0 ? '-' : '+'): string {
  const p = parts(ms + minutes * 60_000);
  const m = Math.abs(minutes);
  return `${p.y}-${p.mo}-${p.d}T${p.h}:${p.mi}:${p.s}${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

export function timestampVariant(constraints: TimestampVariantConstraints): fc.Arbitrary<TimestampValue> {
  const { class: cls, kind, at } = constraints;
  if (kind !== 'cpr' && kind !== 'cashpack') throw new RangeError(`timestampVariant: constraints.kind must be cpr or cashpack, got ${String(kind)}`);
  if (!Number.isFinite(at) || at < 0 || at > Date.UTC(9998, 0, 1)) throw new RangeError(`timestampVariant: constraints.at must be an instant from 1970 to 9998, got ${String(at)}`);
  const whole = Math.floor(at / 1000) * 1000;
  const p = parts(whole);
  const base = `${p.y}-${p.mo}-${p.d}T${p.h}:${p.mi}:${p.s}`;
  switch (cls) {
    case 'timestamp.fraction':
      return fc.integer({ min: 1, max: 9 }).chain((digits) =>
        matching(new RegExp(`^[0-9]{${digits}}$`)).map((fraction) => {
          const accepted = kind === 'cpr' && digits <= 3;
          return { class: cls, value: `${base}.${fraction}Z`, ms: whole + Number(fraction.slice(0, 3).padEnd(3, '0')), accepted, note: `${digits} fraction digit(s)` };
        }),
      );
    case 'timestamp.offset':
      return fc.oneof(
        fc.constantFrom<[string, string]>([`${base}+00:00`, '+00:00'], [`${base}-00:00`, '-00:00'], [`${base}z`, 'lower-case z'], [`${p.y}-${p.mo}-${p.d}t${p.h}:${p.mi}:${p.s}Z`, 'lower-case t'], [base, 'no zone'], [`${p.y}-${p.mo}-${p.d} ${p.h}:${p.mi}:${p.s}Z`, 'a space for T'], [`${base}+0000`, '+0000']),
        fc.integer({ min: -12 * 60, max: 14 * 60 }).filter((m) => m !== 0).map((m): [string, string] => [withOffset(whole, m), `offset ${m} min`]),
      ).map(([value, note]) => ({ class: cls, value, ms: whole, accepted: false, note }));
    case 'timestamp.leap-second': {
      const commonYear = Number(p.y) % 4 === 0 ? Number(p.y) + 1 : Number(p.y);
      return fc
        .constantFrom<[string, string]>(
          [`${p.y}-${p.mo}-${p.d}T23:59:60Z`, 'a leap second'],
          [`${p.y}-${p.mo}-${p.d}T24:00:00Z`, 'hour 24'],
          [`${pad(commonYear, 4)}-02-29T${p.h}:${p.mi}:${p.s}Z`, '29 February of a common year'],
          [`${p.y}-02-30T${p.h}:${p.mi}:${p.s}Z`, '30 February'],
          [`${p.y}-04-31T${p.h}:${p.mi}:${p.s}Z`, '31 April'],
          [`${p.y}-13-01T${p.h}:${p.mi}:${p.s}Z`, 'month 13'],
          [`${p.y}-${p.mo}-00T${p.h}:${p.mi}:${p.s}Z`, 'day 0'],
          [`${p.y}-${p.mo}-${p.d}T${p.h}:60:${p.s}Z`, 'minute 60'],
        )
        .map(([value, note]) => ({ class: cls, value, accepted: false, note }));
    }
    default:
      throw new RangeError(`timestampVariant: constraints.class must be timestamp.fraction, timestamp.offset or timestamp.leap-second, got ${String(cls)}`);
  }
}
