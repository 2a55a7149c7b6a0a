// A fuzzing campaign: model runs (fc.asyncModelRun over fc.commands, each against
// fresh state) until the time or run budget is spent or the model and the
// implementation disagree. Then, in four phases:
//
//   explore  fc.check with endOnFailure, stopped by fast-check's
//            interruptAfterTimeLimit and by our own deadline (a run in flight
//            skips its remaining commands, so the campaign stops on time)
//   shrink   fc.check again from the failing path ({ seed, path }), shrinking
//            against the live target within its own bound; a run counts as
//            failing only with the finding's cause (cause.ts), so shrinking
//            never slides from one fault to another
//   replay   the shrunk counterexample once more against fresh state: a failure
//            that does not come back, with the same cause, is reported as
//            FLAKY, never hidden
//   reduce   the failing world's history reduced to what the cause needs
//            (reduce.ts), within a count of runs
//
// and writes DIR/crash-<seed>.json and DIR/regression-<seed>.yaml. An
// unreachable target or test control that refuses is a harness error (exit 2),
// never a finding.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { operatorKeyOf, validateMessage, type PolicyDocument, type PubkeyDocument } from '../../profile/cashpack/index.ts';
import { PROFILE_ID } from '../../profile/index.ts';
import { TransportError, type HttpRole } from '../adapters/types.ts';
import { HarnessError } from '../errors.ts';
import { FuzzClient, jsonRequest, type ExchangeTap } from './client.ts';
import { commandsArbitrary, FuzzCommand } from './commands.ts';
import { describe, type CommandSpec } from './spec.ts';
import { CRASH_FORMAT, crashJson, type CrashFile } from './crash.ts';
import { HarnessFault, Mismatch, type MismatchDetail } from './mismatch.ts';
import { causeKey, sameCause, type Cause } from './cause.ts';
import { DEFAULT_REDUCE_ATTEMPTS, reduceFinding, type FailingRun } from './reduce.ts';
import { modelPolicy } from './model.ts';
import { regressionText, regressionYaml, type Reproduction } from './regression.ts';
import { findRequirement } from '../../profile/registry.ts';
import type { ScenarioTarget } from '../scenarios/context.ts';
import { executeScenario } from '../scenarios/execute.ts';
import type { Scenario } from '../scenarios/types.ts';
import { Run, type RunModel } from './lanes.ts';
import type { BalanceChoice, FuzzContext, RunSetup, World } from './world.ts';

export type Budget = { readonly kind: 'time'; readonly ms: number } | { readonly kind: 'runs'; readonly runs: number };

export interface CampaignOptions {
  readonly operator: HttpRole;
  readonly seed: number;
  readonly budget: Budget;
  /** Bound of the shrinking phase; default: half the time budget, at least 10 s and at most 120 s (30 s with a run budget). */
  readonly shrinkMs?: number;
  /** Runs the reduction after shrinking makes at most (reduce.ts); default 100, 0 for none. */
  readonly reduceAttempts?: number;
  /** Longest command sequence of one model run; default 30, and 90 per lane with more than one lane. */
  readonly maxCommands?: number;
  /**
   * Worlds per model run, driven concurrently (lanes.ts); default 1. More lanes
   * keep more requests in flight; what a run can find is the same.
   */
  readonly lanes?: number;
  /** Sees every request and answer (the benchmark records with it). */
  readonly tap?: ExchangeTap;
  /** Where the crash file and the regression scenario go (created when something is found). */
  readonly outDir: string;
  /** Shown in the crash file. */
  readonly targetName: string;
  /** The command line that reproduces the campaign, for the files. */
  readonly reproduce?: string;
  readonly onProgress?: (progress: CampaignProgress) => void;
  /** Default 250 ms. */
  readonly progressIntervalMs?: number;
}

export type Phase = 'explore' | 'shrink' | 'replay' | 'reduce' | 'done';

