// The closing lines of a run on the terminal: verdict, counts, what failed and how
// to rerun it, and where the reports are.
import type { Report } from '../report/model.ts';
import type { Terminal } from '../runner/terminal.ts';

export function printSummary(report: Report, dir: string, terminal: Terminal): void {
  const s = report.summary;
  const failed = report.requirements.filter((r) => r.status === 'failed');
  const warnings = report.requirements.filter((r) => r.status === 'warning');
  const uncovered = report.requirements.filter((r) => r.status === 'uncovered');
  // Tests the run guard did not run share one reason: one line for them all, not one each.
  const notRun = report.tests.filter(wasNotRun);
  for (const t of report.tests.filter((t) => (t.status === 'failed' || t.status === 'error') && !wasNotRun(t))) {
    terminal.line(`${t.status === 'failed' ? 'FAIL' : `ERROR${t.error_code ? ` ${t.error_code}` : ''}`} ${t.id} ${t.title}`);
    if (t.reason) terminal.line(`     ${t.reason.split('\n')[0]!.slice(0, 400)}`);
    terminal.line(`     rerun: ${t.rerun}`);
  }
  for (const code of new Set(notRun.map((t) => t.error_code))) {
    const tests = notRun.filter((t) => t.error_code === code);
    terminal.line(`NOT RUN ${tests.length} test(s), ${code}: ${(tests[0]!.reason ?? '').replace(/^not run: /, '').slice(0, 400)}`);
  }
  for (const e of report.errors) terminal.line(`HARNESS ${e.code}: ${e.message.slice(0, 400)}`);
  terminal.line('');
  terminal.line(`verdict: ${report.verdict}${report.run.incomplete ? ' (incomplete run)' : ''}`);
  terminal.line(`tests: ${s.total} — ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.not_applicable} not applicable, ${s.error} errors`);
  const count = (status: string) => report.requirements.filter((r) => r.status === status).length;
  terminal.line(
    `requirements: ${report.requirements.length} — ${count('passed')} passed, ${failed.length} failed, ${warnings.length} warnings, ${count('skipped')} skipped, ${count('not-applicable')} not applicable, ${uncovered.length} uncovered`,
  );
  if (failed.length > 0) terminal.line(`failed: ${failed.map((r) => r.id).join(', ')}`);
  if (warnings.length > 0) terminal.line(`warnings (SHOULD; --strict makes them failures): ${warnings.map((r) => r.id).join(', ')}`);
  if (report.baseline_diff) {
    terminal.line(`baseline: ${report.baseline_diff.new_failures.length} new failure(s), ${report.baseline_diff.unexpected_passes.length} unexpected pass(es)`);
  }
  terminal.line(`reports: ${dir}/ (report.json, junit.xml, summary.md, report.html, allure-results/)`);
}

/** A test reported as an error without being run (guard.ts, or an unreachable target at the preflight). */
function wasNotRun(test: Report['tests'][number]): boolean {
  return test.status === 'error' && test.reason !== undefined && test.reason.startsWith('not run: ');
}
