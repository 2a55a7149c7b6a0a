// selftest: the suite against the reference (which must be conformant) and against
// every suite mutant (each must be killed by a check it declares). Mutants run in
// worker processes, a share each, so the two cores are both used. The fuzzer
// mutants (catcher 'fuzzer') are left to the fuzzer; one named with --mutant is
// run too, and its row is information: what the suite made of it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { MUTANTS, type MutantSpec } from '../../reference/mutants.ts';
import { PROPERTIES } from '../properties/catalogue.ts';
import type { TestResult } from '../report/model.ts';
import { reasonText } from '../report/wording.ts';
import { FACTS_TIMEOUT_MS, scenarioTarget } from '../runner/scenario-target.ts';
import { discoverFacts } from '../target/facts.ts';
import { loadSuites, usesAction } from '../scenarios/load.ts';
import type { Scenario } from '../scenarios/types.ts';
import { embeddedTarget } from '../target/target.ts';
import { loadKillers, targetedStages } from './killers.ts';
import { killsByDeclared, mutantRow, type KillMatrix, type MutantRow, type SwitchReach } from './matrix.ts';
import { hasIpv6Loopback } from '../stub/hosts.ts';
import { DEFAULT_CONCURRENCY, planOf, planRequirements, runPlan, testId, type PlanTest } from '../runner/plan.ts';
import { holdLease, leaseHolder } from '../runner/lease.ts';
import type { CommandIo, OutputStream } from '../io.ts';

export const SELFTEST_SEED = 20261121;
/** Cases per property in selftest: a fixed, modest budget. */
export const SELFTEST_PROPERTY_RUNS = 25;

const BIN = fileURLToPath(new URL('../../bin/cpr-conformance.js', import.meta.url));

/** The suite files, parsed and validated once per process (a worker runs many mutants). */
let scenarios: Scenario[] | undefined;
const suiteScenarios = (): Scenario[] => (scenarios ??= loadSuites().flatMap((s) => s.scenarios));

/**
 * The tests that can decide on a mutant: with `catches` given (a targeted
 * selftest), only those that can judge one of the requirements the mutant
 * declares; otherwise the whole suite.
 */
export function selftestPlan(catches?: readonly string[]): PlanTest[] {
  const plan = planOf(suiteScenarios(), PROPERTIES);
  if (catches === undefined) return plan;
  const declared = new Set(catches);
  return plan.filter((test) => planRequirements(test).some((id) => declared.has(id)));
}

/**
 * The tests of the full matrix for one mutant: those that consulted its switch
 * when the reference ran them, and those that judge a requirement it declares
 * (as a targeted selftest runs them); every test when its switch was consulted
 * while the target opened, or for a test the reach does not know. A test that
 * never asks for a fault's switch runs the same with the fault on: the fault
 * changes nothing before its switch is asked. The time a test takes can make
 * it ask on one run and not on another: a test that releases requests together
 * (a `parallel` step) runs against every mutant of its role, and the declared
 * tests run regardless; a kill may be missed by the reach, never invented.
 */
export function reachingPlan(spec: Pick<MutantSpec, 'name' | 'catches' | 'role'>, reach: SwitchReach): PlanTest[] {
  const plan = selftestPlan();
  if (reach.at_open.includes(spec.name)) return plan;
  const declared = new Set(spec.catches);
  return plan.filter(
    (test) =>
      reach.by_test[testId(test)]?.includes(spec.name) !== false ||
      planRequirements(test).some((id) => declared.has(id)) ||
      // Which of the requests a test releases together wins decides which switches it asks: one run of the reference says only what one order asked.
      (test.kind === 'scenario' && test.scenario.role === spec.role && usesAction(test.scenario, 'parallel')),
  );
}

/**
 * The whole suite against the reference, one test at a time, noting the fault
 * switches each test consults (reference/mutants.ts SwitchRecorder): the
 * reference's verdict and the reach of every switch, for reachingPlan.
 */
