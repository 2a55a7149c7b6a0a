// What each payee command sends, and how its answers are judged against the
// model (model.ts). Every comparison is made once, by judge() (../judge.ts): it
// is checked now and written into the step of the regression scenario as the
// same check, so the scenario checks everything the fuzzer checked.
//
// A command whose precondition does not hold when it runs (no request yet, a
// clock move into the past, fulfil not offered) is skipped: it sends nothing
// and is not part of the run's history.
import { isDeepStrictEqual } from 'node:util';
import { formatTimestamp, newUuid, type ProblemCode } from '../../../profile/index.ts';
import { violatedRules } from '../../cpr-charges.ts';
import { compareTokenUri, identifySubInterface, MAX_INLINE_URI_BYTES, parseDeliveryUri, RAIL_HINTS, SUB_INTERFACE_FIELDS, validateCpr } from '../../../profile/cpr/index.ts';
import { validateMessage } from '../../../profile/cashpack/index.ts';
import type { WireRequest } from '../../adapters/types.ts';
import { answerDifference, type EndpointRules } from '../cause.ts';
import { jsonRequest, type Reply } from '../client.ts';
import { judge, judgeEqual, type JudgeCtx } from '../judge.ts';
import { literal } from '../literal.ts';
import { describe } from '../spec.ts';
import { control, type ScriptCheck, type ScriptStep } from '../world.ts';
import { allows, FULFIL_RULES, RETRIEVE_RULES, type Answer, type BurstDecision, type Expectation, type Expected, type PayeeModel, type Presented } from './model.ts';
import type { PayeeCommand, PayeeCommandKind, RequestInput, TokenVariant, Via } from './spec.ts';
import { instant, type CreatedRequest, type PayeeWorld, type RealRequest } from './world.ts';
import { mediaType } from '../../media-type.ts';

type Executor<K extends PayeeCommandKind> = (spec: Extract<PayeeCommand, { kind: K }>, m: PayeeModel, w: PayeeWorld) => Promise<'ran' | 'skipped'>;

