// A conformance run: load and validate every scenario file, select (and shard),
// resolve the target (the embedded reference when none is given), check it
// answers, run the plan through the one engine (plan.ts), then aggregate and
// write every report form.
//
// Whatever the target does, the run ends and writes a complete report: a target
// that does not answer the preflight gets every planned test reported as an
// error (HARNESS_TARGET_UNREACHABLE); one that stops answering later is cut off by
// the run guard (guard.ts); Ctrl-C writes what ran, marked incomplete. Secrets of
// the target file are scrubbed from everything written (target/secrets.ts).
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PROFILE_ID } from '../../profile/version.ts';
import { loadRegistry } from '../../profile/registry.ts';
import { ERRORS, HarnessError } from '../errors.ts';
import { assess, decidingLevel, exitCodeOf, type ExitCode, type Report, type TestResult, warningJudge, writeAllReports } from '../report/index.ts';
import { viewsNamed, type ViewName } from '../report/write.ts';
import { shownOutcome } from '../report/wording.ts';
import { REPORT_SCHEMA_VERSION, type HarnessIssue, type TargetDescription } from '../report/model.ts';
import { scopeRoles, suiteCatalogue } from './catalogue.ts';
import type { Role } from '../../profile/registry.ts';
import { loadSuites, suiteFiles, usesAction } from '../scenarios/load.ts';
import type { Suite } from '../scenarios/types.ts';
import { unrunResult } from '../scenarios/execute.ts';
import type { TargetConfig } from '../target/config.ts';
import { loadTargetFile } from '../target/load.ts';
import { advertisedHostRefused } from '../target/host-guard.ts';
import { Secrets, targetSecrets } from '../target/secrets.ts';
import { describeChoice, resolveTarget, type ResolvedTarget, type TargetChoice } from './resolve-target.ts';
import { selectProperties, selectScenarios, type Selection } from './select.ts';
import { PROPERTIES } from '../properties/catalogue.ts';
import { DEFAULT_CONCURRENCY, heldBack, planOf, planRequirements, runPlan, unrunProperty, type PlanTest } from './plan.ts';
import { loadTimings, shardingOf, writeTimings } from './timings.ts';
import { scenarioTarget } from './scenario-target.ts';
import { watchInterrupts } from './interrupt.ts';
import type { Terminal } from './terminal.ts';
import { SPEC_VERSIONS, SUITE_VERSION } from '../version.ts';
import { uniqueStamp } from '../text.ts';

/** Default of the run's time limit (RunOptions.timeLimitMs); the other bounds are the engine's (plan.ts LIMIT_DEFAULTS). */
const RUN_DEFAULTS = { timeLimitMs: 30 * 60_000 } as const;

interface RunOptions extends Selection {
  readonly target: TargetChoice;
  readonly strict: boolean;
  readonly profileAdvisory: boolean;
  /** An incomplete verdict exits 0 instead of 3. */
  readonly allowPartial?: boolean;
  readonly seed?: number;
  /** `i/n`: run shard i of n, balanced by measured time (plan.ts partitionPlan). */
  readonly shard?: string;
  /** Where the shard's timings come from (a timings table or a report.json); suites/timings.json when absent. */
  readonly shardTimings?: string;
  /** Runs of each test (`--repeat N`); default 1. */
  readonly repeat?: number;
  /** Most tests in flight at once (`--concurrency N`, plan.ts); when absent, DEFAULT_CONCURRENCY against the embedded reference and 1 against any other target. */
  readonly concurrency?: number;
  /** Write the timings table of this run's tests to this file (`--write-timings FILE`). */
  readonly writeTimings?: string;
  readonly reportDir?: string;
  /** The views written beside report.json (--reporter); every one when absent. */
  readonly views?: readonly ViewName[];
  /** Extra scenario files to run besides suites/ (e.g. a fuzzer's regression scenario). */
  readonly scenarioFiles: readonly string[];
  readonly baseline?: { readonly file: string; readonly knownFailures: readonly string[] };
  /** How this run was started, for the report and the rerun commands. */
  readonly command: readonly string[];
  readonly rerunBase: string;
  /** Cases per property; each property's default when absent. */
  readonly propertyRuns?: number;
  /** Run the scenarios only. */
  readonly noProperties?: boolean;
  /** Deadline of one request to the target; the adapter's default (10 000 ms) when absent. Also bounds the preflight. */
  readonly requestTimeoutMs?: number;
  /** Consecutive transport failures after which a role counts as unreachable (guard.ts); default 5, 0 never. */
  readonly unreachableAfter?: number;
  /** No test starts after this long; default 30 minutes. */
  readonly timeLimitMs?: number;
  /** Hosts the reference paying application may retrieve token URIs from besides the target's own. */
  readonly allowHosts?: readonly string[];
  /** Wait up to this long for the target's test-control lease when another client holds it (--lease-wait); otherwise that is HARNESS_TARGET_BUSY. */
  readonly leaseWaitSeconds?: number;
}

