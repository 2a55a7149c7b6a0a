// A finding is named by the first thing that differed, under the model's rule
// for it, whatever command carried the request: the table of answerDifference,
// then real runs against operators with one fault each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerDifference, causeKey, type Answer } from '../../../harness/fuzz/cause.ts';
import { openContext, runOnce } from '../../../harness/fuzz/campaign.ts';
import { FuzzCommand } from '../../../harness/fuzz/commands.ts';
import { Mismatch } from '../../../harness/fuzz/mismatch.ts';
import { ENDPOINT_RULES, type Endpoint, type Prediction } from '../../../harness/fuzz/model.ts';
import type { CommandSpec } from '../../../harness/fuzz/spec.ts';
import type { FuzzContext } from '../../../harness/fuzz/world.ts';
import { PROBLEM_STATUS, type ProblemCode } from '../../../profile/index.ts';
import type { FuzzerMutantName } from '../../../reference/mutants.ts';
import { startMutant, type MutantUnderTest } from './scenario-target.ts';

const SUCCESS: Prediction<object> = { ok: true, status: 200 };

/** The model's refusal at the n-th check of the endpoint that answers `code`. */
function refusal(kind: Endpoint, code: ProblemCode, nth = 0): Prediction<object> {
  const checks = ENDPOINT_RULES[kind].checks;
  const at = checks.flatMap((c, i) => (c.code === code ? [i] : []))[nth]!;
  return { ok: false, status: PROBLEM_STATUS[code], code, rule: checks[at]!.rule, requirement: checks[at]!.requirement, at };
}

const problem = (code: ProblemCode, status = PROBLEM_STATUS[code], contentType = 'application/problem+json'): Answer => ({ status, code, contentType });
const OK: Answer = { status: 200, code: undefined, contentType: 'application/json' };

describe('answerDifference: the first check on which the model and the target disagree', () => {
  it.each<[string, Endpoint, Prediction<object>, Answer, string, string, string]>([
    ['a refusal where the model succeeds: the check the target applied', 'redeem', SUCCESS, problem('REDEEMER_NOT_IDENTIFIED'), 'CPP-IDN-1', 'status', '200 → 403 REDEEMER_NOT_IDENTIFIED'],
    ['a success where the model refuses: the check the target skipped', 'renew', refusal('renew', 'CHAIN_DIGEST_MISMATCH'), OK, 'CPP-CHN-2', 'status', '409 CHAIN_DIGEST_MISMATCH → 200'],
    ['a later check than the model: the one the target passed', 'redeem', refusal('redeem', 'DUPLICATE_ID'), problem('INSTRUMENT_NOT_ACTIVE'), 'CPP-RPL-1', 'problem code', '409 DUPLICATE_ID → 409 INSTRUMENT_NOT_ACTIVE'],
    ['checks out of order: the one the profile puts first', 'issue', refusal('issue', 'AMOUNT_EXCEEDS_LIMIT'), problem('INSUFFICIENT_BALANCE'), 'CPP-LIM-1', 'problem code', '422 AMOUNT_EXCEEDS_LIMIT → 422 INSUFFICIENT_BALANCE'],
    ['an earlier check than the model: the one the model passes', 'redeem', refusal('redeem', 'INSTRUMENT_NOT_ACTIVE'), problem('DUPLICATE_ID'), 'CPP-RPL-1', 'problem code', '409 INSTRUMENT_NOT_ACTIVE → 409 DUPLICATE_ID'],
    ['the right code with another status: the status of that code', 'issue', refusal('issue', 'DUPLICATE_ID'), problem('DUPLICATE_ID', 400), 'PRF-ERR-1', 'status', '409 DUPLICATE_ID → 400 DUPLICATE_ID'],
    ['the right code at the second check that answers it', 'renew', refusal('renew', 'INVALID_SIGNATURE', 1), problem('INVALID_SIGNATURE', 401), 'PRF-ERR-1', 'status', '400 INVALID_SIGNATURE → 401 INVALID_SIGNATURE'],
    ['the right status and code, not problem+json', 'cancel', refusal('cancel', 'NOT_FOUND'), problem('NOT_FOUND', 404, 'text/html'), 'PRF-ERR-1', 'content type', '404 NOT_FOUND → 404 NOT_FOUND as text/html'],
    ['an answer no check gives, where the model succeeds: the endpoint', 'redeem', SUCCESS, { status: 500, code: undefined, contentType: 'text/plain' }, 'CPP-RED-1', 'status', '200 → 500'],
    ['an answer no check gives, where the model refuses: its refusal', 'status', refusal('status', 'FORBIDDEN'), { status: 500, code: undefined, contentType: undefined }, 'PRF-AUTH-1', 'status', '403 FORBIDDEN → 500'],
  ])('%s', (_name, kind, expected, actual, requirement, what, difference) => {
    expect(answerDifference(kind, expected, actual)).toMatchObject({ requirement, what, difference });
  });

  it('finds no difference in the predicted answer', () => {
    expect(answerDifference('redeem', SUCCESS, OK)).toBeUndefined();
    expect(answerDifference('issue', refusal('issue', 'STALE_REQUEST'), problem('STALE_REQUEST'))).toBeUndefined();
  });

  it('keys a cause by its members, not by the run that showed it', () => {
    const cause = { requirement: 'CPP-IDN-1', kind: 'redeem', what: 'status', difference: '200 → 403 REDEEMER_NOT_IDENTIFIED' } as const;
    expect(causeKey({ ...cause })).toBe(causeKey(cause));
    expect(causeKey({ ...cause, kind: 'renew' })).not.toBe(causeKey(cause));
  });
});

