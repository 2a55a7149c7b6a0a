// What each step `do`es (vocabulary.ts lists them with their parameters). An
// action returns the step's result, which `as:` captures and `expect` checks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeB64urlFixed, encodeB64url, parseTimestamp, signingInput, signObject, signRequestAs, type MessageType, type SignatureLayout } from '../../profile/index.ts';
import { forgeTorsionSignature, type TorsionR } from '../crypto/ed25519-forge.ts';
import { isAmount } from '../../profile/amount.ts';
import { IDENTITY_LEVELS, isIdentityLevel } from '../../profile/control.ts';
import type { Role } from '../../profile/registry.ts';
import { buildLockRequest, buildRedemption, buildRenewal, createSigningKey, operatorKeyOf, type CashPack, type PolicyDocument, type PubkeyDocument } from '../../profile/cashpack/index.ts';
import { TransportError, type WireRequest } from '../adapters/types.ts';
import { StepError, type HttpResult, type ScenarioContext } from './context.ts';
import { jsonRequest, send } from './http.ts';
import type { ActionName } from './vocabulary.ts';

type Params = Readonly<Record<string, unknown>>;
type Action = (ctx: ScenarioContext, p: Params) => Promise<unknown>;

const str = (v: unknown) => (v === undefined ? undefined : String(v));