export async function referenceReach(plan: readonly PlanTest[] = selftestPlan()): Promise<{ results: TestResult[]; durationMs: number; reach: SwitchReach }> {
  const started = performance.now();
  const target = await holdLease(await embeddedTarget({ reference: { recordSwitches: true } }), { holder: leaseHolder('selftest') });
  try {
    const consulted = target.switchesConsulted!;
    // What the target publishes is read once, here, as `run` reads it when the target opens: a test
    // taking it from there asks no switch, so the switches its reading asks are asked while the target opens.
    const facts = await discoverFacts(target, FACTS_TIMEOUT_MS);
    const atOpen = await consulted();
    const scenarios = scenarioTarget(target, facts);
    const results: TestResult[] = [];
    const byTest: Record<string, readonly string[]> = {};
    for (const test of plan) {
      const outcome = await runPlan([test], scenarios, { seed: SELFTEST_SEED, propertyRuns: SELFTEST_PROPERTY_RUNS, rerunBase: 'npx cpr-conformance run' });
      results.push(...outcome.results);
      byTest[testId(test)] = await consulted();
    }
    return { results, durationMs: Math.round(performance.now() - started), reach: { at_open: atOpen, by_test: byTest } };
  } finally {
    await target.close();
  }
}

/** Runs the whole suite against the reference, with `mutant` switched on when given, as `run` would (shrinking included). */
export function suiteAgainst(mutant: string | undefined): Promise<{ results: TestResult[]; durationMs: number }> {
  return testsAgainst(mutant, selftestPlan());
}

/**
 * A targeted selftest's mutant, in stages (killers.ts targetedStages): the tests
 * that killed it in the last full matrix, then its scenarios, then its
 * properties (each the work of many scenarios), each stage only when no test
 * before it killed it by a requirement it declares. The full selftest lists
 * every test that kills a mutant; this one stops at what decides it: no test
 * starts after the first that kills it by a requirement it declares (a
 * configured mutant, whose failures are judged against its baseline
 * afterwards, runs each stage whole).
 */
async function targetedAgainst(spec: MutantSpec): Promise<MutantRow> {
  const stopWhen = spec.configuration === undefined ? (result: TestResult) => killsByDeclared(spec.catches, result) : undefined;
  const results: TestResult[] = [];
  const baseline: TestResult[] = [];
  let durationMs = 0;
  let row: MutantRow | undefined;
  for (const stage of targetedStages(selftestPlan(spec.catches), (killers ??= loadKillers()).get(spec.name))) {
    const ran = await testsAgainst(spec.name, stage, { shrinkAttempts: 0, ...(stopWhen ? { stopWhen } : {}) });
    results.push(...ran.results);
    baseline.push(...ran.baseline);
    durationMs += ran.durationMs;
    row = mutantRow(spec, results, durationMs, baseline);
    if (row.killed && row.flagged === null) break;
  }
  return row ?? mutantRow(spec, [], 0, []);
}

/** The last full matrix's killers (killers.ts), read once per process. */
let killers: ReadonlyMap<string, readonly string[]> | undefined;

/**
 * `shrinkAttempts`: against a mutant 0 in both selftests: a kill, and which
 * requirements charged it, need a failure, not a small one (`run` against the
 * mutant, the command each row's tests name, shrinks).
 */
async function testsAgainst(mutant: string | undefined, tests: readonly PlanTest[], options: TestsOptions = {}): Promise<{ results: TestResult[]; durationMs: number; baseline: TestResult[] }> {
  // A mutant that shows only under a configuration other than the defaults runs under it (MutantSpec.configuration),
  // and so does the reference, whose failures there are the configuration's (mutantRow's baseline).
  // The two run one after the other: a test alone in the process (it sets the process's time zone, say) is alone
  // only among its own run's tests, and a run beside it in this process would meet what it sets.
  const configuration = MUTANTS.find((m) => m.name === mutant)?.configuration;
  const run = await testsUnder(mutant, configuration, tests, options);
  const baseline = configuration !== undefined && mutant !== undefined ? await testsUnder(undefined, configuration, tests, options) : undefined;
  return { ...run, baseline: baseline?.results ?? [] };
}

interface TestsOptions {
  readonly concurrency?: number;
  readonly shrinkAttempts?: number;
  /** A result after which no more tests start (PlanOptions.stopWhen). */
  readonly stopWhen?: (result: TestResult) => boolean;
}

