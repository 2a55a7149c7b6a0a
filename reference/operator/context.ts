// What every Operator endpoint works with, and the small rules they share.
import { PROFILE_ID, SIGNING_TAGS, canonicalJson, decodeB64urlFixed, verifyStrict, parseTimestamp, problem, verifyObject, verifyRequest, verifyRequestLoosely, type MessageType, type OkpJwk, type Problem, type ProblemCode, type SignatureCheck } from '../../profile/index.ts';
import type { CashPack, LockRequest } from '../../profile/cashpack/index.ts';
import type { Clock } from '../clock.ts';
import type { Faults } from '../mutants.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import type { OperatorKeys } from './keys.ts';
import type { Policy } from './policy.ts';
import type { OperatorState } from './state.ts';
import { verifyAllowingSmallOrderR, verifyCofactored, verifyPrimeOrder, verifyReducingR, verifyReducingS } from './lax-verifiers.ts';

export interface OperatorContext {
  readonly clock: Clock;
  readonly policy: Policy;
  readonly keys: OperatorKeys;
  readonly state: OperatorState;
  /** The fault switched on, if any (reference/mutants.ts); NO_FAULTS for the correct Operator. */
  readonly faults: Faults;
  /** A new pack id for this Lock Request (random unless the Operator was given an id seed). */
  readonly newPackId: (lock: LockRequest) => string;
}

/** An endpoint: path parameters come from the router's pattern. */
export type Endpoint = (ctx: OperatorContext, request: RefRequest, params: readonly string[]) => RefResponse;

/** Errors are values with stable codes (PROFILE.md §11). */
export type Attempt<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem };

export function success<T>(value: T): Attempt<T> {
  return { ok: true, value };
}

export function failure(code: ProblemCode, detail: string): { readonly ok: false; readonly problem: Problem } {
  return { ok: false, problem: problem(code, detail) };
}

/** PROFILE.md §6: `created_at` lies within request_window_seconds of the clock, before or after. */
export function isFresh(ctx: OperatorContext, createdAt: string, nowMs: number): boolean {
  if (ctx.faults.has('op-freshness-unchecked')) return true; // mutant: no freshness check
  // Mutant op-created-at-fraction-accepted: read with the CPR rule, a fraction of a second allowed.
  const created = parseTimestamp(createdAt, ctx.faults.has('op-created-at-fraction-accepted') ? 'cpr' : 'cashpack');
  return created !== undefined && Math.abs(created - nowMs) <= ctx.policy.request_window_seconds * 1000;
}

/** The ids a signed message carries (PROFILE.md §6: one namespace for all three). */
type MessageId = 'request_id' | 'renewal_id' | 'redemption_id';

/** PROFILE.md §5 "seen before → DUPLICATE_ID; otherwise recorded": true when `id` is a replay. */
export function isReplay(ctx: OperatorContext, kind: MessageId, id: string, nowMs: number, createdAt: string): boolean {
  if (ctx.faults.has('op-replay-unchecked')) return false; // mutant: ids never recorded
  // Mutant op-replay-window-from-created-at: the id recorded at the message's created_at, so one dated a window back is forgotten a window early.
  if (ctx.faults.has('op-replay-window-from-created-at')) return ctx.state.replay.seenBefore(id, parseTimestamp(createdAt, 'cashpack') ?? nowMs);
  if (ctx.faults.has('op-replay-namespaces-split')) return ctx.state.replay.seenBefore(`${kind}:${id}`, nowMs); // mutant: one namespace per kind
  return ctx.state.replay.seenBefore(id, nowMs);
}

/** A party's signature over its message, by the strict rule under the message's own domain tag (PROFILE.md §2.2, §2.3). */
export function verifies(ctx: OperatorContext, type: MessageType, message: Readonly<Record<string, unknown>>, publicKey: Uint8Array): boolean {
  if (ctx.faults.has('op-signatures-unverified')) return true; // mutant: signatures never checked
  if (ctx.faults.has('op-domain-tag-ignored')) {
    // mutant: a signature made under any message type's tag is accepted
    return (Object.keys(SIGNING_TAGS) as MessageType[]).some((tag) => verifyObject(tag, message, publicKey));
  }
  if (ctx.faults.has('op-small-order-r-accepted')) return verifyObject(type, message, publicKey, verifyAllowingSmallOrderR);
  if (ctx.faults.has('op-non-canonical-r-accepted')) return verifyObject(type, message, publicKey, verifyReducingR);
  // Mutant op-lock-request-cofactored-verify: Lock Requests checked with the cofactored equation.
  // Stryker disable next-line all: only the op-lock-request-cofactored-verify fault takes this path
  if (ctx.faults.has('op-lock-request-cofactored-verify') && type === 'lock-request') return verifyObject(type, message, publicKey, verifyCofactored);
  // Mutant op-renewal-mixed-order-key-refused: a Renewal Entry's key and R held to the prime-order subgroup.
  // Stryker disable next-line all: only the op-renewal-mixed-order-key-refused fault takes this path
  if (ctx.faults.has('op-renewal-mixed-order-key-refused') && type === 'renewal-entry') return verifyObject(type, message, publicKey, verifyPrimeOrder);
  // Mutant op-redemption-s-unreduced: Redemption Requests go through a library that reduces S modulo L.
  if (ctx.faults.has('op-redemption-s-unreduced') && type === 'redemption-request') return verifyObject(type, message, publicKey, verifyReducingS);
  // Mutant op-signing-tag-follows-profile: a message signed under a tag named after the profile identifier (PROFILE_ID/<type>) is taken too.
  // Stryker disable next-line all: only the op-signing-tag-follows-profile fault takes this path
  if (ctx.faults.has('op-signing-tag-follows-profile') && verifiesUnderProfileTag(type, message, publicKey)) return true;
  return verifyObject(type, message, publicKey);
}

