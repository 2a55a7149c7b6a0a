// The reference Operator with ONE fault injected, served over plain HTTP with
// test control, for proving that the fuzzer finds faults. Nothing in reference/
// is edited: the server is composed here from the reference's own parts (its
// state, keys, policy, router, bearer steps and transitions), as
// reference/start.ts composes it, and exactly one behaviour is replaced.
//
// Why not rewrite requests in front of an unmodified Operator? The ids and
// prev_chain_digest are covered by the bearer's signature: a rewritten message
// no longer verifies, and the Operator answers INVALID_SIGNATURE, which is a
// different fault from the one meant.
import { decodeB64urlFixed, digestText, formatTimestamp, newUuid, parseTimestamp, readDigest, renewalDigest, verifyRequest } from '../../../profile/index.ts';
import type { CashPack, RedemptionRequest, RenewalEntry } from '../../../profile/cashpack/index.ts';
import { Clock } from '../../../reference/clock.ts';
import { createControlHandler } from '../../../reference/control.ts';
import { json, problemResponse } from '../../../reference/http/respond.ts';
import { listen } from '../../../reference/http/server.ts';
import type { RefRequest, RefResponse } from '../../../reference/http/types.ts';
import { bearerSteps } from '../../../reference/operator/bearer-steps.ts';
import { confirmation } from '../../../reference/operator/redeem.ts';
import { deepFreeze, keyOf, sameKey, type OperatorContext } from '../../../reference/operator/context.ts';
import { createOperatorKeys } from '../../../reference/operator/keys.ts';
import { resolvePolicy, type Policy } from '../../../reference/operator/policy.ts';
import { route } from '../../../reference/operator/router.ts';
import { assetKey, OperatorState } from '../../../reference/operator/state.ts';
import { createRouter } from '../../../reference/router.ts';
import { fixtureOperator, type Knobs } from './fixture-operator.ts';

export type Fault =
  /** The reference as it is. */
  | 'none'
  /** The replay store never reports an id as seen (PROFILE.md §6 off). */
  | 'replay-store-off'
  /** Renew step 9 (prev_chain_digest = chain_digest) is skipped. */
  | 'digest-unchecked'
  /** Redeem checks the pack, then yields 5 ms before moving funds, without checking again. */
  | 'non-atomic-redeem'
  /** The replay store lets exactly one duplicate through, then works: a failure that does not come back. */
  | 'replay-store-once'
  /**
   * Issue answers with a pack whose expiry is a second later than requested,
   * properly signed: only a comparison of the returned pack's members sees it.
   */
  | 'pack-expiry-late'
  /**
   * Redeem step 9 with `<=` where the profile says `<`: a redeemer exactly at
   * required_identity_level is refused REDEEMER_NOT_IDENTIFIED.
   */
  | 'identity-level-strict'
  /**
   * Redemptions of one pack that meet in flight are all refused
   * INSTRUMENT_NOT_ACTIVE: of concurrent redemptions none succeeds.
   */
  | 'contended-redeem-refused'
  | KnobFault;

/**
 * Faults the suite and the fuzzer were never shown, each a realistic single
 * mistake (fixture-operator.ts builds the Operator with its knob), by the class
 * of fault it stands for. `fixture-clean` is that Operator with no knob: it must
 * answer as the reference does.
 */
export const KNOB_FAULTS = {
  'fixture-clean': {},
  // Concurrency between different operations, and across packs sharing an account.
  'redeemer-credit-lost-update': { redeemerCreditReadModifyWrite: 20 },
  'redeem-rechecks-status-only': { redeemRechecksStatusOnly: 20 },
  'cancel-unchecked-after-wait': { cancelWaits: 20 },
  'status-depth-before-pack': { depthWrittenBeforePack: 20 },
  // Amounts beyond 2^53, and every asset of the policy.
  'balance-in-doubles': { balanceInDoubles: true },
  'balance-asset-blind': { balanceAssetBlind: true },
  // Error precedence: two rules broken at once.
  'limit-before-asset': { issueOrder: ['signature', 'principal', 'fresh', 'replay', 'limit', 'asset', 'expiry', 'balance'] },
  'lookup-before-pack-signature': { lookupBeforePackSignature: true },
  // Whose clock.
  'renewal-stamps-issued-at': { renewalStampsIssuedAt: true },
  'identity-window-from-created-at': { identityWindowFromCreatedAt: true },
  // Stale and tampered pack versions.
  'verification-cached-by-digest': { packVerifiedByDigest: true },
  // Re-provisioned identities.
  'identity-level-cached': { identityLevelCached: true },
  'reprovision-replaces-account': { reprovisionReplacesAccount: true },
  // By count.
  'replay-store-capacity': { replayCapacity: 1000 },
  'expiry-sweep-limited': { expirySweepLimit: 16 },
} as const satisfies Readonly<Record<string, Knobs>>;

