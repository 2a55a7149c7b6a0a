// Runs one scenario against a target and returns its TestResult; the run engine
// (runner/plan.ts) drives it. Outcomes (STYLE.md §5):
//   not-applicable  the target lacks the role or the adapter kind the scenario needs,
//                   or does not meet a precondition (`assume`)
//   skipped         a test-control capability is missing (named)
//   error           the harness or the target's test control failed: never a
//                   conformance result; or a setup step's check failed
//                   (HARNESS_SETUP_FAILED: an observed failure of the setup's own
//                   requirement, the ones under test not exercised)
//   failed          a check of the scenario failed
//   passed          every check of every step passed (a scenario with no check cannot pass)
//
// A failed outcome check (status, problem, accepted, ...) ends the scenario: the
// target's state is no longer the one later steps assume. Any other failed check
// is recorded and the scenario goes on, so later independent checks are still
// evaluated and reported.
import type { Level } from '../../profile/registry.ts';
import type { Basis, CheckResult, Outcome, TestResult } from '../report/model.ts';
import { rawBodyFits } from './actions/cashpack.ts';
import { ACTION_IMPLEMENTATIONS, adoptClock, BALANCE_REQUIREMENT, balanceRefused, bearerRefused, exactClockForPolicy, failedHandover, GRANT_REQUIREMENTS, grantedOperation, grantedOtherwise, HANDOVER_REQUIREMENT, KEPT_REQUIREMENTS, notePackDepths, policyOf, renewalChanged, sendsRenewals } from './actions/index.ts';
import { Params } from './params.ts';
import { CHECK_IMPLEMENTATIONS, comparedMember, statusMatches, type Judgement } from './checks.ts';
import type { TestErrorCode } from '../errors.ts';
import { ScenarioContext, StepError, stepErrorFields, type ScenarioTarget } from './context.ts';
import { send } from './http.ts';
import { referencedNames, render, TemplateError } from './template.ts';
import type { CheckEntry, Scenario, Step } from './types.ts';
import { extraRequirements, extrasAreForm, gatesLaterChecks, judgesBodyForm } from './vocabulary.ts';
import { checkClock, unmovedClock, watchClock } from './clock-watch.ts';
import { parseTimestamp } from '../../profile/time.ts';

interface ExecuteOptions {
  readonly levelOf: (requirement: string) => Level;
  /** The command that reruns one scenario, given its ID. */
  readonly rerun: (id: string) => string;
}

/** The most iterations a `repeat` runs; a target whose values ask for more makes the scenario not applicable. */
const MAX_ITERATIONS = 10_000;

/** The fields every result of a scenario carries, whatever its outcome. */
function scenarioResult(scenario: Scenario, status: Outcome, rerun: string, durationMs: number): TestResult {
  return {
    id: scenario.id,
    title: scenario.title,
    kind: 'scenario',
    file: scenario.file,
    sections: scenario.sections,
    requirements: scenario.requirements,
    level: scenario.level,
    role: scenario.role,
    status,
    duration_ms: Math.round(durationMs),
    checks: [],
    transcript: [],
    rerun,
  };
}

/** Where the scenario's story broke, if it did. */
interface Progress {
  /** Failed checks of the scenario (not of setup steps), in order. */
  readonly failures: string[];
  /** A setup step's check failed: the requirement and what was seen. */
  setup?: { readonly step: Step; readonly requirement: string; readonly what: string };
  /** Why the scenario stopped before its end, if it did. */
  stopped?: string;
}

export async function executeScenario(scenario: Scenario, target: ScenarioTarget, options: ExecuteOptions): Promise<TestResult> {
  const ctx = new ScenarioContext(target, scenario, options.levelOf);
  // A clock moved under the scenario by someone else makes whatever it saw a harness error (clock-watch.ts).
  return unmovedClock(ctx, await runScenario(ctx, scenario, target, options));
}

