// summary.md: a view of report.json for a CI step summary ($GITHUB_STEP_SUMMARY).
// No raw HTML from data, ever: inline data is escaped character by character,
// block data goes into fences longer than any backtick run it contains.
import { stripControl } from '../text.ts';
import { displayValue } from './json.ts';
import { alikeErrors } from './group.ts';
import type { Report, RequirementResult, TestResult } from './model.ts';
import { answerLine } from './answer.ts';
import { baselineNote, coverageLine, atStep, missingRole, repeatNote, REQUIREMENT_STATUSES, shownOutcome, stabilityText, targetName, targetNotes, VERDICT_MEANING, VERDICT_WORD, WARNING_MEANING, reasonText } from './wording.ts';

/** Step summaries are capped (GitHub: 1 MiB); long values are cut and the full text stays in report.json / report.html. */
const BLOCK_LIMIT = 4000;
const DETAILED_FAILURES = 30;

export function summaryMarkdown(report: Report): string {
  const out: string[] = [];
  out.push(`## cpr-conformance: ${VERDICT_WORD[report.verdict]}`, '');
  out.push(`**Verdict: ${VERDICT_WORD[report.verdict]}**: ${VERDICT_MEANING[report.verdict]}${report.run.incomplete ? ' The run was cut short: results are partial.' : ''}`, '');
  out.push(`**Coverage**: ${inline(coverageLine(report.coverage))}.`, '');
  for (const line of targetNotes(report.run.target)) out.push(`**Target**: ${inline(line)}.`, '');
  const note = baselineNote(report);
  if (note !== undefined) out.push(`**Baseline**: ${inline(note)}.`, '');
  const repeated = repeatNote(report);
  if (repeated !== undefined) out.push(`**Repeat**: ${inline(repeated)}.`, '');
  out.push(...runFacts(report), '');
  out.push(...countTables(report), '');
  out.push(...harnessErrors(report));
  out.push(...baseline(report));
  out.push(...flakyTable(report));
  out.push(...requirementTable(report, 'failed', 'Failed requirements'));
  out.push(...requirementTable(report, 'warning', 'Requirements with warnings'));
  out.push(...untestedTable(report));
  out.push(...unverifiableList(report));
  out.push(...failureDetails(report));
  out.push(...warningDetails(report));
  out.push(...notApplicable(report));
  out.push(...leftOutList(report));
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function runFacts(report: Report): string[] {
  const { run } = report;
  const rows: [string, string][] = [
    ['Target', targetName(run.target)],
    ['Profile version', run.profile_version],
    ['Suite version', run.suite_version],
    ['Started', run.started_at],
    ['Duration', duration(run.duration_ms)],
    ['Seed', String(run.seed)],
    ...(run.shard === undefined ? [] : [['Shard', run.shard] as [string, string]]),
    ...(run.repeat === undefined ? [] : [['Repeat', `each test ${run.repeat} times`] as [string, string]]),
    ['Strict', run.strict ? 'yes (SHOULD failures decide)' : 'no'],
    ...(run.baseline === undefined ? [] : [['Baseline', run.baseline] as [string, string]]),
  ];
  return ['| Run | |', '|---|---|', ...rows.map(([k, v]) => row([k, v]))];
}

function countTables(report: Report): string[] {
  const s = report.summary;
  const byStatus = REQUIREMENT_STATUSES.map((status) => String(report.requirements.filter((r) => r.status === status).length));
  return [
    '### Tests',
    '',
    '| Total | Passed | Failed | Warning | Skipped | Not applicable | Error |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    row([s.total, s.passed, s.failed, s.warned, s.skipped, s.not_applicable, s.error].map(String)),
    '',
    '### Requirements',
    '',
    `| ${REQUIREMENT_STATUSES.map(capitalise).join(' | ')} |`,
    `|${REQUIREMENT_STATUSES.map(() => '---:').join('|')}|`,
    row(byStatus),
  ];
}

function harnessErrors(report: Report): string[] {
  if (report.errors.length === 0) return [];
  return ['### Harness errors', '', ...report.errors.map((e) => `- Code ${inline(e.code)}: ${inline(e.message)}`), ''];
}

function baseline(report: Report): string[] {
  const diff = report.baseline_diff;
  if (diff === undefined) return [];
  const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.map(inline).join(', '));
  return ['### Against the baseline', '', `- New failures: ${list(diff.new_failures)}`, `- Unexpected passes: ${list(diff.unexpected_passes)}`, ''];
}

