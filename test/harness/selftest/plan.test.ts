// A targeted selftest runs, for each mutant, the tests that can judge what it declares.
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../../reference/mutants.ts';
import { planRequirements, testId } from '../../../harness/runner/plan.ts';
import { selftestPlan, selftestSelection } from '../../../harness/selftest/selftest.ts';

describe('selftestPlan', () => {
  const whole = selftestPlan();

  it('is the whole suite without declared requirements', () => {
    expect(whole.length).toBeGreaterThan(300);
  });

  it('keeps exactly the tests that can judge a declared requirement, in the order of the suite', () => {
    const catches = ['CPP-LIM-1', 'TOK-GET-1'];
    const targeted = selftestPlan(catches);
    const expected = whole.filter((t) => planRequirements(t).some((id) => catches.includes(id)));
    expect(targeted.map(testId)).toEqual(expected.map(testId));
    expect(targeted.length).toBeGreaterThan(0);
    expect(targeted.length).toBeLessThan(whole.length);
    expect(selftestPlan([])).toEqual([]);
  });

  it('gives every mutant at least one test to be killed by', () => {
    const none = MUTANTS.filter((m) => selftestPlan(m.catches).length === 0).map((m) => m.name);
    expect(none).toEqual([]);
  });
});

describe('selftestSelection', () => {
  it('runs every suite mutant and leaves every fuzzer mutant to the fuzzer when none is named', () => {
    const { chosen, notRun } = selftestSelection();
    expect(chosen.map((m) => m.name)).toEqual(MUTANTS.filter((m) => m.catcher === 'suite').map((m) => m.name));
    expect(notRun).toEqual(MUTANTS.filter((m) => m.catcher === 'fuzzer').map((m) => m.name));
    expect(notRun.length).toBeGreaterThan(0);
  });

  it('runs the mutants named, a fuzzer mutant among them too (as information), and leaves none unrun', () => {
    const { chosen, notRun } = selftestSelection(['op-replay-store-off', 'payee-token-reusable']);
    expect(chosen.map((m) => [m.name, m.catcher])).toEqual([
      ['op-replay-store-off', 'fuzzer'],
      ['payee-token-reusable', 'suite'],
    ]);
    expect(notRun).toEqual([]);
  });
});
