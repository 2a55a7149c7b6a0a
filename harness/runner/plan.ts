// The one engine: runs a plan of scenarios and properties against an opened
// target, under the same rules whoever calls it (`run`, `selftest`, `bench`,
// the project's tests):
//
//   concurrency up to N tests in flight; a test that moves state every test
//               shares (the clock) runs alone (shared-state.ts). Side by side,
//               the tests that run alone start first, one at a time in plan
//               order, then the others longest first by their measured time
//               (startOrder); one at a time, tests start in plan order.
//               Given twins of the target (the embedded reference's: same
//               code and options, ports, state and clock of their own), a
//               test alone only for the target's own clock or lease runs on
//               a twin instead, one at a time there, beside the others.
//               Results are handed on in plan order whatever order the tests
//               start and end in, so they are those of a run one at a time
//
//   guard       a role that stops answering is cut off after N consecutive
//               transport failures; its later tests are reported without being
//               run (guard.ts)
//   deadline    past the run's time limit no test starts, and a test still
//               running then is stopped
//   time limit  a test still running after its limit is reported as an error
//               and abandoned; a property stops generating cases at its own limit.
//               One abandoned that moves shared state holds back every test
//               after it until it ends, within a grace (guard.ts quiet)
//   interrupt   no test starts after the signal; each test in flight gets a short
//               grace, and if it then ends failed or in error it is left out, not
//               judged (the harness is stopping its own side under it)
//   stop when   no test starts after a result `stopWhen` takes (a targeted
//               selftest's first kill of its mutant); those in flight end
//   repeat      with `repeat` N > 1 each test runs N times in a row and is labelled
//               stable-pass, stable-fail or flaky (repeatedResult); a scenario runs
//               as written each time, a property's k-th run (from 0) takes seed + k
//               so that each run explores other cases
//
// Each test yields exactly one TestResult, handed to `onResult` in plan order.
// Shards (shardOf) are balanced by each test's measured time (timings.ts).
import { findRequirement } from '../../profile/registry.ts';
import { executeProperty, propertyRequirements } from '../properties/execute.ts';
import { PROPERTIES_FILE, type PropertyDefinition } from '../properties/types.ts';
import type { RepeatRecord, TestResult } from '../report/model.ts';
import type { TestErrorCode } from '../errors.ts';
import type { ScenarioTarget } from '../scenarios/context.ts';
import { applicability, executeScenario, scenarioRequirements, unrunResult } from '../scenarios/execute.ts';
import type { Scenario } from '../scenarios/types.ts';
import { RunGuard, type TestBound } from './guard.ts';
import { aloneReason, confine, needsPolicy, readTightPolicy } from './shared-state.ts';

/** One test of a plan. */
export type PlanTest = { readonly kind: 'scenario'; readonly scenario: Scenario } | { readonly kind: 'property'; readonly property: PropertyDefinition };

/** What keeps a run bounded. */
interface RunLimits {
  /** Consecutive transport failures after which a role counts as unreachable; 0 never. */
  readonly unreachableAfter: number;
  /** Epoch milliseconds after which no test starts. */
  readonly deadlineAt?: number;
  /** A scenario still running after this long is reported as an error (HARNESS_DEADLINE_EXCEEDED). */
  readonly testTimeLimitMs: number;
  /** A property stops generating cases after this long (and says so); it is cut off 10 s later. */
  readonly propertyTimeLimitMs: number;
  /** A test cut off at its limit that moves shared state holds back the tests after it until it ends, for at most this long (guard.ts). */
  readonly leftRunningGraceMs: number;
}

export const LIMIT_DEFAULTS = { unreachableAfter: 5, testTimeLimitMs: 90_000, propertyTimeLimitMs: 60_000, leftRunningGraceMs: 15_000, interruptGraceMs: 2_000 } as const;

/** The first signal of an interrupt (interrupt.ts). */
interface InterruptSignal {
  readonly fired: boolean;
  readonly signalled: Promise<void>;
}