/**
 * The op-signing-tag-follows-profile fault: the signing input of PROFILE.md
 * §2.2 under a tag named after the profile identifier, as if the tags moved
 * with the profile (they keep CPP-PROFILE-1.0).
 */
// Stryker disable all: only the op-signing-tag-follows-profile fault calls this function
function verifiesUnderProfileTag(type: MessageType, message: Readonly<Record<string, unknown>>, publicKey: Uint8Array): boolean {
  const { signature, ...unsigned } = message;
  const raw = decodeB64urlFixed(signature, 64);
  return raw !== undefined && verifyStrict(publicKey, new TextEncoder().encode(`${PROFILE_ID}/${type}\n${canonicalJson(unsigned)}`), raw);
}
// Stryker restore all

/**
 * An identified party's HTTP Message Signature (PROFILE.md §2.4), in exactly the
 * profile's form. The mutants op-http-signature-any-components,
 * op-http-signature-any-parameters, op-content-digest-unchecked and
 * op-signature-label-any verify as a looser RFC 9421 implementation would.
 */
export function verifyCaller(ctx: OperatorContext, request: RefRequest, lookupKey: (kid: string) => Uint8Array | undefined, nowMs: number): SignatureCheck {
  // Mutant op-authority-from-forwarded-host: @authority taken from X-Forwarded-Host when the client sends one.
  const forwarded = ctx.faults.has('op-authority-from-forwarded-host') && typeof request.headers['x-forwarded-host'] === 'string' ? request.headers['x-forwarded-host'] : undefined;
  // Mutant op-authority-from-host-header: @authority taken from the Host header as sent, whatever it names.
  const host = ctx.faults.has('op-authority-from-host-header') && typeof request.headers['host'] === 'string' ? request.headers['host'] : undefined;
  const query = request.query.toString();
  // Mutant op-signature-path-with-query: @path written with the query, as the request line has it.
  const path = ctx.faults.has('op-signature-path-with-query') && query !== '' ? `${request.path}?${query}` : request.path;
  const target = { method: request.method, authority: forwarded ?? host ?? request.authority, path, query, body: request.body };
  const wholeSecond = Math.floor(nowMs / 1000);
  // Mutant op-signature-clock-int32: the clock's Unix second truncated with `| 0`, a signed 32-bit integer (negative past 2038-01-19T03:14:07Z).
  // Stryker disable next-line all: only the op-signature-clock-int32 fault truncates the clock to 32 bits
  const clockSecond = ctx.faults.has('op-signature-clock-int32') ? (nowMs / 1000) | 0 : wholeSecond;
  // Mutant op-signature-created-clock-rounded: the clock read to the nearest second, not its own second, before `created` is compared with it.
  // Stryker disable next-line all: only the op-signature-created-clock-rounded fault rounds the clock
  const nowSeconds = ctx.faults.has('op-signature-created-clock-rounded') ? Math.round(nowMs / 1000) : clockSecond;
  const options = { headers: request.headers, lookupKey, nowSeconds, windowSeconds: ctx.policy.request_window_seconds };
  if (ctx.faults.has('op-http-signature-any-components')) return verifyRequestLoosely(target, options, 'any-components');
  if (ctx.faults.has('op-http-signature-any-parameters')) return verifyRequestLoosely(target, options, 'any-parameters');
  if (ctx.faults.has('op-content-digest-unchecked')) return verifyRequestLoosely(target, options, 'digest-unchecked');
  // Mutant op-signature-label-any: the one signature a request carries read under whatever label it has, not only `cpp`.
  // Stryker disable next-line all: only the op-signature-label-any fault reads other labels
  if (ctx.faults.has('op-signature-label-any')) return verifyRequestLoosely(target, options, 'any-label');
  // Mutant op-http-signature-verdict-cached: a Signature header that verified once is taken again, by its value, while its created is in the window and its key registered.
  // Stryker disable next-line all: only the op-http-signature-verdict-cached fault keeps verdicts
  if (ctx.faults.has('op-http-signature-verdict-cached')) return cachedVerdict(ctx, request.headers, clockSecond, (kid: string) => lookupKey(kid) !== undefined, () => verifyRequest(target, options));
  // Mutant op-keyid-case-insensitive: the keyid looked up among the registered kids without regard to letter case, and the caller taken to be the kid found.
  // Stryker disable next-line all: only the op-keyid-case-insensitive fault folds the keyid's case
  if (ctx.faults.has('op-keyid-case-insensitive')) return caseFoldedCaller(ctx, target, options);
  return verifyRequest(target, options);
}

