// allure-results/ from the report: statuses that say whose defect it is, the
// checks as steps, no harness stack trace, and the run's facts for the overview.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeAllureResults } from '../../../harness/report/allure.ts';
import type { TestResult } from '../../../harness/report/model.ts';
import { buildReport, fixtureTests, WARNING_CASES } from './fixture.ts';

interface AllureFile {
  name: string;
  fullName: string;
  status: string;
  statusDetails: { message?: string; trace?: string; expected?: string; actual?: string };
  labels: { name: string; value: string }[];
  steps: { name: string; status: string; steps: { name: string; status: string }[] }[];
  attachments: { name: string; source: string; type: string }[];
  historyId: string;
  start: number;
  stop: number;
}

const work = mkdtempSync(join(tmpdir(), 'cpr-allure-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const setupFailed: TestResult = {
  ...fixtureTests().find((t) => t.status === 'failed')!,
  id: 'CPP-RNW-901',
  status: 'error',
  error_code: 'HARNESS_SETUP_FAILED',
  reason: 'setup step 1 (issue, line 9) failed CPP-ISS-1: status (CPP-ISS-1): expected 200, got 422; CPP-RNW-1 not exercised',
};
const unreachable: TestResult = { ...fixtureTests().find((t) => t.status === 'error')!, id: 'TOK-GET-901', error_code: 'HARNESS_TARGET_UNREACHABLE', not_run: true, reason: 'the payee stopped answering' };
const report = buildReport({ tests: [...fixtureTests(), setupFailed, unreachable] });
const dir = writeAllureResults(work, report);
const results = readdirSync(dir)
  .filter((f) => f.endsWith('-result.json'))
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as AllureFile);
const byId = (id: string) => results.find((r) => r.name.startsWith(`${id} `))!;

describe('allure-results', () => {
  it('has one result per test', () => {
    expect(results.map((r) => r.name.split(' ')[0]).sort()).toEqual(report.tests.map((t) => t.id).sort());
  });

  it.each([
    ['CPR-VER-001', 'passed'],
    ['CPR-ID-001', 'failed'],
    ['CPR-ID-002', 'passed'],
    ['CPP-RNW-901', 'failed'],
    ['TOK-GET-901', 'broken'],
    ['TOK-TLS-001', 'skipped'],
  ])('marks %s %s', (id, status) => {
    expect(byId(id).status).toBe(status);
  });

  it('says a conformance failure with its checks and the rerun, never a harness stack trace', () => {
    const failed = byId('CPR-ID-001');
    expect(failed.statusDetails.trace).toMatch(/^CPR-ID-1 \(MUST\) problem, step 2: /);
    expect(failed.statusDetails.trace).toContain('rerun: npx cpr-conformance run --only CPR-ID-001');
    expect(failed.statusDetails.trace).not.toMatch(/\n\s+at /);
    expect(failed.statusDetails.expected).toContain('INVALID_REQUEST');
    expect(failed.steps.map((s) => [s.name, s.status])).toEqual([
      ['step 1', 'passed'],
      ['step 2', 'failed'],
    ]);
  });

  it('says a harness error is not a conformance result', () => {
    expect(byId('TOK-GET-901').statusDetails.message).toBe('harness error HARNESS_TARGET_UNREACHABLE (not a conformance result): not run: the payee stopped answering');
    expect(byId('CPP-RNW-901').statusDetails.message).toMatch(/^setup failed: setup step 1/);
  });

  it('attaches the transcript and the failed checks as files that exist', () => {
    const failed = byId('CPR-ID-001');
    expect(failed.attachments.map((a) => a.name)).toEqual(['transcript.json', 'failed-checks.json']);
    for (const a of failed.attachments) expect(JSON.parse(readFileSync(join(dir, a.source), 'utf8'))).toBeInstanceOf(Array);
  });

  it('labels by spec, file, section and requirement, with a history ID stable across runs', () => {
    const failed = byId('CPR-ID-001');
    expect(failed.labels).toContainEqual({ name: 'story', value: 'CPR-ID-1' });
    expect(failed.labels).toContainEqual({ name: 'severity', value: 'critical' });
    expect(failed.labels).toContainEqual({ name: 'role', value: failed.labels.find((l) => l.name === 'role')!.value });
    const again = writeAllureResults(join(work, 'again'), report);
    const other = readdirSync(again).filter((f) => f.endsWith('-result.json')).map((f) => JSON.parse(readFileSync(join(again, f), 'utf8')) as AllureFile);
    expect(other.find((r) => r.fullName === failed.fullName)!.historyId).toBe(failed.historyId);
  });

  it('lays the tests out in time from the run start', () => {
    const starts = results.map((r) => r.start);
    expect(Math.min(...starts)).toBe(Date.parse(report.run.started_at));
    for (const r of results) expect(r.stop).toBeGreaterThanOrEqual(r.start);
  });

  it('gives Allure the run: environment, executor and categories', () => {
    const env = readFileSync(join(dir, 'environment.properties'), 'utf8');
    for (const key of ['Verdict=NON-CONFORMANT', `Seed=${report.run.seed}`, 'Profile=CPP-PROFILE-1.0', 'Target=']) expect(env).toContain(key);
    expect(JSON.parse(readFileSync(join(dir, 'executor.json'), 'utf8'))).toMatchObject({ name: 'cpr-conformance', reportName: expect.stringContaining('NON-CONFORMANT') });
    const categories = JSON.parse(readFileSync(join(dir, 'categories.json'), 'utf8')) as { matchedStatuses: string[] }[];
    expect(categories.map((c) => c.matchedStatuses)).toEqual([['failed'], ['broken']]);
  });

  it.each(WARNING_CASES)('marks %s (%s) as a %s: passed and tagged, or failed', (_name, id, shown, options) => {
    const out = writeAllureResults(join(work, `case-${id}-${shown}`), buildReport(options));
    const result = readdirSync(out)
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(out, f), 'utf8')) as AllureFile)
      .find((r) => r.name.startsWith(`${id} `))!;
    expect(result.status).toBe(shown === 'warning' ? 'passed' : 'failed');
    expect(result.labels.some((l) => l.name === 'tag' && l.value === 'warning')).toBe(shown === 'warning');
    expect((result.statusDetails.message ?? '').startsWith('warning, not a failure: a failure at a level that does not decide this run')).toBe(shown === 'warning');
    // The failed check is still shown, as a failed step, with expected vs actual in the trace.
    expect(result.steps.flatMap((s) => s.steps).some((s) => s.status === 'failed')).toBe(true);
    expect(result.statusDetails.trace).toContain(`rerun: npx cpr-conformance run --only ${id} --seed 42`);
    const env = readFileSync(join(out, 'environment.properties'), 'utf8');
    expect(env).toContain(`Tests\\ with\\ warnings=${buildReport(options).summary.warned}`);
  });

  it('starts afresh: results of an earlier run in the same directory are removed', () => {
    const small = buildReport({ tests: fixtureTests().slice(0, 2) });
    const again = writeAllureResults(work, small);
    expect(readdirSync(again).filter((f) => f.endsWith('-result.json'))).toHaveLength(2);
  });
});
