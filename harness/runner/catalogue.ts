// What the suite covers, selected or not: each requirement's tests, so a report
// can tell a requirement this run did not select (`not-run`) from one no test
// covers (`uncovered`); and which roles decide a run's verdict.
import { ROLES, type Role } from '../../profile/registry.ts';
import { PROPERTIES } from '../properties/catalogue.ts';
import { propertyRequirements } from '../properties/execute.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import { loadSuites } from '../scenarios/load.ts';
import type { Scenario } from '../scenarios/types.ts';
import { scenarioRequirements } from '../scenarios/execute.ts';

/** Requirement ID -> the IDs of the scenarios and properties that cover it. */
export function suiteCatalogue(scenarios: readonly Scenario[], properties: readonly PropertyDefinition[] = PROPERTIES): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (requirement: string, test: string) => {
    const tests = out.get(requirement) ?? [];
    if (!tests.includes(test)) tests.push(test);
    out.set(requirement, tests);
  };
  for (const s of scenarios) for (const id of scenarioRequirements(s)) add(id, s.id);
  for (const p of properties) for (const id of propertyRequirements(p)) add(id, p.id);
  return out;
}

/** The catalogue of the committed suites and properties. */
export function committedCatalogue(): Map<string, string[]> {
  return suiteCatalogue(loadSuites().flatMap((s) => s.scenarios));
}

/** The roles whose requirements decide: the target's roles, narrowed by --role when given. */
export function scopeRoles(targetRoles: Iterable<string>, selected: readonly Role[]): Role[] {
  const has = new Set(targetRoles);
  return ROLES.filter((role) => has.has(role) && (selected.length === 0 || selected.includes(role)));
}
