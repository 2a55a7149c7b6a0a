// What the properties share: the paying application's answers (a crash is an
// answer no property accepts), the derivation context, and how a failure reads.
import { findPayerMembers, unknownRailHint, validateCpr } from '../../profile/cpr/index.ts';
import { parseIJson } from '../../profile/ijson.ts';
import { canonicalJson } from '../../profile/jcs.ts';
import type { AppResult, CprInput } from '../adapters/types.ts';
import { violatedRules } from '../cpr-charges.ts';
import { mediaType } from '../media-type.ts';
import { appCall } from '../scenarios/actions/index.ts';
import type { HttpResult, ScenarioContext } from '../scenarios/context.ts';
import type { PropertyDefinition, PropertyFailure } from './types.ts';

/**
 * CPRs for the paying application are dated far ahead: a paying app decides
 * expiry by its own clock, which the harness cannot see (the embedded one reads
 * the reference's clock, which scenarios move forward), and expiry has its own
 * properties and scenarios.
 */
export const FUTURE = Date.UTC(2099, 0, 1);

/** A derivation context: payer, rail and authorization come from it, never from the CPR (spec §2.6). */
export const CONTEXT = {
  payer: { id: 'payer-under-test', name: 'A. Payer' },
  rail: { kind: 'test-rail', network: 'loopback' },
  authorization: { kind: 'test-authorization', proof: 'not-a-real-proof' },
  now: '2099-01-01T00:00:00Z',
};

/** The paying application's answer; a crash is an answer no property accepts (actions/app-call.ts appCall). */
export type Answer = AppResult | { readonly ok: false; readonly crashed: true; readonly code: 'CRASHED'; readonly message: string };

export const read = (ctx: ScenarioContext, input: CprInput): Promise<Answer> => appCall(() => ctx.app().read(input));
export const derive = (ctx: ScenarioContext, cpr: unknown, context: Parameters<ReturnType<ScenarioContext['app']>['derive']>[1]): Promise<Answer> =>
  appCall(() => ctx.app().derive(cpr, context));
export const crashed = (result: Answer): result is Extract<Answer, { crashed: true }> => 'crashed' in result;

export function crash(result: Extract<Answer, { crashed: true }>, expected: unknown, requirements?: readonly string[]): PropertyFailure {
  return { expected, actual: { crashed: result.message }, message: 'the paying application crashed instead of answering', ...(requirements ? { requirements } : {}) };
}

export function rejectionFailure(result: AppResult, expected: unknown): PropertyFailure {
  return { expected, actual: result.ok ? 'accepted' : { code: result.code, message: result.message, violations: result.violations }, message: 'the paying application answered otherwise' };
}

/** A typed definition in the untyped catalogue. */
export const define = <T>(def: PropertyDefinition<T>): PropertyDefinition => def as unknown as PropertyDefinition;

/**
 * `check` of every item, up to `width` at a time; the first failure in item
 * order (so a case fails the same way however the answers interleave).
 *
 * Once an item of a case has failed, fast-check only shrinks that case: each
 * candidate is judged on the item that failed alone (the others were judged
 * and held, and a candidate that holds there is simply not kept), so a
 * shrinking step costs one item, not the whole case.
 */
export async function firstFailure<I>(ctx: ScenarioContext, items: readonly I[], width: number, check: (item: I) => Promise<PropertyFailure | undefined>): Promise<PropertyFailure | undefined> {
  const focus = focused.get(ctx);
  if (focus !== undefined && focus < items.length) return check(items[focus]!);
  const results: (PropertyFailure | undefined)[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await check(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  const failed = results.findIndex((r) => r !== undefined);
  if (failed >= 0) focused.set(ctx, failed);
  return failed >= 0 ? results[failed] : undefined;
}

/** The item of the case being shrunk, per run of a property (one ScenarioContext each). */
const focused = new WeakMap<ScenarioContext, number>();

/** Whether two JSON values are the same value (RFC 8785 forms equal); a value JCS cannot write (a lone surrogate) equals nothing. */
export function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a ?? null) === canonicalJson(b ?? null);
  } catch {
    return false;
  }
}

/** The rules a refusal of a valid CPR is charged to (refusalOf). */
export const REFUSAL_RULES: readonly string[] = ['DRV-VALID-1', 'CPR-EXT-1', 'SUB-OPEN-1'];

/** An open-list code of the spec's own examples, for each open-list field (spec §2.5). */
const LISTED_CODES = { key_type: 'CPF', routing_code_type: 'ABA' } as const;

type Doc = Record<string, unknown>;

/**
 * What the application's refusal of a valid CPR is charged to, found by
 * difference. When it refuses the CPR read on its own: read again without its
 * extensions and accepted, it did not ignore them (CPR-EXT-1); with its
 * open-list codes replaced by listed ones and accepted, it closed the list
 * (SUB-OPEN-1); else it refused a valid CPR (DRV-VALID-1). When it accepts the
 * CPR read on its own, the refusal is of what the property added (a context,
 * an inline form): `beyond`. Each difference is one more read, made only for
 * a refusal.
 */
