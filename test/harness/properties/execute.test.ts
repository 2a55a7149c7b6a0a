import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StepError, type ScenarioTarget } from '../../../harness/scenarios/context.ts';
import { executeProperty, SHRINK_ATTEMPTS } from '../../../harness/properties/execute.ts';
import type { PropertyDefinition } from '../../../harness/properties/types.ts';
import type { Exchange } from '../../../harness/report/model.ts';

const target = (capabilities: string[] = []): ScenarioTarget =>
  ({
    httpRole: () => undefined,
    payingApp: undefined,
    capabilities: () => new Set(capabilities),
    adapterKind: () => 'http',
    credential: () => undefined,
  }) as unknown as ScenarioTarget;

const options = { seed: 42, levelOf: () => 'MUST' as const, rerun: (id: string) => `npx cpr-conformance run --only ${id} --seed 42` };

function property(check: (n: number) => boolean, extra: Partial<PropertyDefinition> = {}): PropertyDefinition {
  return {
    id: 'PROP-TEST-001',
    title: 'numbers are small',
    requirements: ['CPR-MEMO-1', 'PRF-LEN-1'],
    level: 'MUST',
    role: 'payee',
    sections: ['§2.1'],
    needs: [],
    defaultRuns: 200,
    arbitrary: () => fc.nat(1000) as fc.Arbitrary<unknown>,
    check: async (_ctx, n) => (check(n as number) ? undefined : { expected: 'at most 50', actual: n, message: `${String(n)} is too large` }),
    ...extra,
  };
}

