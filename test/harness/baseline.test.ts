import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBaseline } from '../../harness/runner/baseline.ts';
import { writeAllReports } from '../../harness/report/index.ts';
import { buildReport, fixtureTests } from './report/fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cpr-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (text: string) => {
  const path = join(dir, `b${n++}.yaml`);
  writeFileSync(path, text);
  return path;
};

describe('--baseline', () => {
  it('reads known_failures naming tests of the suite', () => {
    expect(readBaseline(file('known_failures: [TOK-ONCE-001, PROP-PAYEE-001]\n'))).toMatchObject({ knownFailures: ['TOK-ONCE-001', 'PROP-PAYEE-001'], unknown: [] });
  });

  it('refuses a requirement ID, naming the tests that cover it', () => {
    expect(() => readBaseline(file('known_failures: [TOK-ONCE-1]\n'))).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('lists requirement ID(s), not test IDs: TOK-ONCE-1'), hint: expect.stringMatching(/TOK-ONCE-1 is covered by .*TOK-ONCE-001/) }),
    );
  });

  it('refuses an ID no test has in a hand-written list, and guesses what was meant', () => {
    expect(() => readBaseline(file('known_failures: [TOK-ONCE-01]\n'))).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('lists 1 ID(s) no scenario or property has: TOK-ONCE-01 (did you mean TOK-ONCE-001?)') }),
    );
  });

  it('keeps, and reports, the IDs of a baseline report.json that this suite no longer has', () => {
    const tests = fixtureTests().map((t) => (t.id === 'CPR-ID-001' ? { ...t, id: 'GONE-001' } : t));
    const out = join(dir, 'report');
    writeAllReports(out, buildReport({ tests }));
    const baseline = readBaseline(join(out, 'report.json'));
    expect(baseline.unknown).toEqual(['GONE-001']);
    expect(baseline.knownFailures).toContain('GONE-001');
  });

  it.each([
    ['a file without known_failures', 'other: 1\n', /must be a report.json or hold known_failures/],
    ['known_failures that are not strings', 'known_failures: [1, 2]\n', /must be a report.json or hold known_failures/],
    ['text that is not YAML', 'known_failures: [\n', /is not YAML or JSON/],
  ])('refuses %s as CONFIG_INVALID', (_label, text, message) => {
    expect(() => readBaseline(file(text))).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringMatching(message) }));
  });

  it('refuses a file it cannot read as a usage error', () => {
    expect(() => readBaseline(join(dir, 'missing.yaml'))).toThrow(expect.objectContaining({ code: 'USAGE_ERROR' }));
  });
});
