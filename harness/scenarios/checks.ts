// The named checks (STYLE.md §4): each looks at one value and says what it
// expected and what it saw. `problem` also checks the HTTP status the profile
// assigns to the code, as a separate PROFILE-level result (PROFILE.md §11).
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { keptValidators } from '../../profile/kept-validators.ts';
import { PROBLEM_STATUS, isProblemCode } from '../../profile/problems.ts';
import { recomputeChainDigest, validateMessage, verifyCashPack, verifyConfirmation, type CashPack, type MessageKind, type RedemptionConfirmation } from '../../profile/cashpack/index.ts';
import { compareTokenUri, decodeQrPng, findPayerMembers, inspectQrPng, parseDeliveryUri, validateCpr } from '../../profile/cpr/index.ts';
import { MESSAGE_TYPES, verifyObject } from '../../profile/signing.ts';
import { PROFILE_ID, profileNotice } from '../../profile/version.ts';
import cprSchema from '../../profile/schemas/cpr.schema.json' with { type: 'json' };
import paymentSchema from '../../profile/schemas/payment.schema.json' with { type: 'json' };
import type { HttpResult, ScenarioContext } from './context.ts';
import { StepError } from './context.ts';
import { ACTION_IMPLEMENTATIONS, operatorKey } from './actions/index.ts';
import { Params } from './params.ts';
import { chargeViolations, cprRulesOf } from '../cpr-charges.ts';
import { ENDPOINT_ENCODING_RULE, PROBLEM_STATUS_RULE, REJECTION_FORM_RULE, type CheckName } from './vocabulary.ts';
import { mediaType } from '../media-type.ts';

export interface Judgement {
  readonly passed: boolean;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
  /** A precondition, not an observation: never recorded as a check result. */
  readonly precondition?: boolean;
  /** Further results the check produces under other requirements (problem -> its HTTP status). */
  readonly extra?: readonly (Judgement & { readonly check: string; readonly requirement: string })[];
  /** The check's own result under one of its own requirements, where it differs from the others' (each judged on its own violations). */
  readonly under?: Readonly<Record<string, Judgement>>;
}

/**
 * `written` is the check's argument as the scenario wrote it, before its
 * templates were filled in; `own` the requirements its own result is recorded
 * under (the one it names, else the scenario's claim).
 */
type Check = (ctx: ScenarioContext, arg: unknown, subject: unknown, written: unknown, own: readonly string[]) => Judgement | Promise<Judgement>;

/**
 * The member a comparison looked at, as the scenario names it: "pack_id" for
 * `${res.body.pack_id}`, "final.renewal_chain[0]" for `${final.renewal_chain[0]}`,
 * the expression for anything else; undefined for a literal.
 */
export function comparedMember(written: unknown): string | undefined {
  const value = typeof written === 'object' && written !== null ? (written as Record<string, unknown>)['value'] : undefined;
  const expression = typeof value === 'string' ? /^\$\{\s*(.+?)\s*\}$/.exec(value)?.[1] : undefined;
  if (expression === undefined) return undefined;
  return /^[A-Za-z_]\w*\.body\.([\w.[\]]+)$/.exec(expression)?.[1] ?? expression;
}

/** "pack_id: expected "abc", got null": a comparison's message names what it compared. */
function comparison(written: unknown, expected: string, actual: unknown, fallback: string): string {
  const member = comparedMember(written);
  return member === undefined ? fallback : `${member}: expected ${expected}, got ${brief(actual)}`;
}