async function testsUnder(mutant: string | undefined, configuration: MutantSpec['configuration'], tests: readonly PlanTest[], { concurrency = DEFAULT_CONCURRENCY, shrinkAttempts, stopWhen }: TestsOptions): Promise<{ results: TestResult[]; durationMs: number }> {
  const started = performance.now();
  if (tests.length === 0) return { results: [], durationMs: 0 };
  // Held as every command that drives a target holds it: the reference is private, but the path is the same.
  const target = await holdLease(await embeddedTarget({ reference: { ...(mutant ? { mutant } : {}), ...configuration } }), { holder: leaseHolder('selftest') });
  try {
    // The engine `run` uses, with its rules and bounds: only the seed and the property budget are fixed.
    const { results } = await runPlan(tests, scenarioTarget(target), {
      seed: SELFTEST_SEED,
      propertyRuns: SELFTEST_PROPERTY_RUNS,
      concurrency,
      ...(shrinkAttempts !== undefined ? { shrinkAttempts } : {}),
      ...(stopWhen !== undefined ? { stopWhen } : {}),
      rerunBase: `npx cpr-conformance run${mutant ? ` --target <serve --mutant ${mutant}${configuration ? `, configured ${JSON.stringify(configuration)}` : ''}>` : ''}`,
    });
    return { results, durationMs: Math.round(performance.now() - started) };
  } finally {
    await target.close();
  }
}

/** In a worker process: run each named mutant and write one JSON line per mutant to `out` (the worker's stdout, which selftest reads). */
export async function workerMain(names: readonly string[], form: { readonly targeted: true } | { readonly reach: SwitchReach }, out: OutputStream): Promise<void> {
  for (const name of names) {
    const spec = MUTANTS.find((m) => m.name === name);
    if (!spec) throw new Error(`unknown mutant ${name}`);
    out.write(`${JSON.stringify('reach' in form ? await reachedAgainst(spec, form.reach) : await targetedAgainst(spec))}\n`);
  }
}

/** A full matrix's mutant: every test its switch reaches (reachingPlan). */
async function reachedAgainst(spec: MutantSpec, reach: SwitchReach): Promise<MutantRow> {
  const plan = reachingPlan(spec, reach);
  const { results, durationMs, baseline } = await testsAgainst(spec.name, plan, { shrinkAttempts: 0 });
  return { ...mutantRow(spec, results, durationMs, baseline), unreached: selftestPlan().length - plan.length };
}

interface SelftestOptions {
  /** The command's environment, the workers' too, and where a worker that fails is reported (cli/main.ts). */
  readonly env: CommandIo['env'];
  readonly notice: (text: string) => void;
  /** These mutants only (a fuzzer mutant among them is run as information); default every suite mutant. */
  readonly mutants?: readonly string[];
  readonly workers?: number;
  /** Each mutant runs only the tests that can judge a requirement it declares. */
  readonly targeted?: boolean;
  readonly onRow?: (row: MutantRow) => void;
}

/**
 * The mutants a selftest runs: those named (a fuzzer mutant among them run as
 * information), or every suite mutant; and the fuzzer mutants it leaves to the
 * fuzzer unrun (every one when none is named).
 */
export function selftestSelection(names: readonly string[] = []): { readonly chosen: readonly (typeof MUTANTS)[number][]; readonly notRun: readonly string[] } {
  if (names.length > 0) return { chosen: names.map((n) => MUTANTS.find((m) => m.name === n)!).filter(Boolean), notRun: [] };
  return { chosen: MUTANTS.filter((m) => m.catcher === 'suite'), notRun: MUTANTS.filter((m) => m.catcher === 'fuzzer').map((m) => m.name) };
}

/**
 * The chosen mutants this machine cannot exercise (MutantSpec.needs), with why;
 * none under CI, where every mutant runs and must be killed.
 */
