// From test results to requirement statuses, summary and verdict. Pure functions:
// the run, `report merge` and the tests all use these.
import type { Requirement } from '../../profile/registry.ts';
import type { BaselineDiff, Outcome, RequirementResult, RequirementStatus, Summary, TestResult, Verdict } from './model.ts';

export interface AggregateOptions {
  /** SHOULD failures count as failures (otherwise warnings). */
  readonly strict: boolean;
  /** PROFILE failures count as warnings: for implementations certified through an adapter with another wire format. */
  readonly profileAdvisory?: boolean;
}

/** Levels whose failure makes a run non-conformant. */
function decides(level: Requirement['level'], options: AggregateOptions): boolean {
  if (level === 'MUST') return true;
  if (level === 'PROFILE') return !options.profileAdvisory;
  if (level === 'SHOULD') return options.strict;
  return false; // a MAY is informational
}

export function requirementResults(registry: readonly Requirement[], tests: readonly TestResult[], options: AggregateOptions): RequirementResult[] {
  const known = new Set(registry.map((r) => r.id));
  const byRequirement = new Map<string, TestResult[]>();
  for (const test of tests) {
    const ids = new Set([...test.requirements, ...test.checks.map((c) => c.requirement)]);
    for (const id of ids) if (known.has(id)) byRequirement.set(id, [...(byRequirement.get(id) ?? []), test]);
  }
  return registry
    .filter((r) => !r.retired)
    .map((r) => {
      const covering = byRequirement.get(r.id) ?? [];
      return {
        id: r.id,
        level: r.level,
        roles: r.roles,
        sections: r.level === 'PROFILE' ? (r.profile_sections ?? []).map((s) => `PROFILE ${s}`) : r.sections,
        family: r.family,
        summary: r.summary,
        status: requirementStatus(r, covering, options),
        tests: covering.map((t) => t.id),
      };
    });
}

function requirementStatus(r: Requirement, covering: readonly TestResult[], options: AggregateOptions): RequirementStatus {
  if (covering.length === 0) return 'uncovered';
  const checks = covering.flatMap((t) => t.checks.filter((c) => c.requirement === r.id));
  // A failed test counts against every requirement it names when it failed for
  // no specific check (an exception in a step), never silently as a pass.
  const failedWithoutCheck = covering.some((t) => t.status === 'failed' && t.requirements.includes(r.id) && !t.checks.some((c) => !c.passed));
  if (checks.some((c) => !c.passed) || failedWithoutCheck) return decides(r.level, options) ? 'failed' : 'warning';
  if (covering.some((t) => t.status === 'error')) return 'skipped';
  if (checks.some((c) => c.passed)) return 'passed';
  if (covering.every((t) => t.status === 'not-applicable')) return 'not-applicable';
  return 'skipped';
}

export function summarize(tests: readonly TestResult[], requirements: readonly RequirementResult[]): Summary {
  const count = (s: Outcome) => tests.filter((t) => t.status === s).length;
  return {
    total: tests.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    not_applicable: count('not-applicable'),
    error: count('error'),
    warnings: requirements.filter((r) => r.status === 'warning').length,
  };
}

export function verdictOf(requirements: readonly RequirementResult[], tests: readonly TestResult[], harnessErrors: number, baseline?: BaselineDiff): Verdict {
  if (harnessErrors > 0 || tests.some((t) => t.status === 'error')) return 'error';
  if (baseline) return baseline.new_failures.length > 0 || baseline.unexpected_passes.length > 0 ? 'non-conformant' : 'conformant';
  return requirements.some((r) => r.status === 'failed') ? 'non-conformant' : 'conformant';
}

/** Compares failing tests with a list of known failures (test IDs). */
export function baselineDiff(tests: readonly TestResult[], knownFailures: readonly string[]): BaselineDiff {
  const known = new Set(knownFailures);
  const failing = new Set(tests.filter((t) => t.status === 'failed').map((t) => t.id));
  return {
    new_failures: [...failing].filter((id) => !known.has(id)).sort(),
    unexpected_passes: tests.filter((t) => known.has(t.id) && t.status === 'passed').map((t) => t.id).sort(),
  };
}
