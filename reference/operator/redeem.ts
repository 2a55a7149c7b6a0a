// POST /v1/cashpack/redeem (spec §1.2, §4.2, §5.2, §7.1; PROFILE.md §2.4, §4.5, §4.6, §5 redeem).
// The current bearer converts the pack into funds of an identified redeemer.
// Steps run synchronously once the body is read (atomicity: see router.ts).
import { formatTimestamp, toAmount } from '../../profile/index.ts';
import type { RedemptionConfirmation, RedemptionRequest } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import { bearerSteps } from './bearer-steps.ts';
import { failure, isCurrentBearer, success, verifyCaller, type Endpoint, type OperatorContext, type Attempt } from './context.ts';
import { assetKey, type PackRecord, type RedeemerAccount } from './state.ts';
import { credit, endPack } from './transitions.ts';

export const redeem: Endpoint = (ctx, request) => {
  const checked = checkRedemption(ctx, request);
  return checked.ok ? settle(ctx, checked.value) : checked.response;
};

/**
 * Mutant op-redeem-non-atomic: steps 1–9, then an await (a ledger round trip)
 * before step 10. Concurrent redemptions of one pack all pass step 7 before any
 * of them changes the state, and each is settled: the double spend that
 * router.ts's synchronous endpoints rule out.
 */
// Stryker disable all: only the op-redeem-non-atomic fault calls this function
export async function redeemNonAtomic(ctx: OperatorContext, request: RefRequest): Promise<RefResponse> {
  const checked = checkRedemption(ctx, request);
  if (!checked.ok) return checked.response;
  await new Promise((resolve) => setTimeout(resolve, LEDGER_ROUND_TRIP_MS));
  const { record, redeemer } = checked.value;
  // The ACTIVE check above is stale by now: a racing redemption may have settled, and this one credits again.
  if (record.status !== 'ACTIVE') {
    credit(redeemer, record.pack.asset, record.amount);
    return json(200, confirmation(ctx, record, checked.value.redemption, checked.value.now));
  }
  return settle(ctx, checked.value);
}

// Stryker restore all
const LEDGER_ROUND_TRIP_MS = 20;

interface CheckedRedemption {
  readonly record: PackRecord;
  readonly redemption: RedemptionRequest;
  readonly redeemer: RedeemerAccount;
  readonly now: number;
}

/** Steps 1–9: everything that can refuse a redemption. */
function checkRedemption(ctx: OperatorContext, request: RefRequest): { readonly ok: true; readonly value: CheckedRedemption } | { readonly ok: false; readonly response: RefResponse } {
  // 1.–7. As renew steps 1–7, with the Redemption Request and redemption_id.
  const front = bearerSteps(ctx, request, 'redeem');
  if (!front.ok) return front;
  const { record, message: redemption, now, presented } = front;

  // 8. Spec §5.2: submitted by the holder of current_bearer_pk, in the stored state
  // (mutant op-redeem-bearer-from-presented-pack: in the version the caller presents).
  if (!isCurrentBearer(ctx, ctx.faults.has('op-redeem-bearer-from-presented-pack') ? presented : record.pack, redemption.bearer_pk)) {
    return { ok: false, response: problemResponse('BEARER_MISMATCH', 'bearer_pk is not the current bearer') };
  }
  // 9. Spec §5.2: the redeemer is verified to the required identity level.
  const redeemer = identifyRedeemer(ctx, request, redemption, now, record.principalKid);
  if (!redeemer.ok) return { ok: false, response: problemResponse(redeemer.problem.code, redeemer.problem.detail) };
  return { ok: true, value: { record, redemption, redeemer: redeemer.value, now } };
}

/** 10. Success: REDEEMED, funds released to the redeemer, signed confirmation. */
function settle(ctx: OperatorContext, { record, redemption, redeemer, now }: CheckedRedemption): RefResponse {
  endPack(ctx.state, record, { status: 'REDEEMED', redeemer }, now);
  // Mutant op-confirmation-amount-redeemer-total: the confirmation's amount is what the redeemer now holds in the pack's asset (credited just now), not the pack's.
  // Stryker disable next-line all: only the op-confirmation-amount-redeemer-total fault reads the redeemer's total
  const released = ctx.faults.has('op-confirmation-amount-redeemer-total') ? toAmount(redeemer.credits.get(assetKey(record.pack.asset))!.available) : record.pack.amount;
  return json(200, confirmation(ctx, record, redemption, now, released));
}

/**
 * PROFILE.md §5 redeem step 9: the HTTP Message Signature (§2.4, covering
 * content-digest) by a registered redeemer whose kid is redeemer_kid and whose
 * level is at least required_identity_level. Any failure is REDEEMER_NOT_IDENTIFIED.
 * `issuingPrincipal` (the pack's Principal's kid) is read under a fault only.
 */
