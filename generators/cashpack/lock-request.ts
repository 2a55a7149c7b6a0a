// Lock Requests (PROFILE.md §4.2): by a Principal, amount 1..max_amount, an asset
// of the policy, requested_expiry within [expiry_min, expiry_max] of `now` (both
// ends included), created_at within the request window.
import fc from 'fast-check';
import { buildLockRequest, type LockRequest, type SigningKey } from '../../profile/cashpack/index.ts';
import { resolve, type CashpackConstraints, type CashpackPolicy, type Resolved } from './constraints.ts';
import { keys } from './keys.ts';
import { amountUpTo, freshCreatedAt, stamp } from './values.ts';

export interface LockRequestCase {
  readonly kind: 'lock-request';
  readonly message: LockRequest;
  readonly principal: SigningKey;
  readonly initialBearer: SigningKey;
  readonly now: number;
  readonly policy: CashpackPolicy;
}

export function lockCase(r: Resolved, expiry: fc.Arbitrary<number>, amount: fc.Arbitrary<string>): fc.Arbitrary<LockRequestCase> {
  return fc
    .record({ k: keys(2), id: fc.uuid({ version: 4 }), amount, asset: fc.constantFrom(...r.policy.assets), expiry, created_at: freshCreatedAt(r) })
    .map(({ k: [principal, initialBearer], id, amount: a, asset, expiry: e, created_at }) => ({
      kind: 'lock-request' as const,
      message: buildLockRequest({
        principal: principal!,
        request_id: id,
        amount: a,
        asset,
        initialBearer: initialBearer!.jwk,
        requested_expiry: stamp(r.now + e * 1000),
        created_at,
      }),
      principal: principal!,
      initialBearer: initialBearer!,
      now: r.now,
      policy: r.policy,
    }));
}

export const validExpiry = (r: Resolved) => fc.integer({ min: r.policy.expiry_min_seconds + r.skew, max: r.policy.expiry_max_seconds - r.skew });

/** Valid Lock Requests (see the header). Throws RangeError at construction for a bad constraint. */
export function validLockRequest(constraints: CashpackConstraints = {}): fc.Arbitrary<LockRequestCase> {
  const r = resolve('validLockRequest', constraints);
  return lockCase(r, validExpiry(r), amountUpTo(BigInt(r.policy.max_amount)));
}
