import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport } from '../../../harness/report/json.ts';
import { REPORT_VIEWS, viewsNamed, writeAllReports } from '../../../harness/report/write.ts';
import type { TestResult } from '../../../harness/report/model.ts';
import { exitOf } from '../../../harness/report/aggregate.ts';
import { buildReport, fixtureTests } from './fixture.ts';

const folder = () => join(mkdtempSync(join(tmpdir(), 'cpr-report-')), 'nested', 'run-1');

describe('writeAllReports', () => {
  it('writes report.json, junit.xml, summary.md, report.html and allure-results/, and report.json reads back', () => {
    const dir = folder();
    const report = buildReport();
    const { report: written, ...paths } = writeAllReports(dir, report);
    expect(written).toBe(report);
    expect(Object.values(paths).map((f) => f.slice(dir.length + 1))).toEqual(['report.json', 'junit.xml', 'summary.md', 'report.html', 'allure-results']);
    for (const file of Object.values(paths)) expect(existsSync(file)).toBe(true);
    expect(readReport(paths.json)).toEqual(JSON.parse(JSON.stringify(report)));
    expect(readFileSync(paths.html!, 'utf8')).toMatch(/^<!DOCTYPE html>/);
    expect(readFileSync(paths.junit!, 'utf8')).toMatch(/^<\?xml/);
    expect(readFileSync(paths.markdown!, 'utf8')).toMatch(/^## cpr-conformance: NON-CONFORMANT/);
    expect(readdirSync(paths.allure!).filter((f) => f.endsWith('-result.json'))).toHaveLength(report.tests.length);
  });

  it('writes report.json and only the views named, whatever their order', () => {
    const dir = folder();
    const { report: _report, ...paths } = writeAllReports(dir, buildReport(), viewsNamed(['html', 'junit']));
    expect(Object.keys(paths)).toEqual(['json', 'junit', 'html']);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    expect(writeAllReports(folder(), buildReport(), viewsNamed([]))).not.toHaveProperty('allure');
  });

  // A reporter is harness code: its exception is the harness's defect, never the target's.
  describe('a view that throws', () => {
    const passing = fixtureTests().filter((t) => t.status === 'passed');
    const failing = fixtureTests();

    it.each<[string, readonly TestResult[], string]>([
      ['turns a run that observed no failure into an error, with the stack in report.json', passing, 'error'],
      ['leaves an observed failure non-conformant, and records the fault beside it', failing, 'non-conformant'],
    ])('%s', (_name, tests, verdict) => {
      const dir = folder();
      const given = buildReport({ tests });
      const written = writeAllReports(dir, given, {
        ...REPORT_VIEWS,
        markdown: {
          ...REPORT_VIEWS.markdown,
          render: () => {
            throw new TypeError('injected reporter fault');
          },
        },
      });
      expect(written.report.verdict).toBe(verdict);
      expect(written.markdown).toBeUndefined();
      expect(existsSync(join(dir, 'summary.md'))).toBe(false);
      const saved = readReport(written.json);
      expect(saved.verdict).toBe(verdict);
      const fault = saved.errors.find((e) => e.code === 'HARNESS_INTERNAL');
      expect(fault?.message).toMatch(/summary\.md view could not be written: harness failure: TypeError: injected reporter fault\n\s+at /);
      // Every other view is written, from the report as it now stands.
      expect(readFileSync(written.html!, 'utf8')).toMatch(/HARNESS_INTERNAL/);
      expect(readFileSync(written.junit!, 'utf8')).toMatch(/<testcase classname="cpr-conformance.run" name="HARNESS_INTERNAL"[^>]*>\s*<error message="HARNESS_INTERNAL: the summary.md view could not be written/);
      expect(readFileSync(written.html!, 'utf8')).toMatch(new RegExp(verdict === 'error' ? 'ERROR' : 'NON-CONFORMANT'));
      expect(exitOf(written.report, false).code).toBe(verdict === 'error' ? 2 : 1);
      // No requirement was charged for it.
      expect(written.report.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual(given.requirements.filter((r) => r.status === 'failed').map((r) => r.id));
    });
  });
});