export interface CampaignProgress {
  readonly phase: Phase;
  /** Model runs while exploring. */
  readonly runs: number;
  /** Model runs while shrinking. */
  readonly shrinks: number;
  /** Runs of the reduction after shrinking. */
  readonly reductions: number;
  /** HTTP operations sent. */
  readonly ops: number;
  readonly failures: number;
  readonly elapsedMs: number;
  readonly budget: Budget;
}

export interface FoundFailure {
  readonly flaky: boolean;
  readonly detail: MismatchDetail;
  readonly message: string;
  /** The minimal command sequence: shrunk, then reduced. */
  readonly commands: readonly string[];
  /** What the reduction did: its runs, and the sequence the shrinker had left it. */
  readonly reduction: { readonly attempts: number; readonly shrunk: readonly string[] };
  readonly path: string;
  readonly crashFile: string;
  readonly regressionFile: string;
  /** Whether the regression scenario, run against the target before it was written, failed there as it must. */
  readonly reproduction?: Reproduction;
  /** Set when the written scenario does not load (a harness defect): the finding stands. */
  readonly regressionError?: string;
}

export interface CampaignResult {
  readonly seed: number;
  readonly runs: number;
  readonly shrinks: number;
  readonly reductions: number;
  readonly ops: number;
  readonly elapsedMs: number;
  /** HTTP operations per second over the whole campaign. */
  readonly opsPerSecond: number;
  readonly failure?: FoundFailure;
  /** Other causes runs failed with while shrinking and replaying: not followed, never hidden (each once). */
  readonly otherCauses: readonly Cause[];
}

/** Most worlds one model run drives at once. */
export const MAX_LANES = 16;

/** The capabilities the fuzzer needs (PROFILE.md §12). */
export const FUZZ_CAPABILITIES = ['provision', 'clock', 'balance', 'cancel'] as const;

const MAX_RUNS = 2 ** 31 - 1;

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const started = performance.now();
  const lanes = options.lanes ?? 1;
  if (!Number.isInteger(lanes) || lanes < 1 || lanes > MAX_LANES) throw new RangeError(`lanes is an integer from 1 to ${MAX_LANES}`);
  const context = await openContext(options.operator, options.tap);
  const budget = options.budget;
  const shrinkMs = options.shrinkMs ?? (budget.kind === 'time' ? Math.min(Math.max(budget.ms / 2, 10_000), 120_000) : 30_000);
  const state: CampaignState = {
    phase: 'explore',
    deadline: budget.kind === 'time' ? started + budget.ms : Number.POSITIVE_INFINITY,
    runs: 0,
    shrinks: 0,
    reductions: 0,
    failures: 0,
    fault: undefined,
    cause: undefined,
    otherCauses: new Map(),
    lastFailing: undefined,
    inflight: new Set(),
  };
  const snapshot = (): CampaignProgress => ({
    phase: state.phase,
    runs: state.runs,
    shrinks: state.shrinks,
    reductions: state.reductions,
    ops: context.client.ops,
    failures: state.failures,
    elapsedMs: performance.now() - started,
    budget,
  });
  const timer = options.onProgress ? setInterval(() => options.onProgress!(snapshot()), options.progressIntervalMs ?? 250) : undefined;
  timer?.unref();
  const { property, settle } = campaignProperty(context, state, lanes, options.maxCommands ?? (lanes === 1 ? 30 : 90 * lanes));

  const finish = (failure: FoundFailure | undefined): CampaignResult => {
    const elapsedMs = performance.now() - started;
    options.onProgress?.({ ...snapshot(), phase: 'done' });
    return {
      seed: options.seed,
      runs: state.runs,
      shrinks: state.shrinks,
      reductions: state.reductions,
      ops: context.client.ops,
      elapsedMs,
      opsPerSecond: context.client.ops / Math.max(elapsedMs / 1000, 0.001),
      ...(failure ? { failure } : {}),
      otherCauses: [...state.otherCauses.values()],
    };
  };

  try {
    const explore = await fc.check(property, {
      seed: options.seed,
      numRuns: budget.kind === 'runs' ? budget.runs : MAX_RUNS,
      endOnFailure: true,
      ...(budget.kind === 'time' ? { plugins: [fc.interruptAfterTimeLimit(budget.ms)] } : {}),
    });
    await settle();
    if (!explore.failed || explore.counterexample === null) return finish(undefined);
    state.cause = state.lastFailing?.detail.cause;

    state.phase = 'shrink';
    state.deadline = performance.now() + shrinkMs;
    const shrunk = await fc.check(property, {
      seed: options.seed,
      path: explore.counterexamplePath,
      numRuns: 1,
      endOnFailure: false,
      plugins: [fc.interruptAfterTimeLimit(shrinkMs)],
    });
    await settle();

    state.phase = 'replay';
    state.deadline = Number.POSITIVE_INFINITY;
    const found = await replayFinding(context, state, explore, shrunk);

    state.phase = 'reduce';
    const shrunkCommands = found.failing.commands.map(describe);
    const reduced = found.flaky ? { ...found.failing, attempts: 0 } : await reduce(context, state, found.failing, options.reduceAttempts ?? DEFAULT_REDUCE_ATTEMPTS);
    return finish(await writeFindings(options, context, { ...found, failing: reduced, reduction: { attempts: reduced.attempts, shrunk: shrunkCommands } }));
  } finally {
    if (timer) clearInterval(timer);
    state.phase = 'done';
    await releaseClock(context);
  }
}

