// PROP-PAYEE-010: what a payee is asked to put in a request (PROFILE.md §12
// `POST /_control/payee/requests`), every member in every class of its kind:
// an input the profile allows is served exactly as asked (amounts beyond 2^53
// digit for digit, text outside ASCII, in NFD or with white space at its ends
// unchanged, extensions of any JSON member for member, nested as deep as
// I-JSON lets a CPR nest among them, strings that look like
// date-times, numbers or other types' words in extensions, values spelled as
// payer names in extensions, memo and
// display_name served as written (class json.lookalike), 140 code points of
// astral characters kept whole, a text of the least length, the empty memo
// among them, kept too, a memo or display_name of space characters alone, and
// one opening with a sign a spreadsheet reads as a formula, in every case;
// extensions from 2 KiB to 60 KiB, in every case); malformed input (an amount, a text or a hint the profile does
// not allow, an optional member sent as null, in every case) is refused with a problem document (PROFILE.md §11), and no input
// is ever served as an invalid CPR or one carrying payer data, at whatever depth
// of extensions (spec §4.7.1, §4.8; PROFILE.md §1, §7). The served CPR is judged
// by the profile's validator, with the payee's own validity window, and the
// inline URI the payee writes for it must carry that same CPR as UTF-8 JSON
// (spec §4.4, PROFILE.md §8.1), whatever text it holds; each case also asks
// for a request whose CPR falls anywhere around the inline URI's 2 048-byte
// bound, its text in characters of one to four UTF-8 bytes.
import fc from 'fast-check';
import { payeeRequestAllowed } from '../../../profile/control.ts';
import { MAX_DEPTH } from '../../../profile/ijson.ts';
import { MAX_INLINE_URI_BYTES, parseDeliveryUri, RAIL_HINTS, SUB_INTERFACES } from '../../../profile/cpr/index.ts';
import { cprRulesOf } from '../../cpr-charges.ts';
import { amountVariant, blankText, payerMemberName, jsonTextVariant, letterCaseVariant, lookalikeString, lookalikeValue, payerDataVariant, textVariant, type ClassValue, type FieldClassId } from '../../../generators/classes/index.ts';
import { cprExtensions, shapedExtensions } from '../../../generators/index.ts';
import type { ScenarioContext } from '../../scenarios/context.ts';
import { send } from '../../scenarios/http.ts';
import { fieldsOf } from '../fields.ts';
import { define, firstFailure, sameJson, servedCprDefect, SERVED_CPR_CHARGES } from '../support.ts';
import { payeeConfig } from './payee-config.ts';
import { problemDefects } from './problem.ts';
import type { Coverage, PropertyFailure } from '../types.ts';

const FILE = 'harness/properties/field-classes/payee-inputs.ts';
const PATH = '/_control/payee/requests';

type Doc = Record<string, unknown>;

interface Ask {
  readonly field: string;
  /** The member's class, or json.null-member: an optional member sent as null, which is no value of its type (a reader taking it for one left out serves it). */
  readonly class: FieldClassId | 'json.null-member';
  readonly input: Doc;
  readonly note: string;
  /** The body as sent, when it is not the input's JSON: escaped member names, a member twice, a byte order mark. */
  readonly text?: string;
}

/** Every (member, class) pair asked for; http.problem is judged on the refusals, which every case has (a duplicate member, a byte order mark). */
const TARGETS = fieldsOf('control:payee-request').flatMap((f) => f.classes.filter((cls) => cls !== 'http.problem').map((cls) => ({ field: f, cls })));

/**
 * An extension nested as deep as I-JSON lets a CPR nest (PROFILE.md §1: 32
 * levels, the CPR itself the first, its extensions the second), or less:
 * objects and arrays in turn, `levels` of them below the extensions object,
 * from one to the most, the most one time in three. A store or a check that
 * keeps extensions shallower than the profile refuses or cuts them.
 */
const deepExtensions: fc.Arbitrary<Doc> = fc.oneof(fc.constant(MAX_DEPTH - 2), fc.integer({ min: 1, max: MAX_DEPTH - 2 })).map((levels) => {
  let value: unknown = 'deepest';
  for (let level = levels; level >= 1; level--) value = level % 2 === 0 ? [value] : { [`l${level}`]: value };
  return { 'com.example.nested': value };
});

