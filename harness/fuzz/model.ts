// A pure model of a cash-pack Operator (PROFILE.md §5, §5.1, §6): accounts,
// packs, the replay store and the clock. For every request it predicts the exact
// answer (the HTTP status and problem code of the first check that fails, in the
// profile's order) or, on success, the resulting state, chain digest included.
//
// Each prediction is a Decision: `outcome` is computed without touching the
// model; `commit` applies it once the caller has compared it with what the
// implementation answered (an issued pack's id is the Operator's choice, so it
// comes from the answer). Expiry is applied eagerly when the clock moves: its
// observable effect is the same as the profile's lazy expiry (§5.1).
import { PROBLEM_STATUS, canonicalJson, decodeB64urlFixed, digestText, genesisDigest, readDigest, renewalDigest, type ProblemCode } from '../../profile/index.ts';
import type { AssetDescriptor, PackStatusValue, PolicyDocument } from '../../profile/cashpack/index.ts';

/** The policy members the model reads (PROFILE.md §4.8), amounts as bigint. */
export interface ModelPolicy {
  /** Canonical JSON of each policy asset (two descriptors are the same asset when equal). */
  readonly assets: readonly string[];
  readonly maxAmount: bigint;
  readonly maxChainDepth: number;
  readonly expiryMinSeconds: number;
  readonly expiryMaxSeconds: number;
  readonly requiredIdentityLevel: number;
  readonly requestWindowSeconds: number;
}

export function modelPolicy(doc: PolicyDocument): ModelPolicy {
  return {
    assets: doc.assets.map(assetKey),
    maxAmount: BigInt(doc.max_amount),
    maxChainDepth: doc.max_chain_depth,
    expiryMinSeconds: doc.expiry_min_seconds,
    expiryMaxSeconds: doc.expiry_max_seconds,
    requiredIdentityLevel: doc.required_identity_level,
    requestWindowSeconds: doc.request_window_seconds,
  };
}

export function assetKey(asset: AssetDescriptor): string {
  return canonicalJson(asset);
}

// ---- State ----

interface PrincipalState {
  readonly kid: string;
  readonly asset: string;
  available: bigint;
  locked: bigint;
  held: bigint;
}

interface RedeemerState {
  readonly kid: string;
  readonly level: number;
  /** Funds released to it, in the policy's first asset (the only one the fuzzer issues). */
  available: bigint;
}

export interface PackState {
  readonly packId: string;
  readonly principalKid: string;
  readonly amount: bigint;
  readonly expiryMs: number;
  status: PackStatusValue;
  /** D0 … Dn (PROFILE.md §3); the last is the current chain_digest. */
  readonly digests: string[];
  /** x of the initial bearer, then of each renewal's new bearer; the last is current_bearer_pk. */
  readonly bearers: string[];
}

export function depthOf(pack: PackState): number {
  return pack.digests.length - 1;
}

export function digestOf(pack: PackState): string {
  return pack.digests.at(-1)!;
}

function bearerOf(pack: PackState): string {
  return pack.bearers.at(-1)!;
}

// ---- Messages, as the model sees them ----

/** A Lock Request (PROFILE.md §4.2). Keys are named by their x (§2.1: same x, same key). */
export interface IssueMessage {
  readonly kind: 'issue';
  readonly id: string;
  /** kid of principal_pk. */
  readonly principalKid: string;
  readonly signatureValid: boolean;
  readonly amount: bigint;
  /** Canonical JSON of the asset. */
  readonly asset: string;
  readonly initialBearer: string;
  readonly expiryMs: number;
  readonly createdMs: number;
}

interface BearerMessageCommon {
  readonly id: string;
  readonly packId: string;
  /** The presented cash-pack verifies under the Operator's key. */
  readonly packAuthentic: boolean;
  readonly signatureValid: boolean;
  readonly createdMs: number;
  /** x of bearer_pk. */
  readonly bearer: string;
}

/** A Renewal Entry (PROFILE.md §4.4), with what the digest needs. */
export interface RenewMessage extends BearerMessageCommon {
  readonly kind: 'renew';
  readonly prevDigest: string;
  readonly newBearer: string;
  /** base64url of the entry's signature (it enters Di). */
  readonly signature: string;
}

