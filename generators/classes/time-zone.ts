// dstInstant: instants inside daylight-saving time of common zones (class
// timestamp.dst), with the zone to set as the process's TZ while they are
// judged. A rule that reads a UTC timestamp as local time, or takes a zone's
// offset from a winter date, is wrong only there: tests that run on winter
// dates in UTC cannot see it. Half of the instants sit within a second of the
// zone's switch to summer time, where local clocks skip an hour.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

/** Zones with daylight-saving time, north and south, whole and half-hour offsets. */
export const DST_ZONES = ['Europe/Berlin', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'Australia/Sydney', 'Australia/Adelaide', 'America/Santiago', 'Pacific/Auckland'] as const;
export type DstZone = (typeof DST_ZONES)[number];

export interface DstInstantConstraints {
  /** Instants at or after this one (ms since the epoch). @defaultValue 2026-01-01T00:00:00Z */
  readonly from?: number;
  /** How far after `from` they may lie, in days (1 to 3660). @defaultValue 730 */
  readonly withinDays?: number;
}

export interface DstInstant extends ClassValue<number> {
  /** Milliseconds since the epoch, whole seconds. */
  readonly value: number;
  readonly zone: DstZone;
  /** The zone's offset from UTC at that instant, in minutes east. */
  readonly offsetMinutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `ms`, in minutes east (from Intl, whatever the process TZ). */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    formatters.set(zone, f);
  }
  const name = f.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

const DAY = 86_400_000;

/** zoneOffsetMinutes at a UTC midnight, kept: the instants drawn for one zone look at the same midnights. */
const midnightOffsets = new Map<string, number>();

function offsetAtMidnight(zone: string, ms: number): number {
  const key = `${zone} ${ms}`;
  let offset = midnightOffsets.get(key);
  if (offset === undefined) midnightOffsets.set(key, (offset = zoneOffsetMinutes(zone, ms)));
  return offset;
}

/** The zone's offset outside summer time in the year of `ms`: the smaller of mid-January's and mid-July's. */
function standardOffset(zone: string, ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  return Math.min(zoneOffsetMinutes(zone, Date.UTC(year, 0, 15)), zoneOffsetMinutes(zone, Date.UTC(year, 6, 15)));
}

/**
 * The first instant at or after `ms`, to the second, where the zone's offset is
 * not what it was at `ms` (within 367 UTC midnights). The midnights are looked
 * at first, each once per zone (offsetAtMidnight), then the day of the switch
 * to the second: drawing an instant cost about 180 formattings of a date.
 */
function nextSwitch(zone: string, ms: number): number | undefined {
  const start = zoneOffsetMinutes(zone, ms);
  let lo = ms;
  let hi = Math.floor(ms / DAY) * DAY;
  for (let i = 0; i < 367; i++) {
    hi += DAY;
    if (offsetAtMidnight(zone, hi) !== start) break;
    lo = hi;
    if (i === 366) return undefined;
  }
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (zoneOffsetMinutes(zone, mid) === start) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Where common integer writings of time run out, each the first second past
 * it: Unix seconds in a signed 32-bit integer (2038-01-19T03:14:08Z), in an
 * unsigned one (2106-02-07T06:28:16Z), nanoseconds in a signed 64-bit one
 * (2262-04-11T23:47:17Z); and the year 9000, near the end of four-digit years.
 * A clock may stand at any of them (PROFILE.md §12 sets it to any timestamp).
 */
export const CLOCK_ERAS: readonly { readonly from: number; readonly what: string }[] = [
  { from: Date.UTC(2038, 0, 19, 3, 14, 8), what: 'Unix seconds past a signed 32-bit integer' },
  { from: Date.UTC(2106, 1, 7, 6, 28, 16), what: 'Unix seconds past an unsigned 32-bit integer' },
  { from: Date.UTC(2262, 3, 11, 23, 47, 17), what: 'nanoseconds past a signed 64-bit integer' },
  { from: Date.UTC(9000, 0, 1), what: 'the year 9000' },
];

/** dstInstant within a year past one of CLOCK_ERAS (its note says which). */
export function eraDstInstant(): fc.Arbitrary<DstInstant> {
  return fc.constantFrom(...CLOCK_ERAS).chain((era) => dstInstant({ from: era.from, withinDays: 365 }).map((d) => ({ ...d, note: `${d.note}; ${era.what}` })));
}

export function dstInstant(constraints: DstInstantConstraints = {}): fc.Arbitrary<DstInstant> {
  const { from = Date.UTC(2026, 0, 1), withinDays = 730 } = constraints;
  if (!Number.isInteger(from) || from < 0 || from > Date.UTC(9000, 0, 1)) throw new RangeError(`dstInstant: constraints.from must be an instant from 1970 to 9000 in ms, got ${String(from)}`);
  if (!Number.isInteger(withinDays) || withinDays < 1 || withinDays > 3660) throw new RangeError(`dstInstant: constraints.withinDays must be an integer from 1 to 3660, got ${String(withinDays)}`);
  const first = Math.ceil(from / 1000) * 1000;
  return fc
    .tuple(fc.constantFrom(...DST_ZONES), fc.integer({ min: 0, max: withinDays - 1 }), fc.integer({ min: 0, max: 86_399 }), fc.boolean(), fc.integer({ min: -2, max: 2 }))
    .map(([zone, day, second, atSwitch, around]) => {
      const start = first + day * DAY + second * 1000;
      let ms = start;
      if (atSwitch) {
        // Within two seconds of the zone's next switch, either way: local clocks skip or repeat an hour there.
        const next = nextSwitch(zone, start);
        if (next !== undefined) ms = next + around * 1000;
      } else if (zoneOffsetMinutes(zone, start) === standardOffset(zone, start)) {
        // In standard time: the next switch is into summer time; up to 30 days past it.
        const next = nextSwitch(zone, start);
        if (next !== undefined) ms = next + (second % 86_400) * 30_000;
      }
      const offsetMinutes = zoneOffsetMinutes(zone, ms);
      const where = atSwitch ? `${around} s from a switch of` : 'in summer time of';
      return { class: 'timestamp.dst' as const, value: ms, zone, offsetMinutes, note: `${new Date(ms).toISOString()}, ${where} ${zone} (UTC${offsetMinutes >= 0 ? '+' : '-'}${Math.abs(offsetMinutes)} min)` };
    });
}
