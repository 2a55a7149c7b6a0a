// What each step `do`es (vocabulary.ts lists them with their parameters). An
// action returns the step's result, which `as:` captures and `expect` checks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeB64urlFixed, encodeB64url, parseTimestamp, signingInput, signObject, signRequestAs, MESSAGE_TYPES, SIGNATURE_LAYOUTS } from '../../profile/index.ts';
import { forgeTorsionSignature, TORSION_R_KINDS } from '../crypto/ed25519-forge.ts';
import { isAmount } from '../../profile/amount.ts';
import { IDENTITY_LEVELS, isIdentityLevel } from '../../profile/control.ts';
import type { Role } from '../../profile/registry.ts';
import { buildLockRequest, buildRedemption, buildRenewal, createSigningKey, operatorKeyOf, type CashPack, type PolicyDocument, type PubkeyDocument } from '../../profile/cashpack/index.ts';
import { TransportError, type WireRequest } from '../adapters/types.ts';
import { refusedDeliveryUri } from '../target/host-guard.ts';
import { StepError, type HttpResult, type ScenarioContext } from './context.ts';
import { jsonRequest, send } from './http.ts';
import { Params } from './params.ts';
import { APP_INPUT_KINDS, type ActionName } from './vocabulary.ts';
import { REDIRECT_TARGETS } from '../stub/retrieval-stub.ts';

type Action = (ctx: ScenarioContext, p: Params) => Promise<unknown>;

