// The Operator's limits are its own (spec §8, PROFILE.md §4.8): the whole suite
// against the reference under several legal policies, each unlike the
// reference's defaults, must come out conformant every time. A scenario that
// assumed the defaults (a lifetime of an hour, a depth of 8, a 70 000-byte probe)
// would fail an honest operator here.
import { describe, expect, it } from 'vitest';
import { assess } from '../../harness/report/aggregate.ts';
import { PROPERTIES } from '../../harness/properties/catalogue.ts';
import { suiteCatalogue } from '../../harness/runner/catalogue.ts';
import { scenarioTarget } from '../../harness/runner/scenario-target.ts';
import { loadSuites } from '../../harness/scenarios/load.ts';
import { planOf, runPlan } from '../../harness/runner/plan.ts';
import { embeddedTarget } from '../../harness/target/target.ts';
import { loadRegistry } from '../../profile/registry.ts';
import type { Policy } from '../../reference/operator/index.ts';

const scenarios = loadSuites().flatMap((s) => s.scenarios);
const catalogue = suiteCatalogue(scenarios);

async function certify(policy: Partial<Policy>) {
  const target = await embeddedTarget({ reference: { policy } });
  try {
    const { results: tests } = await runPlan(planOf(scenarios, PROPERTIES), scenarioTarget(target), { seed: 7, propertyRuns: 5, rerunBase: 'run' });
    return assess(loadRegistry(), tests, [], { strict: false, catalogue });
  } finally {
    await target.close();
  }
}

/** What went wrong, readable in a failed expectation. */
const trouble = (a: Awaited<ReturnType<typeof certify>>) => [
  ...a.requirements.filter((r) => r.deciding && r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason ?? ''}`),
  ...a.tests.filter((t) => t.status === 'failed' || t.status === 'error').map((t) => `${t.id} ${t.status}: ${t.reason ?? ''}`),
];

const POLICIES: [string, Partial<Policy>][] = [
  ['short lifetimes, no identity required, shallow chains, a short window, a large body limit', { expiry_min_seconds: 1, expiry_max_seconds: 600, required_identity_level: 0, max_chain_depth: 3, request_window_seconds: 30, max_body_bytes: 131_072, max_amount: '5000' }],
  ['long lifetimes only, the highest identity level, deep chains, a long window, a small body limit', { expiry_min_seconds: 3600, expiry_max_seconds: 86_400, required_identity_level: 3, max_chain_depth: 12, request_window_seconds: 3600, max_body_bytes: 16_384, max_amount: '1000' }],
  ['any lifetime from zero, one renewal, a one-second window, a huge maximum, two assets', { expiry_min_seconds: 0, expiry_max_seconds: 31_536_000, required_identity_level: 1, max_chain_depth: 1, request_window_seconds: 1, max_body_bytes: 70_000, max_amount: `1${'0'.repeat(30)}`, assets: [{ type: 'stablecoin', code: 'USDC', chain_id: '137' }, { type: 'fiat', code: 'EUR' }] }],
  ['one permitted lifetime, two renewals, another currency', { expiry_min_seconds: 300, expiry_max_seconds: 300, max_chain_depth: 2, request_window_seconds: 60, max_amount: '999999', assets: [{ type: 'fiat', code: 'USD' }] }],
  ['a small maximum amount and a mid-sized everything else', { expiry_min_seconds: 10, expiry_max_seconds: 7200, required_identity_level: 1, max_chain_depth: 5, request_window_seconds: 120, max_body_bytes: 32_768, max_amount: '500' }],
];

describe('the suite against the reference under legal policies other than its defaults', () => {
  it.each(POLICIES)('is conformant with %s', async (_name, policy) => {
    const assessed = await certify(policy);
    expect(trouble(assessed)).toEqual([]);
    expect(assessed.verdict).toBe('conformant');
  }, 180_000);

  // Where a policy leaves a requirement nothing to exercise, the run says so: never failed, never conformant.
  it.each<[string, Partial<Policy>, Record<string, RegExp>]>([
    ['max_amount is the largest amount there is', { max_amount: '9'.repeat(78) }, { 'CPP-LIM-1': /largest amount PROFILE\.md §1 allows/ }],
    [
      'no renewal is allowed at all',
      { max_chain_depth: 0 },
      { 'CPP-RNW-1': /max_chain_depth is 0/, 'CPP-BRR-1': /max_chain_depth is 0/, 'CPP-CHN-2': /max_chain_depth is 0/ },
    ],
    [
      'max_amount is below the amounts some scenarios issue',
      { max_amount: '250' },
      { 'CPP-EXP-2': /issues 300, but the target's max_amount is 250/, 'CPP-CAN-1': /max_amount is 250/, 'CPP-RACE-1': /max_amount is 250/, 'PRF-LIFE-1': /max_amount is 250/ },
    ],
  ])('is incomplete, and says why, when %s', async (_name, policy, untested) => {
    const assessed = await certify(policy);
    expect(assessed.summary.failed).toBe(0);
    expect(assessed.summary.error).toBe(0);
    expect(assessed.verdict).toBe('incomplete');
    expect([...assessed.coverage.untested_ids].sort()).toEqual(Object.keys(untested).sort());
    for (const [id, why] of Object.entries(untested)) {
      const requirement = assessed.requirements.find((r) => r.id === id)!;
      expect(requirement.status, id).toBe('not-applicable');
      expect(requirement.reason, id).toMatch(why);
    }
  }, 180_000);
});
