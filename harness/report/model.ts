// The canonical result model (report.json). Every other output (terminal, JUnit,
// Markdown, HTML, Allure) is a view of this; schema: report.schema.json.
import type { Level, Role } from '../../profile/registry.ts';

export const REPORT_SCHEMA_VERSION = 1;

/** What happened to one test (a scenario or a property). */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'not-applicable' | 'error';

/** What the run says about one requirement of the registry. */
export type RequirementStatus = 'passed' | 'failed' | 'warning' | 'skipped' | 'not-applicable' | 'uncovered';

export type Verdict = 'conformant' | 'non-conformant' | 'error';

/** One named check (STYLE.md §4): what was expected and what was seen. */
export interface CheckResult {
  /** The check's name, e.g. `status`, `problem`, `schema`, `exactly_one`. */
  readonly check: string;
  /** The requirement this check proves (a registry ID). */
  readonly requirement: string;
  readonly level: Level;
  readonly passed: boolean;
  /** Index of the step (0-based) whose result was checked. */
  readonly step: number;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
}

/** One request and its response, as sent and as received (bodies capped). */
export interface Exchange {
  readonly step: number;
  readonly role: Role;
  readonly request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body?: string };
  readonly response?: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body?: string; readonly truncated?: boolean };
  /** A transport failure instead of a response (timeout, reset, TLS failure). */
  readonly error?: string;
  readonly duration_ms: number;
}

export interface TestResult {
  /** Stable scenario or property ID, e.g. `TOK-ONCE-001`. */
  readonly id: string;
  readonly title: string;
  readonly kind: 'scenario' | 'property';
  /** The suite file, relative to the project root, e.g. `suites/5.1-retrieval-token.yaml`. */
  readonly file: string;
  readonly sections: readonly string[];
  readonly requirements: readonly string[];
  readonly level: Level;
  readonly role: Role;
  readonly status: Outcome;
  readonly duration_ms: number;
  /** Why it was skipped, not applicable, or errored (missing capability named). */
  readonly reason?: string;
  /**
   * With status `error`: a stable code saying why (STYLE.md §6), e.g.
   * HARNESS_TARGET_UNREACHABLE (no answer, or the role stopped answering and the
   * test was not run), HARNESS_DEADLINE_EXCEEDED, HARNESS_STEP_FAILED,
   * SCENARIO_INVALID, HARNESS_INTERNAL.
   */
  readonly error_code?: string;
  readonly missing_capabilities?: readonly string[];
  readonly checks: readonly CheckResult[];
  readonly transcript: readonly Exchange[];
  /** The command that reruns this test alone. */
  readonly rerun: string;
  /** Property-based tests: the seed and path that reproduce a failure. */
  readonly seed?: number;
  readonly path?: string;
}

export interface RequirementResult {
  readonly id: string;
  readonly level: Level;
  readonly roles: readonly Role[];
  readonly sections: readonly string[];
  readonly family: string;
  readonly summary: string;
  readonly status: RequirementStatus;
  /** IDs of the tests that cover it. */
  readonly tests: readonly string[];
}

export interface RunInfo {
  readonly suite_version: string;
  readonly profile_version: string;
  readonly spec_versions: { readonly cpr: string; readonly cpp: string };
  /** The target with every secret redacted. */
  readonly target: TargetDescription;
  readonly seed: number;
  readonly started_at: string;
  readonly duration_ms: number;
  readonly node_version: string;
  readonly strict: boolean;
  readonly shard?: string;
  readonly baseline?: string;
  readonly command: readonly string[];
  /** True when the run was interrupted or stopped early: the results are partial. */
  readonly incomplete: boolean;
}

export interface TargetDescription {
  readonly name: string;
  readonly embedded: boolean;
  readonly roles: Readonly<Partial<Record<Role, { readonly adapter: string; readonly base_url?: string; readonly tls: 'verified' | 'insecure' | 'none' | 'in-process'; readonly capabilities: readonly string[] }>>>;
}

export interface Summary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly not_applicable: number;
  readonly error: number;
  /** SHOULD-level failures reported as warnings (not under --strict). */
  readonly warnings: number;
}

export interface BaselineDiff {
  /** Tests that failed and are not listed as known failures. */
  readonly new_failures: readonly string[];
  /** Known failures that now pass. */
  readonly unexpected_passes: readonly string[];
}

export interface HarnessIssue {
  readonly code: string;
  readonly message: string;
}

export interface Report {
  readonly schema_version: typeof REPORT_SCHEMA_VERSION;
  readonly verdict: Verdict;
  readonly run: RunInfo;
  readonly summary: Summary;
  readonly requirements: readonly RequirementResult[];
  readonly tests: readonly TestResult[];
  readonly baseline_diff?: BaselineDiff;
  /** Harness-level problems: they make the verdict `error`, never a conformance failure. */
  readonly errors: readonly HarnessIssue[];
}