/** Every action but `repeat`, which the engine runs itself (execute.ts). */
export const ACTION_IMPLEMENTATIONS: Readonly<Record<Exclude<ActionName, 'repeat'>, Action>> = {
  http: (ctx, p) => send(ctx, roleOf(ctx, p), httpRequest(ctx, p)),

  parallel: async (ctx, p) => {
    const role = p.of ? 'operator' : roleOf(ctx, p);
    // Every request is built (and, with `of`, signed with fresh ids) first; then all are released together.
    const builds = await Promise.all(
      Array.from({ length: p.copies as number }, () => (p.of ? prepareCashpack(ctx, p.of as Params) : { request: httpRequest(ctx, p), sent: undefined })),
    );
    if (p.of) for (const b of builds) await fitsBodyLimit(ctx, b.request);
    const responses = await Promise.all(builds.map((b) => send(ctx, role, b.request)));
    return { responses, statuses: responses.map((r) => r.status), sent: builds.map((b) => b.sent) };
  },

  let: async (ctx, p) => {
    // Each value is a name for the following steps, as the loader promises.
    for (const [name, value] of Object.entries(p.values as Record<string, unknown>)) ctx.vars[name] = value;
    return p.values;
  },

  tamper: async (ctx, p) => {
    let value = structuredClone(p.value) as Record<string, unknown>;
    for (const [path, v] of Object.entries((p.set as Record<string, unknown>) ?? {})) setPath(value, path, v);
    for (const path of (p.delete as string[]) ?? []) deletePath(value, path);
    if (p.flip_signature) {
      const sig = decodeB64urlFixed(value.signature, 64);
      if (!sig) throw new StepError('error', 'tamper: flip_signature needs a 64-byte base64url "signature" member');
      sig[0] = sig[0]! ^ 0x01;
      value.signature = encodeB64url(sig);
    }
    if (p.resign) {
      const { type, key, torsion_r } = p.resign as { type: MessageType; key: string; torsion_r?: TorsionR };
      const signer = ctx.key(key);
      value = signObject(type, value, signer.secretKey);
      if (torsion_r !== undefined) value.signature = encodeB64url(forgeTorsionSignature(signer.secretKey, signer.publicKey, signingInput(type, value), torsion_r));
    }
    return value;
  },

  keygen: async (ctx, p) => {
    const out: Record<string, unknown> = {};
    for (const name of p.names as string[]) {
      const key = createSigningKey();
      ctx.keys.set(name, key);
      ctx.vars[name] = key.jwk;
      out[name] = key.jwk;
    }
    return out;
  },

  sign: async (ctx, p) => signObject(p.type as Parameters<typeof signObject>[0], p.object as Record<string, unknown>, ctx.key(p.key as string).secretKey),

  'create-request': (ctx, p) => control(ctx, 'payee', 'POST', '/_control/payee/requests', p.with ?? {}),
  'payee-config': (ctx) => control(ctx, 'payee', 'GET', '/_control/payee/config'),
  fulfil: (ctx, p) => send(ctx, 'payee', jsonRequest('POST', `/_control/payee/requests/${encodeURIComponent(String(p.request_id))}/fulfil`, {})),

  clock: async (ctx, p) => {
    const role = (p.role as Role | undefined) ?? ctx.scenario.role;
    const body: Record<string, unknown> = {};
    if (p.freeze !== undefined) body.freeze = p.freeze;
    if (p.set !== undefined) body.set = p.set;
    if (p.advance !== undefined) body.advance_seconds = Number(p.advance);
    const state = (await control(ctx, role, 'POST', '/_control/clock', body)) as { now: string; frozen: boolean };
    adoptClock(ctx, state);
    if (state.frozen) ctx.clockTouched = role;
    return { now: ctx.nowSeconds(), frozen: state.frozen, text: state.now };
  },

  credential: async (ctx, p) => {
    const key = ctx.target.credential(p.of as 'principal' | 'redeemer' | 'staff');
    if (!key) throw new StepError('skipped', `the target file gives no ${String(p.of)} credential`);
    ctx.keys.set(p.key as string, key);
    ctx.vars[p.key as string] = key.jwk;
    return { kid: key.jwk.kid };
  },

  'provision-principal': async (ctx, p) => {
    const key = ensureKey(ctx, p.key as string);
    const asset = p.asset ?? (await policyOf(ctx)).assets[0];
    return control(ctx, 'operator', 'POST', '/_control/operator/principals', { public_key: key.jwk, asset, balance: String(p.balance) });
  },
  'provision-redeemer': async (ctx, p) => {
    const level = Number(p.identity_level);
    // Levels are 0..3 (PROFILE.md §4.8): a level computed from the policy may fall outside (one below 0, say).
    if (!isIdentityLevel(level)) throw new StepError('not-applicable', `the scenario needs a redeemer at identity level ${String(p.identity_level)}, and levels are ${IDENTITY_LEVELS.min} to ${IDENTITY_LEVELS.max} (the target's policy sets required_identity_level ${String((await policyOf(ctx)).required_identity_level)})`);
    const key = ensureKey(ctx, p.key as string);
    return control(ctx, 'operator', 'POST', '/_control/operator/redeemers', { public_key: key.jwk, identity_level: Number(p.identity_level) });
  },
  'provision-staff': async (ctx, p) => control(ctx, 'operator', 'POST', '/_control/operator/staff', { public_key: ensureKey(ctx, p.key as string).jwk }),
  cancel: (ctx, p) => send(ctx, 'operator', jsonRequest('POST', `/_control/operator/packs/${encodeURIComponent(String(p.pack_id))}/cancel`, {})),
  balance: (ctx, p) => readBalance(ctx, p),

  policy: async (ctx) => ({ policy: await policyOf(ctx), key: encodeB64url(await operatorKey(ctx)) }),

  'lock-request': async (ctx, p) => lockRequest(ctx, p),
  renewal: (ctx, p) => renewalEntry(ctx, p),
  redemption: async (ctx, p) => redemptionRequest(ctx, p),

  issue: (ctx, p) => sendPrepared(ctx, prepareCashpack(ctx, { ...p, do: 'issue' })),
  renew: (ctx, p) => sendPrepared(ctx, prepareCashpack(ctx, { ...p, do: 'renew' })),
  redeem: (ctx, p) => sendPrepared(ctx, prepareCashpack(ctx, { ...p, do: 'redeem' })),
  status: (ctx, p) => {
    const path = `/v1/cashpack/${encodeURIComponent(String(p.pack_id))}/status`;
    const headers = p.sign_as === false ? {} : httpSignature(ctx, 'operator', 'GET', path, undefined, p.sign_as as string, p.signed_at, p.signature);
    return send(ctx, 'operator', { method: 'GET', path, headers });
  },

  'app-read': async (ctx, p) => {
    const input = p.input as Record<string, unknown>;
    if (input.kind === 'file') {
      const dir = mkdtempSync(join(tmpdir(), 'cpr-conformance-'));
      const path = join(dir, 'request.json');
      writeFileSync(path, String(input.content));
      try {
        return await appCall(() => ctx.app().read({ kind: 'file', path }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return appCall(() => ctx.app().read(input as Parameters<ReturnType<ScenarioContext['app']>['read']>[0]));
  },
  'app-derive': (ctx, p) => appCall(() => ctx.app().derive(p.cpr, p.context as Parameters<ReturnType<ScenarioContext['app']>['derive']>[1])),
};

interface Prepared {
  readonly request: WireRequest;
  /** The cash-pack message the request carries. */
  readonly sent: unknown;
}

/** Builds (and signs) the request an issue, renew or redeem step sends, with fresh ids unless given. */
function prepareCashpack(ctx: ScenarioContext, p: Params): Prepared | Promise<Prepared> {
  switch (p.do) {
    case 'issue':
      return lockRequest(ctx, p).then((message) => ({ request: jsonRequest('POST', '/v1/cashpack/issue', message), sent: message }));
    case 'renew':
      return renewalEntry(ctx, p).then((renewal) => ({ request: jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: p.pack, renewal }), sent: renewal }));
    case 'redeem': {
      const redemption = redemptionRequest(ctx, p);
      const body = JSON.stringify({ cash_pack: p.pack, redemption });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const identify = p.identify_as === undefined ? (p.redeemer as string) : p.identify_as;
      if (identify !== false) Object.assign(headers, httpSignature(ctx, 'operator', 'POST', '/v1/cashpack/redeem', body, identify as string, p.signed_at, p.signature));
      return { request: { method: 'POST', path: '/v1/cashpack/redeem', headers, body }, sent: redemption };
    }
    default:
      throw new StepError('error', `parallel "of" builds issue, renew or redeem steps, not ${String(p.do)}`);
  }
}

async function sendPrepared(ctx: ScenarioContext, prepared: Prepared | Promise<Prepared>): Promise<unknown> {
  const { request, sent } = await prepared;
  await fitsBodyLimit(ctx, request);
  const answer = await send(ctx, 'operator', request);
  const pack = answer.body as { pack_id?: unknown; renewal_chain?: unknown } | undefined;
  if (answer.status === 200 && typeof pack?.pack_id === 'string' && Array.isArray(pack.renewal_chain)) {
    ctx.packDepths.set(pack.pack_id, Math.max(pack.renewal_chain.length, ctx.packDepths.get(pack.pack_id) ?? 0));
  }
  return { ...answer, sent };
}

/**
 * A pack walked deep grows with every renewal: once the message no longer fits
 * the Operator's max_body_bytes, its 413 is right and the scenario's story
 * cannot go on there (the limits tests send their oversized bodies with `http`).
 */
async function fitsBodyLimit(ctx: ScenarioContext, request: WireRequest): Promise<void> {
  const size = typeof request.body === 'string' ? Buffer.byteLength(request.body) : (request.body?.length ?? 0);
  const limit = (await policyOf(ctx)).max_body_bytes;
  if (size > limit) throw new StepError('not-applicable', `the scenario sends a ${size}-byte ${request.path} message, and the target's max_body_bytes is ${limit}`);
}

/**
 * A paying application that crashes on an input (a module that throws, a child
 * that answers an error) has answered: that is its answer (spec §4.8: handled
 * gracefully, never an error), so it becomes a result no `accepted` or
 * `rejected` check can pass. An answer the adapter cannot read (a line that is
 * not JSON, a result of the wrong shape) is a harness error,
 * HARNESS_ADAPTER_PROTOCOL; no answer at all is HARNESS_TARGET_UNREACHABLE.
 */
export async function appCall<T>(call: () => Promise<T>): Promise<T | { ok: false; crashed: true; code: 'CRASHED'; message: string }> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    if (error.code === 'CRASHED') return { ok: false, crashed: true, code: 'CRASHED', message: error.message };
    if (error.code === 'PROTOCOL') throw new StepError('error', `the paying application's adapter broke its contract: ${error.message}`, 'HARNESS_ADAPTER_PROTOCOL');
    throw new StepError('error', `the paying application did not answer: ${error.code}: ${error.message}`, 'HARNESS_TARGET_UNREACHABLE');
  }
}

