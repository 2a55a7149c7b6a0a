// POST /v1/cashpack/renew (spec §1.2, §4.2, §5.2, §7.1; PROFILE.md §3, §4.4, §5 renew).
// The current bearer hands the pack to a new key; intermediate bearers are not
// identified (spec §1.2, §5.2), so no caller authentication is asked.
// Steps run synchronously once the body is read (atomicity: see router.ts).
import { decodeB64urlFixed, digestText, formatTimestamp, parseTimestamp, readDigest, renewalDigest } from '../../profile/index.ts';
import type { CashPack, RenewalEntry } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import { bearerSteps } from './bearer-steps.ts';
import { DEFAULT_POLICY } from './policy.ts';
import { deepFreeze, hasHeld, isCurrentBearer, keyOf, type Endpoint, type OperatorContext } from './context.ts';

export const renew: Endpoint = (ctx, request) => {
  // 1.–7. Syntax, the pack's and the entry's signatures, freshness, replay, ACTIVE.
  const front = bearerSteps(ctx, request, 'renew');
  if (!front.ok) return front.response;
  const { record, message: renewal, now, presented } = front;
  const pack = record.pack;
  // Mutant op-updated-at-stamped-before-checks: the record is stamped before steps 8-10, so a renewal they refuse moves updated_at.
  if (ctx.faults.has('op-updated-at-stamped-before-checks')) record.updatedAtMs = now;
  // Mutant op-depth-checked-first: step 10 is judged before steps 8 and 9.
  if (ctx.faults.has('op-depth-checked-first') && chainFull(ctx, pack)) return depthExceeded(ctx);

  // 8. Spec §5.2: submitted by the holder of current_bearer_pk.
  if (!isCurrentBearer(ctx, pack, renewal.bearer_pk)) return problemResponse('BEARER_MISMATCH', 'bearer_pk is not the current bearer');
  // 9. Spec §7.1: the entry refers to the instrument's current digest (mutant op-chain-digest-unchecked: never
  // compared; op-digest-from-presented-pack: compared with the version the caller presents).
  const current = ctx.faults.has('op-digest-from-presented-pack') ? presented.chain_digest : pack.chain_digest;
  // Mutant op-chain-digest-case-insensitive: the digests compared in one letter case, as hex digests may be.
  const named = ctx.faults.has('op-chain-digest-case-insensitive') ? renewal.prev_chain_digest.toLowerCase() : renewal.prev_chain_digest;
  const held = ctx.faults.has('op-chain-digest-case-insensitive') ? current.toLowerCase() : current;
  if (named !== held && !ctx.faults.has('op-chain-digest-unchecked')) {
    return problemResponse('CHAIN_DIGEST_MISMATCH', 'prev_chain_digest is not the current chain_digest');
  }
  // Mutant op-renew-previous-key-refused: a pack never handed back to a key that has held it (the spec's disposable keys read as a rule).
  // Stryker disable next-line all: only the op-renew-previous-key-refused fault refuses it
  if (ctx.faults.has('op-renew-previous-key-refused') && hasHeld(pack, renewal.new_bearer_pk)) return problemResponse('BEARER_MISMATCH', 'new_bearer_pk has held this pack before');
  // 10. Spec §7.1, §8: the chain has not reached the maximum depth.
  // Mutant op-depth-from-presented-pack: the depth read from the version presented, not the stored one.
  if (chainFull(ctx, ctx.faults.has('op-depth-from-presented-pack') ? presented : pack)) return depthExceeded(ctx);

  // 11. Success: append, roll the digest, hand over to new_bearer_pk, re-sign.
  record.pack = deepFreeze(ctx.keys.sign('cash-pack', renewed(ctx, pack, renewal)));
  // Mutant op-renewed-pack-out-of-expiry-sweep: the pack taken off its Principal's running packs, as if it had changed hands.
  // Stryker disable next-line all: only the op-renewed-pack-out-of-expiry-sweep fault forgets the pack here
  if (ctx.faults.has('op-renewed-pack-out-of-expiry-sweep')) ctx.state.principals.get(record.principalKid)?.activePacks.delete(pack.pack_id);
  // Mutant op-renewal-updated-at-from-created-at: the hand-over stamped when the bearer signed it, not when the Operator made it.
  // Stryker disable next-line all: only the op-renewal-updated-at-from-created-at fault reads the entry's created_at here
  record.updatedAtMs = ctx.faults.has('op-renewal-updated-at-from-created-at') ? (parseTimestamp(renewal.created_at, 'cashpack') ?? now) : now;
  return json(200, record.pack);
};