// Stryker disable all: only the op-keyid-case-insensitive fault runs this
/** A keyid resolved as an account index with a case-insensitive collation would: to the registered kid it spells in any letter case. */
function caseFoldedCaller(ctx: OperatorContext, target: Parameters<typeof verifyRequest>[0], options: Parameters<typeof verifyRequest>[1]): SignatureCheck {
  const registered = (kid: string) => [...ctx.state.principals.keys(), ...ctx.state.staff.keys(), ...ctx.state.redeemers.keys()].find((known) => known.toLowerCase() === kid.toLowerCase()) ?? kid;
  const checked = verifyRequest(target, { ...options, lookupKey: (kid) => options.lookupKey(registered(kid)) });
  return checked.ok ? { ok: true, kid: registered(checked.kid) } : checked;
}
// Stryker restore all

// Stryker disable all: only the op-http-signature-verdict-cached fault runs this
/** Signatures that verified, by the value of their Signature header, for each Operator (the mutant op-http-signature-verdict-cached). */
const verdicts = new WeakMap<object, Map<string, { readonly kid: string; readonly created: number }>>();

function cachedVerdict(ctx: OperatorContext, headers: unknown, clockSecond: number, registered: (kid: string) => boolean, verify: () => SignatureCheck): SignatureCheck {
  const seen = verdicts.get(ctx) ?? new Map<string, { readonly kid: string; readonly created: number }>();
  verdicts.set(ctx, seen);
  const h = headers as Record<string, unknown>;
  const presented = typeof h.signature === 'string' ? h.signature : undefined;
  const known = presented === undefined ? undefined : seen.get(presented);
  if (known && Math.abs(known.created - clockSecond) <= ctx.policy.request_window_seconds && registered(known.kid)) return { ok: true, kid: known.kid } as SignatureCheck;
  const checked = verify();
  const created = Number(/;created=(\d+)/.exec(String(h['signature-input']))?.[1]);
  if (checked.ok && presented !== undefined && Number.isSafeInteger(created)) seen.set(presented, { kid: checked.kid, created });
  return checked;
}
// Stryker restore all

/** The raw key of a JWK that passed message validation. */
export function keyOf(jwk: OkpJwk): Uint8Array {
  return decodeB64urlFixed(jwk.x, 32)!;
}

/** Spec §5.2: the message was submitted by the holder of current_bearer_pk. */
export function isCurrentBearer(ctx: OperatorContext, pack: CashPack, key: OkpJwk): boolean {
  if (ctx.faults.has('op-previous-bearer-accepted')) return hasHeld(pack, key); // mutant: any key that ever held the pack passes
  // Mutant op-bearer-compared-as-json: the JWKs compared as written, so the bearer's key with its members in another order is another key.
  if (ctx.faults.has('op-bearer-compared-as-json')) return JSON.stringify(key) === JSON.stringify(pack.current_bearer_pk);
  return sameKey(key, pack.current_bearer_pk);
}

// Stryker disable all: only the op-previous-bearer-accepted and op-renew-previous-key-refused faults call this function
/** Whether `key` has held the pack: its initial bearer, or the new bearer of one of its renewals. */
export function hasHeld(pack: CashPack, key: OkpJwk): boolean {
  return [pack.initial_bearer_pk, ...pack.renewal_chain.map((entry) => entry.new_bearer_pk)].some((held) => sameKey(held, key));
}
// Stryker restore all

/** PROFILE.md §2.1: two keys are the same key exactly when their x values are equal. */
export function sameKey(a: OkpJwk, b: OkpJwk): boolean {
  return a.x === b.x;
}

export function deepFreeze<T>(value: T): T {
  // Stryker disable next-line BooleanLiteral,BlockStatement: freezing is a defence: the reference never writes to a message it stored, so an unfrozen one answers alike (and an object frozen already is not walked again)
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
