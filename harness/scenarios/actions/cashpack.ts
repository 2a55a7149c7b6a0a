// The cash-pack messages issue, renew and redeem steps build, sign and send, with
// fresh ids unless given, inside the Operator's policy unless told to go beyond it.
import { isDeepStrictEqual } from 'node:util';
import { isAmount } from '../../../profile/amount.ts';
import { parseTimestamp } from '../../../profile/time.ts';
import { balancePath } from '../../../profile/control.ts';
import { buildLockRequest, buildRedemption, buildRenewal, type CashPack, type SigningKey } from '../../../profile/cashpack/index.ts';
import { jwkInMemberOrder } from '../../../profile/jwk.ts';
import type { WireRequest } from '../../adapters/types.ts';
import { StepError, type ScenarioContext } from '../context.ts';
import { jsonRequest, send } from '../http.ts';
import type { Params } from '../params.ts';
import { policyOf } from './policy.ts';
import { httpSignature } from './requests.ts';

interface Prepared {
  readonly request: WireRequest;
  /** The cash-pack message the request carries. */
  readonly sent: unknown;
  /** The pack a renewal presents. */
  readonly pack?: unknown;
}

/** Builds (and signs) the request an issue, renew or redeem step sends, with fresh ids unless given. */
export function prepareCashpack(ctx: ScenarioContext, p: Params): Prepared | Promise<Prepared> {
  switch (p.choice('do', ['issue', 'renew', 'redeem'] as const)) {
    case 'issue':
      return lockRequest(ctx, p).then((message) => ({ request: jsonRequest('POST', '/v1/cashpack/issue', message), sent: message }));
    case 'renew':
      return renewalEntry(ctx, p).then((renewal) => ({ request: jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: p.value('pack'), renewal }), sent: renewal, pack: p.value('pack') }));
    case 'redeem': {
      const redemption = redemptionRequest(ctx, p);
      const body = JSON.stringify({ cash_pack: p.value('pack'), redemption });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const identify = p.value('identify_as') === false ? undefined : (p.key('identify_as', 'optional') ?? p.key('redeemer'));
      if (identify !== undefined) Object.assign(headers, httpSignature(ctx, 'operator', 'POST', '/v1/cashpack/redeem', body, identify, p));
      return { request: { method: 'POST', path: '/v1/cashpack/redeem', headers, body }, sent: redemption };
    }
    default:
      throw new StepError('error', `parallel "of" builds issue, renew or redeem steps, not ${String(p.value('do'))}`, 'SCENARIO_INVALID');
  }
}

/** One request of a parallel step's `steps`: an issue, renew or redeem (built and signed as their own steps build them), a status read or a cancellation. */
export function prepareOperatorRequest(ctx: ScenarioContext, p: Params): Prepared | Promise<Prepared> {
  const kind = p.oneOf('do', ['issue', 'renew', 'redeem', 'status', 'cancel'] as const);
  if (kind === 'status') {
    const path = `/v1/cashpack/${encodeURIComponent(p.text('pack_id'))}/status`;
    const headers = p.value('sign_as') === false ? {} : httpSignature(ctx, 'operator', 'GET', path, undefined, p.key('sign_as'), p);
    return { request: { method: 'GET', path, headers }, sent: undefined };
  }
  if (kind === 'cancel') return { request: jsonRequest('POST', `/_control/operator/packs/${encodeURIComponent(p.text('pack_id'))}/cancel`, {}), sent: undefined };
  return prepareCashpack(ctx, p);
}

export async function sendPrepared(ctx: ScenarioContext, prepared: Prepared | Promise<Prepared>): Promise<unknown> {
  const built = await prepared;
  await fitsBodyLimit(ctx, built);
  const { request, sent } = built;
  const answer = await send(ctx, 'operator', request);
  return { ...answer, sent };
}

const RENEW_PATH = '/v1/cashpack/renew';

/**
 * What every renewal answered 200 shows, whatever the scenario tests: the pack
 * names the new bearer in current_bearer_pk (CPP-RNW-1).
 */
export const HANDOVER_REQUIREMENT = 'CPP-RNW-1';

