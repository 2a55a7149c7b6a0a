// The campaign loop every role's fuzzer shares (the Operator's, the payee's and
// the paying application's): model runs, each against fresh state, until the
// time or run budget is spent or the model and the implementation disagree.
// Then, in three more phases:
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
//   reduce   the role's own pass over what shrinking left, within a count of runs
//
// A role plugs in through CampaignRole: what one model run's input is, how it
// runs against fresh state, how it is reduced, and how a thrown value becomes
// the harness error that ends the campaign (never a finding). Writing the crash
// file and the regression scenario is the role's, after the loop.
import fc from 'fast-check';
import type { HarnessError } from '../errors.ts';
import { interruptWhen } from '../interrupt-when.ts';
import { causeKey, sameCause, type Cause } from './cause.ts';
import { Mismatch, type MismatchDetail } from './mismatch.ts';

export type Budget = { readonly kind: 'time'; readonly ms: number } | { readonly kind: 'runs'; readonly runs: number };

export type Phase = 'explore' | 'shrink' | 'replay' | 'reduce' | 'done';

export interface CampaignProgress {
  readonly phase: Phase;
  /** Model runs while exploring. */
  readonly runs: number;
  /** Model runs while shrinking. */
  readonly shrinks: number;
  /** Runs of the reduction after shrinking. */
  readonly reductions: number;
  /** Operations sent to the target (HTTP requests, paying-application calls). */
  readonly ops: number;
  readonly failures: number;
  readonly elapsedMs: number;
  readonly budget: Budget;
}

/** What a failing run left: the difference, and the command sequence that ran up to it. */
export interface Failing {
  readonly detail: MismatchDetail;
  readonly message: string;
}

/** One model run: a Mismatch (a finding, `failing` its record) or another error (a harness fault), or neither. */
export interface RunRecord<F extends Failing> {
  readonly failing?: F;
  readonly error?: unknown;
}

export interface CampaignRole<I, F extends Failing> {
  /** One model run's input: what fast-check generates and shrinks. */
  readonly input: fc.Arbitrary<I>;
  /** Runs one input against fresh state; `halted` turns true when the phase's deadline has passed. */
  run(input: I, halted: () => boolean): Promise<RunRecord<F>>;
  /** A copy of an input that can run again (stateful parts cloned); the input itself when none. */
  fresh?(input: I): I;
  /** The pass after shrinking, in at most `attempts` runs, each told to `onAttempt`. */
  reduce(failing: F, attempts: number, onAttempt: () => void): Promise<F & { readonly attempts: number }>;
  /** The failing run's command sequence as text. */
  commands(failing: F): string[];
  /** The harness error a thrown value ends the campaign with. */
  harnessError(error: unknown): HarnessError;
  /** Operations sent so far, for the progress line and the throughput. */
  ops(): number;
}

/**
 * Default bound of shrinking under a run budget: the Operator's faults of the
 * fuzzer's own tests shrink in 4 to 140 runs.
 */
export const SHRINK_RUNS = 500;

interface EngineOptions {
  readonly seed: number;
  readonly budget: Budget;
  /**
   * Time bound of the shrinking phase; default: half the time budget, at least
   * 10 s and at most 120 s; with a run budget 120 s, a safety net behind shrinkRuns.
   */
  readonly shrinkMs?: number;
  /**
   * Most model runs shrinking makes; default SHRINK_RUNS with a run budget (a
   * campaign bounded by counts shrinks by a count too, so load cannot change
   * what it finds), none with a time budget.
   */
  readonly shrinkRuns?: number;
  /** Runs the reduction after shrinking makes at most; default 100, 0 for none. */
  readonly reduceAttempts?: number;
  readonly onProgress?: (progress: CampaignProgress) => void;
  /** Default 250 ms. */
  readonly progressIntervalMs?: number;
}

/** What the campaign of a role other than the Operator's is given besides the role itself. */
export interface RoleCampaignOptions extends EngineOptions {
  /** Most commands of one model run (each role has its default). */
  readonly maxCommands?: number;
  /** Where the crash file and the regression scenario go (created when something is found). */
  readonly outDir: string;
  /** Shown in the crash file. */
  readonly targetName: string;
  /** The command line that reproduces the campaign, for the files. */
  readonly reproduce?: string;
}

/** A finding, shrunk, replayed and reduced. */
export interface Found<F extends Failing> {
  /** The reduced run (the shrunk one when flaky: a flaky finding is not reduced). */
  readonly failing: F;
  readonly flaky: boolean;
  /** fast-check's counterexample path. */
  readonly path: string;
  /** fast-check's rendering of the shrunk counterexample. */
  readonly counterexample: string;
  /** What the reduction did: its runs, and the sequence the shrinker had left it. */
  readonly reduction: { readonly attempts: number; readonly shrunk: readonly string[] };
}

export interface EngineResult<F extends Failing> {
  readonly seed: number;
  readonly runs: number;
  readonly shrinks: number;
  readonly reductions: number;
  readonly ops: number;
  readonly elapsedMs: number;
  /** Operations per second over the whole campaign. */
  readonly opsPerSecond: number;
  readonly found?: Found<F>;
  /** Other causes runs failed with while shrinking and replaying: not followed, never hidden (each once). */
  readonly otherCauses: readonly Cause[];
}

/** Runs the reduction makes at most unless told otherwise. */
export const DEFAULT_REDUCE_ATTEMPTS = 100;

const MAX_RUNS = 2 ** 31 - 1;