async function runScenario(ctx: ScenarioContext, scenario: Scenario, target: ScenarioTarget, options: ExecuteOptions): Promise<TestResult> {
  const started = performance.now();
  const finish = (status: Outcome, reason?: string, extra: Partial<TestResult> = {}): TestResult => ({
    ...scenarioResult(scenario, status, options.rerun(scenario.id), performance.now() - started),
    ...(reason !== undefined ? { reason } : {}),
    checks: ctx.checks,
    ...(ctx.notEvaluated.length > 0 ? { not_evaluated: ctx.notEvaluated } : {}),
    transcript: ctx.transcript,
    ...extra,
  });

  const unmet = applicability(scenario, target);
  if (unmet) return finish(unmet.outcome, unmet.reason, { ...(unmet.missing ? { missing_capabilities: unmet.missing } : {}), ...(unmet.basis ? { basis: unmet.basis } : {}) });

  const harnessError = (code: TestErrorCode, reason: string) => finish('error', reason, { error_code: code });
  const progress: Progress = { failures: [] };
  try {
    await syncClock(ctx);
    await exactClockForPolicy(ctx);
    if (scenario.readsPolicy) ctx.vars['policy'] = await policyOf(ctx);
    await runSteps(ctx, scenario.steps, progress);
  } catch (error) {
    const where = ctx.stepLabel === undefined ? 'before the first step' : `step ${ctx.stepLabel}`;
    if (error instanceof StepError) {
      // A setup call answered otherwise than its own rule says (a test-control call refused): observed under that rule.
      if (error.setupRequirement !== undefined) {
        const requirement = error.setupRequirement;
        ctx.checks.push({ check: 'setup', requirement, level: ctx.levelOf(requirement), passed: false, expected: `an answer as ${requirement} says`, actual: error.message, message: `${where} failed ${requirement}`, setup: true, ...stepOf(ctx) });
        if (progress.failures.length === 0) return harnessError('HARNESS_SETUP_FAILED', `${where} failed ${requirement}: ${error.message}; ${scenario.requirements.join(', ')} not exercised`);
      }
      // What the scenario observed before the step that could not be carried out still stands.
      if (progress.failures.length > 0) return finish('failed', `${failureReason(progress)}; then ${where} could not be carried out: ${error.message}`);
      const { reason, ...fields } = stepErrorFields(error, `${where}: ${error.message}`);
      return finish(error.outcome, reason, fields);
    }
    return harnessError('HARNESS_INTERNAL', `${where}: harness failure: ${(error as Error)?.stack ?? String(error)}`);
  } finally {
    await releaseClock(ctx);
  }
  if (progress.setup) {
    const { step, requirement, what } = progress.setup;
    const untested = scenario.requirements.join(', ');
    return harnessError('HARNESS_SETUP_FAILED', `setup step ${step.label} (${step.action}, line ${step.line}) failed ${requirement}: ${what}; ${untested} not exercised`);
  }
  if (progress.failures.length > 0) return finish('failed', failureReason(progress));
  if (ctx.checks.length === 0) return harnessError('SCENARIO_INVALID', 'the scenario checked nothing; a scenario without a check cannot pass');
  return finish('passed');
}

function stepOf(ctx: ScenarioContext): { step?: string } {
  return ctx.stepLabel === undefined ? {} : { step: ctx.stepLabel };
}

function failureReason(progress: Progress): string {
  const more = progress.failures.length > 1 ? ` (and ${progress.failures.length - 1} more failed check${progress.failures.length > 2 ? 's' : ''})` : '';
  return `${progress.failures[0]!}${more}${progress.stopped ? `; ${progress.stopped}` : ''}`;
}

/** Runs steps in order until the story breaks; returns false when the scenario must stop. */
async function runSteps(ctx: ScenarioContext, steps: readonly Step[], progress: Progress, iteration = ''): Promise<boolean> {
  for (const step of steps) {
    ctx.stepLabel = `${step.label}${iteration}`;
    const go = step.body ? await runRepeat(ctx, step, progress) : await runStep(ctx, step, progress);
    if (!go) return false;
  }
  return true;
}

