// The Operator's endpoints rebuilt from the reference's own parts (its state,
// keys, body reader, signature, freshness and transition functions), step by
// step in PROFILE.md §5's order, with knobs: each knob is one realistic mistake
// an implementer could make. With no knob set it answers as the reference does
// (a test fuzzes it clean), so whatever the fuzzer finds with a knob set is that
// knob's doing. Each knob's fault is a fuzzer mutant of reference/mutants.ts
// (KNOB_FAULTS); operator.ts serves it.
import { decodeB64urlFixed, digestText, formatTimestamp, genesisDigest, parseTimestamp, readDigest, renewalDigest, toAmount, verifyRequest } from '../../profile/index.ts';
import { verifyCashPack, type AssetDescriptor, type CashPack, type LockRequest, type RedemptionRequest, type RenewalEntry } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import { readJson, readMessage } from '../operator/body.ts';
import { deepFreeze, isFresh, keyOf, sameKey, verifies, type OperatorContext } from '../operator/context.ts';
import { applyExpiry } from '../operator/expiry.ts';
import { provisionPrincipal } from '../operator/provision.ts';
import { confirmation } from '../operator/redeem.ts';
import { status as referenceStatus } from '../operator/status.ts';
import { assetKey, type PackRecord, type PrincipalAccount, type RedeemerAccount } from '../operator/state.ts';
import { credit, endPack, openPack } from '../operator/transitions.ts';
import type { FuzzerMutantOfRole } from '../mutants.ts';


/** Issue steps 2–9 of PROFILE.md §5, by name. */
type IssueStep = 'signature' | 'principal' | 'fresh' | 'replay' | 'asset' | 'limit' | 'expiry' | 'balance';
const ISSUE_ORDER: readonly IssueStep[] = ['signature', 'principal', 'fresh', 'replay', 'asset', 'limit', 'expiry', 'balance'];

/** The knobs: each, set, is one mistake. None set: the reference's behaviour. */
interface Knobs {
  /** Issue steps 2–9 in another order. */
  readonly issueOrder?: readonly IssueStep[];
  /** Renew and redeem look pack_id up (step 3) before they verify the presented cash-pack (step 2). */
  readonly lookupBeforePackSignature?: true;
  /** The replay store holds at most this many ids, forgetting the oldest. */
  readonly replayCapacity?: number;
  /** Cash-pack verification cached by chain_digest: a digest once verified passes, whatever else the presented pack says. */
  readonly packVerifiedByDigest?: true;
  /** Issue computes the Principal's new available balance in binary floating point. */
  readonly balanceInDoubles?: true;
  /** Issue step 9 reads the Principal's balance whatever asset is requested. */
  readonly balanceAssetBlind?: true;
  /** Expiry before a balance is read or checked visits only the first N of a Principal's active packs. */
  readonly expirySweepLimit?: number;
  /** A renewal re-signs the pack with issued_at set to the Operator's now. */
  readonly renewalStampsIssuedAt?: true;
  /** Renewals and redemptions of a pack take a lock; the depth a status read shows is written before the signed pack is (ms between). */
  readonly depthWrittenBeforePack?: number;
  /** The redeemer's HTTP signature `created` is judged against the Redemption Request's created_at, not the clock. */
  readonly identityWindowFromCreatedAt?: true;
  /** A redeemer's identity level is cached at its first identification. */
  readonly identityLevelCached?: true;
  /** Redeem checks, waits this long (a ledger round trip), then re-checks only that the pack is still ACTIVE before it settles. */
  readonly redeemRechecksStatusOnly?: number;
  /** Redeem credits the redeemer by reading its credit, waiting this long, and writing the sum back. */
  readonly redeemerCreditReadModifyWrite?: number;
  /** Cancel checks that the pack is ACTIVE, waits this long (a legal hold service), then applies without checking again. */
  readonly cancelWaits?: number;
  /** Provisioning a known Principal again replaces its account, forgetting locked and held funds and its active packs. */
  readonly reprovisionReplacesAccount?: true;
}

/**
 * The fuzzer mutants that are a knob set, each a realistic single mistake the
 * suite and the fuzzer were never shown, by the class of fault it stands for.
 */
