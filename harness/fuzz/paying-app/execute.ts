// What each paying-application command does, and how its result is judged
// against the oracle (oracle.ts). A read writes the document as the command
// says and hands it over through its channel (a token URI through the
// harness's retrieval stub, which answers as the command says and records what
// it was asked); a derive gives a valid CPR and a context at an instant near its
// expires_at. Every comparison is made once, by judge() (../judge.ts): checked
// now and written into the regression scenario's step as the same check.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { encodeB64url, formatTimestamp, isUuid, parseTimestamp } from '../../../profile/index.ts';
import { isRailHint, validateCpr, type Cpr } from '../../../profile/cpr/index.ts';
import { writeJsonText } from '../../../generators/classes/index.ts';
import { problem, PROBLEM_CONTENT_TYPE } from '../../../profile/problems.ts';
import { TransportError, type AppResult, type CprInput, type PayingAppRole } from '../../adapters/types.ts';
import type { Exhibit, RetrievalStub, Seen } from '../../stub/retrieval-stub.ts';
import { judge, judgeEqual, type JudgeCtx } from '../judge.ts';
import { literal } from '../literal.ts';
import { describe } from '../spec.ts';
import type { ScriptStep } from '../world.ts';
import { ACCEPT_REQUIREMENT, CODE_REQUIREMENT, documentOf, expectDerive, expectRead, type Expectation, type Outcome, type PaymentExpectation } from './oracle.ts';
import type { AppCommand, Encoding, Serving } from './spec.ts';

/** What every run of a campaign shares: the application, the stub it trusts, and a folder for files. */
export interface AppContext {
  readonly app: PayingAppRole;
  readonly stub: RetrievalStub;
  /** Calls made to the application, for the throughput. */
  calls: number;
}

/** One call and what came of it, as the crash file lists it. */
interface AppExchange {
  readonly call: 'read' | 'derive';
  readonly input: unknown;
  readonly result: unknown;
  /** What the retrieval stub was asked, for a token URI. */
  readonly stub?: readonly Seen[];
}

/** The history of one run: the commands that ran, each call, and the scenario steps they amount to. */
export class AppWorld {
  readonly script: ScriptStep[] = [];
  readonly executed: AppCommand[] = [];
  readonly exchanges: AppExchange[] = [];
  /** The ids of the Payments derived so far, with the step that captured each: each derivation's id is new (PROFILE.md §9). */
  readonly payments: { readonly id: string; readonly ref: string }[] = [];
  private captures = 0;
  private folder: string | undefined;

  constructor(readonly context: AppContext) {}

  capture(prefix: string): string {
    return `${prefix}${++this.captures}`;
  }

  step(fields: Record<string, unknown>, expect: ScriptStep['expect'] = []): ScriptStep {
    const step = { fields, expect };
    this.script.push(step);
    return step;
  }

  /** A file holding `text`, in a folder of the run's own (removed by close). */
  file(text: string): string {
    this.folder ??= mkdtempSync(join(tmpdir(), 'cpr-conformance-app-'));
    const path = join(this.folder, `request-${this.captures}.json`);
    writeFileSync(path, text);
    return path;
  }

  close(): void {
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
  }

  /** One call to the application: a crash is its answer; no answer at all is a harness fault. `stub` reads what the retrieval stub was asked meanwhile. */
  async call(call: 'read' | 'derive', input: unknown, run: (app: PayingAppRole) => Promise<AppResult>, stub?: () => readonly Seen[]): Promise<Result> {
    this.context.calls++;
    let result: Result;
    try {
      result = await run(this.context.app);
    } catch (error) {
      if (!(error instanceof TransportError) || error.code !== 'CRASHED') throw error;
      result = { ok: false, crashed: true, code: 'CRASHED', message: error.message };
    }
    this.exchanges.push({ call, input: capped(input), result: capped(result), ...(stub ? { stub: stub() } : {}) });
    return result;
  }
}

type Result = AppResult | { readonly ok: false; readonly crashed: true; readonly code: 'CRASHED'; readonly message: string };

function capped(value: unknown): unknown {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 4096 ? `${text.slice(0, 4096)}…` : value;
}

