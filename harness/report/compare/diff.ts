// Two runs of one implementation: each requirement and test matched by ID, and
// every change of outcome classified (what a change broke, fixed or stopped
// exercising). Pure functions over the result model.
import { observedFailure } from '../aggregate.ts';
import type { TestResult } from '../model.ts';
import { reasonText, shownOutcome } from '../wording.ts';
import { cellOf, firstLine, verdictRules, type Cell, type CompareInput } from './input.ts';

/**
 * How an outcome changed:
 *   new-failure      failing now (a failure that decides), not before
 *   new-warning      a warning now (a failure at a level that does not decide), passing or not exercised before
 *   fix              failing or a warning before, passing now
 *   coverage-lost    observed before (passed, failed or warned), not exercised now
 *   coverage-gained  not exercised before, passing now
 *   changed          any other change (skipped to not applicable, failed to warning, ...)
 */
export type ChangeKind = 'new-failure' | 'new-warning' | 'fix' | 'coverage-lost' | 'coverage-gained' | 'changed';

interface Change {
  readonly id: string;
  readonly kind: ChangeKind;
  /** The status before and after; `absent` when that report has no such requirement or test. */
  readonly before: string;
  readonly after: string;
  /** Requirements: it decides the verdict in either run. Tests: always false. */
  readonly deciding: boolean;
  readonly level: string;
  /** The requirement's summary or the test's title. */
  readonly about: string;
  /** Why it is as it is now (or, for a fix, why it failed before). */
  readonly why: string;
}

export interface ReportDiff {
  readonly before: CompareInput;
  readonly after: CompareInput;
  readonly sameTarget: boolean;
  readonly requirements: readonly Change[];
  readonly tests: readonly Change[];
  readonly warnings: readonly string[];
}

/** Observed: failing (a failure that decides), warning (one that does not), passing; or not exercised. */
type State = 'failing' | 'warning' | 'passing' | 'untested';

function requirementState(cell: Cell): State {
  return cell === 'passed' ? 'passing' : cell === 'failed' ? 'failing' : cell === 'warning' ? 'warning' : 'untested';
}

function testState(test: TestResult | undefined): State {
  if (test === undefined) return 'untested';
  if (test.status === 'passed') return 'passing';
  if (!observedFailure(test)) return 'untested';
  return shownOutcome(test) === 'warning' ? 'warning' : 'failing';
}

function testLabel(test: TestResult | undefined): string {
  if (test === undefined) return 'absent';
  return test.status === 'error' && test.error_code !== undefined ? `error ${test.error_code}` : shownOutcome(test);
}

function kindOf(before: State, after: State): ChangeKind {
  if (after === 'failing' && before !== 'failing') return 'new-failure';
  if (after === 'warning' && (before === 'passing' || before === 'untested')) return 'new-warning';
  if ((before === 'failing' || before === 'warning') && after === 'passing') return 'fix';
  if (before !== 'untested' && after === 'untested') return 'coverage-lost';
  if (before === 'untested' && after === 'passing') return 'coverage-gained';
  return 'changed';
}

export const KIND_ORDER: readonly ChangeKind[] = ['new-failure', 'coverage-lost', 'new-warning', 'fix', 'coverage-gained', 'changed'];

/** The IDs of both lists, each once: the later report's order, then what only the earlier one has. */
function idsOf(before: readonly { readonly id: string }[], after: readonly { readonly id: string }[]): string[] {
  return [...new Set([...after.map((x) => x.id), ...before.map((x) => x.id)])];
}

export function diffReports(before: CompareInput, after: CompareInput): ReportDiff {
  const reqBefore = new Map(before.report.requirements.map((r) => [r.id, r]));
  const reqAfter = new Map(after.report.requirements.map((r) => [r.id, r]));
  const requirements: Change[] = [];
  for (const id of idsOf(before.report.requirements, after.report.requirements)) {
    const b = reqBefore.get(id);
    const a = reqAfter.get(id);
    if (cellOf(b) === cellOf(a)) continue;
    const kind = kindOf(requirementState(cellOf(b)), requirementState(cellOf(a)));
    const why = kind === 'fix' ? `before: ${b?.reason ?? ''}` : (a?.reason ?? (a === undefined ? 'not in the later report' : ''));
    const either = (a ?? b)!;
    requirements.push({ id, kind, before: cellOf(b), after: cellOf(a), deciding: b?.deciding === true || a?.deciding === true, level: either.level, about: either.summary, why: firstLine(why) });
  }
  const testBefore = new Map(before.report.tests.map((t) => [t.id, t]));
  const testAfter = new Map(after.report.tests.map((t) => [t.id, t]));
  const tests: Change[] = [];
  for (const id of idsOf(before.report.tests, after.report.tests)) {
    const b = testBefore.get(id);
    const a = testAfter.get(id);
    if (testLabel(b) === testLabel(a)) continue;
    const kind = kindOf(testState(b), testState(a));
    const either = (a ?? b)!;
    tests.push({ id, kind, before: testLabel(b), after: testLabel(a), deciding: false, level: either.level, about: either.title, why: kind === 'fix' ? `before: ${testWhy(b)}` : a === undefined ? 'not in the later report' : testWhy(a) });
  }
  const byKind = (x: Change, y: Change) => KIND_ORDER.indexOf(x.kind) - KIND_ORDER.indexOf(y.kind);
  const sameTarget = before.report.run.target.name === after.report.run.target.name;
  const warnings: string[] = [];
  if (!sameTarget) warnings.push(`the two reports are of different targets: ${before.report.run.target.name} before, ${after.report.run.target.name} after`);
  for (const [what, b, a] of [
    ['suite version', before.report.run.suite_version, after.report.run.suite_version],
    ['profile version', before.report.run.profile_version, after.report.run.profile_version],
  ] as const) {
    if (b !== a) warnings.push(`the runs used different ${what}s (${b} before, ${a} after): requirements and tests may differ for that reason alone`);
  }
  if (verdictRules(before.report) !== verdictRules(after.report)) {
    warnings.push(`the runs used different verdict rules (${verdictRules(before.report)} before, ${verdictRules(after.report)} after): a failure may decide in one and be a warning in the other`);
  }
  return { before, after, sameTarget, requirements: requirements.sort(byKind), tests: tests.sort(byKind), warnings };
}

/** Why a test is as it is: its failed checks, or its reason. */
function testWhy(test: TestResult | undefined): string {
  if (test === undefined) return '';
  const failed = test.checks.filter((c) => !c.passed).slice(0, 2);
  if (failed.length > 0) return firstLine(failed.map((c) => `${c.check} (${c.requirement}): ${c.message}`).join('; '));
  return firstLine(reasonText(test) ?? '');
}

/** Exit 1: a new failure (any requirement or test), or a deciding requirement no longer exercised; a new warning, like a warning in a run, does not fail. */
export function diffFails(diff: ReportDiff): boolean {
  return [...diff.requirements, ...diff.tests].some((c) => c.kind === 'new-failure') || diff.requirements.some((c) => c.kind === 'coverage-lost' && c.deciding);
}
