// From test results to requirement statuses, coverage, summary and verdict. Pure
// functions: the run, `report merge` and the tests all use these, so every form
// of a report says the same thing about the same results.
//
// The verdict never claims more than was observed: a requirement passes only
// when a check of it passed and nothing that should have exercised it was
// skipped or broke down, and a run is `conformant` only when every deciding
// requirement of the target's roles passed.
import { ROLES, sectionsOf, type Level, type Requirement, type Role } from '../../profile/registry.ts';
import { UNTESTED, type Basis, type BaselineDiff, type Report, type Coverage, type HarnessIssue, type Outcome, type RequirementResult, type RequirementStatus, type Summary, type TestResult, type Verdict } from './model.ts';
import { atStep, reasonText } from './wording.ts';

export interface AggregateOptions {
  /** SHOULD failures count as failures (otherwise warnings). */
  readonly strict: boolean;
  /** PROFILE failures count as warnings: for implementations certified through an adapter with another wire format. */
  readonly profileAdvisory?: boolean;
  /** The roles whose requirements decide: the target's roles, narrowed by --role. Every role when absent. */
  readonly scopeRoles?: readonly Role[];
  /**
   * Every test of the suite (selected or not) by the requirements it covers, so
   * that a requirement this run did not select reads `not-run`, not `uncovered`.
   */
  readonly catalogue?: ReadonlyMap<string, readonly string[]>;
}

/** Levels whose failure makes a run non-conformant. */
export function decidingLevel(level: Level, options: Pick<AggregateOptions, 'strict' | 'profileAdvisory'>): boolean {
  if (level === 'MUST') return true;
  if (level === 'PROFILE') return !options.profileAdvisory;
  if (level === 'SHOULD') return options.strict;
  return false; // a MAY is informational
}

/** The requirements each test covers: those it names and those its checks prove. */
function coveredBy(test: Pick<TestResult, 'requirements' | 'checks'>): Set<string> {
  return new Set([...test.requirements, ...test.checks.map((c) => c.requirement)]);
}

export function requirementResults(registry: readonly Requirement[], tests: readonly TestResult[], options: AggregateOptions): RequirementResult[] {
  const known = new Set(registry.map((r) => r.id));
  const byRequirement = new Map<string, TestResult[]>();
  for (const test of tests) {
    for (const id of coveredBy(test)) if (known.has(id)) byRequirement.set(id, [...(byRequirement.get(id) ?? []), test]);
  }
  const scope = new Set(options.scopeRoles ?? ROLES);
  return registry
    .filter((r) => !r.retired)
    .map((r) => {
      const covering = byRequirement.get(r.id) ?? [];
      const { status, reason, basis } = requirementStatus(r, covering, options);
      return {
        id: r.id,
        level: r.level,
        roles: r.roles,
        sections: sectionsOf(r),
        family: r.family,
        summary: r.summary,
        status,
        deciding: decidingLevel(r.level, options) && r.roles.some((role) => scope.has(role)),
        ...(reason !== undefined ? { reason } : {}),
        ...(basis !== undefined ? { basis } : {}),
        ...(r.unverifiable !== undefined ? { unverifiable: r.unverifiable } : {}),
        tests: covering.map((t) => t.id),
      };
    });
}

function requirementStatus(r: Requirement, covering: readonly TestResult[], options: AggregateOptions): { status: RequirementStatus; reason?: string; basis?: Basis } {
  if (covering.length === 0) {
    const catalogued = options.catalogue?.get(r.id) ?? [];
    return catalogued.length > 0
      ? { status: 'not-run', reason: `not selected by this run (--only, --role or --shard); covered by ${list(catalogued)}` }
      : { status: 'uncovered', reason: 'no scenario or property covers it' };
  }
  // A test whose observations cannot be trusted (its clock was moved under it) keeps its checks in the report, but they judge nothing.
  const checks = covering.filter((t) => !voided(t)).flatMap((t) => t.checks.filter((c) => c.requirement === r.id).map((c) => ({ test: t, check: c })));
  // A failure is a failure wherever it was observed. A failed test counts
  // against every requirement it names when it failed for no specific check,
  // never silently as a pass.
  const failedWithoutCheck = covering.filter((t) => t.status === 'failed' && t.requirements.includes(r.id) && !t.checks.some((c) => !c.passed));
  const failedChecks = checks.filter((c) => !c.check.passed);
  if (failedChecks.length > 0 || failedWithoutCheck.length > 0) {
    const where = [...new Set([...failedChecks.map((c) => `${c.test.id} (${c.check.check}${atStep(c.check)})`), ...failedWithoutCheck.map((t) => t.id)])];
    return { status: decidingLevel(r.level, options) ? 'failed' : 'warning', reason: `failed in ${list(where)}` };
  }
  // Nothing failed: it passes only if nothing meant to exercise it was left undone.
  const errored = covering.filter((t) => t.status === 'error');
  if (errored.length > 0) return { status: 'error', reason: because(errored) };
  const skipped = covering.filter((t) => t.status === 'skipped');
  if (skipped.length > 0) return { status: 'skipped', reason: because(skipped) };
  // A pass is a check that held in a test that reached its end: the checks a
  // test made before it turned out not to apply (a walk that outgrew the body
  // limit, say) never stand for the rule it was about to test.
  if (checks.some((c) => c.check.passed && concluded(c.test))) return { status: 'passed' };
  const inapplicable = covering.filter((t) => t.status === 'not-applicable');
  if (inapplicable.length === covering.length) return { status: 'not-applicable', reason: because(inapplicable), basis: inapplicable.some((t) => t.basis === 'policy') ? 'policy' : 'spec' };
  const reached = covering.filter(concluded);
  return { status: 'not-reached', reason: `${list(reached.map((t) => t.id))} ran, but no check of this requirement was reached${notEvaluatedIn(reached, r.id)}` };
}