/** With --repeat: the tests that passed some runs and not others. */
function flakyTable(report: Report): string[] {
  const flaky = report.tests.filter((t) => t.repeat?.stability === 'flaky');
  if (flaky.length === 0) return [];
  return [
    '### Flaky tests',
    '',
    'Passed some runs and not others: each counts as failed (or error), never as a pass. The evidence below is the first run that did not pass.',
    '',
    '| ID | Counted as | Passed | Failed | Errors |',
    '|---|---|---:|---:|---:|',
    ...flaky.map((t) => row([t.id, shownOutcome(t), `${t.repeat!.passed} of ${t.repeat!.runs}`, String(t.repeat!.failed), String(t.repeat!.errors)])),
    '',
  ];
}

function requirementTable(report: Report, status: 'failed' | 'warning', heading: string): string[] {
  const requirements = report.requirements.filter((r) => r.status === status);
  if (requirements.length === 0) return [];
  return [
    `### ${heading}`,
    '',
    ...(status === 'warning' ? [`Each is ${inline(WARNING_MEANING)}.`, ''] : []),
    '| ID | Level | Section | Summary | Failing tests |',
    '|---|---|---|---|---|',
    ...requirements.map((r) => row([r.id, r.level, r.sections.join(', '), r.summary, failingTests(r, report.tests).join(', ')])),
    '',
  ];
}

/** The deciding requirements the run did not exercise, and why. */
function untestedTable(report: Report): string[] {
  const untested = report.requirements.filter((r) => r.deciding && report.coverage.untested_ids.includes(r.id));
  if (untested.length === 0) return [];
  return [
    '### Deciding requirements not exercised',
    '',
    '| ID | Level | Status | Why |',
    '|---|---|---|---|',
    ...untested.map((r) => row([r.id, r.level, r.status, runErrorsNamed(report, r.reason ?? '')])),
    '',
  ];
}

/** A run-level harness error is said once, under Harness errors, not again in every row. */
function runErrorsNamed(report: Report, reason: string): string {
  return report.errors.reduce((text, e) => (e.message.length > 20 ? text.split(e.message).join('see Harness errors') : text), reason);
}

/** Requirements with a part no test can observe, said so whatever their status. */
function unverifiableList(report: Report): string[] {
  const parts = report.requirements.filter((r) => r.unverifiable !== undefined && r.deciding);
  if (parts.length === 0) return [];
  return ['### Parts no test can observe', '', ...parts.map((r) => `- ${inline(r.id)} (${inline(r.status)}): ${inline(r.unverifiable!)}`), ''];
}

/** The covering tests that count against this requirement (the rule of aggregate.ts). */
function failingTests(r: RequirementResult, tests: readonly TestResult[]): string[] {
  const covering = new Set(r.tests);
  return tests
    .filter((t) => covering.has(t.id) && (t.status === 'failed' || t.status === 'error'))
    .filter((t) => t.checks.some((c) => c.requirement === r.id && !c.passed) || (t.status === 'failed' && t.requirements.includes(r.id) && t.checks.every((c) => c.passed)))
    .map((t) => `${t.id}${t.known_failure ? ' (known)' : ''}`);
}