/**
 * Whether a step (its action and parameters, as written or rendered) sends
 * renewals: a renew step, a parallel step of renewals (`of`, `steps`), or an
 * http or parallel step POSTing JSON to the renew endpoint.
 */
export function sendsRenewals(action: string, params: Readonly<Record<string, unknown>>): boolean {
  const does = (x: unknown) => (x as { do?: unknown } | undefined)?.do === 'renew';
  if (action === 'renew') return true;
  if (action === 'parallel' && (does(params.of) || (Array.isArray(params.steps) && params.steps.some(does)))) return true;
  return (action === 'http' || action === 'parallel') && params.method === 'POST' && params.path === RENEW_PATH && params.json !== undefined;
}

/**
 * The first renewal of a step's result that was answered 200 with a JSON object
 * (grantedRenewals) not naming the new bearer it gave, as what was expected and
 * what came; none when every such renewal handed over. Any other answer is
 * judged by the step's own checks.
 */
export function failedHandover(action: string, params: Readonly<Record<string, unknown>>, result: unknown): { readonly expected: unknown; readonly actual: unknown } | undefined {
  for (const { body, newBearer } of grantedRenewals(action, params, result)) {
    const actual = (body as { current_bearer_pk?: unknown }).current_bearer_pk;
    if (!isDeepStrictEqual(actual, newBearer)) return { expected: newBearer, actual };
  }
  return undefined;
}

/**
 * What a renewal keeps of the pack it renews (PROFILE.md §4.3, §5 renew step
 * 11: the chain grows, its digest rolls, the bearer changes and the Operator
 * signs again, under the key operator_kid then names; nothing else), with the
 * rule each member is charged to:
 * issued_at is the Operator's clock when it issued the pack (§4.3), the rest
 * the renewal's. Instants are compared as instants and the initial bearer by
 * its key, so that a member written another legal way is judged by the rules of
 * its form, not here.
 */
const KEPT_AT_RENEWAL = [
  ['amount', HANDOVER_REQUIREMENT],
  ['asset', HANDOVER_REQUIREMENT],
  ['expiry', HANDOVER_REQUIREMENT],
  ['initial_bearer_pk', HANDOVER_REQUIREMENT],
  ['issued_at', 'PRF-MSG-1'],
] as const;

/** The requirements a renewal's kept members are charged to (KEPT_AT_RENEWAL). */
export const KEPT_REQUIREMENTS: readonly string[] = [...new Set(KEPT_AT_RENEWAL.map(([, requirement]) => requirement))];

export type KeptMembers = Readonly<Record<(typeof KEPT_AT_RENEWAL)[number][0], unknown>>;

/** A pack's members a renewal keeps, as they are compared (KEPT_AT_RENEWAL). */
export function keptMembers(pack: unknown): KeptMembers {
  const p = (pack ?? {}) as { amount?: unknown; asset?: unknown; expiry?: unknown; initial_bearer_pk?: { x?: unknown }; issued_at?: unknown };
  const instant = (value: unknown) => parseTimestamp(value) ?? value;
  return { amount: p.amount, asset: p.asset, expiry: instant(p.expiry), initial_bearer_pk: p.initial_bearer_pk?.x, issued_at: instant(p.issued_at) };
}

/** The first member a renewed pack changed from `kept` (the pack as issued), with its rule; none when it kept them all. */
export function changedAtRenewal(kept: KeptMembers, renewed: unknown): { readonly member: string; readonly requirement: string; readonly expected: unknown; readonly actual: unknown } | undefined {
  const now = keptMembers(renewed);
  for (const [member, requirement] of KEPT_AT_RENEWAL) {
    if (!isDeepStrictEqual(now[member], kept[member])) return { member, requirement, expected: kept[member], actual: now[member] };
  }
  return undefined;
}

/**
 * The first renewal of a step's result answered 200 whose pack changed a
 * member it keeps from the pack as the Operator issued it (noted by
 * notePackDepths from its issue); none when each kept them, or the pack's
 * issue was not seen.
 */
export function renewalChanged(ctx: ScenarioContext, action: string, params: Readonly<Record<string, unknown>>, result: unknown): ReturnType<typeof changedAtRenewal> {
  for (const { body } of grantedRenewals(action, params, result)) {
    const id = (body as { pack_id?: unknown }).pack_id;
    const issued = typeof id === 'string' ? ctx.packIssued.get(id) : undefined;
    const changed = issued && changedAtRenewal(issued, body);
    if (changed) return changed;
  }
  return undefined;
}