function roleOf(ctx: ScenarioContext, p: Params): Role {
  return (p.role as Role | undefined) ?? ctx.scenario.role;
}

function httpRequest(ctx: ScenarioContext, p: Params): WireRequest {
  const method = p.method as string;
  const path = String(p.path);
  const headers: Record<string, string> = { ...((p.headers as Record<string, string>) ?? {}) };
  let body: string | Uint8Array | undefined;
  if (p.json !== undefined) {
    body = JSON.stringify(p.json);
    headers['content-type'] ??= 'application/json';
  } else if (p.body !== undefined) {
    body = String(p.body);
  } else if (p.body_base64 !== undefined) {
    // Bytes a string cannot hold (invalid UTF-8, say).
    body = Uint8Array.from(Buffer.from(String(p.body_base64), 'base64'));
  }
  if (p.content_type !== undefined) headers['content-type'] = String(p.content_type);
  if (p.sign_as !== undefined) Object.assign(headers, httpSignature(ctx, roleOf(ctx, p), method, path, body, p.sign_as as string, p.signed_at, p.signature));
  return { method, path, headers, ...(body !== undefined ? { body } : {}), ...(p.transport === 'plaintext' ? { transport: 'plaintext' as const } : {}) };
}

/** RFC 9421 signature by a named key (PROFILE.md §2.4), in the profile's layout or a named other one. */
function httpSignature(ctx: ScenarioContext, role: Role, method: string, path: string, body: string | Uint8Array | undefined, keyName: string, created?: unknown, layout?: unknown): Record<string, string> {
  const key = ctx.key(keyName);
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const [bare, query] = path.split('?') as [string, string | undefined];
  const target = { method, authority: ctx.http(role).authority, path: bare, ...(query !== undefined ? { query } : {}), ...(bytes !== undefined ? { body: bytes } : {}) };
  const at = created === undefined ? ctx.nowSeconds() : Number(created);
  return { ...signRequestAs(target, { secretKey: key.secretKey, kid: key.jwk.kid }, at, (layout as SignatureLayout | undefined) ?? 'profile') };
}