function failureDetails(report: Report): string[] {
  const failing = report.tests.filter((t) => shownOutcome(t) === 'failed' || t.status === 'error');
  if (failing.length === 0) return [];
  const out = ['### Failed tests', ''];
  // Tests that errored alike (an unreachable target, say) are one line, not one entry each.
  const { groups, single: detailed } = alikeErrors(failing);
  for (const tests of groups) {
    const first = tests[0]!;
    const ids = tests.slice(0, 12).map((t) => t.id).join(', ') + (tests.length > 12 ? ` and ${tests.length - 12} more` : '');
    out.push(`- ${tests.length} tests, harness error ${inline(first.error_code ?? 'unknown')} (not a conformance result): ${inline(firstLine(reasonText(first) ?? ''))}. Tests: ${inline(ids)}.`, '');
  }
  for (const test of detailed.slice(0, DETAILED_FAILURES)) out.push(...testDetail(test));
  if (detailed.length > DETAILED_FAILURES) out.push(`${detailed.length - DETAILED_FAILURES} more failed or errored tests are listed in report.html and report.json.`, '');
  return out;
}

/** The tests whose every failure is a warning: detailed as failures are, under their own heading. */
function warningDetails(report: Report): string[] {
  const warned = report.tests.filter((t) => shownOutcome(t) === 'warning');
  if (warned.length === 0) return [];
  const out = ['### Tests with warnings', '', `Each failed only at a level that does not decide: ${inline(WARNING_MEANING)}.`, ''];
  for (const test of warned.slice(0, DETAILED_FAILURES)) out.push(...testDetail(test));
  if (warned.length > DETAILED_FAILURES) out.push(`${warned.length - DETAILED_FAILURES} more tests with warnings are listed in report.html and report.json.`, '');
  return out;
}

/**
 * The tests that do not apply to this target: one line per role it does not
 * have (however many tests that role's requirements have), then the others
 * with their reasons.
 */
function notApplicable(report: Report): string[] {
  const tests = report.tests.filter((t) => t.status === 'not-applicable');
  if (tests.length === 0) return [];
  const out = ['### Not applicable', ''];
  const byRole = new Map<string, number>();
  for (const t of tests) {
    const role = missingRole(t);
    if (role !== undefined) byRole.set(role, (byRole.get(role) ?? 0) + 1);
  }
  for (const [role, count] of byRole) out.push(`- Every ${inline(role)} test (${count}): the target has no ${inline(role)} role.`);
  const others = tests.filter((t) => missingRole(t) === undefined);
  for (const t of others.slice(0, DETAILED_FAILURES)) out.push(`- ${inline(t.id)} (basis ${inline(t.basis ?? 'spec')}): ${inline(firstLine(t.reason ?? 'does not apply to this target'))}`);
  if (others.length > DETAILED_FAILURES) out.push(`- ${others.length - DETAILED_FAILURES} more, listed in report.html and report.json.`);
  return [...out, ''];
}

/** Passed tests that left parts of their cases out, the target's configuration leaving no room for them: the pass claims nothing of those. */
function leftOutList(report: Report): string[] {
  const tests = report.tests.filter((t) => t.status === 'passed' && (t.left_out?.length ?? 0) > 0);
  if (tests.length === 0) return [];
  return ['### Passed with parts left out', '', ...tests.map((t) => `- ${inline(t.id)}: ${inline(t.left_out!.join('; '))}`), ''];
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 500);
}

function outcomeText(test: TestResult): string {
  if (test.status === 'error') return test.error_code === 'HARNESS_SETUP_FAILED' ? 'setup failed' : 'harness error';
  return shownOutcome(test) === 'warning' ? 'warning (not a failure: it does not decide the verdict)' : 'failed';
}