function identifyRedeemer(ctx: OperatorContext, request: RefRequest, redemption: RedemptionRequest, now: number, issuingPrincipal: string): Attempt<RedeemerAccount> {
  if (ctx.faults.has('op-redeemer-unidentified')) {
    // mutant: redeemer_kid is taken at its word, no HTTP Message Signature asked
    const named = ctx.state.redeemers.get(redemption.redeemer_kid);
    return named ? success(named) : failure('REDEEMER_NOT_IDENTIFIED', 'redeemer_kid is not a registered redeemer');
  }
  // Mutant op-redeemer-signature-dated-by-created-at: the signature's created judged against the Redemption Request's created_at, not the Operator's clock.
  // Stryker disable next-line all: only the op-redeemer-signature-dated-by-created-at fault reads created_at
  const judgedAt = ctx.faults.has('op-redeemer-signature-dated-by-created-at') ? Date.parse(redemption.created_at) : now;
  const signature = verifyCaller(ctx, request, (kid) => ctx.state.redeemers.get(kid)?.publicKey, judgedAt);
  if (!signature.ok) return failure('REDEEMER_NOT_IDENTIFIED', `redeemer not identified: ${signature.reason}`);
  // Mutant op-redeemer-kid-bound-ignoring-case: the keyid compared with redeemer_kid without regard to letter case.
  // Stryker disable next-line all: only the op-redeemer-kid-bound-ignoring-case fault folds the case
  const named = ctx.faults.has('op-redeemer-kid-bound-ignoring-case') && signature.kid.toLowerCase() === redemption.redeemer_kid.toLowerCase() ? signature.kid : redemption.redeemer_kid;
  if (signature.kid !== named) return failure('REDEEMER_NOT_IDENTIFIED', 'the signing redeemer is not redeemer_kid');
  const redeemer = ctx.state.redeemers.get(signature.kid)!;
  const required = ctx.faults.has('op-identity-level-off-by-one') ? ctx.policy.required_identity_level - 1 : ctx.policy.required_identity_level; // mutant: one level short passes
  // Mutant op-identity-level-zero-unidentified: a redeemer of level 0 never identified, even where the policy asks for 0.
  // Stryker disable next-line all: only the op-identity-level-zero-unidentified fault reads the level so
  const unverified = ctx.faults.has('op-identity-level-zero-unidentified') && !redeemer.identity_level;
  // Mutant op-issuing-principal-identified: the pack's own issuing Principal, also a redeemer, taken as identified whatever its level.
  // Stryker disable next-line all: only the op-issuing-principal-identified fault looks at the pack's Principal
  if (ctx.faults.has('op-issuing-principal-identified') && issuingPrincipal === signature.kid) return success(redeemer);
  if (unverified || redeemer.identity_level < required || (ctx.faults.has('op-identity-level-exclusive') && redeemer.identity_level === required)) {
    return failure('REDEEMER_NOT_IDENTIFIED', `identity level ${redeemer.identity_level} is below ${ctx.policy.required_identity_level}`);
  }
  return success(redeemer);
}

/** PROFILE.md §4.6; `released` stands in for the pack's amount in the op-confirmation-amount-redeemer-total fault only. */
export function confirmation(ctx: OperatorContext, record: PackRecord, redemption: RedemptionRequest, now: number, released: string = record.pack.amount): RedemptionConfirmation {
  return ctx.keys.sign('redemption-confirmation', {
    pack_id: record.pack.pack_id,
    redemption_id: redemption.redemption_id,
    redeemer_kid: redemption.redeemer_kid,
    amount: released,
    asset: record.pack.asset,
    // Mutant op-confirmation-digest-per-redeemer: the chain_digest a redeemer's first confirmation carried, kept for every later one.
    // Stryker disable next-line all: only the op-confirmation-digest-per-redeemer fault keeps a digest
    chain_digest: ctx.faults.has('op-confirmation-digest-per-redeemer') ? firstDigest(ctx, redemption.redeemer_kid, record.pack.chain_digest) : record.pack.chain_digest,
    redeemed_at: formatTimestamp(now, 'cashpack'),
    operator_kid: ctx.keys.jwk.kid,
  });
}

// Stryker disable all: only the op-confirmation-digest-per-redeemer fault runs this
/** Each redeemer's first confirmation digest, per Operator (the mutant op-confirmation-digest-per-redeemer). */
const firstDigests = new WeakMap<OperatorContext, Map<string, string>>();

function firstDigest(ctx: OperatorContext, redeemerKid: string, digest: string): string {
  const kept = firstDigests.get(ctx) ?? new Map<string, string>();
  firstDigests.set(ctx, kept);
  if (!kept.has(redeemerKid)) kept.set(redeemerKid, digest);
  return kept.get(redeemerKid)!;
}
// Stryker restore all