export const PAYEE_EXECUTORS: { readonly [K in PayeeCommandKind]: Executor<K> } = {
  create: async (spec, m, w) => {
    await create(ctxOf(spec, 'create'), spec.input, m, w);
    return 'ran';
  },
  'create-inline-limit': async (spec, m, w) => {
    const ctx = ctxOf(spec, 'create');
    const pad = 'com.example.pad';
    const probe = await create(ctx, { sub_interface: spec.sub, extensions: { [pad]: '' } }, m, w);
    // PROFILE.md §8.1: 2 048 bytes of URI are 17 of prefix and 2 031 of base64url, which carry 1 523 bytes of JSON.
    const json = JSON.stringify(probe.created.cpr);
    const length = 1523 + spec.delta - json.length;
    if (!isAscii(json) || length < 0) return 'ran';
    await create(ctx, { sub_interface: spec.sub, extensions: { [pad]: 'x'.repeat(length) } }, m, w, `sized from ${probe.ref}: its inline form is ${2048 + spec.delta} bytes`);
    return 'ran';
  },
  retrieve: async (spec, m, w) => {
    const request = spec.request === 'unknown' ? undefined : w.request(spec.request);
    if ((spec.request !== 'unknown' && !request) || (spec.plaintext && !w.context.plaintext)) return 'skipped';
    const ctx = ctxOf(spec, 'retrieve');
    const presented = request ? present(request, spec.via, spec.variant) : { token: w.unknownToken, as: 'other' as Presented, path: w.unknownToken };
    const decision = m.retrieve(request?.model, presented.as, spec.plaintext === true);
    const step = w.step({
      do: 'http',
      method: 'GET',
      path: `/cpr/${presented.path}`,
      headers: { accept: 'application/json' },
      ...(spec.plaintext ? { transport: 'plaintext' } : {}),
      as: w.capture(),
      note: `${request ? `the token of ${request.ref} read from ${VIA_TEXT[spec.via]}` : 'a token no request has'}${spec.variant === 'exact' ? '' : `, presented ${variantText(spec.variant)}`}${spec.plaintext ? ', over plaintext' : ''}`,
    });
    const reply = await w.send({ method: 'GET', path: `/cpr/${presented.token}`, headers: { accept: 'application/json' }, ...(spec.plaintext ? { transport: 'plaintext' } : {}) });
    const answer = judgeAnswer(ctx, step, 'retrieve', RETRIEVE_RULES, decision.expected, reply);
    if (answer.status === 200) judgeServed(ctx, step, request!, reply);
    judgeNoStore(ctx, step, reply);
    decision.commit(answer);
    return 'ran';
  },
  burst: async (spec, m, w) => {
    const request = w.request(spec.request);
    if (!request) return 'skipped';
    const ctx = ctxOf(spec, 'retrieve');
    const tokens = spec.vias.map((via) => present(request, via, 'exact').token);
    const decision = m.burst(request.model);
    const step = w.step({ do: 'parallel', copies: spec.vias.length, method: 'GET', path: `/cpr/\${${request.ref}.token}`, headers: { accept: 'application/json' }, as: w.capture(), note: `the token of ${request.ref} read from ${spec.vias.map((v) => VIA_TEXT[v]).join(', ')}, released together` });
    const replies = await Promise.all(tokens.map((token) => w.send({ method: 'GET', path: `/cpr/${token}`, headers: { accept: 'application/json' } })));
    const answers = judgeBurst(ctx, step, 'retrieve', RETRIEVE_RULES, 'TOK-RACE-1', decision, replies);
    for (const reply of replies) if (reply.status === 200) judgeServed(ctx, undefined, request, reply);
    decision.commit(answers);
    return 'ran';
  },
  advance: async (spec, m, w) => {
    const move = clockMove(spec.by, m, w);
    if (!move) return 'skipped';
    m.now = await w.moveClock(move.body, move.at, move.target, move.note);
    return 'ran';
  },
  fulfil: async (spec, m, w) => {
    const request = spec.request === 'unknown' ? undefined : w.request(spec.request);
    if (!w.context.fulfil || (spec.request !== 'unknown' && !request)) return 'skipped';
    const ctx = ctxOf(spec, 'fulfil');
    const id = request?.created.request_id ?? UNKNOWN_REQUEST_ID;
    const decision = m.fulfil(request?.model);
    const step = w.step({ do: 'fulfil', request_id: request ? `\${${request.ref}.request_id}` : id, as: w.capture() });
    const reply = await w.send(fulfilRequest(id));
    const answer = judgeAnswer(ctx, step, 'fulfil', FULFIL_RULES, decision.expected, reply);
    if (answer.status === 200) {
      const body = reply.body as { request_id?: unknown; consumed?: unknown } | undefined;
      judgeEqual(ctx, step, 'consumed', 'PRF-CTL-1', true, body?.consumed, '${res.body.consumed}');
      judgeEqual(ctx, step, 'request_id', 'PRF-CTL-1', id, body?.request_id, '${res.body.request_id}', request ? `\${${request.ref}.request_id}` : id);
    }
    decision.commit(answer);
    return 'ran';
  },
  'fulfil-burst': async (spec, m, w) => {
    const request = w.request(spec.request);
    if (!w.context.fulfil || !request) return 'skipped';
    const ctx = ctxOf(spec, 'fulfil');
    const decision = m.fulfilBurst(request.model);
    const step = w.step({ do: 'parallel', copies: spec.copies, method: 'POST', path: `/_control/payee/requests/\${${request.ref}.request_id}/fulfil`, json: {}, as: w.capture() });
    const replies = await Promise.all(Array.from({ length: spec.copies }, () => w.send(fulfilRequest(request.created.request_id))));
    decision.commit(judgeBurst(ctx, step, 'fulfil', FULFIL_RULES, 'DRV-SINGLE-1', decision, replies));
    return 'ran';
  },
};

/** A well-formed request_id no request has. */
const UNKNOWN_REQUEST_ID = newUuid();

const VIA_TEXT: Readonly<Record<Via, string>> = { token: 'its token member', qr: 'its QR URI', 'deep-link': 'its deep link' };

function ctxOf(spec: PayeeCommand, op: string): JudgeCtx {
  return { label: describe(spec), op };
}

function fulfilRequest(id: string): WireRequest {
  return jsonRequest('POST', `/_control/payee/requests/${encodeURIComponent(id)}/fulfil`, {});
}

function variantText(variant: TokenVariant): string {
  if (typeof variant === 'string') return variant;
  if ('truncate' in variant) return `without its last ${variant.truncate} character(s)`;
  if ('extend' in variant) return `with ${variant.extend} after it`;
  if ('prefix' in variant) return `with ${variant.prefix} before it`;
  return `with every ${variant.percent} percent-encoded`;
}

