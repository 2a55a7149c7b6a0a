// Presents an opened Target as the ScenarioTarget the engine needs.
import type { Role } from '../../profile/registry.ts';
import type { ScenarioTarget } from '../scenarios/context.ts';
import type { Target } from '../target/target.ts';

const NONE: ReadonlySet<never> = new Set();

export function scenarioTarget(target: Target): ScenarioTarget {
  return {
    httpRole: (role) => target[role],
    payingApp: target.payingApp,
    capabilities: (role: Role) => (role === 'paying-app' ? NONE : target.capabilities[role]),
    adapterKind: (role: Role) => (role === 'paying-app' ? target.payingApp?.kind : target[role]?.kind),
    credential: (of) => target.credentials.operator[of],
    ...(target.hostGuard !== undefined ? { hostGuard: target.hostGuard } : {}),
    ...(target.stub !== undefined ? { stub: target.stub } : {}),
  };
}