interface CampaignState {
  phase: Phase;
  /** When the current phase stops starting runs (performance.now()). */
  deadline: number;
  runs: number;
  shrinks: number;
  failures: number;
  reductions: number;
  /** A harness fault: it ends the campaign. */
  fault: unknown;
  /** The cause of the failure exploring found: shrinking and replaying follow it alone. */
  cause: Cause | undefined;
  /** Causes other than the finding's that runs failed with while shrinking or replaying, by key. */
  readonly otherCauses: Map<string, Cause>;
  lastFailing: FailingRun | undefined;
  readonly inflight: Set<Promise<void>>;
}

/**
 * The model run as a fast-check property: each run counts toward exploring or
 * shrinking, a Mismatch fails it (while shrinking, only a Mismatch with the
 * finding's cause: one with another cause is noted and passes, so the shrinker
 * never trades the finding for another), and a harness fault ends the campaign
 * (every later run passes at once, so nothing shrinks). `settle` waits for the
 * runs a time limit left in flight and rethrows a fault.
 */
function campaignProperty(context: FuzzContext, state: CampaignState, lanes: number, maxCommands: number) {
  const halted = () => state.fault !== undefined || performance.now() >= state.deadline;
  const setups = fc.array(setupArbitrary, { minLength: lanes, maxLength: lanes });
  const property = fc.asyncProperty(setups, commandsArbitrary(maxCommands, lanes), (setup, commands) => {
    const run = (async () => {
      if (halted()) return;
      if (state.phase === 'explore') state.runs += 1;
      else state.shrinks += 1;
      const record = await runOnce(context, setup, commands, halted);
      if (record.error === undefined) return;
      if (record.error instanceof Mismatch) {
        if (!followed(state, record.error.detail.cause)) return;
        if (state.phase === 'explore') state.failures += 1;
        state.lastFailing = failingRun(record.world!, record.error);
      } else {
        state.fault ??= record.error;
      }
      throw record.error;
    })();
    state.inflight.add(run);
    const forget = () => void state.inflight.delete(run);
    run.then(forget, forget);
    return run;
  });
  // fast-check's time limit leaves a run in flight; it skips its remaining commands once halted.
  const settle = async () => {
    await Promise.allSettled([...state.inflight]);
    if (state.fault !== undefined) throw toHarnessError(state.fault);
  };
  return { property, settle };
}

