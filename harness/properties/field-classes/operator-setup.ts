// What the operator properties start from, made once per run of a property
// through test control (PROFILE.md §12): the Operator's policy and clock, a
// Principal with a balance no case exhausts, a redeemer at the highest
// identity level, and a pack renewed once (so its chain has an entry), with
// its current bearer. Cases that only expect a refusal reuse the pack: a
// refused request changes nothing (PROFILE.md §5).
import { isDeepStrictEqual } from 'node:util';
import { buildLockRequest, buildRedemption, buildRenewal, createSigningKey, type CashPack, type LockRequest, type RedemptionRequest, type RenewalEntry, type SigningKey } from '../../../profile/cashpack/index.ts';
import { signRequestAs } from '../../../profile/http-signature.ts';
import { jwkInMemberOrder, type JWK_MEMBERS } from '../../../profile/jwk.ts';
import { balancePath, IDENTITY_LEVELS } from '../../../profile/control.ts';
import type { WireRequest } from '../../adapters/types.ts';
import { adoptClock, changedAtRenewal, keptMembers, policyOf, tightPolicy, type Policy } from '../../scenarios/actions/index.ts';
import { StepError, type HttpResult, type ScenarioContext } from '../../scenarios/context.ts';
import { jsonRequest, send } from '../../scenarios/http.ts';
import { setClock } from './clock.ts';

export interface OperatorSetup {
  readonly policy: Policy;
  readonly principal: SigningKey;
  readonly redeemer: SigningKey;
  /** Renewed once (fresh where max_chain_depth is 0, or where max_body_bytes leaves no room for a message presenting a pack renewed once); its current bearer is `bearer`. */
  readonly pack: CashPack;
  readonly bearer: SigningKey;
  /** The asset `principal` holds and its packs are issued in (setupAsset). */
  readonly asset: Policy['assets'][number];
}

/**
 * The asset a property's Principal holds: the policy's last, where the scenarios issue in its first and
 * PROP-OP-018 draws from all, so that a target of several assets has each judged by a whole catalogue.
 */
const setupAsset = (policy: Policy): Policy['assets'][number] => policy.assets[policy.assets.length - 1]!;

/** A balance no run of cases exhausts. */
const DEEP_BALANCE = `1${'0'.repeat(60)}`;

/** The most one pack of a property may hold: a thousandth of the Principal's balance, so its cases and their shrinking never run it dry, whatever the target's max_amount (up to 78 digits). */
export const MOST_PER_PACK = BigInt(DEEP_BALANCE) / 1000n;

const setups = new WeakMap<ScenarioContext, Promise<OperatorSetup>>();

