// The canonical result model (report.json). Every other output (terminal, JUnit,
// Markdown, HTML, Allure) is a view of this; schema: report.schema.json.
import type { RunIssueCode, TestErrorCode } from '../errors.ts';
import type { Level, Role } from '../../profile/registry.ts';

export const REPORT_SCHEMA_VERSION = 5;

/** What happened to one test (a scenario or a property). */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'not-applicable' | 'error';

/**
 * Why a test or a requirement is not applicable: never a gap in what was
 * exercised, so it does not block a conformant verdict.
 *   spec    the spec's own condition: the target does not offer the role, or an
 *           optional feature (a plaintext listener, say) the rule is about
 *   policy  the target's published policy makes the rule vacuous (no amount
 *           exceeds the largest amount there is; no pack reaches a depth whose
 *           renewal outgrows the body limit)
 * Anything else that keeps a test from running (a missing capability, an
 * adapter that cannot carry it, an input the harness could not build) is
 * `skipped`: not exercised.
 */
export type Basis = 'spec' | 'policy';

/**
 * What the run says about one requirement of the registry. Only `passed` and
 * `failed` (or `warning`, a failure at a level that does not decide) were
 * observed; `not-applicable` is a rule that does not apply to this target (the
 * spec's condition or its published policy, `basis` says which); every other
 * status means the requirement was not exercised:
 *   skipped         a covering test could not run here: a test-control capability the target lacks, an adapter that cannot carry it, an input the harness could not build
 *   error           a covering test ended in a harness error (HARNESS_*): never a conformance result
 *   not-reached     covering tests ran, but none reached a check of it (an earlier answer differed, say)
 *   not-run         tests cover it, but this run did not select them (--only, --role, --shard)
 *   uncovered       no scenario or property covers it: a hole in the suite
 */
export type RequirementStatus = 'passed' | 'failed' | 'warning' | 'not-applicable' | 'skipped' | 'error' | 'not-reached' | 'not-run' | 'uncovered';

/** The statuses that mean a requirement was not exercised: a deciding one in them keeps a run from being conformant. */
export const UNTESTED: readonly RequirementStatus[] = ['skipped', 'error', 'not-reached', 'not-run', 'uncovered'];

/**
 * The run's conclusion, in order of precedence:
 *   non-conformant  a deciding requirement failed (observed)
 *   error           the harness could not complete the run (a harness error, an unreachable target, an interrupt); not a conformance result
 *   incomplete      nothing failed, but a deciding requirement of the target's roles was not exercised
 *   conformant      every deciding requirement of the target's roles passed, or does not apply to it (spec or policy)
 */
export type Verdict = 'conformant' | 'incomplete' | 'non-conformant' | 'error';

/** One named check (STYLE.md §4): what was expected and what was seen. */
export interface CheckResult {
  /** The check's name, e.g. `status`, `problem`, `schema`, `exactly_one`. */
  readonly check: string;
  /** The requirement this check proves (a registry ID). */
  readonly requirement: string;
  readonly level: Level;
  readonly passed: boolean;
  /**
   * The step whose result was checked, as reasons name it (1-based): "3", or
   * "5.2 (i=7)" inside a repeat. Absent for a property's checks (they judge the
   * whole generated case).
   */
  readonly step?: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
  /**
   * The check belongs to a setup step (the issue before the renewal under test, say):
   * it proves its own requirement, and its failure ends the test as
   * HARNESS_SETUP_FAILED rather than failing the requirements under test.
   */
  readonly setup?: true;
}

/** A check left out because the answer it presumes did not come. */
export interface NotEvaluated {
  readonly check: string;
  readonly requirement: string;
  readonly step?: string;
  /** The check whose failure it presumed against, e.g. "status (CPP-RED-1)". */
  readonly after: string;
}

