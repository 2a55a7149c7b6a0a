import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAmount } from '../../profile/amount.ts';
import { decodeB64url, decodeB64urlFixed, encodeB64url } from '../../profile/b64url.ts';
import { formatTimestamp, parseTimestamp } from '../../profile/time.ts';
import { isUuid, seededUuid, uuidBytes, uuidOfBytes } from '../../profile/uuid.ts';

describe('strict base64url (PROFILE.md §1)', () => {
  it('round-trips every byte string through exactly one encoding', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = encodeB64url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(Buffer.from(decodeB64url(text)!)).toEqual(Buffer.from(bytes));
      }),
    );
  });

  it.each([
    ['padding', 'AQ=='],
    ['standard alphabet +', 'a+b_'],
    ['standard alphabet /', 'a/b_'],
    ['white space', 'AQ B'],
    ['impossible length', 'AQIDB'],
    ['non-zero unused bits', 'AR'],
    ['non-ASCII', 'AQé'],
  ])('rejects %s', (_name, text) => {
    expect(decodeB64url(text)).toBeUndefined();
  });

  it('checks the decoded length of fixed-size values', () => {
    const key = encodeB64url(new Uint8Array(32).fill(7));
    expect(decodeB64urlFixed(key, 32)).toBeDefined();
    expect(decodeB64urlFixed(key, 31)).toBeUndefined();
    expect(decodeB64urlFixed(key.slice(1), 32)).toBeUndefined();
    expect(decodeB64urlFixed(42, 32)).toBeUndefined();
  });
});

describe('amounts (PROFILE.md §1)', () => {
  it.each(['1', '10', '999999999999999999999999', '1'.padEnd(78, '0')])('accepts %s', (a) => expect(isAmount(a)).toBe(true));
  it.each(['0', '01', '-1', '+1', '1.0', '1e3', ' 1', '1 ', '', '1'.padEnd(79, '0'), 100, null])('rejects %j', (a) =>
    expect(isAmount(a)).toBe(false),
  );
});

describe('timestamps (PROFILE.md §1)', () => {
  it.each([
    ['2026-11-21T08:00:00Z', 'cpr', Date.UTC(2026, 10, 21, 8)],
    ['2026-11-21T08:00:00.5Z', 'cpr', Date.UTC(2026, 10, 21, 8, 0, 0, 500)],
    ['2026-11-21T08:00:00.123Z', 'cpr', Date.UTC(2026, 10, 21, 8, 0, 0, 123)],
    ['2024-02-29T23:59:59Z', 'cashpack', Date.UTC(2024, 1, 29, 23, 59, 59)],
    ['0050-01-01T00:00:00Z', 'cpr', -60589296000000],
  ] as const)('reads %s', (text, kind, ms) => {
    expect(parseTimestamp(text, kind)).toBe(ms);
  });

  it.each([
    ['lower-case t', '2026-11-21t08:00:00Z', 'cpr'],
    ['an offset', '2026-11-21T08:00:00+00:00', 'cpr'],
    ['no zone', '2026-11-21T08:00:00', 'cpr'],
    ['four fraction digits', '2026-11-21T08:00:00.1234Z', 'cpr'],
    ['a fraction in a cash-pack timestamp', '2026-11-21T08:00:00.1Z', 'cashpack'],
    ['30 February', '2026-02-30T00:00:00Z', 'cpr'],
    ['29 February of a common year', '2025-02-29T00:00:00Z', 'cpr'],
    ['hour 24', '2026-11-21T24:00:00Z', 'cpr'],
    ['a leap second', '2016-12-31T23:59:60Z', 'cpr'],
    ['a date only', '2026-11-21', 'cpr'],
  ] as const)('rejects %s', (_name, text, kind) => {
    expect(parseTimestamp(text, kind)).toBeUndefined();
  });

  it('writes cash-pack timestamps in whole seconds, truncating', () => {
    expect(formatTimestamp(Date.UTC(2026, 0, 1, 0, 0, 1, 999), 'cashpack')).toBe('2026-01-01T00:00:01Z');
    expect(formatTimestamp(Date.UTC(2026, 0, 1, 0, 0, 1, 250), 'cpr')).toBe('2026-01-01T00:00:01.250Z');
  });

  it('gives each kind its own text of the same instant, however the calls alternate', () => {
    const t = Date.UTC(2026, 0, 1, 0, 0, 1, 250);
    const seen = [formatTimestamp(t, 'cashpack'), formatTimestamp(t, 'cpr'), formatTimestamp(t, 'cashpack'), formatTimestamp(t + 1000, 'cashpack'), formatTimestamp(t, 'cpr')];
    expect(seen).toEqual(['2026-01-01T00:00:01Z', '2026-01-01T00:00:01.250Z', '2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z', '2026-01-01T00:00:01.250Z']);
    expect(() => formatTimestamp(Number.NaN, 'cashpack')).toThrow(RangeError);
  });

  it('writes every instant as Date does, whatever instants came before it and how often', () => {
    const written = (ms: number, kind: 'cpr' | 'cashpack') => {
      const iso = new Date(ms).toISOString();
      return kind === 'cashpack' || ms % 1000 === 0 ? iso.replace(/\.\d{3}Z$/, 'Z') : iso;
    };
    // Instants from a small set (each written again and again) and from a wide one (past any bound on what is kept).
    const instant = fc.oneof(fc.integer({ min: 0, max: 20 }).map((k) => Date.UTC(2026, 0, 1) + k * 250), fc.integer({ min: 0, max: 4_102_444_800_000 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(instant, fc.constantFrom('cpr' as const, 'cashpack' as const)), { maxLength: 600 }), (calls) => {
        for (const [ms, kind] of calls) expect(formatTimestamp(ms, kind)).toBe(written(ms, kind));
      }),
      { numRuns: 50 },
    );
  });
});