/**
 * Extensions whose values, not names, are words PROFILE.md §7.5 keeps out of
 * member names (payer, authorization, settlement, payer_…, one in four with a
 * capital first letter): a string alone, in
 * an array, or the value of a member of another name. Only a member's name
 * carries payer data; a check that searches the JSON text for those words
 * refuses a valid request.
 */
const payerWordValues: fc.Arbitrary<Doc> = fc
  .tuple(fc.oneof({ weight: 3, arbitrary: payerMemberName }, { weight: 1, arbitrary: payerMemberName.map((name) => `${name[0]!.toUpperCase()}${name.slice(1)}`) }), fc.constantFrom('alone', 'in-array', 'member-value'))
  .map(([word, where]) => ({ 'com.example.kind': where === 'alone' ? word : where === 'in-array' ? ['merchant', word] : { role: word } }));

// Extensions (any JSON: arrays, nulls, nested objects, one time in seven nested as deep as the profile allows, one in seven
// with values spelled as payer names, two in seven one of each shape a copy can lose: empties deep down, arrays out of
// order or with a repeat, members of built-in names and names near a payer's, an integer past 32 bits) one request in
// two, besides the member the class varies.
// A listed rail_hint one request in three, any the sub-interface takes: ON_CHAIN binds both ways, every other hint is
// advisory (PROFILE.md §7.4), so a hint usual for another sub-interface is asked for as often as its own. The base
// input stays one the profile allows: only the member a class varies may break a rule.
const base = fc.constantFrom(...SUB_INTERFACES).chain((sub_interface) =>
  fc.record(
    {
      sub_interface: fc.constant(sub_interface),
      amount: fc.bigInt({ min: 1n, max: 10n ** 9n }).map(String),
      extensions: fc.option(fc.oneof({ weight: 3, arbitrary: cprExtensions(2) }, { weight: 1, arbitrary: deepExtensions }, { weight: 1, arbitrary: payerWordValues }, { weight: 2, arbitrary: shapedExtensions }), { nil: undefined, freq: 2 }),
      rail_hint: fc.option(fc.constantFrom(...RAIL_HINTS.filter((hint) => (hint === 'ON_CHAIN') === (sub_interface === 'ON_CHAIN'))), { nil: undefined, freq: 2 }),
    },
    { requiredKeys: ['sub_interface', 'amount'] },
  ),
);

function ask(member: string, cls: FieldClassId): fc.Arbitrary<{ value: unknown; note: string }> {
  switch (cls) {
    case 'enum.case':
      return (member === 'sub_interface' ? fc.constantFrom(...SUB_INTERFACES) : fc.constantFrom(...RAIL_HINTS)).chain((value) => letterCaseVariant({ class: cls, value }));
    case 'amount.large':
    case 'amount.non-canonical':
      return amountVariant({ class: cls });
    case 'amount.bound':
      return fc.constantFrom(1n, 10n ** 78n - 1n).chain((bound) => amountVariant({ class: cls, bound }));
    case 'text.non-ascii':
    case 'text.length':
    case 'text.normalisation':
      return textVariant({ class: cls, min: member === 'display_name' ? 1 : 0, max: 140 });
    case 'payer.depth':
      return payerDataVariant().map((v) => ({ value: v.value.extensions, note: v.note }));
    case 'json.lookalike':
      if (member !== 'extensions') return lookalikeString.map((value) => ({ value, note: `text that looks like another type: ${JSON.stringify(value)}` }));
      return fc.dictionary(fc.constantFrom('std:when', 'std:count', 'com.example.pos.meta'), lookalikeValue, { minKeys: 1, maxKeys: 3, noNullPrototype: true }).map((value) => ({ value, note: `strings that look like another type: ${JSON.stringify(value).slice(0, 80)}` }));
    default:
      throw new Error(`no payee input for ${member} in ${cls}`);
  }
}