function brief(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** `{ value, to }`: the two values a comparison takes, as rendered. */
function compared(check: string, arg: unknown): { value: unknown; to: unknown } {
  const a = Params.of(check, arg);
  return { value: a.value('value'), to: a.value('to') };
}

const BALANCE_MEMBERS = ['available', 'locked', 'held'] as const;

/** The payload schemas of profile/schemas/ a `schema` check names directly. */
const CPR_SCHEMAS = { cpr: cprSchema, payment: paymentSchema } as const;
type PayloadSchema = keyof typeof CPR_SCHEMAS;
const PAYLOAD_SCHEMA_FILES = ['cpr', 'payment'].map((name) => fileURLToPath(new URL(`../../profile/schemas/${name}.schema.json`, import.meta.url)));

let compiled: Readonly<Record<PayloadSchema, ValidateFunction>> | undefined;

/** The payload schemas, compiled on first use or read from the launcher's build (profile/kept-validators.ts): importing the checks costs no compilation. */
function payloadSchemas(): Readonly<Record<PayloadSchema, ValidateFunction>> {
  compiled ??= keptValidators({
    name: 'payloads',
    inputs: PAYLOAD_SCHEMA_FILES,
    options: { allErrors: false, strict: false },
    formats: fullFormats,
    validators: () => CPR_SCHEMAS,
  });
  return compiled;
}

/** Ajv's errorsText: each error as `data<path> <message>`, joined by commas. */
function errorsText(errors: ValidateFunction['errors']): string {
  return errors && errors.length > 0 ? errors.map((e) => `data${e.instancePath} ${e.message ?? ''}`).join(', ') : 'No errors';
}

/** What the CPR or Payment schema (profile/schemas/) finds wrong with a value; empty when it is valid. */
export function payloadSchemaErrors(schema: PayloadSchema, value: unknown): string[] {
  const validate = payloadSchemas()[schema];
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

const judgement = (passed: boolean, expected: unknown, actual: unknown, message: string): Judgement => ({ passed, expected, actual, message });

/** Base64 as RFC 4648 §4 writes it: the alphabet only (no line breaks, §3.1, §3.3), padded (§3.2), its pad bits zero (§3.5). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Test control's qr_png (PROFILE.md §12 "base64 PNG") in the form RFC 4648 gives base64, which a strict decoder takes. */
function base64Form(text: string): Judgement & { readonly check: string; readonly requirement: string } {
  const strict = BASE64.test(text) && Buffer.from(text, 'base64').toString('base64') === text;
  const where = /[^A-Za-z0-9+/=]/.exec(text);
  const seen = strict ? 'base64' : where ? `a ${JSON.stringify(where[0])} at character ${where.index}` : 'padding or pad bits RFC 4648 §3.2, §3.5 do not write';
  return { check: 'qr_png_base64', requirement: 'PRF-CTL-1', ...judgement(strict, 'base64 (RFC 4648 §4): the alphabet only, padded, pad bits zero', seen, 'PROFILE.md §12: qr_png is a base64 PNG') };
}

export function statusMatches(status: number | null, expected: unknown): boolean {
  if (status === null) return false;
  if (typeof expected === 'number') return status === expected;
  if (Array.isArray(expected)) return expected.includes(status);
  if (typeof expected === 'string' && /^[1-5]xx$/.test(expected)) return Math.floor(status / 100) === Number(expected[0]);
  return false;
}

function http(subject: unknown, check: string): HttpResult {
  const r = subject as Partial<HttpResult> | undefined;
  if (!r || !('status' in r)) throw new StepError('error', `check "${check}" needs an HTTP result; use "on:" to point it at one`);
  return r as HttpResult;
}

export const CHECK_IMPLEMENTATIONS: Readonly<Record<CheckName, Check>> = {
  status: (_ctx, arg, subject) => {
    const r = http(subject, 'status');
    return judgement(statusMatches(r.status, arg), arg, r.status ?? `no response (${r.error})`, `HTTP status ${r.status ?? 'none'}`);
  },

  not_status: (_ctx, arg, subject) => {
    const r = http(subject, 'not_status');
    return judgement(!statusMatches(r.status, arg), `not ${String(arg)}`, r.status ?? `no response (${r.error})`, `HTTP status ${r.status ?? 'none'}`);
  },

  problem: (_ctx, arg, subject) => {
    const r = http(subject, 'problem');
    const body = r.body as { code?: unknown } | undefined;
    const type = mediaType(r.headers);
    const code = typeof body === 'object' && body !== null ? body.code : undefined;
    // The code is the rule's (the spec names the error codes, §7.1); the document's form and status are the profile's.
    const passed = code === arg;
    const main = judgement(passed, { code: arg }, { content_type: type ?? null, code: code ?? null }, passed ? `problem ${String(arg)}` : `expected problem ${String(arg)}`);
    if (!isProblemCode(arg) || r.status === null || r.status < 400) return main;
    // PRF-ERR-1 judges the error the answer is: a problem document with the status §11 gives the code it carries (the expected one's when it carries none of §11's).
    const carried = isProblemCode(code) ? code : arg;
    const form = { content_type: 'application/problem+json', status: PROBLEM_STATUS[carried] };
    const seen = { content_type: type ?? null, status: r.status };
    const held = type === form.content_type && r.status === form.status;
    return { ...main, extra: [{ check: 'problem_form', requirement: PROBLEM_STATUS_RULE, ...judgement(held, form, seen, `PROFILE.md §11: an error is application/problem+json, and ${carried} has the status ${form.status}`) }] };
  },

  // An identifier from the changelog's past is answered with what changed since it (profile/version.ts).
  profile_id: (_ctx, arg) => {
    const notice = profileNotice(arg);
    return judgement(notice === undefined, PROFILE_ID, arg ?? null, notice ?? `profile ${PROFILE_ID}`);
  },

  content_type: (_ctx, arg, subject) => {
    const type = mediaType(http(subject, 'content_type').headers);
    return judgement(type === String(arg).toLowerCase(), arg, type ?? null, 'media type');
  },

  header: (_ctx, arg, subject) => {
    const a = Params.of('header', arg);
    const [name, equals, matches, absent] = [a.text('name'), a.text('equals', 'optional'), a.text('matches', 'optional'), a.boolean('absent')];
    const value = http(subject, 'header').headers[name.toLowerCase()];
    if (absent) return judgement(value === undefined, `no ${name} header`, value ?? null, `header ${name}`);
    if (equals !== undefined) return judgement(value === equals, equals, value ?? null, `header ${name}`);
    if (matches !== undefined) return judgement(value !== undefined && new RegExp(matches).test(value), `/${matches}/`, value ?? null, `header ${name}`);
    return judgement(value !== undefined, `a ${name} header`, value ?? null, `header ${name}`);
  },

  schema: (_ctx, arg, subject) => {
    const named = typeof arg === 'object' && arg !== null ? Params.of('schema', arg) : undefined;
    const value = named ? named.value('value') : bodyOf(subject);
    const name = named ? named.text('of') : String(arg);
    if (name in CPR_SCHEMAS) {
      const validate = payloadSchemas()[name as PayloadSchema];
      const ok = validate(value);
      return judgement(ok, `valid against ${name}.schema.json`, ok ? 'valid' : errorsText(validate.errors), `schema ${name}`);
    }
    const result = validateMessage(name as MessageKind, value);
    return judgement(result.ok, `valid against cashpack/${name}.schema.json`, result.ok ? 'valid' : result.errors.slice(0, 5), `schema ${name}`);
  },

  cpr_valid: (ctx, arg, subject, _written, own) => {
    const a = typeof arg === 'object' && arg !== null ? Params.of('cpr_valid', arg) : undefined;
    const windowSeconds = a?.integer('validity_seconds', 'optional');
    const rule = a?.text('rule', 'optional');
    const result = validateCpr(bodyOf(subject), windowSeconds === undefined ? {} : { validitySeconds: windowSeconds });
    const violations = result.ok ? [] : result.violations;
    if (rule !== undefined) {
      // Only the named rule: a defect another rule names is for that rule's own check.
      const broken = violations.filter((v) => v.requirement === rule);
      return judgement(broken.length === 0, `no violation of ${rule}`, broken.length === 0 ? 'none' : broken, `CPR rule ${rule} (spec §2, PROFILE.md §7)`);
    }
    // Each violation is charged to the rule it breaks (harness/cpr-charges.ts), and every other rule the validator judged held here.
    const role = ctx.scenario.role;
    const charged = chargeViolations(violations, role, own);
    const extra = cprRulesOf(role)
      .filter((requirement) => !own.includes(requirement))
      .map((requirement) => {
        const broken = charged.byRule.get(requirement);
        return { check: 'cpr_valid', requirement, ...judgement(broken === undefined, `no violation of ${requirement}`, broken ?? 'none', `CPR rule ${requirement} (spec §2, PROFILE.md §7)`) };
      });
    // Each own requirement is judged on the violations that name it, and on those no rule of this role can take.
    const unowned = charged.own.filter((v) => !own.includes(v.requirement));
    const ownJudgement = (requirement: string): Judgement => {
      const broken = charged.own.filter((v) => v.requirement === requirement || unowned.includes(v));
      return broken.length > 0
        ? judgement(false, 'a valid CPR', broken, 'CPR validity (spec §2, PROFILE.md §7)')
        : judgement(true, 'a valid CPR', result.ok ? 'valid' : `no violation of ${requirement}; the others are charged to the rules they break`, 'CPR validity (spec §2, PROFILE.md §7)');
    };
    const under = Object.fromEntries(own.map((requirement) => [requirement, ownJudgement(requirement)]));
    const main = judgement(charged.own.length === 0, 'a valid CPR', charged.own.length === 0 ? (result.ok ? 'valid' : 'no violation of its own rules') : charged.own, 'CPR validity (spec §2, PROFILE.md §7)');
    return { ...main, extra, under };
  },

  inline_decodes_to: (_ctx, arg) => {
    const a = Params.of('inline_decodes_to', arg);
    const [uri, value] = [a.value('uri'), a.value('value')];
    const parsed = parseDeliveryUri(uri);
    if (parsed.kind !== 'inline') return judgement(false, 'an inline URI', parsed.kind === 'error' ? parsed.reason : `a ${parsed.kind} URI`, 'inline URI decoding (spec §4.4, PROFILE.md §8.1)');
    let json: unknown;
    try {
      json = JSON.parse(parsed.json);
    } catch {
      return judgement(false, 'JSON', parsed.json, 'inline URI payload is JSON (spec §4.4)');
    }
    return judgement(isDeepStrictEqual(json, value), value, json, 'inline URI payload (spec §4.4)');
  },

  /**
   * The spec's form (std-cpr://<token>?endpoint=<url>, the url the payee's base
   * URL) is the check's own verdict; how the endpoint is written (PROFILE.md §8.1:
   * encodeURIComponent, a base URL without query, fragment or trailing slash) is
   * judged apart under PRF-URI-1. Both compare URIs, never one spelling of them.
   */
  delivery_uri: (_ctx, arg) => {
    const a = Params.of('delivery_uri', arg);
    const [uri, token, baseUrl] = [a.text('uri'), a.text('token'), a.text('base_url')];
    const c = compareTokenUri(uri, token, baseUrl);
    const seen = c.form.length === 0 ? uri : { uri, ...(c.endpoint !== undefined ? { endpoint: c.endpoint } : {}), differs: c.form };
    const main = judgement(c.form.length === 0, c.expected, seen, "the token URI carries the payee's token and base URL (spec §4.4, §4.1)");
    // Without an endpoint to read, only a broken base URL can be judged here.
    if (c.endpoint === undefined && c.encoding.length === 0) return main;
    const encoding = judgement(
      c.encoding.length === 0,
      { endpoint: encodeURIComponent(baseUrl) },
      c.encoding.length === 0 ? 'as PROFILE.md §8.1 says' : c.encoding,
      'PROFILE.md §8.1: an https base URL without query, fragment or trailing slash, percent-encoded by encodeURIComponent',
    );
    return { ...main, extra: [{ check: 'endpoint_encoding', requirement: ENDPOINT_ENCODING_RULE, ...encoding }] };
  },

  no_payer_data: (_ctx, _arg, subject) => {
    const found = findPayerMembers(bodyOf(subject));
    return judgement(found.length === 0, 'no payer, authorization or settlement members', found.length ? found : 'none', 'no payer data (spec §4.7.1)');
  },

  equals: (_ctx, arg, _subject, written) => {
    const { value, to } = compared('equals', arg);
    const passed = isDeepStrictEqual(value, to);
    return judgement(passed, to, value, passed ? 'values are equal' : comparison(written, brief(to), value, 'values are equal'));
  },

  not_equals: (_ctx, arg, _subject, written) => {
    const { value, to } = compared('not_equals', arg);
    const passed = !isDeepStrictEqual(value, to);
    return judgement(passed, `anything but ${JSON.stringify(to)}`, value, passed ? 'values differ' : comparison(written, `anything but ${brief(to)}`, value, 'values differ'));
  },

  matches: (_ctx, arg) => {
    const a = Params.of('matches', arg);
    const [value, pattern] = [a.value('value'), a.text('pattern')];
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, 'u');
    } catch (error) {
      // A pattern made from a template that does not compile is the scenario's defect, not the target's.
      throw new StepError('error', `matches: the pattern /${pattern}/ does not compile (${(error as Error).message})`, 'SCENARIO_INVALID');
    }
    return judgement(typeof value === 'string' && regex.test(value), `/${pattern}/`, value, 'matches');
  },

  one_of: (_ctx, arg) => {
    const a = Params.of('one_of', arg);
    const [value, allowed] = [a.value('value'), a.list('in')];
    return judgement(allowed.some((option) => isDeepStrictEqual(value, option)), { one_of: allowed }, value, 'one of the allowed values');
  },

  at_most: (_ctx, arg) => {
    const a = Params.of('at_most', arg);
    const [value, max] = [a.value('value'), a.value('max')];
    return judgement(Number(value) <= Number(max), `at most ${String(max)}`, value, 'upper bound');
  },

  signature_valid: async (ctx, arg) => {
    const a = Params.of('signature_valid', arg);
    const [value, type, key] = [a.value('value'), a.oneOf('type', MESSAGE_TYPES), a.key('key', 'optional')];
    const publicKey = key !== undefined ? ctx.key(key).publicKey : await operatorKey(ctx);
    const object = value as Record<string, unknown> | undefined;
    let ok = false;
    if (object && typeof object === 'object') {
      ok =
        type === 'cash-pack' ? verifyCashPack(object as unknown as CashPack, publicKey)
        : type === 'redemption-confirmation' ? verifyConfirmation(object as unknown as RedemptionConfirmation, publicKey)
        : verifyObject(type, object, publicKey);
    }
    return judgement(ok, `a ${type} signature valid under ${key ?? "the Operator's well-known key"}`, ok ? 'valid' : 'does not verify', 'signature (PROFILE.md §2.3)');
  },

  chain_digest: (_ctx, arg) => {
    const pack = arg as CashPack | undefined;
    let recomputed: string;
    try {
      recomputed = recomputeChainDigest(pack as CashPack);
    } catch (error) {
      return judgement(false, 'a recomputable chain', `cannot recompute: ${(error as Error).message}`, 'chain digest (PROFILE.md §3)');
    }
    return judgement(pack?.chain_digest === recomputed, recomputed, pack?.chain_digest ?? null, 'chain digest recomputed by the harness (PROFILE.md §3)');
  },

  exactly_one: (_ctx, arg, subject) => {
    const statuses = (subject as { statuses?: (number | null)[] } | undefined)?.statuses;
    if (!statuses) throw new StepError('error', 'exactly_one needs the result of a parallel step');
    const status = Params.of('exactly_one', arg).integer('status');
    const count = statuses.filter((s) => s === status).length;
    return judgement(count === 1, `exactly one ${status} of ${statuses.length}`, { [status]: count, statuses: tally(statuses) }, 'exactly one succeeds');
  },

  all: (_ctx, arg, subject) => {
    const result = subject as { statuses?: (number | null)[]; responses?: HttpResult[] } | undefined;
    if (!result?.statuses || !result.responses) throw new StepError('error', 'all needs the result of a parallel step');
    const a = Params.of('all', arg);
    const [status, problem] = [a.value('status') as number | string | number[], a.strings('problem')];
    const codes = result.responses.map((r) => (r.status !== null && r.status >= 400 ? ((r.body as { code?: unknown } | undefined)?.code ?? null) : null));
    const statusOk = result.statuses.every((s) => statusMatches(s, status));
    const problemOk = problem === undefined || result.responses.every((r, i) => r.status === null || r.status < 400 || problem.includes(codes[i] as string));
    return judgement(statusOk && problemOk, { status, ...(problem ? { problem } : {}) }, { statuses: tally(result.statuses), problems: tally(codes.filter((c) => c !== null) as never[]) }, 'all responses');
  },

  assume: (_ctx, arg) => {
    const { value, to } = compared('assume', arg);
    const a = Params.of('assume', arg);
    const [basis, reason] = [a.choice('basis', ['spec', 'policy', 'harness'] as const)!, a.text('reason')];
    if (!isDeepStrictEqual(value, to)) {
      const why = `${reason} (expected ${JSON.stringify(to)}, found ${JSON.stringify(value)})`;
      throw basis === 'harness' ? new StepError('skipped', why) : StepError.notApplicable(basis, why);
    }
    return { ...judgement(true, to, value, 'precondition'), precondition: true };
  },

  balance: async (ctx, arg) => {
    const a = Params.of('balance', arg);
    const [principal, redeemer] = [a.key('principal', 'optional'), a.key('redeemer', 'optional')];
    const actual = (await ACTION_IMPLEMENTATIONS.balance(ctx, new Params('balance', principal !== undefined ? { principal } : { redeemer }))) as Record<string, unknown>;
    const expected = Object.fromEntries(BALANCE_MEMBERS.filter((k) => a.has(k)).map((k) => [k, a.text(k)]));
    const seen = Object.fromEntries(Object.keys(expected).map((k) => [k, actual[k]]));
    return judgement(isDeepStrictEqual(expected, seen), expected, seen, `balance of ${principal ?? redeemer}`);
  },

  qr_decodes_to: (_ctx, arg) => {
    const a = Params.of('qr_decodes_to', arg);
    const [png, uri] = [a.text('png'), a.text('uri')];
    const decoded = decodeQrPng(Buffer.from(png, 'base64'));
    return { ...judgement(decoded === uri, uri, decoded ?? 'no QR code found', 'the QR image decodes to the URI (spec §4.4)'), extra: [base64Form(png)] };
  },

  qr_format: (_ctx, arg) => {
    const png = Params.of('qr_format', arg).text('png');
    const qr = inspectQrPng(Buffer.from(png, 'base64'));
    const expected = { modes: ['byte'], errorCorrection: 'M', quietZoneModules: '>= 4' };
    if (!qr) return judgement(false, expected, 'no QR code found', 'QR rendering (PROFILE.md §8.1)');
    const actual = { modes: qr.modes, errorCorrection: qr.errorCorrection, quietZoneModules: qr.quietZoneModules };
    const passed = qr.modes.every((m) => m === 'byte') && qr.modes.length > 0 && qr.errorCorrection === 'M' && qr.quietZoneModules >= 4;
    return judgement(passed, expected, actual, 'QR rendering (PROFILE.md §8.1)');
  },

  /**
   * What can be observed of unpredictability (the CSPRNG itself cannot): the
   * secret is none of the derivations anyone could compute from what is public,
   * and tokens made one after another are not near each other (a counter, a
   * clock): random 128-bit tokens differ in about half their bits, and fewer
   * than a quarter happens by chance about once in a billion.
   */
  not_derived: (_ctx, arg) => {
    const a = Params.of('not_derived', arg);
    const [value, from, others] = [a.value('value'), a.list('from'), a.list('others', 'optional') ?? []];
    const secret = String(value).toLowerCase();
    const found: string[] = [];
    for (const source of from.map(String)) {
      for (const [how, derived] of derivations(source)) {
        if (derived === secret || (secret.length >= 16 && (derived.startsWith(secret) || secret.startsWith(derived)) && derived.length >= 16)) found.push(`${how}(${JSON.stringify(source)})`);
      }
    }
    const near = others.map(String).filter((other) => other !== secret && differingBits(secret, other.toLowerCase()) < secret.length); // a quarter of 4 bits a hex digit
    const same = others.map(String).filter((other) => other.toLowerCase() === secret);
    const passed = found.length === 0 && near.length === 0 && same.length === 0;
    return judgement(
      passed,
      'a value not derived from public values, unlike the other tokens',
      passed ? 'none of the derivations tried' : { derived_as: found, equal_to_another: same, within_a_quarter_of_the_bits_of: near },
      'not derivable from public values (PROFILE.md §10: from a CSPRNG, which itself cannot be observed)',
    );
  },

  accepted: (_ctx, _arg, subject) => {
    const r = subject as { ok?: boolean; code?: string; message?: string } | undefined;
    return judgement(r?.ok === true, 'accepted', r?.ok ? 'accepted' : { code: r?.code, message: r?.message }, 'the paying application accepts');
  },

  /**
   * The spec asks that an invalid or unservable request is not processed (spec
   * §4.5.1, §4.6.1, §7.2): that, and that the application did not crash, is the
   * check's own verdict. How it says so is the profile's (PROFILE.md §8.3): the
   * code, a human-readable message, and with CPR_INVALID only, the violated
   * rules; those are judged apart under PRF-APP-1 and never fail a spec rule.
   */
  rejected: (_ctx, arg, subject) => {
    const r = subject as { ok?: boolean; crashed?: boolean; code?: string; message?: string; violations?: { requirement?: string; path?: unknown }[] } | undefined;
    const given = typeof arg === 'string' ? undefined : Params.of('rejected', arg);
    const expected = given === undefined ? { code: String(arg) } : { code: given.text('code', 'optional'), violation: given.text('violation', 'optional'), path: given.text('path', 'optional') };
    if (r?.crashed) return judgement(false, { rejected: true }, { crashed: r.message }, 'the paying application crashed instead of answering');
    const rejected = r?.ok === false;
    const main = judgement(rejected, { rejected: true }, rejected ? { rejected: true, code: r.code ?? null } : { rejected: false }, rejected ? 'the paying application rejects' : 'the paying application processed what it should have refused');
    if (!rejected) return main;
    const profile = (check: string, passed: boolean, want: unknown, seen: unknown, message: string) => ({ check, requirement: REJECTION_FORM_RULE, ...judgement(passed, want, seen, message) });
    const extra = [
      profile('rejection_message', typeof r.message === 'string' && r.message.trim().length >= 10, 'a human-readable message', r.message ?? null, 'PROFILE.md §8.3: a rejection carries a human-readable message'),
      ...(expected.code !== undefined ? [profile('rejection_code', r.code === expected.code, expected.code, r.code ?? null, `PROFILE.md §8.3: the rejection code is ${expected.code}`)] : []),
      // violations are asked for with CPR_INVALID only (PROFILE.md §8.3).
      ...(expected.violation !== undefined && r.code === 'CPR_INVALID'
        ? [
            profile(
              'rejection_violation',
              (r.violations ?? []).some((v) => v.requirement === expected.violation),
              { violations: [expected.violation] },
              { violations: (r.violations ?? []).map((v) => v.requirement ?? null) },
              'PROFILE.md §8.3: a CPR_INVALID rejection lists the registry ID of each broken rule',
            ),
          ]
        : []),
      // Where the rule broke, when the scenario knows it: "" for the document itself, or a text that is no JSON document.
      ...(expected.violation !== undefined && expected.path !== undefined && r.code === 'CPR_INVALID' && (r.violations ?? []).some((v) => v.requirement === expected.violation)
        ? [
            profile(
              'rejection_violation_at',
              (r.violations ?? []).some((v) => v.requirement === expected.violation && v.path === expected.path),
              { requirement: expected.violation, path: expected.path },
              (r.violations ?? []).filter((v) => v.requirement === expected.violation).map((v) => v.path ?? null),
              `PROFILE.md §8.3: the violation's path is the JSON Pointer of the offending member (${expected.path === '' ? '"" for the document itself, or a text that is no JSON document' : expected.path})`,
            ),
          ]
        : []),
      // Each violation's path names where in the document the rule broke (PROFILE.md §8.3): a JSON Pointer.
      ...(r.code === 'CPR_INVALID' && Array.isArray(r.violations) && r.violations.length > 0
        ? [
            profile(
              'rejection_violation_path',
              r.violations.every((v) => isJsonPointer(v?.path)),
              'every path a JSON Pointer (RFC 6901)',
              r.violations.map((v) => v?.path ?? null),
              'PROFILE.md §8.3: a violation\'s path is the JSON Pointer (RFC 6901) of the offending member, "" for the document itself',
            ),
          ]
        : []),
    ];
    return { ...main, extra };
  },
};

