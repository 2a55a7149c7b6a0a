// The Operator's fuzzer mutants (reference/mutants.ts, catcher 'fuzzer'): the
// reference Operator with one behaviour written again as a careless
// implementation would, composed from the reference's own parts (its state,
// keys, bearer steps, redeem confirmation and router). createOperator serves
// this in place of its own handler when one of these faults is switched on.
//
// Why not rewrite requests in front of the correct Operator? The ids and
// prev_chain_digest are covered by the bearer's signature: a rewritten message
// no longer verifies, and the Operator answers INVALID_SIGNATURE, which is a
// different fault from the one meant.
import { decodeB64urlFixed, digestText, formatTimestamp, parseTimestamp, readDigest, renewalDigest, verifyRequest } from '../../profile/index.ts';
import type { CashPack, RedemptionRequest, RenewalEntry } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import type { Handler, RefRequest, RefResponse } from '../http/types.ts';
import type { FuzzerMutantOfRole, MutantName } from '../mutants.ts';
import { bearerSteps } from '../operator/bearer-steps.ts';
import { deepFreeze, keyOf, sameKey, type OperatorContext } from '../operator/context.ts';
import { confirmation } from '../operator/redeem.ts';
import { route } from '../operator/router.ts';
import { assetKey } from '../operator/state.ts';
import { KNOB_FAULTS, knobbedOperator, type KnobFault } from './knobs.ts';

type OperatorFault = FuzzerMutantOfRole<'operator'>;

/** The faults written here, and the knobs' (knobs.ts). */
const OWN_FAULTS = [
  'op-replay-store-off',
  'op-replay-store-once',
  'op-digest-unchecked',
  'op-non-atomic-redeem',
  'op-pack-expiry-late',
  'op-identity-level-strict',
  'op-contended-redeem-refused',
] as const satisfies readonly OperatorFault[];

/** Every fuzzer mutant of the Operator: the switch createOperator opens this file with. */
export const OPERATOR_FAULTS: readonly OperatorFault[] = [...OWN_FAULTS, ...(Object.keys(KNOB_FAULTS) as KnobFault[])];

const isKnob = (name: MutantName): name is KnobFault => name in KNOB_FAULTS;

/** The Operator with the fuzzer mutant `ctx.faults.active` (one of OPERATOR_FAULTS) on; `reference` answers what the fault leaves alone. */
export function faultyOperator(ctx: OperatorContext, reference: Handler): Handler {
  const fault = ctx.faults.active!;
  const store = ctx.state.replay;
  if (fault === 'op-replay-store-off') store.seenBefore = () => false;
  if (fault === 'op-replay-store-once') {
    const seenBefore = store.seenBefore.bind(store);
    let spent = false;
    store.seenBefore = (id, now) => {
      const seen = seenBefore(id, now);
      if (!seen || spent) return seen;
      spent = true;
      return false;
    };
  }
  const knobbed = isKnob(fault) ? knobbedOperator(ctx, KNOB_FAULTS[fault]) : undefined;
  const inFlight = { count: new Map<string, number>(), contended: new Set<string>() };
  // The reference's own redeem, reading a required level one higher: level < required + 1 is level <= required.
  const strictLevel = { ...ctx, policy: { ...ctx.policy, required_identity_level: ctx.policy.required_identity_level + 1 } };
  return (request) => {
    const answer = knobbed?.(request);
    if (answer !== undefined) return answer;
    if (isPost(request, '/v1/cashpack/renew') && fault === 'op-digest-unchecked') return renewWithoutDigestCheck(ctx, request);
    if (isPost(request, '/v1/cashpack/redeem') && fault === 'op-non-atomic-redeem') return nonAtomicRedeem(ctx, request);
    if (isPost(request, '/v1/cashpack/issue') && fault === 'op-pack-expiry-late') return lateExpiry(ctx, reference(request));
    if (isPost(request, '/v1/cashpack/redeem') && fault === 'op-contended-redeem-refused') return contendedRedeem(request, inFlight, reference);
    if (isPost(request, '/v1/cashpack/redeem') && fault === 'op-identity-level-strict') return route(strictLevel, request, { control: true });
    return reference(request);
  };
}

function isPost(request: RefRequest, path: string): boolean {
  return request.method === 'POST' && request.path === path;
}

/** op-pack-expiry-late: an issued pack re-signed with its expiry a second later (the state keeps the true one). */
async function lateExpiry(ctx: OperatorContext, response: RefResponse | Promise<RefResponse>): Promise<RefResponse> {
  const answer = await response;
  if (answer.status !== 200) return answer;
  const { signature: _signature, ...unsigned } = answer.body as CashPack;
  const expiry = formatTimestamp(parseTimestamp(unsigned.expiry)! + 1000, 'cashpack');
  return json(200, ctx.keys.sign('cash-pack', { ...unsigned, expiry }));
}

/**
 * op-contended-redeem-refused: the reference's redeem after a 50 ms wait; a
 * redemption that met another of the same pack while waiting is refused
 * INSTRUMENT_NOT_ACTIVE, and so is the other.
 */
async function contendedRedeem(request: RefRequest, inFlight: { count: Map<string, number>; contended: Set<string> }, reference: Handler): Promise<RefResponse> {
  const packId = packIdOf(request);
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
  return reference(request);
}

function packIdOf(request: RefRequest): string {
  try {
    return String((JSON.parse(new TextDecoder().decode(request.body)) as { cash_pack?: { pack_id?: unknown } }).cash_pack?.pack_id);
  } catch {
    return '';
  }
}

/** op-digest-unchecked: reference/operator/renew.ts with step 9 left out. */
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

/** op-non-atomic-redeem: reference/operator/redeem.ts with an await between the checks and the state change. */
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
