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
import fc from 'fast-check';
import { isAmount } from '../profile/amount.ts';
import { decodeB64urlFixed, encodeB64url } from '../profile/b64url.ts';
import { digestText, genesisDigest } from '../profile/chain.ts';
import { signObject } from '../profile/signing.ts';
import { formatTimestamp } from '../profile/time.ts';
import {
  buildLockRequest,
  buildRedemption,
  buildRenewal,
  createSigningKey,
  recomputeChainDigest,
  validateMessage,
  type AssetDescriptor,
  type CashPack,
  type LockRequest,
  type PolicyDocument,
  type RedeemRequest,
  type RenewRequest,
  type RenewalEntry,
  type SigningKey,
} from '../profile/cashpack/index.ts';
import { DEFAULT_NOW } from './cpr.ts';

/** The members of the Operator Policy Document (PROFILE.md §4.8) the generators obey. */
export type CashpackPolicy = Pick<
  PolicyDocument,
  'assets' | 'max_amount' | 'max_chain_depth' | 'expiry_min_seconds' | 'expiry_max_seconds' | 'request_window_seconds'
>;

/** The reference Operator's defaults (reference/operator/policy.ts). */
export const DEFAULT_CASHPACK_POLICY: CashpackPolicy = Object.freeze({
  assets: Object.freeze([Object.freeze({ type: 'fiat', code: 'EUR' }) as AssetDescriptor]),
  max_amount: '1000000',
  max_chain_depth: 8,
  expiry_min_seconds: 60,
  expiry_max_seconds: 2_592_000,
  request_window_seconds: 300,
});

export interface CashpackConstraints {
  /** Policy members, merged over the defaults. @defaultValue DEFAULT_CASHPACK_POLICY */
  readonly policy?: Partial<CashpackPolicy>;
  /** The Operator's clock when it receives the message (ms, whole seconds are used). @defaultValue DEFAULT_NOW (2026-01-01T00:00:00Z) */
  readonly now?: number;
  /**
   * Seconds kept between generated times and the policy's bounds, for targets whose
   * clock moves between generation and receipt; 0 puts values on the bounds.
   * An integer ≥ 0, below request_window_seconds. @defaultValue 0
   */
  readonly clockSkewSeconds?: number;
  /** Most renewals already in a pack's chain (capped by max_chain_depth). An integer 0..32. @defaultValue 3 */
  readonly maxPriorRenewals?: number;
}

interface Resolved {
  readonly policy: CashpackPolicy;
  readonly now: number;
  readonly skew: number;
  readonly maxPrior: number;
}