/** RFC 6901 §3: "" or a sequence of "/" reference tokens, "~" only as "~0" or "~1". */
function isJsonPointer(path: unknown): boolean {
  return typeof path === 'string' && /^(\/([^~/]|~[01])*)*$/u.test(path);
}

/** What anyone could compute from a public value, with the name of the computation. */
function derivations(source: string): [string, string][] {
  const variants: [string, string][] = [['value', source], ['digits', source.replace(/[^0-9a-fA-F]/g, '')], ['utf8-hex', Buffer.from(source, 'utf8').toString('hex')]];
  const at = Date.parse(source);
  if (Number.isFinite(at)) variants.push(['epoch-ms', String(at)], ['epoch-s', String(Math.floor(at / 1000))]);
  const out: [string, string][] = [];
  for (const [name, text] of variants) {
    out.push([name, text.toLowerCase()]);
    for (const hash of ['sha256', 'sha1', 'md5'] as const) out.push([`${hash}(${name})`, createHash(hash).update(text).digest('hex')]);
  }
  return out;
}

/** Bits in which two hex strings differ, over the shorter one; a non-hex character counts as 4. */
function differingBits(a: string, b: string): number {
  let bits = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = Number.parseInt(a[i]!, 16);
    const y = Number.parseInt(b[i]!, 16);
    if (Number.isNaN(x) || Number.isNaN(y)) bits += a[i] === b[i] ? 0 : 4;
    else for (let v = x ^ y; v !== 0; v >>= 1) bits += v & 1;
  }
  return bits;
}

function bodyOf(subject: unknown): unknown {
  const r = subject as Partial<HttpResult> | undefined;
  return r && typeof r === 'object' && 'status' in r && 'bytes' in r ? r.body : subject;
}

function tally(statuses: readonly (number | null)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of statuses) out[String(s ?? 'none')] = (out[String(s ?? 'none')] ?? 0) + 1;
  return out;
}