export const KNOB_FAULTS = {
  // Concurrency between different operations, and across packs sharing an account.
  'op-redeemer-credit-lost-update': { redeemerCreditReadModifyWrite: 20 },
  'op-redeem-rechecks-status-only': { redeemRechecksStatusOnly: 20 },
  'op-cancel-unchecked-after-wait': { cancelWaits: 20 },
  'op-status-depth-before-pack': { depthWrittenBeforePack: 20 },
  // Amounts beyond 2^53, and every asset of the policy.
  'op-balance-in-doubles': { balanceInDoubles: true },
  'op-balance-asset-blind': { balanceAssetBlind: true },
  // Error precedence: two rules broken at once.
  'op-limit-before-asset': { issueOrder: ['signature', 'principal', 'fresh', 'replay', 'limit', 'asset', 'expiry', 'balance'] },
  'op-lookup-before-pack-signature': { lookupBeforePackSignature: true },
  // Whose clock.
  'op-renewal-stamps-issued-at': { renewalStampsIssuedAt: true },
  'op-identity-window-from-created-at': { identityWindowFromCreatedAt: true },
  // Stale and tampered pack versions.
  'op-verification-cached-by-digest': { packVerifiedByDigest: true },
  // Re-provisioned identities.
  'op-identity-level-cached': { identityLevelCached: true },
  'op-reprovision-replaces-account': { reprovisionReplacesAccount: true },
  // By count.
  'op-replay-store-capacity': { replayCapacity: 1000 },
  'op-expiry-sweep-limited': { expirySweepLimit: 16 },
} as const satisfies Readonly<Partial<Record<FuzzerMutantOfRole<'operator'>, Knobs>>>;

export type KnobFault = keyof typeof KNOB_FAULTS;

type Answer = RefResponse | Promise<RefResponse>;
type Refusal = { readonly ok: false; readonly response: RefResponse };

/**
 * The Operator's endpoints with `knobs` set, as a handler that answers the
 * requests it takes over and returns undefined for the others (the reference's
 * router answers those).
 */
export function knobbedOperator(ctx: OperatorContext, knobs: Knobs): (request: RefRequest) => Answer | undefined {
  const op = new KnobbedOperator(ctx, knobs);
  return (request) => {
    const { method, path } = request;
    if (method === 'POST' && path === '/v1/cashpack/issue') return op.issue(request);
    if (method === 'POST' && path === '/v1/cashpack/renew') return op.renew(request);
    if (method === 'POST' && path === '/v1/cashpack/redeem') return op.redeem(request);
    const status = /^\/v1\/cashpack\/([^/]+)\/status$/.exec(path);
    if (method === 'GET' && status && knobs.depthWrittenBeforePack !== undefined) return op.status(request, status[1]!);
    const cancel = /^\/_control\/operator\/packs\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel && knobs.cancelWaits !== undefined) return op.cancel(cancel[1]!);
    const balance = /^\/_control\/operator\/principals\/([^/]+)\/balance$/.exec(path);
    if (method === 'GET' && balance && knobs.expirySweepLimit !== undefined) return op.balance(balance[1]!);
    if (method === 'POST' && path === '/_control/operator/principals' && knobs.reprovisionReplacesAccount) return op.provisionPrincipal(request);
    return undefined;
  };
}

/** An id store (PROFILE.md §6): the reference's, or one with a knob's mistake. */
interface IdStore {
  /** True when `id` is a replay; otherwise records it. */
  seenBefore(id: string, nowMs: number): boolean;
}

class KnobbedOperator {
  private readonly ids: IdStore;
  private readonly verified = new Set<string>();
  private readonly levels = new Map<string, number>();
  /** Per pack, the tail of the renewals and redemptions queued on its lock. */
  private readonly locks = new Map<string, Promise<unknown>>();
  /** The chain_depth column, per pack, while a renewal's signed pack is not written yet. */
  private readonly depthColumn = new Map<string, number>();

  constructor(
    private readonly ctx: OperatorContext,
    private readonly knobs: Knobs,
  ) {
    const retentionMs = 2 * ctx.policy.request_window_seconds * 1000;
    this.ids = knobs.replayCapacity !== undefined ? new BoundedIds(retentionMs, knobs.replayCapacity) : { seenBefore: (id, nowMs) => ctx.state.replay.seenBefore(id, nowMs) };
  }