/** Every action but `repeat`, which the engine runs itself (execute.ts). */
export const ACTION_IMPLEMENTATIONS: Readonly<Record<Exclude<ActionName, 'repeat'>, Action>> = {
  http: (ctx, p) => send(ctx, roleOf(ctx, p), httpRequest(ctx, p)),

  parallel: async (ctx, p) => {
    const steps = p.list('steps', 'optional');
    const of = p.nested('of');
    const role = of || steps ? 'operator' : roleOf(ctx, p);
    // Every request is built (and, with `of` or `steps`, signed with fresh ids) first; then all are released together.
    const builds = await Promise.all(
      steps ? steps.map((step, i) => prepareOperatorRequest(ctx, Params.of(`parallel: steps[${i}]`, step)))
      : Array.from({ length: p.integer('copies') }, () => (of ? prepareCashpack(ctx, of) : { request: httpRequest(ctx, p), sent: undefined })),
    );
    if (of || steps) for (const b of builds) await fitsBodyLimit(ctx, b);
    const responses = await Promise.all(builds.map((b) => send(ctx, role, b.request)));
    return { responses, statuses: responses.map((r) => r.status), sent: builds.map((b) => b.sent) };
  },

  let: async (ctx, p) => {
    // Each value is a name for the following steps, as the loader promises.
    const values = p.object('values') ?? {};
    for (const [name, value] of Object.entries(values)) ctx.vars[name] = value;
    return values;
  },

  tamper: async (ctx, p) => {
    let value = structuredClone(Params.of('tamper: value', p.value('value')).all()) as Record<string, unknown>;
    for (const [path, v] of Object.entries(p.object('set') ?? {})) setPath(value, path, v);
    for (const path of p.strings('delete') ?? []) deletePath(value, path);
    if (p.boolean('flip_signature')) {
      const sig = decodeB64urlFixed(value.signature, 64);
      if (!sig) throw new StepError('error', 'tamper: flip_signature needs a 64-byte base64url "signature" member');
      sig[0] = sig[0]! ^ 0x01;
      value.signature = encodeB64url(sig);
    }
    const resign = p.nested('resign');
    if (resign) {
      const type = resign.oneOf('type', MESSAGE_TYPES);
      const torsion_r = resign.choice('torsion_r', TORSION_R_KINDS);
      const signer = ctx.key(resign.key('key'));
      value = signObject(type, value, signer.secretKey);
      if (torsion_r !== undefined) value.signature = encodeB64url(forgeTorsionSignature(signer.secretKey, signer.publicKey, signingInput(type, value), torsion_r));
    }
    return value;
  },

  keygen: async (ctx, p) => {
    const out: Record<string, unknown> = {};
    for (const name of p.strings('names') ?? []) {
      const key = createSigningKey();
      ctx.keys.set(name, key);
      ctx.vars[name] = key.jwk;
      out[name] = key.jwk;
    }
    return out;
  },

  sign: async (ctx, p) => signObject(p.oneOf('type', MESSAGE_TYPES), Params.of('sign: object', p.value('object')).all(), ctx.key(p.key('key')).secretKey),

  'create-request': (ctx, p) => control(ctx, 'payee', 'POST', '/_control/payee/requests', p.object('with') ?? {}),
  'payee-config': (ctx) => control(ctx, 'payee', 'GET', '/_control/payee/config'),
  fulfil: (ctx, p) => send(ctx, 'payee', jsonRequest('POST', `/_control/payee/requests/${encodeURIComponent(p.text('request_id'))}/fulfil`, {})),

  clock: async (ctx, p) => {
    const role = p.role() ?? ctx.scenario.role;
    const body: Record<string, unknown> = {};
    if (p.has('freeze')) body.freeze = p.boolean('freeze');
    if (p.has('set')) body.set = p.text('set');
    if (p.has('advance')) body.advance_seconds = p.integer('advance');
    const state = (await control(ctx, role, 'POST', '/_control/clock', body)) as { now: string; frozen: boolean };
    adoptClock(ctx, state);
    if (state.frozen) ctx.clockTouched = role;
    return { now: ctx.nowSeconds(), frozen: state.frozen, text: state.now };
  },

  credential: async (ctx, p) => {
    const of = p.oneOf('of', ['principal', 'redeemer', 'staff'] as const);
    const key = ctx.target.credential(of);
    if (!key) throw new StepError('skipped', `the target file gives no ${of} credential`);
    ctx.keys.set(p.key('key'), key);
    ctx.vars[p.key('key')] = key.jwk;
    return { kid: key.jwk.kid };
  },

  'provision-principal': async (ctx, p) => {
    const key = ensureKey(ctx, p.key('key'));
    const asset = p.value('asset') ?? (await policyOf(ctx)).assets[0];
    return control(ctx, 'operator', 'POST', '/_control/operator/principals', { public_key: key.jwk, asset, balance: p.text('balance') });
  },
  'provision-redeemer': async (ctx, p) => {
    const level = p.integer('identity_level');
    // Levels are 0..3 (PROFILE.md §4.8): a level computed from the policy may fall outside (one below 0, say).
    if (!isIdentityLevel(level)) throw StepError.notApplicable('policy', `the scenario needs a redeemer at identity level ${level}, and levels are ${IDENTITY_LEVELS.min} to ${IDENTITY_LEVELS.max} (the target's policy sets required_identity_level ${String((await policyOf(ctx)).required_identity_level)})`);
    const key = ensureKey(ctx, p.key('key'));
    return control(ctx, 'operator', 'POST', '/_control/operator/redeemers', { public_key: key.jwk, identity_level: level });
  },
  'provision-staff': async (ctx, p) => control(ctx, 'operator', 'POST', '/_control/operator/staff', { public_key: ensureKey(ctx, p.key('key')).jwk }),
  cancel: (ctx, p) => send(ctx, 'operator', jsonRequest('POST', `/_control/operator/packs/${encodeURIComponent(p.text('pack_id'))}/cancel`, {})),
  balance: (ctx, p) => readBalance(ctx, p),

  policy: async (ctx) => ({ policy: await policyOf(ctx), key: encodeB64url(await operatorKey(ctx)) }),

  'lock-request': async (ctx, p) => lockRequest(ctx, p),
  renewal: (ctx, p) => renewalEntry(ctx, p),
  redemption: async (ctx, p) => redemptionRequest(ctx, p),

  issue: (ctx, p) => sendPrepared(ctx, prepareCashpack(ctx, new Params('issue', { ...p.all(), do: 'issue' }))),
  renew: (ctx, p) => sendPrepared(ctx, prepareCashpack(ctx, new Params('renew', { ...p.all(), do: 'renew' }))),
  redeem: (ctx, p) => sendPrepared(ctx, prepareCashpack(ctx, new Params('redeem', { ...p.all(), do: 'redeem' }))),
  status: (ctx, p) => {
    const path = `/v1/cashpack/${encodeURIComponent(p.text('pack_id'))}/status`;
    const headers = p.value('sign_as') === false ? {} : httpSignature(ctx, 'operator', 'GET', path, undefined, p.key('sign_as'), p);
    return send(ctx, 'operator', { method: 'GET', path, headers });
  },

  'app-read': async (ctx, p) => {
    const input = p.nested('input')!;
    const kind = input.choice('kind', APP_INPUT_KINDS);
    // The harness's own guard, decided from its own allow-list: never the target's answer.
    const refused = kind === 'uri' && ctx.target.hostGuard !== undefined ? refusedDeliveryUri(input.text('uri'), ctx.target.hostGuard) : undefined;
    if (refused !== undefined) throw new StepError('error', refused, 'HARNESS_HOST_NOT_ALLOWED');
    if (kind === 'file') {
      const dir = mkdtempSync(join(tmpdir(), 'cpr-conformance-'));
      const path = join(dir, 'request.json');
      writeFileSync(path, input.text('content'));
      try {
        return await appCall(() => ctx.app().read({ kind: 'file', path }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return appCall(() => ctx.app().read(input.all() as Parameters<ReturnType<ScenarioContext['app']>['read']>[0]));
  },
  'stub-serve': async (ctx, p) => {
    const stub = ctx.target.stub;
    if (!stub) throw new StepError('skipped', "the paying application was not told to trust the harness's retrieval stub (the paying-app fuzzer and replay do; run does when a selected scenario serves from it)");
    const body = p.has('json') ? JSON.stringify(p.value('json')) : p.has('body_base64') ? Buffer.from(p.text('body_base64'), 'base64') : p.text('body');
    const headers: Record<string, string> = { ...(p.has('content_type') ? { 'content-type': p.text('content_type') } : {}), ...Object.fromEntries(Object.entries(p.object('headers') ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])) };
    const exhibit = {
      body: typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body),
      headers,
      ...(p.has('status') ? { status: p.integer('status') } : {}),
      ...(p.boolean('chunked') ? { chunked: true } : {}),
      ...(p.has('chunk_delay_ms') ? { chunkDelayMs: p.integer('chunk_delay_ms') } : {}),
      ...(p.boolean('truncate') ? { truncate: true } : {}),
      ...(p.has('redirect') ? { redirect: p.integer('redirect') } : {}),
      ...(p.has('redirect_to') ? { redirectTo: p.oneOf('redirect_to', REDIRECT_TARGETS) } : {}),
    };
    const host = p.choice('host', ['127.0.0.1', 'localhost'] as const);
    return stub.serve(exhibit, { basePath: p.has('base_path') ? p.text('base_path') : '', ...(host !== undefined ? { host } : {}), ...(p.boolean('plaintext') ? { plaintext: true } : {}) });
  },
  'stub-log': async (ctx, p) => {
    const stub = ctx.target.stub;
    if (!stub) throw new StepError('skipped', "the paying application was not told to trust the harness's retrieval stub");
    const requests = stub.seen(p.text('served'));
    const count = (test: (r: (typeof requests)[number]) => boolean) => requests.filter(test).length;
    return { requests, retrievals: count((r) => r.where === 'retrieval'), redirected: count((r) => r.where === 'redirect-target'), elsewhere: count((r) => r.where === 'elsewhere'), plaintext: count((r) => !r.secure) };
  },
  'app-derive': (ctx, p) => appCall(() => ctx.app().derive(p.value('cpr'), Params.of('app-derive: context', p.value('context')).all() as unknown as Parameters<ReturnType<ScenarioContext['app']>['derive']>[1])),
};

interface Prepared {
  readonly request: WireRequest;
  /** The cash-pack message the request carries. */
  readonly sent: unknown;
  /** The pack a renewal presents. */
  readonly pack?: unknown;
}

/** Builds (and signs) the request an issue, renew or redeem step sends, with fresh ids unless given. */
function prepareCashpack(ctx: ScenarioContext, p: Params): Prepared | Promise<Prepared> {
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
function prepareOperatorRequest(ctx: ScenarioContext, p: Params): Prepared | Promise<Prepared> {
  const kind = p.oneOf('do', ['issue', 'renew', 'redeem', 'status', 'cancel'] as const);
  if (kind === 'status') {
    const path = `/v1/cashpack/${encodeURIComponent(p.text('pack_id'))}/status`;
    const headers = p.value('sign_as') === false ? {} : httpSignature(ctx, 'operator', 'GET', path, undefined, p.key('sign_as'), p);
    return { request: { method: 'GET', path, headers }, sent: undefined };
  }
  if (kind === 'cancel') return { request: jsonRequest('POST', `/_control/operator/packs/${encodeURIComponent(p.text('pack_id'))}/cancel`, {}), sent: undefined };
  return prepareCashpack(ctx, p);
}

async function sendPrepared(ctx: ScenarioContext, prepared: Prepared | Promise<Prepared>): Promise<unknown> {
  const built = await prepared;
  await fitsBodyLimit(ctx, built);
  const { request, sent } = built;
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
 * A renewal short of max_chain_depth says so: the policy's own two limits leave
 * that depth out of reach.
 */
async function fitsBodyLimit(ctx: ScenarioContext, { request, pack }: Pick<Prepared, 'request' | 'pack'>): Promise<void> {
  const size = typeof request.body === 'string' ? Buffer.byteLength(request.body) : (request.body?.length ?? 0);
  const policy = await policyOf(ctx);
  if (size <= policy.max_body_bytes) return;
  const chain = (pack as { renewal_chain?: unknown } | undefined)?.renewal_chain;
  const depth = Array.isArray(chain) && chain.length < policy.max_chain_depth ? `: a renewal of a pack ${chain.length} renewal(s) deep no longer fits, so no chain reaches the target's max_chain_depth of ${policy.max_chain_depth}` : '';
  throw StepError.notApplicable('policy', `the scenario sends a ${size}-byte ${request.path} message, and the target's max_body_bytes is ${policy.max_body_bytes}${depth}`);
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
  return p.role() ?? ctx.scenario.role;
}

function httpRequest(ctx: ScenarioContext, p: Params): WireRequest {
  const method = p.text('method');
  const path = p.text('path');
  const given = p.nested('headers');
  const headers: Record<string, string> = Object.fromEntries(Object.keys(given?.all() ?? {}).map((name) => [name, given!.text(name)]));
  let body: string | Uint8Array | undefined;
  if (p.has('json')) {
    body = JSON.stringify(p.value('json'));
    headers['content-type'] ??= 'application/json';
  } else if (p.has('body')) {
    body = p.text('body');
  } else if (p.has('body_base64')) {
    // Bytes a string cannot hold (invalid UTF-8, say).
    body = Uint8Array.from(Buffer.from(p.text('body_base64'), 'base64'));
  }
  const contentType = p.text('content_type', 'optional');
  if (contentType !== undefined) headers['content-type'] = contentType;
  const signAs = p.key('sign_as', 'optional');
  if (signAs !== undefined) Object.assign(headers, httpSignature(ctx, roleOf(ctx, p), method, path, body, signAs, p));
  return { method, path, headers, ...(body !== undefined ? { body } : {}), ...(p.choice('transport', ['default', 'plaintext'] as const) === 'plaintext' ? { transport: 'plaintext' as const } : {}) };
}

/** RFC 9421 signature by a named key (PROFILE.md §2.4), in the profile's layout or a named other one. */
function httpSignature(ctx: ScenarioContext, role: Role, method: string, path: string, body: string | Uint8Array | undefined, keyName: string, p: Params): Record<string, string> {
  const key = ctx.key(keyName);
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const [bare, query] = path.split('?') as [string, string | undefined];
  const target = { method, authority: ctx.http(role).authority, path: bare, ...(query !== undefined ? { query } : {}), ...(bytes !== undefined ? { body: bytes } : {}) };
  const at = p.integer('signed_at', 'optional') ?? ctx.nowSeconds();
  return { ...signRequestAs(target, { secretKey: key.secretKey, kid: key.jwk.kid }, at, p.choice('signature', SIGNATURE_LAYOUTS) ?? 'profile') };
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
  const principal = p.key('principal', 'optional');
  if (principal !== undefined) return control(ctx, 'operator', 'GET', `/_control/operator/principals/${ctx.key(principal).jwk.kid}/balance`);
  const redeemer = p.key('redeemer', 'optional');
  if (redeemer !== undefined) return control(ctx, 'operator', 'GET', `/_control/operator/redeemers/${ctx.key(redeemer).jwk.kid}/balance`);
  throw new StepError('error', 'balance needs principal or redeemer', 'SCENARIO_INVALID');
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
export function tightPolicy(policy: Policy): string | undefined {
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
    throw new StepError('skipped', `missing test-control capability: clock (the target ${tight}, which the harness hits only with the target's clock frozen)`);
  }
  await ACTION_IMPLEMENTATIONS.clock(ctx, new Params('clock', { freeze: true, role: 'operator' }));
}

/** A step that sends what the Operator's policy forbids does so only when it says so (`beyond_limit: true`); otherwise the scenario does not apply to this target. */
function withinLimits(what: string, p: Params, exceeds: string | undefined): void {
  if (exceeds !== undefined && p.boolean('beyond_limit') !== true) throw StepError.notApplicable('policy', `the scenario ${what}, but ${exceeds}`);
}

async function lockRequest(ctx: ScenarioContext, p: Params) {
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

async function renewalEntry(ctx: ScenarioContext, p: Params) {
  const pack = packOf(p.value('pack'));
  const policy = await policyOf(ctx);
  // The Operator judges depth by its stored state (PROFILE.md §5): a pack presented in an earlier version is as deep as the latest seen.
  const depth = Math.max(Array.isArray(pack.renewal_chain) ? pack.renewal_chain.length : 0, ctx.packDepths.get(pack.pack_id) ?? 0);
  withinLimits(`renews a pack ${depth} renewal(s) deep`, p, typeof policy.max_chain_depth === 'number' && depth >= policy.max_chain_depth ? `the target's max_chain_depth is ${policy.max_chain_depth}` : undefined);
  return buildRenewal({
    bearer: ctx.key(p.key('bearer')),
    pack,
    new_bearer: ctx.key(p.key('new_bearer')).jwk,
    ...optionalText(p, 'renewal_id'),
    ...optionalText(p, 'prev_chain_digest'),
    created_at: p.text('created_at', 'optional') ?? ctx.nowSeconds() * 1000,
  });
}

function redemptionRequest(ctx: ScenarioContext, p: Params) {
  return buildRedemption({
    bearer: ctx.key(p.key('bearer')),
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