/** Why no test of a run could start, each reported on every test (not run) and as the run's issue: never a conformance result. */
type Unstarted = 'HARNESS_TARGET_UNREACHABLE' | 'HARNESS_TLS_UNTRUSTED' | 'HARNESS_TARGET_BUSY';
const UNSTARTED: ReadonlySet<string> = new Set<Unstarted>(['HARNESS_TARGET_UNREACHABLE', 'HARNESS_TLS_UNTRUSTED', 'HARNESS_TARGET_BUSY']);

function unstarted(error: unknown): error is HarnessError & { readonly code: Unstarted } {
  return error instanceof HarnessError && UNSTARTED.has(error.code);
}

interface RunOutcome {
  readonly report: Report;
  readonly dir: string;
  readonly exitCode: ExitCode;
}

export async function conformanceRun(options: RunOptions, given: Terminal): Promise<RunOutcome> {
  const started = new Date();
  const { suites, plan, sharding } = planRun(options);
  const seed = options.seed ?? randomBytes(4).readUInt32BE(0);
  const dir = resolve(options.reportDir ?? defaultReportDir(started));
  mkdirSync(dir, { recursive: true });
  // A target file is read first, so that its secrets are known before anything is printed.
  const fileConfig = options.target.kind === 'file' ? loadTargetFile(options.target.path, options.target.env) : undefined;
  mustDecideSomething(plan, options, rolesOf(options.target, describeChoice(options.target, fileConfig)));
  // A token given with --control-token-env is as secret as one in a target file.
  const secrets = options.target.kind === 'url' && options.target.controlToken !== undefined ? new Secrets([options.target.controlToken]) : targetSecrets(fileConfig);
  const terminal = redacting(given, secrets);
  const executed = await executePlan(plan, options, { started, seed, fileConfig, terminal, estimate: sharding?.estimate });
  const { report } = writeAllReports(dir, secrets.value(reportOf(executed, suites, plan, options, { started, seed })), options.views && viewsNamed(options.views));
  // Every view is written from the scrubbed report; this is the second line, over every file written.
  secrets.files(dir);
  if (options.writeTimings !== undefined) {
    const written = writeTimings(options.writeTimings, report.tests, { target: report.run.target.name, runsPerTest: options.repeat ?? 1, command: options.command });
    terminal.line(`timings of ${written} test(s) written to ${options.writeTimings}`);
  }
  return { report, dir, exitCode: exitCodeOf(report, options.allowPartial === true) };
}

/** reports/<run-id>/ in the current folder: where a run writes unless --report-dir says otherwise (never inside an installed package). */
export function defaultReportDir(started: Date = new Date()): string {
  return resolve('reports', uniqueStamp(started));
}

/** The suites, every file validated (a broken one is never silently skipped), and the selection's plan, sharded. */
function planRun(options: RunOptions): { suites: Suite[]; plan: readonly PlanTest[]; sharding: ReturnType<typeof shardingOf> } {
  const suites = loadSuites([...suiteFiles(), ...options.scenarioFiles.map((f) => resolve(f))]);
  const scenarios = selectScenarios(suites, options);
  const properties = options.noProperties ? [] : selectProperties(PROPERTIES, options);
  if (scenarios.length + properties.length === 0) throw new HarnessError('NOTHING_SELECTED', 'no scenario or property matches the selection', 'see what exists with: cpr-conformance list');
  const whole = planOf(scenarios, properties);
  const sharding = shardingOf(whole, options.shard, options.shardTimings);
  return { suites, plan: sharding?.plan ?? whole, sharding };
}