/** Far ahead: generated documents expire years after any clock that reads them. */
export const FAR_AHEAD = Date.UTC(2999, 0, 1);
/** An instant every application's clock is past. */
const LONG_AGO = Date.UTC(2020, 0, 1);

export async function execute(spec: AppCommand, w: AppWorld): Promise<void> {
  if (spec.kind === 'read') return read(spec, w);
  return derive(spec, w);
}

// ---------------------------------------------------------------- reading

/** The document moved back before every clock, its lifetime and fractions kept; a document whose timestamps do not parse stays as it is. */
export function expiredCopy(doc: unknown): unknown {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return doc;
  const d = doc as Record<string, unknown>;
  const created = parseTimestamp(d.created_at, 'cpr');
  const expires = parseTimestamp(d.expires_at, 'cpr');
  if (created === undefined || expires === undefined) return doc;
  const shift = created - (LONG_AGO + (created % 1000));
  return { ...d, created_at: formatTimestamp(created - shift, 'cpr'), expires_at: formatTimestamp(expires - shift, 'cpr') };
}

export const MAX_JSON_BYTES = 65_536;

/**
 * The encoding a document can be written in: a member written twice needs a
 * member, and padding to the bound needs a document below it; otherwise it is
 * written plainly (and judged so).
 */
export function applicable(doc: unknown, encoding: Encoding): Encoding {
  const members = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? Object.keys(doc).length : 0;
  if ((encoding === 'duplicate-member' || (typeof encoding === 'object' && 'json' in encoding)) && members === 0) return 'plain';
  if ((encoding === 'at-limit' || encoding === 'over-limit') && Buffer.byteLength(JSON.stringify(doc) ?? 'null') > MAX_JSON_BYTES) return 'plain';
  return encoding;
}

/** The document written as the encoding says (PROFILE.md §1). */
export function encode(doc: unknown, encoding: Encoding): string {
  const json = JSON.stringify(doc) ?? 'null';
  const written = applicable(doc, encoding);
  if (typeof written === 'object') return 'trailing' in written ? `${json}${written.trailing}` : writeJsonText(doc as Record<string, unknown>, written.json).value;
  switch (written) {
    case 'plain':
      return json;
    case 'bom':
      return `\uFEFF${json}`;
    case 'duplicate-member': {
      const [name, value] = Object.entries(doc as object)[0]!;
      return `{${JSON.stringify(name)}:${JSON.stringify(value)},${json.slice(1)}`;
    }
    case 'escaped-names':
      return escapedNames(doc);
    case 'not-json':
      return '<html><body><h1>Payment request</h1></body></html>';
    case 'at-limit':
      return json + ' '.repeat(MAX_JSON_BYTES - Buffer.byteLength(json));
    case 'over-limit':
      return json + ' '.repeat(MAX_JSON_BYTES + 1 - Buffer.byteLength(json));
    case 'empty':
      return '';
  }
}

