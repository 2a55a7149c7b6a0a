import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../../profile/registry.ts';
import { assess, EXIT_CODES, exitCodeOf, exitOf } from '../../../harness/report/aggregate.ts';
import type { CheckResult, HarnessIssue, TestResult } from '../../../harness/report/model.ts';

const requirement = (id: string, level: Requirement['level'], roles: Requirement['roles']): Requirement => ({ id, level, roles, sections: ['§1'], summary: id, family: 'cpr-structure' });
const REGISTRY: Requirement[] = [
  requirement('OP-MUST-1', 'MUST', ['operator']),
  requirement('OP-MUST-2', 'MUST', ['operator']),
  requirement('OP-PRF-1', 'PROFILE', ['operator']),
  requirement('OP-SHOULD-1', 'SHOULD', ['operator']),
  requirement('OP-MAY-1', 'MAY', ['operator']),
  requirement('PAYEE-MUST-1', 'MUST', ['payee']),
];

const check = (req: string, passed: boolean, extra: Partial<CheckResult> = {}): CheckResult => ({ check: 'status', requirement: req, level: 'MUST', passed, step: '1', expected: 200, actual: passed ? 200 : 500, message: 'status', ...extra });
const test = (id: string, requirements: string[], status: TestResult['status'], checks: CheckResult[], extra: Partial<TestResult> = {}): TestResult => ({
  id,
  title: id,
  kind: 'scenario',
  file: 'suites/x.yaml',
  sections: ['§1'],
  requirements,
  level: 'MUST',
  role: 'operator',
  status,
  duration_ms: 1,
  checks,
  transcript: [],
  rerun: `run --only ${id}`,
  ...extra,
});

/** Every operator requirement passed. */
const allPassed = (): TestResult[] => [
  test('T-1', ['OP-MUST-1'], 'passed', [check('OP-MUST-1', true)]),
  test('T-2', ['OP-MUST-2'], 'passed', [check('OP-MUST-2', true)]),
  test('T-3', ['OP-PRF-1'], 'passed', [check('OP-PRF-1', true, { level: 'PROFILE' })]),
  test('T-4', ['OP-SHOULD-1'], 'passed', [check('OP-SHOULD-1', true, { level: 'SHOULD' })]),
];

const operatorOnly = { strict: false, scopeRoles: ['operator'] as const };
const run = (tests: TestResult[], options: Parameters<typeof assess>[3] = operatorOnly, errors: HarnessIssue[] = []) => {
  const a = assess(REGISTRY, tests, errors, options);
  return { ...a, status: (id: string) => a.requirements.find((r) => r.id === id)!.status, exit: (allowPartial = false) => exitCodeOf({ ...a, errors }, allowPartial) };
};