/**
 * A run that could judge nothing must not end in a verdict: no role of the
 * target in scope (`--role paying-app` against a payee and operator), or a
 * selection none of whose tests covers a requirement that decides.
 */
function mustDecideSomething(plan: readonly PlanTest[], options: RunOptions, targetRoles: ReadonlySet<Role>): void {
  const scope = scopeRoles(targetRoles, options.roles);
  if (scope.length === 0) {
    const has = [...targetRoles].join(', ') || 'none';
    throw new HarnessError('NOTHING_TO_DECIDE', `the run has no role to test: --role ${options.roles.join(', ')} names none of the target's roles (${has})`);
  }
  const registry = new Map(loadRegistry().map((r) => [r.id, r]));
  const deciding = (id: string) => {
    const r = registry.get(id);
    return r !== undefined && !r.retired && decidingLevel(r.level, options) && r.roles.some((role) => scope.includes(role));
  };
  if (!plan.some((test) => planRequirements(test).some(deciding))) {
    throw new HarnessError('NOTHING_TO_DECIDE', `the selection covers no requirement that decides a verdict for ${scope.join(', ')}${options.strict ? '' : ' (SHOULD decides only with --strict)'}`);
  }
}

interface Executed {
  readonly results: readonly TestResult[];
  readonly description: TargetDescription;
  readonly issues: readonly HarnessIssue[];
  readonly interrupted: boolean;
}

/**
 * Opens the target (holding its test-control lease when it offers one) and runs
 * the plan on the one engine. An unreachable target, or one whose lease another
 * client holds, leaves every test an error saying why (the report is still
 * complete); an interrupt stops it with partial results.
 */
