import { describe, expect, it } from 'vitest';
import { fuzzerLine, mutantRow, selftestPassed, summaryLine, unavailableLine, type KillMatrix } from '../../../harness/selftest/matrix.ts';
import { unexercisable } from '../../../harness/selftest/selftest.ts';
import { matrixHtml, matrixText } from '../../../harness/selftest/render.ts';
import type { CheckResult, TestResult } from '../../../harness/report/model.ts';

const spec = { name: 'op-limit-off-by-one', role: 'operator', family: 'cashpack-errors', description: 'allows max+1', catches: ['CPP-LIM-1'] };

function test(id: string, status: TestResult['status'], failed: string[] = [], requirements = ['CPP-LIM-1']): TestResult {
  const checks: CheckResult[] = failed.map((requirement) => ({ check: 'status', requirement, level: 'MUST', passed: false, step: '1', expected: 422, actual: 200, message: '' }));
  return { id, title: id, kind: 'scenario', file: 'f', sections: [], requirements, level: 'MUST', role: 'operator', status, duration_ms: 1, checks, transcript: [], rerun: '', ...(status === 'error' ? { reason: 'boom' } : {}) };
}

describe('the kill matrix', () => {
  it.each([
    ['killed by a declared requirement', [test('A', 'failed', ['CPP-LIM-1', 'PRF-ERR-1']), test('B', 'passed')], true, null, ['CPP-LIM-1', 'PRF-ERR-1']],
    ['killed only by an unrelated requirement: flagged', [test('A', 'failed', ['PRF-ERR-1'])], true, /caught only by requirements it does not declare \(PRF-ERR-1\)/, ['PRF-ERR-1']],
    ['a failed test without a failed check counts against the test requirements', [test('A', 'failed', [], ['CPP-LIM-1'])], true, null, ['CPP-LIM-1']],
    ['survived: nothing failed', [test('A', 'passed'), test('B', 'skipped')], false, /survived: no check failed/, []],
    ['an error is never a kill', [test('A', 'error')], false, /could not run against it/, []],
  ] as const)('%s', (_name, results, killed, flag, caughtBy) => {
    const row = mutantRow(spec, results, 10);
    expect(row.killed).toBe(killed);
    expect(row.caught_by).toEqual(caughtBy);
    if (flag === null) expect(row.flagged).toBeNull();
    else expect(row.flagged).toMatch(flag);
  });

  it('counts no check that failed against the reference under the same configuration: it is the configuration\'s', () => {
    const baseline = [test('A', 'failed', ['TOK-EXP-2']), test('B', 'passed')];
    // Only what the configuration shows by itself: not a kill.
    const none = mutantRow(spec, [test('A', 'failed', ['TOK-EXP-2']), test('B', 'passed')], 1, baseline);
    expect([none.killed, none.caught_by, none.flagged]).toEqual([false, [], 'survived: no check failed']);
    // A check of its own beside it: a kill by that check alone.
    const own = mutantRow(spec, [test('A', 'failed', ['TOK-EXP-2', 'CPP-LIM-1']), test('B', 'failed', ['PRF-ERR-1'])], 1, baseline);
    expect([own.killed, own.caught_by, own.failed_tests, own.flagged]).toEqual([true, ['CPP-LIM-1', 'PRF-ERR-1'], ['A', 'B'], null]);
    // The same requirement failing in another test is the mutant's.
    expect(mutantRow(spec, [test('B', 'failed', ['TOK-EXP-2'])], 1, baseline).caught_by).toEqual(['TOK-EXP-2']);
  });

  it('passes only when the reference is conformant and every mutant is killed by a declared check', () => {
    const killed = mutantRow(spec, [test('A', 'failed', ['CPP-LIM-1'])], 1);
    const flagged = mutantRow(spec, [test('A', 'failed', ['PRF-ERR-1'])], 1);
    const matrix = (mutants: KillMatrix['mutants'], conformant = true): KillMatrix => ({
      reference: { conformant, tests: 1, not_passed: [], duration_ms: 1 },
      mutants,
      killed: mutants.filter((m) => m.killed).length,
      total: mutants.length,
      fuzzer: { not_run: [], informational: [] },
      seed: 1,
      targeted: false,
      duration_ms: 1,
    });
    expect(selftestPassed(matrix([killed]))).toBe(true);
    expect(selftestPassed(matrix([killed], false))).toBe(false);
    expect(selftestPassed(matrix([killed, flagged]))).toBe(false);
    expect(summaryLine(matrix([killed, mutantRow(spec, [], 1)]))).toBe('selftest: 1/2 mutants killed, reference conformant');
    expect(summaryLine({ ...matrix([killed]), targeted: true })).toBe('selftest --targeted: 1/1 mutants killed, reference conformant');
    expect(matrixText(matrix([killed]))).toMatch(/op-limit-off-by-one\s+killed\s+CPP-LIM-1/);
    expect(matrixText(matrix([killed]))).not.toMatch(/fuzzer/);
    // The full matrix says how much of the suite each mutant ran, and how many mutants ran all of it.
    const reached = { ...killed, tests: 3, unreached: 2 };
    const other = { ...mutantRow({ ...spec, name: 'op-other' }, [test('A', 'failed', ['CPP-LIM-1'])], 1), tests: 5, unreached: 0 };
    const full = { ...matrix([reached, other]), reach: { at_open: ['op-other', 'op-replay-store-off'], by_test: {} } };
    expect(matrixText(full)).toContain(': 8 test runs, 2 left out that never ask for its switch (1 mutant(s) whose switch is asked while the target opens ran every test)');
    expect(matrixText(matrix([killed]))).not.toContain('test runs');
    expect(matrixText({ ...matrix([]), reach: full.reach })).not.toContain('test runs');
    const html = matrixHtml(matrix([{ ...killed, description: '<script>alert(1)</script>' }]));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });
});

