// The faults nobody pointed to: each knob of reference/faults/knobs.ts is one
// realistic mistake the suite and the fuzzer were never shown, a fuzzer mutant
// of reference/mutants.ts (the suite and
// the fuzzer before the model grew missed every one). The fuzzer must find each
// with a fixed seed within a fixed count of runs, name it by the requirement of
// the rule it breaks, confirm it against fresh state, and write a regression
// scenario that fails on the faulty Operator and passes on the reference.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import type { HttpRole } from '../../../harness/adapters/types.ts';
import { runCampaign, type CampaignResult } from '../../../harness/fuzz/index.ts';
import { executeScenario } from '../../../harness/scenarios/execute.ts';
import { loadSuiteFile, SUITES_DIR } from '../../../harness/scenarios/load.ts';
import type { Policy } from '../../../reference/operator/policy.ts';
import { startReference } from '../../../reference/start.ts';
import type { KnobFault } from '../../../reference/faults/knobs.ts';
import { startKnoblessOperator } from './knobbed-operator.ts';
import { scenarioOptions, scenarioTarget, startMutant, useReference, type MutantUnderTest } from './scenario-target.ts';

/** A policy with a second asset: a Lock Request may name a listed asset that is not the Principal's. */
const TWO_ASSETS: Partial<Policy> = { assets: [{ type: 'fiat', code: 'EUR' }, { type: 'fiat', code: 'USD' }] };

/** The run budget of every campaign here: a count, never a time. */
const RUNS = 300;

// Each fault with a seed that meets it, and the requirements a finding of it may
// be named by (a lost update shows in the answer of the mix, or at the next read
// of the balances; an expiry left undone at the clock move, or at the next read).
const FAULTS: [KnobFault, number, readonly string[], Partial<Policy>?][] = [
  // Concurrency between different operations, and across packs sharing one redeemer.
  ['op-redeemer-credit-lost-update', 1, ['CPP-RED-1', 'CPP-FND-1']],
  ['op-redeem-rechecks-status-only', 1, ['CPP-CHN-1', 'CPP-RACE-1']],
  ['op-cancel-unchecked-after-wait', 2, ['CPP-RACE-1']],
  ['op-status-depth-before-pack', 2, ['CPP-CHN-1']],
  // Amounts beyond 2^53; every asset of the policy.
  ['op-balance-in-doubles', 1, ['CPP-FND-1']],
  ['op-balance-asset-blind', 1, ['CPP-BAL-1'], TWO_ASSETS],
  // Error precedence.
  ['op-limit-before-asset', 1, ['PRF-ORDER-1']],
  ['op-lookup-before-pack-signature', 2, ['CPP-SIG-1']],
  // Whose clock.
  ['op-renewal-stamps-issued-at', 1, ['PRF-MSG-1']],
  ['op-identity-window-from-created-at', 2, ['CPP-IDN-1']],
  // Stale and tampered pack versions.
  ['op-verification-cached-by-digest', 1, ['CPP-SIG-1']],
  // Re-provisioned identities.
  ['op-identity-level-cached', 2, ['CPP-IDN-1']],
  ['op-reprovision-replaces-account', 1, ['PRF-CTL-1']],
  // By count.
  ['op-replay-store-capacity', 1, ['CPP-RPL-1']],
  ['op-expiry-sweep-limited', 2, ['CPP-EXP-2', 'CPP-FND-1']],
];