  // ---- issue (PROFILE.md §5 issue) ----

  issue(request: RefRequest): RefResponse {
    const ctx = this.ctx;
    const body = readMessage(ctx, request, 'lock-request');
    if (!body.ok) return body.response;
    const lock = body.value;
    const now = ctx.clock.now();
    const amount = BigInt(lock.amount);
    let principal: PrincipalAccount | undefined;
    const steps: Record<IssueStep, () => RefResponse | undefined> = {
      signature: () => (verifies(ctx, 'lock-request', lock, keyOf(lock.principal_pk)) ? undefined : problemResponse('INVALID_SIGNATURE', 'the Lock Request signature does not verify under principal_pk')),
      principal: () => {
        principal = ctx.state.principals.get(lock.principal_pk.kid);
        return principal ? undefined : problemResponse('PRINCIPAL_UNKNOWN', 'principal_pk is not a registered Principal');
      },
      fresh: () => (isFresh(ctx, lock.created_at, now) ? undefined : problemResponse('STALE_REQUEST', 'created_at is outside the request window')),
      replay: () => (this.ids.seenBefore(lock.request_id, now) ? problemResponse('DUPLICATE_ID', 'request_id has been seen before') : undefined),
      asset: () => (ctx.policy.assets.some((a) => assetKey(a) === assetKey(lock.asset)) ? undefined : problemResponse('ASSET_NOT_SUPPORTED', 'asset is not one of the policy assets')),
      limit: () => (amount > BigInt(ctx.policy.max_amount) ? problemResponse('AMOUNT_EXCEEDS_LIMIT', `amount exceeds max_amount ${ctx.policy.max_amount}`) : undefined),
      expiry: () => {
        const lifetimeMs = parseTimestamp(lock.requested_expiry, 'cashpack')! - now;
        return lifetimeMs < ctx.policy.expiry_min_seconds * 1000 || lifetimeMs > ctx.policy.expiry_max_seconds * 1000 ? problemResponse('EXPIRY_INVALID', 'requested_expiry is outside the permitted range') : undefined;
      },
      balance: () => {
        this.sweep(principal!, now);
        const available = this.knobs.balanceAssetBlind || assetKey(principal!.asset) === assetKey(lock.asset) ? principal!.available : 0n;
        return available < amount ? problemResponse('INSUFFICIENT_BALANCE', 'available balance is less than amount') : undefined;
      },
    };
    for (const step of this.knobs.issueOrder ?? ISSUE_ORDER) {
      const refusal = steps[step]();
      if (refusal) return refusal;
    }
    const record = newPack(ctx, lock, amount, parseTimestamp(lock.requested_expiry, 'cashpack')!, now);
    const before = principal!.available;
    openPack(ctx.state, principal!, record);
    // Knob balanceInDoubles: the new balance computed as a JavaScript number.
    if (this.knobs.balanceInDoubles) principal!.available = BigInt(Number(before) - Number(amount));
    return json(200, record.pack);
  }

  /** PROFILE.md §5.1 before a balance is read: the Principal's expired packs (the first N of them with the knob). */
  private sweep(principal: PrincipalAccount, now: number): void {
    const active = [...principal.activePacks].slice(0, this.knobs.expirySweepLimit ?? Number.POSITIVE_INFINITY);
    for (const packId of active) applyExpiry(this.ctx.state, this.ctx.state.packs.get(packId)!, now);
  }

  // ---- renew and redeem steps 1–7 (PROFILE.md §5) ----

