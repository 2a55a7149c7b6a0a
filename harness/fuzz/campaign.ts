// A fuzzing campaign of the Operator: model runs (fc.asyncModelRun over
// fc.commands, each against fresh state), explored, shrunk, replayed and
// reduced by the campaign loop every role shares (engine.ts), then written as
// DIR/crash-<seed>.json and DIR/regression-<seed>.yaml. An unreachable target
// or test control that refuses is a harness error (exit 2), never a finding.
import { HTTP_DEFAULTS } from '../adapters/http.ts';
import { answeredDocument, discoverFacts, POLICY_PATH, PUBKEY_PATH, type FactAnswer, type TargetFacts } from '../target/facts.ts';
import fc from 'fast-check';
import { operatorKeyOf, validateMessage, type PolicyDocument, type PubkeyDocument } from '../../profile/cashpack/index.ts';
import { TransportError, type HttpRole } from '../adapters/types.ts';
import { HarnessError } from '../errors.ts';
import { FuzzClient, jsonRequest, type ExchangeTap, type Races } from './client.ts';
import { commandsArbitrary, FuzzCommand } from './commands.ts';
import { describe } from './spec.ts';
import type { CrashFile } from './crash.ts';
import { Mismatch, type MismatchDetail } from './mismatch.ts';
import { writeFinding, type FoundFailure } from './findings.ts';
import { runEngine, type Budget, type CampaignProgress, type CampaignRole, type EngineResult, type Found } from './engine.ts';
import { reduceFinding, type FailingRun } from './reduce.ts';
import { modelPolicy } from './model.ts';
import { regressionText, type Reproduction } from './regression.ts';
import { findRequirement } from '../../profile/registry.ts';
import type { ScenarioTarget } from '../scenarios/context.ts';
import { executeScenario } from '../scenarios/execute.ts';
import type { Scenario } from '../scenarios/types.ts';
import { Run, type RunModel } from './lanes.ts';
import type { BalanceChoice, FuzzContext, RunSetup, World } from './world.ts';

export type { Budget, CampaignProgress, Phase } from './engine.ts';

export interface CampaignOptions {
  readonly operator: HttpRole;
  /** What the target publishes, as read when it opened (target/facts.ts); read from the operator when absent. */
  readonly facts?: TargetFacts;
  readonly seed: number;
  readonly budget: Budget;
  /** Time bound of the shrinking phase (engine.ts EngineOptions.shrinkMs). */
  readonly shrinkMs?: number;
  /** Most model runs shrinking makes (engine.ts EngineOptions.shrinkRuns). */
  readonly shrinkRuns?: number;
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
  /** Whether requests sent together race at the target (client.ts Races); default `on`. The benchmark turns them off to measure the replay's identity. */
  readonly races?: Races;
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

export type { FoundFailure } from './findings.ts';

/** The campaign loop's figures (engine.ts), and the finding written to files. */
export interface CampaignResult extends Omit<EngineResult<FailingRun>, 'found'> {
  readonly failure?: FoundFailure;
}

/** Most worlds one model run drives at once. */
export const MAX_LANES = 16;

/** The capabilities the fuzzer needs (PROFILE.md §12). */
export const FUZZ_CAPABILITIES = ['provision', 'clock', 'balance', 'cancel'] as const;

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const lanes = options.lanes ?? 1;
  if (!Number.isInteger(lanes) || lanes < 1 || lanes > MAX_LANES) throw new RangeError(`lanes is an integer from 1 to ${MAX_LANES}`);
  const context = await openContext(options.operator, options.tap, options.facts, options.races);
  try {
    const { found, ...result } = await runEngine(options, operatorRole(context, lanes, options.maxCommands ?? (lanes === 1 ? 30 : 90 * lanes)));
    return { ...result, ...(found ? { failure: await writeFindings(options, context, found) } : {}) };
  } finally {
    await releaseClock(context);
  }
}

type OperatorInput = [RunSetup[], Iterable<FuzzCommand>];

/** The Operator as a role of the campaign loop (engine.ts): lanes of worlds driven by fc.commands. */
function operatorRole(context: FuzzContext, lanes: number, maxCommands: number): CampaignRole<OperatorInput, FailingRun> {
  return {
    input: fc.tuple(fc.array(setupArbitrary, { minLength: lanes, maxLength: lanes }), commandsArbitrary(maxCommands, lanes)),
    async run([setups, commands], halted) {
      const record = await runOnce(context, setups, commands, halted);
      return { ...(record.error instanceof Mismatch ? { failing: failingRun(record.world!, record.error) } : {}), ...(record.error !== undefined ? { error: record.error } : {}) };
    },
    fresh: ([setups, commands]) => [setups, fc.cloneIfNeeded(commands)],
    // Each run of the reduction is one world, sequential, from fresh state.
    reduce: (failing, attempts, onAttempt) =>
      reduceFinding((setup, commands) => runOnce(context, [setup], commands.map((spec) => new FuzzCommand(spec)), () => false), failing, attempts, onAttempt),
    commands: (failing) => failing.commands.map(describe),
    harnessError: (error) => toHarnessError(error),
    ops: () => context.client.ops,
  };
}