/** Characters of one, two, three and four UTF-8 bytes (and ASCII and two-byte mixed): what a bound counted in UTF-16 units or characters misjudges. */
const WIDTHS = ['a', 'é', '€', '支', '😀', 'aé'] as const;

/** `n` code points of `unit` repeated. */
const textOf = (unit: string, n: number): string => [...unit.repeat(n)].slice(0, n).join('');

/**
 * A request whose CPR's UTF-8 JSON falls around the inline URI's 2 048-byte
 * bound (PROFILE.md §8.1: 1 523 bytes of JSON): 700 to 1 600 bytes of text in
 * one width of character, shared between a memo and a display_name (up to 140
 * code points each) and an extension text. In a width over one byte such a
 * CPR is over the bound by its bytes and under it by its UTF-16 units or
 * characters. Its inline URI is judged as every other (inlineDefect): present,
 * at most 2 048 bytes and the same CPR.
 */
const nearInlineBound: fc.Arbitrary<Ask> = fc
  .record({ sub: fc.constantFrom(...SUB_INTERFACES), unit: fc.constantFrom(...WIDTHS), bytes: fc.integer({ min: 700, max: 1600 }), memoAt: fc.integer({ min: 0, max: 140 }), nameAt: fc.integer({ min: 1, max: 140 }) })
  .map(({ sub, unit, bytes, memoAt, nameAt }): Ask => {
    const perCodePoint = Buffer.byteLength(unit) / [...unit].length;
    const total = Math.max(1, Math.round(bytes / perCodePoint));
    const memo = Math.min(memoAt, total);
    const name = Math.min(nameAt, Math.max(1, total - memo));
    const note = Math.max(0, total - memo - name);
    const input: Doc = { sub_interface: sub, display_name: textOf(unit, name), extensions: { 'com.example.note': textOf(unit, note) } };
    if (memo > 0) input.memo = textOf(unit, memo);
    return { field: 'control:payee-request/memo', class: 'text.non-ascii', input, note: `a ${sub} request with memo, display_name and an extension text of "${unit}" (${memo}, ${name} and ${note} code points, about ${bytes} bytes), near the inline bound` };
  });

/** The memo at its least, the empty text, in every case (a copy by the memo's truthiness drops it), on a generated request. */
const emptyMemo: fc.Arbitrary<Ask> = base.map((input) => ({
  field: 'control:payee-request/memo',
  class: 'text.length',
  input: { ...input, memo: '' },
  note: `memo the empty text (0 code points, the least), a ${input.sub_interface} request${input.rail_hint !== undefined ? ` hinted ${input.rail_hint}` : ''}`,
}));

/** memo or display_name of space characters alone, in every case (a "not blank" check refuses it; the profile counts code points only), on a generated request. */
const blankName: fc.Arbitrary<Ask> = fc.tuple(base, fc.constantFrom('memo', 'display_name'), blankText({ min: 1, max: 140 })).map(([input, member, text]) => ({
  field: `control:payee-request/${member}`,
  class: 'text.non-ascii',
  input: { ...input, [member]: text.value },
  note: `${member} ${text.note}, a ${input.sub_interface} request`,
}));

/**
 * memo or display_name opening with a character a spreadsheet reads as the
 * start of a formula (=, +, - or @, or a tab or carriage return, OWASP's list:
 * an export's guard prefixes an apostrophe), up to 140 code points and at 140
 * one time in three, in every case: served as written (PROFILE.md §7.1: any
 * string of at most 140 code points).
 */
const formulaLead: fc.Arbitrary<Ask> = fc
  .tuple(base, fc.constantFrom('memo', 'display_name'), fc.constantFrom('=', '+', '-', '@', '\t', '\r'), fc.oneof(fc.constant(140), fc.integer({ min: 1, max: 140 }), fc.integer({ min: 1, max: 140 })), fc.stringMatching(/^[A-Za-z0-9 %(),.:;]{139}$/))
  .map(([input, member, sign, length, rest]) => ({
    field: `control:payee-request/${member}`,
    class: 'json.lookalike',
    input: { ...input, [member]: `${sign}${rest}`.slice(0, length) },
    note: `${member} of ${length} code point(s) opening with ${JSON.stringify(sign)}, which a spreadsheet reads as a formula`,
  }));