/** JSON whose member names start with a \u escape: the same JSON (RFC 8259 §7), another text. */
function escapedNames(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(escapedNames).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => {
        const name = JSON.stringify(k).slice(1, -1);
        // The first character escaped, both halves of a surrogate pair when it is one.
        const units = name.length === 0 || name.startsWith('\\') ? 0 : (name.codePointAt(0) ?? 0) > 0xffff ? 2 : 1;
        const escaped = units === 0 ? name : `${Array.from({ length: units }, (_, i) => `\\u${name.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}${name.slice(units)}`;
        return `"${escaped}":${escapedNames(v)}`;
      })
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** What the stand-in payee answers for a serving choice (harness/stub/). */
export function exhibitOf(serving: Serving, body: Uint8Array): Exhibit {
  if (serving === 'ok') return { body, headers: JSON_TYPE };
  if (serving === 'chunked') return { body, headers: JSON_TYPE, chunked: true };
  if (serving === 'slow') return { body, headers: JSON_TYPE, chunked: true, chunkDelayMs: 40 };
  if (serving === 'truncated') return { body, headers: JSON_TYPE, truncate: true };
  if ('mediaType' in serving) return { body, headers: { 'content-type': serving.mediaType } };
  if ('otherType' in serving) return { body, ...(serving.otherType !== null ? { headers: { 'content-type': serving.otherType } } : {}) };
  if ('status' in serving && serving.problem !== undefined) return { body: new TextEncoder().encode(JSON.stringify(problem(serving.problem, 'the retrieval token is refused'))), headers: { 'content-type': PROBLEM_CONTENT_TYPE }, status: serving.status };
  if ('status' in serving) return { body, headers: JSON_TYPE, status: serving.status };
  return { body, headers: JSON_TYPE, redirect: serving.redirect, ...(serving.to !== undefined ? { redirectTo: serving.to } : {}) };
}

/** The stub-serve step's parameters for an exhibit. */
function serveFields(exhibit: Exhibit): Record<string, unknown> {
  const type = exhibit.headers?.['content-type'];
  return {
    body_base64: Buffer.from(exhibit.body).toString('base64'),
    ...(type !== undefined ? { content_type: type } : {}),
    ...(exhibit.status !== undefined ? { status: exhibit.status } : {}),
    ...(exhibit.chunked ? { chunked: true } : {}),
    ...(exhibit.chunkDelayMs !== undefined ? { chunk_delay_ms: exhibit.chunkDelayMs } : {}),
    ...(exhibit.truncate ? { truncate: true } : {}),
    ...(exhibit.redirect !== undefined ? { redirect: exhibit.redirect } : {}),
    ...(exhibit.redirectTo !== undefined ? { redirect_to: exhibit.redirectTo } : {}),
  };
}

async function read(spec: Extract<AppCommand, { kind: 'read' }>, w: AppWorld): Promise<void> {
  const ctx: JudgeCtx = { label: describe(spec), op: `read:${spec.channel}` };
  const generated = documentOf(spec.doc);
  const doc = spec.dating === 'expired' ? expiredCopy(generated) : generated;
  const text = encode(doc, spec.encoding);
  const capture = w.capture('r');
  let input: CprInput;
  let fields: Record<string, unknown>;
  let uriBytes: number | undefined;
  let served: { readonly id: string; readonly ref: string } | undefined;
  switch (spec.channel) {
    case 'object':
      input = { kind: 'object', value: doc };
      fields = { kind: 'object', value: literal(doc) };
      break;
    case 'json':
      input = { kind: 'json', text };
      fields = { kind: 'json', text: literal(text) };
      break;
    case 'file':
      input = { kind: 'file', path: w.file(text) };
      fields = { kind: 'file', content: literal(text) };
      break;
    case 'inline': {
      const uri = `std-cpr://inline/${encodeB64url(new TextEncoder().encode(text))}`;
      uriBytes = Buffer.byteLength(uri);
      input = { kind: 'uri', uri };
      fields = { kind: 'uri', uri };
      break;
    }
    case 'qr':
    case 'deep-link': {
      const endpoint = spec.endpoint ?? { host: '127.0.0.1' as const, basePath: '' };
      const exhibit = exhibitOf(spec.serving ?? 'ok', new TextEncoder().encode(text));
      const exhibited = w.context.stub.serve(exhibit, { basePath: endpoint.basePath, host: endpoint.host, ...(endpoint.plaintext ? { plaintext: true } : {}) });
      const ref = w.capture('x');
      w.step({ do: 'stub-serve', ...serveFields(exhibit), base_path: endpoint.basePath, host: endpoint.host, ...(endpoint.plaintext ? { plaintext: true } : {}), as: ref, note: `a stand-in payee for the ${spec.channel === 'qr' ? 'QR' : 'deep-link'} URI` });
      const extra = endpoint.extraQuery !== undefined ? `&${endpoint.extraQuery}` : '';
      input = { kind: 'uri', uri: exhibited.uri + extra };
      fields = { kind: 'uri', uri: `\${${ref}.uri}${extra}` };
      served = { id: exhibited.id, ref };
      break;
    }
  }
  const step = w.step({ do: 'app-read', input: fields, as: capture });
  const expected = expectRead({ ...spec, encoding: applicable(doc, spec.encoding) }, doc, uriBytes, Date.now());
  try {
    const result = await w.call('read', input, (app) => app.read(input), served && (() => w.context.stub.seen(served.id)));
    if (judgeResult(ctx, step, expected, result) === 'accept') judgeRead(ctx, step, doc, result as AppResult & { ok: true }, ACCEPT_REQUIREMENT[spec.channel]);
    if (served) judgeStub(ctx, w, served, w.context.stub.seen(served.id), spec.endpoint?.plaintext === true);
  } finally {
    if (served) w.context.stub.forget(served.id);
  }
}