interface PlanOptions {
  readonly seed: number;
  /** Cases per property; each property's default when absent. */
  readonly propertyRuns?: number;
  /** Shrink candidates after a property's first failure; SHRINK_ATTEMPTS when absent. */
  readonly shrinkAttempts?: number;
  /** Runs of each test (1 to MAX_REPEAT); default 1. */
  readonly repeat?: number;
  /** The rerun command without its `--only ID` part. */
  readonly rerunBase: string;
  readonly limits?: Partial<RunLimits>;
  readonly interrupts?: InterruptSignal;
  /** How long the test in flight may take to end after an interrupt. */
  readonly interruptGraceMs?: number;
  /**
   * Most tests in flight at once (1 to MAX_CONCURRENCY); default 1, one after
   * another. Tests that move state every test shares run alone (shared-state.ts).
   */
  readonly concurrency?: number;
  /**
   * Test ID -> ms of one run (timings.ts): side by side, the tests that run
   * beside others start longest first (startOrder). Without it they start in plan order.
   */
  readonly timings?: ReadonlyMap<string, number>;
  /** Called with each result in plan order, as soon as it and every test before it have ended. */
  readonly onResult?: (result: TestResult) => void;
  /**
   * A result after which no more tests start, as it ends (those in flight end
   * as they would; those never started have no result): a targeted
   * selftest's first kill decides its mutant.
   */
  readonly stopWhen?: (result: TestResult) => boolean;
  /**
   * Opens a twin of the target (Target.twin): side by side, the tests alone
   * only for the target's own state run on it, one at a time, beside the others.
   * One that does not open leaves them alone on the target.
   */
  readonly twin?: () => Promise<ScenarioTarget>;
}

interface PlanOutcome {
  readonly results: TestResult[];
  /** True when an interrupt stopped the plan: the results are partial. */
  readonly interrupted: boolean;
}

/** The plan of a selection: the scenarios in order, then the properties. */
export function planOf(scenarios: readonly Scenario[], properties: readonly PropertyDefinition[]): PlanTest[] {
  return [...scenarios.map((scenario) => ({ kind: 'scenario' as const, scenario })), ...properties.map((property) => ({ kind: 'property' as const, property }))];
}

/** The requirements a test of a plan can judge. */
export function planRequirements(test: PlanTest): readonly string[] {
  return test.kind === 'scenario' ? scenarioRequirements(test.scenario) : propertyRequirements(test.property);
}

/** Most runs of one test (`--repeat`). */
export const MAX_REPEAT = 100;

/** The ID of a test of a plan. */
export function testId(test: PlanTest): string {
  return test.kind === 'scenario' ? test.scenario.id : test.property.id;
}

/** A partition of a plan into shards, with each shard's estimated time. */
interface ShardPartition {
  /** Shard k (0-based): its tests, in plan order. */
  readonly shards: readonly (readonly PlanTest[])[];
  /** Shard k's estimated time: the sum of its tests' estimates, in ms. */
  readonly estimatedMs: readonly number[];
  /** The estimate given to a test the timings do not know: the median of the known ones. */
  readonly unknownMs: number;
  /** How many tests of the plan the timings do not know. */
  readonly unknown: number;
}

/**
 * The plan split into `count` shards of about equal time: each test is
 * estimated by `timings` (test ID -> ms; a test it does not know gets the
 * median of the plan's known estimates, 1 ms when none is known), then, longest
 * first (ties by ID, then plan order), each goes to the shard with the least
 * time so far (ties to the one with fewest tests, then the lowest). The same
 * plan and timings give the same partition on every machine.
 */
export function partitionPlan(plan: readonly PlanTest[], count: number, timings: ReadonlyMap<string, number> = new Map()): ShardPartition {
  const { estimate, unknownMs, known } = estimatesOf(plan, timings);
  const order = plan.map((_, index) => index).sort((a, b) => estimate[b]! - estimate[a]! || compareIds(testId(plan[a]!), testId(plan[b]!)) || a - b);
  const totals: number[] = Array.from({ length: count }, () => 0);
  const sizes: number[] = Array.from({ length: count }, () => 0);
  const owner: number[] = new Array<number>(plan.length);
  for (const index of order) {
    let least = 0;
    for (let k = 1; k < count; k++) if (totals[k]! < totals[least]! || (totals[k] === totals[least] && sizes[k]! < sizes[least]!)) least = k;
    owner[index] = least;
    totals[least]! += estimate[index]!;
    sizes[least]! += 1;
  }
  return {
    shards: totals.map((_, k) => plan.filter((_, index) => owner[index] === k)),
    estimatedMs: totals,
    unknownMs,
    unknown: plan.length - known,
  };
}

