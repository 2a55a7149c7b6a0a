// Which tests of a plan run alone. Tests run side by side (plan.ts
// `concurrency`) because each provisions its own parties, requests and packs;
// what they share is the target's one clock and the target file's credentials
// (vocabulary.ts SharedState). Whether a test moves them is declared where the
// thing that moves them is defined, and only derived here:
//
//   an action       ACTIONS[name].shares (vocabulary.ts); an `http` or
//                   `parallel` step by its route (profile/control.ts
//                   SHARED_STATE_ROUTES), a templated path by its literal start
//   the engine      an Operator scenario runs on a frozen clock where the
//                   Operator's policy is tight (actions/exact-clock.ts exactClockForPolicy)
//   a property      PropertyDefinition.shares (properties/types.ts), the
//                   process's time zone included (an in-process paying
//                   application reads it)
//
// A test run beside others that sends a shared-state request anyway is stopped
// there as a harness error (confine), never judged: a declaration that is
// wrong shows up in the run, not as results that depend on timing.
import { movesSharedState, SHARED_STATE_ROUTES } from '../../profile/control.ts';
import { interceptSend } from '../adapters/intercept.ts';
import type { HttpRole } from '../adapters/types.ts';
import { tightPolicy, type Policy } from '../scenarios/actions/index.ts';
import { StepError, type ScenarioTarget } from '../scenarios/context.ts';
import type { Step } from '../scenarios/types.ts';
import { flatSteps } from '../scenarios/load.ts';
import { ACTIONS, type ActionSpec } from '../scenarios/vocabulary.ts';
import type { PlanTest } from './plan.ts';

/** What the run knows of the target that decides who runs alone. */
interface SharedStateFacts {
  /** The Operator's policy is tight, or could not be read (then assumed so). */
  readonly tightPolicy: boolean;
}

/**
 * Why the test must run alone against the target; undefined when it may run
 * beside others. `scope` is what it moves: `target`, the target's own state
 * (its clock, its lease), which a twin of the target has its own of; `process`,
 * what every target of the process shares (the time zone, the target file's
 * credentials).
 */
export function aloneReason(test: PlanTest, facts: SharedStateFacts): { readonly why: string; readonly scope: 'target' | 'process' } | undefined {
  const target = (why: string | undefined) => (why === undefined ? undefined : { why, scope: 'target' as const });
  const process = (why: string) => ({ why, scope: 'process' as const });
  if (test.kind === 'property') {
    const { shares } = test.property;
    if (shares === 'clock-if-tight-policy') return target(facts.tightPolicy ? "its setup freezes the Operator's clock under the target's tight policy" : undefined);
    if (shares === 'time-zone') return process("it sets the process's time zone, which an in-process paying application reads");
    // Alone in the process, never on a twin: a twin's lane runs beside tests of every role, whose in-process paying application would judge in that zone.
    if (shares === 'clock-and-time-zone') return process("it moves the target's clock and sets the process's time zone, which an in-process paying application reads");
    if (shares === 'credentials') return process("it moves the target's credentials");
    return target(shares && "it moves the target's clock");
  }
  const { scenario } = test;
  for (const step of flatSteps(scenario.steps)) {
    const moves = stepMoves(step);
    if (moves) return { why: `step ${step.label} ${moves.why}`, scope: moves.scope };
  }
  return target(scenario.role === 'operator' && facts.tightPolicy ? "an Operator scenario runs on a frozen clock under the target's tight policy" : undefined);
}

/** Why the test must run alone against the target; undefined when it may run beside others. */
export function runsAlone(test: PlanTest, facts: SharedStateFacts): string | undefined {
  return aloneReason(test, facts)?.why;
}

/** Whether any test of the plan runs alone only under a tight policy: then the policy is read first. */
export function needsPolicy(plan: readonly PlanTest[]): boolean {
  return plan.some((test) => (test.kind === 'scenario' ? test.scenario.role === 'operator' : test.property.shares === 'clock-if-tight-policy'));
}

/**
 * Whether the Operator's policy is tight (actions/policy.ts tightPolicy), read once
 * outside any test; a policy that cannot be read counts as tight, so that the
 * tests it decides run alone, as a sequential run would run them.
 */
export async function readTightPolicy(target: ScenarioTarget): Promise<boolean> {
  const operator = target.httpRole('operator');
  if (!operator) return false;
  try {
    const response = await operator.send({ method: 'GET', path: '/.well-known/cashpack-policy.json', headers: { accept: 'application/json' } });
    if (response.status !== 200) return true;
    const policy = JSON.parse(new TextDecoder().decode(response.body)) as Partial<Record<keyof Policy, unknown>>;
    const numbers = ['expiry_min_seconds', 'expiry_max_seconds', 'request_window_seconds'] as const;
    if (!numbers.every((name) => typeof policy[name] === 'number' && Number.isFinite(policy[name]))) return true;
    return tightPolicy(policy as Policy) !== undefined;
  } catch {
    return true;
  }
}

/**
 * The target as a test run beside others sees it: a request that moves shared
 * state is not sent, and the test ends in error (HARNESS_UNDECLARED_SHARED_STATE).
 */
export function confine(target: ScenarioTarget, id: string): ScenarioTarget {
  const roles = new Map<string, HttpRole | undefined>();
  return {
    ...target,
    httpRole: (role) => {
      if (!roles.has(role)) {
        const inner = target.httpRole(role);
        roles.set(
          role,
          inner &&
            interceptSend(inner, (request) => {
              if (!movesSharedState(request.method, request.path)) return inner.send(request);
              throw new StepError(
                'error',
                `not sent: ${request.method} ${request.path.split('?')[0]} moves state every test shares (PROFILE.md §12), and ${id} does not declare it, so it ran beside other tests`,
                'HARNESS_UNDECLARED_SHARED_STATE',
              );
            }),
        );
      }
      return roles.get(role);
    },
  };
}

/** What shared state the step moves, in words, and whose it is; undefined when none. */
function stepMoves(step: Step): { readonly why: string; readonly scope: 'target' | 'process' } | undefined {
  const shares = (ACTIONS[step.action] as ActionSpec).shares;
  if (shares) return { why: `(${step.action}) moves the target's ${shares}`, scope: shares === 'clock' ? 'target' : 'process' };
  if (step.action !== 'http' && step.action !== 'parallel') return undefined;
  const { method, path } = step.params;
  if (typeof path !== 'string' || typeof method !== 'string') return undefined;
  // The shared routes are the clock's and the lease's: the target's own state.
  return mayMoveSharedState(method, path) ? { why: `sends ${method} ${path}, a request that moves state every test shares`, scope: 'target' } : undefined;
}

/** A path with templates may name a shared route when its literal start could begin one. */
function mayMoveSharedState(method: string, path: string): boolean {
  const literal = path.split('${')[0]!;
  if (literal === path) return movesSharedState(method, path);
  if (!SHARED_STATE_ROUTES.some((route) => route.method === method.toUpperCase())) return false;
  return '/_control/'.startsWith(literal) || literal.startsWith('/_control/');
}