/** The HTTP Message Signature of a redeemer (PROFILE.md §2.4), if any. */
type HttpIdentity = { readonly kind: 'none' } | { readonly kind: 'signed'; readonly kid: string; readonly createdSeconds: number };

/** A Redemption Request (PROFILE.md §4.5) with the redeemer's HTTP signature. */
export interface RedeemMessage extends BearerMessageCommon {
  readonly kind: 'redeem';
  readonly redeemerKid: string;
  readonly identity: HttpIdentity;
}

export type CashpackMessage = IssueMessage | RenewMessage | RedeemMessage;

export interface StatusQuery {
  readonly packId: string;
  readonly caller: HttpIdentity;
}

// ---- Outcomes ----

interface Refusal {
  readonly ok: false;
  readonly status: number;
  readonly code: ProblemCode;
  /** Where the profile says so, e.g. "PROFILE.md §5 renew step 9". */
  readonly rule: string;
}

export type Prediction<T> = Refusal | ({ readonly ok: true; readonly status: 200 } & T);

type IssuePrediction = Prediction<{ readonly amount: bigint; readonly expiryMs: number; readonly initialBearer: string }>;
export type RenewPrediction = Prediction<{ readonly digest: string; readonly depth: number; readonly bearer: string }>;
export type RedeemPrediction = Prediction<{ readonly amount: bigint; readonly redeemerKid: string; readonly digest: string }>;
type CancelPrediction = Prediction<Record<never, never>>;
type StatusPrediction = Prediction<{ readonly view: StatusView }>;

/** PROFILE.md §4.7, the members the model knows. */
interface StatusView {
  readonly status: PackStatusValue;
  readonly amount: bigint;
  readonly expiryMs: number;
  readonly depth: number;
  readonly digest: string;
}

export interface Decision<O, A = void> {
  readonly outcome: O;
  /** Applies the outcome: records the id when the profile says so, moves funds, changes the pack. */
  commit(actual: A): void;
}

function refuse(code: ProblemCode, rule: string): Refusal {
  return { ok: false, status: PROBLEM_STATUS[code], code, rule };
}

// ---- The model ----

export class OperatorModel {
  private clockMs: number;
  private readonly principals = new Map<string, PrincipalState>();
  private readonly redeemers = new Map<string, RedeemerState>();
  private readonly staff = new Set<string>();
  private readonly packs = new Map<string, PackState>();
  /**
   * PROFILE.md §6: one namespace for request_id, renewal_id and redemption_id;
   * id → instant it was recorded.
   */
  private readonly seen = new Map<string, number>();

  constructor(
    readonly policy: ModelPolicy,
    nowMs: number,
  ) {
    this.clockMs = nowMs;
  }

  get now(): number {
    return this.clockMs;
  }

  // -- Test control (PROFILE.md §12) --

  addPrincipal(kid: string, asset: string, balance: bigint): void {
    this.principals.set(kid, { kid, asset, available: balance, locked: 0n, held: 0n });
  }

  addRedeemer(kid: string, level: number): void {
    this.redeemers.set(kid, { kid, level, available: 0n });
  }

  addStaff(kid: string): void {
    this.staff.add(kid);
  }

  /** POST /_control/clock advance_seconds: packs at or past their expiry become EXPIRED (§5.1). */
  advance(seconds: number): void {
    if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError('the clock only moves forward, in whole seconds');
    this.clockMs += seconds * 1000;
    for (const pack of this.packs.values()) this.applyExpiry(pack);
  }

  principal(kid: string): PrincipalState | undefined {
    return this.principals.get(kid);
  }

  redeemer(kid: string): RedeemerState | undefined {
    return this.redeemers.get(kid);
  }

  redeemerList(): readonly RedeemerState[] {
    return [...this.redeemers.values()];
  }

  pack(packId: string): PackState | undefined {
    return this.packs.get(packId);
  }

  /** Packs in the order they were issued. */
  packList(): readonly PackState[] {
    return [...this.packs.values()];
  }