/** A test-control call that must succeed: its failure is the harness's setup, not the target's conformance. */
export async function control(ctx: ScenarioContext, request: WireRequest): Promise<HttpResult> {
  const answer = await send(ctx, 'operator', request);
  if (answer.status === null || answer.status < 200 || answer.status > 299) {
    throw new StepError('error', `test control ${request.method} ${request.path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  return answer;
}

/** A Principal's balance through test control (PROFILE.md §12). */
export async function balanceOf(ctx: ScenarioContext, key: SigningKey): Promise<Record<string, unknown>> {
  return (await control(ctx, { method: 'GET', path: balancePath('principal', key.jwk.kid) })).body as Record<string, unknown>;
}

/** 200, or the problem code of a refusal (the status when it has none). */
export const answerOf = (r: HttpResult): unknown => (r.status === 200 ? 200 : ((r.body as { code?: unknown } | undefined)?.code ?? r.status));

/** A Principal funded with `balance` of `asset` (by default the policy's first). */
export async function provisionPrincipal(ctx: ScenarioContext, key: SigningKey, balance: string, policy: Policy, asset: Policy['assets'][number] = policy.assets[0]!): Promise<void> {
  await control(ctx, jsonRequest('POST', '/_control/operator/principals', { public_key: key.jwk, asset, balance }));
}

/** The Operator's clock in ms (its own, through test control, when it offers it). */
export async function operatorNow(ctx: ScenarioContext): Promise<number> {
  if (ctx.target.capabilities('operator').has('clock')) {
    const answer = await control(ctx, { method: 'GET', path: '/_control/clock' });
    adoptClock(ctx, answer.body as { now: string; frozen: boolean });
  }
  return ctx.nowSeconds() * 1000;
}

/**
 * The Operator's policy, with the Operator's clock frozen at a whole second
 * when the policy is tight (a property's messages are then dated exactly, as
 * its scenarios are; the property's teardown lets the clock run again). A
 * tight policy without the clock capability skips the property, naming it.
 */
export async function policyOnItsClock(ctx: ScenarioContext): Promise<Policy> {
  const policy = await policyOf(ctx);
  const tight = tightPolicy(policy);
  if (tight === undefined) return policy;
  if (!ctx.target.capabilities('operator').has('clock')) throw new StepError('skipped', `missing test-control capability: clock (the target ${tight}, which the harness hits only with the target's clock frozen)`);
  await setClock(ctx, 'operator', Math.floor((await operatorNow(ctx)) / 1000) * 1000);
  return policy;
}

/** A lifetime the policy permits, an hour when it can (actions/cashpack.ts keeps two seconds from either end). */
export function lifetimeSeconds(policy: Policy): number {
  const { expiry_min_seconds: min, expiry_max_seconds: max } = policy;
  const margin = max - min >= 4 ? 2 : 0;
  return Math.min(Math.max(3600, min + margin), max - margin);
}

/** What a Lock Request of a property may set otherwise than by default (a fresh request_id, one unit, a fresh bearer, the policy's default lifetime). */
/** `datedBack`: created_at that many seconds before `now` (within the freshness window), the expiry still `lifetime` after `now`; `expiresAt`: the requested_expiry itself (epoch ms), in place of `lifetime`. */
type LockOverrides = { request_id?: string; amount?: string; bearer?: SigningKey['jwk']; lifetime?: number; expiresAt?: number; asset?: Policy['assets'][number]; datedBack?: number };

/** A Lock Request by the setup's Principal, in its asset (the policy's first where it names none). */
export function lockRequest(setup: Pick<OperatorSetup, 'principal' | 'policy'> & Partial<Pick<OperatorSetup, 'asset'>>, now: number, overrides: LockOverrides = {}): LockRequest {
  return buildLockRequest({
    principal: setup.principal,
    ...(overrides.request_id !== undefined ? { request_id: overrides.request_id } : {}),
    amount: overrides.amount ?? '1',
    asset: (overrides.asset ?? setup.asset ?? setup.policy.assets[0]) as Parameters<typeof buildLockRequest>[0]['asset'],
    initialBearer: overrides.bearer ?? createSigningKey().jwk,
    requested_expiry: overrides.expiresAt ?? now + (overrides.lifetime ?? lifetimeSeconds(setup.policy)) * 1000,
    created_at: now - (overrides.datedBack ?? 0) * 1000,
  });
}

export { JWK_MEMBERS } from '../../../profile/jwk.ts';

/** The same key, its JWK's members written in `order` (JSON objects are unordered: the same key, PROFILE.md §2.1). */
export function inMemberOrder(key: SigningKey, order: readonly (typeof JWK_MEMBERS)[number][]): SigningKey {
  return { ...key, jwk: jwkInMemberOrder(key.jwk, order) };
}

export const renewal = (pack: CashPack, bearer: SigningKey, now: number, next: SigningKey = createSigningKey(), renewal_id?: string): RenewalEntry =>
  buildRenewal({ bearer, pack, new_bearer: next.jwk, created_at: now, ...(renewal_id !== undefined ? { renewal_id } : {}) });

export const redemption = (pack: CashPack, bearer: SigningKey, redeemer: SigningKey, now: number, redemption_id?: string): RedemptionRequest =>
  buildRedemption({ bearer, pack, redeemer_kid: redeemer.jwk.kid, created_at: now, ...(redemption_id !== undefined ? { redemption_id } : {}) });

/** POST /v1/cashpack/redeem with this body text, identified by the redeemer's HTTP Message Signature (PROFILE.md §2.4), labelled `label` when one is given. */
export function redeemRequest(ctx: ScenarioContext, text: string, redeemer: SigningKey, nowSeconds: number, headers: Record<string, string> = {}, label?: string): WireRequest {
  const body = new TextEncoder().encode(text);
  const signature = signRequestAs({ method: 'POST', authority: ctx.http('operator').authority, path: '/v1/cashpack/redeem', body }, { secretKey: redeemer.secretKey, kid: redeemer.jwk.kid }, nowSeconds, label === undefined ? 'profile' : 'other-label', label);
  return { method: 'POST', path: '/v1/cashpack/redeem', headers: { 'content-type': 'application/json', ...signature, ...headers }, body: text };
}

/** A status read of `packId`, its HTTP Message Signature by `signer` created at `createdSeconds` (PROFILE.md §2.4). */
export function statusRequest(ctx: ScenarioContext, packId: string, signer: SigningKey, createdSeconds: number): WireRequest & { readonly headers: Record<string, string> } {
  const path = `/v1/cashpack/${packId}/status`;
  return { method: 'GET', path, headers: { ...signRequestAs({ method: 'GET', authority: ctx.http('operator').authority, path }, { secretKey: signer.secretKey, kid: signer.jwk.kid }, createdSeconds, 'profile') } };
}

/** Issues a pack to `bearer` and returns it, or throws when the Operator will not (its own tests judge issue). */
export async function issuePack(ctx: ScenarioContext, setup: Pick<OperatorSetup, 'principal' | 'policy'> & Partial<Pick<OperatorSetup, 'asset'>>, bearer: SigningKey, now: number, options: Omit<LockOverrides, 'bearer'> = {}): Promise<CashPack> {
  const answer = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lockRequest(setup, now, { ...options, bearer: bearer.jwk })));
  if (answer.status !== 200) throw StepError.setupFailed('CPP-ISS-1', `setting up: the Operator did not issue a pack (HTTP ${answer.status}: ${answer.text.slice(0, 200)}); its own scenarios judge issue`);
  return answer.body as CashPack;
}

/** The parties of a property's setup: its Principal, funded beyond what any run of cases spends, in setupAsset, and a redeemer at the highest identity level. */
export type OperatorParties = Pick<OperatorSetup, 'policy' | 'principal' | 'redeemer' | 'asset'>;

async function makeParties(ctx: ScenarioContext): Promise<OperatorParties> {
  const policy = await policyOf(ctx);
  const [principal, redeemer] = [createSigningKey(), createSigningKey()];
  const asset = setupAsset(policy);
  await provisionPrincipal(ctx, principal, DEEP_BALANCE, policy, asset);
  await control(ctx, jsonRequest('POST', '/_control/operator/redeemers', { public_key: redeemer.jwk, identity_level: IDENTITY_LEVELS.max }));
  return { policy, principal, redeemer, asset };
}

async function makeSetup(ctx: ScenarioContext): Promise<OperatorSetup> {
  const { policy, principal, redeemer, asset } = await makeParties(ctx);
  const [bearer, next] = [createSigningKey(), createSigningKey()];
  let now = await operatorNow(ctx);
  // A policy that leaves less room than a running clock allows is met on a frozen one, as its scenarios are (the property's teardown lets it run again).
  const tight = tightPolicy(policy);
  if (tight !== undefined) {
    if (!ctx.target.capabilities('operator').has('clock')) throw new StepError('skipped', `missing test-control capability: clock (the target ${tight}, which the harness hits only with the target's clock frozen)`);
    now = Math.floor(now / 1000) * 1000;
    await setClock(ctx, 'operator', now);
  }
  const issued = await issuePack(ctx, { principal, policy, asset }, bearer, now);
  if (policy.max_chain_depth === 0) return { policy, principal, redeemer, pack: issued, bearer, asset };
  const renewed = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: issued, renewal: renewal(issued, bearer, now, next) }));
  if (renewed.status !== 200) throw StepError.setupFailed('CPP-RNW-1', `setting up: the Operator did not renew a pack (HTTP ${renewed.status}: ${renewed.text.slice(0, 200)}); its own scenarios judge renew`);
  const pack = renewedPack(renewed, next, 'setting up: a renewal', issued);
  // A body limit that leaves no room for a renewal or a redemption of a pack renewed once (a small max_body_bytes, PROFILE.md §4.8):
  // the cases present a fresh pack instead, whose messages the limit still takes, and the property's result says so.
  const largest = Math.max(...[{ cash_pack: pack, renewal: renewal(pack, next, now) }, { cash_pack: pack, redemption: redemption(pack, next, redeemer, now) }].map((m) => Buffer.byteLength(JSON.stringify(m))));
  if (largest <= policy.max_body_bytes) return { policy, principal, redeemer, pack, bearer: next, asset };
  ctx.leftOut.add(`a pack with a renewal in its chain, as a ${largest}-byte message presenting one is over max_body_bytes (${policy.max_body_bytes}): the cases present a fresh pack`);
  const fresh = createSigningKey();
  return { policy, principal, redeemer, pack: await issuePack(ctx, { principal, policy, asset }, fresh, now), bearer: fresh, asset };
}