describe('the fuzzer mutants of a selftest', () => {
  const fuzzerSpec = { ...spec, name: 'op-replay-store-off', catcher: 'fuzzer' as const };
  const base = (fuzzer: KillMatrix['fuzzer'], mutants: KillMatrix['mutants'] = []): KillMatrix => ({
    reference: { conformant: true, tests: 1, not_passed: [], duration_ms: 1 },
    mutants,
    killed: mutants.filter((m) => m.killed).length,
    total: mutants.length,
    fuzzer,
    seed: 1,
    targeted: false,
    duration_ms: 1,
  });

  it('are never flagged: a miss is no survival, a failure no kill the suite owes', () => {
    expect(mutantRow(fuzzerSpec, [test('A', 'passed')], 1)).toMatchObject({ catcher: 'fuzzer', killed: false, flagged: null });
    expect(mutantRow(fuzzerSpec, [test('A', 'failed', ['PRF-ERR-1'])], 1)).toMatchObject({ catcher: 'fuzzer', killed: true, caught_by: ['PRF-ERR-1'], flagged: null });
    expect(mutantRow(spec, [], 1).catcher).toBe('suite');
  });

  it('count neither in killed nor in total, and the text says they are left to the fuzzer', () => {
    const killed = mutantRow(spec, [test('A', 'failed', ['CPP-LIM-1'])], 1);
    const matrix = base({ not_run: ['op-replay-store-off', 'payee-refusal-cacheable'], informational: [] }, [killed]);
    expect(summaryLine(matrix)).toBe('selftest: 1/1 mutants killed, reference conformant');
    expect(fuzzerLine(matrix)).toMatch(/^2 fuzzer mutant\(s\), not required of the suite, neither killed nor survived: the fuzzer must find them \(cpr-conformance fuzz/);
    expect(matrixText(matrix)).toContain(fuzzerLine(matrix));
    expect(matrixHtml(matrix)).toContain('2 fuzzer mutant(s), not required of the suite');
  });

  it('run for information pass or fail nothing: the rows say what the suite made of them', () => {
    const missed = mutantRow(fuzzerSpec, [test('A', 'passed')], 1);
    const caught = mutantRow({ ...fuzzerSpec, name: 'op-digest-unchecked' }, [test('A', 'failed', ['CPP-CHN-2'])], 1);
    const matrix = base({ not_run: [], informational: [missed, caught] });
    expect(selftestPassed(matrix)).toBe(true);
    expect(summaryLine(matrix)).toBe('selftest: 0/0 mutants killed, reference conformant');
    const text = matrixText(matrix);
    expect(text).toMatch(/op-replay-store-off\s+information: no test of the suite failed against it/);
    expect(text).toMatch(/op-digest-unchecked\s+information: tests of CPP-CHN-2 failed against it/);
    expect(text).not.toMatch(/SURVIVED|killed\s+CPP-CHN-2/);
    // No suite mutant ran: no matrix to head.
    expect(text).not.toContain('caught by (registry IDs)');
    expect(fuzzerLine(matrix)).toMatch(/2 run for information/);
    expect(fuzzerLine(base({ not_run: [], informational: [] }))).toBeUndefined();
  });
});

// A mutant whose fault the suite reaches only with what this machine may lack (MutantSpec.needs): said, never counted.
describe('mutants this machine cannot exercise', () => {
  const needing = { ...spec, name: 'app-endpoint-ipv6-refused', needs: 'ipv6-loopback' as const };
  it('leaves out a mutant that needs an IPv6 loopback where there is none, and none under CI or where there is one', () => {
    expect(unexercisable([spec, needing], { ipv6: false, ci: false })).toEqual([{ name: 'app-endpoint-ipv6-refused', reason: 'needs an IPv6 loopback, ::1, which this machine lacks' }]);
    expect(unexercisable([spec, needing], { ipv6: true, ci: false })).toEqual([]);
    expect(unexercisable([spec, needing], { ipv6: false, ci: true })).toEqual([]);
  });

  it('says which in the text, passes nothing off as killed, and counts it in neither', () => {
    const killed = mutantRow(spec, [test('A', 'failed', ['CPP-LIM-1'])], 1);
    const plain: KillMatrix = { reference: { conformant: true, tests: 1, not_passed: [], duration_ms: 1 }, mutants: [killed], killed: 1, total: 1, fuzzer: { not_run: [], informational: [] }, seed: 1, targeted: false, duration_ms: 1 };
    const matrix: KillMatrix = { ...plain, unavailable: unexercisable([needing], { ipv6: false, ci: false }) };
    expect(summaryLine(matrix)).toBe('selftest: 1/1 mutants killed, reference conformant');
    expect(unavailableLine(matrix)).toBe('1 mutant(s) not exercisable on this machine, neither killed nor survived: app-endpoint-ipv6-refused (needs an IPv6 loopback, ::1, which this machine lacks); CI=true runs them');
    expect(matrixText(matrix)).toContain(unavailableLine(matrix));
    expect(selftestPassed(matrix)).toBe(true);
    expect(unavailableLine(plain)).toBeUndefined();
  });
});