function failingRun(world: World, error: Mismatch): FailingRun {
  return { setup: world.setup, commands: world.executed, world, detail: error.detail, message: error.message };
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
export async function openContext(operator: HttpRole, tap?: ExchangeTap, facts?: TargetFacts, races: Races = 'on'): Promise<FuzzContext> {
  const client = new FuzzClient(operator, tap, races);
  try {
    const { policy, key } = facts?.operator ?? (await discoverFacts({ operator }, HTTP_DEFAULTS.timeoutMs)).operator!;
    answered(policy);
    const policyBody = answeredDocument(policy);
    const check = validateMessage('policy', policyBody);
    if (policyBody === undefined || !check.ok) {
      throw new HarnessError('CONFIG_INVALID', `the Operator Policy Document could not be read (${answerText(policy)}${policyBody !== undefined && !check.ok ? `: ${check.errors.slice(0, 3).join('; ')}` : ''})`, `the fuzzer takes the policy from ${POLICY_PATH}; check CPP-WK-1 with: cpr-conformance run --only CPP-WK-1`);
    }
    answered(key);
    const keyBody = answeredDocument(key);
    const operatorKey = keyBody ? operatorKeyOf(keyBody as PubkeyDocument) : undefined;
    if (!operatorKey) throw new HarnessError('CONFIG_INVALID', `the Operator's key could not be read from ${PUBKEY_PATH} (${answerText(key)})`, 'check CPP-WK-2 with: cpr-conformance run --only CPP-WK-2');
    // GET, not HEAD: after HEAD answers the pool stopped reusing its connections (undici 7 against the reference).
    await Promise.all(Array.from({ length: 8 }, () => client.send({ method: 'GET', path: POLICY_PATH })));
    const policyDocument = policyBody as PolicyDocument;
    return { client, policyDocument, policy: modelPolicy(policyDocument), operatorKey };
  } catch (error) {
    throw toHarnessError(error);
  }
}

/** A document no answer came for: the operator is not answering, which no policy check can say. */
function answered(answer: FactAnswer): void {
  if ('no_answer' in answer) throw new HarnessError('HARNESS_TARGET_UNREACHABLE', `the operator did not answer GET ${answer.path}: ${answer.no_answer}`, 'is it still running? A finding needs answers to compare');
}

function answerText(answer: FactAnswer): string {
  return 'no_answer' in answer ? `no answer: ${answer.no_answer}` : `HTTP ${answer.status}${answer.truncated ? ', cut off at the body limit' : ''}`;
}

function writeFindings(options: CampaignOptions, context: FuzzContext, found: Found<FailingRun>): Promise<FoundFailure> {
  const { world } = found.failing;
  return writeFinding(found, options, {
    reproduce: `cpr-conformance fuzz --seed ${options.seed} --lanes ${options.lanes ?? 1}`,
    commands: world.executed.map(describe),
    crash: { policy: context.policyDocument, setup: found.failing.setup, commands: world.executed, exchanges: world.log.entries() },
    regression: (story) => regressionText({ ...story, world }),
    reproduces: (scenario) => operatorReproduces(options.operator, scenario),
  });
}

/** Whether a regression scenario fails against the operator, as it must to stand for the finding. */
function operatorReproduces(operator: HttpRole, scenario: Scenario): Promise<Reproduction> {
  const target: ScenarioTarget = {
    httpRole: (role) => (role === 'operator' ? operator : undefined),
    payingApp: undefined,
    capabilities: (role) => (role === 'operator' ? new Set(FUZZ_CAPABILITIES) : new Set()),
    adapterKind: (role) => (role === 'operator' ? operator.kind : undefined),
    credential: () => undefined,
  };
  return reproduces(target, operator.description, scenario);
}

/** Whether a regression scenario fails against the target where its finding was made, as it must to stand for the finding (every role's fuzzer asks). */
export async function reproduces(target: ScenarioTarget, description: string, scenario: Scenario): Promise<Reproduction> {
  const result = await executeScenario(scenario, target, { levelOf: (id) => findRequirement(id)?.level ?? scenario.level, rerun: (id) => `cpr-conformance run --scenario FILE --only ${id}` });
  if (result.status === 'failed') return { reproduces: true, note: `it fails against ${description}: ${firstLine(result.reason)}` };
  return { reproduces: false, note: `it did not fail against ${description}, where the fuzzer found the difference (it ${result.status === 'error' ? `ended in error ${result.error_code ?? ''}` : result.status}${result.reason ? `: ${firstLine(result.reason)}` : ''})` };
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
export async function releaseClock(context: { readonly client: FuzzClient }): Promise<void> {
  try {
    await context.client.send(jsonRequest('POST', '/_control/clock', { freeze: false }));
  } catch {
    // Best effort: the outcome is decided; an unreachable target was already reported.
  }
}

/** The harness error a thrown value ends a campaign with: its own (test control that refused is a HarnessFault), a target that stopped answering (`role` names it), or a defect of the harness. */
export function toHarnessError(error: unknown, role = 'operator'): HarnessError {
  if (error instanceof HarnessError) return error;
  if (error instanceof TransportError) {
    return new HarnessError('HARNESS_TARGET_UNREACHABLE', `the ${role} stopped answering: ${error.code}: ${error.message}`, 'is it still running? A finding needs answers to compare');
  }
  return new HarnessError('HARNESS_INTERNAL', (error as Error)?.stack ?? String(error));
}
