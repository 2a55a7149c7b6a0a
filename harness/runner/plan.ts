// The one engine: runs a plan of scenarios and properties against an opened
// target, one test at a time, under the same rules whoever calls it (`run`,
// `selftest`, `bench`, the project's tests):
//
//   guard       a role that stops answering is cut off after N consecutive
//               transport failures; its later tests are reported without being
//               run (guard.ts)
//   deadline    past the run's time limit no test starts, and a test still
//               running then is stopped
//   time limit  a test still running after its limit is reported as an error
//               and abandoned; a property stops generating cases at its own limit
//   interrupt   no test starts after the signal; the test in flight gets a short
//               grace, and if it then ends failed or in error it is left out, not
//               judged (the harness is stopping its own side under it)
//
// Each test yields exactly one TestResult, handed to `onResult` as it ends.
import { findRequirement } from '../../profile/registry.ts';
import { executeProperty } from '../properties/execute.ts';
import { PROPERTIES_FILE, type PropertyDefinition } from '../properties/types.ts';
import type { TestResult } from '../report/model.ts';
import type { TestErrorCode } from '../errors.ts';
import type { ScenarioTarget } from '../scenarios/context.ts';
import { applicability, executeScenario, unrunResult } from '../scenarios/execute.ts';
import type { Scenario } from '../scenarios/types.ts';
import { RunGuard } from './guard.ts';

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
}

export const LIMIT_DEFAULTS = { unreachableAfter: 5, testTimeLimitMs: 90_000, propertyTimeLimitMs: 60_000, interruptGraceMs: 2_000 } as const;

/** The first signal of an interrupt (interrupt.ts). */
interface InterruptSignal {
  readonly fired: boolean;
  readonly signalled: Promise<void>;
}

interface PlanOptions {
  readonly seed: number;
  /** Cases per property; each property's default when absent. */
  readonly propertyRuns?: number;
  /** The rerun command without its `--only ID` part. */
  readonly rerunBase: string;
  readonly limits?: Partial<RunLimits>;
  readonly interrupts?: InterruptSignal;
  /** How long the test in flight may take to end after an interrupt. */
  readonly interruptGraceMs?: number;
  /** Called as each test ends, with its result. */
  readonly onResult?: (result: TestResult) => void;
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

/**
 * Shard i of n: every n-th test of the plan, starting at the i-th, so each
 * shard gets a share of every suite file and the same count within one.
 */
export function shardOf(plan: readonly PlanTest[], shard: string | undefined): PlanTest[] {
  if (shard === undefined) return [...plan];
  const [i, n] = shard.split('/').map(Number) as [number, number];
  return plan.filter((_, index) => index % n === i - 1);
}

export async function runPlan(plan: readonly PlanTest[], target: ScenarioTarget, options: PlanOptions): Promise<PlanOutcome> {
  const limits: RunLimits = { ...LIMIT_DEFAULTS, ...options.limits };
  const guard = new RunGuard({ unreachableAfter: limits.unreachableAfter, ...(limits.deadlineAt !== undefined ? { deadlineAt: limits.deadlineAt } : {}) });
  const guarded = guard.guard(target);
  const stop = options.interrupts?.signalled.then(() => 'interrupted' as const);
  const results: TestResult[] = [];
  for (const test of plan) {
    if (options.interrupts?.fired) break;
    const running = runOne(test, guarded, guard, limits, options);
    const result = stop === undefined ? await running : await untilInterrupted(running, stop, options.interruptGraceMs ?? LIMIT_DEFAULTS.interruptGraceMs);
    if (result === undefined) break;
    results.push(result);
    options.onResult?.(result);
  }
  return { results, interrupted: options.interrupts?.fired === true };
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

async function runOne(test: PlanTest, target: ScenarioTarget, guard: RunGuard, limits: RunLimits, options: PlanOptions): Promise<TestResult> {
  if (test.kind === 'scenario') {
    const { scenario } = test;
    const rerun = `${options.rerunBase} --only ${scenario.id}`;
    const unrun = (code: TestErrorCode, reason: string, ms?: number) => unrunResult(scenario, code, reason, rerun, ms);
    // A test that would not apply, or be skipped, is reported so (it sends nothing); the rest may be blocked.
    const blocked = applicability(scenario, target) ? undefined : guard.blocked(target, scenario.role);
    if (blocked) return unrun(blocked.code, blocked.reason);
    const bound = boundOf(limits.testTimeLimitMs, limits.deadlineAt, 'the scenario');
    return withinTimeLimit(
      executeScenario(scenario, target, { levelOf: (id) => findRequirement(id)?.level ?? scenario.level, rerun: () => rerun }),
      bound.ms,
      () => unrun('HARNESS_DEADLINE_EXCEEDED', bound.reason, bound.ms),
    );
  }
  const { property } = test;
  const rerun = `${options.rerunBase} --only ${property.id} --seed ${options.seed}`;
  const unrun = (code: TestErrorCode, reason: string, ms = 0) => unrunProperty(property, code, reason, rerun, options.seed, ms);
  const inapplicable = target.adapterKind(property.role) === undefined || property.needs.some((c) => !target.capabilities(property.role).has(c));
  const blocked = inapplicable ? undefined : guard.blocked(target, property.role);
  if (blocked) return unrun(blocked.code, blocked.reason);
  const bound = boundOf(limits.propertyTimeLimitMs + 10_000, limits.deadlineAt, 'the property');
  return withinTimeLimit(
    executeProperty(property, target, {
      seed: options.seed,
      ...(options.propertyRuns !== undefined ? { runs: options.propertyRuns } : {}),
      timeLimitMs: limits.propertyTimeLimitMs,
      levelOf: (id) => findRequirement(id)?.level ?? property.level,
      rerun: () => rerun,
    }),
    bound.ms,
    () => unrun('HARNESS_DEADLINE_EXCEEDED', bound.reason, bound.ms),
  );
}

/** How long a test may run: its own limit, or until the run's deadline when that comes first. */
function boundOf(ownMs: number, deadlineAt: number | undefined, what: string): { ms: number; reason: string } {
  const left = deadlineAt === undefined ? Number.POSITIVE_INFINITY : Math.max(0, deadlineAt - Date.now());
  return left < ownMs
    ? { ms: left, reason: `stopped: the run's time limit passed at ${new Date(deadlineAt!).toISOString()} while ${what} ran` }
    : { ms: ownMs, reason: `stopped: ${what} ran longer than ${ownMs} ms` };
}

/** The test's own result, or `late()` once `limitMs` has passed (the test is abandoned, not awaited). */
async function withinTimeLimit<T>(test: Promise<T>, limitMs: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), limitMs);
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
    file: PROPERTIES_FILE,
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