/**
 * The pack a granted renewal of `presented` returned, which names `next` as its
 * bearer and keeps the members of the pack it renewed (amount, asset, expiry,
 * initial bearer, issued_at: actions/cashpack.ts changedAtRenewal); one that
 * does not ends the property as a failed setup of the member's rule
 * (HARNESS_SETUP_FAILED), never as a failure of what it judges with the pack
 * afterwards, as a scenario's renewal does (scenarios/execute.ts guardFinding).
 */
export function renewedPack(answer: HttpResult, next: SigningKey, what: string, presented: CashPack): CashPack {
  const pack = answer.body as CashPack;
  if (!isDeepStrictEqual(pack?.current_bearer_pk, next.jwk)) {
    throw StepError.setupFailed('CPP-RNW-1', `${what} was granted, but the pack names ${JSON.stringify(pack?.current_bearer_pk ?? null)} as its bearer, not the new bearer ${JSON.stringify(next.jwk)}: what follows as that bearer would judge nothing`);
  }
  const changed = changedAtRenewal(keptMembers(presented), pack);
  if (changed !== undefined) {
    throw StepError.setupFailed(changed.requirement, `${what} was granted, but the pack's ${changed.member} is ${JSON.stringify(changed.actual ?? null)} where the pack it renewed had ${JSON.stringify(changed.expected ?? null)} (PROFILE.md §4.3, §5 renew step 11: a renewal keeps it): what follows with the pack would judge another one`);
  }
  return pack;
}

/** The setup of this run of the property, made on first use. */
export function operatorSetup(ctx: ScenarioContext): Promise<OperatorSetup> {
  return once(setups, ctx, makeSetup);
}

const parties = new WeakMap<ScenarioContext, Promise<OperatorParties>>();

/** The setup's parties alone (no pack issued or renewed), for a property that makes its own packs; made on first use. */
export function operatorParties(ctx: ScenarioContext): Promise<OperatorParties> {
  return once(parties, ctx, makeParties);
}

function once<T>(made: WeakMap<ScenarioContext, Promise<T>>, ctx: ScenarioContext, make: (ctx: ScenarioContext) => Promise<T>): Promise<T> {
  let value = made.get(ctx);
  if (!value) {
    value = make(ctx);
    made.set(ctx, value);
  }
  return value;
}