/** A test-control call that must succeed; a failure means setup failed, not conformance. */
async function control(ctx: ScenarioContext, role: Role, method: string, path: string, json?: unknown): Promise<unknown> {
  const request: WireRequest = json === undefined ? { method, path } : jsonRequest(method, path, json);
  const result = await send(ctx, role, request);
  if (result.status === null || result.status < 200 || result.status > 299) {
    throw new StepError('error', `test control ${method} ${path} answered ${result.status}: ${result.text.slice(0, 300)}`);
  }
  if (result.body === undefined) throw new StepError('error', `test control ${method} ${path} did not answer JSON`);
  return result.body;
}

export function adoptClock(ctx: ScenarioContext, state: { now: string; frozen: boolean }): void {
  const ms = parseTimestamp(state.now);
  if (ms === undefined) throw new StepError('error', `test control reported an unreadable clock ${JSON.stringify(state.now)}`);
  ctx.setClockView(ms, state.frozen);
}

function ensureKey(ctx: ScenarioContext, name: string) {
  let key = ctx.keys.get(name);
  if (!key) {
    key = createSigningKey();
    ctx.keys.set(name, key);
    ctx.vars[name] = key.jwk;
  }
  return key;
}

async function readBalance(ctx: ScenarioContext, p: Params): Promise<unknown> {
  if (p.principal !== undefined) return control(ctx, 'operator', 'GET', `/_control/operator/principals/${ctx.key(p.principal as string).jwk.kid}/balance`);
  if (p.redeemer !== undefined) return control(ctx, 'operator', 'GET', `/_control/operator/redeemers/${ctx.key(p.redeemer as string).jwk.kid}/balance`);
  throw new StepError('error', 'balance needs principal or redeemer');
}