/** Whether a failure with this cause is the one the campaign follows: any while exploring, then the finding's alone (others are noted). */
function followed(state: CampaignState, cause: Cause): boolean {
  if (state.phase === 'explore' || state.cause === undefined || sameCause(cause, state.cause)) return true;
  state.otherCauses.set(causeKey(cause), cause);
  return false;
}

function failingRun(world: World, error: Mismatch): FailingRun {
  return { setup: world.setup, commands: world.executed, world, detail: error.detail, message: error.message };
}

/**
 * Runs the smallest counterexample once more, from a fresh world: a finding
 * that does not fail again with its cause (or did not shrink) is flaky, and is
 * written as such.
 */
async function replayFinding(context: FuzzContext, state: CampaignState, explore: fc.RunDetails<unknown>, shrunk: fc.RunDetails<unknown>) {
  const final = shrunk.failed && shrunk.counterexample !== null ? shrunk : explore;
  const [setup, commands] = final.counterexample as unknown as [RunSetup[], Iterable<FuzzCommand>];
  const replay = await runOnce(context, setup, fc.cloneIfNeeded(commands), () => false);
  if (replay.error !== undefined && !(replay.error instanceof Mismatch)) throw toHarnessError(replay.error);
  const reproduced = replay.error instanceof Mismatch && followed(state, replay.error.detail.cause);
  const failing = reproduced ? failingRun(replay.world!, replay.error as Mismatch) : state.lastFailing;
  if (!failing) throw new HarnessError('HARNESS_INTERNAL', 'a failure was found but no failing run was recorded');
  return { failing, flaky: !(reproduced && shrunk.failed), path: final.counterexamplePath ?? '', counterexample: fc.stringify(final.counterexample) };
}

/** The reduction after shrinking (reduce.ts): each of its runs one world, sequential, from fresh state. */
async function reduce(context: FuzzContext, state: CampaignState, failing: FailingRun, attempts: number) {
  const run = (setup: RunSetup, commands: readonly CommandSpec[]) => runOnce(context, [setup], commands.map((spec) => new FuzzCommand(spec)), () => false);
  try {
    return await reduceFinding(run, failing, attempts, () => void state.reductions++);
  } catch (error) {
    throw toHarnessError(error);
  }
}

/**
 * A world's setup: the Principal's balance (relative to max_amount, or far
 * beyond 2^53), its asset among the policy's, and whether balances are read
 * after each command or, in one run in three, only where an observe command says.
 */
export const setupArbitrary: fc.Arbitrary<RunSetup> = fc
  .record({
    balance: fc.oneof({ arbitrary: fc.constantFrom<BalanceChoice>('twice-max', 'max', 'small'), weight: 4 }, { arbitrary: fc.record({ digits: fc.integer({ min: 16, max: 78 }) }), weight: 1 }),
    asset: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.nat(3), weight: 1 }),
    observe: fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: fc.constant('none' as const), weight: 1 }),
  })
  .map((setup) => Object.fromEntries(Object.entries(setup).filter(([, v]) => v !== undefined)) as unknown as RunSetup);

interface RunRecord {
  /** Undefined when setup itself failed. */
  readonly world?: World;
  readonly error?: unknown;
}

/**
 * One model run against fresh state, one world per setup (lanes.ts); a
 * Mismatch or a harness fault comes back as `error`, with the world whose
 * history ends in it.
 */
export async function runOnce(context: FuzzContext, setups: readonly RunSetup[], commands: Iterable<fc.AsyncCommand<RunModel, Run>>, halted: () => boolean): Promise<RunRecord> {
  let run: Run | undefined;
  try {
    await fc.asyncModelRun(async () => {
      const opened = await Run.open(context, setups, halted);
      run = opened.real;
      return opened;
    }, commands);
    await run?.settle();
    return run ? { world: run.failingWorld() } : {};
  } catch (error) {
    // Other lanes may still be answering: their exchanges complete, and the
    // earliest failed command, in list order, is the one reported.
    const opened = run as Run | undefined;
    await opened?.settle().catch(() => undefined);
    return { ...(opened ? { world: opened.failingWorld() } : {}), error: opened?.failureError() ?? error };
  }
}