async function runRepeat(ctx: ScenarioContext, step: Step, progress: Progress): Promise<boolean> {
  const rendered = renderValues(ctx, step, () => render(step.params, ctx.scope()) as { times: unknown }, progress);
  if (rendered === undefined) return false;
  const times = Number(rendered.times);
  if (!Number.isSafeInteger(times) || times < 0) throw new StepError('error', `repeat: times must be a whole number of at least 0, not ${JSON.stringify(rendered.times)}`);
  if (times > MAX_ITERATIONS) throw new StepError('skipped', `repeat: the target's values ask for ${times} iterations, more than the ${MAX_ITERATIONS} a scenario walks`);
  for (let i = 0; i < times; i++) {
    ctx.vars['i'] = i;
    if (!(await runSteps(ctx, step.body!, progress, ` (i=${i})`))) return false;
  }
  return true;
}

/** Whether a step expects the Operator's body limit to refuse it: PAYLOAD_TOO_LARGE, or 413. */
const expectsTooLarge = (step: Step): boolean => step.expect.some((e) => (e.name === 'problem' && e.arg === 'PAYLOAD_TOO_LARGE') || (e.name === 'status' && e.arg === 413));

/** Runs one step and its checks; returns false when the scenario must stop. */
async function runStep(ctx: ScenarioContext, step: Step, progress: Progress): Promise<boolean> {
  const params = renderValues(ctx, step, () => render(step.params, ctx.scope()) as Record<string, unknown>, progress);
  if (params === undefined) return false;
  // A raw request (or raw copies sent at once) the target's own body limit refuses whatever the step expects: the step does
  // not fit this target (rawBodyFits), judged on each request as it is sent. Built messages are judged by their actions (fitsBodyLimit).
  const raw = step.action === 'http' || (step.action === 'parallel' && params.of === undefined && params.steps === undefined);
  if (raw) ctx.beforeSend = (role, request) => (role === 'operator' ? rawBodyFits(ctx, request, expectsTooLarge(step)) : Promise.resolve());
  let result: unknown;
  try {
    result = await ACTION_IMPLEMENTATIONS[step.action as Exclude<typeof step.action, 'repeat'>](ctx, new Params(step.action, params));
  } finally {
    if (raw) ctx.beforeSend = undefined;
  }
  if (step.as) {
    ctx.vars[step.as] = result;
    if (step.setup !== undefined) ctx.setupCaptures.set(step.as, step);
    else ctx.setupCaptures.delete(step.as);
  }
  const setup = step.setup !== undefined && !ctx.scenario.requirements.includes(step.setup) ? step.setup : undefined;
  // An operation granted with another status than 200, one by the pack's own bearer refused BEARER_MISMATCH, or a
  // renewal granted without handing the pack over: the step's checks, and the later steps, presume the answer the
  // profile gives (guardFinding).
  const guarded = await guardFinding(ctx, step, params, result);
  // Every step's granted packs, sent alone, in parallel or raw (the one place they are noted).
  notePackDepths(ctx, result);
  if (guarded !== undefined) {
    recordGuard(ctx, step, guarded, setup, progress);
    return false;
  }
  let stop = false;
  // The answer a check presumes: once an outcome check saw another answer, the checks after it are about an answer that never came.
  let differed: { readonly after: string; readonly stage: number } | undefined;
  for (const check of inEvaluationOrder(step.expect)) {
    if (differed !== undefined && checkStage(check) > differed.stage) {
      ctx.notEvaluated.push(...ownRequirements(ctx, check, setup).map((requirement) => ({ check: check.name, requirement, ...stepOf(ctx), after: differed!.after })));
      continue;
    }
    const scope = ctx.scope(result);
    const inputs = renderValues(ctx, step, () => ({ arg: render(check.arg, scope), subject: check.on === undefined ? result : render(check.on, scope) }), progress, check);
    if (inputs === undefined) return false;
    const charged = ownRequirements(ctx, check, setup);
    const v = await CHECK_IMPLEMENTATIONS[check.name](ctx, inputs.arg, inputs.subject, check.arg, charged);
    if (v.precondition) continue;
    const { own, extras } = checkResults(ctx, check, v, charged, setup !== undefined);
    ctx.checks.push(...own, ...extras);
    const gating = gatesLaterChecks(check.name) && !(check.requirement !== undefined && ctx.levelOf(check.requirement) === 'PROFILE' && ctx.scenario.level !== 'PROFILE');
    if (gating && own.some((e) => !e.passed)) differed ??= { after: `${check.name} (${own.map((e) => e.requirement).join(', ')})`, stage: checkStage(check) };
    for (const entry of [...own, ...extras].filter((e) => !e.passed)) {
      const member = entry.check === check.name ? comparedMember(check.arg) : undefined;
      const what = `${entry.check}${member === undefined ? '' : ` ${member}`} (${entry.requirement}): expected ${brief(entry.expected)}, got ${brief(entry.actual)}`;
      if (entry.setup) {
        progress.setup ??= { step, requirement: entry.requirement, what };
        stop = true;
      } else {
        progress.failures.push(`step ${step.label} (${step.action}, line ${step.line}): ${what}`);
        // Only the check's own verdict judges the outcome; its extras (a profile status beside the right code) never stop the story.
        if (gating && own.includes(entry)) stop = true;
      }
    }
  }
  if (stop && !progress.setup) progress.stopped = `the scenario stopped after step ${step.label}: its outcome differed, so later steps would not test what they claim`;
  return !stop;
}

