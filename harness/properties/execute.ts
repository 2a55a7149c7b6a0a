// Runs one property with fast-check against a target and returns its TestResult
// (kind "property"). A failure carries the seed and fast-check's path, the shrunk
// counterexample, and the transcript of that minimal case.
import fc from 'fast-check';
import type { Level } from '../../profile/registry.ts';
import type { CheckResult, Exchange, TestResult } from '../report/model.ts';
import type { TestErrorCode } from '../errors.ts';
import { interruptWhen } from '../interrupt-when.ts';
import { ScenarioContext, StepError, stepErrorFields, type ScenarioTarget } from '../scenarios/context.ts';
import { policyOf } from '../scenarios/actions/index.ts';
import { rawBodyFits } from '../scenarios/actions/cashpack.ts';
import { TransportError } from '../adapters/types.ts';
import type { Scenario } from '../scenarios/types.ts';
import { PROPERTIES_FILE, type PropertyDefinition, type PropertyFailure } from './types.ts';

interface PropertyRunOptions {
  readonly seed: number;
  readonly runs?: number;
  /** Shrink candidates tried after the first failure; SHRINK_ATTEMPTS when absent. */
  readonly shrinkAttempts?: number;
  /** Wall-clock budget for one property; it stops early (and says so) past it. */
  readonly timeLimitMs?: number;
  readonly levelOf: (requirement: string) => Level;
  readonly rerun: (id: string) => string;
}

/** Shrink candidates tried after a property's first failure (each one a case sent to the target). */
export const SHRINK_ATTEMPTS = 200;