/**
 * The most bytes of extension text asked for: what PROFILE.md §1's 65 536-byte
 * request body holds beside the rest of the input, with room left for the
 * served CPR's other members within the 65 536 bytes a paying application
 * retrieves (§8.3).
 */
const LARGEST_EXTENSION_BYTES = 60 * 1024;

/**
 * Extensions of a generated size, from 2 KiB to LARGEST_EXTENSION_BYTES of
 * text in one member (PROFILE.md §1 bounds the request body at 65 536 bytes,
 * and nothing else), the largest one time in three, in every case: taken and
 * served as written, by token (no inline URI holds it). A payee's own bound
 * anywhere below the profile's shows.
 */
const largeExtensions: fc.Arbitrary<Ask> = fc.tuple(base, fc.oneof(fc.constant(LARGEST_EXTENSION_BYTES), fc.integer({ min: 2048, max: LARGEST_EXTENSION_BYTES }), fc.integer({ min: 2048, max: LARGEST_EXTENSION_BYTES })), fc.constantFrom('x', 'é', '€')).map(([input, bytes, unit]) => ({
  field: 'control:payee-request/extensions',
  class: 'json.lookalike',
  input: { ...input, extensions: { 'com.example.large': unit.repeat(Math.floor(bytes / Buffer.byteLength(unit))) } },
  note: `extensions of about ${bytes} bytes (one member of ${JSON.stringify(unit)} repeated)`,
}));

/** An optional member sent as JSON null, in every case: no amount, text, hint or object, so malformed (PROFILE.md §11, §12), never read as a member left out. */
const nullMember: fc.Arbitrary<Ask> = fc.tuple(base, fc.constantFrom('amount', 'memo', 'display_name', 'rail_hint', 'extensions')).map(([input, member]) => ({
  field: `control:payee-request/${member}`,
  class: 'json.null-member',
  input: { ...input, [member]: null },
  note: `${member} null, a ${input.sub_interface} request`,
}));

/**
 * Three more malformed amounts a case, of class amount.non-canonical: its
 * twelve forms are misread in different ways (a reader that takes the integer
 * a text names takes "0250", "+5" and " 5"), and one a case meets each seldom.
 */
const moreAmounts: fc.Arbitrary<Ask[]> = fc.array(fc.tuple(base, amountVariant({ class: 'amount.non-canonical' })), { minLength: 3, maxLength: 3 }).map((drawn) =>
  drawn.map(([input, v]): Ask => ({ field: 'control:payee-request/amount', class: 'amount.non-canonical', input: { ...input, amount: v.value }, note: `amount ${v.note}` })),
);

const asks: fc.Arbitrary<Ask[]> = fc.tuple(
  ...TARGETS.map(({ field, cls }) =>
    fc.tuple(base, field.pointer === '' ? fc.constant(undefined) : ask(field.pointer.slice(1), cls)).chain(([input, v]) => {
      if (field.pointer === '') {
        // The body itself, written as the class says: escaped member names (the same members), a member twice or a byte order mark (not I-JSON).
        return jsonTextVariant({ class: cls as 'json.escaped-name' | 'json.duplicate' | 'json.bom', value: input }).map((text): Ask => ({ field: field.id, class: cls, input, note: (text as ClassValue<string>).note, text: text.value as string }));
      }
      const member = field.pointer.slice(1);
      const hinted = member !== 'rail_hint' && input.rail_hint !== undefined ? ` (a ${input.sub_interface} request hinted ${input.rail_hint})` : '';
      return fc.constant<Ask>({ field: field.id, class: cls, input: { ...input, [member]: v!.value }, note: `${member} ${v!.note}${hinted}` });
    }),
  ),
  nearInlineBound,
  emptyMemo,
  blankName,
  formulaLead,
  largeExtensions,
  nullMember,
  moreAmounts,
).map((all) => all.flat());

