// A property: a generator plus a check that must hold for every generated value,
// run against a target through the same adapters as the scenarios. Each names the
// requirements it covers, so the report counts it like a scenario.
import type fc from 'fast-check';
import type { Level, Role } from '../../profile/registry.ts';
import type { Capability } from '../../profile/control.ts';
import type { AdapterKind } from '../adapters/types.ts';
import type { Policy } from '../scenarios/actions/index.ts';
import type { ScenarioContext } from '../scenarios/context.ts';
import type { SharedState } from '../scenarios/vocabulary.ts';
import type { FieldClassId } from '../../generators/classes/catalogue.ts';

/** Why one generated case broke the property. */
export interface PropertyFailure {
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
  /**
   * The requirements whose rule this case broke, when the property judges
   * several: the failure is charged to these alone (its requirements and
   * charges), and the property's other requirements are listed as not
   * evaluated (the case stopped the run). Absent: every requirement of the
   * property.
   */
  readonly requirements?: readonly string[];
}

/**
 * A (field, class) pair of the field inventory (fields.ts) that a property
 * generates in every case and whose outcome it checks: what the README's
 * "Field coverage" table counts.
 */
export interface Coverage {
  /** A field id of the inventory. */
  readonly field: string;
  readonly class: FieldClassId;
  /** When the class is generated only for some targets (their policy allows it), which. */
  readonly when?: string;
}

export interface PropertyDefinition<T = unknown> {
  /** Stable ID, e.g. PROP-APP-001. */
  readonly id: string;
  readonly title: string;
  readonly requirements: readonly string[];
  /**
   * The requirements a failed case can be charged beside these: the rules a
   * CPR it was served can break (harness/cpr-charges.ts). A targeted run and
   * the coverage catalogue count them as judged by the property. A function,
   * as they are read from the registry: importing the catalogue reads nothing.
   */
  readonly charges?: () => readonly string[];
  readonly level: Level;
  readonly role: Role;
  readonly sections: readonly string[];
  readonly needs: readonly Capability[];
  /** Serves from the harness's retrieval stub (a paying application's token URIs): a run starts it, as for a scenario with stub-serve. */
  readonly stub?: boolean;
  readonly adapters?: readonly AdapterKind[];
  /** Runs per property when the run gives no budget. */
  readonly defaultRuns: number;
  /**
   * How many runs of a budget one case stands for (default 1): a case that
   * generates a member of every (field, class) pair the property covers does
   * the work of several ordinary cases, so the property runs ⌈runs ÷ weight⌉
   * cases, at least one. `--property-runs` scales them all alike.
   */
  readonly caseWeight?: number;
  /**
   * The generator. An operator property gets the target's Operator Policy
   * Document, so that its inputs sit at the target's own limits; it throws a
   * StepError.notApplicable('policy', ...) when the policy leaves it nothing to
   * generate, or StepError('skipped') when the generator cannot serve the policy.
   */
  readonly arbitrary: (target: PropertyEnvironment) => fc.Arbitrary<T>;
  /**
   * The requirements the target's policy leaves this property no case of (a
   * step no well-formed message can break there): a pass does not claim them,
   * so that a rule the policy makes vacuous stays not applicable, as its
   * scenarios say. A failure can still be charged to them.
   */
  readonly vacuousUnder?: (target: PropertyEnvironment) => readonly string[];
  /** Resolves to undefined when the property holds for `value`. */
  check(ctx: ScenarioContext, value: T): Promise<PropertyFailure | undefined>;
  /** The (field, class) pairs every case generates and checks; empty for a property that is about no field class. */
  readonly covers?: readonly Coverage[];
  /**
   * State every test against the target shares that the property moves
   * (vocabulary.ts SharedState): it then runs alone (runner/shared-state.ts).
   * `clock-if-tight-policy`: only where the Operator's policy is tight
   * (actions/policy.ts tightPolicy), when its setup freezes the clock.
   * `time-zone`: it sets the harness process's TZ, which a paying application
   * served in this process (the embedded reference's, a module adapter) reads.
   */
  readonly shares?: SharedState | 'clock-if-tight-policy' | 'time-zone' | 'clock-and-time-zone';
  /** Puts back what the cases changed on the target (a clock set to other dates, say); runs once after the last case. */
  teardown?(ctx: ScenarioContext): Promise<void>;
  /** The file that defines it, for reports. @defaultValue PROPERTIES_FILE */
  readonly file?: string;
}

/** What a property's generator may adapt to. */
interface PropertyEnvironment {
  /** The Operator Policy Document, for properties of the operator role. */
  readonly policy?: Policy;
  /** For properties of the paying-app role: the harness's retrieval stub also listens on ::1, so endpoints may name it by an IPv6 literal. */
  readonly stubIpv6?: boolean;
}

/** Where property results point in reports. */
export const PROPERTIES_FILE = 'harness/properties/catalogue.ts';