describe('the verdict', () => {
  it('is conformant only when every deciding requirement of the scope roles passed', () => {
    const r = run(allPassed());
    expect(r.verdict).toBe('conformant');
    expect(r.coverage).toEqual({ roles: ['operator'], deciding: 3, passed: 3, failed: 0, not_applicable: 0, not_applicable_ids: [], untested: 0, untested_ids: [] });
    expect(r.exit()).toBe(EXIT_CODES.conformant);
  });

  it('is incomplete when a deciding requirement was not exercised, and exits 3 unless partial runs are allowed', () => {
    const r = run(allPassed().filter((t) => t.id !== 'T-2'));
    expect(r.verdict).toBe('incomplete');
    expect(r.status('OP-MUST-2')).toBe('uncovered');
    expect(r.coverage.untested_ids).toEqual(['OP-MUST-2']);
    expect(r.exit()).toBe(EXIT_CODES.incomplete);
    expect(r.exit(true)).toBe(EXIT_CODES.conformant);
  });

  it('counts the requirements of roles outside the scope as not deciding', () => {
    const r = run(allPassed());
    expect(r.requirements.find((x) => x.id === 'PAYEE-MUST-1')!.deciding).toBe(false);
    const withPayee = run(allPassed(), { strict: false, scopeRoles: ['operator', 'payee'] });
    expect(withPayee.verdict).toBe('incomplete');
    expect(withPayee.coverage.untested_ids).toEqual(['PAYEE-MUST-1']);
  });

  it('reads a requirement the run did not select as not-run, and one no test covers as uncovered', () => {
    const catalogue = new Map([['OP-MUST-2', ['T-2']]]);
    const r = run(allPassed().filter((t) => t.id !== 'T-2'), { ...operatorOnly, catalogue });
    expect(r.status('OP-MUST-2')).toBe('not-run');
    expect(r.requirements.find((x) => x.id === 'OP-MUST-2')!.reason).toMatch(/not selected/);
    expect(r.verdict).toBe('incomplete');
  });

  it.each<[string, TestResult, string]>([
    ['skipped for a missing capability', test('T-5', ['OP-MUST-1'], 'skipped', [], { reason: 'missing test-control capability: clock' }), 'skipped'],
    ['ended in a harness error', test('T-5', ['OP-MUST-1'], 'error', [], { error_code: 'HARNESS_STEP_FAILED', reason: 'test control answered 500' }), 'error'],
  ])('does not let a pass stand for a requirement one of whose tests was %s', (_name, extra, status) => {
    const r = run([...allPassed(), extra]);
    expect(r.status('OP-MUST-1')).toBe(status);
    expect(r.requirements.find((x) => x.id === 'OP-MUST-1')!.reason).toContain('T-5');
    expect(r.coverage.untested_ids).toEqual(['OP-MUST-1']);
  });

  it('passes a requirement whose other tests are not applicable to the target', () => {
    const r = run([...allPassed(), test('T-5', ['OP-MUST-1'], 'not-applicable', [], { reason: "the target's policy sets max_chain_depth 0" })]);
    expect(r.status('OP-MUST-1')).toBe('passed');
    expect(r.verdict).toBe('conformant');
  });

  it.each(['policy', 'spec'] as const)('calls a requirement whose every test was not applicable (%s) not applicable, with the reason, and still conformant', (basis) => {
    const r = run([...allPassed().filter((t) => t.id !== 'T-2'), test('T-2', ['OP-MUST-2'], 'not-applicable', [], { reason: 'max_amount + 1 is not a valid amount', basis })]);
    expect(r.status('OP-MUST-2')).toBe('not-applicable');
    const entry = r.requirements.find((x) => x.id === 'OP-MUST-2')!;
    expect(entry.reason).toContain('max_amount + 1 is not a valid amount');
    expect(entry.basis).toBe(basis);
    expect(r.coverage).toMatchObject({ deciding: 3, passed: 2, not_applicable: 1, not_applicable_ids: ['OP-MUST-2'], untested: 0 });
    expect(r.verdict).toBe('conformant');
    expect(r.exit()).toBe(EXIT_CODES.conformant);
  });

  it('never passes a requirement on the checks of a test that then turned out not to apply', () => {
    // A walk to the target's max_chain_depth: renewals below the limit passed, then the next outgrew the body limit.
    const walk = test('T-2', ['OP-MUST-2'], 'not-applicable', [check('OP-MUST-2', true), check('OP-MUST-2', true)], { reason: "the scenario sends a 4200-byte message, and the target's max_body_bytes is 4096", basis: 'policy' });
    const r = run([...allPassed().filter((t) => t.id !== 'T-2'), walk]);
    expect(r.status('OP-MUST-2')).toBe('not-applicable');
    expect(r.requirements.find((x) => x.id === 'OP-MUST-2')!.reason).toMatch(/max_body_bytes is 4096/);
    // Nor on those of a test that was skipped or broke down.
    const cut = { ...walk, status: 'skipped' as const, basis: undefined };
    expect(run([...allPassed().filter((t) => t.id !== 'T-2'), cut]).status('OP-MUST-2')).toBe('skipped');
  });

  it('passes a requirement on a check that held in a test that ran to its end, beside another test the policy made inapplicable', () => {
    const r = run([...allPassed(), test('T-9', ['OP-MUST-2'], 'not-applicable', [], { reason: 'policy', basis: 'policy' })]);
    expect(r.status('OP-MUST-2')).toBe('passed');
    expect(r.verdict).toBe('conformant');
  });

  it('calls a requirement its tests ran without reaching not-reached, never passed or skipped, and the run incomplete', () => {
    const left = test('T-2', ['OP-MUST-1', 'OP-MUST-2'], 'failed', [check('OP-MUST-1', false)], { not_evaluated: [{ check: 'schema', requirement: 'OP-MUST-2', step: '3', after: 'status (OP-MUST-1)' }] });
    const r = run([...allPassed().filter((t) => t.id !== 'T-2'), left]);
    expect(r.status('OP-MUST-1')).toBe('failed');
    expect(r.status('OP-MUST-2')).toBe('not-reached');
    expect(r.requirements.find((x) => x.id === 'OP-MUST-2')!.reason).toMatch(/T-2 ran, but no check of this requirement was reached \(not evaluated, its answer never came: T-2 step 3 after status \(OP-MUST-1\)\)/);
    expect(r.coverage.untested_ids).toEqual(['OP-MUST-2']);
    const passedElsewhere = run([...allPassed(), left]);
    expect(passedElsewhere.status('OP-MUST-2')).toBe('passed');
  });

  it('is never conformant when nothing in scope decides: no role, or nothing but SHOULDs', () => {
    expect(run(allPassed(), { strict: false, scopeRoles: [] }).verdict).toBe('error');
    expect(run(allPassed(), { strict: false, scopeRoles: [] }).exit(true)).toBe(EXIT_CODES.error);
    const shouldOnly = [requirement('OP-SHOULD-1', 'SHOULD', ['operator'])];
    const a = assess(shouldOnly, allPassed(), [], operatorOnly);
    expect(a.coverage.deciding).toBe(0);
    expect(a.verdict).toBe('error');
  });

  it('is non-conformant when a deciding requirement failed, even beside harness errors', () => {
    const tests = [...allPassed(), test('T-5', ['OP-MUST-1'], 'failed', [check('OP-MUST-1', false)]), test('T-6', ['OP-MUST-2'], 'error', [], { error_code: 'HARNESS_TARGET_UNREACHABLE' })];
    const r = run(tests);
    expect(r.verdict).toBe('non-conformant');
    expect(r.exit()).toBe(EXIT_CODES.nonConformant);
  });

  it('is an error, never a conformance result, when a test ended in a harness error and nothing failed', () => {
    const r = run([...allPassed(), test('T-6', ['OP-MUST-2'], 'error', [], { error_code: 'HARNESS_INTERNAL' })]);
    expect(r.verdict).toBe('error');
    expect(r.exit()).toBe(EXIT_CODES.error);
    expect(run(allPassed(), operatorOnly, [{ code: 'INTERRUPTED', message: 'interrupted' }]).verdict).toBe('error');
  });

  it('makes SHOULD failures warnings unless strict, and PROFILE failures warnings under profile-advisory', () => {
    const tests = allPassed().map((t) => (t.id === 'T-4' ? { ...t, status: 'failed' as const, checks: [check('OP-SHOULD-1', false, { level: 'SHOULD' })] } : t));
    expect(run(tests).status('OP-SHOULD-1')).toBe('warning');
    expect(run(tests).verdict).toBe('conformant');
    expect(run(tests, { ...operatorOnly, strict: true }).verdict).toBe('non-conformant');
    const profile = allPassed().map((t) => (t.id === 'T-3' ? { ...t, status: 'failed' as const, checks: [check('OP-PRF-1', false, { level: 'PROFILE' })] } : t));
    expect(run(profile).verdict).toBe('non-conformant');
    const advisory = run(profile, { ...operatorOnly, profileAdvisory: true });
    expect(advisory.status('OP-PRF-1')).toBe('warning');
    expect(advisory.coverage.deciding).toBe(2);
    expect(advisory.verdict).toBe('conformant');
  });

  it('charges a failed setup step to its own requirement and leaves the requirement under test untested', () => {
    const setupFailed = test('T-2', ['OP-MUST-2'], 'error', [check('OP-MUST-1', false, { setup: true })], { error_code: 'HARNESS_SETUP_FAILED', reason: 'setup step 1 failed' });
    const r = run([...allPassed().filter((t) => t.id !== 'T-2'), setupFailed]);
    expect(r.status('OP-MUST-1')).toBe('failed');
    expect(r.status('OP-MUST-2')).toBe('error');
    expect(r.verdict).toBe('non-conformant');
  });

  it('charges nothing that a test saw with its clock moved under it: its failed checks stay, its requirements are errors', () => {
    const moved = test('T-1', ['OP-MUST-1'], 'error', [check('OP-MUST-1', false), check('OP-MUST-2', false)], { error_code: 'HARNESS_CLOCK_MOVED', reason: 'the operator\'s clock moved under the scenario' });
    const r = run([moved, ...allPassed().filter((t) => t.id !== 'T-1')]);
    expect([r.status('OP-MUST-1'), r.status('OP-MUST-2')]).toEqual(['error', 'error']);
    expect(r.tests.find((t) => t.id === 'T-1')!.checks.filter((c) => !c.passed)).toHaveLength(2);
    expect(r.verdict).toBe('error');
    expect(r.exit()).toBe(EXIT_CODES.error);
  });
});