  /**
   * Whether a new message with this id is a duplicate. §6 bounds the replay store:
   * an id is remembered for twice the freshness window (an identical resend is
   * stale after that). A fresh message reusing an id recorded longer ago has no
   * outcome the profile fixes; the model treats the id as forgotten, and the
   * commands never reuse such an id (see `remembers`).
   */
  remembers(id: string): boolean {
    const at = this.seen.get(id);
    return at !== undefined && this.clockMs - at <= this.retentionMs;
  }

  /** Twice request_window_seconds, in ms (§6). */
  get retentionMs(): number {
    return 2 * this.policy.requestWindowSeconds * 1000;
  }

  /** Funds in the model: every Principal's and redeemer's, which no request creates or destroys. */
  totalFunds(): bigint {
    let total = 0n;
    for (const p of this.principals.values()) total += p.available + p.locked + p.held;
    for (const r of this.redeemers.values()) total += r.available;
    return total;
  }

  // -- Endpoints (PROFILE.md §5), each check in the profile's order --

  /** POST /v1/cashpack/issue. */
  issue(msg: IssueMessage): Decision<IssuePrediction, string | undefined> {
    return this.decided(msg.id, this.decideIssue(msg), (_outcome, packId) => {
      if (packId === undefined) throw new TypeError('an issued pack needs the pack_id the Operator chose');
      const principal = this.principals.get(msg.principalKid)!;
      principal.available -= msg.amount;
      principal.locked += msg.amount;
      const d0 = this.genesisDigest(packId, msg.initialBearer);
      this.packs.set(packId, {
        packId,
        principalKid: msg.principalKid,
        amount: msg.amount,
        expiryMs: msg.expiryMs,
        status: 'ACTIVE',
        digests: [d0],
        bearers: [msg.initialBearer],
      });
      // A pack issued with an expiry at or before the clock cannot exist (step 8), but keep the rule in one place.
      this.applyExpiry(this.packs.get(packId)!);
    });
  }

  /** D0 of a pack the Operator issued with this id (PROFILE.md §3). */
  genesisDigest(packId: string, initialBearer: string): string {
    return digestText(genesisDigest(packId, rawKey(initialBearer)));
  }

  /** POST /v1/cashpack/renew. */
  renew(msg: RenewMessage): Decision<RenewPrediction> {
    return this.decided(msg.id, this.decideRenew(msg), (outcome) => {
      const pack = this.packs.get(msg.packId)!;
      pack.digests.push(outcome.digest);
      pack.bearers.push(msg.newBearer);
    });
  }

  /** POST /v1/cashpack/redeem. */
  redeem(msg: RedeemMessage): Decision<RedeemPrediction> {
    return this.decided(msg.id, this.decideRedeem(msg), (outcome) => {
      const pack = this.packs.get(msg.packId)!;
      const principal = this.principals.get(pack.principalKid)!;
      principal.locked -= pack.amount;
      this.redeemers.get(outcome.redeemerKid)!.available += pack.amount;
      pack.status = 'REDEEMED';
    });
  }

  /**
   * The decision on a signed message: committing records its id when the check
   * order reached the replay step (`recorded`), and applies a success.
   */
  private decided<T, A = void>(id: string, [outcome, recorded]: [Prediction<T>, boolean], apply: (success: Extract<Prediction<T>, { ok: true }>, actual: A) => void): Decision<Prediction<T>, A> {
    return {
      outcome,
      commit: (actual: A) => {
        if (recorded) this.seen.set(id, this.clockMs);
        if (outcome.ok) apply(outcome as Extract<Prediction<T>, { ok: true }>, actual);
      },
    };
  }