/**
 * The renewals of a step answered 200 with a JSON object, each with the new
 * bearer it gave. A renew step's result is `{ status, body, sent }`, a parallel
 * step's `{ responses, sent }` (`sent` per request: a renewal's names its new
 * bearer, whatever else the step sent beside it); a renewal sent as raw JSON
 * (http, parallel `copies`) names its new bearer in the rendered `json.renewal`.
 */
function grantedRenewals(action: string, params: Readonly<Record<string, unknown>>, result: unknown): { readonly body: object; readonly newBearer: unknown }[] {
  if (!sendsRenewals(action, params)) return [];
  const r = result as { status?: unknown; body?: unknown; sent?: unknown; responses?: unknown } | undefined;
  const written = (params.json as { renewal?: { new_bearer_pk?: unknown } } | undefined)?.renewal;
  const answers: unknown[] = Array.isArray(r?.responses) ? r.responses : [r];
  const sent: unknown[] = Array.isArray(r?.sent) ? r.sent : [r?.sent];
  return answers.flatMap((answer, i) => {
    const newBearer = ((sent[i] ?? written) as { new_bearer_pk?: unknown } | undefined)?.new_bearer_pk;
    const { status, body } = (answer ?? {}) as { status?: unknown; body?: unknown };
    return newBearer === undefined || status !== 200 || typeof body !== 'object' || body === null || Array.isArray(body) ? [] : [{ body, newBearer }];
  });
}

/**
 * The requirement whose grant the answer to each single operation shows, whatever
 * the scenario tests: PROFILE.md §5 grants a Lock Request, a renewal and a
 * redemption with 200 and the pack (or the confirmation).
 */
export const GRANT_REQUIREMENTS: Readonly<Record<string, string>> = { issue: 'CPP-ISS-1', renew: 'CPP-RNW-1', redeem: 'CPP-RED-1' };

/** The endpoint of each operation (PROFILE.md §5), by which an http or parallel step names it. */
const GRANT_PATHS: Readonly<Record<string, string>> = { '/v1/cashpack/issue': 'issue', '/v1/cashpack/renew': 'renew', '/v1/cashpack/redeem': 'redeem' };

/**
 * The operation a step sends (issue, renew or redeem), by its action or, for an
 * http or parallel step, by the endpoint it POSTs to; undefined for any other step.
 */
export function grantedOperation(action: string, params: Readonly<Record<string, unknown>>): string | undefined {
  if (Object.hasOwn(GRANT_REQUIREMENTS, action)) return action;
  const does = (x: unknown) => (x as { do?: unknown } | undefined)?.do;
  if (action === 'parallel') {
    const ofDo = does(params.of);
    if (typeof ofDo === 'string' && Object.hasOwn(GRANT_REQUIREMENTS, ofDo)) return ofDo;
    const kinds = Array.isArray(params.steps) ? [...new Set(params.steps.map(does))] : [];
    if (kinds.length === 1 && typeof kinds[0] === 'string' && Object.hasOwn(GRANT_REQUIREMENTS, kinds[0])) return kinds[0];
  }
  if ((action === 'http' || action === 'parallel') && params.method === 'POST' && typeof params.path === 'string' && Object.hasOwn(GRANT_PATHS, params.path)) return GRANT_PATHS[params.path];
  return undefined;
}

/**
 * The first answer of a step's operation (grantedOperation) that granted it
 * with another success status than 200 (201 Created, 202 Accepted, 204): what
 * was expected and what came; none when every grant answered 200, whatever
 * else was answered (the step's own checks judge refusals). A single step's
 * result is `{ status, body }`, a parallel step's `{ responses }`.
 */