function chainFull(ctx: OperatorContext, pack: CashPack): boolean {
  // Mutant op-depth-counted-by-distinct-keys: the depth counted as the keys the pack was handed to, a key handed it twice counted once.
  // Stryker disable next-line all: only the op-depth-counted-by-distinct-keys fault counts keys
  const depth = ctx.faults.has('op-depth-counted-by-distinct-keys') ? new Set(pack.renewal_chain.map((entry) => entry.new_bearer_pk.x)).size : pack.renewal_chain.length;
  if (ctx.faults.has('op-depth-unchecked')) return false; // mutant: no limit at all
  // Mutant op-depth-zero-unlimited: a max_chain_depth of 0 read as no limit configured.
  // Stryker disable next-line all: only the op-depth-zero-unlimited fault reads 0 so
  if (ctx.faults.has('op-depth-zero-unlimited') && ctx.policy.max_chain_depth === 0) return false;
  // Mutant op-depth-limit-fixed: the limit is the default policy's, whatever max_chain_depth the Operator publishes.
  // Stryker disable next-line all: only the op-depth-limit-fixed fault reads the default
  const limit = ctx.faults.has('op-depth-limit-fixed') ? DEFAULT_POLICY.max_chain_depth : ctx.policy.max_chain_depth;
  return ctx.faults.has('op-depth-off-by-one') ? depth > limit : depth >= limit; // mutant: one renewal too many
}

function depthExceeded(ctx: OperatorContext) {
  return problemResponse('CHAIN_DEPTH_EXCEEDED', `renewal_chain has reached max_chain_depth ${ctx.policy.max_chain_depth}`);
}

function renewed(ctx: OperatorContext, pack: CashPack, renewal: RenewalEntry): Omit<CashPack, 'signature'> {
  const { signature: _old, ...unsigned } = pack;
  // PROFILE.md §3: Di = SHA-256(tag || 0x0A || D(i-1) || uuid16(renewal_id) || x(new_bearer_pk) || signature).
  // Mutant op-chain-digest-wrong: the submitting bearer's key is hashed in place of new_bearer_pk.
  const hashedKey = ctx.faults.has('op-chain-digest-wrong') ? renewal.bearer_pk : renewal.new_bearer_pk;
  const digest = renewalDigest(readDigest(pack.chain_digest)!, renewal.renewal_id, keyOf(hashedKey), decodeB64urlFixed(renewal.signature, 64)!);
  return {
    ...unsigned,
    ...restampedIssue(ctx),
    // Mutant op-renew-keeps-bearer: the hand-over is forgotten.
    current_bearer_pk: ctx.faults.has('op-renew-keeps-bearer') ? pack.current_bearer_pk : renewal.new_bearer_pk,
    renewal_chain: [...pack.renewal_chain, renewal],
    chain_digest: digestText(digest),
    operator_kid: ctx.keys.jwk.kid,
  };
}

// Stryker disable all: only the op-renewal-restamps-issued-at fault dates the pack again
/** Mutant op-renewal-restamps-issued-at: the renewed pack is dated as if issued at the renewal. */
function restampedIssue(ctx: OperatorContext): { issued_at?: string } {
  return ctx.faults.has('op-renewal-restamps-issued-at') ? { issued_at: formatTimestamp(ctx.clock.now(), 'cashpack') } : {};
}
// Stryker restore all