describe('a baseline', () => {
  const failing = () => allPassed().map((t) => (t.id === 'T-1' ? { ...t, status: 'failed' as const, checks: [check('OP-MUST-1', false)] } : t));

  it('changes the exit code only: the verdict still says what was observed, the known failure marked', () => {
    const r = run(failing(), { ...operatorOnly, knownFailures: ['T-1'] });
    expect(r.verdict).toBe('non-conformant');
    expect(r.status('OP-MUST-1')).toBe('failed');
    expect(r.tests.find((t) => t.id === 'T-1')!.known_failure).toBe(true);
    expect(r.baseline_diff).toEqual({ new_failures: [], unexpected_passes: [] });
    expect(r.exit()).toBe(EXIT_CODES.conformant);
  });

  it('fails the exit code on a new failure or an unexpected pass', () => {
    expect(run(failing(), { ...operatorOnly, knownFailures: [] }).exit()).toBe(EXIT_CODES.nonConformant);
    expect(run(allPassed(), { ...operatorOnly, knownFailures: ['T-1'] }).exit()).toBe(EXIT_CODES.nonConformant);
  });

  it('still exits 3 for an incomplete run and 2 for a harness error', () => {
    const partial = failing().filter((t) => t.id !== 'T-2');
    expect(run(partial, { ...operatorOnly, knownFailures: ['T-1'] }).exit()).toBe(EXIT_CODES.incomplete);
    expect(run(partial, { ...operatorOnly, knownFailures: ['T-1'] }).exit(true)).toBe(EXIT_CODES.conformant);
    const errored = [...failing(), test('T-9', ['OP-MUST-2'], 'error', [], { error_code: 'HARNESS_INTERNAL' })];
    expect(run(errored, { ...operatorOnly, knownFailures: ['T-1'] }).exit()).toBe(EXIT_CODES.error);
  });
});