export function grantedOtherwise(action: string, params: Readonly<Record<string, unknown>>, result: unknown): { readonly operation: string; readonly expected: number; readonly actual: number } | undefined {
  const operation = grantedOperation(action, params);
  if (operation === undefined) return undefined;
  const r = result as { status?: unknown; responses?: unknown } | undefined;
  const answers: unknown[] = Array.isArray(r?.responses) ? r.responses : [r];
  for (const answer of answers) {
    const status = (answer as { status?: unknown } | undefined)?.status;
    if (typeof status === 'number' && status >= 200 && status < 300 && status !== 200) return { operation, expected: 200, actual: status };
  }
  return undefined;
}

/** One renewal or redemption a step sent: the pack it presented, the message (Renewal Entry or Redemption Request) and the answer. */
interface SentOperation {
  readonly operation: string;
  readonly pack: unknown;
  readonly message: unknown;
  readonly answer: unknown;
}

/**
 * Every issue, renewal or redemption a step sent, with what it presented and
 * what came back: a renew or redeem step's one, each request of a parallel step
 * (`of`, `steps`, or `copies` of an http request) and an http step POSTing JSON
 * to an operation's endpoint (its `json` names the pack and the message).
 */
function sentOperations(action: string, params: Readonly<Record<string, unknown>>, result: unknown): SentOperation[] {
  const r = result as { responses?: unknown; sent?: unknown } | undefined;
  if (action === 'renew' || action === 'redeem') return [{ operation: action, pack: params.pack, message: r?.sent, answer: result }];
  const http = (answer: unknown): SentOperation[] => {
    const operation = params.method === 'POST' && typeof params.path === 'string' && Object.hasOwn(GRANT_PATHS, params.path) ? GRANT_PATHS[params.path]! : undefined;
    const json = params.json as { cash_pack?: unknown; renewal?: unknown; redemption?: unknown } | undefined;
    if (operation === undefined || typeof json !== 'object' || json === null) return [];
    return [{ operation, pack: json.cash_pack, message: operation === 'renew' ? json.renewal : json.redemption, answer }];
  };
  if (action === 'http') return http(result);
  if (action !== 'parallel' || !Array.isArray(r?.responses)) return [];
  const sent: unknown[] = Array.isArray(r.sent) ? r.sent : [];
  const of = params.of as { do?: unknown; pack?: unknown } | undefined;
  const steps = Array.isArray(params.steps) ? (params.steps as ({ do?: unknown; pack?: unknown } | undefined)[]) : undefined;
  return r.responses.flatMap((answer, i) => {
    const step = steps ? steps[i] : of;
    if (step === undefined) return http(answer);
    return typeof step?.do === 'string' ? [{ operation: step.do, pack: step.pack, message: sent[i], answer }] : [];
  });
}

/**
 * A renewal or redemption of a step answered 403 BEARER_MISMATCH although its
 * message names, as bearer_pk, the key the presented pack names as its current
 * bearer (the same x, PROFILE.md §2.1), the pack is the latest version of it
 * this scenario has seen answered, and no other request of the step on that
 * pack was granted (a refused request changes nothing, PROFILE.md §5, so each
 * met the pack as presented): the Operator refused the pack's own bearer, a
 * fault of the operation (CPP-RNW-1, CPP-RED-1), not of the rule the scenario
 * tests with it. Undefined for any other step or answer (an older version of a
 * pack presented after a renewal, or a race's loser after the winner's
 * renewal, is rightly refused this way).
 */
export function bearerRefused(ctx: ScenarioContext, action: string, params: Readonly<Record<string, unknown>>, result: unknown): { readonly operation: string; readonly bearer: unknown } | undefined {
  const sent = sentOperations(action, params, result);
  const packIdOf = (pack: unknown) => (pack as { pack_id?: unknown } | undefined)?.pack_id;
  const granted = new Set(sent.filter((s) => (s.answer as { status?: unknown } | undefined)?.status === 200).map((s) => packIdOf(s.pack)));
  for (const { operation, pack: presented, message, answer } of sent) {
    if (operation !== 'renew' && operation !== 'redeem') continue;
    const a = answer as { status?: unknown; body?: { code?: unknown } } | undefined;
    if (a?.status !== 403 || a.body?.code !== 'BEARER_MISMATCH') continue;
    const pack = presented as { pack_id?: unknown; current_bearer_pk?: { x?: unknown }; renewal_chain?: unknown } | undefined;
    const x = (message as { bearer_pk?: { x?: unknown } } | undefined)?.bearer_pk?.x;
    if (typeof x !== 'string' || x !== pack?.current_bearer_pk?.x || typeof pack.pack_id !== 'string' || !Array.isArray(pack.renewal_chain)) continue;
    if (pack.renewal_chain.length < (ctx.packDepths.get(pack.pack_id) ?? 0) || granted.has(pack.pack_id)) continue;
    return { operation, bearer: pack.current_bearer_pk };
  }
  return undefined;
}

