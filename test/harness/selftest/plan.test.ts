// A targeted selftest runs, for each mutant, the tests that can judge what it declares.
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../../reference/mutants.ts';
import { planRequirements, testId } from '../../../harness/runner/plan.ts';
import { selftestPlan } from '../../../harness/selftest/selftest.ts';

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