async function executePlan(
  plan: readonly PlanTest[],
  options: RunOptions,
  run: { readonly started: Date; readonly seed: number; readonly fileConfig: TargetConfig | undefined; readonly terminal: Terminal; readonly estimate: string | undefined },
): Promise<Executed> {
  const { terminal, seed, fileConfig } = run;
  const repeat = options.repeat ?? 1;
  const interrupts = watchInterrupts((text) => terminal.error(text));
  // An interrupt also ends a wait for the lease.
  const stopWaiting = new AbortController();
  interrupts.onSignal(() => stopWaiting.abort());
  const issues: HarnessIssue[] = [];
  let results: TestResult[] = [];
  let description: TargetDescription = describeChoice(options.target, fileConfig);
  try {
    const opening = resolveTarget(options.target, terminal, {
      ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      ...(options.allowHosts !== undefined ? { allowHosts: options.allowHosts } : {}),
      ...(fileConfig !== undefined ? { config: fileConfig } : {}),
      command: options.command[1] ?? 'run',
      ...(options.leaseWaitSeconds !== undefined ? { leaseWaitSeconds: options.leaseWaitSeconds } : {}),
      signal: stopWaiting.signal,
      // The harness's retrieval stub only for the tests that serve from it (fuzzer regressions of a paying application, PROP-APP-015).
      ...(plan.some((t) => (t.kind === 'scenario' ? usesAction(t.scenario, 'stub-serve') : t.property.stub === true)) ? { stub: true } : {}),
    });
    const opened = await Promise.race([opening.then((target) => ({ target }), (error: unknown) => ({ error })), interrupts.signalled.then(() => undefined)]);
    if (opened === undefined) {
      // Interrupted while the target was being opened: close it whenever it opens.
      opening.then((target) => target.close(), () => undefined);
    } else if ('error' in opened) {
      const error = opened.error;
      if (!unstarted(error)) throw error;
      // No test can run: each is reported as an error, so the report is complete and says why.
      terminal.error(`cpr-conformance: ${error.code}: ${error.message}`);
      if (error.hint) terminal.error(`  hint: ${error.hint}`);
      issues.push({ code: error.code, message: error.message });
      results = unrunAll(plan, error.code, error.message, options.rerunBase, seed, rolesOf(options.target, description));
    } else {
      const target = opened.target;
      description = target.description;
      // The embedded reference's twins (plan.ts), closed with it.
      const twins: Promise<ResolvedTarget>[] = [];
      try {
        // Said once, before any test: the payee's own base URL is where the harness's paying application may not go.
        const refusal = await advertisedHostRefused(target.target, options.requestTimeoutMs);
        if (refusal !== undefined) {
          terminal.error(`cpr-conformance: HARNESS_HOST_NOT_ALLOWED: ${refusal}`);
          terminal.error(`  hint: ${ERRORS.HARNESS_HOST_NOT_ALLOWED.hint}`);
        }
        terminal.line(
          `cpr-conformance ${SUITE_VERSION} (${PROFILE_ID}) — ${countOf(plan, 'scenario')} scenario(s) and ${countOf(plan, 'property')} propert${countOf(plan, 'property') === 1 ? 'y' : 'ies'} against ${description.name}${repeat > 1 ? `, each ${repeat} times` : ''}${run.estimate !== undefined ? `, shard ${options.shard}: ${run.estimate}` : ''}`,
        );
        const counts = { passed: 0, failed: 0, warning: 0, skipped: 0, 'not-applicable': 0, error: 0 };
        // Each result judged as the report will judge it, so a warning is never shown as a failure.
        const judge = warningJudge(loadRegistry(), options);
        const { twin } = target;
        const ran = await runPlan(plan, scenarioTarget(target.target, target.facts), {
          ...(twin !== undefined
            ? {
                twin: () => {
                  const opening = twin();
                  twins.push(opening);
                  return opening.then((opened) => scenarioTarget(opened.target, opened.facts));
                },
              }
            : {}),
          seed,
          ...(options.propertyRuns !== undefined ? { propertyRuns: options.propertyRuns } : {}),
          repeat,
          // Side by side against the embedded reference, one at a time against anyone else's server unless asked.
          concurrency: options.concurrency ?? (description.embedded ? DEFAULT_CONCURRENCY : 1),
          // Side by side, the longest tests start first (plan.ts startOrder).
          timings: loadTimings(options.shardTimings).ms,
          rerunBase: options.rerunBase,
          limits: {
            ...(options.unreachableAfter !== undefined ? { unreachableAfter: options.unreachableAfter } : {}),
            deadlineAt: run.started.getTime() + (options.timeLimitMs ?? RUN_DEFAULTS.timeLimitMs),
          },
          interrupts,
          onResult: (result) => {
            const judged = judge(result);
            counts[shownOutcome(judged)]++;
            terminal.progress(Object.values(counts).reduce((sum, n) => sum + n, 0), plan.length, judged, counts);
          },
        });
        terminal.endProgress();
        results = ran.results;
        const refused = results.filter((t) => t.error_code === 'HARNESS_HOST_NOT_ALLOWED').length;
        if (refused > 0) issues.push({ code: 'HARNESS_HOST_NOT_ALLOWED', message: `${refused} test(s) stopped at a delivery URI the harness's paying application does not follow: ${refusal ?? "see each test's reason"}` });
      } finally {
        await Promise.all(twins.map((opening) => opening.then((opened) => opened.close(), () => undefined)));
        await target.close();
      }
    }
  } finally {
    interrupts.dispose();
  }
  return { results, description, issues, interrupted: interrupts.fired };
}

/** The run's report.json, before its secrets are scrubbed: the results judged against the registry. */
function reportOf(executed: Executed, suites: readonly Suite[], plan: readonly PlanTest[], options: RunOptions, run: { readonly started: Date; readonly seed: number }): Report {
  const { description, interrupted } = executed;
  const repeat = options.repeat ?? 1;
  const issues = [...executed.issues, ...runIssues(executed.results, executed.issues, interrupted ? plan.length : undefined)];
  const late = executed.results.filter((t) => t.error_code === 'HARNESS_DEADLINE_EXCEEDED').length;
  const assessed = assess(loadRegistry(), executed.results.map(jsonSafe), issues, {
    strict: options.strict,
    profileAdvisory: options.profileAdvisory,
    scopeRoles: scopeRoles(rolesOf(options.target, description), options.roles),
    catalogue: suiteCatalogue(suites.flatMap((s) => s.scenarios)),
    ...(options.baseline ? { knownFailures: options.baseline.knownFailures } : {}),
  });
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    verdict: assessed.verdict,
    run: {
      suite_version: SUITE_VERSION,
      profile_version: PROFILE_ID,
      spec_versions: SPEC_VERSIONS,
      target: description,
      seed: run.seed,
      started_at: run.started.toISOString(),
      duration_ms: Date.now() - run.started.getTime(),
      node_version: process.version,
      strict: options.strict,
      profile_advisory: options.profileAdvisory,
      allow_partial: options.allowPartial === true,
      selection: { only: options.only, roles: options.roles },
      ...(options.shard ? { shard: options.shard } : {}),
      ...(repeat > 1 ? { repeat } : {}),
      ...(options.baseline ? { baseline: options.baseline.file } : {}),
      command: options.command,
      incomplete: interrupted || late > 0,
    },
    summary: assessed.summary,
    coverage: assessed.coverage,
    requirements: assessed.requirements,
    tests: assessed.tests,
    ...(assessed.baseline_diff ? { baseline_diff: assessed.baseline_diff } : {}),
    errors: issues,
  };
}