/** How near a refusal and the balance read after it a pack's expiry must not fall for the read to say what the refusal met. */
const EXPIRY_MARGIN_MS = 2000;

/** The rule a Lock Request refused for want of funds its Principal has breaks (PROFILE.md §5 issue step 9: equal is allowed). */
export const BALANCE_REQUIREMENT = 'CPP-BAL-1';

/**
 * An issue step answered 422 INSUFFICIENT_BALANCE although the Principal's
 * balance, read through test control right after it, holds at least the amount
 * in the asset asked for: the Operator refused funds it has (CPP-BAL-1), a
 * fault of the balance rule, not of the rule the scenario tests with the pack
 * it wanted. Judged where the target offers the balance capability, with its
 * clock frozen or with no pack the scenario was granted expiring within
 * EXPIRY_MARGIN_MS of the refusal and the read (only an expiry brings funds
 * back to a Principal); undefined otherwise, or for any other answer.
 */
export async function balanceRefused(ctx: ScenarioContext, action: string, params: Readonly<Record<string, unknown>>, result: unknown): Promise<{ readonly amount: string; readonly balance: unknown } | undefined> {
  if (action !== 'issue' || !ctx.target.capabilities('operator').has('balance')) return undefined;
  const r = result as { status?: unknown; body?: { code?: unknown }; sent?: { amount?: unknown; asset?: unknown } } | undefined;
  if (r?.status !== 422 || r.body?.code !== 'INSUFFICIENT_BALANCE' || typeof params.principal !== 'string' || !isAmount(r.sent?.amount)) return undefined;
  const key = ctx.keys.get(params.principal);
  if (key === undefined) return undefined;
  const from = ctx.nowSeconds() * 1000 - EXPIRY_MARGIN_MS;
  const read = await send(ctx, 'operator', { method: 'GET', path: balancePath('principal', key.jwk.kid) });
  const to = ctx.nowSeconds() * 1000 + EXPIRY_MARGIN_MS;
  const balance = read.body as { asset?: unknown; available?: unknown } | undefined;
  if (read.status !== 200 || !isAmount(balance?.available) || !isDeepStrictEqual(balance.asset, r.sent.asset)) return undefined;
  // A running clock: a pack that expired between the refusal and the read would have brought its funds back since.
  if (!ctx.clockFrozen && [...ctx.packExpiries.values()].some((expiry) => expiry >= from && expiry <= to)) return undefined;
  return BigInt(balance.available) >= BigInt(r.sent.amount) ? { amount: r.sent.amount, balance } : undefined;
}

/**
 * Notes the depth and expiry of every pack a step's answers granted (200 with
 * the pack: an issue or a renewal, sent alone, in parallel or as raw JSON), so
 * that the bearer guard knows an older version of it from the latest, and the
 * balance guard whether funds could have come back between two requests; and
 * the members a renewal keeps of each pack as issued.
 */
export function notePackDepths(ctx: ScenarioContext, result: unknown): void {
  const r = result as { responses?: unknown } | undefined;
  const answers: unknown[] = Array.isArray(r?.responses) ? r.responses : [result];
  for (const answer of answers) {
    const { status, body } = (answer ?? {}) as { status?: unknown; body?: { pack_id?: unknown; renewal_chain?: unknown; expiry?: unknown } };
    if (status === 200 && typeof body?.pack_id === 'string' && Array.isArray(body.renewal_chain)) {
      ctx.packDepths.set(body.pack_id, Math.max(body.renewal_chain.length, ctx.packDepths.get(body.pack_id) ?? 0));
      // The pack as issued: what every renewal of it keeps (renewalChanged).
      if (body.renewal_chain.length === 0 && !ctx.packIssued.has(body.pack_id)) ctx.packIssued.set(body.pack_id, keptMembers(body));
      const expiry = parseTimestamp(body.expiry);
      if (expiry !== undefined) ctx.packExpiries.set(body.pack_id, expiry);
    }
  }
}