/** Each test's estimated ms by `timings`; a test it does not know gets the median of the known ones (1 ms when none is known). */
function estimatesOf(plan: readonly PlanTest[], timings: ReadonlyMap<string, number>): { estimate: number[]; unknownMs: number; known: number } {
  const usable = (ms: number | undefined): ms is number => ms !== undefined && Number.isFinite(ms) && ms >= 0;
  const known = plan.map((t) => timings.get(testId(t))).filter(usable);
  const unknownMs = median(known) ?? 1;
  const estimate = plan.map((t) => {
    const ms = timings.get(testId(t));
    return usable(ms) ? ms : unknownMs;
  });
  return { estimate, unknownMs, known: known.length };
}

/**
 * The order the tests of a plan start in, as plan indices, side by side
 * (`alone[i]`: test i runs alone). The tests that run alone come first, in plan
 * order: each has the target to itself and nothing waits beside it. Then the
 * others, longest first by `timings` (estimatesOf; ties in plan order), so the
 * longest never starts last, with the other slots idle until it ends. Which
 * test starts when changes no result: each test provisions its own parties,
 * and one that moves shared state runs alone (shared-state.ts).
 */
export function startOrder(plan: readonly PlanTest[], alone: readonly boolean[], timings: ReadonlyMap<string, number> = new Map()): number[] {
  const { estimate } = estimatesOf(plan, timings);
  const indices = plan.map((_, index) => index);
  const first = indices.filter((index) => alone[index]);
  const rest = indices.filter((index) => !alone[index]).sort((a, b) => estimate[b]! - estimate[a]! || a - b);
  return [...first, ...rest];
}

