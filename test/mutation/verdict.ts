// What one test of the mutation run decides (conformance.mutation.test.ts), and
// the fixed settings that make every run of it explore the same cases.
import type { TestResult } from '../../harness/report/model.ts';
import { testId, type PlanTest } from '../../harness/runner/plan.ts';

/** CPR_MUTATION_ONLY=TOK-,CPP-RPL-: only the tests whose IDs start so (`fuzz` keeps the fuzz campaign); all by default. */
const only = process.env['CPR_MUTATION_ONLY']?.split(',').map((p) => p.trim()).filter((p) => p !== '');

export const MUTATION_RUN = {
  /** The reference's keys and pack ids come from this text (reference/start.ts `seed`). */
  referenceSeed: 'mutation testing',
  /** The run's seed: each property explores the same cases, as many as the conformance run's (its default count). */
  seed: 20_261_125,
  /** Count-bounded only: no property stops early on a loaded machine; Stryker's timeout ends a mutant that hangs. */
  limits: { testTimeLimitMs: 300_000, propertyTimeLimitMs: 300_000 },
  /** Each role's fuzz campaign: a budget of model runs, a shrink kept short (what is found, not how small, decides). */
  fuzz: { seed: 23, runs: { operator: 40, payee: 60, payingApp: 150 }, shrinkMs: 1 },
  only,
} as const;

/** The plan narrowed to `only` (test/mutation/stryker.test.ts runs the few tests its mutants need). */
export function narrowed(plan: readonly PlanTest[], prefixes: readonly string[] | undefined): readonly PlanTest[] {
  return prefixes === undefined ? plan : plan.filter((t) => prefixes.some((p) => testId(t).startsWith(p)));
}

/**
 * A test decides against a mutant when it did not pass: the correct reference
 * passes every test, so anything else is a run the suite would not certify. The
 * message starts with how it ended: `failed:` (a check observed the difference),
 * `error CODE:` (a harness error), `skipped:` or `not-applicable:`.
 */
export function mutationVerdict(result: TestResult | undefined): { passed: boolean; message: string } {
  if (result === undefined) return { passed: false, message: 'error: the plan returned no result' };
  if (result.status === 'passed') return { passed: true, message: 'passed' };
  const how = result.status === 'error' ? `error ${result.error_code ?? 'HARNESS_INTERNAL'}` : result.status;
  const failed = result.checks.filter((c) => !c.passed).map((c) => `${c.requirement} ${c.check}: ${c.message}`);
  return { passed: false, message: `${how}: ${[result.reason, ...failed].filter((s) => s !== undefined && s !== '').join('; ')}`.slice(0, 2000) };
}