  /** GET /v1/cashpack/{pack_id}/status: 401, then 403, then 404 (§5 status). Reads change nothing. */
  status(query: StatusQuery): StatusPrediction {
    const rule = 'PROFILE.md §5 status';
    const caller = query.caller;
    if (caller.kind === 'none') return refuse('UNAUTHENTICATED', `${rule}: no HTTP Message Signature`);
    if (!this.withinWindow(caller.createdSeconds)) return refuse('UNAUTHENTICATED', `${rule}: created outside the window`);
    if (!this.isAccount(caller.kid)) return refuse('UNAUTHENTICATED', `${rule}: keyid is not a registered account key`);
    const pack = this.packs.get(query.packId);
    if (!this.staff.has(caller.kid) && pack?.principalKid !== caller.kid) return refuse('FORBIDDEN', `${rule}: neither the issuing Principal nor the Operator`);
    if (!pack) return refuse('NOT_FOUND', `${rule}: unknown pack (asked by the Operator)`);
    return { ok: true, status: 200, view: { status: pack.status, amount: pack.amount, expiryMs: pack.expiryMs, depth: depthOf(pack), digest: digestOf(pack) } };
  }

  /** POST /_control/operator/packs/{pack_id}/cancel (§5.1, §12): ACTIVE → CANCELLED, locked → held. */
  cancel(packId: string): Decision<CancelPrediction> {
    const pack = this.packs.get(packId);
    const outcome: CancelPrediction =
      !pack ? refuse('NOT_FOUND', 'PROFILE.md §12 cancel: unknown pack')
      : pack.status !== 'ACTIVE' ? refuse('INSTRUMENT_NOT_ACTIVE', `PROFILE.md §5.1: the pack is ${pack.status}, a terminal state`)
      : { ok: true, status: 200 };
    return {
      outcome,
      commit: () => {
        if (!outcome.ok || !pack) return;
        const principal = this.principals.get(pack.principalKid)!;
        principal.locked -= pack.amount;
        principal.held += pack.amount;
        pack.status = 'CANCELLED';
      },
    };
  }

  // -- The steps --

  private decideIssue(msg: IssueMessage): [IssuePrediction, boolean] {
    const step = (n: number) => `PROFILE.md §5 issue step ${n}`;
    if (!msg.signatureValid) return [refuse('INVALID_SIGNATURE', step(2)), false];
    const principal = this.principals.get(msg.principalKid);
    if (!principal) return [refuse('PRINCIPAL_UNKNOWN', step(3)), false];
    if (!this.fresh(msg.createdMs)) return [refuse('STALE_REQUEST', step(4)), false];
    if (this.remembers(msg.id)) return [refuse('DUPLICATE_ID', step(5)), false];
    // From here on the id is recorded, whatever follows (§6).
    if (!this.policy.assets.includes(msg.asset)) return [refuse('ASSET_NOT_SUPPORTED', step(6)), true];
    if (msg.amount > this.policy.maxAmount) return [refuse('AMOUNT_EXCEEDS_LIMIT', step(7)), true];
    const lifetimeMs = msg.expiryMs - this.clockMs;
    if (lifetimeMs < this.policy.expiryMinSeconds * 1000 || lifetimeMs > this.policy.expiryMaxSeconds * 1000) return [refuse('EXPIRY_INVALID', step(8)), true];
    const available = principal.asset === msg.asset ? principal.available : 0n;
    if (available < msg.amount) return [refuse('INSUFFICIENT_BALANCE', step(9)), true];
    return [{ ok: true, status: 200, amount: msg.amount, expiryMs: msg.expiryMs, initialBearer: msg.initialBearer }, true];
  }

  /** Renew and redeem steps 1–7 (§5 redeem: "as renew steps 1–7"): the refusal and whether the id is recorded. */
  private bearerSteps(msg: RenewMessage | RedeemMessage): [Refusal, boolean] | PackState {
    const step = (n: number) => `PROFILE.md §5 ${msg.kind} step ${n}`;
    if (!msg.packAuthentic) return [refuse('INVALID_SIGNATURE', step(2)), false];
    const pack = this.packs.get(msg.packId);
    if (!pack) return [refuse('NOT_FOUND', step(3)), false];
    if (!msg.signatureValid) return [refuse('INVALID_SIGNATURE', step(4)), false];
    if (!this.fresh(msg.createdMs)) return [refuse('STALE_REQUEST', step(5)), false];
    if (this.remembers(msg.id)) return [refuse('DUPLICATE_ID', step(6)), false];
    if (pack.status !== 'ACTIVE') return [refuse('INSTRUMENT_NOT_ACTIVE', `${step(7)}: the pack is ${pack.status}`), true];
    return pack;
  }