/** The policy, the Operator's key and a warm connection pool (bursts are released on open connections). */
export async function openContext(operator: HttpRole, tap?: ExchangeTap): Promise<FuzzContext> {
  const client = new FuzzClient(operator, tap);
  try {
    const policyReply = await client.send({ method: 'GET', path: '/.well-known/cashpack-policy.json', headers: { accept: 'application/json' } });
    const check = validateMessage('policy', policyReply.body);
    if (policyReply.status !== 200 || !check.ok) {
      throw new HarnessError('CONFIG_INVALID', `the Operator Policy Document could not be read (HTTP ${policyReply.status}${check.ok ? '' : `: ${check.errors.slice(0, 3).join('; ')}`})`, 'the fuzzer takes the policy from /.well-known/cashpack-policy.json; check CPP-WK-1 with: cpr-conformance run --only CPP-WK-1');
    }
    const keyReply = await client.send({ method: 'GET', path: '/.well-known/cashpack-pubkey.json', headers: { accept: 'application/json' } });
    const operatorKey = keyReply.status === 200 && keyReply.body ? operatorKeyOf(keyReply.body as PubkeyDocument) : undefined;
    if (!operatorKey) throw new HarnessError('CONFIG_INVALID', "the Operator's key could not be read from /.well-known/cashpack-pubkey.json", 'check CPP-WK-2 with: cpr-conformance run --only CPP-WK-2');
    // GET, not HEAD: after HEAD answers the pool stopped reusing its connections (undici 7 against the reference).
    await Promise.all(Array.from({ length: 8 }, () => client.send({ method: 'GET', path: '/.well-known/cashpack-policy.json' })));
    const policyDocument = policyReply.body as PolicyDocument;
    return { client, policyDocument, policy: modelPolicy(policyDocument), operatorKey };
  } catch (error) {
    throw toHarnessError(error);
  }
}

async function writeFindings(
  options: CampaignOptions,
  context: FuzzContext,
  found: { failing: FailingRun; flaky: boolean; path: string; counterexample: string; reduction: FoundFailure['reduction'] },
): Promise<FoundFailure> {
  const { seed, outDir } = options;
  const { world, detail, message, setup } = found.failing;
  const specs = world.executed;
  const commands = specs.map(describe);
  const reproduce = options.reproduce ?? `cpr-conformance fuzz --seed ${seed} --lanes ${options.lanes ?? 1}`;
  mkdirSync(outDir, { recursive: true });
  const regressionName = `regression-${seed}.yaml`;
  const crashFile = join(outDir, `crash-${seed}.json`);
  const regressionFile = join(outDir, regressionName);
  const crash: CrashFile = {
    format: CRASH_FORMAT,
    profile: PROFILE_ID,
    seed,
    path: found.path,
    counterexample: found.counterexample,
    flaky: found.flaky,
    target: options.targetName,
    policy: context.policyDocument,
    setup,
    commands: specs,
    commands_text: commands,
    reduction: found.reduction,
    failure: { ...detail, message },
    exchanges: world.log.entries(),
    regression: regressionName,
    reproduce,
  };
  writeFileSync(crashFile, crashJson(crash));
  const input = { seed, world, failure: detail, flaky: found.flaky, commands, reproduce, crashFile: `crash-${seed}.json` };
  // A scenario the loader refuses is a harness defect; the finding is still reported, never hidden.
  let regressionError: string | undefined;
  let reproduction: Reproduction | undefined;
  try {
    const { suite } = regressionYaml(input, regressionName);
    // Before it is written, the scenario runs against the target it was found on: it must fail there.
    reproduction = await reproduces(options.operator, suite.scenarios[0]!);
  } catch (error) {
    regressionError = (error as Error).message;
  }
  writeFileSync(regressionFile, regressionText({ ...input, ...(reproduction ? { reproduction } : {}) }, regressionName));
  return {
    flaky: found.flaky,
    detail,
    message,
    commands,
    reduction: found.reduction,
    path: found.path,
    crashFile,
    regressionFile,
    ...(reproduction ? { reproduction } : {}),
    ...(regressionError ? { regressionError } : {}),
  };
}

