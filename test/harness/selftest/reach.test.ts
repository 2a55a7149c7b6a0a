// The full kill matrix runs against each mutant the tests that reach its switch
// (harness/selftest/selftest.ts reachingPlan): the reference, run one test at a
// time with a SwitchRecorder, says which switches each test consults, and a
// test that never consults a mutant's switch must run the same with it on.
import { describe, expect, it } from 'vitest';
import { planRequirements, runPlan, testId, type PlanTest } from '../../../harness/runner/plan.ts';
import { scenarioTarget } from '../../../harness/runner/scenario-target.ts';
import type { SwitchReach } from '../../../harness/selftest/matrix.ts';
import { reachingPlan, referenceReach, SELFTEST_PROPERTY_RUNS, SELFTEST_SEED, selftestPlan } from '../../../harness/selftest/selftest.ts';
import { usesAction } from '../../../harness/scenarios/load.ts';
import { embeddedTarget } from '../../../harness/target/target.ts';
import { MUTANTS, SwitchRecorder } from '../../../reference/mutants.ts';

describe('SwitchRecorder', () => {
  it('switches nothing on, and gives each switch consulted once, sorted, until taken', () => {
    const recorder = new SwitchRecorder();
    expect(recorder.faults.has('payee-request-id-reused')).toBe(false);
    expect(recorder.faults.has('app-version-unchecked')).toBe(false);
    expect(recorder.faults.has('payee-request-id-reused')).toBe(false);
    expect(recorder.faults.active).toBeUndefined();
    expect(recorder.take()).toEqual(['app-version-unchecked', 'payee-request-id-reused']);
    expect(recorder.take()).toEqual([]);
  });
});

describe('reachingPlan', () => {
  const whole = selftestPlan();
  const [a, b, c] = whole.filter((t) => t.kind === 'scenario' && planRequirements(t).every((id) => id !== 'CPR-ID-1')) as [PlanTest, PlanTest, PlanTest];
  const declared = whole.find((t) => planRequirements(t).includes('CPR-ID-1'))!;
  const spec = { name: 'payee-request-id-reused', catches: ['CPR-ID-1'], role: 'payee' as const };
  const byTest = Object.fromEntries(whole.map((t) => [testId(t), [] as string[]]));

  it('keeps the tests that consulted the switch and those of a declared requirement, in the order of the suite', () => {
    const reach: SwitchReach = { at_open: [], by_test: { ...byTest, [testId(b)]: ['app-version-unchecked', 'payee-request-id-reused'] } };
    const plan = reachingPlan(spec, reach).map(testId);
    expect(plan).toContain(testId(b));
    expect(plan).toContain(testId(declared));
    expect(plan).not.toContain(testId(a));
    expect(plan).not.toContain(testId(c));
    expect(plan).toEqual(whole.map(testId).filter((id) => plan.includes(id)));
  });

  it('keeps every test of its role that releases requests together: which request wins decides which switches it asks', () => {
    const racing = (role: string) => whole.filter((t) => t.kind === 'scenario' && t.scenario.role === role && usesAction(t.scenario, 'parallel')).map(testId);
    expect(racing('payee').length).toBeGreaterThan(0);
    expect(racing('operator').length).toBeGreaterThan(0);
    const plan = reachingPlan(spec, { at_open: [], by_test: byTest }).map(testId);
    expect(plan).toEqual(expect.arrayContaining(racing('payee')));
    for (const id of racing('operator')) expect(plan).not.toContain(id);
  });

  it('keeps every test when the switch was consulted while the target opened, and a test the reach does not know', () => {
    expect(reachingPlan(spec, { at_open: ['payee-request-id-reused'], by_test: byTest })).toEqual(whole);
    const { [testId(c)]: _unknown, ...rest } = byTest;
    expect(reachingPlan(spec, { at_open: [], by_test: rest }).map(testId)).toContain(testId(c));
  });
});

describe('the reach of the switches, from the reference', () => {
  // One test of each role: the payee's and the Operator's switches are consulted in the reference's thread, the paying application's in this one.
  const whole = selftestPlan();
  const sample = (['payee', 'paying-app', 'operator'] as const).map((role) => whole.find((t) => t.kind === 'scenario' && t.scenario.role === role)!);

  it('notes the switches of each role in the tests that reach them, and a test that never consults a switch runs the same with its fault on', { timeout: 120_000 }, async () => {
    const { results, reach } = await referenceReach(sample);
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed', 'passed']);
    const prefixes = sample.map((t) => reach.by_test[testId(t)]!.map((name) => name.split('-')[0]));
    expect(prefixes[0]).toContain('payee');
    expect(prefixes[1]).toContain('app');
    expect(prefixes[2]).toContain('op');
    // For each sampled test, a mutant of its role whose switch it never consulted: the test passes against it as against the reference.
    for (const [i, test] of sample.entries()) {
      const role = test.kind === 'scenario' ? test.scenario.role : test.property.role;
      const consulted = new Set([...reach.at_open, ...reach.by_test[testId(test)]!]);
      const spec = MUTANTS.find((m) => m.role === role && !consulted.has(m.name))!;
      expect(spec, `a mutant of ${role} that ${testId(test)} does not reach`).toBeDefined();
      const target = await embeddedTarget({ reference: { mutant: spec.name } });
      try {
        const { results: against } = await runPlan([test], scenarioTarget(target), { seed: SELFTEST_SEED, propertyRuns: SELFTEST_PROPERTY_RUNS, rerunBase: 'run' });
        expect(against.map((r) => r.status), `${testId(test)} against ${spec.name}`).toEqual([results[i]!.status]);
      } finally {
        await target.close();
      }
    }
  });
});