export function unexercisable(chosen: readonly Pick<MutantSpec, 'name' | 'needs'>[], machine: { readonly ipv6: boolean; readonly ci: boolean }): { readonly name: string; readonly reason: string }[] {
  if (machine.ci) return [];
  return chosen.filter((m) => m.needs === 'ipv6-loopback' && !machine.ipv6).map((m) => ({ name: m.name, reason: 'needs an IPv6 loopback, ::1, which this machine lacks' }));
}

export async function selftest(options: SelftestOptions): Promise<KillMatrix> {
  const started = performance.now();
  const selection = selftestSelection(options.mutants);
  const unavailable = unexercisable(selection.chosen, { ipv6: await hasIpv6Loopback(), ci: options.env.CI === 'true' });
  const notRun = selection.notRun;
  const chosen = selection.chosen.filter((m) => !unavailable.some((u) => u.name === m.name));
  const workers = Math.max(1, Math.min(options.workers ?? availableParallelism(), chosen.length));
  const shares = Array.from({ length: workers }, (_, w) => chosen.filter((_, i) => i % workers === w).map((m) => m.name));
  let reference: { results: TestResult[]; durationMs: number; reach?: SwitchReach };
  let rows: MutantRow[][];
  if (options.targeted === true) {
    // The reference run happens alongside the workers: it is one more share of the work.
    [reference, ...rows] = await Promise.all([suiteAgainst(undefined), ...shares.map((share) => runWorker(share, options))]);
  } else {
    // The full matrix: first the reference one test at a time, noting what each reaches; then each mutant runs the tests its switch reaches.
    const reached = await referenceReach();
    reference = reached;
    rows = await withReachFile(reached.reach, (file) => Promise.all(shares.map((share) => runWorker(share, options, file))));
  }
  const notPassed = reference.results.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${reasonText(r) ?? ''}`.slice(0, 300));
  const byName = new Map(rows.flat().map((r) => [r.name, r]));
  const rowOf = (m: (typeof MUTANTS)[number]) => byName.get(m.name) ?? missingRow(m);
  const mutants = chosen.filter((m) => m.catcher === 'suite').map(rowOf);
  return {
    reference: { conformant: notPassed.length === 0, tests: reference.results.length, not_passed: notPassed, duration_ms: reference.durationMs },
    mutants,
    killed: mutants.filter((m) => m.killed).length,
    total: mutants.length,
    fuzzer: { not_run: notRun, informational: chosen.filter((m) => m.catcher === 'fuzzer').map(rowOf) },
    ...(unavailable.length > 0 ? { unavailable } : {}),
    seed: SELFTEST_SEED,
    targeted: options.targeted === true,
    ...(reference.reach !== undefined ? { reach: reference.reach } : {}),
    duration_ms: Math.round(performance.now() - started),
  };
}

function missingRow(spec: (typeof MUTANTS)[number]): MutantRow {
  return { ...spec, killed: false, caught_by: [], failed_tests: [], errors: ['the worker running this mutant stopped before reporting it'], flagged: spec.catcher === 'fuzzer' ? null : 'not run: its worker failed', tests: 0, duration_ms: 0 };
}

/** The reach written to a file of its own for the workers to read (selftest --worker --reach FILE), removed after. */
async function withReachFile<T>(reach: SwitchReach, use: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'cpr-selftest-'));
  try {
    const file = join(dir, 'reach.json');
    writeFileSync(file, JSON.stringify(reach));
    return await use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A worker process running `names`, with the command's environment: the rows it reported (a worker that fails is said through options.notice). */
export function runWorker(names: readonly string[], options: SelftestOptions, reachFile?: string): Promise<MutantRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return new Promise((resolve) => {
    const form = reachFile !== undefined ? ['--reach', reachFile] : ['--targeted'];
    const child = spawn(process.execPath, [BIN, 'selftest', '--worker', names.join(','), ...form], { stdio: ['ignore', 'pipe', 'pipe'], env: options.env });
    const rows: MutantRow[] = [];
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const row = JSON.parse(line) as MutantRow;
      rows.push(row);
      options.onRow?.(row);
    });
    child.on('close', (code) => {
      if (code !== 0 && rows.length < names.length) options.notice(`selftest worker for ${names.join(', ')} stopped with ${code}: ${stderr}`);
      resolve(rows);
    });
  });
}