/** Shard `i/n` of a plan (partitionPlan); the whole plan without one. */
export function shardOf(plan: readonly PlanTest[], shard: string | undefined, timings?: ReadonlyMap<string, number>): PlanTest[] {
  if (shard === undefined) return [...plan];
  const [i, n] = shard.split('/').map(Number) as [number, number];
  return [...(partitionPlan(plan, n, timings).shards[i - 1] ?? [])];
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Code-unit order: the same on every machine, whatever its locale. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Twins of the target a run opens at most (PlanOptions.twin), each running its
 * lane of tests one at a time. In a full run against the embedded reference one
 * lane ended last, about 0.4 s after the other tests; two end with them
 * (README "Performance").
 */
const TWIN_LANES = 2;

/** `indices` dealt into at most `n` lanes of about equal estimated time: longest first, each to the lane that ends first (ties: the lower lane, then plan order). */
export function lanesOf(indices: readonly number[], estimate: readonly number[], n: number): number[][] {
  const lanes: number[][] = [];
  const load: number[] = [];
  for (const index of [...indices].sort((a, b) => estimate[b]! - estimate[a]! || a - b)) {
    let k = lanes.length < n ? lanes.length : load.indexOf(Math.min(...load));
    if (k === lanes.length) {
      lanes.push([]);
      load.push(0);
    }
    lanes[k]!.push(index);
    load[k]! += estimate[index]!;
  }
  return lanes;
}

/** Most tests in flight at once (`--concurrency`). */
export const MAX_CONCURRENCY = 64;

/**
 * `run`'s default. In a full run against the embedded reference the event loop
 * waited 0.8 to 1 s one test at a time, and 0.1 to 0.6 s with 4 or more in
 * flight (README "Performance"); 8 leaves room for a target slower to answer.
 */
export const DEFAULT_CONCURRENCY = 8;

export async function runPlan(plan: readonly PlanTest[], target: ScenarioTarget, options: PlanOptions): Promise<PlanOutcome> {
  const limits: RunLimits = { ...LIMIT_DEFAULTS, ...options.limits };
  const guard = new RunGuard({ unreachableAfter: limits.unreachableAfter, leftRunningGraceMs: limits.leftRunningGraceMs, ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}) });
  const guarded = guard.guard(target);
  const stop = options.interrupts?.signalled.then(() => 'interrupted' as const);
  const repeat = options.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT) throw new RangeError(`repeat is an integer from 1 to ${MAX_REPEAT}`);
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) throw new RangeError(`concurrency is an integer from 1 to ${MAX_CONCURRENCY}`);
  // Alone or beside others (shared-state.ts); one at a time, every test is alone.
  const facts = { tightPolicy: concurrency > 1 && needsPolicy(plan) ? await readTightPolicy(target) : false };
  const reasons = plan.map((test) => aloneReason(test, facts));
  const alone = plan.map((_, index) => concurrency === 1 || reasons[index] !== undefined);
  // Side by side with twins of the target at hand (PlanOptions.twin), a test alone only for the
  // target's own state (its clock, its lease) runs on a twin: each twin takes a lane of them, run one
  // at a time there, beside the others. A lane holds one of the `concurrency` slots until it is done.
  const laneCount = concurrency > 1 && options.twin !== undefined ? Math.min(TWIN_LANES, concurrency - 1) : 0;
  const onTwin = plan.map((_, index) => laneCount > 0 && reasons[index]?.scope === 'target');

  // Tests start in `order`; their results are handed on in plan order, each once
  // every test before it has ended (undefined: not ended or never started; null:
  // left out after an interrupt).
  const ended: (TestResult | null | undefined)[] = new Array<undefined>(plan.length);
  const results: TestResult[] = [];
  let handedOn = 0;
  const handOn = () => {
    for (; handedOn < plan.length && ended[handedOn] !== undefined; handedOn++) {
      const result = ended[handedOn];
      if (!result) continue;
      results.push(result);
      options.onResult?.(result);
    }
  };
  const order = concurrency === 1 ? plan.map((_, index) => index) : startOrder(plan, alone, options.timings);
  const inFlight = new Set<Promise<void>>();
  const besideInFlight = new Set<Promise<void>>();
  let thrown: { readonly error: unknown } | undefined;
  const stopped = () => options.interrupts?.fired === true || thrown !== undefined;
  /** A result stopWhen took: no test starts after it. */
  let decided = false;
  const halted = () => stopped() || decided;
  /** Starts test `index` against `seen`; in flight until it ends. */
  const launch = (index: number, seen: ScenarioTarget): Promise<void> => {
    const task: Promise<void> = runRepeats(plan[index]!, reasons[index]?.why, seen, guard, limits, options, repeat, stop)
      .then(
        (result) => {
          ended[index] = result ?? null;
          if (result !== undefined && options.stopWhen?.(result) === true) decided = true;
        },
        (error: unknown) => void ((ended[index] = null), (thrown ??= { error })),
      )
      .finally(() => {
        inFlight.delete(task);
        besideInFlight.delete(task);
        handOn();
      });
    inFlight.add(task);
    return task;
  };
  const allEnded = async () => {
    while (inFlight.size > 0) await Promise.race(inFlight);
  };
  /** Runs `indices` one at a time against `seen`, each once the one before it has ended. */
  const oneAtATime = async (indices: readonly number[], seen: ScenarioTarget) => {
    for (const index of indices) {
      if (halted()) break;
      await launch(index, seen);
    }
  };

  // The twins open while the tests alone on the target run; each lane's tests go longest first.
  const lanes = lanesOf(order.filter((index) => onTwin[index]), estimatesOf(plan, options.timings ?? new Map()).estimate, laneCount);
  const twins = lanes.map(() => options.twin!().then((opened) => guard.guard(opened), () => undefined));
  let lanesRunning = 0;
  let onLanes: Promise<unknown> | undefined;
  /** Starts the lanes, each on its twin; when a twin did not open, their tests run alone here instead, one at a time, before anything else starts. */
  const startLanes = async () => {
    const opened = await Promise.all(twins);
    if (opened.some((twin) => twin === undefined)) {
      await allEnded();
      await oneAtATime(lanes.flat().sort((a, b) => a - b), guarded);
      return;
    }
    lanesRunning = lanes.length;
    onLanes = Promise.all(lanes.map((lane, k) => oneAtATime(lane, opened[k]!).finally(() => lanesRunning--)));
  };
  let lanesStarted = false;
  for (const index of order) {
    if (onTwin[index]) continue;
    if (halted()) break;
    if (alone[index]) {
      // A test that runs alone waits for every test in flight, and holds back every later one until it ends.
      await allEnded();
      if (!halted()) await launch(index, guarded);
      continue;
    }
    // The tests alone first (startOrder), then the lanes, beside the others.
    if (!lanesStarted) {
      lanesStarted = true;
      await startLanes();
      if (halted()) break;
    }
    while (besideInFlight.size >= concurrency - lanesRunning) await Promise.race(inFlight);
    if (halted()) break;
    besideInFlight.add(launch(index, confine(guarded, testId(plan[index]!))));
  }
  // Every test ran alone: the lanes start after them.
  if (!lanesStarted && !halted()) {
    await allEnded();
    await startLanes();
  }
  await onLanes;
  await allEnded();
  // A test left running past its limit that moves shared state is waited for (within its grace), so that
  // it does not outlive the run into the next one in this process; not past the run's time limit or an interrupt.
  if (!stopped() && !guard.deadlinePassed()) await guard.quiet();
  // Every test that started has ended: one still undefined never started (an interrupt, a throw).
  for (let index = handedOn; index < plan.length; index++) ended[index] ??= null;
  handOn();
  if (thrown) throw thrown.error;
  return { results, interrupted: options.interrupts?.fired === true };
}