/**
 * Whether a step's checks say its renewal was to be refused: a status that is
 * not 200, a problem, or statuses that all exclude 200. A renewal granted there
 * broke the rule those checks judge, whatever pack it returned.
 */
function refusalDue(checks: readonly CheckEntry[]): boolean {
  return checks.some((c) => {
    if (c.name === 'problem') return true;
    if (c.name === 'status') return !isTemplate(c.arg) && !statusMatches(200, c.arg);
    if (c.name === 'all') {
      const status = (c.arg as { status?: unknown } | undefined)?.status;
      return status !== undefined && !isTemplate(status) && !statusMatches(200, status);
    }
    return false;
  });
}

/**
 * The codes PROFILE.md §5 checks after the bearer (renew and redeem step 8):
 * a request that is due one of these has passed the bearer check first, so a
 * BEARER_MISMATCH for the pack's own bearer is the bearer check's fault, not
 * the order's nor the rule the scenario tests.
 */
const AFTER_BEARER: Readonly<Record<string, readonly string[]>> = {
  renew: ['CHAIN_DIGEST_MISMATCH', 'CHAIN_DEPTH_EXCEEDED'],
  redeem: ['REDEEMER_NOT_IDENTIFIED'],
};

/** A renewal or redemption (grantedOperation) whose refusal due is named, by its problem checks, as one of the codes checked after the bearer only. */
function dueAfterBearer(operation: string | undefined, checks: readonly CheckEntry[]): boolean {
  const after = operation !== undefined && Object.hasOwn(AFTER_BEARER, operation) ? AFTER_BEARER[operation] : undefined;
  const codes = checks.filter((c) => c.name === 'problem').map((c) => c.arg);
  return after !== undefined && codes.length > 0 && codes.every((c) => typeof c === 'string' && after.includes(c));
}

function isTemplate(value: unknown): boolean {
  return typeof value === 'string' && value.includes('${');
}

/** What a guard found wrong with a step's answer, before the step's own checks. */
interface GuardFinding {
  readonly check: 'grant' | 'handover' | 'kept' | 'bearer' | 'balance';
  readonly requirement: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
  /** The finding in one line, for the test's reason. */
  readonly what: string;
  /** Why the scenario stops there. */
  readonly why: string;
}

