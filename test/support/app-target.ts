// A scenario target that is a paying application alone (the module adapter), for property tests.
import type { PayingAppRole } from '../../harness/adapters/types.ts';
import type { ScenarioTarget } from '../../harness/scenarios/context.ts';

export const appTarget = (payingApp: PayingAppRole): ScenarioTarget => ({
  httpRole: () => undefined,
  payingApp,
  capabilities: () => new Set(),
  adapterKind: (role) => (role === 'paying-app' ? 'module' : undefined),
  credential: () => undefined,
});