/**
 * A message over the Operator's max_body_bytes: its 413 is right, so what the
 * test meant to exercise with it cannot be exercised on this target. Where the
 * message carries a pack already renewed, the policy's own two limits leave
 * that depth out of reach (not applicable, as max_chain_depth would: a renewal
 * short of it says so). Where it carries none, or a pack never renewed (a Lock
 * Request, the first renewal or a redemption of a fresh pack), the limit
 * leaves no room for the operation at all: nothing of it is exercised here
 * (skipped, so a requirement no other test exercised is not exercised, never
 * passed on nothing).
 */
async function overBodyLimit(ctx: ScenarioContext, request: WireRequest, pack: () => unknown, who: string, limit: number): Promise<void> {
  const size = typeof request.body === 'string' ? Buffer.byteLength(request.body) : (request.body?.length ?? 0);
  if (size <= limit) return;
  const chain = (pack() as { renewal_chain?: unknown } | undefined)?.renewal_chain;
  const sends = `${who} sends a ${size}-byte ${request.path} message, and the target's max_body_bytes is ${limit}`;
  if (!Array.isArray(chain) || chain.length === 0) throw new StepError('skipped', `${sends}: only PAYLOAD_TOO_LARGE answers it, and the message holds no renewed pack, so the limit leaves no room for what it tests`);
  const policy = await policyOf(ctx);
  const depth = chain.length < policy.max_chain_depth ? `: a renewal of a pack ${chain.length} renewal(s) deep no longer fits, so no chain reaches the target's max_chain_depth of ${policy.max_chain_depth}` : `: a pack ${chain.length} renewal(s) deep no longer fits`;
  throw StepError.notApplicable('policy', `${sends}${depth}`);
}

/** A message the harness built for an operation: every issue, renewal and redemption a scenario sends (the limits tests send their oversized bodies with `http`). */
export async function fitsBodyLimit(ctx: ScenarioContext, { request, pack }: Pick<Prepared, 'request' | 'pack'>, who = 'the scenario'): Promise<void> {
  await overBodyLimit(ctx, request, () => pack ?? packIn(request.body), who, (await policyOf(ctx)).max_body_bytes);
}

/** An Operator endpoint whose body the policy's max_body_bytes bounds (PROFILE.md §5 step 1). */
const BOUNDED_PATH = /\/v1\/cashpack\/(issue|renew|redeem)$/;

/**
 * A raw request the scenario writes itself (an `http` step, raw copies sent at
 * once) or a property sends, to the Operator's issue, renew or redeem, over
 * the target's max_body_bytes: judged as a built message is (overBodyLimit),
 * its pack read from its body. A step that expects PAYLOAD_TOO_LARGE or 413 is
 * the limit's own test and goes on; so does one whose Operator publishes no
 * usable policy.
 */
export async function rawBodyFits(ctx: ScenarioContext, request: WireRequest, expectsTooLarge: boolean, who = 'the scenario'): Promise<void> {
  if (expectsTooLarge || request.method !== 'POST' || !BOUNDED_PATH.test(request.path.split('?')[0]!)) return;
  let limit: number;
  try {
    limit = (await policyOf(ctx)).max_body_bytes;
  } catch {
    return;
  }
  await overBodyLimit(ctx, request, () => packIn(request.body), who, limit);
}

/** The cash_pack a request body holds, when it is JSON with one. */
function packIn(body: WireRequest['body']): unknown {
  try {
    return (JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as { cash_pack?: unknown } | null)?.cash_pack;
  } catch {
    return undefined;
  }
}

/**
 * A lifetime inside the Operator's permitted range (PROFILE.md §4.8): an hour
 * when the range allows, kept two seconds clear of either end when it can be,
 * so that a clock read a second apart still lands inside.
 */
function defaultLifetime(policy: { readonly expiry_min_seconds: number; readonly expiry_max_seconds: number }): number {
  const { expiry_min_seconds: min, expiry_max_seconds: max } = policy;
  const margin = max - min >= 4 ? 2 : 0;
  return Math.min(Math.max(3600, min + margin), max - margin);
}