/**
 * What the harness judges on every step that issues, renews or redeems, whatever
 * the scenario lists, before the step's own checks, unless those checks say a
 * refusal was due (then the grant itself is what they charge; the bearer guard
 * still stands when every code due is one PROFILE.md §5 checks after the
 * bearer, AFTER_BEARER):
 *
 *   grant     the operation (grantedOperation) granted answers 200
 *             (GRANT_REQUIREMENTS: CPP-ISS-1, CPP-RNW-1, CPP-RED-1); one granted
 *             with another success status is charged to the operation, never
 *             to every scenario that issues a pack to test something else, nor
 *             to the rule of a form the grant accepted
 *   bearer    a renewal or redemption by the key the presented pack (the
 *             latest version seen) names as its current bearer is not refused
 *             BEARER_MISMATCH (GRANT_REQUIREMENTS: CPP-RNW-1, CPP-RED-1); the
 *             scenario sends it to test something else: alone, raw (http) or
 *             in a race none of whose requests on that pack was granted, and
 *             also where the refusal due is one checked after the bearer
 *   balance   a Lock Request refused INSUFFICIENT_BALANCE while the balance,
 *             read right after it (the clock frozen, or no pack of the
 *             scenario expiring in between), holds the amount
 *             (BALANCE_REQUIREMENT, CPP-BAL-1): the scenario issues a pack to
 *             test something else
 *   handover  every renewal answered 200 names the new bearer in
 *             current_bearer_pk (HANDOVER_REQUIREMENT, CPP-RNW-1); every later
 *             check presumes it (the losers of a race refused as by the new
 *             bearer's pack, the redemptions, renewals and status reads that act
 *             as that bearer)
 *   kept      every renewal answered 200 keeps the members of the pack as the
 *             Operator issued it (amount, asset, expiry, initial_bearer_pk:
 *             CPP-RNW-1; issued_at: PRF-MSG-1); every later check presumes the
 *             pack it renewed
 *
 * Guards, as the clock watch is: they record only what they found wrong (a
 * scenario about the rule checks what it claims itself; a pass recorded for
 * every renewal would also make a race's checks depend on which request won).
 */
async function guardFinding(ctx: ScenarioContext, step: Step, params: Readonly<Record<string, unknown>>, result: unknown): Promise<GuardFinding | undefined> {
  const due = refusalDue(step.expect);
  const refused = !due || dueAfterBearer(grantedOperation(step.action, params), step.expect) ? bearerRefused(ctx, step.action, params, result) : undefined;
  if (due && refused === undefined) return undefined;
  if (refused !== undefined) {
    const requirement = GRANT_REQUIREMENTS[refused.operation]!;
    return {
      check: 'bearer',
      requirement,
      expected: { bearer: refused.bearer },
      actual: { status: 403, code: 'BEARER_MISMATCH' },
      message: `the ${refused.operation} by the key the pack names as its current bearer (the same x, PROFILE.md §2.1) was refused BEARER_MISMATCH`,
      what: `bearer (${requirement}): the pack's current bearer refused BEARER_MISMATCH`,
      why: `the ${refused.operation} by the pack's own bearer was refused, so what follows would test nothing`,
    };
  }
  const short = due ? undefined : await balanceRefused(ctx, step.action, params, result);
  if (short !== undefined) {
    return {
      check: 'balance',
      requirement: BALANCE_REQUIREMENT,
      expected: { amount: short.amount, balance: short.balance },
      actual: { status: 422, code: 'INSUFFICIENT_BALANCE' },
      message: `a Lock Request for ${short.amount} was refused INSUFFICIENT_BALANCE, and the Principal's balance read right after it, with no pack of the scenario expiring in between, holds that much in the asset asked for (PROFILE.md §5 issue step 9: equal is allowed)`,
      what: `balance (${BALANCE_REQUIREMENT}): ${short.amount} refused INSUFFICIENT_BALANCE with at least that much available`,
      why: 'the Operator refused funds the Principal has, so what follows would test nothing',
    };
  }
  const grant = grantedOtherwise(step.action, params, result);
  if (grant !== undefined) {
    const requirement = GRANT_REQUIREMENTS[grant.operation]!;
    return {
      check: 'grant',
      requirement,
      expected: grant.expected,
      actual: grant.actual,
      message: `the ${grant.operation} was granted with HTTP ${grant.actual}, where PROFILE.md §5 grants it with 200`,
      what: `grant (${requirement}): expected HTTP ${grant.expected}, got ${grant.actual}`,
      why: `the ${grant.operation} was granted with another status than 200, so what follows would test nothing`,
    };
  }
  const handover = failedHandover(step.action, params, result);
  if (handover !== undefined) {
    const requirement = HANDOVER_REQUIREMENT;
    return {
      check: 'handover',
      requirement,
      expected: handover.expected,
      actual: handover.actual,
      message: 'the renewal was granted but the pack does not name the new bearer in current_bearer_pk',
      what: `handover (${requirement}): expected current_bearer_pk ${brief(handover.expected)}, got ${brief(handover.actual)}`,
      why: 'a renewal was granted without handing the pack over, so what follows, acting as the new bearer, would test nothing',
    };
  }
  const changed = renewalChanged(ctx, step.action, params, result);
  if (changed !== undefined) {
    const { member, requirement } = changed;
    return {
      check: 'kept',
      requirement,
      expected: { [member]: changed.expected },
      actual: { [member]: changed.actual },
      message: `the renewal was granted but the pack's ${member} is not the one it was issued with (PROFILE.md §4.3, §5 renew step 11: a renewal keeps every member but renewal_chain, chain_digest, current_bearer_pk, operator_kid and signature)`,
      what: `kept (${requirement}): the renewed pack's ${member} changed from ${brief(changed.expected)} to ${brief(changed.actual)}`,
      why: 'a renewal was granted with another pack than the one renewed, so what follows would test nothing',
    };
  }
  return undefined;
}