/** The run-level issues its results imply: tests not run for an unreachable role or the time limit, and an interrupt (`planned` tests were due). */
function runIssues(results: readonly TestResult[], known: readonly HarnessIssue[], planned: number | undefined): HarnessIssue[] {
  const out: HarnessIssue[] = [];
  const unreachable = results.filter((t) => t.error_code === 'HARNESS_TARGET_UNREACHABLE' && t.not_run === true).length;
  if (unreachable > 0 && !known.some((i) => i.code === 'HARNESS_TARGET_UNREACHABLE')) {
    out.push({ code: 'HARNESS_TARGET_UNREACHABLE', message: `${unreachable} test(s) were not run: a role of the target stopped answering (see each test's reason)` });
  }
  const late = results.filter((t) => t.error_code === 'HARNESS_DEADLINE_EXCEEDED').length;
  if (late > 0) out.push({ code: 'HARNESS_DEADLINE_EXCEEDED', message: `${late} test(s) were not run or not finished within the run's time limit` });
  if (planned !== undefined) out.push({ code: 'INTERRUPTED', message: `the run was interrupted; results are partial (${results.length} of ${planned} tests)` });
  return out;
}

function countOf(plan: readonly PlanTest[], kind: PlanTest['kind']): number {
  return plan.filter((t) => t.kind === kind).length;
}


/** The roles a target has; the embedded reference has all three. */
function rolesOf(choice: TargetChoice, description: TargetDescription): ReadonlySet<Role> {
  return new Set(choice.kind === 'embedded' ? (['payee', 'operator', 'paying-app'] as const) : (Object.keys(description.roles) as Role[]));
}

/**
 * Every planned test, not run: an error with `code` (the target unreachable or
 * busy), or not applicable when the target has no role for it (it would not
 * have run anyway).
 */
function unrunAll(plan: readonly PlanTest[], code: Unstarted, reason: string, rerunBase: string, seed: number, roles: ReadonlySet<string>): TestResult[] {
  return plan.map((test) => {
    const result =
      test.kind === 'scenario'
        ? unrunResult(test.scenario, code, reason, `${rerunBase} --only ${test.scenario.id}`)
        : unrunProperty(test.property, code, reason, `${rerunBase} --only ${test.property.id} --seed ${seed}`, seed);
    if (roles.has(result.role)) return heldBack(result);
    const { error_code: _code, ...rest } = result;
    return { ...rest, status: 'not-applicable', reason: `the target has no ${result.role} role`, basis: 'spec' };
  });
}

/**
 * A result whose checked values are plain JSON: whatever a target answered (a
 * missing member is `undefined`, say), report.json stays valid and is written.
 */
function jsonSafe(test: TestResult): TestResult {
  return { ...test, checks: test.checks.map((c) => ({ ...c, expected: plainJson(c.expected), actual: plainJson(c.actual) })) };
}

function plainJson(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null') as unknown;
  } catch {
    return String(value);
  }
}

/** The terminal with the target's secrets scrubbed from every line. */
function redacting(terminal: Terminal, secrets: Secrets): Terminal {
  if (secrets.empty) return terminal;
  return {
    progress: (done, total, latest, counts) => terminal.progress(done, total, secrets.value(latest), counts),
    endProgress: () => terminal.endProgress(),
    line: (text) => terminal.line(secrets.text(text)),
    error: (text) => terminal.error(secrets.text(text)),
  };
}
