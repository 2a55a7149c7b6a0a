// allure-results/: a view of report.json for Allure, written with allure-js-commons'
// own writer from the canonical results (so `report merge` writes one too).
// Statuses say whose defect it is: a conformance failure is `failed` (a product
// defect), a harness error `broken` (not a conformance result), a test that did
// not apply `skipped`. Allure has no warning: a test whose every failure is a
// warning is `passed`, as the verdict counts it, tagged `warning`, with its
// failed checks as the message, trace and failed steps. Each test carries its checks as steps, the transcript and
// the failed checks as attachments; the run's facts go to environment.properties
// and executor.json.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LabelName, Stage, Status, type Attachment, type Label, type StepResult, type TestResult as AllureResult } from 'allure-js-commons';
import type { Category } from 'allure-js-commons/sdk';
import { md5, stringifyEnvInfo } from 'allure-js-commons/sdk/reporter';
import { displayValue } from './json.ts';
import type { CheckResult, Report, TestResult } from './model.ts';
import { atStep, shownOutcome, stabilityText, targetName, VERDICT_WORD, WARNING_MEANING, reasonText } from './wording.ts';

const ALLURE_DIR = 'allure-results';

/** Allure's status for an outcome: whose defect it is. */
function allureStatus(test: Pick<TestResult, 'status' | 'error_code' | 'warning'>): Status {
  switch (test.status) {
    case 'passed':
      return Status.PASSED;
    case 'failed':
      return shownOutcome(test) === 'warning' ? Status.PASSED : Status.FAILED;
    case 'error':
      // A failed setup step is an observed failure of its own requirement; any other error is the harness's.
      return test.error_code === 'HARNESS_SETUP_FAILED' ? Status.FAILED : Status.BROKEN;
    default:
      return Status.SKIPPED;
  }
}

/** Writes DIR/allure-results/ afresh (results of an earlier run in the same directory are removed). */
export function writeAllureResults(dir: string, report: Report): string {
  const resultsDir = join(dir, ALLURE_DIR);
  rmSync(resultsDir, { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });
  const writer = plainWriter(resultsDir);
  let clock = Date.parse(report.run.started_at);
  for (const test of report.tests) {
    const start = clock;
    clock += test.duration_ms;
    writer.writeResult(allureResult(test, start, clock, (name, body) => {
      const source = `${randomUUID()}-attachment.json`;
      writer.writeAttachment(source, Buffer.from(body, 'utf8'));
      return { name, source, type: 'application/json' };
    }));
  }
  writer.writeEnvironmentInfo(environment(report));
  writer.writeCategoriesDefinitions([
    { name: 'Conformance failures (the target)', matchedStatuses: [Status.FAILED] },
    { name: 'Harness errors (not conformance results)', matchedStatuses: [Status.BROKEN] },
  ]);
  const executor = { name: 'cpr-conformance', type: 'cpr-conformance', reportName: `cpr-conformance: ${VERDICT_WORD[report.verdict]} (${targetName(report.run.target)})` };
  writeFileSync(join(resultsDir, 'executor.json'), `${JSON.stringify(executor, null, 2)}\n`);
  return resultsDir;
}

/**
 * The files allure-js-commons' FileSystemWriter writes, by the same names and
 * in the same form, written plainly: that writer syncs each file to disk
 * through a temporary one, and a full run writes hundreds (a result and a
 * transcript per test), which took a noticeable share of a run's time. A
 * report cut short is written again by running again.
 */
function plainWriter(resultsDir: string) {
  const json = (name: string, value: unknown) => writeFileSync(join(resultsDir, name), JSON.stringify(value), 'utf8');
  return {
    writeResult: (result: AllureResult) => json(`${result.uuid}-result.json`, result),
    writeAttachment: (name: string, content: Buffer) => writeFileSync(join(resultsDir, name), content),
    writeEnvironmentInfo: (info: Readonly<Record<string, string>>) => writeFileSync(join(resultsDir, 'environment.properties'), stringifyEnvInfo(info), 'utf8'),
    writeCategoriesDefinitions: (categories: readonly Category[]) => json('categories.json', categories),
  };
}

type Attach = (name: string, body: string) => Attachment;

function allureResult(test: TestResult, start: number, stop: number, attach: Attach): AllureResult {
  const status = allureStatus(test);
  const failed = test.checks.filter((c) => !c.passed);
  const first = failed[0];
  const attachments = [
    ...(test.transcript.length > 0 ? [attach('transcript.json', JSON.stringify(test.transcript, null, 2))] : []),
    ...(failed.length > 0 ? [attach('failed-checks.json', JSON.stringify(failed, null, 2))] : []),
  ];
  return {
    uuid: randomUUID(),
    historyId: md5(test.id),
    testCaseId: md5(test.id),
    name: `${test.id} ${test.title}`,
    fullName: `${test.file}#${test.id}`,
    titlePath: [test.file],
    status,
    statusDetails: {
      // Allure's own flag: a flaky test is marked so in every view, and stays failed or broken.
      ...(test.repeat?.stability === 'flaky' ? { flaky: true } : {}),
      ...(test.reason !== undefined || shownOutcome(test) === 'warning' ? { message: statusMessage(test) } : {}),
      ...(failed.length > 0 || test.status === 'failed' || test.status === 'error' ? { trace: trace(test, failed) } : {}),
      ...(first !== undefined ? { expected: displayValue(first.expected), actual: displayValue(first.actual) } : {}),
    },
    stage: Stage.FINISHED,
    description: `${test.kind === 'property' ? 'Property' : 'Scenario'} ${test.id} (${test.file}); requirements ${test.requirements.join(', ')}. Rerun alone: ${test.rerun}`,
    steps: steps(test, start, stop),
    attachments,
    parameters: [
      ...(test.seed !== undefined ? [{ name: 'seed', value: String(test.seed) }, ...(test.path ? [{ name: 'path', value: test.path }] : [])] : []),
      ...(test.repeat !== undefined ? [{ name: 'runs', value: stabilityText(test) ?? '', excluded: true }] : []),
    ],
    labels: labels(test),
    links: [],
    start,
    stop,
  };
}