/**
 * A guard's finding, recorded once under its rule (a failed setup when the step
 * is one); the step's own checks are listed as not evaluated and the scenario
 * stops there.
 */
function recordGuard(ctx: ScenarioContext, step: Step, found: GuardFinding, setup: string | undefined, progress: Progress): void {
  const { check, requirement, expected, actual, message, what } = found;
  ctx.checks.push({ check, requirement, level: ctx.levelOf(requirement), passed: false, ...stepOf(ctx), expected, actual, message, ...(setup !== undefined ? { setup: true as const } : {}) });
  if (setup !== undefined) progress.setup ??= { step, requirement, what };
  else progress.failures.push(`step ${step.label} (${step.action}, line ${step.line}): ${what}`);
  const after = `${check} (${requirement})`;
  for (const entry of step.expect) ctx.notEvaluated.push(...ownRequirements(ctx, entry, setup).map((id) => ({ check: entry.name, requirement: id, ...stepOf(ctx), after })));
  if (!progress.setup) progress.stopped = `the scenario stopped at step ${step.label}: ${found.why}`;
}

/**
 * The order a step's checks are judged in: preconditions, then the outcome
 * (status, problem code, accepted, rejected: each judges the answer itself, so
 * all are judged), then the body's media type, then everything about the body
 * and the state. A failed outcome means the answer is not the one the later
 * checks presume (a problem body where a pack was due), and a body in another
 * media type is not the document they read, so they are not evaluated and
 * charge nothing; only the checks that saw the difference do.
 */
function checkStage(check: CheckEntry): number {
  if (check.name === 'assume') return 0;
  if (judgesBodyForm(check.name)) return 2;
  if (gatesLaterChecks(check.name)) return 1;
  return 3;
}

function inEvaluationOrder(checks: readonly CheckEntry[]): CheckEntry[] {
  return checks.map((check, index) => ({ check, index })).sort((a, b) => checkStage(a.check) - checkStage(b.check) || a.index - b.index).map((e) => e.check);
}

