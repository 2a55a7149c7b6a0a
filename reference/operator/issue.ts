// POST /v1/cashpack/issue (spec §1.2, §4.2, §7.1, §8; PROFILE.md §4.2, §4.3, §5 issue).
// The Principal's signed Lock Request locks funds and yields a signed ACTIVE pack.
// Steps run synchronously once the body is read (atomicity: see router.ts).
import { digestText, formatTimestamp, genesisDigest, parseTimestamp } from '../../profile/index.ts';
import type { AssetDescriptor, CashPack, LockRequest } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import { readMessage } from './body.ts';
import { deepFreeze, isFresh, isReplay, keyOf, sameKey, verifies, type Endpoint, type OperatorContext } from './context.ts';
import { assetKey, type PackRecord, type PrincipalAccount } from './state.ts';
import { openPack } from './transitions.ts';
import { applyPrincipalExpiries, scheduleExpiry } from './expiry.ts';

export const issue: Endpoint = (ctx, request) => {
  const checked = checkIssue(ctx, request);
  return checked.ok ? settle(ctx, checked.value) : checked.response;
};

/**
 * Mutant op-issue-non-atomic: steps 1–9, then an await (a ledger round trip)
 * before step 10. Concurrent Lock Requests of one Principal all pass the balance
 * check before any of them locks its amount, and each is issued: the overdraft
 * that the synchronous endpoints of router.ts rule out.
 */
// Stryker disable all: only the op-issue-non-atomic fault calls this function
export async function issueNonAtomic(ctx: OperatorContext, request: RefRequest): Promise<RefResponse> {
  const checked = checkIssue(ctx, request);
  if (!checked.ok) return checked.response;
  await new Promise((resolve) => setTimeout(resolve, LEDGER_ROUND_TRIP_MS));
  return settle(ctx, checked.value);
}
// Stryker restore all

const LEDGER_ROUND_TRIP_MS = 20;

interface CheckedIssue {
  readonly lock: LockRequest;
  readonly principal: PrincipalAccount;
  readonly amount: bigint;
  readonly expiryMs: number;
  readonly now: number;
}

/** 10. Success: funds locked, a new ACTIVE pack, signed and returned. */
function settle(ctx: OperatorContext, { lock, principal, amount, expiryMs, now }: CheckedIssue): RefResponse {
  // Mutant op-held-funds-spendable: what is available spent first, then the held funds.
  // Stryker disable next-line all: only the op-held-funds-spendable fault spends held funds
  if (ctx.faults.has('op-held-funds-spendable') && amount > principal.available) [principal.held, principal.available] = [principal.held - (amount - principal.available), amount];
  const record = newPack(ctx, lock, amount, expiryMs, now);
  openPack(ctx.state, principal, record);
  // Mutant op-expiry-timer-overflow: a timer set for the pack's remaining lifetime expires it, whatever the clock says.
  if (ctx.faults.has('op-expiry-timer-overflow')) scheduleExpiry(ctx.state, record, now);
  // Mutant op-issue-201-created: the new pack answered 201 Created, as a REST framework answers a POST that creates a resource.
  return json(ctx.faults.has('op-issue-201-created') ? 201 : 200, record.pack);
}

