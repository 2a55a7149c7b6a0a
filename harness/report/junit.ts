// junit.xml: a view of report.json for CI test tabs. One <testsuite> per suite
// file, one <testcase> per test. Every string is treated as hostile: XML-escaped,
// and characters XML 1.0 forbids (§2.2 Char) are replaced, never passed through.
//
// JUnit has no warning. A test whose every failure is a warning is a testcase
// with no <failure> (GitHub, GitLab and Jenkins count it as passed, as the
// verdict does) that carries a `warning` property and the failed checks in its
// <system-out>. Not <skipped>: the test ran, and a skip would read as coverage
// the run does not have.
//
// The file validates against Jenkins xUnit's junit-10.xsd (test/fixtures/):
// properties only on <testsuite> (a testcase's facts go into its text), no
// attributes the schema does not list, and a classname whose dots are packages
// Jenkins can group by ("cashpack.4_2-renew"), never a file name's dots. GitLab
// reads the same file: a failure's answer is in the element's text, which is
// what its test report shows.
import type { CheckResult, Exchange, Report, TestResult } from './model.ts';
import { answerLine } from './answer.ts';
import { displayValue, elideBlobs } from './json.ts';
import { atStep, coverageLine, shownOutcome, stabilityText, WARNING_MEANING, reasonText } from './wording.ts';
import { observedFailure } from './aggregate.ts';

