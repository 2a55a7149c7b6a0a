// POST /v1/cashpack/issue (spec §1.2, §4.2, §7.1, §8; PROFILE.md §4.2, §4.3, §5 issue).
// The Principal's signed Lock Request locks funds and yields a signed ACTIVE pack.
// Steps run synchronously once the body is read (atomicity: see router.ts).
import { digestText, formatTimestamp, genesisDigest, newUuid, parseTimestamp, verifyObject } from '../../profile/index.ts';
import type { CashPack, LockRequest } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import { readMessage } from './body.ts';
import { deepFreeze, isFresh, keyOf, type Endpoint, type OperatorContext } from './context.ts';
import { assetKey, type PackRecord } from './state.ts';
import { openPack } from './transitions.ts';

export const issue: Endpoint = (ctx, request) => {
  // 1. HTTP and syntax: 413, 415, 400 MALFORMED_REQUEST.
  const body = readMessage(ctx, request, 'lock-request');
  if (!body.ok) return body.response;
  const lock = body.value;
  const now = ctx.clock.now();

  // 2. The Principal's signature (tag lock-request, PROFILE.md §2.2).
  if (!verifyObject('lock-request', lock, keyOf(lock.principal_pk))) {
    return problemResponse('INVALID_SIGNATURE', 'the Lock Request signature does not verify under principal_pk');
  }
  // 3. Only an identified account holder obtains issuance (spec §1.2).
  const principal = ctx.state.principals.get(lock.principal_pk.kid);
  if (!principal) return problemResponse('PRINCIPAL_UNKNOWN', 'principal_pk is not a registered Principal');
  // 4. Freshness (PROFILE.md §6).
  if (!isFresh(ctx, lock.created_at, now)) return problemResponse('STALE_REQUEST', 'created_at is outside the request window');
  // 5. Replay (spec §7.1 DUPLICATE_ID): from here on the id is recorded, whatever follows.
  if (ctx.state.replay.seenBefore(lock.request_id, now)) return problemResponse('DUPLICATE_ID', 'request_id has been seen before');
  // 6. The asset is one the Operator issues (PROFILE.md §4.8 assets).
  if (!ctx.policy.assets.some((asset) => assetKey(asset) === assetKey(lock.asset))) {
    return problemResponse('ASSET_NOT_SUPPORTED', 'asset is not one of the policy assets');
  }
  // 7. Spec §8 maximum amount; equal is allowed.
  const amount = BigInt(lock.amount);
  if (amount > BigInt(ctx.policy.max_amount)) {
    return problemResponse('AMOUNT_EXCEEDS_LIMIT', `amount exceeds max_amount ${ctx.policy.max_amount}`);
  }
  // 8. Spec §8 permitted expiry range, relative to the clock at receipt; both ends inclusive.
  const expiryMs = parseTimestamp(lock.requested_expiry, 'cashpack')!;
  const lifetimeMs = expiryMs - now;
  if (lifetimeMs < ctx.policy.expiry_min_seconds * 1000 || lifetimeMs > ctx.policy.expiry_max_seconds * 1000) {
    return problemResponse(
      'EXPIRY_INVALID',
      `requested_expiry must be between ${ctx.policy.expiry_min_seconds} and ${ctx.policy.expiry_max_seconds} seconds from now`,
    );
  }
  // 9. Spec §7.1: the Principal's available balance (in the pack's asset) covers the amount; equal is allowed.
  const available = assetKey(principal.asset) === assetKey(lock.asset) ? principal.available : 0n;
  if (available < amount) return problemResponse('INSUFFICIENT_BALANCE', 'available balance is less than amount');

  // 10. Success: funds locked, a new ACTIVE pack, signed and returned.
  const record = newPack(ctx, lock, amount, expiryMs, now);
  openPack(ctx.state, principal, record);
  return json(200, record.pack);
};

function newPack(ctx: OperatorContext, lock: LockRequest, amount: bigint, expiryMs: number, now: number): PackRecord {
  const packId = newUuid();
  const unsigned: Omit<CashPack, 'signature'> = {
    pack_id: packId,
    amount: lock.amount,
    asset: lock.asset,
    issued_at: formatTimestamp(now, 'cashpack'),
    expiry: lock.requested_expiry,
    initial_bearer_pk: lock.initial_bearer_pk,
    current_bearer_pk: lock.initial_bearer_pk,
    renewal_chain: [],
    chain_digest: digestText(genesisDigest(packId, keyOf(lock.initial_bearer_pk))), // D0, PROFILE.md §3
    operator_kid: ctx.keys.jwk.kid,
  };
  const pack = deepFreeze(ctx.keys.sign('cash-pack', unsigned));
  return { pack, status: 'ACTIVE', principalKid: lock.principal_pk.kid, amount, expiryMs, updatedAtMs: now };
}