/** The string presented for a request's token, what it is to the model, and its path segment as a template of the scenario. */
function present(request: RealRequest, via: Via, variant: TokenVariant): { token: string; as: Presented; path: string } {
  const token = tokenVia(request.created, via);
  const ref = `${request.ref}.token`;
  if (variant === 'exact') return { token, as: 'exact', path: `\${${ref}}` };
  if (variant === 'request-id') return { token: request.created.request_id, as: 'other', path: `\${${request.ref}.request_id}` };
  if (variant === 'upper-case') {
    const upper = token.toUpperCase();
    return { token: upper, as: upper === token ? 'exact' : 'case', path: `\${upper(${ref})}` };
  }
  if ('truncate' in variant) {
    const keep = Math.max(1, token.length - variant.truncate);
    return { token: token.slice(0, keep), as: 'other', path: `\${slice(${ref}, 0, ${keep})}` };
  }
  if ('extend' in variant) return { token: token + variant.extend, as: 'other', path: `\${${ref}}${variant.extend}` };
  if ('prefix' in variant) return { token: variant.prefix + token, as: 'other', path: `${variant.prefix}\${${ref}}` };
  const hex = variant.percent.charCodeAt(0).toString(16).padStart(2, '0');
  const encoded = `%${variant.upperHex ? hex.toUpperCase() : hex}`;
  const spelled = token.replaceAll(variant.percent, encoded);
  return { token: spelled, as: spelled === token ? 'exact' : 'equivalent', path: `\${replace(${ref}, '${variant.percent}', '${encoded}')}` };
}

/** The token a channel carries; a URI that does not parse was judged when the request was created. */
function tokenVia(created: CreatedRequest, via: Via): string {
  if (via === 'token') return created.token;
  const parsed = parseDeliveryUri(via === 'qr' ? created.qr_uri : created.deep_link);
  return parsed.kind === 'token' ? parsed.token : created.token;
}

/** The clock move a command asks for, resolved against the run: undefined when it would go back (or nowhere). */
function clockMove(by: Extract<PayeeCommand, { kind: 'advance' }>['by'], m: PayeeModel, w: PayeeWorld) {
  const forward = (seconds: number, note?: string) => ({ body: { advance_seconds: seconds }, at: `${w.nowRef} + ${seconds * 1000}`, target: m.now + seconds * 1000, ...(note ? { note } : {}) });
  if (by === 'token-lifetime') return forward(w.context.config.token_lifetime_seconds, "the payee's token lifetime");
  if (by === 'request-validity') return forward(w.context.config.request_validity_seconds, "the payee's request validity window");
  if ('seconds' in by) return forward(by.seconds);
  const request = w.request(by.of);
  if (!request) return undefined;
  const [base, member] = by.to === 'token-expiry' ? [request.model.tokenExpiresAt, 'token_expires_at'] : [request.model.expiresAt, 'cpr.expires_at'];
  const target = base + by.deltaMs;
  if (target <= m.now) return undefined;
  return { body: { set: formatTimestamp(target) }, at: `ms(${request.ref}.${member}) + ${by.deltaMs}`, target, note: `${by.deltaMs === 0 ? 'at' : `${Math.abs(by.deltaMs)} ms ${by.deltaMs < 0 ? 'before' : 'after'}`} the ${member} of ${request.ref}` };
}

// ---------------------------------------------------------------- create

/** POST /_control/payee/requests and every rule of its answer; the request joins the model. */
async function create(ctx: JudgeCtx, input: RequestInput, m: PayeeModel, w: PayeeWorld, note?: string): Promise<RealRequest> {
  const ref = w.capture();
  const step = w.step({ do: 'create-request', with: literal(input), as: ref, ...(note ? { note } : {}) });
  // Test control that refuses input the profile lets it take is a harness fault, as in a scenario.
  const created = (await control(w.client, 'POST', '/_control/payee/requests', input, [w.log], undefined)) as CreatedRequest;
  judgeCreated(ctx, step, input, created, m, w);
  const request: RealRequest = {
    model: m.add({ requestId: created.request_id, token: created.token, tokenExpiresAt: instant(created.token_expires_at), expiresAt: instant(created.cpr.expires_at) }),
    created,
    input,
    ref,
  };
  w.requests.push(request);
  return request;
}

const TOKEN_PATTERN = '^[0-9a-f]{32,128}$';

