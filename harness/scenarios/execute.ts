// Runs one scenario against a target and returns its TestResult: the engine the
// vitest runtime (and anything else) drives. Outcomes (STYLE.md §5):
//   not-applicable  the target lacks the role or the adapter kind the scenario needs
//   skipped         a test-control capability is missing (named)
//   error           the harness or the target's test control failed: never a conformance result
//   failed          a check failed: the first step with a failed check ends the scenario
//   passed          every check of every step passed (a scenario with no check cannot pass)
import type { Level } from '../../profile/registry.ts';
import type { CheckResult, Outcome, TestResult } from '../report/model.ts';
import { ACTION_IMPLEMENTATIONS, adoptClock } from './actions.ts';
import { CHECK_IMPLEMENTATIONS } from './checks.ts';
import { ScenarioContext, StepError, type ErrorCode, type ScenarioTarget } from './context.ts';
import { send } from './http.ts';
import { render, TemplateError } from './template.ts';
import type { Scenario, Step } from './types.ts';

export interface ExecuteOptions {
  readonly levelOf: (requirement: string) => Level;
  /** The command that reruns one scenario, given its ID. */
  readonly rerun: (id: string) => string;
}

/** The fields every result of a scenario carries, whatever its outcome. */
export function scenarioResult(scenario: Scenario, status: Outcome, rerun: string, durationMs: number): TestResult {
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

export async function executeScenario(scenario: Scenario, target: ScenarioTarget, options: ExecuteOptions): Promise<TestResult> {
  const started = performance.now();
  const ctx = new ScenarioContext(target, scenario, options.levelOf);
  const finish = (status: Outcome, reason?: string, extra: Partial<TestResult> = {}): TestResult => ({
    ...scenarioResult(scenario, status, options.rerun(scenario.id), performance.now() - started),
    ...(reason !== undefined ? { reason } : {}),
    checks: ctx.checks,
    transcript: ctx.transcript,
    ...extra,
  });

  const unmet = applicability(scenario, target);
  if (unmet) return finish(unmet.outcome, unmet.reason, unmet.missing ? { missing_capabilities: unmet.missing } : {});

  const harnessError = (code: ErrorCode, reason: string) => finish('error', reason, { error_code: code });
  try {
    await syncClock(ctx);
    for (const step of scenario.steps) {
      ctx.stepIndex = step.index;
      const failed = await runStep(ctx, step);
      if (failed) return finish('failed', `step ${step.index + 1} (${step.action}, line ${step.line}): ${failed}`);
    }
    if (ctx.checks.length === 0) return harnessError('SCENARIO_INVALID', 'the scenario checked nothing; a scenario without a check cannot pass');
    return finish('passed');
  } catch (error) {
    if (error instanceof StepError) {
      const reason = `step ${ctx.stepIndex + 1}: ${error.message}`;
      return error.outcome === 'error' ? harnessError(error.code ?? 'HARNESS_STEP_FAILED', reason) : finish(error.outcome, reason);
    }
    return harnessError('HARNESS_INTERNAL', `step ${ctx.stepIndex + 1}: harness failure: ${(error as Error)?.stack ?? String(error)}`);
  } finally {
    await releaseClock(ctx);
  }
}

/**
 * The result of a scenario that was not run: its role stopped answering
 * (HARNESS_TARGET_UNREACHABLE) or the run's time ran out (HARNESS_DEADLINE_EXCEEDED).
 * An error, never a conformance result (STYLE.md §5).
 */
export function unrunResult(scenario: Scenario, code: ErrorCode, reason: string, rerun: string, durationMs = 0): TestResult {
  return { ...scenarioResult(scenario, 'error', rerun, durationMs), reason, error_code: code };
}

/** Why the scenario cannot run against this target at all (not applicable, or skipped), if it cannot. */
export function applicability(scenario: Scenario, target: ScenarioTarget): { outcome: Outcome; reason: string; missing?: string[] } | undefined {
  const kind = target.adapterKind(scenario.role);
  if (kind === undefined) return { outcome: 'not-applicable', reason: `the target has no ${scenario.role} role` };
  if (scenario.adapters && !scenario.adapters.includes(kind)) {
    return { outcome: 'not-applicable', reason: `needs a ${scenario.adapters.join(' or ')} adapter for the ${scenario.role}; the target uses ${kind}` };
  }
  const have = target.capabilities(scenario.role);
  const missing = scenario.needs.filter((c) => !have.has(c));
  if (missing.length > 0) return { outcome: 'skipped', reason: `missing test-control capability: ${missing.join(', ')}`, missing };
  return undefined;
}

/**
 * A template that cannot be evaluated because an earlier answer of the target
 * lacks what it reads (a rejection where a CPR was due, say) is a failed
 * observation, not a harness error: every scenario passes on the reference, so
 * the scenario itself reads what a conformant answer has.
 */
function missingValue(ctx: ScenarioContext, step: Step, check: string, requirement: string | undefined, error: Error): CheckResult[] {
  return attribution(ctx.scenario, requirement).map((id) => ({
    check,
    requirement: id,
    level: ctx.levelOf(id),
    passed: false,
    step: step.index,
    expected: 'an answer holding the values this step reads',
    actual: error.message,
    message: 'the target answered without a value this step needs',
  }));
}

function renderOrMissing<T>(ctx: ScenarioContext, step: Step, check: string, requirement: string | undefined, evaluate: () => T): { value: T } | { missing: CheckResult[] } {
  try {
    return { value: evaluate() };
  } catch (error) {
    if (error instanceof TemplateError || error instanceof TypeError) return { missing: missingValue(ctx, step, check, requirement, error) };
    throw error;
  }
}

/** Returns the message of the first failed check of the step, if any. */
async function runStep(ctx: ScenarioContext, step: Step): Promise<string | undefined> {
  const rendered = renderOrMissing(ctx, step, step.action, undefined, () => render(step.params, ctx.scope()) as Record<string, unknown>);
  if ('missing' in rendered) {
    ctx.checks.push(...rendered.missing);
    return `${step.action}: ${rendered.missing[0]!.actual as string}`;
  }
  const result = await ACTION_IMPLEMENTATIONS[step.action](ctx, rendered.value);
  if (step.as) ctx.vars[step.as] = result;
  let firstFailure: string | undefined;
  for (const check of step.expect) {
    const scope = ctx.scope(result);
    const inputs = renderOrMissing(ctx, step, check.name, check.requirement, () => ({
      arg: render(check.arg, scope),
      subject: check.on === undefined ? result : render(check.on, scope),
    }));
    if ('missing' in inputs) {
      ctx.checks.push(...inputs.missing);
      firstFailure ??= `${check.name}: ${inputs.missing[0]!.actual as string}`;
      continue;
    }
    const { arg, subject } = inputs.value;
    const v = await CHECK_IMPLEMENTATIONS[check.name](ctx, arg, subject);
    if (v.precondition) continue;
    const entries: CheckResult[] = [
      ...attribution(ctx.scenario, check.requirement).map((requirement) => ({
        check: check.name,
        requirement,
        level: check.level ?? ctx.levelOf(requirement),
        passed: v.passed,
        step: step.index,
        expected: v.expected,
        actual: v.actual,
        message: v.message,
      })),
      ...(v.extra ?? []).map((x) => ({ check: x.check, requirement: x.requirement, level: ctx.levelOf(x.requirement), passed: x.passed, step: step.index, expected: x.expected, actual: x.actual, message: x.message })),
    ];
    ctx.checks.push(...entries);
    const failed = entries.find((e) => !e.passed);
    if (failed && firstFailure === undefined) firstFailure = `${failed.check} (${failed.requirement}): expected ${brief(failed.expected)}, got ${brief(failed.actual)}`;
  }
  return firstFailure;
}

/**
 * Which requirements a check proves: the one it names, or else every requirement
 * of the scenario that no check names explicitly (the scenario's claim), so each
 * requirement a scenario lists is judged by what the scenario observed.
 */
function attribution(scenario: Scenario, named: string | undefined): string[] {
  if (named !== undefined) return [named];
  const explicit = new Set(scenario.steps.flatMap((s) => s.expect.flatMap((c) => (c.requirement ? [c.requirement] : []))));
  const open = scenario.requirements.filter((id) => !explicit.has(id));
  return open.length > 0 ? open : [scenario.requirements[0]!];
}

/** With clock control, `now` is the target's clock; otherwise ours. */
async function syncClock(ctx: ScenarioContext): Promise<void> {
  const role = ctx.scenario.role;
  if (role === 'paying-app' || !ctx.target.capabilities(role).has('clock')) return;
  const result = await send(ctx, role, { method: 'GET', path: '/_control/clock' });
  ctx.transcript.pop(); // bookkeeping, not part of the scenario's story
  const state = result.body as { now: string; frozen: boolean } | undefined;
  if (result.status === 200 && state) adoptClock(ctx, state);
}

/** A scenario that froze the clock lets it run again (from where it stands), so the next one starts clean. */
async function releaseClock(ctx: ScenarioContext): Promise<void> {
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