// Whatever command carried the request: alone, in a burst, in an interleaving, resent.
const ISSUE: CommandSpec = { kind: 'issue', amount: { small: 5 }, expiry: 'typical', signer: 'principal' };
const CARRIERS: [string, CommandSpec][] = [
  ['a redemption alone', { kind: 'redeem', pack: 0, by: 'bearer', identity: 'identified' }],
  ['a burst of redemptions', { kind: 'burst', pack: 0, op: 'redeem', copies: 4 }],
  ['an interleaving', { kind: 'interleave', pack: 0, ops: ['status', 'redeem'], order: [0, 1] }],
  // Released together with a status read and a Lock Request: in no order is the refusal right, so the redemption is judged as alone.
  ['a mixed group', { kind: 'mix', ops: [{ op: 'status', pack: 0 }, { op: 'redeem', pack: 0, by: 'bearer', redeemer: 'redeemer' }, { op: 'issue', amount: { small: 1 } }] }],
];

describe('the cause of a run, whatever command carried the request', () => {
  const servers: MutantUnderTest[] = [];
  const contexts = new Map<FuzzerMutantName, FuzzContext>();
  beforeAll(async () => {
    for (const fault of ['op-identity-level-strict', 'op-non-atomic-redeem', 'op-contended-redeem-refused'] as const) {
      const server = await startMutant(fault);
      servers.push(server);
      contexts.set(fault, await openContext(server.role));
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  const failureOf = async (fault: FuzzerMutantName, commands: readonly CommandSpec[]) => {
    const run = await runOnce(contexts.get(fault)!, [{ balance: 'max' }], commands.map((spec) => new FuzzCommand(spec)), () => false);
    expect(run.error).toBeInstanceOf(Mismatch);
    return { detail: (run.error as Mismatch).detail, world: run.world! };
  };

  it.each(CARRIERS)('names a redeemer refused at the required level by the identity rule, in %s', async (_name, carrier) => {
    const { detail, world } = await failureOf('op-identity-level-strict', [ISSUE, carrier]);
    expect(detail.cause).toEqual({ requirement: 'CPP-IDN-1', kind: 'redeem', what: 'status', difference: '200 → 403 REDEEMER_NOT_IDENTIFIED' });
    expect(detail.requirement).toBe('CPP-IDN-1');
    expect(detail.rule).toMatch(/^PROFILE\.md §5 redeem step 9: the model passes this check/);
    // The regression scenario's failing check names the same requirement (in a mixed group, the check of the answers).
    const checks = world.script.at(-1)!.expect;
    expect(carrier.kind === 'mix' ? checks[0] : checks.at(-1)).toMatchObject({ requirement: 'CPP-IDN-1' });
  });

  it.each<[FuzzerMutantName, string]>([
    ['op-non-atomic-redeem', 'more than one'],
    // Every copy refused as a loser would be: nobody won a race one must win.
    ['op-contended-redeem-refused', 'none'],
  ])('names a burst the fault %s lets %s succeed by the concurrency rule', async (fault, winners) => {
    const { detail } = await failureOf(fault, [ISSUE, CARRIERS[1]![1]]);
    expect(detail.cause).toEqual({ requirement: 'CPP-RACE-1', kind: 'redeem', what: 'concurrent answers', difference: `exactly one 200 → ${winners}` });
  });
});
