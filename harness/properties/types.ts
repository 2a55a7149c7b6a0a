// A property: a generator plus a check that must hold for every generated value,
// run against a target through the same adapters as the scenarios. Each names the
// requirements it covers, so the report counts it like a scenario.
import type fc from 'fast-check';
import type { Level, Role } from '../../profile/registry.ts';
import type { Capability } from '../../profile/control.ts';
import type { AdapterKind } from '../adapters/types.ts';
import type { Policy } from '../scenarios/actions.ts';
import type { ScenarioContext } from '../scenarios/context.ts';

/** Why one generated case broke the property. */
export interface PropertyFailure {
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
}

export interface PropertyDefinition<T = unknown> {
  /** Stable ID, e.g. PROP-APP-001. */
  readonly id: string;
  readonly title: string;
  readonly requirements: readonly string[];
  readonly level: Level;
  readonly role: Role;
  readonly sections: readonly string[];
  readonly needs: readonly Capability[];
  readonly adapters?: readonly AdapterKind[];
  /** Runs per property when the run gives no budget. */
  readonly defaultRuns: number;
  /**
   * The generator. An operator property gets the target's Operator Policy
   * Document, so that its inputs sit at the target's own limits; it throws a
   * StepError.notApplicable('policy', ...) when the policy leaves it nothing to
   * generate, or StepError('skipped') when the generator cannot serve the policy.
   */
  readonly arbitrary: (target: PropertyEnvironment) => fc.Arbitrary<T>;
  /** Resolves to undefined when the property holds for `value`. */
  check(ctx: ScenarioContext, value: T): Promise<PropertyFailure | undefined>;
}

/** What a property's generator may adapt to. */
interface PropertyEnvironment {
  /** The Operator Policy Document, for properties of the operator role. */
  readonly policy?: Policy;
}

/** Where property results point in reports. */
export const PROPERTIES_FILE = 'harness/properties/catalogue.ts';