/** The runs of one test (`repeat`), as one result; undefined when an interrupt left it out. */
async function runRepeats(test: PlanTest, moves: string | undefined, target: ScenarioTarget, guard: RunGuard, limits: RunLimits, options: PlanOptions, repeat: number, stop: Promise<'interrupted'> | undefined): Promise<TestResult | undefined> {
  const runs: TestResult[] = [];
  for (let k = 0; k < repeat; k++) {
    if (k > 0 && options.interrupts?.fired) break;
    const running = runOne(test, moves, target, guard, limits, options, (options.seed + k) >>> 0);
    const result = stop === undefined ? await running : await untilInterrupted(running, stop, options.interruptGraceMs ?? LIMIT_DEFAULTS.interruptGraceMs);
    if (result === undefined) break;
    // A test that did not run (skipped, not applicable, or held back by the guard) is not run
    // again; a repetition that did not run is not counted (only passed, failed and error runs are).
    if (k > 0 && !ranAtAll(result)) break;
    runs.push(result);
    if (!ranAtAll(result)) break;
  }
  if (runs.length === 0) return undefined;
  return repeat > 1 && ranAtAll(runs[0]!) ? repeatedResult(runs, repeat) : runs[0]!;
}

/** A result of a test that ran: not skipped, not applicable, not held back by the guard. */
function ranAtAll(result: TestResult): boolean {
  return result.status !== 'skipped' && result.status !== 'not-applicable' && result.not_run !== true;
}

/** An error result of a test that was never started (the guard held it back, or the target could not be opened): marked so, the one place that says it. */
export function heldBack(result: TestResult): TestResult {
  return { ...result, not_run: true };
}

/**
 * One result for the runs of a repeated test. All passed: stable-pass, the
 * first run's result. Otherwise the status is the failing one (failed when any
 * run failed, else error) and the evidence is the first run that ended so: its
 * checks, transcript, reason and seed. A flaky test (some passed, some not) is
 * never a pass; its reason starts "flaky: passed k of N" and its rerun repeats.
 * duration_ms is the time of all runs; `repeat.median_ms` the median of one.
 */
function repeatedResult(runs: readonly TestResult[], requested: number): TestResult {
  const passed = runs.filter((r) => r.status === 'passed').length;
  const failed = runs.filter((r) => r.status === 'failed').length;
  const errors = runs.filter((r) => r.status === 'error').length;
  const stability: RepeatRecord['stability'] = passed === runs.length ? 'stable-pass' : passed === 0 ? 'stable-fail' : 'flaky';
  const status = stability === 'stable-pass' ? 'passed' : failed > 0 ? 'failed' : 'error';
  const at = runs.findIndex((r) => r.status === status);
  const evidence = runs[at]!;
  const repeat: RepeatRecord = {
    runs: runs.length,
    ...(runs.length < requested ? { requested } : {}),
    passed,
    failed,
    errors,
    stability,
    median_ms: Math.round(median(runs.map((r) => r.duration_ms)) ?? 0),
  };
  const duration = runs.reduce((sum, r) => sum + r.duration_ms, 0);
  if (stability !== 'flaky') return { ...evidence, duration_ms: duration, repeat };
  const first = evidence.reason === undefined ? '' : `; run ${at + 1} ${evidence.status === 'failed' ? 'failed' : 'ended in error'}: ${evidence.reason}`;
  return { ...evidence, duration_ms: duration, reason: `flaky: passed ${passed} of ${runs.length}${first}`, rerun: `${evidence.rerun} --repeat ${requested}`, repeat };
}