export async function executeProperty(def: PropertyDefinition, target: ScenarioTarget, options: PropertyRunOptions): Promise<TestResult> {
  const started = performance.now();
  const runs = Math.max(1, Math.ceil((options.runs ?? def.defaultRuns) / (def.caseWeight ?? 1)));
  // The context is shaped like a scenario's so properties share the engine's actions and transcript.
  const ctx = new ScenarioContext(target, asScenario(def), options.levelOf);
  // A case whose message the target's own body limit refuses judges nothing of what the property asks (its limit tests send theirs as over the limit).
  ctx.beforeSend = (role, request) => (role === 'operator' ? rawBodyFits(ctx, request, false, 'the property') : Promise.resolve());
  const base = {
    id: def.id,
    title: def.title,
    kind: 'property' as const,
    file: def.file ?? PROPERTIES_FILE,
    sections: def.sections,
    requirements: def.requirements,
    level: def.level,
    role: def.role,
    rerun: options.rerun(def.id),
    seed: options.seed,
  };
  const finish = (status: TestResult['status'], checks: CheckResult[], transcript: readonly Exchange[], extra: Partial<TestResult> = {}): TestResult => ({
    ...base,
    status,
    duration_ms: Math.round(performance.now() - started),
    checks,
    transcript,
    ...extra,
  });

  const kind = target.adapterKind(def.role);
  if (kind === undefined) return finish('not-applicable', [], [], { reason: `the target has no ${def.role} role`, basis: 'spec' });
  if (def.adapters && !def.adapters.includes(kind)) return finish('skipped', [], [], { reason: `needs a ${def.adapters.join(' or ')} adapter; the target uses ${kind}` });
  const missing = def.needs.filter((c) => !target.capabilities(def.role).has(c));
  if (missing.length > 0) return finish('skipped', [], [], { reason: `missing test-control capability: ${missing.join(', ')}`, missing_capabilities: missing });

  let arbitrary: fc.Arbitrary<unknown>;
  let vacuous: ReadonlySet<string> = new Set();
  try {
    const environment = def.role === 'operator' ? { policy: await policyOf(ctx) } : def.role === 'paying-app' ? { stubIpv6: target.stub?.ipv6 ?? false } : {};
    arbitrary = def.arbitrary(environment);
    vacuous = new Set(def.vacuousUnder?.(environment) ?? []);
  } catch (error) {
    if (!(error instanceof StepError)) throw error;
    return finish(error.outcome, [], ctx.transcript, stepErrorFields(error));
  }
  let last: { failure: PropertyFailure; transcript: Exchange[] } | undefined;
  let harnessError: StepError | Error | undefined;
  /** The exchanges of the case that threw it: the teardown's come after and are not its evidence. */
  let errorTranscript: Exchange[] | undefined;
  // Shrinking is bounded by a count of candidates, not by time: the smallest
  // failure found within SHRINK_ATTEMPTS candidates is the one reported.
  let shrinkAttempts = 0;
  const shrinkBudget = options.shrinkAttempts ?? SHRINK_ATTEMPTS;
  // A shrink candidate fails for the same cause as the first failure or counts as
  // holding: the target keeps what the failing case did to it (a pack redeemed
  // that should have been refused, say), and a smaller case meeting that state
  // can fail for another rule, which the fault did not break where it showed.
  let cause: string | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (last !== undefined) shrinkAttempts += 1;
    ctx.transcript.length = 0;
    try {
      const failure = await def.check(ctx, value);
      if (failure && cause !== undefined && causeOf(failure) !== cause) return true;
      if (failure) {
        cause ??= causeOf(failure);
        last = { failure, transcript: [...ctx.transcript] };
      }
      return failure === undefined;
    } catch (error) {
      harnessError = error as Error;
      errorTranscript = [...ctx.transcript];
      throw error;
    }
  });
  // Past its time limit the property stops before its next case, never within one (interrupt-when.ts): a case
  // left running would go on acting on the target, and on the process's time zone, beside the tests after it.
  const limitAt = performance.now() + (options.timeLimitMs || Number.POSITIVE_INFINITY);
  const details = await fc.check(withShrinkBudget(property, () => shrinkAttempts < shrinkBudget), {
    seed: options.seed,
    numRuns: runs,
    plugins: [interruptWhen(() => performance.now() >= limitAt)],
  });
  // What the cases changed on the target is put back whatever they found; a teardown that fails is the harness's own error.
  try {
    await def.teardown?.(ctx);
  } catch (error) {
    harnessError ??= error as Error;
  }

  if (harnessError) {
    // A teardown that failed keeps its own exchanges (errorTranscript is then unset).
    const transcript = errorTranscript ?? ctx.transcript;
    if (harnessError instanceof StepError) return finish(harnessError.outcome, setupChecks(harnessError, options), transcript, stepErrorFields(harnessError));
    const code = harnessError instanceof TransportError ? transportCode(harnessError) : 'HARNESS_INTERNAL';
    return finish('error', [], transcript, { reason: code === 'HARNESS_INTERNAL' ? `harness failure: ${harnessError.stack ?? harnessError.message}` : harnessError.message, error_code: code });
  }
  const ran = details.numRuns;
  if (details.failed && last) {
    const charged = last.failure.requirements?.filter((r) => propertyRequirements(def).includes(r)) ?? [];
    const only = charged.length > 0 ? { ...def, requirements: charged } : def;
    const checks = attributed(only, options, false, last.failure.expected, { counterexample: details.counterexample?.[0], seen: last.failure.actual }, last.failure.message);
    const notEvaluated = propertyRequirements(def).filter((r) => !only.requirements.includes(r)).map((requirement) => ({ check: 'property', requirement, after: `property (${only.requirements.join(', ')})` }));
    return finish('failed', checks, last.transcript, {
      reason: `falsified after ${ran} case(s), shrunk ${details.numShrinks} time(s)${shrinkBudget === 0 ? ' (not shrunk)' : shrinkAttempts >= shrinkBudget ? ` (shrinking stopped after ${shrinkBudget} candidates)` : ''}: ${last.failure.message}`,
      path: details.counterexamplePath ?? '',
      ...(notEvaluated.length > 0 ? { not_evaluated: notEvaluated } : {}),
    });
  }
  if (ran === 0) return finish('error', [], [], { reason: 'no generated case ran within the time limit' });
  const leftOut = [...ctx.leftOut];
  const left = leftOut.length > 0 ? `; left out: ${leftOut.join('; ')}` : '';
  const note = `${ran < runs ? ` (${ran} of ${runs} cases ran before the time limit)` : ''}${left}`;
  // A rule the target's policy left this property no case of is neither claimed nor covered by its pass: its scenarios say why it is vacuous.
  const claimed = propertyRequirements(def).filter((r) => !vacuous.has(r));
  const covered = vacuous.size > 0 ? { requirements: def.requirements.filter((r) => !vacuous.has(r)) } : {};
  return finish('passed', attributed({ requirements: claimed }, options, true, `${runs} generated cases hold`, `${ran} held${note}`, `${def.title}${note}`), [], { ...covered, ...(leftOut.length > 0 ? { left_out: leftOut } : {}) });
}