/** What a created request must be (spec §2, §4.4, §4.8, §5.1; PROFILE.md §7, §8.1, §10, §12). */
function judgeCreated(ctx: JudgeCtx, step: ScriptStep, input: RequestInput, created: CreatedRequest, m: PayeeModel, w: PayeeWorld): void {
  const { config } = w.context;
  const cpr = created.cpr as unknown as Record<string, unknown>;
  // The CPR itself, within the payee's own validity window.
  const validity = validateCpr(cpr, { validitySeconds: config.request_validity_seconds });
  const first = validity.ok ? undefined : validity.violations[0];
  judge(ctx, step, {
    what: 'the CPR the payee created (spec §2, PROFILE.md §7)',
    // The rule the first violation breaks; one no payee rule names is test control's (the CPR it returns).
    requirement: validity.ok ? 'CPR-TIME-2' : violatedRules(validity.violations, 'payee', ['PRF-CTL-1'])[0]!,
    expected: 'a valid CPR',
    actual: validity.ok ? 'a valid CPR' : validity.violations.slice(0, 3),
    holds: validity.ok,
    script: { cpr_valid: { validity_seconds: config.request_validity_seconds }, on: '${res.cpr}' },
    ...(first ? { difference: `${first.path || '/'} violates ${first.requirement}` } : {}),
  });
  // Timestamps parse (validated above); the instants the model keeps.
  if (typeof cpr.rail_hint === 'string') judgeMatches(ctx, step, 'rail_hint is a listed value (PROFILE.md §7.1: a payee sends only those)', 'CPR-RAIL-1', cpr.rail_hint, `^(${RAIL_HINTS.join('|')})$`, '${res.cpr.rail_hint}');
  judgeEqual(ctx, step, 'request_id', 'PRF-CTL-1', cpr.request_id, created.request_id, '${res.request_id}', '${res.cpr.request_id}');
  for (const earlier of w.requests) {
    judge(ctx, step, { what: `request_id unlike ${earlier.ref}'s (spec §4.7.3)`, requirement: 'CPR-ID-1', expected: `not ${earlier.created.request_id}`, actual: created.request_id, holds: created.request_id !== earlier.created.request_id, script: { not_equals: { value: '${res.request_id}', to: `\${${earlier.ref}.request_id}` } }, difference: 'a request_id given before' });
  }
  judgeInput(ctx, step, input, cpr);
  // The token (PROFILE.md §10).
  judgeMatches(ctx, step, 'the token (PROFILE.md §10: at least 128 bits in lower-case hex)', 'PRF-TOK-1', created.token, TOKEN_PATTERN, '${res.token}');
  for (const earlier of w.requests) {
    judge(ctx, step, { what: `the token unlike ${earlier.ref}'s`, requirement: 'PRF-TOK-1', expected: 'another token', actual: created.token, holds: created.token !== earlier.created.token, script: { not_equals: { value: '${res.token}', to: `\${${earlier.ref}.token}` } }, difference: 'a token given before' });
  }
  judgeTokenExpiry(ctx, step, created, m, w);
  // The delivery URIs (spec §4.4, PROFILE.md §8.1).
  for (const [member, requirement] of [['qr_uri', 'DLV-QR-1'], ['deep_link', 'DLV-DEEP-1']] as const) {
    const uri = String(created[member]);
    const c = compareTokenUri(uri, created.token, config.base_url);
    judge(ctx, step, { what: `${member}: std-cpr://<token>?endpoint=<the payee's base URL>`, requirement, expected: c.expected, actual: c.form.length === 0 ? uri : c.form, holds: c.form.length === 0, script: { delivery_uri: { uri: `\${res.${member}}`, token: '${res.token}', base_url: '${config.base_url}' } } });
    judge(ctx, step, { what: `${member}: the endpoint as PROFILE.md §8.1 writes it`, requirement: 'PRF-URI-1', expected: { endpoint: encodeURIComponent(config.base_url) }, actual: c.encoding.length === 0 ? 'as PROFILE.md §8.1 says' : c.encoding, holds: c.encoding.length === 0 });
  }
  judgeInline(ctx, step, created);
}