/** The results a check records: its own (under each requirement it proves) and its extras (under theirs). */
function checkResults(ctx: ScenarioContext, check: CheckEntry, v: Judgement, charged: readonly string[], setup: boolean): { own: CheckResult[]; extras: CheckResult[] } {
  const mark = setup ? { setup: true as const } : {};
  const own = charged.map((requirement) => {
    const j = v.under?.[requirement] ?? v;
    return { check: check.name, requirement, level: ctx.levelOf(requirement), passed: j.passed, ...stepOf(ctx), expected: j.expected, actual: j.actual, message: j.message, ...mark };
  });
  const declared = extraRequirements(check.name, check.arg, ctx.scenario.role);
  const undeclared = (v.extra ?? []).filter((x) => !declared.includes(x.requirement));
  if (undeclared.length > 0) throw new Error(`check ${check.name} charged ${undeclared.map((x) => x.requirement).join(', ')} outside its declared charges (vocabulary.ts CheckSpec.charges)`);
  // The form of a refusal a setup needed is a rule of its own: a failure there is that rule's, and the setup still holds (CheckSpec.formExtras).
  const extraMark = extrasAreForm(check.name) ? {} : mark;
  const extras = (v.extra ?? []).map((x) => ({ check: x.check, requirement: x.requirement, level: ctx.levelOf(x.requirement), passed: x.passed, ...stepOf(ctx), expected: x.expected, actual: x.actual, message: x.message, ...extraMark }));
  return { own, extras };
}

/**
 * Templates evaluated for a step or a check. A value that is not there is read
 * from an earlier answer of the target:
 *   - after a failure, the step depends on what failed: not evaluated, the scenario stops;
 *   - from a setup step's capture: that setup failed (its answer lacks what a conformant one has);
 *   - otherwise: a failed observation of the scenario (the answer lacks what this step needs).
 * Any other exception is the harness's own and propagates (HARNESS_INTERNAL).
 */
function renderValues<T>(ctx: ScenarioContext, step: Step, evaluate: () => T, progress: Progress, check?: CheckEntry): T | undefined {
  try {
    return evaluate();
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    const what = `${check ? check.name : step.action}: ${error.message}`;
    if (progress.failures.length > 0 || progress.setup) {
      progress.stopped ??= `step ${step.label} was not evaluated: it reads a value an earlier failed step did not produce (${error.message})`;
      return undefined;
    }
    const fromSetup = referencedNames(`\${${error.expression}}`).map((name) => ctx.setupCaptures.get(name)).find((s) => s !== undefined);
    const setup = fromSetup?.setup !== undefined && !ctx.scenario.requirements.includes(fromSetup.setup) ? fromSetup : undefined;
    const requirements = setup ? [setup.setup!] : attribution(ctx.scenario, check?.requirement);
    ctx.checks.push(
      ...requirements.map((requirement) => ({
        check: check?.name ?? step.action,
        requirement,
        level: ctx.levelOf(requirement),
        passed: false,
        ...stepOf(ctx),
        expected: 'an answer holding the values this step reads',
        actual: error.message,
        message: 'the target answered without a value this step needs',
        ...(setup ? { setup: true as const } : {}),
      })),
    );
    if (setup) progress.setup ??= { step: setup, requirement: setup.setup!, what: `its answer lacks a value step ${step.label} reads: ${error.message}` };
    else progress.failures.push(`step ${step.label} (${step.action}, line ${step.line}): ${what}`);
    return undefined;
  }
}

/**
 * The result of a scenario that was not run: its role stopped answering
 * (HARNESS_TARGET_UNREACHABLE) or the run's time ran out (HARNESS_DEADLINE_EXCEEDED).
 * An error, never a conformance result (STYLE.md §5).
 */
export function unrunResult(scenario: Scenario, code: TestErrorCode, reason: string, rerun: string, durationMs = 0): TestResult {
  return { ...scenarioResult(scenario, 'error', rerun, durationMs), reason, error_code: code };
}

/** Why the scenario cannot run against this target at all (not applicable, or skipped), if it cannot. */
export function applicability(scenario: Scenario, target: ScenarioTarget): { outcome: Outcome; reason: string; missing?: string[]; basis?: Basis } | undefined {
  const kind = target.adapterKind(scenario.role);
  if (kind === undefined) return { outcome: 'not-applicable', reason: `the target has no ${scenario.role} role`, basis: 'spec' };
  if (scenario.adapters && !scenario.adapters.includes(kind)) {
    // The rule applies; this adapter cannot carry the test (a TLS rule through an in-process module, say).
    return { outcome: 'skipped', reason: `needs a ${scenario.adapters.join(' or ')} adapter for the ${scenario.role}; the target uses ${kind}` };
  }
  const have = target.capabilities(scenario.role);
  const missing = scenario.needs.filter((c) => !have.has(c));
  if (missing.length > 0) return { outcome: 'skipped', reason: `missing test-control capability: ${missing.join(', ')}`, missing };
  return undefined;
}