export type KnobFault = keyof typeof KNOB_FAULTS;

export interface FaultyOperator {
  readonly url: string;
  readonly clock: Clock;
  close(): Promise<void>;
}

// The reference's own mutant switches (reference/mutants.ts) are threaded
// through its context and state; none is on here.
const NO_MUTANT = Object.freeze({ has: () => false, hasAny: () => false });
const State = OperatorState as unknown as new (requestWindowSeconds: number, faults: typeof NO_MUTANT) => OperatorState;

export async function startFaultyOperator(fault: Fault, policy: Partial<Policy> = {}): Promise<FaultyOperator> {
  const clock = new Clock();
  const keys = createOperatorKeys();
  const resolved = resolvePolicy(policy, keys.jwk.kid);
  const ctx = { clock, policy: resolved, keys, state: new State(resolved.request_window_seconds, NO_MUTANT), faults: NO_MUTANT, newPackId: newUuid } as OperatorContext;
  const store = ctx.state.replay;
  const inFlight = { count: new Map<string, number>(), contended: new Set<string>() };
  const strictLevel = { ...ctx, policy: { ...ctx.policy, required_identity_level: ctx.policy.required_identity_level + 1 } } as OperatorContext;
  if (fault === 'replay-store-off') store.seenBefore = () => false;
  if (fault === 'replay-store-once') {
    const seenBefore = store.seenBefore.bind(store);
    let spent = false;
    store.seenBefore = (id, now) => {
      const seen = seenBefore(id, now);
      if (!seen || spent) return seen;
      spent = true;
      return false;
    };
  }
  const knobbed = fault in KNOB_FAULTS ? fixtureOperator(ctx, KNOB_FAULTS[fault as KnobFault]) : undefined;
  const operator = (request: RefRequest): RefResponse | Promise<RefResponse> => {
    const answer = knobbed?.(request);
    if (answer !== undefined) return answer;
    if (request.method === 'POST' && request.path === '/v1/cashpack/renew' && fault === 'digest-unchecked') return renewWithoutDigestCheck(ctx, request);
    if (request.method === 'POST' && request.path === '/v1/cashpack/redeem' && fault === 'non-atomic-redeem') return nonAtomicRedeem(ctx, request);
    if (request.method === 'POST' && request.path === '/v1/cashpack/issue' && fault === 'pack-expiry-late') return lateExpiry(ctx, route(ctx, request, { control: true }));
    if (request.method === 'POST' && request.path === '/v1/cashpack/redeem' && fault === 'contended-redeem-refused') return contendedRedeem(ctx, request, inFlight);
    // The reference's own redeem, reading a required level one higher: level < required + 1 is level <= required.
    if (request.method === 'POST' && request.path === '/v1/cashpack/redeem' && fault === 'identity-level-strict') return route(strictLevel, request, { control: true });
    return route(ctx, request, { control: true });
  };
  const handler = createRouter({
    payee: () => problemResponse('NOT_FOUND', 'this test server has no payee'),
    operator,
    control: createControlHandler(clock),
    controlEnabled: true,
  });
  const server = await listen(handler, { port: 0 });
  return { url: server.url, clock, close: () => server.close() };
}

/** An issued pack re-signed with its expiry a second later (the state keeps the true one). */
async function lateExpiry(ctx: OperatorContext, response: RefResponse | Promise<RefResponse>): Promise<RefResponse> {
  const answer = await response;
  if (answer.status !== 200) return answer;
  const { signature: _signature, ...unsigned } = answer.body as CashPack;
  const expiry = formatTimestamp(parseTimestamp(unsigned.expiry)! + 1000, 'cashpack');
  return json(200, ctx.keys.sign('cash-pack', { ...unsigned, expiry }));
}

/**
 * The reference's redeem after a 50 ms wait; a redemption that met another of
 * the same pack while waiting is refused INSTRUMENT_NOT_ACTIVE, and so is the other.
 */
