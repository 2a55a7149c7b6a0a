// The conformance suite as the test of a mutation run (README "Mutation
// testing"): every scenario and every property is one `it`, run by the one
// engine (runPlan) against the embedded reference started in this process, the
// paying application through the in-process module adapter. Stryker instruments
// reference/ and records which `it` reaches each of its mutants, so a mutant
// runs only the tests that reach it. A test passes only when its result is
// `passed`, as every test is against the correct reference
// (test/suites/reference.test.ts): a mutant that turns any of them into a
// failure, an error, a skip or a not-applicable is one the suite would not
// certify. The message says which (`failed:` or `error ...:`), so the report can
// tell a conformance failure from a harness error.
//
// Each role also meets a short fuzz campaign (the Operator's, the payee's and the
// paying application's against the harness's retrieval stub): seeded and bounded
// by a count of model runs, never by time, so every run explores the same sequences.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCampaign, type CampaignResult } from '../../harness/fuzz/index.ts';
import { runPayeeCampaign } from '../../harness/fuzz/payee/index.ts';
import { runAppCampaign } from '../../harness/fuzz/paying-app/index.ts';
import { PROPERTIES } from '../../harness/properties/catalogue.ts';
import { planOf, runPlan, testId } from '../../harness/runner/plan.ts';
import { scenarioTarget } from '../../harness/runner/scenario-target.ts';
import { embeddedTarget, type Target } from '../../harness/target/target.ts';
import { MUTATION_RUN, mutationVerdict, narrowed } from './verdict.ts';

// Loaded once per mutation run (suites.setup.ts), not once per mutant.
const plan = narrowed(planOf(inject('scenarios'), PROPERTIES), MUTATION_RUN.only);

// A seeded reference: the same keys and pack ids on every run, so what a test reaches does not vary between runs.
// Started in the hook, so that Stryker counts the code of its start-up as reached by every test (a mutant
// there runs them all); the hook itself never fails: a mutant that keeps the reference from starting (a
// default policy that is no valid policy, say) fails every test that asks for it, where a failing hook would
// only skip them.
let started: Promise<Target>;
const reference = (): Promise<Target> => started;
const outDir = mkdtempSync(join(tmpdir(), 'cpr-mutation-'));

beforeAll(async () => {
  // In this thread: Stryker's switch of the active mutant and its record of what each test reaches are this thread's globals.
  started = embeddedTarget({ reference: { seed: MUTATION_RUN.referenceSeed }, thread: 'harness' });
  await started.catch(() => undefined);
});

afterAll(async () => {
  await started?.then((target) => target.close(), () => undefined);
  rmSync(outDir, { recursive: true, force: true });
});

describe('conformance', () => {
  for (const test of plan) {
    // The kind after the ID: Stryker selects tests by name, and "X-1 scenario" is no part of "X-10 scenario".
    it(`${testId(test)} ${test.kind}`, async () => {
      const { results } = await runPlan([test], scenarioTarget(await reference()), {
        seed: MUTATION_RUN.seed,
        rerunBase: 'npx cpr-conformance run',
        limits: MUTATION_RUN.limits,
      });
      const verdict = mutationVerdict(results[0]);
      expect(verdict.passed, verdict.message).toBe(true);
    });
  }
});

/** How a campaign ended, as a test's message: a finding or a harness error decides against the mutant, and says which. */
function outcomeOf(campaign: Promise<CampaignResult>): Promise<string> {
  return campaign.then(
    (result) => (result.failure ? `failed: ${result.failure.detail.requirement} ${result.failure.message}` : 'passed'),
    (error: unknown) => `error ${(error as { code?: string }).code ?? 'HARNESS_INTERNAL'}: ${(error as Error).message}`,
  );
}

describe.skipIf(MUTATION_RUN.only !== undefined && !MUTATION_RUN.only.includes('fuzz'))('fuzz', () => {
  const { seed, runs, shrinkMs } = MUTATION_RUN.fuzz;
  const common = { seed, shrinkMs, targetName: 'reference under mutation' } as const;

  it(`operator campaign seed ${seed}`, async () => {
    const target = await reference();
    // A harness error (test control refused, no answer) ends the campaign: it decides, and says so.
    const outcome = await outcomeOf(runCampaign({ ...common, operator: target.operator!, budget: { kind: 'runs', runs: runs.operator }, outDir: join(outDir, 'operator') }));
    expect(outcome, outcome).toBe('passed');
  });

  it(`payee campaign seed ${seed}`, async () => {
    const target = await reference();
    const outcome = await outcomeOf(runPayeeCampaign({ ...common, payee: target.payee!, capabilities: target.capabilities.payee, budget: { kind: 'runs', runs: runs.payee }, outDir: join(outDir, 'payee') }));
    expect(outcome, outcome).toBe('passed');
  });

  it(`paying-app campaign seed ${seed}`, async () => {
    const target = await reference();
    const outcome = await outcomeOf(runAppCampaign({ ...common, app: target.payingApp!, stub: target.stub!, budget: { kind: 'runs', runs: runs.payingApp }, outDir: join(outDir, 'paying-app') }));
    expect(outcome, outcome).toBe('passed');
  });
});