describe('executing a property', () => {
  it('passes when every generated case holds, attributing a check to each requirement', async () => {
    const result = await executeProperty(property(() => true), target(), options);
    expect(result).toMatchObject({ kind: 'property', status: 'passed', seed: 42 });
    expect(result.checks.map((c) => [c.requirement, c.passed])).toEqual([
      ['CPR-MEMO-1', true],
      ['PRF-LEN-1', true],
    ]);
    expect(result.checks[0]!.actual).toBe('200 held');
  });

  it('fails with the shrunk counterexample, the seed and the replay path', async () => {
    const result = await executeProperty(property((n) => n <= 50), target(), options);
    expect(result.status).toBe('failed');
    expect(result.seed).toBe(42);
    expect(result.path).toMatch(/^\d+(:\d+)*$/);
    expect(result.checks[0]).toMatchObject({ passed: false, expected: 'at most 50', actual: { counterexample: 51, seen: 51 } });
    expect(result.reason).toMatch(/falsified after \d+ case\(s\), shrunk \d+ time\(s\): 51 is too large/);
  });

  it('charges a failed case to the rules it names among its requirements and charges, and a pass to all of them', async () => {
    const charges = () => ['CPR-TIME-1', 'PRF-CPR-1'];
    const held = await executeProperty(property(() => true, { charges }), target(), options);
    expect(held.checks.map((c) => [c.requirement, c.passed])).toEqual(['CPR-MEMO-1', 'PRF-LEN-1', 'CPR-TIME-1', 'PRF-CPR-1'].map((id) => [id, true]));
    const broke = (requirements: string[]) =>
      executeProperty(property(() => true, { charges, check: async (_ctx, n) => ((n as number) <= 50 ? undefined : { expected: 'a valid CPR', actual: n, message: 'invalid', requirements }) }), target(), options);
    // A rule of its charges: only that one fails, the others were not evaluated.
    const charged = await broke(['CPR-TIME-1']);
    expect(charged.checks.map((c) => [c.requirement, c.passed])).toEqual([['CPR-TIME-1', false]]);
    expect(charged.not_evaluated?.map((n) => n.requirement)).toEqual(['CPR-MEMO-1', 'PRF-LEN-1', 'PRF-CPR-1']);
    // A rule neither its own nor a charge: the property's own requirements carry it.
    expect((await broke(['CPR-VER-1'])).checks.map((c) => c.requirement)).toEqual(['CPR-MEMO-1', 'PRF-LEN-1']);
  });

  it('neither claims nor covers by a pass what the policy left it no case of, and still charges a failure to it', async () => {
    const vacuousUnder = () => ['PRF-LEN-1'];
    const held = await executeProperty(property(() => true, { vacuousUnder }), target(), options);
    expect(held.status).toBe('passed');
    expect(held.requirements).toEqual(['CPR-MEMO-1']);
    expect(held.checks.map((c) => c.requirement)).toEqual(['CPR-MEMO-1']);
    const broke = await executeProperty(property(() => true, { vacuousUnder, check: async (_ctx, n) => ((n as number) <= 50 ? undefined : { expected: 'at most 50', actual: n, message: 'too long', requirements: ['PRF-LEN-1'] }) }), target(), options);
    expect(broke.status).toBe('failed');
    expect(broke.checks.map((c) => [c.requirement, c.passed])).toEqual([['PRF-LEN-1', false]]);
  });

  it('shrinks only to cases that fail for the same requirements: a state the first failure left behind charges nothing else', async () => {
    // The first failing case (a number over 500) changes the target; after it every number over 50 fails for another rule, as a
    // smaller case meeting a pack the failure redeemed would.
    let changed = false;
    const check = async (_ctx: unknown, n: unknown) => {
      if ((n as number) > 500) {
        changed = true;
        return { expected: 'at most 500', actual: n, message: `${String(n)} over 500`, requirements: ['PRF-LEN-1'] };
      }
      return changed && (n as number) > 50 ? { expected: 'at most 50', actual: n, message: `${String(n)} met the changed state`, requirements: ['CPR-MEMO-1'] } : undefined;
    };
    const result = await executeProperty(property(() => true, { check }), target(), options);
    expect(result.status).toBe('failed');
    expect(result.checks.map((c) => [c.requirement, c.passed])).toEqual([['PRF-LEN-1', false]]);
    expect(result.reason).toMatch(/: 501 over 500$/);
    expect(result.checks[0]!.actual).toMatchObject({ counterexample: 501, seen: 501 });
  });

  it('bounds shrinking by a count of candidates, and says where it stopped', async () => {
    // Only the first case fails: no candidate is smaller and failing, and a
    // list of 300 numbers has far more candidates than the budget.
    let calls = 0;
    const wide = property(() => true, {
      arbitrary: () => fc.array(fc.nat(), { minLength: 300, maxLength: 300 }) as fc.Arbitrary<unknown>,
      check: async () => (calls++ === 0 ? { expected: 'none', actual: 'first', message: 'the first case fails' } : undefined),
    });
    const result = await executeProperty(wide, target(), options);
    expect(result.status).toBe('failed');
    expect(calls).toBe(1 + SHRINK_ATTEMPTS);
    expect(result.reason).toContain(`shrunk 0 time(s) (shrinking stopped after ${SHRINK_ATTEMPTS} candidates): the first case fails`);
    // With no budget (the targeted selftest: a kill needs a failure, not a small one) the first failure is the one reported.
    calls = 0;
    const unshrunk = await executeProperty(wide, target(), { ...options, shrinkAttempts: 0 });
    expect(calls).toBe(1);
    expect(unshrunk.reason).toContain('shrunk 0 time(s) (not shrunk): the first case fails');
    // A shrink that ends within the budget says nothing of it.
    const small = await executeProperty(property((n) => n <= 50), target(), options);
    expect(small.reason).not.toContain('stopped');
  });

  it('is reproducible by seed', async () => {
    const a = await executeProperty(property((n) => n % 7 !== 3), target(), options);
    const b = await executeProperty(property((n) => n % 7 !== 3), target(), options);
    expect(a.path).toBe(b.path);
    expect(a.checks[0]!.actual).toEqual(b.checks[0]!.actual);
  });

  it('skips, naming the capability, and never claims a pass it did not run', async () => {
    const skipped = await executeProperty(property(() => true, { needs: ['provision'] }), target(), options);
    expect(skipped).toMatchObject({ status: 'skipped', missing_capabilities: ['provision'], checks: [] });
    // Its first case generated only after the time limit: none runs, and that is no pass.
    const busy = (ms: number) => fc.nat(1000).map((n) => { const until = performance.now() + ms; while (performance.now() < until); return n; }) as fc.Arbitrary<unknown>;
    const interrupted = await executeProperty(property(() => true, { arbitrary: () => busy(5) }), target(), { ...options, runs: 1000, timeLimitMs: 1 });
    expect(interrupted).toMatchObject({ status: 'error', reason: 'no generated case ran within the time limit' });
  });

  it('stops at its time limit between cases, never leaving one running', async () => {
    let started = 0;
    let ended = 0;
    const slow = property(() => true, { check: async () => { started += 1; await new Promise((r) => setTimeout(r, 60)); ended += 1; return undefined; } });
    const result = await executeProperty(slow, target(), { ...options, runs: 1000, timeLimitMs: 100 });
    // The case in flight at the limit ended before the property did, and none started after it.
    expect(ended).toBe(started);
    await new Promise((r) => setTimeout(r, 150));
    expect(started).toBe(ended);
    expect(started).toBeGreaterThanOrEqual(2);
    expect(started).toBeLessThan(1000);
    expect(result).toMatchObject({ status: 'passed' });
    expect(result.checks[0]!.actual).toBe(`${started} held (${started} of 1000 cases ran before the time limit)`);
  });

  it('reports an exception in a check as a harness error, not a conformance failure', async () => {
    const result = await executeProperty(property(() => { throw new Error('boom'); }), target(), options);
    expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_INTERNAL', reason: expect.stringMatching(/^harness failure: Error: boom/) });
  });

  it("records a failed setup under the requirement it observed failing, never under the property's own", async () => {
    const failing = property(() => true, { check: async () => { throw StepError.setupFailed('CPP-RNW-1', 'a renewal was granted, but the pack names the old bearer'); } });
    const result = await executeProperty(failing, target(), options);
    expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_SETUP_FAILED', reason: 'a renewal was granted, but the pack names the old bearer' });
    expect(result.checks).toEqual([expect.objectContaining({ check: 'setup', requirement: 'CPP-RNW-1', passed: false, setup: true })]);
    // Any other step error records nothing.
    const other = await executeProperty(property(() => true, { check: async () => { throw new StepError('error', 'test control refused'); } }), target(), options);
    expect(other).toMatchObject({ status: 'error', error_code: 'HARNESS_STEP_FAILED', checks: [] });
  });

  it("shows the exchanges of the case that failed its setup, not the teardown's after it; a teardown that fails shows its own", async () => {
    const exchange = (method: string, path: string, status: number): Exchange => ({ role: 'operator', request: { method, url: `https://op.test${path}`, headers: {} }, response: { status, headers: {} }, duration_ms: 1 });
    const issue = exchange('POST', '/v1/cashpack/issue', 422);
    const restore = exchange('POST', '/_control/clock', 200);
    const failing = property(() => true, {
      check: async (ctx) => {
        ctx.transcript.push(issue);
        throw StepError.setupFailed('CPP-ISS-1', 'the Operator did not issue a pack');
      },
      teardown: async (ctx) => void ctx.transcript.push(restore),
    });
    const result = await executeProperty(failing, target(), options);
    expect(result.error_code).toBe('HARNESS_SETUP_FAILED');
    expect(result.transcript.at(-1)).toEqual(issue);
    expect(result.transcript).not.toContainEqual(restore);
    const brokenTeardown = property(() => true, {
      teardown: async (ctx) => {
        ctx.transcript.push(restore);
        throw new StepError('error', 'the clock could not be put back');
      },
    });
    const torn = await executeProperty(brokenTeardown, target(), options);
    expect(torn).toMatchObject({ status: 'error', error_code: 'HARNESS_STEP_FAILED' });
    expect(torn.transcript.at(-1)).toEqual(restore);
  });
});