  private front<K extends 'renew' | 'redeem'>(request: RefRequest, kind: K): Refusal | { readonly ok: true; readonly record: PackRecord; readonly message: K extends 'renew' ? RenewalEntry : RedemptionRequest; readonly now: number } {
    const ctx = this.ctx;
    const spec = kind === 'renew' ? ({ body: 'renew-request', member: 'renewal', tag: 'renewal-entry', id: 'renewal_id' } as const) : ({ body: 'redeem-request', member: 'redemption', tag: 'redemption-request', id: 'redemption_id' } as const);
    const refuse = (...args: Parameters<typeof problemResponse>): Refusal => ({ ok: false, response: problemResponse(...args) });
    const body = readMessage(ctx, request, spec.body);
    if (!body.ok) return body;
    const pack = body.value.cash_pack;
    const message = (body.value as unknown as Record<string, RenewalEntry & RedemptionRequest>)[spec.member]!;
    const now = ctx.clock.now();
    const authentic = () => this.packVerifies(pack);
    if (!this.knobs.lookupBeforePackSignature && !authentic()) return refuse('INVALID_SIGNATURE', 'cash_pack signature does not verify under the operator key');
    const record = ctx.state.packs.get(pack.pack_id);
    if (!record) return refuse('NOT_FOUND', 'unknown pack_id');
    if (this.knobs.lookupBeforePackSignature && !authentic()) return refuse('INVALID_SIGNATURE', 'cash_pack signature does not verify under the operator key');
    if (!verifies(ctx, spec.tag, message, keyOf(message.bearer_pk))) return refuse('INVALID_SIGNATURE', `${spec.member} signature does not verify under bearer_pk`);
    if (!isFresh(ctx, message.created_at, now)) return refuse('STALE_REQUEST', 'created_at is outside the request window');
    if (this.ids.seenBefore((message as unknown as Record<string, string>)[spec.id]!, now)) return refuse('DUPLICATE_ID', `${spec.id} has been seen before`);
    applyExpiry(ctx.state, record, now);
    if (record.status !== 'ACTIVE') return refuse('INSTRUMENT_NOT_ACTIVE', `the pack is ${record.status}`);
    return { ok: true, record, message: message as never, now };
  }

  /** PROFILE.md §5 step 2, through the knob's cache when it is set. */
  private packVerifies(pack: CashPack): boolean {
    if (this.knobs.packVerifiedByDigest && this.verified.has(pack.chain_digest)) return true;
    const ok = verifyCashPack(pack, this.ctx.keys.publicKey);
    if (ok) this.verified.add(pack.chain_digest);
    return ok;
  }

  /** Runs `task` after the renewals and redemptions of the pack queued before it (knob depthWrittenBeforePack). */
  private locked(request: RefRequest, task: () => Answer): Answer {
    if (this.knobs.depthWrittenBeforePack === undefined) return task();
    const packId = packIdOf(request);
    const previous = this.locks.get(packId) ?? Promise.resolve();
    const run = previous.then(task, task);
    this.locks.set(packId, run.catch(() => undefined));
    return run;
  }

  // ---- renew (PROFILE.md §5 renew) ----

  renew(request: RefRequest): Answer {
    return this.locked(request, () => {
      const front = this.front(request, 'renew');
      if (!front.ok) return front.response;
      const { record, message: renewal, now } = front;
      const pack = record.pack;
      if (!sameKey(renewal.bearer_pk, pack.current_bearer_pk)) return problemResponse('BEARER_MISMATCH', 'bearer_pk is not the current bearer');
      if (renewal.prev_chain_digest !== pack.chain_digest) return problemResponse('CHAIN_DIGEST_MISMATCH', 'prev_chain_digest is not the current chain_digest');
      if (pack.renewal_chain.length >= this.ctx.policy.max_chain_depth) return problemResponse('CHAIN_DEPTH_EXCEEDED', `renewal_chain has reached max_chain_depth ${this.ctx.policy.max_chain_depth}`);
      const signed = () => {
        record.pack = deepFreeze(this.ctx.keys.sign('cash-pack', this.renewed(pack, renewal, now)));
        record.updatedAtMs = now;
        return json(200, record.pack);
      };
      const wait = this.knobs.depthWrittenBeforePack;
      if (wait === undefined) return signed();
      // Knob depthWrittenBeforePack: the depth column first, the signed pack after an HSM round trip.
      this.depthColumn.set(pack.pack_id, pack.renewal_chain.length + 1);
      return sleep(wait).then(() => {
        this.depthColumn.delete(pack.pack_id);
        return signed();
      });
    });
  }