function statusMessage(test: TestResult): string {
  const reason = reasonText(test);
  if (shownOutcome(test) === 'warning') return `warning, not a failure: ${WARNING_MEANING}${reason !== undefined ? `. ${reason}` : ''}`;
  const prefix = test.status === 'error' ? (test.error_code === 'HARNESS_SETUP_FAILED' ? 'setup failed: ' : `harness error ${test.error_code ?? ''} (not a conformance result): `) : '';
  return `${prefix}${reason ?? ''}`;
}

/** What failed and how to see it again: checks, not a stack trace. */
function trace(test: TestResult, failed: readonly CheckResult[]): string {
  return [
    ...failed.map((c) => `${c.requirement} (${c.level}) ${c.check}${atStep(c)}: ${c.message}\n  expected: ${displayValue(c.expected)}\n  actual:   ${displayValue(c.actual)}`),
    `rerun: ${test.rerun}`,
  ].join('\n\n');
}

/** The test's checks grouped by the step that made them, in order. */
function steps(test: TestResult, start: number, stop: number): StepResult[] {
  const byStep = new Map<string, CheckResult[]>();
  for (const c of test.checks) {
    const key = c.step === undefined ? (test.kind === 'property' ? 'generated cases' : 'before the steps') : `step ${c.step}`;
    byStep.set(key, [...(byStep.get(key) ?? []), c]);
  }
  return [...byStep].map(([name, checks]) => {
    const checkSteps = checks.map(
      (c): StepResult => ({
        name: `${c.setup ? 'setup: ' : ''}${c.check} (${c.requirement}, ${c.level}): ${c.message}`,
        status: c.passed ? Status.PASSED : Status.FAILED,
        statusDetails: c.passed ? {} : { expected: displayValue(c.expected), actual: displayValue(c.actual) },
        stage: Stage.FINISHED,
        steps: [],
        attachments: [],
        parameters: [],
        start,
        stop,
      }),
    );
    return {
      name,
      status: checkSteps.some((s) => s.status !== Status.PASSED) ? Status.FAILED : Status.PASSED,
      statusDetails: {},
      stage: Stage.FINISHED,
      steps: checkSteps,
      attachments: [],
      parameters: [],
      start,
      stop,
    };
  });
}

function labels(test: TestResult): Label[] {
  return [
    { name: LabelName.PARENT_SUITE, value: test.file.startsWith('suites/cpr/') ? 'CPR-1.0' : test.file.startsWith('suites/cashpack/') ? 'CPP-001' : test.kind === 'property' ? 'properties' : 'scenarios' },
    { name: LabelName.SUITE, value: test.file },
    { name: LabelName.EPIC, value: test.sections[0] ?? 'spec' },
    { name: LabelName.FEATURE, value: test.file },
    ...test.requirements.map((id) => ({ name: LabelName.STORY, value: id })),
    { name: LabelName.SEVERITY, value: test.level === 'MUST' ? 'critical' : test.level === 'SHOULD' ? 'normal' : 'minor' },
    { name: LabelName.TAG, value: test.level },
    { name: LabelName.TAG, value: test.role },
    ...(test.known_failure ? [{ name: LabelName.TAG, value: 'known-failure' }] : []),
    ...(shownOutcome(test) === 'warning' ? [{ name: LabelName.TAG, value: 'warning' }] : []),
    ...(test.repeat !== undefined ? [{ name: LabelName.TAG, value: test.repeat.stability }] : []),
    { name: 'level', value: test.level },
    { name: 'role', value: test.role },
    { name: LabelName.FRAMEWORK, value: 'cpr-conformance' },
  ];
}

/** environment.properties: what the run was, for the Allure overview. */
function environment(report: Report): Record<string, string> {
  const { run } = report;
  return {
    Verdict: VERDICT_WORD[report.verdict],
    Target: targetName(run.target),
    ...Object.fromEntries(Object.entries(run.target.roles).map(([role, r]) => [`Role ${role}`, `${r?.adapter ?? ''}${r?.base_url ? ` ${r.base_url}` : ''} (tls ${r?.tls ?? ''}; capabilities ${r?.capabilities.join(', ') || 'none'})`])),
    'Suite version': run.suite_version,
    Profile: run.profile_version,
    'CPR spec': run.spec_versions.cpr,
    'CPP spec': run.spec_versions.cpp,
    Seed: String(run.seed),
    Strict: run.strict ? 'yes' : 'no',
    'Profile advisory': run.profile_advisory ? 'yes' : 'no',
    'Tests with warnings': String(report.summary.warned),
    ...(run.shard !== undefined ? { Shard: run.shard } : {}),
    ...(run.repeat !== undefined ? { Repeat: `each test ${run.repeat} times` } : {}),
    ...(run.baseline !== undefined ? { Baseline: run.baseline } : {}),
    Node: run.node_version,
    Started: run.started_at,
    Command: run.command.join(' '),
  };
}