/** What a failure is charged to: a shrunk case must fail for the same requirements to stand for the first. */
function causeOf(failure: PropertyFailure): string {
  return failure.requirements === undefined ? '*' : [...failure.requirements].sort().join(' ');
}

/**
 * The property with its shrink candidates cut off once `more()` says so. The
 * cut is on the stream of candidates, not in the predicate: building a
 * candidate can cost as much as sending it (documents are signed and encoded).
 */
function withShrinkBudget<T>(property: fc.IAsyncPropertyWithHooks<[T]>, more: () => boolean): fc.IAsyncPropertyWithHooks<[T]> {
  return {
    isAsync: () => true,
    generate: (mrng, runId) => property.generate(mrng, runId),
    shrink: (value) => property.shrink(value).takeWhile(more),
    run: (value) => property.run(value),
    runBeforeEach: () => property.runBeforeEach(),
    runAfterEach: () => property.runAfterEach(),
    beforeEach: (hook) => property.beforeEach(hook),
    afterEach: (hook) => property.afterEach(hook),
  };
}

/** A failed setup's observation, under the requirement it observed failing (StepError.setupFailed); none for any other error. */
function setupChecks(error: StepError, options: PropertyRunOptions): CheckResult[] {
  const requirement = error.setupRequirement;
  if (requirement === undefined) return [];
  return [{ check: 'setup', requirement, level: options.levelOf(requirement), passed: false, expected: `an answer as ${requirement} says`, actual: error.message, message: 'a setup operation of the property failed its own requirement', setup: true }];
}

function attributed(def: Pick<PropertyDefinition, 'requirements'>, options: PropertyRunOptions, passed: boolean, expected: unknown, actual: unknown, message: string): CheckResult[] {
  return def.requirements.map((requirement) => ({ check: 'property', requirement, level: options.levelOf(requirement), passed, expected, actual, message }));
}

function asScenario(def: PropertyDefinition): Scenario {
  return {
    id: def.id,
    title: def.title,
    requirements: def.requirements,
    level: def.level,
    role: def.role,
    needs: def.needs,
    steps: [],
    file: def.file ?? PROPERTIES_FILE,
    line: 0,
    sections: def.sections,
    suite: 'properties',
  };
}

/** A call the adapter could not carry: a broken contract, or no answer. */
function transportCode(error: TransportError): TestErrorCode {
  return error.code === 'PROTOCOL' ? 'HARNESS_ADAPTER_PROTOCOL' : 'HARNESS_TARGET_UNREACHABLE';
}

/** Every requirement a property can judge: its own and those a failed case can be charged (PropertyDefinition.charges). */
export function propertyRequirements(def: Pick<PropertyDefinition, 'requirements' | 'charges'>): readonly string[] {
  return def.charges === undefined ? def.requirements : [...new Set([...def.requirements, ...def.charges()])];
}
