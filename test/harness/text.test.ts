// The time stamps in the names of the folders and files the harness writes.
import { describe, expect, it } from 'vitest';
import { fileStamp, uniqueStamp } from '../../harness/text.ts';

describe('file and folder stamps', () => {
  it('writes a time as YYYYMMDD-HHMMSS, from a Date or an RFC 3339 string alike', () => {
    expect(fileStamp(new Date('2026-11-25T15:29:41.884Z'))).toBe('20261125-152941');
    expect(fileStamp('2026-11-25T15:29:41.884Z')).toBe('20261125-152941');
  });

  it('adds four random hex digits, so two runs started in one second get two folders', () => {
    const at = new Date('2026-11-25T15:29:41.884Z');
    const names = new Set(Array.from({ length: 20 }, () => uniqueStamp(at)));
    for (const name of names) expect(name).toMatch(/^20261125-152941-[0-9a-f]{4}$/);
    expect(names.size).toBeGreaterThan(1);
  });
});