/** A test that ran to its end (passed or failed): what it observed stands. */
function concluded(test: Pick<TestResult, 'status'>): boolean {
  return test.status === 'passed' || test.status === 'failed';
}

function notEvaluatedIn(tests: readonly TestResult[], id: string): string {
  const left = tests.flatMap((t) => (t.not_evaluated ?? []).filter((n) => n.requirement === id).map((n) => `${t.id} step ${n.step ?? '?'} after ${n.after}`));
  return left.length > 0 ? ` (not evaluated, its answer never came: ${list(left)})` : '';
}

function because(tests: readonly TestResult[]): string {
  const shown = tests.slice(0, 3).map((t) => `${t.id}: ${t.status}${t.error_code ? ` ${t.error_code}` : ''}${t.reason ? ` (${firstLine(reasonText(t)!)})` : ''}`);
  return `${shown.join('; ')}${tests.length > 3 ? `; and ${tests.length - 3} more` : ''}`;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 400 ? `${line.slice(0, 400)}…` : line;
}

function list(ids: readonly string[]): string {
  return ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more`;
}

export function coverageOf(requirements: readonly RequirementResult[], scopeRoles: readonly Role[] = ROLES): Coverage {
  const deciding = requirements.filter((r) => r.deciding);
  const untested = deciding.filter((r) => UNTESTED.includes(r.status));
  const inapplicable = deciding.filter((r) => r.status === 'not-applicable');
  return {
    roles: ROLES.filter((role) => scopeRoles.includes(role)),
    deciding: deciding.length,
    passed: deciding.filter((r) => r.status === 'passed').length,
    failed: deciding.filter((r) => r.status === 'failed').length,
    not_applicable: inapplicable.length,
    not_applicable_ids: inapplicable.map((r) => r.id),
    untested: untested.length,
    untested_ids: untested.map((r) => r.id),
  };
}

export function summarize(tests: readonly TestResult[], requirements: readonly RequirementResult[]): Summary {
  const count = (s: Outcome) => tests.filter((t) => t.status === s).length;
  const warned = tests.filter((t) => t.status === 'failed' && t.warning).length;
  return {
    total: tests.length,
    passed: count('passed'),
    failed: count('failed') - warned,
    warned,
    skipped: count('skipped'),
    not_applicable: count('not-applicable'),
    error: count('error'),
    warnings: requirements.filter((r) => r.status === 'warning').length,
  };
}

/** What was observed, whatever a baseline says (a baseline changes only the exit code). */
export function verdictOf(requirements: readonly RequirementResult[], tests: readonly TestResult[], harnessErrors: number): Verdict {
  if (requirements.some((r) => r.status === 'failed')) return 'non-conformant';
  if (harnessErrors > 0 || tests.some(harnessError)) return 'error';
  // Nothing that decides was in scope (no role, a selection of SHOULDs): a run that judged nothing certifies nothing.
  if (!requirements.some((r) => r.deciding)) return 'error';
  if (requirements.some((r) => r.deciding && UNTESTED.includes(r.status))) return 'incomplete';
  return 'conformant';
}

/**
 * A test whose result is an observed failure: failed, or ended by a failed setup
 * step (HARNESS_SETUP_FAILED: the setup's requirement failed, the ones under test
 * were not exercised).
 */
export function observedFailure(test: Pick<TestResult, 'status' | 'error_code'>): boolean {
  return test.status === 'failed' || (test.status === 'error' && test.error_code === 'HARNESS_SETUP_FAILED');
}

/** Ended by a harness error that makes what it observed worthless: a clock moved under it by another client (scenarios/clock-watch.ts). */
function voided(test: Pick<TestResult, 'status' | 'error_code'>): boolean {
  return test.status === 'error' && test.error_code === 'HARNESS_CLOCK_MOVED';
}

/** A harness error: the run could not do its job for this test (never an observation). */
function harnessError(test: Pick<TestResult, 'status' | 'error_code'>): boolean {
  return test.status === 'error' && !observedFailure(test);
}

/** Compares failing tests with a list of known failures (test IDs). */
export function baselineDiff(tests: readonly TestResult[], knownFailures: readonly string[]): BaselineDiff {
  const known = new Set(knownFailures);
  const failing = new Set(tests.filter(observedFailure).map((t) => t.id));
  return {
    new_failures: [...failing].filter((id) => !known.has(id)).sort(),
    unexpected_passes: tests.filter((t) => known.has(t.id) && t.status === 'passed').map((t) => t.id).sort(),
  };
}

/** The failed tests a baseline lists, marked as known; nothing else changes. */
function markKnownFailures(tests: readonly TestResult[], knownFailures: readonly string[] | undefined): TestResult[] {
  if (knownFailures === undefined) return [...tests];
  const known = new Set(knownFailures);
  return tests.map((t) => (observedFailure(t) && known.has(t.id) ? { ...t, known_failure: true as const } : t));
}

/** Exit codes (README "In CI"). */
export const EXIT_CODES = { conformant: 0, nonConformant: 1, error: 2, incomplete: 3 } as const;
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/**
 * The exit code of a report, and why (README "In CI"). Without a baseline it
 * follows the verdict (incomplete exits 0 only with --allow-partial). With
 * one, the failures it lists no longer fail the exit code and any difference
 * from it does; the verdict itself still says what was observed, so the
 * reason says how the two relate.
 */
export function exitOf(report: Pick<Assessment, 'verdict' | 'coverage' | 'baseline_diff' | 'tests'> & { readonly errors: readonly HarnessIssue[] }, allowPartial: boolean): { readonly code: ExitCode; readonly because: string } {
  const untested = `${report.coverage.untested} deciding requirement(s) not exercised`;
  const partial = allowPartial ? { code: EXIT_CODES.conformant, because: `${untested}, accepted by --allow-partial` } : { code: EXIT_CODES.incomplete, because: `${untested} (--allow-partial accepts that)` };
  if (report.verdict === 'error') return { code: EXIT_CODES.error, because: 'the harness could not complete the run: not a conformance result' };
  const diff = report.baseline_diff;
  if (diff === undefined) {
    switch (report.verdict) {
      case 'non-conformant':
        return { code: EXIT_CODES.nonConformant, because: 'a deciding requirement failed' };
      case 'incomplete':
        return partial;
      case 'conformant':
        return { code: EXIT_CODES.conformant, because: 'conformant' };
    }
  }
  if (diff.new_failures.length > 0) return { code: EXIT_CODES.nonConformant, because: `${diff.new_failures.length} failure(s) the baseline does not list` };
  if (diff.unexpected_passes.length > 0) return { code: EXIT_CODES.nonConformant, because: `${diff.unexpected_passes.length} test(s) the baseline lists as failing passed: update the baseline` };
  const known = report.tests.some((t) => t.known_failure) ? 'every failure observed is one the baseline lists' : 'nothing failed';
  if (report.errors.length > 0 || report.tests.some(harnessError)) return { code: EXIT_CODES.error, because: `${known}, but the run had harness errors` };
  if (report.coverage.untested > 0) return { ...partial, because: `${known}; ${partial.because}` };
  return { code: EXIT_CODES.conformant, because: known };
}

export function exitCodeOf(report: Parameters<typeof exitOf>[0], allowPartial: boolean): ExitCode {
  return exitOf(report, allowPartial).code;
}

/**
 * Marks a failed test `warning: true` when every failure it has is at a level
 * that does not decide this run, so every view reports it as a warning. The
 * levels are those requirementStatus charges: each failed check's requirement,
 * or, for a test that failed without a failed check, the requirements it names
 * (the registry's level; the check's or test's own when the registry lacks it).
 * A marker the test already carries (a shard's, under other options) is judged again.
 */
export function warningJudge(registry: readonly Requirement[], options: Pick<AggregateOptions, 'strict' | 'profileAdvisory'>): (test: TestResult) => TestResult {
  const levels = new Map(registry.map((r) => [r.id, r.level]));
  return (test) => {
    const { warning: _judgedBefore, ...rest } = test;
    if (test.status !== 'failed') return rest;
    const failed = test.checks.filter((c) => !c.passed).map((c) => levels.get(c.requirement) ?? c.level);
    const charged = failed.length > 0 ? failed : test.requirements.map((id) => levels.get(id) ?? test.level);
    return charged.length > 0 && !charged.some((level) => decidingLevel(level, options)) ? { ...rest, warning: true } : rest;
  };
}

/** The part of a report derived from its tests. */
export type Assessment = Pick<Report, 'verdict' | 'summary' | 'coverage' | 'requirements' | 'tests' | 'baseline_diff'>;

/** Everything a report derives from its tests: one function for the run and for merge. */
export function assess(registry: readonly Requirement[], tests: readonly TestResult[], errors: readonly HarnessIssue[], options: AggregateOptions & { readonly knownFailures?: readonly string[] }): Assessment {
  const marked = markKnownFailures(tests, options.knownFailures).map(warningJudge(registry, options));
  const requirements = requirementResults(registry, marked, options);
  return {
    verdict: verdictOf(requirements, marked, errors.length),
    summary: summarize(marked, requirements),
    coverage: coverageOf(requirements, options.scopeRoles),
    requirements,
    tests: marked,
    // A warning is no new failure: it fails no exit code without a baseline either.
    ...(options.knownFailures !== undefined ? { baseline_diff: baselineDiff(marked.filter((t) => !t.warning), options.knownFailures) } : {}),
  };
}