/** Steps 1–9: everything that can refuse a Lock Request. */
function checkIssue(ctx: OperatorContext, request: RefRequest): { readonly ok: true; readonly value: CheckedIssue } | { readonly ok: false; readonly response: RefResponse } {
  const refuse = (response: RefResponse) => ({ ok: false, response }) as const;
  // 1. HTTP and syntax: 413, 415, 400 MALFORMED_REQUEST.
  const body = readMessage(ctx, request, 'lock-request');
  if (!body.ok) return body;
  const lock = body.value;
  const now = ctx.clock.now();

  // 2. The Principal's signature (tag lock-request, PROFILE.md §2.2).
  // Mutant op-lock-request-signed-by-initial-bearer: a Lock Request that does not verify under principal_pk is taken when it verifies under initial_bearer_pk.
  // Stryker disable next-line all: only the op-lock-request-signed-by-initial-bearer fault tries the second key
  const byBearer = ctx.faults.has('op-lock-request-signed-by-initial-bearer') && verifies(ctx, 'lock-request', lock, keyOf(lock.initial_bearer_pk));
  if (!verifies(ctx, 'lock-request', lock, keyOf(lock.principal_pk)) && !byBearer) {
    return refuse(problemResponse('INVALID_SIGNATURE', 'the Lock Request signature does not verify under principal_pk'));
  }
  // Mutant op-initial-bearer-principal-refused: an Initial Bearer holding the Principal's own key refused as malformed ("a disposable key, never the account key").
  // Stryker disable next-line all: only the op-initial-bearer-principal-refused fault compares the two keys
  if (ctx.faults.has('op-initial-bearer-principal-refused') && sameKey(lock.initial_bearer_pk, lock.principal_pk)) return refuse(problemResponse('MALFORMED_REQUEST', 'initial_bearer_pk must not be the account key principal_pk'));
  // 3. Only an identified account holder obtains issuance (spec §1.2).
  // Mutant op-unknown-principal-issued: any key that signs a Lock Request gets an account, funded with what it asks for.
  const principal = ctx.state.principals.get(lock.principal_pk.kid) ?? (ctx.faults.has('op-unknown-principal-issued') ? walkIn(ctx, lock) : undefined);
  if (!principal) {
    // Mutant op-unknown-principal-empty: an unknown key is read as an empty account.
    if (ctx.faults.has('op-unknown-principal-empty')) return refuse(insufficientBalance());
    return refuse(problemResponse('PRINCIPAL_UNKNOWN', 'principal_pk is not a registered Principal'));
  }
  // 4. Freshness (PROFILE.md §6).
  if (!isFresh(ctx, lock.created_at, now)) return refuse(problemResponse('STALE_REQUEST', 'created_at is outside the request window'));
  // 5. Replay (spec §7.1 DUPLICATE_ID): from here on the id is recorded, whatever follows.
  if (isReplay(ctx, 'request_id', lock.request_id, now, lock.created_at)) return refuse(problemResponse('DUPLICATE_ID', 'request_id has been seen before'));
  // 6. The asset is one the Operator issues (PROFILE.md §4.8 assets).
  // Mutant op-asset-matched-by-code: a policy asset matched by its code alone ({crypto, EUR} taken for {fiat, EUR}).
  // Mutant op-asset-compared-as-json-text: a policy asset matched by its JSON text, so the order its members were written in decides.
  const sameAsset = (asset: typeof lock.asset) => (ctx.faults.has('op-asset-matched-by-code') ? asset.code === lock.asset.code : ctx.faults.has('op-asset-compared-as-json-text') ? JSON.stringify(asset) === JSON.stringify(lock.asset) : assetKey(asset) === assetKey(lock.asset));
  if (!ctx.policy.assets.some(sameAsset)) {
    return refuse(problemResponse('ASSET_NOT_SUPPORTED', 'asset is not one of the policy assets'));
  }
  const amount = BigInt(lock.amount);
  // Mutant op-balance-before-limit: step 9 runs before step 7 (the funds of expired packs back first, as step 9 has them).
  if (ctx.faults.has('op-balance-before-limit')) {
    applyPrincipalExpiries(ctx.state, principal, now);
    if (availableIn(principal, lock.asset) < amount) return refuse(insufficientBalance());
  }
  // 7. Spec §8 maximum amount; equal is allowed.
  const limit = BigInt(ctx.policy.max_amount);
  const over = ctx.faults.has('op-limit-off-by-one') ? amount >= limit : amount > limit; // mutant: the maximum itself refused
  // Mutant op-max-amount-compared-as-doubles: the amount and the limit compared as JavaScript numbers, equal past 2^53 where they differ.
  // Stryker disable next-line all: only the op-max-amount-compared-as-doubles fault compares doubles
  const overLimit = ctx.faults.has('op-max-amount-compared-as-doubles') ? Number(amount) > Number(limit) : over;
  if (overLimit) {
    return refuse(problemResponse('AMOUNT_EXCEEDS_LIMIT', `amount exceeds max_amount ${ctx.policy.max_amount}`));
  }
  // 8. Spec §8 permitted expiry range, relative to the clock at receipt; both ends inclusive.
  const expiryMs = parseTimestamp(lock.requested_expiry, 'cashpack')!;
  // Mutant op-expiry-range-from-created-at: the lifetime measured from the message's created_at.
  const measured = expiryMs - (ctx.faults.has('op-expiry-range-from-created-at') ? parseTimestamp(lock.created_at, 'cashpack')! : now);
  // Mutant op-expiry-lifetime-floored: the lifetime counted in whole seconds, as the policy's range is, so at a clock between seconds an expiry a second past the maximum from the clock's second is granted.
  // Stryker disable next-line all: only the op-expiry-lifetime-floored fault floors it
  const lifetimeMs = ctx.faults.has('op-expiry-lifetime-floored') ? Math.floor(measured / 1000) * 1000 : measured;
  const minMs = ctx.policy.expiry_min_seconds * 1000;
  const maxMs = ctx.policy.expiry_max_seconds * 1000;
  const tooSoon = ctx.faults.has('op-expiry-min-off-by-one') ? lifetimeMs <= minMs : lifetimeMs < minMs; // mutant: the minimum itself refused
  const tooLate = ctx.faults.has('op-expiry-max-off-by-one') ? lifetimeMs >= maxMs : lifetimeMs > maxMs; // mutant: the maximum itself refused
  if (tooSoon || tooLate) {
    return refuse(problemResponse(
      'EXPIRY_INVALID',
      `requested_expiry must be between ${ctx.policy.expiry_min_seconds} and ${ctx.policy.expiry_max_seconds} seconds from now`,
    ));
  }
  // 9. Spec §7.1: the Principal's available balance (in the pack's asset) covers the amount; equal is allowed.
  // Packs that expired are back in it, whether or not anyone has read them since (PROFILE.md §5.1: as if at the expiry instant).
  // Mutant op-expiry-applied-on-read: their funds return only when something reads the pack or the balance.
  if (!ctx.faults.has('op-expiry-applied-on-read')) applyPrincipalExpiries(ctx.state, principal, now);
  // Mutant op-balance-any-asset: the balance counted whatever asset the Principal holds it in.
  const counted = ctx.faults.has('op-balance-any-asset') ? principal.available : availableIn(principal, lock.asset);
  // Mutant op-held-funds-spendable: the funds held for cancelled packs counted as the Principal's to spend.
  // Stryker disable next-line all: only the op-held-funds-spendable fault counts them
  const available = ctx.faults.has('op-held-funds-spendable') ? counted + principal.held : counted;
  const short = ctx.faults.has('op-balance-off-by-one') ? available <= amount : available < amount; // mutant: the whole balance refused
  if (short) return refuse(insufficientBalance());

  // Mutant op-expiry-lifetime-from-receipt: the pack kept for the lifetime the Principal signed (requested_expiry − created_at), counted from receipt; the signed expiry unchanged.
  // Stryker disable next-line all: only the op-expiry-lifetime-from-receipt fault moves the stored expiry
  if (ctx.faults.has('op-expiry-lifetime-from-receipt')) return { ok: true, value: { lock, principal, amount, expiryMs: now + expiryMs - parseTimestamp(lock.created_at, 'cashpack')!, now } };
  // Mutant op-stored-expiry-lifetime-floored: the pack kept for its lifetime floored to whole seconds, counted from the clock; the signed expiry unchanged.
  // Stryker disable next-line all: only the op-stored-expiry-lifetime-floored fault moves the stored expiry
  const keptUntil = ctx.faults.has('op-stored-expiry-lifetime-floored') ? now + Math.floor((expiryMs - now) / 1000) * 1000 : expiryMs;
  return { ok: true, value: { lock, principal, amount, expiryMs: keptUntil, now } };
}

