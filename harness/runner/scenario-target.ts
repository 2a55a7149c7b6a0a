// Presents an opened Target as the ScenarioTarget the engine needs. A role whose
// clock others could move unseen (clock control, no lease) reads it before each
// of the harness's own moves (scenarios/clock-watch.ts).
import type { Role } from '../../profile/registry.ts';
import type { HttpRole } from '../adapters/types.ts';
import { readBeforeClockMoves } from '../scenarios/clock-watch.ts';
import type { ScenarioTarget } from '../scenarios/context.ts';
import { discoverFacts, type TargetFacts } from '../target/facts.ts';
import type { Target } from '../target/target.ts';

/** Deadline of a fact read on first use (the run's own reads take its request timeout). */
export const FACTS_TIMEOUT_MS = 10_000;

const NONE: ReadonlySet<never> = new Set();

/**
 * `facts`: what the target publishes, as read when it opened (resolve-target.ts);
 * without them (a target opened by other means) they are read on first use,
 * once for every test.
 */
export function scenarioTarget(target: Target, facts?: TargetFacts): ScenarioTarget {
  let known: Promise<TargetFacts> | undefined = facts && Promise.resolve(facts);
  const watched = new Map<HttpRole, HttpRole>();
  const httpRole = (role: 'payee' | 'operator'): HttpRole | undefined => {
    const inner = target[role];
    const capabilities = target.capabilities[role];
    if (!inner || !capabilities.has('clock') || capabilities.has('lease')) return inner;
    if (!watched.has(inner)) watched.set(inner, readBeforeClockMoves(inner));
    return watched.get(inner);
  };
  return {
    httpRole,
    payingApp: target.payingApp,
    capabilities: (role: Role) => (role === 'paying-app' ? NONE : target.capabilities[role]),
    adapterKind: (role: Role) => (role === 'paying-app' ? target.payingApp?.kind : target[role]?.kind),
    credential: (of) => target.credentials.operator[of],
    ...(target.hostGuard !== undefined ? { hostGuard: target.hostGuard } : {}),
    ...(target.stub !== undefined ? { stub: target.stub } : {}),
    controlLease: (role) => target.config[role]?.controlLease,
    facts: () => (known ??= discoverFacts(target, FACTS_TIMEOUT_MS)),
  };
}