/** The request the payee created is the one it was asked for (PROFILE.md §12 provision). */
function judgeInput(ctx: JudgeCtx, step: ScriptStep, input: RequestInput, cpr: Record<string, unknown>): void {
  const payee = cpr.payee as { rail_address?: Record<string, unknown>; display_name?: unknown } | undefined;
  const value = cpr.value as { amount?: unknown } | undefined;
  const railAddress = payee?.rail_address ?? {};
  const sub = identifySubInterface(railAddress, cpr.rail_hint);
  const field = SUB_INTERFACE_FIELDS[input.sub_interface].address.required.at(-1)!;
  judge(ctx, step, { what: 'the sub-interface asked for', requirement: 'PRF-CTL-1', expected: input.sub_interface, actual: sub ?? null, holds: sub === input.sub_interface, script: { matches: { value: '${json(res.cpr.payee.rail_address)}', pattern: `"${field}"` } } });
  if (input.amount !== undefined) judgeEqual(ctx, step, 'value.amount', 'PRF-CTL-1', input.amount, value?.amount, '${res.cpr.value.amount}');
  else judgeMatches(ctx, step, 'value without an amount (an open amount was asked for)', 'PRF-CTL-1', JSON.stringify(value ?? null), '^(?![\\s\\S]*"amount")', '${json(res.cpr.value)}');
  if (input.memo !== undefined) judgeEqual(ctx, step, 'memo', 'PRF-CTL-1', input.memo, cpr.memo, '${res.cpr.memo}', literal(input.memo));
  if (input.rail_hint !== undefined) judgeEqual(ctx, step, 'rail_hint', 'PRF-CTL-1', input.rail_hint, cpr.rail_hint, '${res.cpr.rail_hint}');
  if (input.display_name !== undefined) judgeEqual(ctx, step, 'payee.display_name', 'PRF-CTL-1', input.display_name, payee?.display_name, '${res.cpr.payee.display_name}', literal(input.display_name));
  if (input.extensions !== undefined) judgeEqual(ctx, step, 'extensions', 'PRF-CTL-1', input.extensions, cpr.extensions, '${res.cpr.extensions}', literal(input.extensions));
}

/**
 * token_expires_at: within the configured lifetime of the instant the request
 * was created, and less than a second short of it (spec §5.1 rule 1; a token
 * still works one second before its lifetime ends). The token then lives
 * until the instant reported (the model's boundary).
 */
function judgeTokenExpiry(ctx: JudgeCtx, step: ScriptStep, created: CreatedRequest, m: PayeeModel, w: PayeeWorld): void {
  const lifetime = w.context.config.token_lifetime_seconds * 1000;
  const reported = instantOrNaN(created.token_expires_at);
  const valid = !Number.isNaN(reported);
  const after = reported - m.now;
  const within = valid && after <= lifetime && after > lifetime - 1000;
  const life = `\${ms(res.token_expires_at) - ${w.nowRef}}`;
  judge(ctx, step, {
    what: "token_expires_at: the payee's clock when the request was created plus its token lifetime (spec §5.1 rule 1)",
    requirement: 'TOK-EXP-1',
    expected: formatTimestamp(m.now + lifetime),
    actual: created.token_expires_at ?? null,
    holds: within,
    script: { at_most: { value: life, max: lifetime } },
    difference: !valid ? 'not a timestamp' : after > lifetime ? 'later than the lifetime allows' : 'a second or more short of the lifetime',
  });
  step.expect.push({ at_most: { value: lifetime - 999, max: life }, requirement: 'TOK-EXP-1' });
}

function instantOrNaN(text: string): number {
  try {
    return instant(text);
  } catch {
    return Number.NaN;
  }
}

/**
 * The inline URI (PROFILE.md §8.1): when offered, at most 2 048 bytes and the
 * request itself; absent only when the request's JSON without white space
 * would not fit (judged where that JSON is ASCII, so its size is the same in
 * any serialization without white space).
 */