/** Mutant op-unknown-principal-issued: an account opened for the key that signed the Lock Request, holding the amount it asks for. */
function walkIn(ctx: OperatorContext, lock: LockRequest): PrincipalAccount {
  const account: PrincipalAccount = { kid: lock.principal_pk.kid, publicKey: keyOf(lock.principal_pk), asset: lock.asset, available: BigInt(lock.amount), locked: 0n, held: 0n, activePacks: new Set() };
  ctx.state.principals.set(account.kid, account);
  return account;
}

/** A Principal holds funds in the asset it was provisioned with, and none in any other (PROFILE.md §5 issue step 9). */
function availableIn(principal: PrincipalAccount, asset: AssetDescriptor): bigint {
  return assetKey(principal.asset) === assetKey(asset) ? principal.available : 0n;
}

function insufficientBalance() {
  return problemResponse('INSUFFICIENT_BALANCE', 'available balance is less than amount');
}

function newPack(ctx: OperatorContext, lock: LockRequest, amount: bigint, expiryMs: number, now: number): PackRecord {
  const packId = ctx.newPackId(lock);
  // Mutant op-issued-at-rounded: the clock written in Unix seconds as Math.round(ms / 1000), the next second from the half second on.
  // Stryker disable next-line all: only the op-issued-at-rounded fault rounds the clock
  const issuedAt = ctx.faults.has('op-issued-at-rounded') ? Math.round(now / 1000) * 1000 : now;
  const unsigned: Omit<CashPack, 'signature'> = {
    pack_id: packId,
    amount: lock.amount,
    asset: lock.asset,
    // Mutant op-issued-at-from-created-at: the Principal's created_at written as the instant of issue.
    issued_at: ctx.faults.has('op-issued-at-from-created-at') ? lock.created_at : formatTimestamp(issuedAt, 'cashpack'),
    // Mutant op-expiry-late-seconds-dropped: an expiry in the last ten seconds of its minute written as the minute itself.
    expiry: ctx.faults.has('op-expiry-late-seconds-dropped') && Number(lock.requested_expiry.slice(17, 19)) >= 50 ? `${lock.requested_expiry.slice(0, 17)}00Z` : lock.requested_expiry,
    initial_bearer_pk: lock.initial_bearer_pk,
    current_bearer_pk: lock.initial_bearer_pk,
    renewal_chain: [],
    chain_digest: digestText(genesisDigest(packId, keyOf(lock.initial_bearer_pk))), // D0, PROFILE.md §3
    operator_kid: ctx.keys.jwk.kid,
  };
  const pack = deepFreeze(ctx.keys.sign('cash-pack', unsigned));
  return { pack, status: 'ACTIVE', principalKid: lock.principal_pk.kid, amount, expiryMs, updatedAtMs: now };
}
