// Which scenarios a run executes: --only (scenario ID, requirement ID, or a prefix
// of either), --role, plus any extra scenario files (--scenario).
import type { Role } from '../../profile/registry.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import type { Scenario, Suite } from '../scenarios/types.ts';

export interface Selection {
  readonly only: readonly string[];
  readonly roles: readonly Role[];
}

/** What selection looks at: a scenario or a property. */
type Selectable = Pick<Scenario, 'id' | 'requirements' | 'role'> & { readonly suite?: string };

function selects(test: Selectable, selection: Selection): boolean {
  if (selection.roles.length > 0 && !selection.roles.includes(test.role)) return false;
  if (selection.only.length === 0) return true;
  const names = [test.id, ...test.requirements, ...(test.suite ? [test.suite] : [])];
  return selection.only.some((pattern) => names.some((name) => name === pattern || name.startsWith(pattern.endsWith('-') ? pattern : `${pattern}-`) || name.startsWith(pattern)));
}

export function selectScenarios(suites: readonly Suite[], selection: Selection): Scenario[] {
  return suites.flatMap((s) => s.scenarios).filter((s) => selects(s, selection));
}

export function selectProperties(properties: readonly PropertyDefinition[], selection: Selection): PropertyDefinition[] {
  return properties.filter((p) => selects({ ...p, suite: 'properties' }, selection));
}