describe('the faults nobody pointed to', () => {
  const ref = useReference('cpr-unseen-');

  it.each([
    ['the policy of the reference', {}],
    ['two assets', TWO_ASSETS],
  ] as const)('the knobbed Operator with no knob answers as the reference does (%s)', async (_name, policy) => {
    const clean = await startKnoblessOperator(policy);
    const role = createHttpRole({ baseUrl: clean.url });
    try {
      const result = await runCampaign({ operator: role, seed: 1, lanes: 1, budget: { kind: 'runs', runs: RUNS }, outDir: join(ref.dir, 'clean'), targetName: 'fixture-clean' });
      expect(result.failure).toBeUndefined();
      expect(result.runs).toBe(RUNS);
    } finally {
      await role.close();
      await clean.close();
    }
  }, 300_000);

  describe.each(FAULTS)('%s (seed %i)', (fault, seed, requirements, policy) => {
    let faulty: MutantUnderTest;
    let role: HttpRole;
    let result: CampaignResult;
    beforeAll(async () => {
      faulty = await startMutant(fault, policy ?? {});
      role = faulty.role;
      result = await runCampaign({ operator: role, seed, lanes: 1, budget: { kind: 'runs', runs: RUNS }, reduceAttempts: 60, outDir: join(ref.dir, fault), targetName: fault });
    }, 300_000);
    afterAll(async () => {
      await faulty.close();
    });

    it('is found within the run budget, named by the rule it breaks, and fails again against fresh state', () => {
      const failure = result.failure!;
      expect(failure).toBeDefined();
      expect(result.runs).toBeLessThanOrEqual(RUNS);
      expect(requirements).toContain(failure.detail.cause.requirement);
      expect(failure.detail.requirement).toBe(failure.detail.cause.requirement);
      expect(failure.flaky).toBe(false);
      expect(failure.reproduction).toMatchObject({ reproduces: true });
    });

    it('leaves a regression scenario that fails on the faulty Operator and passes on the reference with its policy', async () => {
      const scenario = loadSuiteFile(result.failure!.regressionFile).scenarios[0]!;
      const onFaulty = await executeScenario(scenario, scenarioTarget(role), scenarioOptions);
      expect(onFaulty.status).toBe('failed');
      const correct = policy === undefined ? undefined : await startReference({ port: 0, plaintextPort: null, policy });
      const correctRole = correct === undefined ? ref.role : createHttpRole({ baseUrl: correct.url, ca: correct.tls.ca });
      try {
        const onReference = await executeScenario(scenario, scenarioTarget(correctRole), scenarioOptions);
        expect(onReference.reason).toBeUndefined();
        expect(onReference.status).toBe('passed');
      } finally {
        if (correct !== undefined) {
          await correctRole.close();
          await correct.close();
        }
      }
    }, 60_000);
  });
});

// The suite keeps the fuzzer's mixed groups as scenarios (suites/cashpack/1.2-mixed-races.yaml):
// each fails on the concurrency fault it stands for, and passes on the knobbed Operator with no knob.
describe('the mixed races of the suite', () => {
  const suite = loadSuiteFile(join(SUITES_DIR, 'cashpack', '1.2-mixed-races.yaml'));
  it.each<[KnobFault | 'op-non-atomic-redeem' | 'no knob', readonly string[]]>([
    ['no knob', []],
    ['op-cancel-unchecked-after-wait', ['CPP-RACE-005']],
    ['op-redeem-rechecks-status-only', ['CPP-RACE-006']],
    ['op-non-atomic-redeem', ['CPP-RACE-006']],
    ['op-status-depth-before-pack', ['CPP-RACE-007']],
    ['op-redeemer-credit-lost-update', ['CPP-RACE-008']],
  ])('against %s, fail: %j', async (fault, failing) => {
    const server = fault === 'no knob' ? await startKnoblessOperator() : await startMutant(fault);
    const role = 'role' in server ? server.role : createHttpRole({ baseUrl: server.url });
    try {
      const failed: string[] = [];
      for (const scenario of suite.scenarios) {
        const result = await executeScenario(scenario, scenarioTarget(role), scenarioOptions);
        if (result.status === 'passed') continue;
        expect(result.status).toBe('failed');
        failed.push(scenario.id);
      }
      expect(failed).toEqual(failing);
    } finally {
      if (!('role' in server)) await role.close();
      await server.close();
    }
  }, 120_000);
});