// README "In CI": one table, every combination of what was observed and the
// flags that change the exit code. The expectation is written from the table,
// not from the code under test.
describe('the exit code in every combination of flags', () => {
  const observed = {
    conformant: allPassed(),
    'a test not run (--only)': allPassed().filter((t) => t.id !== 'T-2'),
    'a failure': allPassed().map((t) => (t.id === 'T-1' ? { ...t, status: 'failed' as const, checks: [check('OP-MUST-1', false)] } : t)),
    'a failure and a test not run': allPassed()
      .filter((t) => t.id !== 'T-2')
      .map((t) => (t.id === 'T-1' ? { ...t, status: 'failed' as const, checks: [check('OP-MUST-1', false)] } : t)),
    'a harness error': [...allPassed(), test('T-9', ['OP-MUST-2'], 'error', [], { error_code: 'HARNESS_INTERNAL' })],
    'a failure and a harness error': [
      ...allPassed().map((t) => (t.id === 'T-1' ? { ...t, status: 'failed' as const, checks: [check('OP-MUST-1', false)] } : t)),
      test('T-9', ['OP-MUST-2'], 'error', [], { error_code: 'HARNESS_INTERNAL' }),
    ],
  } as const;
  const baselines = { none: undefined, 'lists T-1': ['T-1'], 'lists nothing': [], 'lists T-3': ['T-3'] } as const;

  /** The table of README "In CI", applied by hand. */
  function expected(what: keyof typeof observed, baseline: keyof typeof baselines, allowPartial: boolean): number {
    const failed = what.includes('failure');
    const errored = what.includes('harness error');
    const untested = what.includes('not run');
    const incomplete = allowPartial ? 0 : 3;
    if (baseline === 'none') return failed ? 1 : errored ? 2 : untested ? incomplete : 0;
    const known = baseline === 'lists T-1' ? ['T-1'] : baseline === 'lists T-3' ? ['T-3'] : [];
    const newFailure = failed && !known.includes('T-1');
    const unexpectedPass = known.some((id) => id !== 'T-1' || !failed);
    if (!failed && errored) return 2; // no failure at all: the verdict is error, which no baseline can accept
    if (newFailure || unexpectedPass) return 1;
    if (errored) return 2;
    return untested ? incomplete : 0;
  }

  const cases = Object.keys(observed).flatMap((what) => Object.keys(baselines).flatMap((baseline) => [false, true].map((allowPartial) => [what, baseline, allowPartial] as [keyof typeof observed, keyof typeof baselines, boolean])));
  it.each(cases)('%s, baseline %s, --allow-partial %s', (what, baseline, allowPartial) => {
    const knownFailures = baselines[baseline];
    const r = run([...observed[what]], { ...operatorOnly, ...(knownFailures !== undefined ? { knownFailures } : {}) });
    const exit = exitOf({ ...r, errors: [] }, allowPartial);
    expect(exit.code).toBe(expected(what, baseline, allowPartial));
    // The reason a reader is given never contradicts the code.
    if (exit.code === 3) expect(exit.because).toMatch(/not exercised \(--allow-partial accepts that\)/);
    if (exit.code === 0 && what.includes('not run')) expect(exit.because).toMatch(/accepted by --allow-partial/);
    if (exit.code === 1 && baseline !== 'none') expect(exit.because).toMatch(/the baseline does not list|update the baseline/);
  });
});