  private renewed(pack: CashPack, renewal: RenewalEntry, now: number): Omit<CashPack, 'signature'> {
    const { signature: _old, ...unsigned } = pack;
    const digest = renewalDigest(readDigest(pack.chain_digest)!, renewal.renewal_id, keyOf(renewal.new_bearer_pk), decodeB64urlFixed(renewal.signature, 64)!);
    return {
      ...unsigned,
      // Knob renewalStampsIssuedAt: a renewal is taken for a new issue.
      ...(this.knobs.renewalStampsIssuedAt ? { issued_at: formatTimestamp(now, 'cashpack') } : {}),
      current_bearer_pk: renewal.new_bearer_pk,
      renewal_chain: [...pack.renewal_chain, renewal],
      chain_digest: digestText(digest),
      operator_kid: this.ctx.keys.jwk.kid,
    };
  }

  // ---- redeem (PROFILE.md §5 redeem) ----

  redeem(request: RefRequest): Answer {
    return this.locked(request, () => {
      const front = this.front(request, 'redeem');
      if (!front.ok) return front.response;
      const { record, message: redemption, now } = front;
      if (!sameKey(redemption.bearer_pk, record.pack.current_bearer_pk)) return problemResponse('BEARER_MISMATCH', 'bearer_pk is not the current bearer');
      const redeemer = this.identified(request, redemption, now);
      if (!redeemer) return problemResponse('REDEEMER_NOT_IDENTIFIED', 'redeemer not identified');
      const recheck = this.knobs.redeemRechecksStatusOnly;
      if (recheck !== undefined) {
        // Knob redeemRechecksStatusOnly: a ledger round trip, then only the status is looked at again.
        return sleep(recheck).then(() => (record.status === 'ACTIVE' ? this.settle(record, redemption, redeemer, now) : problemResponse('INSTRUMENT_NOT_ACTIVE', `the pack is ${record.status}`)));
      }
      return this.settle(record, redemption, redeemer, now);
    });
  }

  private settle(record: PackRecord, redemption: RedemptionRequest, redeemer: RedeemerAccount, now: number): Answer {
    const wait = this.knobs.redeemerCreditReadModifyWrite;
    const answer = () => json(200, confirmation(this.ctx, record, redemption, now));
    if (wait === undefined) {
      endPack(this.ctx.state, record, { status: 'REDEEMED', redeemer }, now);
      return answer();
    }
    // Knob redeemerCreditReadModifyWrite: the pack ends at once, the credit is read, and written back later.
    const principal = this.ctx.state.principals.get(record.principalKid)!;
    principal.locked -= record.amount;
    principal.activePacks.delete(record.pack.pack_id);
    record.status = 'REDEEMED';
    record.updatedAtMs = now;
    const key = assetKey(record.pack.asset);
    const read = redeemer.credits.get(key)?.available ?? 0n;
    return sleep(wait).then(() => {
      redeemer.credits.set(key, { asset: record.pack.asset, available: read + record.amount });
      return answer();
    });
  }

  /** PROFILE.md §5 redeem step 9, with the identity knobs. */
  private identified(request: RefRequest, redemption: RedemptionRequest, now: number): RedeemerAccount | undefined {
    const ctx = this.ctx;
    const clockMs = this.knobs.identityWindowFromCreatedAt ? createdOf(redemption) : now;
    const check = verifyRequest(
      { method: request.method, authority: request.authority, path: request.path, query: request.query.toString(), body: request.body },
      { headers: request.headers, lookupKey: (kid) => ctx.state.redeemers.get(kid)?.publicKey, nowSeconds: Math.floor(clockMs / 1000), windowSeconds: ctx.policy.request_window_seconds },
    );
    if (!check.ok || check.kid !== redemption.redeemer_kid) return undefined;
    const redeemer = ctx.state.redeemers.get(check.kid)!;
    let level = redeemer.identity_level;
    if (this.knobs.identityLevelCached) {
      // Knob identityLevelCached: the level looked up once per redeemer.
      level = this.levels.get(check.kid) ?? level;
      this.levels.set(check.kid, level);
    }
    return level >= ctx.policy.required_identity_level ? redeemer : undefined;
  }

  // ---- status, cancel, balance, provisioning ----

  /** The reference's status, with the chain_depth column a renewal in flight has already written (knob depthWrittenBeforePack). */
  status(request: RefRequest, packId: string): Answer | undefined {
    const column = this.depthColumn.get(decodeURIComponent(packId));
    if (column === undefined) return undefined;
    const record = this.ctx.state.packs.get(decodeURIComponent(packId));
    const answer = referenceStatus(this.ctx, request, [decodeURIComponent(packId)]) as RefResponse;
    if (!record || answer.status !== 200) return answer;
    return json(200, { ...(answer.body as Record<string, unknown>), chain_depth: column });
  }