/** The requirements a check's own result goes to: a setup step's requirement when it names none, else its attribution. */
function ownRequirements(ctx: ScenarioContext, check: CheckEntry, setup: string | undefined): string[] {
  return setup !== undefined && check.requirement === undefined ? [setup] : attribution(ctx.scenario, check.requirement);
}

/**
 * Which requirements a check proves: the one it names, or else every requirement
 * of the scenario that no check names explicitly (the scenario's claim), so each
 * requirement a scenario lists is judged by what the scenario observed.
 */
function attribution(scenario: Scenario, named: string | undefined): string[] {
  if (named !== undefined) return [named];
  const explicit = new Set(allChecks(scenario.steps).flatMap((c) => (c.requirement ? [c.requirement] : [])));
  const open = scenario.requirements.filter((id) => !explicit.has(id));
  return open.length > 0 ? open : [scenario.requirements[0]!];
}

function allChecks(steps: readonly Step[]): CheckEntry[] {
  return allSteps(steps).flatMap((s) => s.expect);
}

/** Every requirement a scenario can judge: those it lists, those its checks name and their extras (CheckSpec.charges), the handover and kept members of every renewal it sends and the grant of every issue, renew and redeem (guardFinding), inside repeats too. */
export function scenarioRequirements(scenario: Pick<Scenario, 'requirements' | 'steps' | 'role'>): string[] {
  const handedOver = allSteps(scenario.steps).some((s) => sendsRenewals(s.action, s.params)) ? [HANDOVER_REQUIREMENT, ...KEPT_REQUIREMENTS] : [];
  const granted = allSteps(scenario.steps).flatMap((s) => {
    const operation = grantedOperation(s.action, s.params);
    return operation === undefined ? [] : [GRANT_REQUIREMENTS[operation]!];
  });
  // A Lock Request refused for funds the Principal has is the balance rule's (the balance guard).
  const funded = allSteps(scenario.steps).some((s) => s.action === 'issue') ? [BALANCE_REQUIREMENT] : [];
  return [...new Set([...scenario.requirements, ...allChecks(scenario.steps).flatMap((c) => [...(c.requirement ? [c.requirement] : []), ...extraRequirements(c.name, c.arg, scenario.role)]), ...handedOver, ...granted, ...funded])];
}

function allSteps(steps: readonly Step[]): Step[] {
  return steps.flatMap((s) => [s, ...allSteps(s.body ?? [])]);
}

/** With clock control, `now` is the target's clock; otherwise ours. The harness watches it from here on (clock-watch.ts). */
async function syncClock(ctx: ScenarioContext): Promise<void> {
  const role = ctx.scenario.role;
  if (role === 'paying-app' || !ctx.target.capabilities(role).has('clock')) return;
  const sentAt = Date.now();
  const result = await send(ctx, role, { method: 'GET', path: '/_control/clock' });
  ctx.transcript.pop(); // bookkeeping, not part of the scenario's story
  const state = result.body as { now: string; frozen: boolean } | undefined;
  if (result.status === 200 && state) {
    adoptClock(ctx, state);
    watchClock(ctx, role, { ms: parseTimestamp(state.now)!, frozen: state.frozen === true, sentAt, receivedAt: Date.now() });
  }
}

/**
 * At the end: is the clock where the scenario left it (clock-watch.ts)? Then a
 * scenario that froze the clock lets it run again (from where it stands), so
 * the next one starts clean.
 */
async function releaseClock(ctx: ScenarioContext): Promise<void> {
  await checkClock(ctx);
  const role = ctx.clockTouched;
  if (!role || role === 'paying-app') return;
  try {
    await ctx.http(role).send({ method: 'POST', path: '/_control/clock', headers: { 'content-type': 'application/json' }, body: '{"freeze":false}' });
  } catch {
    // The result is already decided; an unreachable target shows in the next scenario.
  }
}

function brief(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
