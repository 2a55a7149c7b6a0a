// What each step `do`es (vocabulary.ts lists them with their parameters). An
// action returns the step's result, which `as:` captures and `expect` checks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeB64urlFixed, encodeB64url, signingInput, signObject, MESSAGE_TYPES } from '../../../profile/index.ts';
import { forgeTorsionSignature, TORSION_R_KINDS } from '../../crypto/ed25519-forge.ts';
import { IDENTITY_LEVELS, isIdentityLevel } from '../../../profile/control.ts';
import { createSigningKey } from '../../../profile/cashpack/index.ts';
import { refusedDeliveryUri } from '../../target/host-guard.ts';
import { StepError, type ScenarioContext } from '../context.ts';
import { jsonRequest, send } from '../http.ts';
import { Params } from '../params.ts';
import { APP_INPUT_KINDS, type ActionName } from '../vocabulary.ts';
import { IMPOSTORS, REDIRECT_TARGETS } from '../../stub/retrieval-stub.ts';
import { isIpv6, STUB_HOSTS } from '../../stub/hosts.ts';
import { appCall } from './app-call.ts';
import { fitsBodyLimit, lockRequest, prepareCashpack, prepareOperatorRequest, redemptionRequest, renewalEntry, sendPrepared } from './cashpack.ts';
import { adoptClock, control, ensureKey, readBalance } from './control.ts';
import { deletePath, setPath } from './paths.ts';
import { operatorKey, policyOf } from './policy.ts';
import { httpRequest, httpSignature, roleOf } from './requests.ts';

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
    const host = p.choice('host', STUB_HOSTS);
    if (host !== undefined && isIpv6(host) && !stub.ipv6) throw new StepError('skipped', `the step names the retrieval stub at ${host}, and this machine has no IPv6 loopback for it to listen on`);
    const impostor = p.choice('certificate', IMPOSTORS);
    return stub.serve(exhibit, { basePath: p.has('base_path') ? p.text('base_path') : '', ...(host !== undefined ? { host } : {}), ...(p.boolean('plaintext') ? { plaintext: true } : {}), ...(impostor !== undefined ? { impostor } : {}) });
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