/** An accepted read holds the document read (spec §4.4: the CPR, unchanged), and notes an unrecognized rail_hint (PROFILE.md §8.3). */
function judgeRead(ctx: JudgeCtx, step: ScriptStep, doc: unknown, result: AppResult & { ok: true }, requirement: string): void {
  judge(ctx, step, { what: 'the CPR read', requirement, expected: doc, actual: result.cpr ?? null, holds: isDeepStrictEqual(result.cpr, doc), script: { equals: { value: '${res.cpr}', to: literal(doc) } } });
  const hint = (doc as { rail_hint?: unknown }).rail_hint;
  if (typeof hint === 'string' && !isRailHint(hint)) {
    const noted = Array.isArray(result.notices) && result.notices.length > 0;
    judge(ctx, step, { what: 'a notice of the unrecognized rail_hint (PROFILE.md §8.3)', requirement: 'PRF-APP-1', expected: 'a notice', actual: result.notices ?? null, holds: noted, script: { matches: { value: '${json(res.notices)}', pattern: '^\\[".+' } }, difference: 'no notice' });
  }
}

/**
 * What the stand-in payee was asked (PROFILE.md §8.1, §8.3; spec §5.1): never
 * at a redirect's target, never over plaintext, never at another path than
 * `<endpoint>/cpr/<token>`, at most once.
 */
function judgeStub(ctx: JudgeCtx, w: AppWorld, served: { readonly id: string; readonly ref: string }, seen: readonly Seen[], plaintext: boolean): void {
  const step = w.step({ do: 'stub-log', served: `\${${served.ref}.id}` });
  const count = (test: (s: Seen) => boolean) => seen.filter(test).length;
  const ask = (what: string, requirement: string, member: string, actual: number, max: number, difference: string) =>
    judge(ctx, step, { what, requirement, expected: max === 0 ? 'none' : `at most ${max}`, actual, holds: actual <= max, script: max === 0 ? { equals: { value: `\${res.${member}}`, to: 0 } } : { at_most: { value: `\${res.${member}}`, max } }, difference });
  ask('requests over plaintext (spec §5.1 rule 4: a token only over TLS)', 'TOK-TLS-2', 'plaintext', count((s) => !s.secure), 0, 'the token was sent in the clear');
  if (plaintext) return;
  ask("requests at a redirect's target (PROFILE.md §8.3: a redirect is never followed)", 'PRF-APP-1', 'redirected', count((s) => s.where === 'redirect-target'), 0, 'a redirect was followed');
  ask('requests that carried the token elsewhere than <endpoint>/cpr/<token> (spec §4.1, PROFILE.md §8.1)', 'DLV-RESOLVE-1', 'elsewhere', count((s) => s.where === 'elsewhere'), 0, 'the token was sent to another place');
  ask('retrievals of the token (a single-use credential, spec §5.1)', 'DLV-RESOLVE-1', 'retrievals', count((s) => s.where === 'retrieval'), 1, 'the token was sent more than once');
}

// ---------------------------------------------------------------- deriving

