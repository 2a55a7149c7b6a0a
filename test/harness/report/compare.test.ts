// compare --diff over the result model: a failure that does not decide is a
// warning there too. A new warning is listed, and does not fail the diff as a
// new failure does; a warning that passes again is a fix.
import { describe, expect, it } from 'vitest';
import { diffFails, diffMarkdown, diffReports, diffText } from '../../../harness/report/compare/index.ts';
import type { TestResult } from '../../../harness/report/model.ts';
import { buildReport, fixtureTests, type FixtureOptions } from './fixture.ts';

/** The fixture with its SHOULD-only failure (CPR-ID-002) fixed. */
const fixed = (): TestResult[] => fixtureTests().map((t) => (t.id === 'CPR-ID-002' ? { ...t, status: 'passed', checks: t.checks.map((c) => ({ ...c, passed: true })) } : t));
const input = (source: string, options: FixtureOptions) => ({ source, report: buildReport(options) });
const change = (diff: ReturnType<typeof diffReports>, id: string) => [...diff.requirements, ...diff.tests].find((c) => c.id === id);

describe('compare --diff', () => {
  it.each<[string, FixtureOptions, FixtureOptions, string, string, boolean]>([
    ['a SHOULD that fails now, without --strict', { tests: fixed() }, {}, 'new-warning', 'warning', false],
    ['a SHOULD that fails now, under --strict', { tests: fixed(), strict: true }, { strict: true }, 'new-failure', 'failed', true],
    ['a SHOULD warning that passes again', {}, { tests: fixed() }, 'fix', 'passed', false],
    ['a SHOULD failure under --strict that is a warning without it', { strict: true }, {}, 'changed', 'warning', false],
  ])('calls %s a %s (the test now %s); it fails the diff: %s', (_name, before, after, kind, now, fails) => {
    const diff = diffReports(input('before.json', before), input('after.json', after));
    expect(change(diff, 'CPR-ID-2')).toMatchObject({ kind, after: now });
    expect(change(diff, 'CPR-ID-002')).toMatchObject({ kind, after: now });
    expect(diffFails(diff)).toBe(fails);
  });

  it('lists new warnings under their own heading, and says they do not fail it', () => {
    const diff = diffReports(input('before.json', { tests: fixed() }), input('after.json', {}));
    const md = diffMarkdown(diff);
    expect(md).toContain('### New warnings (failing now at a level that does not decide; they do not fail the diff)');
    expect(md).toContain('**Passes**: no new failure, and every deciding requirement observed before is still exercised; 2 new warning(s), which do not fail it.');
    expect(diffText(diff)).toContain('  test CPR-ID-002: passed -> warning — schema (CPR-ID-2): request_id is not a UUIDv4');
  });

  it('warns that runs with different verdict rules may differ for that reason alone', () => {
    const diff = diffReports(input('before.json', { strict: true }), input('after.json', {}));
    expect(diff.warnings).toContain('the runs used different verdict rules (--strict, PROFILE deciding before, SHOULD failures as warnings, PROFILE deciding after): a failure may decide in one and be a warning in the other');
    expect(diffReports(input('before.json', {}), input('after.json', {})).warnings).toEqual([]);
  });
});
