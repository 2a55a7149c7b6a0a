// Paying applications written from the spec and PROFILE.md by someone else:
// honest in every way the profile allows, and each differing from the
// reference where the profile leaves room. None may be called non-conformant
// for it; where one departs from a profile rule, only that PRF requirement fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnProcessRole } from '../../../harness/adapters/process.ts';
import type { AppResult, PayingAppRole } from '../../../harness/adapters/types.ts';
import { requirementResults } from '../../../harness/report/aggregate.ts';
import type { TestResult } from '../../../harness/report/model.ts';
import { scenarioTarget } from '../../../harness/runner/scenario-target.ts';
import type { ScenarioTarget } from '../../../harness/scenarios/context.ts';
import { loadSuites } from '../../../harness/scenarios/load.ts';
import { planOf, runPlan } from '../../../harness/runner/plan.ts';
import { embeddedTarget, type Target } from '../../../harness/target/target.ts';
import { loadRegistry } from '../../../profile/registry.ts';

const scenarios = loadSuites()
  .flatMap((s) => s.scenarios)
  .filter((s) => s.role === 'paying-app');

let embedded: Target;
beforeAll(async () => {
  embedded = await embeddedTarget();
});
afterAll(async () => {
  await embedded.close();
});

/** The embedded target with its paying application's answers rewritten. */
function withApp(rewrite: (result: AppResult) => AppResult): ScenarioTarget {
  const base = scenarioTarget(embedded);
  const app = base.payingApp!;
  const wrapped: PayingAppRole = { ...app, read: async (input) => rewrite(await app.read(input)), derive: async (cpr, context) => rewrite(await app.derive(cpr, context)) };
  return { ...base, payingApp: wrapped };
}

async function run(target: ScenarioTarget): Promise<{ results: TestResult[]; status: (id: string) => string }> {
  const { results } = await runPlan(planOf(scenarios, []), target, { seed: 1, rerunBase: 'run' });
  const requirements = requirementResults(loadRegistry(), results, { strict: false });
  return { results, status: (id) => requirements.find((r) => r.id === id)!.status };
}

describe('a paying application the profile allows to differ from the reference', () => {
  it('rejects with CPR_VERSION_UNSUPPORTED without a violations list: nothing fails (PROFILE.md §8.3 asks for one with CPR_INVALID only)', async () => {
    const withoutViolations = (r: AppResult): AppResult => {
      if (r.ok || r.code === 'CPR_INVALID') return r;
      const { violations: _dropped, ...rest } = r;
      return rest;
    };
    const { results, status } = await run(withApp(withoutViolations));
    expect(results.filter((t) => t.status !== 'passed').map((t) => `${t.id}: ${t.reason}`)).toEqual([]);
    for (const id of ['CPR-VER-1', 'DLV-FILE-1', 'DRV-VALID-1', 'PRF-APP-1']) expect(status(id)).toBe('passed');
  });
});

describe('a paying application that departs from a profile rule', () => {
  it('names other registry IDs in its violations: PRF-APP-1 fails, and no spec requirement', async () => {
    const { results, status } = await run(withApp((r) => (!r.ok && r.violations ? { ...r, violations: r.violations.map((v) => ({ ...(v as object), requirement: 'SOMETHING-ELSE-1' })) } : r)));
    const failed = results.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(10);
    const failedRequirements = new Set(failed.flatMap((t) => t.checks.filter((c) => !c.passed).map((c) => c.requirement)));
    expect([...failedRequirements]).toEqual(['PRF-APP-1']);
    for (const id of ['CPR-VER-1', 'CPR-MEMO-1', 'CPR-VAL-1', 'DRV-VALID-1', 'PRF-AMT-1']) expect(status(id)).toBe('passed');
    expect(status('PRF-APP-1')).toBe('failed');
  });

  it('rejects with terse messages: only PRF-APP-1 fails, the rejections themselves stand', async () => {
    const { results, status } = await run(withApp((r) => (!r.ok ? { ...r, message: 'no' } : r)));
    const failedRequirements = new Set(results.flatMap((t) => t.checks.filter((c) => !c.passed).map((c) => c.requirement)));
    expect([...failedRequirements].sort()).toEqual(['DRV-RAIL-2', 'PRF-APP-1']);
    expect(status('DRV-VALID-1')).toBe('passed');
  });
});

describe('a paying application whose adapter breaks its contract', () => {
  it('gets harness errors (HARNESS_ADAPTER_PROTOCOL), never a conformance failure', async () => {
    const garbage = await spawnProcessRole(
      [process.execPath, '-e', `process.stdout.write(JSON.stringify({ ready: true, protocol: 'cpr-conformance-adapter/1', roles: ['paying-app'] }) + '\\n'); require('node:readline').createInterface({ input: process.stdin }).on('line', () => process.stdout.write('I am not JSON\\n'));`],
      { role: 'paying-app' },
    );
    try {
      const target = { ...scenarioTarget(embedded), payingApp: garbage, adapterKind: (role: string) => (role === 'paying-app' ? ('process' as const) : scenarioTarget(embedded).adapterKind(role as 'payee')) };
      const some = scenarios.filter((s) => !s.adapters).slice(0, 12);
      const { results } = await runPlan(planOf(some, []), target, { seed: 1, rerunBase: 'run' });
      expect(results.filter((t) => t.status === 'failed')).toEqual([]);
      expect(results.every((t) => t.checks.every((c) => c.passed))).toBe(true);
      // The broken contract is named; after five in a row the run guard counts the adapter as gone,
      // and the later tests are reported without being run.
      const protocol = results.filter((t) => t.error_code === 'HARNESS_ADAPTER_PROTOCOL');
      expect(protocol.length).toBeGreaterThanOrEqual(1);
      expect(protocol[0]!.reason).toMatch(/not JSON/);
      const rest = results.filter((t) => t.error_code !== 'HARNESS_ADAPTER_PROTOCOL');
      expect(rest.every((t) => t.error_code === 'HARNESS_TARGET_UNREACHABLE' && t.not_run === true && /^the paying application .* stopped answering/.test(t.reason ?? ''))).toBe(true);
      expect(results.every((t) => t.status === 'error')).toBe(true);
    } finally {
      await garbage.close();
    }
  });
});