/** The members of the Operator Policy Document (PROFILE.md §4.8) scenarios adapt to; the rest is read as it comes. */
export type Policy = Omit<PolicyDocument, 'profile' | 'operator_kid'> & { readonly [k: string]: unknown };

const WHOLE = (min: number) => (v: unknown) => Number.isSafeInteger(v) && (v as number) >= min;
const POLICY_MEMBERS: Readonly<Record<string, (v: unknown) => boolean>> = {
  assets: (v) => Array.isArray(v) && v.length > 0,
  max_amount: isAmount,
  max_chain_depth: WHOLE(0),
  expiry_min_seconds: WHOLE(0),
  expiry_max_seconds: WHOLE(0),
  required_identity_level: isIdentityLevel,
  request_window_seconds: WHOLE(1),
  max_body_bytes: WHOLE(1),
};

/**
 * The Operator Policy Document, read once per scenario (a template's `${policy}`,
 * the policy action, the limits of issue and renew). Scenarios adapt to what it
 * says, so one they cannot read is a harness error that points at its own tests.
 */
export async function policyOf(ctx: ScenarioContext): Promise<Policy> {
  if (ctx.vars.__policy) return ctx.vars.__policy as Policy;
  const result = await send(ctx, 'operator', { method: 'GET', path: '/.well-known/cashpack-policy.json' });
  const policy = result.body as Record<string, unknown> | undefined;
  if (result.status !== 200 || policy === null || typeof policy !== 'object') throw new StepError('error', `the Operator Policy Document could not be read (HTTP ${result.status}); its own tests are CPP-WK-1 and PRF-WK-1`);
  const unusable = Object.entries(POLICY_MEMBERS).filter(([name, ok]) => !ok(policy[name])).map(([name]) => name);
  if (unusable.length > 0) throw new StepError('error', `the Operator Policy Document has no usable ${unusable.join(', ')} (PROFILE.md §4.8), which this scenario adapts to; its own tests are CPP-WK-1 and PRF-WK-1`);
  Object.defineProperty(ctx.vars, '__policy', { value: policy, enumerable: false });
  return policy as Policy;
}

