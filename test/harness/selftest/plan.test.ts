// A targeted selftest runs, for each mutant, the tests that can judge what it declares.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { killersOf, loadKillers, targetedStages, writeKillers } from '../../../harness/selftest/killers.ts';
import type { KillMatrix } from '../../../harness/selftest/matrix.ts';
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

describe('the killers record and the targeted stages', () => {
  const plan = selftestPlan(['PRF-CTL-1']);
  const scenario = plan.find((t) => t.kind === 'scenario')!;
  const property = plan.find((t) => t.kind === 'property')!;

  it('runs the recorded killers still in the plan first, then the other scenarios, then the other properties, each test once', () => {
    const stages = targetedStages(plan, [testId(property), 'NO-SUCH-001', testId(property)]);
    expect(stages.map((s) => s.map(testId))).toEqual([
      [testId(property)],
      plan.filter((t) => t.kind === 'scenario').map(testId),
      plan.filter((t) => t.kind === 'property' && t !== property).map(testId),
    ]);
    expect(stages.flat().map(testId).sort()).toEqual(plan.map(testId).sort());
  });

  it('without a record (or with only stale entries) runs the scenarios, then the properties', () => {
    const stages = targetedStages(plan, ['NO-SUCH-001']);
    expect(stages.map((s) => s[0]!.kind)).toEqual(['scenario', 'property']);
    expect(targetedStages(plan)).toEqual(stages);
    expect(targetedStages([])).toEqual([]);
  });

  const row = (name: string, failed: string[], killed = true, flagged: string | null = null) =>
    ({ ...MUTANTS.find((m) => m.name === name)!, killed, flagged, failed_tests: failed, caught_by: [], errors: [], tests: 1, duration_ms: 1 }) as KillMatrix['mutants'][number];
  const matrix = (rows: KillMatrix['mutants']): KillMatrix =>
    ({ reference: { conformant: true, tests: 1, not_passed: [], duration_ms: 1 }, mutants: rows, killed: rows.length, total: rows.length, fuzzer: { not_run: [], informational: [] }, seed: 1, targeted: false, duration_ms: 1 }) as KillMatrix;

  it("records of a full matrix the failed tests a targeted selftest would run, cheapest first, at most three; nothing of a survivor or a flagged kill", () => {
    const name = 'payee-unknown-fulfil-recorded';
    const planned = selftestPlan(MUTANTS.find((m) => m.name === name)!.catches).map(testId);
    const [a, b, c, d] = planned;
    const ms = new Map([[a!, 40], [b!, 10], [c!, 30], [d!, 20]]);
    const record = killersOf(
      matrix([row(name, [a!, b!, c!, d!, 'NOT-PLANNED-001']), row('payee-token-reusable', [a!], false, 'survived: no check failed'), row('op-limit-off-by-one', [a!], true, 'caught only by requirements it does not declare')]),
      selftestPlan,
      ms,
    );
    expect(record).toEqual({ [name]: [b!, d!, c!] });
    expect(() => killersOf({ ...matrix([]), targeted: true }, selftestPlan, ms)).toThrow(/full matrix/);
  });

  it('reads back what it writes, nothing from a missing file, and refuses a file that is no record with CONFIG_INVALID', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpr-killers-'));
    try {
      const file = join(dir, 'killers.json');
      expect(loadKillers(file).size).toBe(0);
      writeKillers(file, { 'op-b': ['X-002'], 'op-a': ['X-001', 'PROP-OP-001'] }, ['cpr-conformance', 'selftest', '--write-killers', 'killers.json']);
      expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).mutants)).toEqual(['op-a', 'op-b']);
      expect([...loadKillers(file)]).toEqual([['op-a', ['X-001', 'PROP-OP-001']], ['op-b', ['X-002']]]);
      writeFileSync(file, '{"format":"cpr-conformance-timings/1","tests":{}}');
      expect(() => loadKillers(file)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
      writeFileSync(file, '{"format":"cpr-conformance-killers/1","mutants":{"op-a":"X-001"}}');
      expect(() => loadKillers(file)).toThrow(/mutants\.op-a/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the committed record names catalogued mutants, most of them (a test renamed since only costs time: targetedStages skips it)', () => {
    const record = loadKillers();
    expect(record.size).toBeGreaterThan(MUTANTS.length / 2);
    expect([...record.keys()].filter((name) => !MUTANTS.some((m) => m.name === name))).toEqual([]);
  });
});