describe('a test whose every failure is at a level that does not decide', () => {
  const failedAt = (level: CheckResult['level'], requirement: string, extra: CheckResult[] = []) =>
    allPassed().map((t) => (t.id === 'T-4' ? { ...t, status: 'failed' as const, checks: [check(requirement, false, { level }), ...extra] } : t));
  const judged = (r: ReturnType<typeof run>) => r.tests.find((t) => t.id === 'T-4')!;

  it.each<[string, TestResult[], Parameters<typeof assess>[3], boolean]>([
    ['a SHOULD without --strict', failedAt('SHOULD', 'OP-SHOULD-1'), operatorOnly, true],
    ['a SHOULD under --strict', failedAt('SHOULD', 'OP-SHOULD-1'), { ...operatorOnly, strict: true }, false],
    ['a PROFILE under --profile-advisory', failedAt('PROFILE', 'OP-PRF-1'), { ...operatorOnly, profileAdvisory: true }, true],
    ['a PROFILE without --profile-advisory', failedAt('PROFILE', 'OP-PRF-1'), operatorOnly, false],
    ['a MAY, even under --strict', failedAt('MAY', 'OP-MAY-1', [check('OP-SHOULD-1', true, { level: 'SHOULD' })]), { ...operatorOnly, strict: true }, true],
    ['a SHOULD beside a failed MUST', failedAt('SHOULD', 'OP-SHOULD-1', [check('OP-MUST-1', false)]), operatorOnly, false],
  ])('is a warning, counted apart from the failures, for %s', (_name, tests, options, warning) => {
    const r = run(tests, options);
    expect(judged(r).status).toBe('failed');
    expect(judged(r).warning).toBe(warning ? true : undefined);
    expect([r.summary.failed, r.summary.warned]).toEqual(warning ? [0, 1] : [1, 0]);
    expect(r.verdict).toBe(warning ? 'conformant' : 'non-conformant');
    expect(r.exit()).toBe(warning ? EXIT_CODES.conformant : EXIT_CODES.nonConformant);
    const s = r.summary;
    expect(s.passed + s.failed + s.warned + s.skipped + s.not_applicable + s.error).toBe(s.total);
  });

  it("judges a test that failed without a failed check by the registry's levels of the requirements it names", () => {
    const without = (requirements: string[]) => allPassed().map((t) => (t.id === 'T-4' ? { ...t, requirements, status: 'failed' as const, checks: [], reason: 'the step could not be judged' } : t));
    expect(judged(run(without(['OP-SHOULD-1']))).warning).toBe(true);
    expect(judged(run(without(['OP-SHOULD-1', 'OP-MUST-1']))).warning).toBeUndefined();
  });

  it("judges the registry's level of a failed check's requirement, as the requirement's status does", () => {
    const r = run(failedAt('MUST', 'OP-SHOULD-1'));
    expect(r.status('OP-SHOULD-1')).toBe('warning');
    expect(judged(r).warning).toBe(true);
  });

  it('judges a marker the test already carries again, under the options of this assessment', () => {
    const marked = failedAt('SHOULD', 'OP-SHOULD-1').map((t) => ({ ...t, warning: true as const }));
    expect(judged(run(marked, { ...operatorOnly, strict: true })).warning).toBeUndefined();
    const passedWithMarker = allPassed().map((t) => ({ ...t, warning: true as const }));
    expect(run(passedWithMarker).tests.some((t) => t.warning)).toBe(false);
  });

  it('is no new failure against a baseline, and a known failure that now warns is no unexpected pass', () => {
    const fresh = run(failedAt('SHOULD', 'OP-SHOULD-1'), { ...operatorOnly, knownFailures: [] });
    expect(fresh.baseline_diff).toEqual({ new_failures: [], unexpected_passes: [] });
    expect(fresh.exit()).toBe(EXIT_CODES.conformant);
    const known = run(failedAt('SHOULD', 'OP-SHOULD-1'), { ...operatorOnly, knownFailures: ['T-4'] });
    expect(judged(known)).toMatchObject({ warning: true, known_failure: true });
    expect(known.baseline_diff).toEqual({ new_failures: [], unexpected_passes: [] });
    const strict = run(failedAt('SHOULD', 'OP-SHOULD-1'), { ...operatorOnly, strict: true, knownFailures: [] });
    expect(strict.baseline_diff?.new_failures).toEqual(['T-4']);
  });
});
