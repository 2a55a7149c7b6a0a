// The words every view of a report uses for its verdict and coverage, so the
// terminal, summary.md, report.html and junit.xml say the same thing.
import type { Coverage, Outcome, Report, RequirementStatus, TargetDescription, TestResult, Verdict } from './model.ts';
import type { Role } from '../../profile/registry.ts';

export const VERDICT_WORD: Readonly<Record<Verdict, string>> = {
  conformant: 'CONFORMANT',
  incomplete: 'INCOMPLETE',
  'non-conformant': 'NON-CONFORMANT',
  error: 'ERROR',
};

export const VERDICT_MEANING: Readonly<Record<Verdict, string>> = {
  conformant: "every deciding requirement of the target's roles was exercised and passed, or does not apply to it (the spec's condition or its published policy).",
  incomplete: 'no deciding requirement failed, but not every one was exercised: this run does not certify the target.',
  'non-conformant': 'at least one deciding requirement failed.',
  error: 'the harness could not complete the run; this is not a conformance result.',
};

/** Every requirement status, in the order reports list them. */
export const REQUIREMENT_STATUSES: readonly RequirementStatus[] = ['passed', 'failed', 'warning', 'not-applicable', 'skipped', 'error', 'not-reached', 'not-run', 'uncovered'];

/** "95 of 103 deciding requirements (payee, operator) exercised: 95 passed, 0 failed, 2 not applicable, 6 not exercised". */
export function coverageLine(coverage: Coverage): string {
  const roles = coverage.roles.length === 0 ? 'no role' : coverage.roles.join(', ');
  const exercised = coverage.passed + coverage.failed;
  const inapplicable = coverage.not_applicable > 0 ? `, ${coverage.not_applicable} not applicable` : '';
  return `${exercised} of ${coverage.deciding} deciding requirements (${roles}) exercised: ${coverage.passed} passed, ${coverage.failed} failed${inapplicable}, ${coverage.untested} not exercised`;
}

/** What the baseline did to the exit code, or nothing without one. */
export function baselineNote(report: Pick<Report, 'baseline_diff' | 'tests'>): string | undefined {
  const diff = report.baseline_diff;
  if (diff === undefined) return undefined;
  const known = report.tests.filter((t) => t.known_failure).length;
  return `baseline: ${known} known failure(s) still observed, ${diff.new_failures.length} new failure(s), ${diff.unexpected_passes.length} unexpected pass(es); the baseline changes the exit code only`;
}

/** The target as reports name it: the embedded reference is said to be one once. */
export function targetName(target: Pick<TargetDescription, 'name' | 'embedded'>): string {
  return target.embedded && !target.name.includes('embedded reference') ? `${target.name} (embedded reference)` : target.name;
}

/** What the harness noticed about the target while opening it: its profile version when it is not the harness's, then one line per role ("payee: GET ... answered 500; ..."). */
export function targetNotes(target: Pick<TargetDescription, 'roles' | 'profile_notice'>): string[] {
  const notes = new Map<string, string[]>();
  for (const [role, entry] of Object.entries(target.roles)) {
    if (entry?.capabilities_note !== undefined) notes.set(entry.capabilities_note, [...(notes.get(entry.capabilities_note) ?? []), role]);
  }
  return [...(target.profile_notice !== undefined ? [target.profile_notice] : []), ...[...notes].map(([note, roles]) => `${roles.join(' and ')}: ${note}`)];
}

/** ", step 3" for a check or exchange tied to a step; nothing otherwise. */
export function atStep(item: { readonly step?: string }): string {
  return item.step === undefined ? '' : `, step ${item.step}`;
}

/** With --repeat: how the repeated tests came out ("each test 5 times: 120 stable-pass, 0 stable-fail, 1 flaky (TOK-GET-001)"), or nothing. */
export function repeatNote(report: Pick<Report, 'run' | 'tests'>): string | undefined {
  if (report.run.repeat === undefined) return undefined;
  const count = (stability: string) => report.tests.filter((t) => t.repeat?.stability === stability).length;
  const flaky = report.tests.filter((t) => t.repeat?.stability === 'flaky').map((t) => t.id);
  const shown = flaky.length === 0 ? '' : ` (${flaky.slice(0, 10).join(', ')}${flaky.length > 10 ? ` and ${flaky.length - 10} more` : ''})`;
  return `each test ${report.run.repeat} times: ${count('stable-pass')} stable-pass, ${count('stable-fail')} stable-fail, ${count('flaky')} flaky${shown}; a flaky test counts as failed or error, never as a pass`;
}

/** A repeated test's runs: "flaky: passed 2 of 5 (3 failed, 0 errors)"; nothing for a test run once. */
export function stabilityText(test: Pick<TestResult, 'repeat'>): string | undefined {
  const r = test.repeat;
  if (r === undefined) return undefined;
  return `${r.stability}: passed ${r.passed} of ${r.runs} (${r.failed} failed, ${r.errors} error${r.errors === 1 ? '' : 's'}${r.requested !== undefined ? `; ${r.requested} asked for` : ''})`;
}

/** How a test is shown: its outcome, or `warning` for a failed test whose every failure is a warning (aggregate.ts warningJudge). */
export type ShownOutcome = Outcome | 'warning';

/** Every shown outcome, in the order views list them. */
export const SHOWN_OUTCOMES: readonly ShownOutcome[] = ['passed', 'failed', 'warning', 'skipped', 'not-applicable', 'error'];

export function shownOutcome(test: Pick<TestResult, 'status' | 'warning'>): ShownOutcome {
  return test.status === 'failed' && test.warning ? 'warning' : test.status;
}

/** A test's reason as every view shows it: a test that was never started says so first ("not run: the run's time limit passed at ..."). */
export function reasonText(test: Pick<TestResult, 'reason' | 'not_run'>): string | undefined {
  return test.not_run && test.reason !== undefined ? `not run: ${test.reason}` : test.reason;
}

/** What a warning is, in the words of README "Verdicts and coverage". */
export const WARNING_MEANING = 'a failure at a level that does not decide this run (SHOULD without --strict, PROFILE under --profile-advisory, MAY): it does not change the verdict';

/**
 * The role a not-applicable test needed and the target does not have ("the
 * target has no paying-app role"): views say that once per role, not once per test.
 */
export function missingRole(test: Pick<TestResult, 'status' | 'reason' | 'role'>): Role | undefined {
  if (test.status !== 'not-applicable' || test.reason === undefined) return undefined;
  const role = /(?:^|: )the target has no (payee|operator|paying-app) role$/.exec(test.reason)?.[1] as Role | undefined;
  return role;
}