function testDetail(test: TestResult): string[] {
  const out = [
    `#### Test ${inline(test.id)}: ${inline(test.title)}`,
    '',
    `Outcome ${outcomeText(test)}${test.known_failure ? ' (a known failure: the baseline lists it)' : ''}; file ${inline(test.file)}; requirements ${inline(test.requirements.join(', '))}; role ${inline(test.role)}.`,
    '',
  ];
  if (test.error_code === 'HARNESS_SETUP_FAILED') out.push(`Setup failed (${inline(test.error_code)}): the failed check proves the setup step's own requirement; the requirements under test were not exercised.`, '');
  else if (test.error_code !== undefined) out.push(`Harness error ${inline(test.error_code)}: not a conformance result.`, '');
  if (test.reason !== undefined) out.push(`Reason: ${inline(reasonText(test)!)}`, '');
  const runs = stabilityText(test);
  if (runs !== undefined) out.push(`Runs: ${inline(runs)}.`, '');
  const failed = test.checks.filter((c) => !c.passed);
  // Visible: each failed check and, once per step, what the target answered there.
  failed.forEach((check, i) => {
    out.push(`- Check ${inline(check.check)} for ${inline(check.requirement)} (${inline(check.level)})${inline(atStep(check))}: ${inline(check.message)}`);
    const answer = failed[i + 1]?.step !== check.step ? answerLine(test, check) : undefined;
    if (answer !== undefined) out.push(`- The target answered${inline(atStep(check)).replace(/^,/, ' at')}: ${inline(answer)}`);
  });
  if (failed.length === 0 && test.status === 'error') {
    const answer = answerLine(test);
    if (answer !== undefined) out.push(`- The target's last answer: ${inline(answer)}`);
  }
  if (failed.length > 0) {
    // Collapsed: expected and actual in full. Only fixed words are HTML here; the data is in fences.
    out.push('', `<details><summary>Expected and actual of ${failed.length === 1 ? 'the failed check' : `the ${failed.length} failed checks`}</summary>`, '');
    for (const check of failed) {
      out.push(`Check ${inline(check.check)} for ${inline(check.requirement)}${inline(atStep(check))}:`, '');
      out.push('Expected:', '', ...fence(displayValue(check.expected)), '', 'Actual:', '', ...fence(displayValue(check.actual)), '');
    }
    out.push('</details>');
  }
  out.push('');
  if (test.seed !== undefined || test.path !== undefined) out.push(`Property seed ${inline(String(test.seed ?? ''))}, path ${inline(test.path ?? '')}.`, '');
  out.push('Rerun alone:', '', ...fence(test.rerun, 'sh'), '');
  return out;
}

/** A fenced block that its content cannot close: the fence is longer than any backtick run inside. */
function fence(content: string, info = 'text'): string[] {
  let body = blockText(content);
  if (body.length > BLOCK_LIMIT) body = `${body.slice(0, BLOCK_LIMIT)}\n[... cut at ${BLOCK_LIMIT} characters; see report.json]`;
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const marker = '`'.repeat(Math.max(3, longest + 1));
  return [`${marker}${info}`, ...body.split('\n'), marker];
}

function blockText(value: string): string {
  return stripControl(value.toWellFormed().replace(/\r\n?/g, '\n'));
}

// Backslash-escaped: Markdown punctuation that makes emphasis, code, links,
// tables, strikethrough, math (`$`) and heading closers (`#`); a `:` only where
// it would make a link or an emoji (`scheme://`, `:shortcode:`), an `@` (email
// autolinks) and the `.` of `www.`, so no bare URL is recognised while plain
// text ("exercised: 3 passed", 13:39:19, host:port) stays plain. Entities for
// `&<>` so no HTML or <autolink> forms. Data never starts a line (block markers).
const INLINE = /[\\`*_[\]|~$#@]|[&<>]|:(?=\/\/)|:(?=(?:[\w+-]*[a-z_+-][\w+-]*|100|1234):)|(?<=www)\./gi;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Data as inline Markdown text: one line, nothing in it is markup. */
export function inline(value: string): string {
  return stripControl(value.toWellFormed().replace(/\s*[\r\n]+\s*/g, ' ')).replace(INLINE, (c) => ENTITY[c] ?? `\\${c}`);
}

function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => inline(c) || ' ').join(' | ')} |`;
}

function capitalise(status: string): string {
  const text = status.replace('-', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}
