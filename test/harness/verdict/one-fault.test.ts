// One fault, one rule: a fault of one operation is charged to that operation's
// rule, not to every later test that builds on it. Each case runs the tests
// that once charged a catalogued fault to their own rules, against the
// reference with that fault, and asks which requirements failed (what the kill
// matrix calls "caught by"). A harness change that lets a cascade back in
// fails here, in the fast tier; the full kill matrix (npm run selftest) shows
// the rest.
import { afterEach, describe, expect, it } from 'vitest';
import { findProperty } from '../../../harness/properties/catalogue.ts';
import { planOf, runPlan } from '../../../harness/runner/plan.ts';
import { scenarioTarget } from '../../../harness/runner/scenario-target.ts';
import { loadSuites } from '../../../harness/scenarios/load.ts';
import { mutantRow } from '../../../harness/selftest/matrix.ts';
import { embeddedTarget, type Target } from '../../../harness/target/target.ts';
import { MUTANTS } from '../../../reference/mutants.ts';

const scenarios = loadSuites().flatMap((s) => s.scenarios);
let open: Target | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** The requirements that failed in `tests` against the reference with `mutant` switched on. */
async function caughtBy(mutant: string, tests: readonly string[]): Promise<string[]> {
  const spec = MUTANTS.find((m) => m.name === mutant)!;
  open = await embeddedTarget({ reference: { mutant } });
  const plan = planOf(
    scenarios.filter((s) => tests.includes(s.id)),
    tests.flatMap((id) => findProperty(id) ?? []),
  );
  expect(plan).toHaveLength(tests.length);
  const { results } = await runPlan(plan, scenarioTarget(open), { seed: 1, rerunBase: 'run' });
  const row = mutantRow(spec, results, 0);
  // Every test named was one that the fault reaches.
  expect(row.failed_tests).toEqual([...tests].sort());
  return [...row.caught_by];
}

describe('a fault is charged to the rule of the operation it is in', () => {
  it('a renewal that keeps the old bearer: CPP-RNW-1, never the redemptions, races and reads that act as the new one', async () => {
    expect(await caughtBy('op-renew-keeps-bearer', ['CPP-RED-002', 'CPP-RACE-002', 'CPP-RACE-004', 'CPP-IDN-001', 'CPP-SIG-003', 'PRF-ORDER-002', 'PROP-OP-012', 'PROP-OP-015'])).toEqual(['CPP-RNW-1']);
  }, 60_000);

  it('a renewal that dates the pack again: PRF-MSG-1, never the rule of a scenario or property that renews to test something else', async () => {
    expect(await caughtBy('op-renewal-restamps-issued-at', ['CPP-ACT-001', 'PROP-OP-015'])).toEqual(['PRF-MSG-1']);
  }, 60_000);

  it("an Operator that compares the bearer's JWK as JSON text: CPP-RNW-1 and CPP-RED-1, never the rules of the scenarios that renew or redeem as the pack's own bearer to test something else", async () => {
    expect(await caughtBy('op-bearer-compared-as-json', ['CPP-CHN-001', 'CPP-DEPTH-001', 'CPP-WK-003', 'CPP-BRR-001', 'CPP-EP-001', 'CPP-RED-001'])).toEqual(['CPP-RED-1', 'CPP-RNW-1']);
  }, 60_000);

  it("the pack's own bearer refused where a later check's refusal was due, in a race nobody won, or in a renewal sent as raw JSON: CPP-RNW-1 and CPP-RED-1, never the identity, race or signature rule the scenario tests", async () => {
    // CPP-IDN-002 is due REDEEMER_NOT_IDENTIFIED (PROFILE.md §5 redeem step 9, after the bearer); CPP-RACE-002 and CPP-RACE-006
    // race copies and a renewal against a redemption; CPP-SIG-003 sends the untouched entry with http.
    expect(await caughtBy('op-bearer-compared-as-json', ['CPP-IDN-002', 'CPP-RACE-002', 'CPP-RACE-006', 'CPP-SIG-003'])).toEqual(['CPP-RED-1', 'CPP-RNW-1']);
  }, 60_000);

  it('an Operator that refuses a Lock Request for exactly the balance: CPP-BAL-1, never the races and expiry whose setup takes the whole balance', async () => {
    // CPP-EXP-009 runs on a frozen clock; the races on a running one, with no pack of theirs expiring near the refusal.
    expect(await caughtBy('op-balance-off-by-one', ['CPP-RACE-005', 'CPP-RACE-006', 'CPP-RACE-007', 'CPP-RACE-008', 'CPP-EXP-009'])).toEqual(['CPP-BAL-1']);
  }, 60_000);

  it('an issue that locks nothing: CPP-FND-1, never the cancellation, expiry, race or replay read in a balance later', async () => {
    expect(await caughtBy('op-issue-locks-nothing', ['CPP-CAN-001', 'CPP-EXP-006', 'CPP-RACE-001', 'CPP-RPL-001', 'PROP-OP-013'])).toEqual(['CPP-FND-1']);
  }, 60_000);

  it('a Lock Request granted with 201 Created: CPP-ISS-1, never the rule of a scenario that issues a pack to test something else, nor of a form the grant accepted', async () => {
    expect(await caughtBy('op-issue-201-created', ['CPP-BAL-001', 'CPP-BAL-003', 'CPP-RACE-001', 'PRF-B64-101', 'PRF-JWK-001', 'PRF-ORDER-001', 'PROP-OP-013'])).toEqual(['CPP-ISS-1']);
  }, 60_000);

  it('an Operator that verifies no signature: CPP-SIG-1, never the order of checks or the replay store built on it', async () => {
    expect(await caughtBy('op-signatures-unverified', ['PRF-ORDER-001', 'PRF-ORDER-006', 'PRF-RPL-003'])).toEqual(['CPP-SIG-1']);
  }, 60_000);

  it("a payee's timestamps in local time: the CPR's rule, never the delivery the paying application rightly refuses", async () => {
    expect(await caughtBy('payee-timestamp-local-time', ['DLV-DEEP-001', 'DLV-RESOLVE-001', 'DLV-INLINE-001', 'DLV-SUPPORT-002'])).toEqual(['CPR-TIME-1']);
  }, 60_000);

  it('a paying application that processes a 141-character memo: DRV-VALID-1, never the inline channel', async () => {
    expect(await caughtBy('app-memo-141-accepted', ['DLV-INLINE-004', 'PROP-APP-010'])).toEqual(['DRV-VALID-1']);
  }, 60_000);
});
