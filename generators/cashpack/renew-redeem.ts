// Renew and redeem bodies for an ACTIVE pack (packs.ts), signed by its current bearer.
import fc from 'fast-check';
import { buildRedemption, buildRenewal, type RedeemRequest, type RenewRequest, type SigningKey } from '../../profile/cashpack/index.ts';
import { resolve, type CashpackConstraints, type CashpackPolicy, type Resolved } from './constraints.ts';
import { chainIds, packSetup, type PackSetup } from './packs.ts';

export interface RenewCase {
  readonly kind: 'renew-request';
  readonly message: RenewRequest;
  readonly operator: SigningKey;
  /** The pack's current bearer, who signed the renewal. */
  readonly bearer: SigningKey;
  readonly newBearer: SigningKey;
  /** Every bearer so far, initial first. */
  readonly bearers: readonly SigningKey[];
  /** Ids the Operator has recorded: the chain's renewal ids. */
  readonly priorIds: readonly string[];
  readonly now: number;
  readonly policy: CashpackPolicy;
}

export interface RedeemCase {
  readonly kind: 'redeem-request';
  readonly message: RedeemRequest;
  readonly operator: SigningKey;
  readonly bearer: SigningKey;
  /** The identified redeemer; redeemer_kid is its kid (PROFILE.md §4.5). */
  readonly redeemer: SigningKey;
  readonly bearers: readonly SigningKey[];
  readonly priorIds: readonly string[];
  readonly now: number;
  readonly policy: CashpackPolicy;
}

export function renewCase(s: PackSetup, r: Resolved): RenewCase {
  const bearer = s.bearers[s.bearers.length - 1]!;
  const renewal = buildRenewal({ bearer, pack: s.pack, new_bearer: s.next.jwk, renewal_id: s.messageId, created_at: s.created_at });
  return {
    kind: 'renew-request',
    message: { cash_pack: s.pack, renewal },
    operator: s.operator,
    bearer,
    newBearer: s.next,
    bearers: s.bearers,
    priorIds: chainIds(s.pack),
    now: r.now,
    policy: r.policy,
  };
}

export function redeemCase(s: PackSetup, r: Resolved): RedeemCase {
  const bearer = s.bearers[s.bearers.length - 1]!;
  const redemption = buildRedemption({ bearer, pack: s.pack, redeemer_kid: s.next.jwk.kid, redemption_id: s.messageId, created_at: s.created_at });
  return {
    kind: 'redeem-request',
    message: { cash_pack: s.pack, redemption },
    operator: s.operator,
    bearer,
    redeemer: s.next,
    bearers: s.bearers,
    priorIds: chainIds(s.pack),
    now: r.now,
    policy: r.policy,
  };
}

/** Renewals keep the chain below max_chain_depth (else CHAIN_DEPTH_EXCEEDED). */
export function renewDepths(fn: string, r: Resolved, min = 0): { min: number; max: number } {
  if (r.policy.max_chain_depth < 1) throw new RangeError(`${fn}: constraints.policy.max_chain_depth must be at least 1 for a renewal to be valid`);
  const max = Math.min(r.maxPrior, r.policy.max_chain_depth - 1);
  return { min: Math.min(min, max), max };
}

/** Valid renew bodies (see the header). Throws RangeError at construction for a bad constraint. */
export function validRenewal(constraints: CashpackConstraints = {}): fc.Arbitrary<RenewCase> {
  const r = resolve('validRenewal', constraints);
  return packSetup(r, renewDepths('validRenewal', r)).map((s) => renewCase(s, r));
}

/** Valid redeem bodies (see the header). Throws RangeError at construction for a bad constraint. */
export function validRedemption(constraints: CashpackConstraints = {}): fc.Arbitrary<RedeemCase> {
  const r = resolve('validRedemption', constraints);
  return packSetup(r, { min: 0, max: r.maxPrior }).map((s) => redeemCase(s, r));
}
