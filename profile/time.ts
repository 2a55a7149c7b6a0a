// RFC 3339 timestamps in UTC, PROFILE.md §1. CPR timestamps may carry 1 to 3
// fraction digits; cash-pack timestamps are whole seconds.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

type TimestampKind = 'cpr' | 'cashpack';

/** Milliseconds since the epoch, or undefined when the text is not a valid timestamp of that kind. */
export function parseTimestamp(text: unknown, kind: TimestampKind = 'cpr'): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac] = m;
  if (kind === 'cashpack' && frac !== undefined) return undefined;
  const year = Number(y), month = Number(mo), day = Number(d);
  const hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = frac === undefined ? 0 : Number(frac.padEnd(3, '0'));
  return utc(year, month - 1, day, hour, minute, second, ms);
}

export function formatTimestamp(ms: number, kind: TimestampKind = 'cpr'): string {
  const cache = formatted[kind];
  const known = cache.get(ms);
  if (known !== undefined) return known;
  const iso = new Date(ms).toISOString();
  const text = kind === 'cashpack' || ms % 1000 === 0 ? iso.replace(/\.\d{3}Z$/, 'Z') : iso;
  if (cache.size >= FORMATTED_LIMIT) cache.clear();
  cache.set(ms, text);
  return text;
}

// Under a frozen clock the messages of a run carry a few instants over and over
// (the Operator's now, an expiry a lifetime after it, a second either side of a
// window), one after the other: the texts of each kind are kept, up to a bound.
const formatted: Record<TimestampKind, Map<number, string>> = { cpr: new Map(), cashpack: new Map() };
const FORMATTED_LIMIT = 256;

function daysInMonth(year: number, month: number): number {
  return new Date(utc(year, month, 0)).getUTCDate();
}

// Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear does not.
function utc(year: number, monthIndex: number, day: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const date = new Date(Date.UTC(2000, monthIndex, day, h, mi, s, ms));
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
}
