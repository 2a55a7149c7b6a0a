// The closing lines of a run on the terminal: verdict, counts, what failed and how
// to rerun it, and where the reports are.
import type { Report } from '../report/model.ts';
import { exitOf } from '../report/aggregate.ts';
import { baselineNote, coverageLine, repeatNote, REQUIREMENT_STATUSES, shownOutcome, stabilityText, VERDICT_MEANING, WARNING_MEANING } from '../report/wording.ts';
import type { Terminal } from '../runner/terminal.ts';
import { failedCheckLines } from '../report/answer.ts';

/** The closing lines; `files` are the reports written into `dir` (reporters.ts reportFiles). */
export function printSummary(report: Report, dir: string, terminal: Terminal, files: readonly string[]): void {
  const s = report.summary;
  const failed = report.requirements.filter((r) => r.status === 'failed');
  const warnings = report.requirements.filter((r) => r.status === 'warning');
  const uncovered = report.requirements.filter((r) => r.status === 'uncovered');
  // Tests the run guard did not run share one reason: one line for them all, not one each.
  const notRun = report.tests.filter((t) => t.not_run === true);
  for (const t of report.tests.filter((t) => (t.status === 'failed' || t.status === 'error') && t.not_run !== true)) {
    const known = t.known_failure ? ' (known failure)' : '';
    const flaky = t.repeat?.stability === 'flaky' ? ' (flaky)' : '';
    terminal.line(`${label(t)}${flaky}${known} ${t.id} ${t.title}`);
    if (t.reason) terminal.line(`     ${t.reason.split('\n')[0]!.slice(0, 400)}`);
    // What the target answered where each check failed: the part a developer acts on.
    for (const line of failedCheckLines(t)) terminal.line(`     ${line.slice(0, 400)}`);
    const runs = stabilityText(t);
    if (runs !== undefined && !flaky) terminal.line(`     ${runs}`);
    terminal.line(`     rerun: ${t.rerun}`);
  }
  for (const code of new Set(notRun.map((t) => t.error_code))) {
    const tests = notRun.filter((t) => t.error_code === code);
    terminal.line(`NOT RUN ${tests.length} test(s), ${code}: ${(tests[0]!.reason ?? '').slice(0, 400)}`);
  }
  for (const e of report.errors) terminal.line(`HARNESS ${e.code}: ${e.message.slice(0, 400)}`);
  terminal.line('');
  terminal.line(`verdict: ${report.verdict}: ${VERDICT_MEANING[report.verdict] ?? ''}${report.run.incomplete ? ' (the run was cut short)' : ''}`);
  terminal.line(`coverage: ${coverageLine(report.coverage)}`);
  if (report.coverage.untested > 0) {
    const ids = report.coverage.untested_ids;
    terminal.line(`not exercised: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? ` and ${ids.length - 12} more` : ''} (why: cpr-conformance explain ID --report ${dir}/report.json)`);
  }
  terminal.line(`tests: ${s.total} — ${s.passed} passed, ${s.failed} failed, ${s.warned} warnings, ${s.skipped} skipped, ${s.not_applicable} not applicable, ${s.error} errors`);
  const counted = REQUIREMENT_STATUSES.map((status) => [status, report.requirements.filter((r) => r.status === status).length] as const).filter(([status, n]) => n > 0 || status === 'passed' || status === 'failed');
  terminal.line(`requirements: ${report.requirements.length} — ${counted.map(([status, n]) => `${n} ${status.replace('-', ' ')}`).join(', ')}`);
  if (failed.length > 0) terminal.line(`failed: ${failed.map((r) => r.id).join(', ')}`);
  if (warnings.length > 0) terminal.line(`warnings: ${warnings.map((r) => r.id).join(', ')} — each ${WARNING_MEANING}`);
  if (uncovered.length > 0) terminal.line(`uncovered (no test covers them): ${uncovered.map((r) => r.id).join(', ')}`);
  const unobservable = report.requirements.filter((r) => r.unverifiable !== undefined && r.deciding).map((r) => r.id);
  if (unobservable.length > 0) terminal.line(`with a part no test can observe (see explain): ${unobservable.join(', ')}`);
  const repeated = repeatNote(report);
  if (repeated !== undefined) terminal.line(`repeat: ${repeated}`);
  const note = baselineNote(report);
  if (note !== undefined) terminal.line(note);
  for (const id of report.baseline_diff?.unexpected_passes ?? []) terminal.line(`  passed unexpectedly (listed as a known failure): ${id}`);
  for (const id of report.baseline_diff?.new_failures ?? []) terminal.line(`  new failure (not in the baseline): ${id}`);
  const misplaced = misplacedOperatorHint(report);
  if (misplaced !== undefined) terminal.line(misplaced);
  const exit = exitOf(report, report.run.allow_partial);
  terminal.line(`exit ${exit.code}: ${exit.because}`);
  terminal.line(`reports: ${dir}/ (${files.join(', ')})`);
}

/** How the closing lines name a test that did not pass. */
function label(test: Report['tests'][number]): string {
  if (test.status === 'error') return test.error_code === 'HARNESS_SETUP_FAILED' ? 'SETUP FAILED' : `ERROR${test.error_code ? ` ${test.error_code}` : ''}`;
  return shownOutcome(test) === 'warning' ? 'WARN' : 'FAIL';
}

/**
 * A hint when both of the Operator's well-known documents answered 404 at its
 * base URL: a target served under a base path and given by its origin looks
 * so. The failures stand (nothing is served where the documents belong); the
 * hint says where else they may be.
 */
export function misplacedOperatorHint(report: Report): string | undefined {
  const facts = report.run.target.facts?.operator;
  const base = report.run.target.roles?.['operator']?.base_url;
  const notFound = (answer: unknown) => typeof answer === 'object' && answer !== null && (answer as { status?: unknown }).status === 404;
  if (facts === undefined || base === undefined || !notFound(facts.policy) || !notFound(facts.key)) return undefined;
  return `hint: ${base} answered 404 for both ${facts.policy.path} and ${facts.key.path}; an implementation served under a base path is given with it, e.g. --target ${base.replace(/\/+$/, '')}/your/base/path`;
}