/** One request and its response, as sent and as received (bodies capped). */
export interface Exchange {
  /** The step that sent it, named as CheckResult.step; absent for the harness's own reads before the first step and in property cases. */
  readonly step?: string;
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
  /**
   * With status `failed`: every failure is at a level that does not decide this
   * run (SHOULD without --strict, PROFILE under --profile-advisory, MAY), so the
   * test is reported as a warning, not a failure. The status stays `failed` (a
   * check did fail: a baseline, --repeat and selftest see an observed failure);
   * aggregate.ts derives the marker from the checks and the run's options.
   */
  readonly warning?: true;
  readonly duration_ms: number;
  /** Why it was skipped, not applicable, or errored (missing capability named). */
  readonly reason?: string;
  /** With status `not-applicable`: whether the spec's condition or the target's policy makes it so. */
  readonly basis?: Basis;
  /**
   * With status `error`: a stable code saying why (STYLE.md §6), e.g.
   * HARNESS_TARGET_UNREACHABLE (no answer, or the role stopped answering and the
   * test was not run), HARNESS_DEADLINE_EXCEEDED, HARNESS_STEP_FAILED,
   * SCENARIO_INVALID, HARNESS_INTERNAL.
   */
  readonly error_code?: TestErrorCode;
  /**
   * With status `error`: the test was never started (the run's guard held it
   * back: its role had stopped answering, the run's time limit had passed; or
   * the target could not be opened). It sent nothing; `reason` says why, and
   * views show it as "not run: <reason>" (wording.ts reasonText).
   */
  readonly not_run?: true;
  readonly missing_capabilities?: readonly string[];
  readonly checks: readonly CheckResult[];
  /**
   * Checks that were not evaluated because the answer they presume never came:
   * an earlier outcome check of their step (status, problem code) saw another
   * answer. They charge nothing; only the check that saw the difference does.
   */
  readonly not_evaluated?: readonly NotEvaluated[];
  /**
   * With status `passed`: parts of the test's cases the target's own configuration left no room for
   * (a message over its max_body_bytes, say), each said once. The pass claims nothing of them.
   */
  readonly left_out?: readonly string[];
  readonly transcript: readonly Exchange[];
  /** The command that reruns this test alone. */
  readonly rerun: string;
  /** Property-based tests: the seed and path that reproduce a failure. */
  readonly seed?: number;
  readonly path?: string;
  /** A failure the run's baseline lists as known (--baseline): still reported as observed. */
  readonly known_failure?: true;
  /** With `run --repeat N`: how the test's runs ended. A flaky test is never a pass. */
  readonly repeat?: RepeatRecord;
}

/**
 * The runs of a repeated test (`run --repeat N`). The result itself is the first
 * run when all passed, else the first run that ended with the test's status
 * (failed when any run failed, else error): its checks and transcript are the
 * evidence.
 */
export interface RepeatRecord {
  /** Runs made. */
  readonly runs: number;
  /** Runs asked for, when fewer were made (an interrupt, the time limit, an unreachable role). */
  readonly requested?: number;
  readonly passed: number;
  readonly failed: number;
  /** Runs that ended in error. */
  readonly errors: number;
  /** stable-pass: every run passed; stable-fail: none did; flaky: some did and some did not. */
  readonly stability: 'stable-pass' | 'stable-fail' | 'flaky';
  /** The median time of one run (duration_ms is the time of all runs). */
  readonly median_ms: number;
}

export interface RequirementResult {
  readonly id: string;
  readonly level: Level;
  readonly roles: readonly Role[];
  readonly sections: readonly string[];
  readonly family: string;
  readonly summary: string;
  readonly status: RequirementStatus;
  /** True when this requirement decides the verdict: its level decides (MUST, PROFILE unless --profile-advisory, SHOULD under --strict) and one of its roles is in the run's scope. */
  readonly deciding: boolean;
  /** Why it failed or was not exercised: the tests and their reasons. */
  readonly reason?: string;
  /** With status `not-applicable`: the spec's condition or the target's policy. */
  readonly basis?: Basis;
  /** The part no test can observe from outside (the registry says so): passed means the rest passed. */
  readonly unverifiable?: string;
  /** IDs of the tests that cover it. */
  readonly tests: readonly string[];
}