/**
 * The test's result, unless an interrupt came while it ran: then it may end
 * within the grace, and counts only if it passed or did not apply (a failure
 * or an error may be the harness stopping under it).
 */
async function untilInterrupted(running: Promise<TestResult>, stop: Promise<'interrupted'>, graceMs: number): Promise<TestResult | undefined> {
  const first = await Promise.race([running, stop]);
  if (first !== 'interrupted') return first;
  running.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = await Promise.race([running, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), graceMs)))]);
  clearTimeout(timer);
  return late !== undefined && (late.status === 'passed' || late.status === 'skipped' || late.status === 'not-applicable') ? late : undefined;
}

/** One run of a test; `moves`: what it moves that other tests share (shared-state.ts), if anything. */
async function runOne(test: PlanTest, moves: string | undefined, target: ScenarioTarget, guard: RunGuard, limits: RunLimits, options: PlanOptions, seed: number): Promise<TestResult> {
  // A test left running past its limit that moves shared state holds this one back until it ends.
  const stillRunning = await guard.quiet();
  if (test.kind === 'scenario') {
    const { scenario } = test;
    const rerun = `${options.rerunBase} --only ${scenario.id}`;
    const unrun = (code: TestErrorCode, reason: string, ms?: number) => unrunResult(scenario, code, reason, rerun, ms);
    // A test that would not apply, or be skipped, is reported so (it sends nothing); the rest may be blocked.
    const blocked = applicability(scenario, target) ? undefined : (stillRunning ?? guard.blocked(target, scenario.role));
    if (blocked) return heldBack(unrun(blocked.code, blocked.reason));
    const bound = guard.bound(limits.testTimeLimitMs, 'the scenario', { id: scenario.id, moves });
    return withinTimeLimit(
      executeScenario(scenario, target, { levelOf: (id) => findRequirement(id)?.level ?? scenario.level, rerun: () => rerun }),
      bound,
      () => unrun('HARNESS_DEADLINE_EXCEEDED', bound.reason, bound.ms),
    );
  }
  const { property } = test;
  const rerun = `${options.rerunBase} --only ${property.id} --seed ${seed}`;
  const unrun = (code: TestErrorCode, reason: string, ms = 0) => unrunProperty(property, code, reason, rerun, seed, ms);
  const inapplicable = target.adapterKind(property.role) === undefined || property.needs.some((c) => !target.capabilities(property.role).has(c));
  const blocked = inapplicable ? undefined : (stillRunning ?? guard.blocked(target, property.role));
  if (blocked) return heldBack(unrun(blocked.code, blocked.reason));
  const bound = guard.bound(limits.propertyTimeLimitMs + 10_000, 'the property', { id: property.id, moves });
  return withinTimeLimit(
    executeProperty(property, target, {
      seed,
      ...(options.propertyRuns !== undefined ? { runs: options.propertyRuns } : {}),
      ...(options.shrinkAttempts !== undefined ? { shrinkAttempts: options.shrinkAttempts } : {}),
      timeLimitMs: limits.propertyTimeLimitMs,
      levelOf: (id) => findRequirement(id)?.level ?? property.level,
      rerun: () => rerun,
    }),
    bound,
    () => unrun('HARNESS_DEADLINE_EXCEEDED', bound.reason, bound.ms),
  );
}

/** The test's own result, or `late()` once the bound has passed (the test is abandoned, not awaited). */
async function withinTimeLimit<T>(test: Promise<T>, bound: TestBound, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      bound.expire(test);
      resolve(late());
    }, bound.ms);
  });
  try {
    return await Promise.race([test, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** A property reported without being run. */
export function unrunProperty(def: PropertyDefinition, code: TestErrorCode, reason: string, rerun: string, seed: number, ms = 0): TestResult {
  return {
    id: def.id,
    title: def.title,
    kind: 'property',
    file: def.file ?? PROPERTIES_FILE,
    sections: def.sections,
    requirements: def.requirements,
    level: def.level,
    role: def.role,
    status: 'error',
    duration_ms: Math.round(ms),
    reason,
    error_code: code,
    checks: [],
    transcript: [],
    rerun,
    seed,
  };
}