async function judge(ctx: ScenarioContext, a: Ask, validity: number): Promise<PropertyFailure | undefined> {
  const where = `asked ${a.note}`;
  const body = a.text ?? JSON.stringify(a.input);
  const created = await send(ctx, 'payee', { method: 'POST', path: PATH, headers: { 'content-type': 'application/json' }, body });
  // A body that is not I-JSON (PROFILE.md §1) is refused; escaped member names are the same members.
  const iJson = a.text === undefined || a.class === 'json.escaped-name';
  const ok = payeeRequestAllowed(a.input) && iJson;
  if (created.status === null || created.status >= 500) return { expected: ok ? 201 : 'a 4xx refusal', actual: created.status, message: `${where}: the payee failed`, requirements: ['PRF-CTL-1'] };
  if (created.status >= 400) {
    if (ok) return { expected: 201, actual: { status: created.status, body: created.body }, message: `${where}: a request the profile allows was refused`, requirements: a.text === undefined ? ['PRF-CTL-1'] : ['PRF-JSON-1', 'PRF-CTL-1'] };
    // A refusal is a problem document like every error (PROFILE.md §11).
    const defects = problemDefects(created);
    return defects.length === 0 ? undefined : { expected: 'application/problem+json', actual: { status: created.status, defects }, message: `${where}: the refusal is not a problem document`, requirements: ['PRF-ERR-1'] };
  }
  if (!iJson) return { expected: 'a 4xx refusal: not I-JSON', actual: created.status, message: `${where}: a body that is not I-JSON was taken`, requirements: ['PRF-JSON-1'] };
  // Created: 201 (PROFILE.md §12), as every test-control creation; the setup steps take any 2xx, and only this check holds to it.
  if (ok && created.status !== 201) return { expected: 201, actual: { status: created.status, body: created.body }, message: `${where}: a request created, answered ${created.status} where PROFILE.md §12 gives 201`, requirements: ['PRF-CTL-1'] };
  const token = (created.body as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string') return { expected: 'a token', actual: created.body, message: `${where}: no token`, requirements: ['PRF-CTL-1'] };
  const served = await send(ctx, 'payee', { method: 'GET', path: `/cpr/${token}` });
  const defect = servedCprDefect(served, ['CPR-PAYER-1', 'PRF-PAYER-1'], validity);
  if (defect) return { ...defect, message: `${where}: ${defect.message}` };
  // Taken and served valid, a malformed input was read as another (an amount "0250" served as 250, say): PROFILE.md §11, malformed input is a 4xx.
  // Extensions carrying payer data are another matter: served without it, the request holds no payer data, which is all §7.5 asks.
  if (!ok) return a.class === 'payer.depth' ? undefined : { expected: 'a 4xx refusal: the profile does not allow this input', actual: { status: created.status, served: served.body }, message: `${where}: malformed input was taken`, requirements: ['PRF-CTL-1'] };
  const cpr = served.body as Doc;
  const value = cpr.value as Doc;
  // A text at its bound served at another length breaks the length rule; served otherwise at its length, only the control's.
  const lengthRule = (asked: unknown, got: unknown): string[] => (a.class === 'text.length' && typeof asked === 'string' && (typeof got !== 'string' || [...got].length !== [...asked].length) ? ['PRF-LEN-1'] : []);
  const name = (cpr.payee as Doc).display_name;
  const carried: [string, unknown, unknown, string[]][] = [
    ['amount', a.input.amount, value.amount, ['PRF-AMT-1', 'PRF-CTL-1']],
    ['memo', a.input.memo, cpr.memo, ['PRF-CTL-1', ...lengthRule(a.input.memo, cpr.memo)]],
    ['display_name', a.input.display_name, name, ['PRF-CTL-1', ...lengthRule(a.input.display_name, name)]],
    ['rail_hint', a.input.rail_hint, cpr.rail_hint, ['PRF-CTL-1']],
    ['extensions', a.input.extensions, cpr.extensions, ['PRF-CTL-1']],
  ];
  const differs = carried.find(([, asked, got]) => asked !== undefined && !sameJson(asked, got));
  if (differs) return { expected: differs[1], actual: differs[2], message: `${where}: ${differs[0]} not served as asked`, requirements: differs[3] };
  return inlineDefect(cpr, (created.body as { inline_uri?: unknown }).inline_uri, where);
}

/** The longest an inline URI of `cpr` can honestly be: its JSON without white space, every character outside ASCII and every solidus escaped. */
function longestInlineBytes(cpr: unknown): number {
  const escaped = JSON.stringify(cpr).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/\//g, '\\/');
  return 'std-cpr://inline/'.length + Math.ceil((escaped.length * 4) / 3);
}

/**
 * The inline URI of the request created, as the same CPR the token serves
 * (spec §4.4, PROFILE.md §8.1): strict base64url of its UTF-8 JSON, at most
 * 2 048 bytes; absent only for a CPR whose JSON cannot fit (judged only when
 * no way of writing it could: every character outside ASCII escaped).
 */
function inlineDefect(served: Doc, inline: unknown, where: string): PropertyFailure | undefined {
  if (inline === undefined) {
    const longest = longestInlineBytes(served);
    return longest <= MAX_INLINE_URI_BYTES ? { expected: 'an inline_uri', actual: 'none', message: `${where}: no inline URI for a request whose inline form is at most ${longest} bytes`, requirements: ['PRF-INLINE-1'] } : undefined;
  }
  const parsed = parseDeliveryUri(inline);
  if (parsed.kind === 'error') {
    const requirements = /bytes/.test(parsed.reason) ? ['PRF-INLINE-1'] : /base64url/.test(parsed.reason) ? ['PRF-B64-1'] : ['DLV-INLINE-1', 'PRF-INLINE-1'];
    return { expected: 'std-cpr://inline/<base64url of the CPR\'s UTF-8 JSON>', actual: { inline_uri: inline, reason: parsed.reason }, message: `${where}: the inline URI does not decode`, requirements };
  }
  if (parsed.kind !== 'inline') return { expected: 'an inline URI', actual: inline, message: `${where}: inline_uri is a ${parsed.kind} URI`, requirements: ['DLV-INLINE-1'] };
  let decoded: unknown;
  try {
    decoded = JSON.parse(parsed.json);
  } catch {
    return { expected: 'JSON', actual: parsed.json.slice(0, 300), message: `${where}: the inline URI's payload is not JSON`, requirements: ['DLV-INLINE-1'] };
  }
  return sameJson(decoded, served) ? undefined : { expected: served, actual: decoded, message: `${where}: the inline URI carries another CPR than the token serves`, requirements: ['DLV-INLINE-1', 'PRF-INLINE-1'] };
}

export const PAYEE_INPUTS = define<readonly Ask[]>({
  id: 'PROP-PAYEE-010',
  title: 'what the payee is asked to serve is served exactly (amounts beyond 2^53, text outside ASCII, NFD, at 140 code points or the least, extension strings that look like dates or numbers) or refused with a problem document, never as an invalid CPR or with payer data at any depth',
  requirements: ['PRF-CTL-1', 'PRF-AMT-1', 'PRF-LEN-1', 'PRF-JSON-1', 'PRF-ERR-1', 'CPR-PAYER-1', 'PRF-PAYER-1', 'CPR-MEMO-1', 'CPR-VAL-2', 'TOK-GET-1', 'DLV-INLINE-1', 'PRF-INLINE-1', 'PRF-B64-1'],
  charges: () => [...cprRulesOf('payee'), ...SERVED_CPR_CHARGES],
  level: 'PROFILE',
  role: 'payee',
  sections: ['PROFILE §12', 'PROFILE §1', 'PROFILE §7', '§4.7.1', '§4.8'],
  needs: ['provision'],
  defaultRuns: 20,
  caseWeight: 5,
  file: FILE,
  covers: [...TARGETS.map(({ field, cls }): Coverage => ({ field: field.id, class: cls })), { field: 'control:payee-request', class: 'http.problem' }],
  arbitrary: () => asks,
  async check(ctx, all) {
    const { validitySeconds: validity } = await payeeConfig(ctx);
    return firstFailure(ctx, all, 4, (a) => judge(ctx, a, validity));
  },
});