async function contendedRedeem(ctx: OperatorContext, request: RefRequest, inFlight: { count: Map<string, number>; contended: Set<string> }): Promise<RefResponse> {
  const packId = String((JSON.parse(new TextDecoder().decode(request.body)) as { cash_pack?: { pack_id?: unknown } }).cash_pack?.pack_id);
  const count = (inFlight.count.get(packId) ?? 0) + 1;
  inFlight.count.set(packId, count);
  if (count > 1) inFlight.contended.add(packId);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const left = inFlight.count.get(packId)! - 1;
  if (left === 0) inFlight.count.delete(packId);
  else inFlight.count.set(packId, left);
  // FAULT: contention is answered as if the pack were spent.
  if (inFlight.contended.has(packId)) {
    if (left === 0) inFlight.contended.delete(packId);
    return problemResponse('INSTRUMENT_NOT_ACTIVE', 'the pack is being redeemed');
  }
  return route(ctx, request, { control: true });
}

/** reference/operator/renew.ts with step 9 left out. */
function renewWithoutDigestCheck(ctx: OperatorContext, request: RefRequest): RefResponse {
  const front = bearerSteps(ctx, request, 'renew');
  if (!front.ok) return front.response;
  const { record, message: renewal, now } = front;
  const pack = record.pack;
  if (!sameKey(renewal.bearer_pk, pack.current_bearer_pk)) return problemResponse('BEARER_MISMATCH', 'bearer_pk is not the current bearer');
  // FAULT: no comparison of renewal.prev_chain_digest with pack.chain_digest.
  if (pack.renewal_chain.length >= ctx.policy.max_chain_depth) return problemResponse('CHAIN_DEPTH_EXCEEDED', 'renewal_chain has reached max_chain_depth');
  record.pack = deepFreeze(ctx.keys.sign('cash-pack', renewed(ctx, pack, renewal)));
  record.updatedAtMs = now;
  return json(200, record.pack);
}

function renewed(ctx: OperatorContext, pack: CashPack, renewal: RenewalEntry): Omit<CashPack, 'signature'> {
  const { signature: _old, ...unsigned } = pack;
  const digest = renewalDigest(readDigest(pack.chain_digest)!, renewal.renewal_id, keyOf(renewal.new_bearer_pk), decodeB64urlFixed(renewal.signature, 64)!);
  return { ...unsigned, current_bearer_pk: renewal.new_bearer_pk, renewal_chain: [...pack.renewal_chain, renewal], chain_digest: digestText(digest), operator_kid: ctx.keys.jwk.kid };
}

/** reference/operator/redeem.ts with an await between the checks and the state change. */
async function nonAtomicRedeem(ctx: OperatorContext, request: RefRequest): Promise<RefResponse> {
  const front = bearerSteps(ctx, request, 'redeem');
  if (!front.ok) return front.response;
  const { record, message: redemption, now } = front;
  if (!sameKey(redemption.bearer_pk, record.pack.current_bearer_pk)) return problemResponse('BEARER_MISMATCH', 'bearer_pk is not the current bearer');
  const redeemerKid = identified(ctx, request, redemption, now);
  if (redeemerKid === undefined) return problemResponse('REDEEMER_NOT_IDENTIFIED', 'redeemer not identified');
  // FAULT: the pack was ACTIVE when checked; other requests run before the funds move.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const principal = ctx.state.principals.get(record.principalKid)!;
  principal.locked -= record.amount;
  principal.activePacks.delete(record.pack.pack_id);
  const redeemer = ctx.state.redeemers.get(redeemerKid)!;
  const key = assetKey(record.pack.asset);
  const credit = redeemer.credits.get(key) ?? { asset: record.pack.asset, available: 0n };
  credit.available += record.amount;
  redeemer.credits.set(key, credit);
  record.status = 'REDEEMED';
  record.updatedAtMs = now;
  return json(200, confirmation(ctx, record, redemption, now));
}

function identified(ctx: OperatorContext, request: RefRequest, redemption: RedemptionRequest, now: number): string | undefined {
  const check = verifyRequest(
    { method: request.method, authority: request.authority, path: request.path, body: request.body },
    { headers: request.headers, lookupKey: (kid) => ctx.state.redeemers.get(kid)?.publicKey, nowSeconds: Math.floor(now / 1000), windowSeconds: ctx.policy.request_window_seconds },
  );
  if (!check.ok || check.kid !== redemption.redeemer_kid) return undefined;
  return ctx.state.redeemers.get(check.kid)!.identity_level >= ctx.policy.required_identity_level ? check.kid : undefined;
}