function judgeInline(ctx: JudgeCtx, step: ScriptStep, created: CreatedRequest): void {
  const uri = created.inline_uri;
  if (uri === undefined) {
    const json = JSON.stringify(created.cpr);
    const fits = isAscii(json) && 17 + Math.ceil((json.length * 4) / 3) <= MAX_INLINE_URI_BYTES;
    judge(ctx, step, { what: 'inline_uri, offered for a request whose inline form fits 2 048 bytes', requirement: 'PRF-INLINE-1', expected: 'an inline_uri', actual: 'none', holds: !fits, script: fits ? { matches: { value: '${json(res)}', pattern: '"inline_uri"' } } : undefined, difference: 'withheld' });
    return;
  }
  const bytes = Buffer.byteLength(String(uri));
  judge(ctx, step, { what: 'the inline URI is at most 2 048 bytes', requirement: 'PRF-INLINE-1', expected: `at most ${MAX_INLINE_URI_BYTES} bytes`, actual: `${bytes} bytes`, holds: bytes <= MAX_INLINE_URI_BYTES, script: { at_most: { value: '${len(res.inline_uri)}', max: MAX_INLINE_URI_BYTES } }, difference: 'longer' });
  const parsed = parseDeliveryUri(uri);
  let decoded: unknown = parsed.kind === 'error' ? parsed.reason : parsed.kind;
  if (parsed.kind === 'inline') {
    try {
      decoded = JSON.parse(parsed.json);
    } catch {
      decoded = parsed.json;
    }
  }
  judge(ctx, step, { what: 'the inline URI decodes to the request', requirement: 'DLV-INLINE-1', expected: created.cpr, actual: decoded, holds: isDeepStrictEqual(decoded, created.cpr), script: { inline_decodes_to: { uri: '${res.inline_uri}', value: '${res.cpr}' } } });
}

function isAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

function judgeMatches(ctx: JudgeCtx, step: ScriptStep | undefined, what: string, requirement: string, actual: unknown, pattern: string, value: string): void {
  const holds = typeof actual === 'string' && new RegExp(pattern).test(actual);
  judge(ctx, step ?? SCRATCH(), { what, requirement, expected: `/${pattern}/`, actual: actual ?? null, holds, script: step ? { matches: { value, pattern } } : undefined });
}

/** A step nobody keeps: for checks the scenario makes in another way (a burst's copies). */
const SCRATCH = (): ScriptStep => ({ fields: {}, expect: [] });

// ---------------------------------------------------------------- answers

/**
 * Status and problem code: one of the answers the model allows, a refusal as
 * application/problem+json (PROFILE.md §11). An answer outside the set is
 * named against the allowed answer it comes closest to (the one with its
 * status and code, else the model's own), by the endpoint's checks in order.
 */
function judgeAnswer(ctx: JudgeCtx, step: ScriptStep | undefined, kind: string, rules: EndpointRules, expected: Expectation, reply: Reply): Answer {
  const answer = answerOf(reply);
  const type = mediaType(reply.headers);
  const closest = expected.find((e) => allows([e], answer)) ?? expected[0];
  const allowed = allows(expected, answer) && (answer.status === 200 || type === 'application/problem+json');
  const differs = allowed ? undefined : answerDifference(kind, closest, { status: answer.status, code: answer.code, contentType: type }, rules);
  const requirement = differs?.requirement ?? (closest.ok ? rules.success : closest.requirement);
  judge(ctx, step ?? SCRATCH(), {
    what: `the ${kind} answer`,
    requirement,
    expected: expected.map(answerText),
    actual: { status: answer.status, ...(answer.code !== undefined ? { code: answer.code } : {}), ...(answer.status !== 200 ? { content_type: type ?? 'none' } : {}) },
    holds: allowed,
    script: step ? answerScript(expected) : undefined,
    ...(differs ? { rule: differs.rule, differed: differs.what, difference: differs.difference } : {}),
  });
  if (step && expected.length > 1 && expected.every((e) => !e.ok)) {
    step.expect.push({ matches: { value: '${res.body.code}', pattern: `^(${[...new Set(expected.map((e) => (e as { code: string }).code))].join('|')})$` }, requirement });
  }
  if (answer.status !== 200) judgeProblem(ctx, step, reply);
  return answer;
}

/** A refusal's body is RFC 9457 problem details with the profile's type, status and code (PROFILE.md §11). */
function judgeProblem(ctx: JudgeCtx, step: ScriptStep | undefined, reply: Reply): void {
  const check = validateMessage('problem', reply.body);
  judge(ctx, step ?? SCRATCH(), { what: 'the problem details (PROFILE.md §11)', requirement: 'PRF-ERR-1', expected: 'a valid problem', actual: check.ok ? 'a valid problem' : check.errors.slice(0, 3), holds: check.ok, script: step ? { schema: 'problem' } : undefined });
}

function answerScript(expected: Expectation): ScriptCheck {
  if (expected.length === 1) return expected[0].ok ? { status: 200 } : { problem: expected[0].code };
  return { status: [...new Set(expected.map((e) => e.status))].sort() };
}

