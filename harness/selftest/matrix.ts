// The kill matrix: for each mutant, which requirements' checks failed against it.
// A mutant is killed when at least one test failed; it is flagged when no
// requirement it declares (`catches`) is among those that caught it, or when the
// suite could not run against it (harness errors are never counted as kills).
// A fuzzer mutant (reference/mutants.ts, catcher 'fuzzer') is not required of
// the suite: it is counted neither killed nor survived, and when it is run (named
// with --mutant) its row is information only.
import type { Catcher } from '../../reference/mutants.ts';
import { observedFailure } from '../report/aggregate.ts';
import type { TestResult } from '../report/model.ts';
import { reasonText } from '../report/wording.ts';

export interface MutantRow {
  readonly name: string;
  readonly role: string;
  readonly family: string;
  readonly description: string;
  readonly catches: readonly string[];
  /** Who must catch it: 'suite' rows make the matrix; 'fuzzer' rows are information (KillMatrix.fuzzer). */
  readonly catcher: Catcher;
  /** At least one test failed against it (for a fuzzer mutant: the suite caught it anyway, which nothing requires). */
  readonly killed: boolean;
  /** Registry IDs of the failed checks (and of failed tests without a failed check). */
  readonly caught_by: readonly string[];
  /** Test IDs that failed. */
  readonly failed_tests: readonly string[];
  /** Tests that errored under this mutant (a harness error, not a kill). */
  readonly errors: readonly string[];
  /** Why a suite mutant's row fails selftest; always null for a fuzzer mutant, which nothing requires the suite to kill. */
  readonly flagged: string | null;
  /** How many tests ran against it. */
  readonly tests: number;
  /**
   * The full matrix: how many tests of the suite were left out because, run
   * against the reference, they never consulted this mutant's switch (they run
   * the same with it on) and judge no requirement it declares.
   */
  readonly unreached?: number;
  readonly duration_ms: number;
}

/** The fuzzer mutants of a selftest: never counted in killed or total. */
interface FuzzerMutants {
  /** Those left to the fuzzer unrun: every one of the catalogue when no --mutant names any. */
  readonly not_run: readonly string[];
  /** Those named with --mutant: the suite run against each, as information (what it misses is no failure). */
  readonly informational: readonly MutantRow[];
}

export interface KillMatrix {
  readonly reference: { readonly conformant: boolean; readonly tests: number; readonly not_passed: readonly string[]; readonly duration_ms: number };
  /** The suite mutants: each must be killed by a check it declares. */
  readonly mutants: readonly MutantRow[];
  readonly killed: number;
  readonly total: number;
  readonly fuzzer: FuzzerMutants;
  /** Suite mutants not run: this machine lacks what the suite needs to reach their fault (MutantSpec.needs), and CI is not set. */
  readonly unavailable?: readonly { readonly name: string; readonly reason: string }[];
  readonly seed: number;
  /** Each mutant ran only the tests that can judge a requirement it declares (`selftest --targeted`). */
  readonly targeted: boolean;
  /**
   * The full matrix: the switches consulted while the reference's target
   * opened (a mutant among them ran every test), and per test the switches it
   * consulted, from the reference run one test at a time.
   */
  readonly reach?: SwitchReach;
  readonly duration_ms: number;
}

/** Which mutants' switches the reference consulted, while its target opened and in each test. */
export interface SwitchReach {
  readonly at_open: readonly string[];
  /** Test ID -> the switches consulted while it ran. */
  readonly by_test: Readonly<Record<string, readonly string[]>>;
}

/**
 * `baseline`: for a mutant run under a configuration other than the defaults,
 * the same tests against the reference under that configuration. A check that
 * failed there too (a SHOULD the configuration itself departs from, say) is
 * the configuration's, not the mutant's: it neither kills nor names it.
 */
export function mutantRow(spec: Pick<MutantRow, 'name' | 'role' | 'family' | 'description' | 'catches'> & { readonly catcher?: Catcher }, results: readonly TestResult[], durationMs: number, baseline: readonly TestResult[] = []): MutantRow {
  const failedThere = new Set(baseline.filter(observedFailure).flatMap((test) => failedRequirements(test).map((id) => `${test.id} ${id}`)));
  const own = (test: TestResult) => failedRequirements(test).filter((id) => !failedThere.has(`${test.id} ${id}`));
  // A failed setup step is an observed failure too, of the setup's own requirement.
  const failed = results.filter((test) => observedFailure(test) && own(test).length > 0);
  const caught = new Set<string>();
  for (const test of failed) for (const id of own(test)) caught.add(id);
  const caughtBy = [...caught].sort();
  const errors = results.filter((r) => r.status === 'error' && !observedFailure(r)).map((r) => `${r.id}: ${reasonText(r) ?? ''}`.slice(0, 300));
  const killed = failed.length > 0;
  const expected = spec.catches.some((id) => caught.has(id));
  const catcher = spec.catcher ?? 'suite';
  const flagged =
    catcher === 'fuzzer' ? null
    : !killed
    ? errors.length > 0
      ? `survived; ${errors.length} test(s) could not run against it`
      : 'survived: no check failed'
    : expected
      ? null
      : `caught only by requirements it does not declare (${caughtBy.join(', ')}); expected one of ${spec.catches.join(', ')}`;
  return { ...spec, catcher, killed, caught_by: caughtBy, failed_tests: failed.map((r) => r.id).sort(), errors, flagged, tests: results.length, duration_ms: durationMs };
}

export function summaryLine(matrix: KillMatrix): string {
  return `selftest${matrix.targeted ? ' --targeted' : ''}: ${matrix.killed}/${matrix.total} mutants killed, reference ${matrix.reference.conformant ? 'conformant' : 'NOT conformant'}`;
}

/** What a selftest says of the mutants this machine could not exercise, one line; undefined when there were none. */
export function unavailableLine(matrix: KillMatrix): string | undefined {
  const left = matrix.unavailable ?? [];
  if (left.length === 0) return undefined;
  return `${left.length} mutant(s) not exercisable on this machine, neither killed nor survived: ${left.map((m) => `${m.name} (${m.reason})`).join(', ')}; CI=true runs them`;
}

/** What a selftest says of its fuzzer mutants, one line; undefined when it had none. */
export function fuzzerLine(matrix: KillMatrix): string | undefined {
  const { not_run: notRun, informational } = matrix.fuzzer;
  const count = notRun.length + informational.length;
  if (count === 0) return undefined;
  const run = informational.length > 0 ? `, ${informational.length} run for information (what the suite made of them)` : '';
  return `${count} fuzzer mutant(s), not required of the suite, neither killed nor survived${run}: the fuzzer must find them (cpr-conformance fuzz --role ROLE against cpr-conformance serve --mutant NAME)`;
}

/** Exit 0 only when the reference is conformant and every mutant was killed by a check it declares. */
export function selftestPassed(matrix: KillMatrix): boolean {
  return matrix.reference.conformant && matrix.mutants.every((m) => m.killed && m.flagged === null);
}

/** Whether a result kills a mutant declaring `catches`: an observed failure charged to one of them. */
export function killsByDeclared(catches: readonly string[], result: TestResult): boolean {
  return observedFailure(result) && failedRequirements(result).some((id) => catches.includes(id));
}

/** The requirements a failed test charges: its failed checks', or, with none, its own. */
function failedRequirements(test: TestResult): readonly string[] {
  const failedChecks = test.checks.filter((c) => !c.passed);
  return failedChecks.length === 0 ? test.requirements : failedChecks.map((c) => c.requirement);
}