export async function operatorKey(ctx: ScenarioContext): Promise<Uint8Array> {
  if (ctx.operatorKey) return ctx.operatorKey;
  const result = await send(ctx, 'operator', { method: 'GET', path: '/.well-known/cashpack-pubkey.json' });
  const key = result.status === 200 && result.body ? operatorKeyOf(result.body as PubkeyDocument) : undefined;
  if (!key) throw new StepError('error', "the Operator's public key document could not be read; check CPP-WK-2");
  ctx.operatorKey = key;
  return key;
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

/**
 * Where the policy leaves less room than the harness's view of a running clock
 * is sure of (a second either way, plus the time a step takes): a permitted
 * lifetime range under 4 s wide, or a freshness window under 3 s. Messages are
 * then dated exactly only against a frozen clock.
 */
function tightPolicy(policy: Policy): string | undefined {
  if (policy.expiry_max_seconds - policy.expiry_min_seconds < 4) return `permits lifetimes of ${policy.expiry_min_seconds} to ${policy.expiry_max_seconds} s`;
  if (policy.request_window_seconds < 3) return `has a freshness window of ${policy.request_window_seconds} s`;
  return undefined;
}

/**
 * An Operator scenario against a tight policy runs on a frozen clock (released
 * after the scenario), frozen before its first step renders `now`. Without the
 * clock capability its dated messages would land outside a range the harness
 * cannot hit: the scenario is then not applicable.
 */
export async function exactClockForPolicy(ctx: ScenarioContext): Promise<void> {
  if (ctx.scenario.role !== 'operator' || ctx.clockFrozen) return;
  // A policy that cannot be read is not this scenario's business unless a step
  // needs it (that step then says so); the policy's own scenarios judge it.
  const policy = await policyOf(ctx).catch((error: unknown) => {
    if (error instanceof StepError) return undefined;
    throw error;
  });
  if (policy === undefined) return;
  const tight = tightPolicy(policy);
  if (tight === undefined) return;
  if (!ctx.target.capabilities('operator').has('clock')) {
    throw new StepError('not-applicable', `the target ${tight}, which the harness hits only with the target's clock frozen, and it offers no clock capability`);
  }
  await ACTION_IMPLEMENTATIONS.clock(ctx, { freeze: true, role: 'operator' });
}

/** A step that sends what the Operator's policy forbids does so only when it says so (`beyond_limit: true`); otherwise the scenario does not apply to this target. */
function withinLimits(what: string, p: Params, exceeds: string | undefined): void {
  if (exceeds !== undefined && p.beyond_limit !== true) throw new StepError('not-applicable', `the scenario ${what}, but ${exceeds}`);
}

async function lockRequest(ctx: ScenarioContext, p: Params) {
  const now = ctx.nowSeconds();
  const policy = await policyOf(ctx);
  const amount = String(p.amount);
  withinLimits(`issues ${amount}`, p, isAmount(amount) && isAmount(policy.max_amount) && BigInt(amount) > BigInt(policy.max_amount) ? `the target's max_amount is ${policy.max_amount}` : undefined);
  const expiry = p.requested_expiry !== undefined ? String(p.requested_expiry) : (now + (p.expiry_in !== undefined ? Number(p.expiry_in) : defaultLifetime(policy))) * 1000;
  return buildLockRequest({
    principal: ctx.key(p.principal as string),
    ...(p.request_id !== undefined ? { request_id: String(p.request_id) } : {}),
    amount,
    asset: (p.asset ?? policy.assets[0]) as Parameters<typeof buildLockRequest>[0]['asset'],
    initialBearer: ctx.key(p.bearer as string).jwk,
    requested_expiry: expiry,
    created_at: str(p.created_at) ?? now * 1000,
  });
}

async function renewalEntry(ctx: ScenarioContext, p: Params) {
  const pack = packOf(p.pack);
  const policy = await policyOf(ctx);
  // The Operator judges depth by its stored state (PROFILE.md §5): a pack presented in an earlier version is as deep as the latest seen.
  const depth = Math.max(Array.isArray(pack.renewal_chain) ? pack.renewal_chain.length : 0, ctx.packDepths.get(pack.pack_id) ?? 0);
  withinLimits(`renews a pack ${depth} renewal(s) deep`, p, typeof policy.max_chain_depth === 'number' && depth >= policy.max_chain_depth ? `the target's max_chain_depth is ${policy.max_chain_depth}` : undefined);
  return buildRenewal({
    bearer: ctx.key(p.bearer as string),
    pack,
    new_bearer: ctx.key(p.new_bearer as string).jwk,
    ...(p.renewal_id !== undefined ? { renewal_id: String(p.renewal_id) } : {}),
    ...(p.prev_chain_digest !== undefined ? { prev_chain_digest: String(p.prev_chain_digest) } : {}),
    created_at: str(p.created_at) ?? ctx.nowSeconds() * 1000,
  });
}

function redemptionRequest(ctx: ScenarioContext, p: Params) {
  return buildRedemption({
    bearer: ctx.key(p.bearer as string),
    pack: packOf(p.pack),
    redeemer_kid: ctx.key(p.redeemer as string).jwk.kid,
    ...(p.redemption_id !== undefined ? { redemption_id: String(p.redemption_id) } : {}),
    created_at: str(p.created_at) ?? ctx.nowSeconds() * 1000,
  });
}

function packOf(value: unknown): CashPack {
  const pack = value as Partial<CashPack> | undefined;
  if (!pack || typeof pack.pack_id !== 'string' || typeof pack.chain_digest !== 'string') {
    throw new StepError('error', 'the value given as a pack is not a cash-pack; check the step that produced it');
  }
  return pack as CashPack;
}

function segments(path: string): string[] {
  return path.split('.').filter((s) => s.length > 0);
}

function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = segments(path);
  let node: Record<string, unknown> = root;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

function deletePath(root: Record<string, unknown>, path: string): void {
  const parts = segments(path);
  let node: unknown = root;
  for (const part of parts.slice(0, -1)) node = (node as Record<string, unknown> | undefined)?.[part];
  if (node && typeof node === 'object') delete (node as Record<string, unknown>)[parts.at(-1)!];
}

export type { HttpResult };