async function derive(spec: Extract<AppCommand, { kind: 'derive' }>, w: AppWorld): Promise<void> {
  const ctx: JudgeCtx = { label: describe(spec), op: 'derive' };
  const doc = spec.doc as Cpr;
  // A drawn document may be no CPR at all: it is refused whatever the instant, taken near its own expires_at when it has one.
  const expires = parseTimestamp(doc.expires_at, 'cpr') ?? FAR_AHEAD;
  const validation = validateCpr(doc);
  const sub = validation.ok ? validation.subInterface : undefined;
  const now = expires + spec.nowFromExpiryMs;
  const context = { ...spec.context, now: formatTimestamp(now, 'cpr') };
  const capture = w.capture('d');
  const step = w.step({ do: 'app-derive', cpr: literal(doc), context: literal(context), as: capture, note: `${Math.abs(spec.nowFromExpiryMs)} ms ${spec.nowFromExpiryMs < 0 ? 'before' : 'after'} expires_at` });
  const { expected, payment } = expectDerive(doc, sub, spec.context, now);
  const result = await w.call('derive', { cpr: doc, context }, (app) => app.derive(doc, context));
  if (judgeResult(ctx, step, expected, result) === 'accept' && payment) judgePayment(ctx, step, w, capture, payment, (result as { payment?: unknown }).payment);
}

/** The Payment (PROFILE.md §9, spec §4.5 mapping and §4.7). */
function judgePayment(ctx: JudgeCtx, step: ScriptStep, w: AppWorld, capture: string, expected: PaymentExpectation, value: unknown): void {
  const p = (value ?? {}) as { id?: unknown; state?: unknown; payer?: unknown; payee?: unknown; value?: { amount?: unknown; asset?: unknown }; intent?: { reference?: unknown; conditions?: unknown }; authorization?: unknown; context?: { rail?: unknown; request_id?: unknown } };
  const id = p.id;
  judge(ctx, step, { what: 'payment.id, a new UUID (PROFILE.md §9)', requirement: 'DRV-SHAPE-1', expected: 'a UUID', actual: id ?? null, holds: isUuid(id) && id !== expected.request_id, script: { matches: { value: '${res.payment.id}', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } }, difference: 'not a new UUID' });
  for (const earlier of w.payments) {
    judge(ctx, step, { what: `payment.id unlike ${earlier.ref}'s (new for every derivation, PROFILE.md §9)`, requirement: 'DRV-SHAPE-1', expected: `not ${earlier.id}`, actual: id ?? null, holds: id !== earlier.id, script: { not_equals: { value: '${res.payment.id}', to: `\${${earlier.ref}.payment.id}` } }, difference: 'an id given before' });
  }
  judgeEqual(ctx, step, 'payment.state', 'DRV-SHAPE-1', 'CREATED', p.state, '${res.payment.state}');
  judgeEqual(ctx, step, 'payment.payer', 'DRV-PAYER-1', expected.payer, p.payer, '${res.payment.payer}', literal(expected.payer));
  judgeEqual(ctx, step, 'payment.authorization', 'DRV-PAYER-1', expected.authorization, p.authorization, '${res.payment.authorization}', literal(expected.authorization));
  judgeEqual(ctx, step, 'payment.context.rail', 'DRV-PAYER-1', expected.rail, p.context?.rail, '${res.payment.context.rail}', literal(expected.rail));
  judgeEqual(ctx, step, 'payment.context.request_id', 'DRV-SHAPE-1', expected.request_id, p.context?.request_id, '${res.payment.context.request_id}');
  judgeEqual(ctx, step, 'payment.payee', 'DRV-SHAPE-1', expected.payee, p.payee, '${res.payment.payee}', literal(expected.payee));
  judgeEqual(ctx, step, 'payment.value.amount', 'DRV-VALUE-1', expected.amount, p.value?.amount, '${res.payment.value.amount}');
  judgeEqual(ctx, step, 'payment.value.asset', 'DRV-VALUE-1', expected.asset, p.value?.asset, '${res.payment.value.asset}', literal(expected.asset));
  judgeEqual(ctx, step, 'payment.intent.reference', 'DRV-INTENT-1', expected.reference, p.intent?.reference, '${res.payment.intent.reference}', literal(expected.reference));
  judgeEqual(ctx, step, 'payment.intent.conditions', 'DRV-INTENT-1', expected.conditions, p.intent?.conditions, '${res.payment.intent.conditions}', literal(expected.conditions));
  if (typeof id === 'string') w.payments.push({ id, ref: capture });
}