interface EngineState<F extends Failing> {
  phase: Phase;
  /** When the current phase stops starting runs (performance.now()). */
  deadline: number;
  runs: number;
  shrinks: number;
  /** Most shrinking runs. */
  readonly shrinkRuns: number;
  failures: number;
  reductions: number;
  /** A harness fault: it ends the campaign. */
  fault: unknown;
  /** The cause of the failure exploring found: shrinking and replaying follow it alone. */
  cause: Cause | undefined;
  /** Causes other than the finding's that runs failed with while shrinking or replaying, by key. */
  readonly otherCauses: Map<string, Cause>;
  lastFailing: F | undefined;
  readonly inflight: Set<Promise<void>>;
}

export async function runEngine<I, F extends Failing>(options: EngineOptions, role: CampaignRole<I, F>): Promise<EngineResult<F>> {
  const started = performance.now();
  const budget = options.budget;
  const shrinkMs = options.shrinkMs ?? (budget.kind === 'time' ? Math.min(Math.max(budget.ms / 2, 10_000), 120_000) : 120_000);
  const state: EngineState<F> = {
    phase: 'explore',
    shrinkRuns: options.shrinkRuns ?? (budget.kind === 'runs' ? SHRINK_RUNS : Number.POSITIVE_INFINITY),
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
    ops: role.ops(),
    failures: state.failures,
    elapsedMs: performance.now() - started,
    budget,
  });
  const timer = options.onProgress ? setInterval(() => options.onProgress!(snapshot()), options.progressIntervalMs ?? 250) : undefined;
  timer?.unref();
  const { property, settle } = campaignProperty(role, state);

  const finish = (found: Found<F> | undefined): EngineResult<F> => {
    const elapsedMs = performance.now() - started;
    options.onProgress?.({ ...snapshot(), phase: 'done' });
    return {
      seed: options.seed,
      runs: state.runs,
      shrinks: state.shrinks,
      reductions: state.reductions,
      ops: role.ops(),
      elapsedMs,
      opsPerSecond: role.ops() / Math.max(elapsedMs / 1000, 0.001),
      ...(found ? { found } : {}),
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
      // The count ends shrinking as the time limit does: fast-check stops asking for candidates at once.
      plugins: [fc.interruptAfterTimeLimit(shrinkMs), interruptWhen(() => state.shrinks >= state.shrinkRuns)],
    });
    await settle();

    state.phase = 'replay';
    state.deadline = Number.POSITIVE_INFINITY;
    const replayed = await replayFinding(role, state, explore, shrunk);

    state.phase = 'reduce';
    const shrunkCommands = role.commands(replayed.failing);
    let reduced: F & { readonly attempts: number } = { ...replayed.failing, attempts: 0 };
    if (!replayed.flaky) {
      try {
        reduced = await role.reduce(replayed.failing, options.reduceAttempts ?? DEFAULT_REDUCE_ATTEMPTS, () => void state.reductions++);
      } catch (error) {
        throw role.harnessError(error);
      }
    }
    const { attempts, ...failing } = reduced;
    return finish({ ...replayed, failing: failing as unknown as F, reduction: { attempts, shrunk: shrunkCommands } });
  } finally {
    if (timer) clearInterval(timer);
    state.phase = 'done';
  }
}

/**
 * The model run as a fast-check property: each run counts toward exploring or
 * shrinking, a Mismatch fails it (while shrinking, only a Mismatch with the
 * finding's cause: one with another cause is noted and passes, so the shrinker
 * never trades the finding for another), and a harness fault ends the campaign
 * (every later run passes at once, so nothing shrinks). `settle` waits for the
 * runs a time limit left in flight and rethrows a fault.
 */
function campaignProperty<I, F extends Failing>(role: CampaignRole<I, F>, state: EngineState<F>) {
  const halted = () => state.fault !== undefined || performance.now() >= state.deadline;
  const property = fc.asyncProperty(role.input, (input) => {
    const run = (async () => {
      if (halted()) return;
      if (state.phase === 'explore') state.runs += 1;
      else state.shrinks += 1;
      const record = await role.run(input, halted);
      if (record.error === undefined) return;
      if (record.error instanceof Mismatch) {
        if (!followed(state, record.error.detail.cause)) return;
        if (state.phase === 'explore') state.failures += 1;
        state.lastFailing = record.failing;
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
    if (state.fault !== undefined) throw role.harnessError(state.fault);
  };
  return { property, settle };
}

/** Whether a failure with this cause is the one the campaign follows: any while exploring, then the finding's alone (others are noted). */
function followed(state: EngineState<Failing>, cause: Cause): boolean {
  if (state.phase === 'explore' || state.cause === undefined || sameCause(cause, state.cause)) return true;
  state.otherCauses.set(causeKey(cause), cause);
  return false;
}

/**
 * Runs the smallest counterexample once more, from fresh state: a finding that
 * does not fail again with its cause (or did not shrink) is flaky, and is
 * written as such.
 */
async function replayFinding<I, F extends Failing>(role: CampaignRole<I, F>, state: EngineState<F>, explore: fc.RunDetails<unknown>, shrunk: fc.RunDetails<unknown>) {
  const final = shrunk.failed && shrunk.counterexample !== null ? shrunk : explore;
  const [input] = final.counterexample as [I];
  const replay = await role.run(role.fresh ? role.fresh(input) : input, () => false);
  if (replay.error !== undefined && !(replay.error instanceof Mismatch)) throw role.harnessError(replay.error);
  const reproduced = replay.error instanceof Mismatch && replay.failing !== undefined && followed(state, replay.error.detail.cause);
  const failing = reproduced ? replay.failing : state.lastFailing;
  if (!failing) throw role.harnessError(new Error('a failure was found but no failing run was recorded'));
  return { failing, flaky: !(reproduced && shrunk.failed), path: final.counterexamplePath ?? '', counterexample: fc.stringify(final.counterexample) };
}