  private decideRenew(msg: RenewMessage): [RenewPrediction, boolean] {
    const front = this.bearerSteps(msg);
    if (Array.isArray(front)) return front;
    const pack = front;
    const step = (n: number) => `PROFILE.md §5 renew step ${n}`;
    if (msg.bearer !== bearerOf(pack)) return [refuse('BEARER_MISMATCH', step(8)), true];
    if (msg.prevDigest !== digestOf(pack)) return [refuse('CHAIN_DIGEST_MISMATCH', step(9)), true];
    if (depthOf(pack) >= this.policy.maxChainDepth) return [refuse('CHAIN_DEPTH_EXCEEDED', step(10)), true];
    const previous = readDigest(digestOf(pack))!;
    const signature = decodeB64urlFixed(msg.signature, 64);
    if (!signature) throw new TypeError('a renewal signature is 64 bytes of strict base64url');
    const digest = digestText(renewalDigest(previous, msg.id, rawKey(msg.newBearer), signature));
    return [{ ok: true, status: 200, digest, depth: depthOf(pack) + 1, bearer: msg.newBearer }, true];
  }

  private decideRedeem(msg: RedeemMessage): [RedeemPrediction, boolean] {
    const front = this.bearerSteps(msg);
    if (Array.isArray(front)) return front;
    const pack = front;
    const step = (n: number) => `PROFILE.md §5 redeem step ${n}`;
    if (msg.bearer !== bearerOf(pack)) return [refuse('BEARER_MISMATCH', step(8)), true];
    const why = this.unidentified(msg);
    if (why !== undefined) return [refuse('REDEEMER_NOT_IDENTIFIED', `${step(9)}: ${why}`), true];
    return [{ ok: true, status: 200, amount: pack.amount, redeemerKid: msg.redeemerKid, digest: digestOf(pack) }, true];
  }

  /** Redeem step 9: why the redeemer is not identified, or undefined. */
  private unidentified(msg: RedeemMessage): string | undefined {
    const id = msg.identity;
    if (id.kind === 'none') return 'no HTTP Message Signature';
    if (!this.withinWindow(id.createdSeconds)) return 'the signature was created outside the window';
    const redeemer = this.redeemers.get(id.kid);
    if (!redeemer) return 'keyid is not a registered redeemer';
    if (id.kid !== msg.redeemerKid) return 'keyid differs from redeemer_kid';
    if (redeemer.level < this.policy.requiredIdentityLevel) return `identity level ${redeemer.level} is below ${this.policy.requiredIdentityLevel}`;
    return undefined;
  }

  /** §6: created_at within request_window_seconds of the clock, before or after. */
  private fresh(createdMs: number): boolean {
    return Math.abs(createdMs - this.clockMs) <= this.policy.requestWindowSeconds * 1000;
  }

  /** §2.4: an HTTP signature's `created` (seconds) within the window. */
  private withinWindow(createdSeconds: number): boolean {
    return Math.abs(createdSeconds - Math.floor(this.clockMs / 1000)) <= this.policy.requestWindowSeconds;
  }

  private isAccount(kid: string): boolean {
    return this.principals.has(kid) || this.redeemers.has(kid) || this.staff.has(kid);
  }

  /** §5.1: an ACTIVE pack whose expiry is at or before the clock is EXPIRED; its amount is available again. */
  private applyExpiry(pack: PackState): void {
    if (pack.status !== 'ACTIVE' || pack.expiryMs > this.clockMs) return;
    const principal = this.principals.get(pack.principalKid)!;
    principal.locked -= pack.amount;
    principal.available += pack.amount;
    pack.status = 'EXPIRED';
  }
}

function rawKey(x: string): Uint8Array {
  const key = decodeB64urlFixed(x, 32);
  if (!key) throw new TypeError(`not the base64url of a 32-byte key: ${JSON.stringify(x)}`);
  return key;
}