/** How much of what decides the verdict the run exercised. */
export interface Coverage {
  /** The roles whose requirements decide: the target's roles, narrowed by --role. */
  readonly roles: readonly Role[];
  /** Deciding requirements of those roles. */
  readonly deciding: number;
  readonly passed: number;
  readonly failed: number;
  /** Deciding requirements that do not apply to this target (the spec's condition or its policy): no gap. */
  readonly not_applicable: number;
  readonly not_applicable_ids: readonly string[];
  /** Deciding requirements not exercised (skipped, error, not reached, not run, uncovered). */
  readonly untested: number;
  readonly untested_ids: readonly string[];
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
  /** PROFILE failures were warnings (--profile-advisory). */
  readonly profile_advisory: boolean;
  /** An incomplete verdict exits 0 (--allow-partial). */
  readonly allow_partial: boolean;
  /** What the run selected (--only, --role); empty lists select everything. */
  readonly selection: { readonly only: readonly string[]; readonly roles: readonly Role[] };
  readonly shard?: string;
  /** Runs of each test (`--repeat N`), when more than one. */
  readonly repeat?: number;
  readonly baseline?: string;
  readonly command: readonly string[];
  /** True when the run was interrupted or stopped early: the results are partial. */
  readonly incomplete: boolean;
}

/** One GET of a document the target publishes (target/facts.ts). */
export type FactAnswer =
  | {
      readonly path: string;
      readonly status: number;
      readonly content_type?: string;
      /** The body as JSON, when it parses. */
      readonly document?: unknown;
      /** The start of a body that is not JSON. */
      readonly text?: string;
      readonly truncated?: true;
    }
  | { readonly path: string; readonly no_answer: string };

export interface TargetFacts {
  readonly operator?: { readonly policy: FactAnswer; readonly key: FactAnswer };
}

export interface TargetDescription {
  readonly name: string;
  readonly embedded: boolean;
  /**
   * When the target names another profile version than the harness tests (its
   * policy document or capability discovery): which rules changed since, and
   * when (profile/version.ts). A note: it changes no result.
   */
  readonly profile_notice?: string;
  /** What the target publishes about itself (its Operator's well-known documents), as read once when it opened (target/facts.ts). */
  readonly facts?: TargetFacts;
  readonly roles: Readonly<
    Partial<
      Record<
        Role,
        {
          readonly adapter: string;
          readonly base_url?: string;
          readonly tls: 'verified' | 'insecure' | 'none' | 'in-process';
          readonly capabilities: readonly string[];
          /** Why capability discovery found none, when the target's answer was odd (an error status, a malformed list). */
          readonly capabilities_note?: string;
        }
      >
    >
  >;
}

/** Test counts (total = passed + failed + warned + skipped + not_applicable + error), and the requirements that warned. */
export interface Summary {
  readonly total: number;
  readonly passed: number;
  /** Tests with a failure that decides (status failed, no `warning` marker). */
  readonly failed: number;
  /** Tests whose failures are all warnings (status failed with `warning: true`). */
  readonly warned: number;
  readonly skipped: number;
  readonly not_applicable: number;
  readonly error: number;
  /** Requirements with status `warning`: failed at a level that does not decide (SHOULD without --strict, PROFILE under --profile-advisory, MAY). */
  readonly warnings: number;
}

export interface BaselineDiff {
  /** Tests that failed and are not listed as known failures. */
  readonly new_failures: readonly string[];
  /** Known failures that now pass. */
  readonly unexpected_passes: readonly string[];
}

export interface HarnessIssue {
  /** harness/errors.ts, scope run. */
  readonly code: RunIssueCode;
  readonly message: string;
}

export interface Report {
  readonly schema_version: typeof REPORT_SCHEMA_VERSION;
  /** What was observed; a baseline never changes it (only the exit code). */
  readonly verdict: Verdict;
  readonly run: RunInfo;
  readonly summary: Summary;
  readonly coverage: Coverage;
  readonly requirements: readonly RequirementResult[];
  readonly tests: readonly TestResult[];
  readonly baseline_diff?: BaselineDiff;
  /** Harness-level problems: they make the verdict `error`, never a conformance failure. */
  readonly errors: readonly HarnessIssue[];
}