describe('UUIDs (PROFILE.md §1)', () => {
  it('accepts the canonical lower-case form only', () => {
    expect(isUuid('123e4567-e89b-42d3-a456-426614174000')).toBe(true);
    expect(isUuid('123E4567-E89B-42D3-A456-426614174000')).toBe(false);
    expect(isUuid('{123e4567-e89b-42d3-a456-426614174000}')).toBe(false);
    expect(isUuid('123e4567e89b42d3a456426614174000')).toBe(false);
  });

  it('derives canonical version-4 UUIDs from a seed and a name, the same for the same pair', () => {
    const seed = new Uint8Array([1]);
    const names = Array.from({ length: 50 }, (_, i) => `request-${i}`);
    const ids = names.map((name) => seededUuid(seed, name));
    expect(names.map((name) => seededUuid(seed, name))).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
    expect(names.some((name) => ids.includes(seededUuid(new Uint8Array([2]), name)))).toBe(false);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('makes 16 bytes a canonical UUID of a version, with the variant bits 10 and every other bit kept', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.integer({ min: 1, max: 8 }), (bytes, version) => {
        const id = uuidOfBytes(bytes, version);
        expect(isUuid(id)).toBe(true);
        const back = uuidBytes(id);
        expect(back[6]! >> 4).toBe(version);
        expect(back[8]! >> 6).toBe(0b10);
        expect([back[6]! & 0x0f, back[8]! & 0x3f]).toEqual([bytes[6]! & 0x0f, bytes[8]! & 0x3f]);
        expect([...back.slice(0, 6), back[7], ...back.slice(9)]).toEqual([...bytes.slice(0, 6), bytes[7], ...bytes.slice(9)]);
      }),
    );
    expect(uuidOfBytes(new Uint8Array(16), 7)).toBe('00000000-0000-7000-8000-000000000000');
  });

  it('gives the 16 bytes of a UUID', () => {
    expect(Buffer.from(uuidBytes('00112233-4455-6677-8899-aabbccddeeff')).toString('hex')).toBe('00112233445566778899aabbccddeeff');
  });
});
