// POST /v1/cashpack/redeem (spec §1.2, §4.2, §5.2, §7.1; PROFILE.md §2.4, §4.5, §4.6, §5 redeem).
// The current bearer converts the pack into funds of an identified redeemer.
// Steps run synchronously once the body is read (atomicity: see router.ts).
import { formatTimestamp, verifyRequest } from '../../profile/index.ts';
import type { RedemptionConfirmation, RedemptionRequest } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import type { RefRequest } from '../http/types.ts';
import { bearerSteps } from './bearer-steps.ts';
import { sameKey, success, failure, type Endpoint, type OperatorContext, type Outcome } from './context.ts';
import type { PackRecord, RedeemerAccount } from './state.ts';
import { endPack } from './transitions.ts';

export const redeem: Endpoint = (ctx, request) => {
  // 1.–7. As renew steps 1–7, with the Redemption Request and redemption_id.
  const front = bearerSteps(ctx, request, 'redeem');
  if (!front.ok) return front.response;
  const { record, message: redemption, now } = front;

  // 8. Spec §5.2: submitted by the holder of current_bearer_pk.
  if (!sameKey(redemption.bearer_pk, record.pack.current_bearer_pk)) {
    return problemResponse('BEARER_MISMATCH', 'bearer_pk is not the current bearer');
  }
  // 9. Spec §5.2: the redeemer is verified to the required identity level.
  const redeemer = identifyRedeemer(ctx, request, redemption, now);
  if (!redeemer.ok) return problemResponse(redeemer.problem.code, redeemer.problem.detail);

  // 10. Success: REDEEMED, funds released to the redeemer, signed confirmation.
  endPack(ctx.state, record, { status: 'REDEEMED', redeemer: redeemer.value }, now);
  return json(200, confirmation(ctx, record, redemption, now));
};

/**
 * PROFILE.md §5 redeem step 9: the HTTP Message Signature (§2.4, covering
 * content-digest) by a registered redeemer whose kid is redeemer_kid and whose
 * level is at least required_identity_level. Any failure is REDEEMER_NOT_IDENTIFIED.
 */
function identifyRedeemer(ctx: OperatorContext, request: RefRequest, redemption: RedemptionRequest, now: number): Outcome<RedeemerAccount> {
  const signature = verifyRequest(
    { method: request.method, authority: request.authority, path: request.path, body: request.body },
    {
      headers: request.headers,
      lookupKey: (kid) => ctx.state.redeemers.get(kid)?.publicKey,
      nowSeconds: Math.floor(now / 1000),
      windowSeconds: ctx.policy.request_window_seconds,
    },
  );
  if (!signature.ok) return failure('REDEEMER_NOT_IDENTIFIED', `redeemer not identified: ${signature.reason}`);
  if (signature.kid !== redemption.redeemer_kid) return failure('REDEEMER_NOT_IDENTIFIED', 'the signing redeemer is not redeemer_kid');
  const redeemer = ctx.state.redeemers.get(signature.kid)!;
  if (redeemer.identity_level < ctx.policy.required_identity_level) {
    return failure('REDEEMER_NOT_IDENTIFIED', `identity level ${redeemer.identity_level} is below ${ctx.policy.required_identity_level}`);
  }
  return success(redeemer);
}

/** PROFILE.md §4.6. */
function confirmation(ctx: OperatorContext, record: PackRecord, redemption: RedemptionRequest, now: number): RedemptionConfirmation {
  return ctx.keys.sign('redemption-confirmation', {
    pack_id: record.pack.pack_id,
    redemption_id: redemption.redemption_id,
    redeemer_kid: redemption.redeemer_kid,
    amount: record.pack.amount,
    asset: record.pack.asset,
    chain_digest: record.pack.chain_digest,
    redeemed_at: formatTimestamp(now, 'cashpack'),
    operator_kid: ctx.keys.jwk.kid,
  });
}
