// Cash-pack messages (PROFILE.md §2-§6), really signed with generated Ed25519 keys.
// Keys come from fc.uint8Array seeds (32 bytes, all distinct within one value), so
// a value depends only on the seed and shrinks like any other.
//
// - validLockRequest: a Lock Request by a Principal, amount 1..max_amount, an asset
//   of the policy, requested_expiry within [expiry_min, expiry_max] of `now`
//   (both ends included), created_at within the request window.
// - validRenewal / validRedemption: a renew / redeem body for an ACTIVE pack that
//   the generated Operator key issued and signed, with 0..maxPriorRenewals
//   renewals already in its chain (each signed by the then current bearer, the
//   chain digest rolled as in PROFILE.md §3), signed by the current bearer.
// - corruptedMessage: one of those with exactly one corruption, labelled with the
//   spec error code an Operator answers with PROFILE.md §5's check order, given
//   the policy and the Operator state the case describes (`priorIds` recorded,
//   `prior` messages accepted first; the pack is the Operator's own, ACTIVE, and
//   the Principal registered with enough balance).
//
// Every message passes validateMessage (the corruptions keep the schema), so the
// expected answer is never MALFORMED_REQUEST.

export { DEFAULT_CASHPACK_POLICY, type CashpackConstraints, type CashpackPolicy } from './constraints.ts';
export { corruptedMessage, type CorruptedMessageConstraints } from './corrupted-message.ts';
export { CORRUPTION_KINDS, CORRUPTION_STATUS, type CashpackCase, type CashpackMessageKind, type CorruptedMessage, type CorruptionCode, type CorruptionKind } from './corruptions.ts';
export { validLockRequest, type LockRequestCase } from './lock-request.ts';
export { validRedemption, validRenewal, type RedeemCase, type RenewCase } from './renew-redeem.ts';
