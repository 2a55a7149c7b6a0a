import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../../profile/registry.ts';
import { assess, EXIT_CODES, exitCodeOf } from '../../../harness/report/aggregate.ts';
import type { CheckResult, HarnessIssue, TestResult } from '../../../harness/report/model.ts';

const requirement = (id: string, level: Requirement['level'], roles: Requirement['roles']): Requirement => ({ id, level, roles, sections: ['§1'], summary: id, family: 'cpr-structure' });
const REGISTRY: Requirement[] = [
  requirement('OP-MUST-1', 'MUST', ['operator']),
  requirement('OP-MUST-2', 'MUST', ['operator']),
  requirement('OP-PRF-1', 'PROFILE', ['operator']),
  requirement('OP-SHOULD-1', 'SHOULD', ['operator']),
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
    expect(r.coverage).toEqual({ roles: ['operator'], deciding: 3, passed: 3, failed: 0, untested: 0, untested_ids: [] });
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

  it('calls a requirement whose every test was not applicable untested, with the reason', () => {
    const r = run([...allPassed().filter((t) => t.id !== 'T-2'), test('T-2', ['OP-MUST-2'], 'not-applicable', [], { reason: 'max_amount + 1 is not a valid amount' })]);
    expect(r.status('OP-MUST-2')).toBe('not-applicable');
    expect(r.requirements.find((x) => x.id === 'OP-MUST-2')!.reason).toContain('max_amount + 1 is not a valid amount');
    expect(r.verdict).toBe('incomplete');
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
