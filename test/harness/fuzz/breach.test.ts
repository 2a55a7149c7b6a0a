// Every pair of an endpoint's checks, broken in one request, against the
// reference: the model must agree with every answer (a run with no finding),
// and the answer must be the check that comes first in PROFILE.md §5's order.
// Each breaker alone must break its own check, so no pair is a pair in name only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import type { HttpRole } from '../../../harness/adapters/types.ts';
import { BREACHABLE } from '../../../harness/fuzz/breach.ts';
import { openContext, runOnce } from '../../../harness/fuzz/campaign.ts';
import { FuzzCommand } from '../../../harness/fuzz/commands.ts';
import { Mismatch } from '../../../harness/fuzz/mismatch.ts';
import { ENDPOINT_RULES } from '../../../harness/fuzz/model.ts';
import type { BreachEndpoint, CommandSpec } from '../../../harness/fuzz/spec.ts';
import type { FuzzContext } from '../../../harness/fuzz/world.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';
import { startMutant } from './scenario-target.ts';

// The state the state-dependent breakers need: a pack at max_chain_depth (0), a redeemed one (1), ids sent before.
const PRELUDE: readonly CommandSpec[] = [
  { kind: 'issue', amount: { small: 5 }, expiry: 'typical', signer: 'principal' },
  { kind: 'issue', amount: { small: 5 }, expiry: 'typical', signer: 'principal' },
  { kind: 'renew-to-limit', pack: 0 },
  { kind: 'redeem', pack: 1, by: 'bearer', identity: 'identified' },
];

const PATHS: Record<BreachEndpoint, RegExp> = {
  issue: /^\/v1\/cashpack\/issue$/,
  renew: /^\/v1\/cashpack\/renew$/,
  redeem: /^\/v1\/cashpack\/redeem$/,
  status: /^\/v1\/cashpack\/[^/]+\/status$/,
};

/**
 * The check a breaker breaks, alone: its own, but for two that an earlier check
 * always meets first. An unknown pack_id can only be carried by a pack the
 * Operator did not sign (renew and redeem step 2 answers first); an unknown
 * pack is NOT_FOUND only to an Operator key, and the fuzzer has none: the
 * Principal asking is FORBIDDEN (PROFILE.md §5 status, authorization before existence).
 */
function ownCheck(endpoint: BreachEndpoint, rule: number): number {
  if ((endpoint === 'renew' || endpoint === 'redeem') && rule === 1) return 0;
  if (endpoint === 'status' && rule === 2) return 1;
  return rule;
}

describe('every pair of checks broken at once', () => {
  let reference: RunningReference;
  let role: HttpRole;
  let context: FuzzContext;
  const answers: { path: string; code: string | undefined }[] = [];
  beforeAll(async () => {
    reference = await startReference({ port: 0, plaintextPort: null });
    role = createHttpRole({ baseUrl: reference.url, ca: reference.tls.ca });
    context = await openContext(role, (request) => (response) => {
      const body = new TextDecoder().decode(response.body);
      answers.push({ path: request.path, code: response.status === 200 ? undefined : (JSON.parse(body) as { code?: string }).code });
    });
  });
  afterAll(async () => {
    await role.close();
    await reference.close();
  });

  const breachRun = (on: FuzzContext, endpoint: BreachEndpoint, rules: readonly number[]) =>
    runOnce(on, [{ balance: 'max' }], [...PRELUDE, { kind: 'breach', endpoint, rules, pack: 0 } as const].map((spec) => new FuzzCommand(spec)), () => false);

  /** The problem code the endpoint answered a breach of these rules (after the prelude), the model agreeing. */
  async function answerTo(endpoint: BreachEndpoint, rules: readonly number[]): Promise<string | undefined> {
    answers.length = 0;
    const run = await breachRun(context, endpoint, rules);
    expect(run.error, `${endpoint} ${rules.join('+')}`).toBeUndefined();
    return answers.filter((a) => PATHS[endpoint].test(a.path)).at(-1)!.code;
  }

  it.each(['issue', 'renew', 'redeem', 'status'] as const)('%s: each breaker alone breaks its check, and each pair is answered by the first in order', async (endpoint) => {
    const checks = ENDPOINT_RULES[endpoint].checks;
    const n = BREACHABLE[endpoint];
    for (let rule = 0; rule < n; rule += 1) expect(await answerTo(endpoint, [rule]), `${endpoint} ${rule}`).toBe(checks[ownCheck(endpoint, rule)]!.code);
    for (let i = 0; i < n; i += 1) {
      for (let j = i + 1; j < n; j += 1) {
        const first = Math.min(ownCheck(endpoint, i), ownCheck(endpoint, j));
        expect(await answerTo(endpoint, [j, i]), `${endpoint} ${i}+${j}`).toBe(checks[first]!.code);
      }
    }
  }, 120_000);

  it('finds an Operator that checks the limit before the asset at that pair, by the order rule', async () => {
    const faulty = await startMutant('op-limit-before-asset');
    try {
      const on = await openContext(faulty.role);
      const asset = ENDPOINT_RULES.issue.checks.findIndex((c) => c.code === 'ASSET_NOT_SUPPORTED');
      const limit = ENDPOINT_RULES.issue.checks.findIndex((c) => c.code === 'AMOUNT_EXCEEDS_LIMIT');
      expect((await breachRun(on, 'issue', [asset])).error).toBeUndefined();
      expect((await breachRun(on, 'issue', [limit])).error).toBeUndefined();
      const run = await breachRun(on, 'issue', [asset, limit]);
      expect(run.error).toBeInstanceOf(Mismatch);
      expect((run.error as Mismatch).detail.cause).toEqual({ requirement: 'PRF-ORDER-1', kind: 'issue', what: 'problem code', difference: '422 ASSET_NOT_SUPPORTED → 422 AMOUNT_EXCEEDS_LIMIT' });
    } finally {
      await faulty.close();
    }
  });
});