function int(fn: string, name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${fn}: constraints.${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function resolve(fn: string, constraints: CashpackConstraints): Resolved {
  const policy: CashpackPolicy = { ...DEFAULT_CASHPACK_POLICY, ...(constraints.policy ?? {}) };
  const { now = DEFAULT_NOW, clockSkewSeconds: skew = 0, maxPriorRenewals = 3 } = constraints;
  if (!Array.isArray(policy.assets) || policy.assets.length === 0 || !policy.assets.every((a) => validateMessage('asset', a).ok)) {
    throw new RangeError(`${fn}: constraints.policy.assets must be a non-empty array of AssetDescriptors`);
  }
  if (!isAmount(policy.max_amount)) throw new RangeError(`${fn}: constraints.policy.max_amount must be an amount (^[1-9][0-9]{0,77}$)`);
  int(fn, 'policy.max_chain_depth', policy.max_chain_depth, 0);
  int(fn, 'policy.request_window_seconds', policy.request_window_seconds, 1);
  int(fn, 'clockSkewSeconds', skew, 0, policy.request_window_seconds - 1);
  int(fn, 'policy.expiry_min_seconds', policy.expiry_min_seconds, 0);
  int(fn, 'policy.expiry_max_seconds', policy.expiry_max_seconds, Math.max(1, policy.expiry_min_seconds + 2 * skew));
  int(fn, 'now', now, 86_400_000 + policy.request_window_seconds * 1000 + policy.expiry_max_seconds * 1000, Date.UTC(9000, 0, 1));
  int(fn, 'maxPriorRenewals', maxPriorRenewals, 0, 32);
  return { policy, now: Math.floor(now / 1000) * 1000, skew, maxPrior: Math.min(maxPriorRenewals, policy.max_chain_depth) };
}

// ------------------------------------------------------------- building blocks

const stamp = (ms: number): string => formatTimestamp(ms, 'cashpack');
const seed = fc.uint8Array({ minLength: 32, maxLength: 32 });

// Importing a new Ed25519 key costs about half a millisecond in node:crypto, so keys
// are memoised by seed (fast-check repeats seeds while shrinking) and the ones only
// some corruptions need are made on first use.
const KEY_MEMO = new Map<string, SigningKey>();
const KEY_MEMO_LIMIT = 8192;

function keyFromSeed(s: Uint8Array): SigningKey {
  const id = Buffer.from(s).toString('hex');
  let key = KEY_MEMO.get(id);
  if (key === undefined) {
    if (KEY_MEMO.size >= KEY_MEMO_LIMIT) KEY_MEMO.delete(KEY_MEMO.keys().next().value!);
    key = createSigningKey(s);
    KEY_MEMO.set(id, key);
  }
  return key;
}

function lazyKey(s: Uint8Array): () => SigningKey {
  return () => keyFromSeed(s);
}

/** n distinct seeds. */
function seeds(n: number): fc.Arbitrary<Uint8Array[]> {
  return fc.uniqueArray(seed, { minLength: n, maxLength: n, selector: (s) => Buffer.from(s).toString('hex') });
}

/** n keys from n distinct seeds. */
function keys(n: number): fc.Arbitrary<SigningKey[]> {
  return seeds(n).map((ss) => ss.map(keyFromSeed));
}

/** n distinct version 4 UUIDs. */
function ids(n: number): fc.Arbitrary<string[]> {
  return fc.uniqueArray(fc.uuid({ version: 4 }), { minLength: n, maxLength: n });
}

function amountUpTo(max: bigint): fc.Arbitrary<string> {
  return fc.oneof({ weight: 4, arbitrary: fc.bigInt({ min: 1n, max }) }, { weight: 1, arbitrary: fc.constant(max) }).map(String);
}

/** created_at within the request window (PROFILE.md §6), kept `skew` inside it. */
function freshCreatedAt(r: Resolved): fc.Arbitrary<string> {
  const w = r.policy.request_window_seconds - r.skew;
  return fc.integer({ min: -w, max: w }).map((d) => stamp(r.now + d * 1000));
}

// ------------------------------------------------------------- Lock Request (PROFILE.md §4.2)

export interface LockRequestCase {
  readonly kind: 'lock-request';
  readonly message: LockRequest;
  readonly principal: SigningKey;
  readonly initialBearer: SigningKey;
  readonly now: number;
  readonly policy: CashpackPolicy;
}

function lockCase(r: Resolved, expiry: fc.Arbitrary<number>, amount: fc.Arbitrary<string>): fc.Arbitrary<LockRequestCase> {
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

const validExpiry = (r: Resolved) => fc.integer({ min: r.policy.expiry_min_seconds + r.skew, max: r.policy.expiry_max_seconds - r.skew });

/** Valid Lock Requests (see the header). Throws RangeError at construction for a bad constraint. */
export function validLockRequest(constraints: CashpackConstraints = {}): fc.Arbitrary<LockRequestCase> {
  const r = resolve('validLockRequest', constraints);
  return lockCase(r, validExpiry(r), amountUpTo(BigInt(r.policy.max_amount)));
}

// ------------------------------------------------------------- packs, renewals, redemptions

/** An ACTIVE pack issued by `operator` with `depth` renewals, and what built it. */
interface PackSetup {
  readonly operator: SigningKey;
  /** The Principal that locked the funds (made on first use). */
  readonly principal: () => SigningKey;
  /** Bearers in order: initial, then each renewal's new bearer; the last is current. */
  readonly bearers: readonly SigningKey[];
  readonly pack: CashPack;
  /** D0 .. D(depth). */
  readonly digests: readonly string[];
  /** A key distinct from every other (new bearer or redeemer). */
  readonly next: SigningKey;
  /** Another distinct key, for corruptions (made on first use). */
  readonly stranger: () => SigningKey;
  readonly messageId: string;
  readonly spareId: string;
  readonly created_at: string;
}

/** Issues and renews like an Operator would (PROFILE.md §3, §4.3, §5 issue and renew). */
function buildPack(
  operator: SigningKey,
  bearers: readonly SigningKey[],
  base: Omit<CashPack, 'initial_bearer_pk' | 'current_bearer_pk' | 'renewal_chain' | 'chain_digest' | 'operator_kid' | 'signature'>,
  renewalIds: readonly string[],
  renewedAt: readonly string[],
): { pack: CashPack; digests: string[] } {
  const initial = bearers[0]!;
  let pack: CashPack = signObject(
    'cash-pack',
    {
      ...base,
      initial_bearer_pk: initial.jwk,
      current_bearer_pk: initial.jwk,
      renewal_chain: [] as RenewalEntry[],
      chain_digest: digestText(genesisDigest(base.pack_id, initial.publicKey)),
      operator_kid: operator.jwk.kid,
    },
    operator.secretKey,
  );
  const digests = [pack.chain_digest];
  renewalIds.forEach((renewal_id, i) => {
    const entry = buildRenewal({ bearer: bearers[i]!, pack, new_bearer: bearers[i + 1]!.jwk, renewal_id, created_at: renewedAt[i]! });
    const renewal_chain = [...pack.renewal_chain, entry];
    const chain_digest = recomputeChainDigest({ pack_id: pack.pack_id, initial_bearer_pk: pack.initial_bearer_pk, renewal_chain });
    digests.push(chain_digest);
    pack = signObject('cash-pack', { ...pack, current_bearer_pk: bearers[i + 1]!.jwk, renewal_chain, chain_digest }, operator.secretKey);
  });
  return { pack, digests };
}

function packSetup(r: Resolved, depths: { min: number; max: number }): fc.Arbitrary<PackSetup> {
  return fc.integer(depths).chain((depth) =>
    fc
      .record({
        k: seeds(depth + 5),
        id: ids(depth + 3),
        amount: amountUpTo(BigInt(r.policy.max_amount)),
        asset: fc.constantFrom(...r.policy.assets),
        // Seconds until expiry (after `now`, so ACTIVE) and the pack's total lifetime.
        remaining: fc.integer({ min: Math.min(1 + r.skew, r.policy.expiry_max_seconds), max: r.policy.expiry_max_seconds }),
        lifetimeExtra: fc.nat({ max: r.policy.expiry_max_seconds }),
        created_at: freshCreatedAt(r),
      })
      .map(({ k, id, amount, asset, remaining, lifetimeExtra, created_at }) => {
        const [operatorSeed, principalSeed, nextSeed, strangerSeed, ...bearerSeeds] = k as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, ...Uint8Array[]];
        const [operator, next, bearers] = [keyFromSeed(operatorSeed), keyFromSeed(nextSeed), bearerSeeds.map(keyFromSeed)];
        const [principal, stranger] = [lazyKey(principalSeed), lazyKey(strangerSeed)];
        const [pack_id, messageId, spareId, ...renewalIds] = id as [string, string, string, ...string[]];
        const lifetime = Math.max(r.policy.expiry_min_seconds, Math.min(r.policy.expiry_max_seconds, remaining + lifetimeExtra));
        const expiryMs = r.now + remaining * 1000;
        const issuedMs = Math.min(r.now, expiryMs - lifetime * 1000);
        const step = Math.floor((r.now - issuedMs) / 1000 / (depth + 1));
        const renewedAt = renewalIds.map((_, i) => stamp(issuedMs + (i + 1) * step * 1000));
        const base = { pack_id, amount, asset, issued_at: stamp(issuedMs), expiry: stamp(expiryMs) };
        const { pack, digests } = buildPack(operator, bearers, base, renewalIds, renewedAt);
        return { operator, principal, bearers, pack, digests, next, stranger, messageId, spareId, created_at };
      }),
  );
}

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

const chainIds = (pack: CashPack): string[] => pack.renewal_chain.map((e) => e.renewal_id);

function renewCase(s: PackSetup, r: Resolved): RenewCase {
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

function redeemCase(s: PackSetup, r: Resolved): RedeemCase {
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
function renewDepths(fn: string, r: Resolved, min = 0): { min: number; max: number } {
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

// ------------------------------------------------------------- corruptions

export type CashpackMessageKind = 'lock-request' | 'renew-request' | 'redeem-request';

export type CorruptionKind =
  | 'flipped-signature-byte'
  | 'wrong-signing-key'
  | 'reused-id'
  | 'stale-digest'
  | 'not-current-bearer'
  | 'expiry-out-of-range'
  | 'amount-over-limit';

export type CorruptionCode =
  | 'INVALID_SIGNATURE'
  | 'CHAIN_DIGEST_MISMATCH'
  | 'DUPLICATE_ID'
  | 'EXPIRY_INVALID'
  | 'AMOUNT_EXCEEDS_LIMIT'
  | 'BEARER_MISMATCH';

/** PROFILE.md §11 statuses of the codes a corruption can expect. */
export const CORRUPTION_STATUS: Readonly<Record<CorruptionCode, number>> = {
  INVALID_SIGNATURE: 400,
  CHAIN_DIGEST_MISMATCH: 409,
  DUPLICATE_ID: 409,
  EXPIRY_INVALID: 422,
  AMOUNT_EXCEEDS_LIMIT: 422,
  BEARER_MISMATCH: 403,
};

export type CashpackCase = LockRequestCase | RenewCase | RedeemCase;

export interface CorruptedMessage {
  readonly kind: CashpackMessageKind;
  readonly corruption: CorruptionKind;
  /** Which form of the corruption ("cash_pack signature", "previous bearer" ...). */
  readonly variant: string;
  readonly description: string;
  readonly expected: { readonly code: CorruptionCode; readonly status: number };
  /** The corrupted body; still a schema-valid message of its kind. */
  readonly message: LockRequest | RenewRequest | RedeemRequest;
  /** The valid case it was derived from (keys, policy, now, the ids recorded). */
  readonly base: CashpackCase;
  /** Valid Lock Requests an Operator must have accepted before this message (their ids are then recorded). */
  readonly prior: readonly LockRequest[];
  /** Every id the Operator has recorded before this message (base.priorIds plus the prior messages' ids). */
  readonly priorIds: readonly string[];
}

type Corruption = { readonly message: CorruptedMessage['message']; readonly variant: string; readonly description: string; readonly prior?: readonly LockRequest[] };

interface CorruptionEntry {
  readonly corruption: CorruptionKind;
  readonly code: CorruptionCode;
  readonly kinds: readonly CashpackMessageKind[];
  readonly apply: (base: CashpackCase, s: PackSetup | undefined, r: Resolved) => fc.Arbitrary<Corruption>;
}

function flip(signature: string, byte: number, bit: number): string {
  const raw = decodeB64urlFixed(signature, 64)!.slice();
  raw[byte] = raw[byte]! ^ (1 << bit);
  return encodeB64url(raw);
}

const bodyMember = (kind: CashpackMessageKind): 'renewal' | 'redemption' => (kind === 'renew-request' ? 'renewal' : 'redemption');

/** A renew or redeem body by `bearer` (signing) naming `named` as bearer_pk, with overrides. */
function bearerMessage(base: RenewCase | RedeemCase, s: PackSetup, opts: { signer: SigningKey; named?: SigningKey; id?: string; prev?: string }): RenewRequest | RedeemRequest {
  const named = opts.named ?? opts.signer;
  const signer = { secretKey: opts.signer.secretKey, jwk: named.jwk };
  if (base.kind === 'renew-request') {
    const renewal = buildRenewal({
      bearer: signer,
      pack: s.pack,
      new_bearer: s.next.jwk,
      renewal_id: opts.id ?? s.messageId,
      created_at: s.created_at,
      ...(opts.prev !== undefined ? { prev_chain_digest: opts.prev } : {}),
    });
    return { cash_pack: s.pack, renewal };
  }
  const redemption = buildRedemption({ bearer: signer, pack: s.pack, redeemer_kid: s.next.jwk.kid, redemption_id: opts.id ?? s.messageId, created_at: s.created_at });
  return { cash_pack: s.pack, redemption };
}

const CORRUPTIONS: readonly CorruptionEntry[] = [
  {
    corruption: 'flipped-signature-byte',
    code: 'INVALID_SIGNATURE',
    kinds: ['lock-request', 'renew-request', 'redeem-request'],
    apply: (base) =>
      fc.tuple(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 7 }), fc.boolean()).map(([byte, bit, onPack]): Corruption => {
        const where = `byte ${byte} bit ${bit}`;
        if (base.kind === 'lock-request') {
          return { message: { ...base.message, signature: flip(base.message.signature, byte, bit) }, variant: 'lock request signature', description: `Lock Request signature with ${where} flipped` };
        }
        const member = bodyMember(base.kind);
        if (onPack) {
          const cash_pack = { ...base.message.cash_pack, signature: flip(base.message.cash_pack.signature, byte, bit) };
          return { message: { ...base.message, cash_pack } as RenewRequest | RedeemRequest, variant: 'cash_pack signature', description: `the Operator's cash-pack signature with ${where} flipped` };
        }
        const inner = (base.message as Record<string, unknown>)[member] as { signature: string };
        const message = { ...base.message, [member]: { ...inner, signature: flip(inner.signature, byte, bit) } } as RenewRequest | RedeemRequest;
        return { message, variant: `${member} signature`, description: `the bearer's ${member} signature with ${where} flipped` };
      }),
  },
  {
    corruption: 'wrong-signing-key',
    code: 'INVALID_SIGNATURE',
    kinds: ['lock-request', 'renew-request', 'redeem-request'],
    apply: (base, s) =>
      fc.boolean().map((onPack): Corruption => {
        if (base.kind === 'lock-request') {
          const message = signObject('lock-request', { ...base.message }, base.initialBearer.secretKey);
          return { message, variant: 'lock request', description: 'Lock Request naming principal_pk but signed by another key (the initial bearer)' };
        }
        if (onPack) {
          const cash_pack = signObject('cash-pack', { ...base.message.cash_pack }, s!.stranger().secretKey);
          return { message: { ...base.message, cash_pack } as RenewRequest | RedeemRequest, variant: 'cash_pack', description: 'a cash-pack signed by a key that is not the Operator\'s' };
        }
        const message = bearerMessage(base, s!, { signer: s!.stranger(), named: base.bearer });
        return { message, variant: bodyMember(base.kind), description: `${bodyMember(base.kind)} naming the current bearer as bearer_pk but signed by another key` };
      }),
  },
  {
    corruption: 'reused-id',
    code: 'DUPLICATE_ID',
    kinds: ['lock-request', 'renew-request', 'redeem-request'],
    apply: (base, s, r) => {
      if (base.kind === 'lock-request') {
        // An earlier, different Lock Request by the same Principal with the same request_id.
        return lockCase(r, validExpiry(r), amountUpTo(BigInt(r.policy.max_amount))).map((other): Corruption => {
          const prior = buildLockRequest({
            principal: base.principal,
            request_id: base.message.request_id,
            amount: other.message.amount,
            asset: other.message.asset,
            initialBearer: other.initialBearer.jwk,
            requested_expiry: other.message.requested_expiry,
            created_at: other.message.created_at,
          });
          return { message: base.message, prior: [prior], variant: 'request_id of an earlier Lock Request', description: 'request_id already used by an earlier Lock Request' };
        });
      }
      const chain = chainIds(s!.pack);
      return fc.nat().map((pick): Corruption => {
        const member = bodyMember(base.kind);
        if (chain.length > 0) {
          const id = chain[pick % chain.length]!;
          return { message: bearerMessage(base, s!, { signer: base.bearer, id }), variant: 'renewal_id from the chain', description: `${member} id ${id} already used by a renewal in the pack's chain (shared id namespace)` };
        }
        // Depth 0: reuse the request_id of the Lock Request that issued the pack (shared id namespace, PROFILE.md §6).
        const lock = buildLockRequest({
          principal: s!.principal(),
          request_id: s!.spareId,
          amount: s!.pack.amount,
          asset: s!.pack.asset,
          initialBearer: s!.bearers[0]!.jwk,
          requested_expiry: s!.pack.expiry,
          created_at: s!.pack.issued_at,
        });
        return {
          message: bearerMessage(base, s!, { signer: base.bearer, id: s!.spareId }),
          prior: [lock],
          variant: 'request_id of the issuing Lock Request',
          description: `${member} id equal to the request_id of the Lock Request that issued the pack (shared id namespace)`,
        };
      });
    },
  },
  {
    corruption: 'stale-digest',
    code: 'CHAIN_DIGEST_MISMATCH',
    kinds: ['renew-request'],
    apply: (base, s) =>
      fc.tuple(fc.nat(), fc.uint8Array({ minLength: 32, maxLength: 32 })).map(([pick, random]): Corruption => {
        const earlier = s!.digests.slice(0, -1);
        const choice = pick % (earlier.length + 2);
        const [prev, variant] =
          choice < earlier.length
            ? [earlier[choice]!, `D${choice}, an earlier digest of the chain`]
            : choice === earlier.length
              ? [digestText(genesisDigest(s!.spareId, s!.bearers[0]!.publicKey)), 'the genesis digest of another pack']
              : [encodeB64url(random), 'random 32 bytes'];
        const current = s!.pack.chain_digest;
        const stale = prev === current ? encodeB64url(random.map((b) => b ^ 0xff)) : prev;
        return { message: bearerMessage(base as RenewCase, s!, { signer: (base as RenewCase).bearer, prev: stale }), variant, description: `prev_chain_digest is ${variant}, not the pack's chain_digest` };
      }),
  },
  {
    corruption: 'not-current-bearer',
    code: 'BEARER_MISMATCH',
    kinds: ['renew-request', 'redeem-request'],
    apply: (base, s) =>
      fc.nat().map((pick): Corruption => {
        const previous = s!.bearers.slice(0, -1);
        const choice = pick % (previous.length + 1);
        const signer = choice < previous.length ? previous[choice]! : s!.stranger();
        const variant = choice < previous.length ? `bearer ${choice}, a previous bearer` : 'a key that never held the pack';
        return { message: bearerMessage(base as RenewCase | RedeemCase, s!, { signer }), variant, description: `${bodyMember(base.kind)} validly signed by ${variant}, not the current bearer` };
      }),
  },
  {
    corruption: 'expiry-out-of-range',
    code: 'EXPIRY_INVALID',
    kinds: ['lock-request'],
    apply: (base, _s, r) => {
      const { expiry_min_seconds: min, expiry_max_seconds: max } = r.policy;
      const early = fc.integer({ min: min - 1 - r.skew - 86_400, max: min - 1 - r.skew });
      const late = fc.integer({ min: max + 1 + r.skew, max: max + 1 + r.skew + 30 * 86_400 });
      return fc.oneof(early, late).map((e): Corruption => {
        const b = base as LockRequestCase;
        const message = buildLockRequest({
          principal: b.principal,
          request_id: b.message.request_id,
          amount: b.message.amount,
          asset: b.message.asset,
          initialBearer: b.initialBearer.jwk,
          requested_expiry: stamp(r.now + e * 1000),
          created_at: b.message.created_at,
        });
        return { message, variant: e < min ? 'too soon' : 'too late', description: `requested_expiry ${e} s from now, outside [${min}, ${max}]` };
      });
    },
  },
  {
    corruption: 'amount-over-limit',
    code: 'AMOUNT_EXCEEDS_LIMIT',
    kinds: ['lock-request'],
    apply: (base, _s, r) => {
      const max = BigInt(r.policy.max_amount);
      return fc.oneof(fc.constant(max + 1n), fc.bigInt({ min: max + 1n, max: 10n ** 78n - 1n })).map((amount): Corruption => {
        const b = base as LockRequestCase;
        const message = buildLockRequest({
          principal: b.principal,
          request_id: b.message.request_id,
          amount,
          asset: b.message.asset,
          initialBearer: b.initialBearer.jwk,
          requested_expiry: b.message.requested_expiry,
          created_at: b.message.created_at,
        });
        return { message, variant: amount === max + 1n ? 'max_amount + 1' : 'far above', description: `amount ${amount} above max_amount ${r.policy.max_amount}` };
      });
    },
  },
];

export const CORRUPTION_KINDS: readonly CorruptionKind[] = CORRUPTIONS.map((c) => c.corruption);
const MESSAGE_KINDS: readonly CashpackMessageKind[] = ['lock-request', 'renew-request', 'redeem-request'];

export interface CorruptedMessageConstraints extends CashpackConstraints {
  /** Only these corruptions. @defaultValue every corruption */
  readonly corruptions?: readonly CorruptionKind[];
  /** Only these message kinds. @defaultValue every kind the corruptions apply to */
  readonly kinds?: readonly CashpackMessageKind[];
}

function subset<T extends string>(fn: string, name: string, value: readonly T[] | undefined, all: readonly T[]): readonly T[] {
  if (value === undefined) return all;
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => !all.includes(v))) {
    throw new RangeError(`${fn}: constraints.${name} must be a non-empty subset of ${all.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Messages with exactly one corruption (see the header). Throws RangeError at construction for a bad constraint. */
export function corruptedMessage(constraints: CorruptedMessageConstraints = {}): fc.Arbitrary<CorruptedMessage> {
  const fn = 'corruptedMessage';
  const r = resolve(fn, constraints);
  const wanted = subset(fn, 'corruptions', constraints.corruptions, CORRUPTION_KINDS);
  let kinds = subset(fn, 'kinds', constraints.kinds, MESSAGE_KINDS);
  const max = BigInt(r.policy.max_amount);
  const possible = (c: CorruptionEntry) => c.corruption !== 'amount-over-limit' || max < 10n ** 78n - 1n;
  if (r.policy.max_chain_depth < 1) kinds = kinds.filter((k) => k !== 'renew-request');
  const pairs = CORRUPTIONS.filter((c) => wanted.includes(c.corruption) && possible(c)).flatMap((c) => c.kinds.filter((k) => kinds.includes(k)).map((k) => [c, k] as const));
  if (pairs.length === 0) throw new RangeError(`${fn}: constraints.corruptions and constraints.kinds leave nothing to generate with this policy`);

  const lock = validLockRequest(constraints);
  const renewSetups = r.policy.max_chain_depth >= 1 ? packSetup(r, renewDepths(fn, r)) : undefined;
  const redeemSetups = packSetup(r, { min: 0, max: r.maxPrior });
  return fc.constantFrom(...pairs).chain(([c, kind]) => {
    const bases: fc.Arbitrary<{ base: CashpackCase; setup?: PackSetup }> =
      kind === 'lock-request'
        ? lock.map((base) => ({ base }))
        : (kind === 'renew-request' ? renewSetups! : redeemSetups).map((setup) => ({ setup, base: kind === 'renew-request' ? renewCase(setup, r) : redeemCase(setup, r) }));
    return bases.chain(({ base, setup }) =>
      c.apply(base, setup, r).map((o): CorruptedMessage => {
        const prior = o.prior ?? [];
        const basePrior = base.kind === 'lock-request' ? [] : base.priorIds;
        return {
          kind,
          corruption: c.corruption,
          variant: o.variant,
          description: o.description,
          expected: { code: c.code, status: CORRUPTION_STATUS[c.code] },
          message: o.message,
          base,
          prior,
          priorIds: [...basePrior, ...prior.map((p) => p.request_id)],
        };
      }),
    );
  });
}