  /** PROFILE.md §5.1 cancel, checked before a wait and applied after it without a second look (knob cancelWaits). */
  cancel(packId: string): Answer {
    const ctx = this.ctx;
    const record = ctx.state.packs.get(decodeURIComponent(packId));
    if (!record) return problemResponse('NOT_FOUND', 'unknown pack_id');
    const now = ctx.clock.now();
    applyExpiry(ctx.state, record, now);
    if (record.status !== 'ACTIVE') return problemResponse('INSTRUMENT_NOT_ACTIVE', `the pack is ${record.status}: terminal states never change`);
    return sleep(this.knobs.cancelWaits!).then(() => {
      const principal = ctx.state.principals.get(record.principalKid)!;
      principal.locked -= record.amount;
      principal.held += record.amount;
      principal.activePacks.delete(record.pack.pack_id);
      record.status = 'CANCELLED';
      record.updatedAtMs = now;
      return json(200, { pack_id: record.pack.pack_id, status: 'CANCELLED' });
    });
  }

  /** GET .../principals/{kid}/balance (PROFILE.md §12) after the knob's sweep (expirySweepLimit). */
  balance(kid: string): RefResponse {
    const principal = this.ctx.state.principals.get(decodeURIComponent(kid));
    if (!principal) return problemResponse('NOT_FOUND', 'unknown Principal kid');
    this.sweep(principal, this.ctx.clock.now());
    return json(200, { asset: principal.asset, available: toAmount(principal.available), locked: toAmount(principal.locked), held: toAmount(principal.held) });
  }

  /** Provisioning a known Principal again makes a new account (knob reprovisionReplacesAccount). */
  provisionPrincipal(request: RefRequest): RefResponse {
    const body = readJson(this.ctx, request);
    if (!body.ok) return body.response;
    const kid = (body.value as { public_key?: { kid?: unknown } } | null)?.public_key?.kid;
    if (typeof kid === 'string') this.ctx.state.principals.delete(kid);
    const outcome = provisionPrincipal(this.ctx, body.value);
    return outcome.ok ? json(201, outcome.value) : problemResponse(outcome.problem.code, outcome.problem.detail);
  }
}

/** PROFILE.md §6 with a capacity: at most `capacity` ids, the oldest forgotten first (knob replayCapacity). */
class BoundedIds implements IdStore {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly retentionMs: number,
    private readonly capacity: number,
  ) {}

  seenBefore(id: string, nowMs: number): boolean {
    for (const [known, at] of this.seen) if (nowMs - at > this.retentionMs) this.seen.delete(known);
    if (this.seen.has(id)) return true;
    this.seen.set(id, nowMs);
    if (this.seen.size > this.capacity) this.seen.delete(this.seen.keys().next().value!);
    return false;
  }
}

function createdOf(message: { readonly created_at: string }): number {
  return parseTimestamp(message.created_at, 'cashpack')!;
}

function packIdOf(request: RefRequest): string {
  try {
    return String((JSON.parse(new TextDecoder().decode(request.body)) as { cash_pack?: { pack_id?: unknown } }).cash_pack?.pack_id);
  } catch {
    return '';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function newPack(ctx: OperatorContext, lock: LockRequest, amount: bigint, expiryMs: number, now: number): PackRecord {
  const packId = ctx.newPackId(lock);
  const pack = deepFreeze(
    ctx.keys.sign('cash-pack', {
      pack_id: packId,
      amount: lock.amount,
      asset: lock.asset as AssetDescriptor,
      issued_at: formatTimestamp(now, 'cashpack'),
      expiry: lock.requested_expiry,
      initial_bearer_pk: lock.initial_bearer_pk,
      current_bearer_pk: lock.initial_bearer_pk,
      renewal_chain: [],
      chain_digest: digestText(genesisDigest(packId, keyOf(lock.initial_bearer_pk))),
      operator_kid: ctx.keys.jwk.kid,
    }),
  );
  return { pack, status: 'ACTIVE', principalKid: lock.principal_pk.kid, amount, expiryMs, updatedAtMs: now };
}