// ---------------------------------------------------------------- results

/**
 * The result against the outcomes allowed. A result outside them is named by
 * the rule it concerns: a rejection where the oracle accepts, by the rule its
 * code stands for; an acceptance (or a crash) where it rejects, by the
 * oracle's own rule; another rejection code, or violations that name none of
 * the rules broken, by PRF-APP-1 (the profile's part of a rejection).
 */
function judgeResult(ctx: JudgeCtx, step: ScriptStep, expected: Expectation, result: Result): 'accept' | 'reject' {
  const primary = expected[0];
  const crashed = 'crashed' in result;
  const code = result.ok ? undefined : result.code;
  const same = expected.find((o) => (o.kind === 'accept' ? result.ok : !result.ok && !crashed && o.code === code));
  const actual = crashed ? { crashed: result.message.slice(0, 300) } : result.ok ? 'accepted' : { rejected: code, ...(result.violations ? { violations: (result.violations as { requirement?: unknown }[]).map((v) => v?.requirement ?? null) } : {}) };
  const difference = `${outcomeText(primary)} → ${crashed ? 'crashed' : result.ok ? 'accepted' : `rejected ${code}`}`;
  const requirement = same ? same.requirement : crashed || result.ok ? primary.requirement : primary.kind === 'accept' ? (CODE_REQUIREMENT[code!] ?? primary.requirement) : 'PRF-APP-1';
  judge(ctx, step, { what: 'the result', requirement, expected: expected.map(outcomeText), actual, holds: same !== undefined, script: outcomeScript(expected), rule: (same ?? primary).rule, differed: 'result', difference });
  if (result.ok) return 'accept';
  const rejection = result as Extract<AppResult, { ok: false }>;
  if (same?.violations !== undefined) {
    const named = (rejection.violations ?? []).map((v) => (v as { requirement?: unknown })?.requirement);
    judge(ctx, step, { what: 'the violations of a CPR_INVALID rejection (PROFILE.md §8.3)', requirement: 'PRF-APP-1', expected: { any_of: same.violations }, actual: named, holds: named.some((r) => same.violations!.includes(r as string)), differed: 'violations', difference: `none of ${same.violations.join(', ')}` });
    if (same.at !== undefined) {
      const at = (rejection.violations ?? []).filter((v) => same.violations!.includes((v as { requirement?: unknown })?.requirement as string)).map((v) => (v as { path?: unknown })?.path);
      judge(ctx, step, { what: "the path of the violation (PROFILE.md §8.3: the offending member's JSON Pointer)", requirement: 'PRF-APP-1', expected: same.at, actual: at, holds: at.length === 0 || at.includes(same.at), differed: 'violation path', difference: `not ${JSON.stringify(same.at)}` });
    }
  }
  const message = typeof rejection.message === 'string' && rejection.message.trim().length >= 10;
  judge(ctx, step, { what: 'the rejection message (PROFILE.md §8.3: human readable)', requirement: 'PRF-APP-1', expected: 'a human-readable message', actual: rejection.message ?? null, holds: message, differed: 'message', difference: 'no human-readable message' });
  return 'reject';
}

function outcomeText(o: Outcome): string {
  return o.kind === 'accept' ? 'accepted' : `rejected ${o.code}`;
}

/** The scenario's check for a set of outcomes: accepted, rejected with the code (and the one violation), or the set as a pattern. */
function outcomeScript(expected: Expectation): Record<string, unknown> {
  if (expected.length === 1) {
    const [o] = expected;
    if (o.kind === 'accept') return { accepted: true };
    return { rejected: o.violations?.length === 1 ? { code: o.code, violation: o.violations[0] } : o.code };
  }
  const accepted = expected.some((o) => o.kind === 'accept');
  const codes = expected.flatMap((o) => (o.kind === 'reject' ? [o.code!] : []));
  return { matches: { value: '${concat(res.ok, ":", res.code)}', pattern: `^(${[...(accepted ? ['true:undefined'] : []), ...(codes.length > 0 ? [`false:(${codes.join('|')})`] : [])].join('|')})$` } };
}