export function junitXml(report: Report): string {
  const suites = groupByFile(report.tests);
  const all = counts(report.tests);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // junit-10.xsd gives <testsuites> no skipped or timestamp: each <testsuite> has them.
    `<testsuites name="cpr-conformance" tests="${report.tests.length + report.errors.length}" failures="${all.failures}" errors="${all.errors + report.errors.length}" time="${seconds(report.run.duration_ms)}">`,
  ];
  // What went wrong with the run as a whole (an interrupt, an unreachable role, a view that
  // could not be written) is no test's: CI tabs see it as errors of a suite of its own.
  if (report.errors.length > 0) {
    lines.push(`  <testsuite name="cpr-conformance run" tests="${report.errors.length}" failures="0" errors="${report.errors.length}" skipped="0" time="0" timestamp=${attr(report.run.started_at)}>`);
    for (const issue of report.errors) {
      lines.push(`    <testcase classname="cpr-conformance.run" name=${attr(issue.code)} time="0">`, `      <error message=${attr(`${issue.code}: ${issue.message.split('\n')[0]}`)} type=${attr(issue.code)}>${text(issue.message)}</error>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  for (const [file, tests] of suites) {
    const time = tests.reduce((sum, t) => sum + t.duration_ms, 0);
    lines.push(`  <testsuite name=${attr(file)} ${countAttributes(counts(tests), time)} timestamp=${attr(report.run.started_at)}>`);
    lines.push('    <properties>');
    for (const [name, value] of runProperties(report)) lines.push(`      <property name=${attr(name)} value=${attr(value)}/>`);
    lines.push('    </properties>');
    for (const test of tests) lines.push(...testcase(test));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

interface Counts {
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
}

function counts(tests: readonly TestResult[]): Counts {
  return {
    tests: tests.length,
    failures: tests.filter((t) => observedFailure(t) && shownOutcome(t) !== 'warning').length,
    errors: tests.filter((t) => t.status === 'error' && !observedFailure(t)).length,
    // JUnit has no "not applicable": it is reported as skipped, with the reason.
    skipped: tests.filter((t) => t.status === 'skipped' || t.status === 'not-applicable').length,
  };
}

function countAttributes(c: Counts, durationMs: number): string {
  return `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(durationMs)}"`;
}

function groupByFile(tests: readonly TestResult[]): Map<string, TestResult[]> {
  const groups = new Map<string, TestResult[]>();
  for (const test of tests) groups.set(test.file, [...(groups.get(test.file) ?? []), test]);
  return groups;
}

function runProperties(report: Report): [string, string][] {
  const { run } = report;
  return [
    ['verdict', report.verdict],
    ['coverage', coverageLine(report.coverage)],
    ['suite_version', run.suite_version],
    ['profile_version', run.profile_version],
    ['target', run.target.name],
    ['seed', String(run.seed)],
    ['strict', String(run.strict)],
    ['profile_advisory', String(run.profile_advisory)],
    ['warned', String(report.summary.warned)],
    ...(run.shard === undefined ? [] : [['shard', run.shard] as [string, string]]),
    ...(run.repeat === undefined ? [] : [['repeat', String(run.repeat)] as [string, string]]),
  ];
}

/**
 * "cashpack.4_2-renew" for suites/cashpack/4.2-renew.yaml: the suite's folders
 * as packages, and no dot from a file name (a section number, an extension)
 * that Jenkins would read as one. A file outside suites/ (a fuzzer's
 * regression scenario) is named by its own name.
 */
export function junitClassname(file: string): string {
  const inSuites = file.startsWith('suites/') ? file.slice('suites/'.length) : (file.split('/').pop() ?? file);
  return inSuites
    .replace(/\.(ya?ml|ts)$/, '')
    .split('/')
    .filter((part) => part !== '' && part !== '..' && part !== '.')
    .map((part) => part.replaceAll('.', '_'))
    .join('.');
}

/** What a testcase is (junit-10.xsd gives a testcase no properties): its requirements, level, role, sections, seed and stability. */
function facts(test: TestResult): string {
  return [
    `requirements ${test.requirements.join(' ')}; level ${test.level}; role ${test.role}; sections ${test.sections.join(' ')}; file ${test.file}`,
    ...(test.seed === undefined ? [] : [`seed ${test.seed}${test.path === undefined ? '' : `, path ${test.path}`}`]),
    ...(test.repeat === undefined ? [] : [`stability ${stabilityText(test) ?? test.repeat.stability}`]),
  ].join('\n');
}

function testcase(test: TestResult): string[] {
  const warned = shownOutcome(test) === 'warning';
  const lines = [`    <testcase classname=${attr(junitClassname(test.file))} name=${attr(`${test.id} ${test.title}`)} time="${seconds(test.duration_ms)}">`];
  lines.push(...outcome(test));
  const output = [
    ...(test.status === 'failed' || test.status === 'error' || test.repeat !== undefined ? [facts(test)] : []),
    ...(warned ? [`warning, not a failure: ${WARNING_MEANING}.`, ...test.checks.filter((c) => !c.passed).map((c) => checkText(test, c)), `rerun: ${test.rerun}`] : []),
    ...(test.status === 'failed' || test.status === 'error' ? test.transcript.map(exchangeText) : []),
  ];
  if (output.length > 0) lines.push(`      <system-out>${text(output.join('\n\n'))}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

function outcome(test: TestResult): string[] {
  switch (test.status) {
    case 'passed':
      return [];
    case 'failed': {
      // A warning is no <failure>: the testcase passes, and says why in its property and output.
      if (shownOutcome(test) === 'warning') return [];
      const failing = test.checks.filter((c) => !c.passed);
      const requirements = [...new Set(failing.length > 0 ? failing.map((c) => c.requirement) : test.requirements)];
      const known = (test.repeat?.stability === 'flaky' ? `${stabilityText(test)}: ` : '') + (test.known_failure ? 'known failure (baseline): ' : '');
      const message = known + failedSummary(test);
      const body = [
        ...failing.map((c) => checkText(test, c)),
        ...(failing.length === 0 && test.reason !== undefined ? [test.reason] : []),
        `rerun: ${test.rerun}`,
      ].join('\n\n');
      return [`      <failure message=${attr(message)} type=${attr(requirements.join(' '))}>${text(body)}</failure>`];
    }
    case 'error': {
      // A failed setup step is an observed failure of the setup's own requirement.
      const setup = test.checks.filter((c) => c.setup && !c.passed);
      if (test.error_code === 'HARNESS_SETUP_FAILED' && setup.length > 0) {
        const known = test.known_failure ? 'known failure (baseline): ' : '';
        const body = [`${test.reason ?? 'setup failed'}`, ...setup.map((c) => checkText(test, c)), `rerun: ${test.rerun}`].join('\n\n');
        return [`      <failure message=${attr(`${known}setup failed: ${test.reason ?? ''}`)} type=${attr([...new Set(setup.map((c) => c.requirement))].join(' '))}>${text(body)}</failure>`];
      }
      const answer = answerLine(test);
      const reason = reasonText(test) ?? 'harness error';
      const body = [reason, ...(answer === undefined ? [] : [`last answer: ${answer}`]), `rerun: ${test.rerun}`].join('\n\n');
      return [`      <error message=${attr(`${test.repeat?.stability === 'flaky' ? `${stabilityText(test)}: ` : ''}${test.error_code ?? 'HARNESS_INTERNAL'}: ${reason}`)} type=${attr(test.error_code ?? 'harness-error')}>${text(body)}</error>`];
    }
    case 'skipped': {
      const missing = test.missing_capabilities?.length ? ` (missing capability: ${test.missing_capabilities.join(', ')})` : '';
      return [`      <skipped message=${attr(`skipped: ${test.reason ?? 'not run'}${missing}`)}/>`];
    }
    case 'not-applicable':
      return [`      <skipped message=${attr(`not applicable: ${test.reason ?? 'does not apply to this target'}`)}/>`];
  }
}

/** One line per failed check ("CPR-ID-1 problem: ..."), or the reason when no check failed; the first check's answer after it. */
function failedSummary(test: TestResult): string {
  const failing = test.checks.filter((c) => !c.passed);
  const answer = failing.length > 0 ? answerLine(test, failing[0]) : undefined;
  return (failing.map((c) => `${c.requirement} ${c.check}: ${c.message}`).join('; ') || (test.reason ?? 'failed')) + (answer === undefined ? '' : ` (${answer})`);
}

/** A failed check with what was expected, what was seen and what the target answered. */
function checkText(test: TestResult, c: CheckResult): string {
  const answer = answerLine(test, c);
  return `${c.requirement} (${c.level}) ${c.check}${atStep(c)}: ${c.message}\n  expected: ${displayValue(c.expected)}\n  actual:   ${displayValue(c.actual)}${answer === undefined ? '' : `\n  answer:   ${answer}`}`;
}

function exchangeText(e: Exchange): string {
  const headers = (h: Readonly<Record<string, string>>) => Object.entries(h).map(([k, v]) => `${k}: ${v}`);
  const parts = [`${e.step === undefined ? 'before the steps' : `step ${e.step}`} (${e.role}) ${e.request.method} ${e.request.url}`, ...headers(e.request.headers)];
  if (e.request.body !== undefined) parts.push('', elideBlobs(e.request.body));
  if (e.response !== undefined) {
    parts.push('', `-> ${e.response.status} (${e.duration_ms} ms)`, ...headers(e.response.headers));
    if (e.response.body !== undefined) parts.push('', elideBlobs(e.response.body) + (e.response.truncated ? '\n[body truncated]' : ''));
  }
  if (e.error !== undefined) parts.push('', `-> transport error: ${e.error}`);
  return parts.join('\n');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

// XML 1.0 Char excludes C0 controls other than tab/LF/CR, surrogates and
// U+FFFE/U+FFFF. C0/C1 controls (ANSI escapes included) become visible `\uXXXX`
// text, as on the terminal; lone surrogates become U+FFFD (toWellFormed).
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/g;

/** Legal XML 1.0 character data, escaped for element content. */
function text(value: string): string {
  return legal(value).replace(/[&<>]/g, (c) => XML_ENTITY[c] ?? c);
}

// Line ends become LF first, as an XML parser would read them (XML 1.0 §2.11):
// no lone CR is left in the file for a tool that prints it raw to a terminal.
function legal(value: string): string {
  return value
    .toWellFormed()
    .replace(/\r\n?/g, '\n')
    .replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const XML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

/** A quoted attribute value; line breaks and tabs as references (attribute-value normalisation would fold them to spaces). */
function attr(value: string): string {
  return `"${legal(value).replace(/[&<>"'\n\r\t]/g, (c) => XML_ENTITY[c] ?? c)}"`;
}
