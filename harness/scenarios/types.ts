// Scenario files as loaded: validated, with line numbers for every step and check.
import type { Level, Role } from '../../profile/registry.ts';
import type { Capability } from '../../profile/control.ts';
import type { AdapterKind } from '../adapters/types.ts';
import type { ActionName, CheckName } from './vocabulary.ts';

export interface CheckEntry {
  readonly name: CheckName;
  readonly arg: unknown;
  /** What the check looks at; the step's result when absent. */
  readonly on?: unknown;
  readonly requirement?: string;
  readonly line: number;
}

export interface Step {
  /** 0-based position among its siblings (the scenario's steps, or a repeat's). */
  readonly index: number;
  /** How reports name the step: "3", or "5.2" for the second step inside step 5 (a repeat). */
  readonly label: string;
  readonly action: ActionName;
  readonly params: Readonly<Record<string, unknown>>;
  readonly as?: string;
  readonly expect: readonly CheckEntry[];
  /**
   * Set on a setup step: the requirement its checks prove (given, or the
   * action's own, vocabulary.ts ActionSpec.setupRequirement). A failure there ends the
   * test as HARNESS_SETUP_FAILED under this requirement.
   */
  readonly setup?: string;
  /** The steps a `repeat` runs. */
  readonly body?: readonly Step[];
  readonly line: number;
}

export interface Scenario {
  readonly id: string;
  /** A template reads `${policy}`: the Operator Policy Document is fetched before the first step. */
  readonly readsPolicy?: true;
  readonly title: string;
  readonly requirements: readonly string[];
  readonly level: Level;
  readonly role: Role;
  readonly needs: readonly Capability[];
  readonly adapters?: readonly AdapterKind[];
  readonly info?: string;
  readonly steps: readonly Step[];
  /** Relative to the project root, e.g. `suites/cpr/5.1-retrieval-token.yaml`. */
  readonly file: string;
  readonly line: number;
  readonly sections: readonly string[];
  readonly suite: string;
}

export interface Suite {
  readonly file: string;
  readonly suite: string;
  readonly title: string;
  readonly sections: readonly string[];
  readonly role: Role;
  readonly info?: string;
  /** A fuzzer regression that did not fail where its finding was made: its passing proves nothing. */
  readonly reproduces?: false;
  readonly scenarios: readonly Scenario[];
}