function answerText(e: Expected): string {
  return e.ok ? '200' : `${e.status} ${e.code}`;
}

function codeOf(reply: Reply): string | undefined {
  const code = (reply.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A served CPR: application/json, and the request the payee created (spec §4.1). */
function judgeServed(ctx: JudgeCtx, step: ScriptStep | undefined, request: RealRequest, reply: Reply): void {
  const type = mediaType(reply.headers);
  judge(ctx, step ?? SCRATCH(), { what: 'the media type of a served CPR (spec §4.1)', requirement: 'TOK-GET-1', expected: 'application/json', actual: type ?? null, holds: type === 'application/json', script: step ? { content_type: 'application/json' } : undefined, differed: 'content type', difference: `application/json → ${type ?? 'none'}` });
  judge(ctx, step ?? SCRATCH(), { what: 'the CPR served is the one created', requirement: 'TOK-GET-1', expected: request.created.cpr, actual: reply.body ?? reply.text.slice(0, 300), holds: isDeepStrictEqual(reply.body, request.created.cpr), script: step ? { equals: { value: '${res.body}', to: `\${${request.ref}.cpr}` } } : undefined });
}

/** PROFILE.md §10: every /cpr response carries Cache-Control: no-store (directive names are case-insensitive, RFC 9111 §5.2). */
const NO_STORE = '[Nn][Oo]-[Ss][Tt][Oo][Rr][Ee]';

function judgeNoStore(ctx: JudgeCtx, step: ScriptStep, reply: Reply): void {
  const value = reply.headers['cache-control'];
  judge(ctx, step, { what: 'Cache-Control of a /cpr response (PROFILE.md §10)', requirement: 'PRF-TOK-1', expected: 'no-store', actual: value ?? null, holds: value !== undefined && new RegExp(NO_STORE).test(value), script: { header: { name: 'cache-control', matches: NO_STORE } }, differed: 'cache-control', difference: value === undefined ? 'absent' : 'without no-store' });
}

/**
 * Copies of one request released together. The model's concurrency rule
 * (exactly one succeeds where one would alone, spec §5.1 rules 2–3 and §3.1)
 * is what differed only when more copies succeeded than it allows, or none did
 * and every copy got what a loser gets once another has won; a copy refused
 * for anything else is judged as the request would be alone.
 */
function judgeBurst(ctx: JudgeCtx, step: ScriptStep, kind: string, rules: EndpointRules, requirement: string, decision: BurstDecision, replies: readonly Reply[]): Answer[] {
  const { winner, alone, losers } = decision;
  const won = replies.filter((r) => r.status === 200).length;
  const statuses = [...new Set([...(winner === 'none' ? [] : [200]), ...losers.map((e) => e.status)])].sort();
  const codes = [...new Set(losers.flatMap((e) => (e.ok ? [] : [e.code])))] as ProblemCode[];
  const race = (holds: boolean, expected: string) =>
    judge(ctx, step, { what: 'concurrent answers', requirement, expected, actual: tally(replies), holds, script: winner === 'one' ? { exactly_one: { status: 200 } } : undefined, difference: `${won} of ${replies.length} succeeded` });
  // The scenario's check of every copy, written before any comparison can stop the step.
  step.expect.push({ all: { status: statuses.length === 1 ? statuses[0] : statuses, ...(codes.length > 0 ? { problem: codes } : {}) }, requirement: winner === 'none' && !losers[0].ok ? losers[0].requirement : requirement });
  if (winner !== 'none') {
    const lostAll = won === 0 && replies.every((r) => allows(losers, answerOf(r)));
    race(winner === 'one' ? won === 1 || (won === 0 && !lostAll) : won <= 1, winner === 'one' ? 'exactly one 200' : 'at most one 200');
  }
  // Judged one by one: as losers once a copy won, else as each would be alone.
  const each = won > 0 ? losers : alone;
  return replies.map((reply) => (reply.status === 200 && won <= 1 && winner !== 'none' ? { status: 200 } : judgeAnswer(ctx, undefined, kind, rules, each, reply)));
}

function answerOf(reply: Reply): Answer {
  return { status: reply.status, ...(reply.status !== 200 ? { code: codeOf(reply) } : {}) };
}

function tally(replies: readonly Reply[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of replies) {
    const key = r.status === 200 ? '200' : `${r.status} ${codeOf(r) ?? ''}`.trim();
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

