// One fault is charged to the requirement whose check saw it, not to every rule
// of the answer that should have come. An Operator that refuses a redeemer
// exactly at required_identity_level answers 403 where a 200 and a signed
// Redemption Confirmation were due: the schema, signature and time rules of
// that confirmation were never shown, so they are not evaluated, never failed.
import { describe, expect, it, vi } from 'vitest';
import { assess } from '../../harness/report/aggregate.ts';
import { planOf, runPlan } from '../../harness/runner/plan.ts';
import { scenarioTarget } from '../../harness/runner/scenario-target.ts';
import { loadSuites } from '../../harness/scenarios/load.ts';
import { embeddedTarget } from '../../harness/target/target.ts';
import { loadRegistry } from '../../profile/registry.ts';

// A whole run of the operator's scenarios: its duration follows the machine's load.
vi.setConfig({ testTimeout: 240_000 });

describe('a single wrong refusal', () => {
  it('fails the requirements whose checks saw it, and leaves the body rules of the answer that never came unjudged', async () => {
    const scenarios = loadSuites().flatMap((s) => s.scenarios).filter((s) => s.role === 'operator');
    const target = await embeddedTarget({ reference: { mutant: 'op-identity-level-exclusive' } });
    let tests;
    try {
      ({ results: tests } = await runPlan(planOf(scenarios, []), scenarioTarget(target), { seed: 7, rerunBase: 'run' }));
    } finally {
      await target.close();
    }
    const assessed = assess(loadRegistry(), tests, [], { strict: false, scopeRoles: ['operator'] });
    expect(assessed.verdict).toBe('non-conformant');
    const failed = assessed.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
    // The redemption at the boundary was refused: the boundary rule and the redemption's own outcome.
    expect(failed).toContain('PRF-BOUND-1');
    for (const body of ['PRF-SIG-1', 'PRF-MSG-1', 'PRF-TIME-1']) expect(failed, body).not.toContain(body);
    // Every failed check is an outcome check that saw the 403, or a check of the state it left.
    const refused = tests.filter((t) => t.status === 'failed');
    expect(refused.length).toBeGreaterThan(0);
    for (const t of refused) {
      const first = t.checks.find((c) => !c.passed)!;
      expect(['status', 'problem', 'exactly_one', 'all'], `${t.id}: ${first.check} ${first.requirement}`).toContain(first.check);
    }
    expect(refused.some((t) => (t.not_evaluated ?? []).length > 0)).toBe(true);
  });
});