export async function refusalOf(ctx: ScenarioContext, value: unknown, beyond: readonly string[]): Promise<string[]> {
  const cpr = value as Doc;
  const accepts = async (doc: Doc) => {
    const again = await read(ctx, { kind: 'object', value: doc });
    return !crashed(again) && again.ok;
  };
  if (beyond.length > 0 && (await accepts(cpr))) return [...beyond];
  if (cpr.extensions !== undefined) {
    const { extensions: _extensions, ...without } = cpr;
    if (await accepts(without)) return ['CPR-EXT-1'];
  }
  const address = ((cpr.payee as Doc | undefined)?.rail_address ?? {}) as Doc;
  const open = (Object.keys(LISTED_CODES) as (keyof typeof LISTED_CODES)[]).filter((field) => typeof address[field] === 'string' && address[field] !== LISTED_CODES[field]);
  if (open.length > 0) {
    const listed = Object.fromEntries(open.map((field) => [field, LISTED_CODES[field]]));
    const mirrored = Object.fromEntries(open.filter((field) => field in cpr).map((field) => [field, LISTED_CODES[field]]));
    if (await accepts({ ...cpr, ...mirrored, payee: { ...(cpr.payee as Doc), rail_address: { ...address, ...listed } } })) return ['SUB-OPEN-1'];
  }
  return ['DRV-VALID-1'];
}

/**
 * The first defect of a payee's answer to the first retrieval of a request,
 * each charged to the rule it breaks: another status or media type
 * (TOK-GET-1), payer members (`payerRules`), a violation of the rule
 * validateCpr names (one no payee rule names: TOK-GET-1, the retrieval
 * returns a CPR). `validitySeconds`: the payee's window, when it is known.
 */
export function servedCprDefect(served: HttpResult, payerRules: readonly string[], validitySeconds?: number): PropertyFailure | undefined {
  if (served.status !== 200) return { expected: 200, actual: served.status, message: 'the first retrieval did not return the CPR', requirements: ['TOK-GET-1'] };
  if (mediaType(served.headers) !== 'application/json') return { expected: 'application/json', actual: served.headers['content-type'] ?? null, message: 'the CPR was served in another media type', requirements: ['TOK-GET-1'] };
  // Its bytes as sent, not as a lenient decoder reads them (one that drops a byte order mark, or mends bad UTF-8).
  try {
    parseIJson(served.bytes);
  } catch (error) {
    return { expected: 'I-JSON: UTF-8 without a byte order mark, no duplicate member names, no lone surrogates (PROFILE.md §1)', actual: (error as Error).message, message: 'the CPR was served as a text that is not I-JSON', requirements: ['PRF-JSON-1', 'TOK-GET-1'] };
  }
  const payer = findPayerMembers(served.body);
  if (payer.length > 0) return { expected: 'no payer members', actual: payer.map((p) => p.path), message: 'the served CPR carries payer data', requirements: payerRules };
  const valid = validateCpr(served.body, validitySeconds === undefined ? {} : { validitySeconds });
  if (!valid.ok) return { expected: 'a valid CPR', actual: valid.violations, message: 'the served CPR is not valid', requirements: violatedRules(valid.violations, 'payee', ['TOK-GET-1']) };
  // A paying application reads any rail_hint; a payee sends only the listed ones (PROFILE.md §7.1), and its test
  // control provisions no request with another (§12): the rule of the CPR, and the control that made it so.
  const hint = unknownRailHint(served.body);
  return hint === undefined ? undefined : { expected: 'a listed rail_hint (PROFILE.md §7.1: a payee sends only those)', actual: (served.body as { rail_hint?: unknown }).rail_hint, message: `the served CPR's ${hint.message}`, requirements: [hint.requirement, 'PRF-CTL-1'] };
}

/** What servedCprDefect can charge beside the CPR rules that bind a payee: a property that judges with it lists them among its charges. */
export const SERVED_CPR_CHARGES: readonly string[] = ['CPR-RAIL-1', 'PRF-CTL-1'];

/**
 * The paths of a CPR_INVALID rejection's violations of `rule` that point nowhere it
 * could have broken (PROFILE.md §8.3: the JSON Pointer, RFC 6901, of the offending
 * member): not a pointer; or one whose tokens, unescaped ("~1" is "/", "~0" is "~"),
 * leave the document before the last (which may name a missing member) and that is
 * neither `where` (the place the rule was broken) nor above or below it. A member
 * named beneath a missing one where the rule broke is allowed; an app that writes a
 * member name's "/" or "~" unescaped points elsewhere.
 */
export function unlocatedPaths(doc: unknown, violations: readonly unknown[], rule: string, where: string): unknown[] {
  const inLine = (path: string) => path === where || path.startsWith(`${where}/`) || where.startsWith(`${path}/`) || path === '';
  return violations
    .filter((v) => (v as { requirement?: unknown } | null)?.requirement === rule)
    .map((v) => (v as { path?: unknown }).path)
    .filter((path) => !isPointer(path) || !(locates(doc, path) || inLine(path)));
}

const isPointer = (path: unknown): path is string => typeof path === 'string' && /^(\/([^~/]|~[01])*)*$/u.test(path);

function locates(doc: unknown, path: string): boolean {
  const tokens = path.split('/').slice(1).map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < node.length) node = node[Number(token)];
    else if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.hasOwn(node, token)) node = (node as Record<string, unknown>)[token];
    else return false;
  }
  return tokens.length === 0 || (typeof node === 'object' && node !== null);
}
