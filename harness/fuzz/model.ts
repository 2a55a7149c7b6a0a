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
  /** PROFILE.md §4.8; provisioning the redeemer again changes it (§12). */
  level: number;
  /** Funds released to it, per asset (canonical JSON of the asset → amount). */
  readonly credits: Map<string, bigint>;
}

export interface PackState {
  readonly packId: string;
  readonly principalKid: string;
  readonly amount: bigint;
  /** Canonical JSON of the pack's asset. */
  readonly asset: string;
  readonly expiryMs: number;
  /** The Operator's clock when it issued the pack (PROFILE.md §4.3): no later operation changes it. */
  readonly issuedAtMs: number;
  /**
   * The Operator's clock at the pack's last state change (PROFILE.md §4.7):
   * issue, each renewal, redemption, cancellation; for EXPIRED the expiry instant.
   */
  updatedAtMs: number;
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

/** The endpoints the model predicts (PROFILE.md §5, §12 cancel). */
export type Endpoint = 'issue' | 'renew' | 'redeem' | 'status' | 'cancel';

/** A check of an endpoint as the profile states it: the answer when it fails and the requirement it proves. */
export interface CheckRule {
  /** Where the profile says so, e.g. "PROFILE.md §5 renew step 9". */
  readonly rule: string;
  readonly code: ProblemCode;
  /** The requirement ID (suites/requirements.yaml) the check proves. */
  readonly requirement: string;
}

/** A check and how the model decides it: why the input fails it, or undefined when it passes. */
interface Check<I> extends CheckRule {
  readonly fails: (input: I) => string | undefined;
}

interface Refusal {
  readonly ok: false;
  readonly status: number;
  readonly code: ProblemCode;
  /** Where the profile says so and why it applies, e.g. "PROFILE.md §5 renew step 9: prev_chain_digest is not the pack's chain_digest". */
  readonly rule: string;
  /** The requirement of the check that decided (ENDPOINT_RULES). */
  readonly requirement: string;
  /** Its position in the endpoint's checks: every check before it passed. */
  readonly at: number;
}

export type Prediction<T> = Refusal | ({ readonly ok: true; readonly status: 200 } & T);

type IssuePrediction = Prediction<{ readonly amount: bigint; readonly asset: string; readonly expiryMs: number; readonly initialBearer: string }>;
export type RenewPrediction = Prediction<{ readonly digest: string; readonly depth: number; readonly bearer: string }>;
export type RedeemPrediction = Prediction<{ readonly amount: bigint; readonly asset: string; readonly redeemerKid: string; readonly digest: string }>;
type CancelPrediction = Prediction<Record<never, never>>;
type StatusPrediction = Prediction<{ readonly view: StatusView }>;

/** PROFILE.md §4.7, the members the model knows. */
export interface StatusView {
  readonly status: PackStatusValue;
  readonly amount: bigint;
  /** Canonical JSON of the asset. */
  readonly asset: string;
  readonly expiryMs: number;
  readonly depth: number;
  readonly digest: string;
  /** updated_at (PROFILE.md §4.7). */
  readonly updatedAtMs: number;
}

export interface Decision<O, A = void> {
  readonly outcome: O;
  /** Applies the outcome: records the id when the profile says so, moves funds, changes the pack. */
  commit(actual: A): void;
}

/** The first check the input fails, in the table's order, as the refusal it answers; undefined when every check passes. */
function firstFailing<I>(checks: readonly Check<I>[], input: I): Refusal | undefined {
  for (let at = 0; at < checks.length; at++) {
    const check = checks[at]!;
    const why = check.fails(input);
    if (why !== undefined) return { ok: false, status: PROBLEM_STATUS[check.code], code: check.code, rule: `${check.rule}: ${why}`, requirement: check.requirement, at };
  }
  return undefined;
}

/** PROFILE.md §6: from the check after the replay check on, a refused message's id is recorded too. */
function recordsFrom(checks: readonly CheckRule[]): number {
  return checks.findIndex((c) => c.code === 'DUPLICATE_ID') + 1;
}

// ---- The checks of each endpoint, in the profile's order (PROFILE.md §5) ----

interface IssueInput {
  readonly m: OperatorModel;
  readonly msg: IssueMessage;
  readonly principal: PrincipalState | undefined;
}

const issueStep = (n: number) => `PROFILE.md §5 issue step ${n}`;

const ISSUE_CHECKS: readonly Check<IssueInput>[] = [
  { rule: issueStep(2), code: 'INVALID_SIGNATURE', requirement: 'CPP-SIG-1', fails: ({ msg }) => (msg.signatureValid ? undefined : 'the Lock Request signature does not verify') },
  { rule: issueStep(3), code: 'PRINCIPAL_UNKNOWN', requirement: 'CPP-PRN-1', fails: ({ principal }) => (principal ? undefined : 'principal_pk is not a registered Principal') },
  { rule: issueStep(4), code: 'STALE_REQUEST', requirement: 'PRF-FRESH-1', fails: ({ m, msg }) => (m.fresh(msg.createdMs) ? undefined : 'created_at is outside the request window') },
  { rule: issueStep(5), code: 'DUPLICATE_ID', requirement: 'CPP-RPL-1', fails: ({ m, msg }) => (m.remembers(msg.id) ? 'request_id was seen before' : undefined) },
  { rule: issueStep(6), code: 'ASSET_NOT_SUPPORTED', requirement: 'PRF-ORDER-1', fails: ({ m, msg }) => (m.policy.assets.includes(msg.asset) ? undefined : 'the asset is not in the policy') },
  { rule: issueStep(7), code: 'AMOUNT_EXCEEDS_LIMIT', requirement: 'CPP-LIM-1', fails: ({ m, msg }) => (msg.amount > m.policy.maxAmount ? `amount ${msg.amount} is above max_amount ${m.policy.maxAmount}` : undefined) },
  {
    rule: issueStep(8),
    code: 'EXPIRY_INVALID',
    requirement: 'CPP-EXP-1',
    fails: ({ m, msg }) => {
      const lifetimeMs = msg.expiryMs - m.now;
      return lifetimeMs < m.policy.expiryMinSeconds * 1000 || lifetimeMs > m.policy.expiryMaxSeconds * 1000 ? `a lifetime of ${lifetimeMs / 1000} s is outside ${m.policy.expiryMinSeconds}..${m.policy.expiryMaxSeconds}` : undefined;
    },
  },
  {
    rule: issueStep(9),
    code: 'INSUFFICIENT_BALANCE',
    requirement: 'CPP-BAL-1',
    fails: ({ msg, principal }) => {
      const available = principal!.asset === msg.asset ? principal!.available : 0n;
      return available < msg.amount ? `amount ${msg.amount} is above the available ${available}` : undefined;
    },
  },
];

interface BearerInput<M extends RenewMessage | RedeemMessage> {
  readonly m: OperatorModel;
  readonly msg: M;
  readonly pack: PackState | undefined;
}

/** Renew and redeem steps 2–7 (§5 redeem: "as renew steps 1–7"). */
function bearerChecks<M extends RenewMessage | RedeemMessage>(kind: M['kind']): Check<BearerInput<M>>[] {
  const step = (n: number) => `PROFILE.md §5 ${kind} step ${n}`;
  return [
    { rule: step(2), code: 'INVALID_SIGNATURE', requirement: 'CPP-SIG-1', fails: ({ msg }) => (msg.packAuthentic ? undefined : "the presented cash-pack does not verify under the Operator's key") },
    { rule: step(3), code: 'NOT_FOUND', requirement: 'PRF-AUTH-1', fails: ({ pack }) => (pack ? undefined : 'no pack has this pack_id') },
    { rule: step(4), code: 'INVALID_SIGNATURE', requirement: 'CPP-SIG-1', fails: ({ msg }) => (msg.signatureValid ? undefined : `the ${kind} message signature does not verify`) },
    { rule: step(5), code: 'STALE_REQUEST', requirement: 'PRF-FRESH-1', fails: ({ m, msg }) => (m.fresh(msg.createdMs) ? undefined : 'created_at is outside the request window') },
    { rule: step(6), code: 'DUPLICATE_ID', requirement: 'CPP-RPL-1', fails: ({ m, msg }) => (m.remembers(msg.id) ? 'the id was seen before' : undefined) },
    { rule: step(7), code: 'INSTRUMENT_NOT_ACTIVE', requirement: 'CPP-ACT-1', fails: ({ pack }) => (pack!.status === 'ACTIVE' ? undefined : `the pack is ${pack!.status}`) },
  ];
}

const bearerMismatch = <M extends RenewMessage | RedeemMessage>(kind: M['kind']): Check<BearerInput<M>> => ({
  rule: `PROFILE.md §5 ${kind} step 8`,
  code: 'BEARER_MISMATCH',
  requirement: 'CPP-BRR-1',
  fails: ({ msg, pack }) => (msg.bearer === bearerOf(pack!) ? undefined : 'bearer_pk is not the current bearer'),
});

const RENEW_CHECKS: readonly Check<BearerInput<RenewMessage>>[] = [
  ...bearerChecks<RenewMessage>('renew'),
  bearerMismatch<RenewMessage>('renew'),
  { rule: 'PROFILE.md §5 renew step 9', code: 'CHAIN_DIGEST_MISMATCH', requirement: 'CPP-CHN-2', fails: ({ msg, pack }) => (msg.prevDigest === digestOf(pack!) ? undefined : "prev_chain_digest is not the pack's chain_digest") },
  { rule: 'PROFILE.md §5 renew step 10', code: 'CHAIN_DEPTH_EXCEEDED', requirement: 'CPP-DEPTH-1', fails: ({ m, pack }) => (depthOf(pack!) >= m.policy.maxChainDepth ? `the chain is at max_chain_depth ${m.policy.maxChainDepth}` : undefined) },
];

const REDEEM_CHECKS: readonly Check<BearerInput<RedeemMessage>>[] = [
  ...bearerChecks<RedeemMessage>('redeem'),
  bearerMismatch<RedeemMessage>('redeem'),
  { rule: 'PROFILE.md §5 redeem step 9', code: 'REDEEMER_NOT_IDENTIFIED', requirement: 'CPP-IDN-1', fails: ({ m, msg }) => m.unidentified(msg) },
];

interface StatusInput {
  readonly m: OperatorModel;
  readonly caller: HttpIdentity;
  readonly pack: PackState | undefined;
}

const STATUS_CHECKS: readonly Check<StatusInput>[] = [
  {
    rule: 'PROFILE.md §5 status',
    code: 'UNAUTHENTICATED',
    requirement: 'PRF-AUTH-1',
    fails: ({ m, caller }) =>
      caller.kind === 'none' ? 'no HTTP Message Signature'
      : !m.withinWindow(caller.createdSeconds) ? 'created outside the window'
      : !m.isAccount(caller.kid) ? 'keyid is not a registered account key'
      : undefined,
  },
  { rule: 'PROFILE.md §5 status', code: 'FORBIDDEN', requirement: 'PRF-AUTH-1', fails: ({ m, caller, pack }) => (caller.kind === 'signed' && !m.isStaff(caller.kid) && pack?.principalKid !== caller.kid ? 'neither the issuing Principal nor the Operator' : undefined) },
  { rule: 'PROFILE.md §5 status', code: 'NOT_FOUND', requirement: 'PRF-AUTH-1', fails: ({ pack }) => (pack ? undefined : 'unknown pack (asked by the Operator)') },
];

const CANCEL_CHECKS: readonly Check<PackState | undefined>[] = [
  { rule: 'PROFILE.md §12 cancel', code: 'NOT_FOUND', requirement: 'PRF-CTL-1', fails: (pack) => (pack ? undefined : 'unknown pack') },
  { rule: 'PROFILE.md §5.1', code: 'INSTRUMENT_NOT_ACTIVE', requirement: 'CPP-ACT-1', fails: (pack) => (pack!.status === 'ACTIVE' ? undefined : `the pack is ${pack!.status}, a terminal state`) },
];

/**
 * Each endpoint's checks in the profile's order and the requirement its success
 * proves: the rules the model decides by, so that a difference can be named by
 * the rule it concerns (cause.ts).
 */
export const ENDPOINT_RULES: Readonly<Record<Endpoint, { readonly checks: readonly CheckRule[]; readonly success: string }>> = {
  issue: { checks: ISSUE_CHECKS, success: 'CPP-ISS-1' },
  renew: { checks: RENEW_CHECKS, success: 'CPP-RNW-1' },
  redeem: { checks: REDEEM_CHECKS, success: 'CPP-RED-1' },
  status: { checks: STATUS_CHECKS, success: 'CPP-STS-1' },
  cancel: { checks: CANCEL_CHECKS, success: 'CPP-CAN-1' },
};

/**
 * The model's concurrency rule for a burst of copies of one request, of which
 * it says exactly one succeeds (spec §1.2, PROFILE.md §5.1): the requirement a
 * burst that lets more or fewer succeed breaks, when its copies were refused
 * for nothing but losing.
 */
export const CONCURRENCY_RULES: Readonly<Record<'issue' | 'renew' | 'redeem', { readonly requirement: string; readonly rule: string }>> = {
  issue: { requirement: 'CPP-BAL-1', rule: 'spec §1.2: funds are locked on issue; the balance covers one of them only' },
  renew: { requirement: 'CPP-RACE-1', rule: 'PROFILE.md §5.1: of concurrent renewals or redemptions of one pack, exactly one succeeds' },
  redeem: { requirement: 'CPP-RACE-1', rule: 'PROFILE.md §5.1: of concurrent renewals or redemptions of one pack, exactly one succeeds' },
};

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
  private seen = RecordedIds.empty();

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
    this.redeemers.set(kid, { kid, level, credits: new Map() });
  }

  /**
   * A known Principal provisioned again (PROFILE.md §12): its available balance
   * becomes `balance`; its locked and held funds, its asset and its packs stay.
   */
  reprovisionPrincipal(kid: string, balance: bigint): void {
    const principal = this.principals.get(kid);
    if (!principal) throw new TypeError('only a known Principal is provisioned again');
    principal.available = balance;
  }

  /** A known redeemer provisioned again (PROFILE.md §12): its identity level becomes `level`; its credits stay. */
  reprovisionRedeemer(kid: string, level: number): void {
    const redeemer = this.redeemers.get(kid);
    if (!redeemer) throw new TypeError('only a known redeemer is provisioned again');
    redeemer.level = level;
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

  /** Funds released to a redeemer in one asset (canonical JSON). */
  credit(kid: string, asset: string): bigint {
    return this.redeemers.get(kid)?.credits.get(asset) ?? 0n;
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
   * an Operator MUST answer DUPLICATE_ID for an id recorded less than twice the
   * freshness window ago, and MAY have forgotten it after that. A fresh message
   * reusing an id recorded that long ago has no outcome the profile fixes; the
   * model treats the id as forgotten, and the commands never send such a
   * message (`mayHaveForgotten`).
   */
  remembers(id: string): boolean {
    const at = this.seen.get(id);
    return at !== undefined && this.clockMs - at < this.retentionMs;
  }

  /** The id was recorded, twice the window ago or longer: an Operator may or may not remember it (§6). */
  mayHaveForgotten(id: string): boolean {
    const at = this.seen.get(id);
    return at !== undefined && this.clockMs - at >= this.retentionMs;
  }

  /** When the id was recorded (the Operator's clock at receipt), if it was. */
  recordedAt(id: string): number | undefined {
    return this.seen.get(id);
  }

  /** Twice request_window_seconds, in ms (§6). */
  get retentionMs(): number {
    return 2 * this.policy.requestWindowSeconds * 1000;
  }

  /** Funds in the model: every Principal's and redeemer's, which no request creates or destroys. */
  totalFunds(): bigint {
    let total = 0n;
    for (const p of this.principals.values()) total += p.available + p.locked + p.held;
    for (const r of this.redeemers.values()) for (const amount of r.credits.values()) total += amount;
    return total;
  }

  // -- Endpoints (PROFILE.md §5), each check in the profile's order --

  /** POST /v1/cashpack/issue. */
  issue(msg: IssueMessage): Decision<IssuePrediction, string | undefined> {
    const refusal = firstFailing(ISSUE_CHECKS, { m: this, msg, principal: this.principals.get(msg.principalKid) });
    const outcome: IssuePrediction = refusal ?? { ok: true, status: 200, amount: msg.amount, asset: msg.asset, expiryMs: msg.expiryMs, initialBearer: msg.initialBearer };
    return this.decided(msg.id, outcome, ISSUE_CHECKS, (_outcome, packId) => {
      if (packId === undefined) throw new TypeError('an issued pack needs the pack_id the Operator chose');
      const principal = this.principals.get(msg.principalKid)!;
      principal.available -= msg.amount;
      principal.locked += msg.amount;
      const d0 = this.genesisDigest(packId, msg.initialBearer);
      this.packs.set(packId, {
        packId,
        principalKid: msg.principalKid,
        amount: msg.amount,
        asset: msg.asset,
        expiryMs: msg.expiryMs,
        issuedAtMs: this.clockMs,
        updatedAtMs: this.clockMs,
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
    const pack = this.packs.get(msg.packId);
    const refusal = firstFailing(RENEW_CHECKS, { m: this, msg, pack });
    let outcome: RenewPrediction;
    if (refusal) outcome = refusal;
    else {
      const signature = decodeB64urlFixed(msg.signature, 64);
      if (!signature) throw new TypeError('a renewal signature is 64 bytes of strict base64url');
      const digest = digestText(renewalDigest(readDigest(digestOf(pack!))!, msg.id, rawKey(msg.newBearer), signature));
      outcome = { ok: true, status: 200, digest, depth: depthOf(pack!) + 1, bearer: msg.newBearer };
    }
    return this.decided(msg.id, outcome, RENEW_CHECKS, (success) => {
      pack!.digests.push(success.digest);
      pack!.bearers.push(msg.newBearer);
      pack!.updatedAtMs = this.clockMs;
    });
  }

  /** POST /v1/cashpack/redeem. */
  redeem(msg: RedeemMessage): Decision<RedeemPrediction> {
    const pack = this.packs.get(msg.packId);
    const refusal = firstFailing(REDEEM_CHECKS, { m: this, msg, pack });
    const outcome: RedeemPrediction = refusal ?? { ok: true, status: 200, amount: pack!.amount, asset: pack!.asset, redeemerKid: msg.redeemerKid, digest: digestOf(pack!) };
    return this.decided(msg.id, outcome, REDEEM_CHECKS, (success) => {
      const principal = this.principals.get(pack!.principalKid)!;
      principal.locked -= pack!.amount;
      const credits = this.redeemers.get(success.redeemerKid)!.credits;
      credits.set(pack!.asset, (credits.get(pack!.asset) ?? 0n) + pack!.amount);
      pack!.status = 'REDEEMED';
      pack!.updatedAtMs = this.clockMs;
    });
  }

  /**
   * The decision on a signed message: committing records its id when the check
   * order reached the replay step, and applies a success.
   */
  private decided<T, A = void>(id: string, outcome: Prediction<T>, checks: readonly CheckRule[], apply: (success: Extract<Prediction<T>, { ok: true }>, actual: A) => void): Decision<Prediction<T>, A> {
    const recorded = outcome.ok || outcome.at >= recordsFrom(checks);
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
    const pack = this.packs.get(query.packId);
    const refusal = firstFailing(STATUS_CHECKS, { m: this, caller: query.caller, pack });
    return refusal ?? { ok: true, status: 200, view: { status: pack!.status, amount: pack!.amount, asset: pack!.asset, expiryMs: pack!.expiryMs, depth: depthOf(pack!), digest: digestOf(pack!), updatedAtMs: pack!.updatedAtMs } };
  }

  /** POST /_control/operator/packs/{pack_id}/cancel (§5.1, §12): ACTIVE → CANCELLED, locked → held. */
  cancel(packId: string): Decision<CancelPrediction> {
    const pack = this.packs.get(packId);
    const outcome: CancelPrediction = firstFailing(CANCEL_CHECKS, pack) ?? { ok: true, status: 200 };
    return {
      outcome,
      commit: () => {
        if (!outcome.ok || !pack) return;
        const principal = this.principals.get(pack.principalKid)!;
        principal.locked -= pack.amount;
        principal.held += pack.amount;
        pack.status = 'CANCELLED';
        pack.updatedAtMs = this.clockMs;
      },
    };
  }

  /**
   * A copy with its own state: what the model would answer after decisions
   * committed on the copy (a burst's losers, had some copy won), the original untouched.
   */
  clone(): OperatorModel {
    const copy = new OperatorModel(this.policy, this.clockMs);
    for (const [kid, p] of this.principals) copy.principals.set(kid, { ...p });
    for (const [kid, r] of this.redeemers) copy.redeemers.set(kid, { ...r, credits: new Map(r.credits) });
    for (const kid of this.staff) copy.staff.add(kid);
    for (const [id, pack] of this.packs) copy.packs.set(id, { ...pack, digests: [...pack.digests], bearers: [...pack.bearers] });
    copy.seen = this.seen.fork();
    return copy;
  }

  // -- What the checks read --

  /** Redeem step 9: why the redeemer is not identified, or undefined. */
  unidentified(msg: RedeemMessage): string | undefined {
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
  fresh(createdMs: number): boolean {
    return Math.abs(createdMs - this.clockMs) <= this.policy.requestWindowSeconds * 1000;
  }

  /** §2.4: an HTTP signature's `created` (seconds) within the window. */
  withinWindow(createdSeconds: number): boolean {
    return Math.abs(createdSeconds - Math.floor(this.clockMs / 1000)) <= this.policy.requestWindowSeconds;
  }

  isAccount(kid: string): boolean {
    return this.principals.has(kid) || this.redeemers.has(kid) || this.staff.has(kid);
  }

  isStaff(kid: string): boolean {
    return this.staff.has(kid);
  }

  /** §5.1: an ACTIVE pack whose expiry is at or before the clock is EXPIRED; its amount is available again. */
  private applyExpiry(pack: PackState): void {
    if (pack.status !== 'ACTIVE' || pack.expiryMs > this.clockMs) return;
    const principal = this.principals.get(pack.principalKid)!;
    principal.locked -= pack.amount;
    principal.available += pack.amount;
    pack.status = 'EXPIRED';
    // PROFILE.md §4.7, §5.1: stamped at the expiry instant, whenever the Operator notices.
    pack.updatedAtMs = pack.expiryMs;
  }
}

/**
 * The ids a model recorded, copied cheaply: copies share what was recorded
 * before they were made and keep what each records after to itself. The ids
 * only grow with a run (floods add hundreds), and judging concurrent requests
 * copies the model once per order of them (linearize.ts), a dozen copies in a
 * row with nothing recorded between: they all share one base.
 */
class RecordedIds {
  private constructor(
    /** Shared with copies: never written once shared. */
    private base: ReadonlyMap<string, number>,
    /** Recorded since the base was shared. */
    private own: Map<string, number>,
  ) {}

  static empty(): RecordedIds {
    return new RecordedIds(new Map(), new Map());
  }

  get(id: string): number | undefined {
    return this.own.get(id) ?? this.base.get(id);
  }

  set(id: string, at: number): void {
    this.own.set(id, at);
  }

  /** A copy with the same ids; what either records afterwards the other does not see. */
  fork(): RecordedIds {
    if (this.own.size > 0) {
      const merged = new Map(this.base);
      for (const [id, at] of this.own) merged.set(id, at);
      this.base = merged;
      this.own = new Map();
    }
    return new RecordedIds(this.base, new Map());
  }
}

function rawKey(x: string): Uint8Array {
  const key = decodeB64urlFixed(x, 32);
  if (!key) throw new TypeError(`not the base64url of a 32-byte key: ${JSON.stringify(x)}`);
  return key;
}