/** A step that sends what the Operator's policy forbids does so only when it says so (`beyond_limit: true`); otherwise the scenario does not apply to this target. */
function withinLimits(what: string, p: Params, exceeds: string | undefined): void {
  if (exceeds !== undefined && p.boolean('beyond_limit') !== true) throw StepError.notApplicable('policy', `the scenario ${what}, but ${exceeds}`);
}

export async function lockRequest(ctx: ScenarioContext, p: Params) {
  const now = ctx.nowSeconds();
  const policy = await policyOf(ctx);
  const amount = p.text('amount');
  withinLimits(`issues ${amount}`, p, isAmount(amount) && isAmount(policy.max_amount) && BigInt(amount) > BigInt(policy.max_amount) ? `the target's max_amount is ${policy.max_amount}` : undefined);
  const expiry = p.text('requested_expiry', 'optional') ?? (now + (p.integer('expiry_in', 'optional') ?? defaultLifetime(policy))) * 1000;
  const requestId = p.text('request_id', 'optional');
  return buildLockRequest({
    principal: ctx.key(p.key('principal')),
    ...(requestId !== undefined ? { request_id: requestId } : {}),
    amount,
    asset: (p.value('asset') ?? policy.assets[0]) as Parameters<typeof buildLockRequest>[0]['asset'],
    initialBearer: ctx.key(p.key('bearer')).jwk,
    requested_expiry: expiry,
    created_at: p.text('created_at', 'optional') ?? now * 1000,
  });
}

export async function renewalEntry(ctx: ScenarioContext, p: Params) {
  const pack = packOf(p.value('pack'));
  const policy = await policyOf(ctx);
  // The Operator judges depth by its stored state (PROFILE.md §5): a pack presented in an earlier version is as deep as the latest seen.
  const depth = Math.max(Array.isArray(pack.renewal_chain) ? pack.renewal_chain.length : 0, ctx.packDepths.get(pack.pack_id) ?? 0);
  withinLimits(`renews a pack ${depth} renewal(s) deep`, p, typeof policy.max_chain_depth === 'number' && depth >= policy.max_chain_depth ? `the target's max_chain_depth is ${policy.max_chain_depth}` : undefined);
  return buildRenewal({
    bearer: presented(ctx.key(p.key('bearer'))),
    pack,
    new_bearer: ctx.key(p.key('new_bearer')).jwk,
    ...optionalText(p, 'renewal_id'),
    ...optionalText(p, 'prev_chain_digest'),
    created_at: p.text('created_at', 'optional') ?? ctx.nowSeconds() * 1000,
  });
}

/**
 * The bearer as a renewal or redemption presents it: its JWK's members in
 * reverse order, as an issue or a renewal never registers it, so every
 * scenario that renews or redeems judges that the Operator knows the bearer
 * by its x, not by how its JWK is written (PROFILE.md §2.1).
 */
function presented(key: SigningKey): SigningKey {
  return { ...key, jwk: jwkInMemberOrder(key.jwk, ['kid', 'x', 'crv', 'kty']) };
}

export function redemptionRequest(ctx: ScenarioContext, p: Params) {
  return buildRedemption({
    bearer: presented(ctx.key(p.key('bearer'))),
    pack: packOf(p.value('pack')),
    redeemer_kid: ctx.key(p.key('redeemer')).jwk.kid,
    ...optionalText(p, 'redemption_id'),
    created_at: p.text('created_at', 'optional') ?? ctx.nowSeconds() * 1000,
  });
}

/** `{ [name]: text }` when the step gives it, else nothing. */
function optionalText<K extends string>(p: Params, name: K): Partial<Record<K, string>> {
  const text = p.text(name, 'optional');
  return text === undefined ? {} : ({ [name]: text } as Record<K, string>);
}

function packOf(value: unknown): CashPack {
  const pack = value as Partial<CashPack> | undefined;
  if (!pack || typeof pack.pack_id !== 'string' || typeof pack.chain_digest !== 'string') {
    throw new StepError('error', 'the value given as a pack is not a cash-pack; check the step that produced it');
  }
  return pack as CashPack;
}