/** Whether a regression scenario fails against the operator, as it must to stand for the finding. */
async function reproduces(operator: HttpRole, scenario: Scenario): Promise<Reproduction> {
  const target: ScenarioTarget = {
    httpRole: (role) => (role === 'operator' ? operator : undefined),
    payingApp: undefined,
    capabilities: (role) => (role === 'operator' ? new Set(FUZZ_CAPABILITIES) : new Set()),
    adapterKind: (role) => (role === 'operator' ? operator.kind : undefined),
    credential: () => undefined,
  };
  const result = await executeScenario(scenario, target, { levelOf: (id) => findRequirement(id)?.level ?? scenario.level, rerun: (id) => `cpr-conformance run --scenario FILE --only ${id}` });
  if (result.status === 'failed') return { reproduces: true, note: `it fails against ${operator.description}: ${firstLine(result.reason)}` };
  return { reproduces: false, note: `it did not fail against ${operator.description}, where the fuzzer found the difference (it ${result.status === 'error' ? `ended in error ${result.error_code ?? ''}` : result.status}${result.reason ? `: ${firstLine(result.reason)}` : ''})` };
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0]!.slice(0, 300);
}

export interface ReplayOutcome {
  readonly fixed: boolean;
  readonly detail?: MismatchDetail;
  readonly message?: string;
  /** The target's policy differs from the one the crash was found with: the commands may mean something else. */
  readonly policyChanged: boolean;
  readonly ops: number;
}

/** Runs a crash file's command sequence once against fresh state. */
export async function replayCrash(operator: HttpRole, crash: CrashFile): Promise<ReplayOutcome> {
  const context = await openContext(operator);
  const { operator_kid: _a, ...now } = context.policyDocument;
  const { operator_kid: _b, ...then } = crash.policy ?? context.policyDocument;
  const policyChanged = JSON.stringify(now) !== JSON.stringify(then);
  try {
    const record = await runOnce(context, [crash.setup], crash.commands.map((spec) => new FuzzCommand(spec)), () => false);
    if (record.error === undefined) return { fixed: true, policyChanged, ops: context.client.ops };
    if (record.error instanceof Mismatch) return { fixed: false, detail: record.error.detail, message: record.error.message, policyChanged, ops: context.client.ops };
    throw toHarnessError(record.error);
  } finally {
    await releaseClock(context);
  }
}

/** A frozen clock runs again from where it stands, as after a scenario. */
async function releaseClock(context: FuzzContext): Promise<void> {
  try {
    await context.client.send(jsonRequest('POST', '/_control/clock', { freeze: false }));
  } catch {
    // Best effort: the outcome is decided; an unreachable target was already reported.
  }
}

function toHarnessError(error: unknown): HarnessError {
  if (error instanceof HarnessError) return error;
  if (error instanceof TransportError) {
    return new HarnessError('HARNESS_TARGET_UNREACHABLE', `the operator stopped answering: ${error.code}: ${error.message}`, 'is it still running? A finding needs answers to compare');
  }
  if (error instanceof HarnessFault) {
    return new HarnessError('CONFIG_INVALID', error.message, "the fuzzer sets up fresh state through the target's test control (PROFILE.md §12); it must answer as the profile describes");
  }
  return new HarnessError('HARNESS_INTERNAL', (error as Error)?.stack ?? String(error));
}
