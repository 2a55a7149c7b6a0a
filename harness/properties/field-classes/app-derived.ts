// PROP-APP-012: the derived Payment (PROFILE.md §9) copies what it must from
// the CPR and the derivation context, unchanged, and adds or drops nothing:
// every optional member of every sub-interface present, or any of them, memos and names in NFD
// and outside ASCII, a memo or remittance_info present and empty, EVM addresses in every letter case, amounts beyond 2^53,
// payer, rail and authorization of any shape. The oracle is the mapping of
// spec §4.5 as PROFILE.md §9 writes it, and the Payment schema. Each request is
// then derived again with a supported_rails of the context (none at all, or
// any of the listed rails): refused RAIL_UNSUPPORTED exactly when its hinted
// rail is a listed one other than OPEN that the list leaves out (spec §4.6.1);
// a hint none of the listed values (one request in three) is no preference,
// whatever the list holds (PROFILE.md §8.3). Derived a third time without a
// supported_rails, it is a Payment again: what one derivation's context says
// is not kept for the next. And derived with a context whose rail, payer or
// authorization is null, and with one that has none, a Payment (where one
// comes of it) has that member null or absent, never filled in (the request's
// rail_hint for a rail, an empty proof for an authorization).
import fc from 'fast-check';
import { isUuid } from '../../../profile/uuid.ts';
import { otherFields, SUB_INTERFACES, validateCpr, ZERO_ACQUIRER_ID, type SubInterface } from '../../../profile/cpr/index.ts';
import { isRailHint, RAIL_HINT_SUB_INTERFACE, RAIL_HINTS } from '../../../profile/cpr/fields.ts';
import { validCpr } from '../../../generators/index.ts';
import { BUILT_IN_NAMES } from '../../../generators/parts/built-in-names.ts';
import { amountVariant, textVariant, type ClassValue } from '../../../generators/classes/index.ts';
import { payloadSchemaErrors } from '../../scenarios/checks.ts';
import { fieldInventory } from '../fields.ts';
import { CONTEXT, crashed, define, derive, firstFailure, FUTURE, refusalOf, REFUSAL_RULES, sameJson as same } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';

const FILE = 'harness/properties/field-classes/app-derived.ts';

type Doc = Record<string, unknown>;

interface Derivation {
  readonly sub: SubInterface;
  readonly cpr: Doc;
  readonly context: Doc;
  readonly notes: readonly string[];
  /** The supported_rails of the second derivation. */
  readonly rails: readonly string[];
}

/** Text classes each case writes into memo and display_name, and where. */
const TEXT_TARGETS = [
  ['/memo', 'text.normalisation'],
  ['/memo', 'text.non-ascii'],
  ['/payee/display_name', 'text.normalisation'],
  ['/payee/display_name', 'text.non-ascii'],
] as const;

const COVERS: Coverage[] = [
  ...fieldInventory().filter((f) => f.classes.includes('derived.exact')).map((f) => ({ field: f.id, class: 'derived.exact' as const })),
  ...TEXT_TARGETS.map(([pointer, cls]) => ({ field: `cpr${pointer}`, class: cls })),
  { field: 'cpr/value/amount', class: 'amount.large' },
];

/**
 * rail_hint values none of the eight (PROFILE.md §7.4): other rails, a listed one in other letters or words, any
 * upper-case name, a name every JavaScript object has (a lookup of the listed values in a plain object finds it).
 */
const UNLISTED_HINT = fc
  .oneof(
    { weight: 1, arbitrary: fc.constantFrom('FEDNOW', 'RTP', 'BACS', 'FASTER_PAYMENTS', 'ZELLE', 'CARD', 'SEPA', 'SEPA_INSTANT', 'PIX_QR') },
    { weight: 1, arbitrary: fc.constantFrom(...RAIL_HINTS).map((hint) => hint.toLowerCase()) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Z][A-Z0-9_]{1,14}$/) },
    { weight: 2, arbitrary: fc.constantFrom(...BUILT_IN_NAMES) },
  )
  .filter((hint) => !isRailHint(hint));

/**
 * A payer, rail or authorization: spec §2.6 types them as the application's own
 * (Participant, ExecutionContext, AuthorizationProof), so an object one time in
 * two, and otherwise a value of another JSON type (a proof as a string, a rail as
 * a number, an array): a copy made by spreading an object turns each into another.
 */
const opaque = fc.oneof(
  fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }),
  fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.integer(), fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 3 })),
);

/** The CPR's texts whose least length is the empty text (PROFILE.md §7.2, §7.3): carried present and empty, never dropped for it. */
const EMPTY_TEXTS = ['memo', 'remittance_info'] as const;

/**
 * One derivation per sub-interface, each with every optional member present or
 * any of them (a mapping may go wrong only when a member is absent, a name
 * say); the text classes spread over them, each sub-interface taking each in
 * turn (`turn`), and the large amount on the first.
 */
const derivations: fc.Arbitrary<Derivation[]> = fc
  .tuple(
    fc.tuple(...SUB_INTERFACES.map((subInterface) => fc.constantFrom('all' as const, 'any' as const).chain((optionalFields) => validCpr({ now: FUTURE, subInterface, optionalFields, maxExtensionKeys: 1 }).map((cpr) => ({ cpr, optionalFields }))))),
    fc.tuple(...TEXT_TARGETS.map(([, cls]) => textVariant({ class: cls, min: 1, max: 140 }))),
    fc.nat({ max: TEXT_TARGETS.length - 1 }),
    amountVariant({ class: 'amount.large' }),
    fc.tuple(...SUB_INTERFACES.map(() => fc.record({ payer: opaque, rail: opaque, authorization: opaque, payer_amount: fc.bigInt({ min: 1n, max: 10n ** 40n }).map(String) }))),
    // An application that serves no rail here, or some of the listed ones.
    fc.tuple(...SUB_INTERFACES.map(() => fc.oneof({ weight: 1, arbitrary: fc.constant<string[]>([]) }, { weight: 2, arbitrary: fc.subarray([...RAIL_HINTS] as string[]) }))),
    // A rail_hint outside the eight one request in three (no preference: PROFILE.md §8.3), whatever rails are served.
    fc.tuple(...SUB_INTERFACES.map(() => fc.option(UNLISTED_HINT, { nil: undefined, freq: 2 }))),
    // The texts whose least length is the empty text, present and empty: remittance_info one request in three, the memo one in four where no text class writes it.
    fc.tuple(...SUB_INTERFACES.map(() => fc.record({ remittance_info: fc.nat(2).map((n) => n === 0), memo: fc.nat(3).map((n) => n === 0) }))),
    // Where no unlisted hint is written, a listed hint of another sub-interface's rail one request in two (advisory: the conditions are the address's sub-interface's, PROFILE.md §7.4, §9).
    fc.tuple(...SUB_INTERFACES.map(() => fc.option(fc.constantFrom(...RAIL_HINTS), { nil: undefined, freq: 2 }))),
  )
  .map(([cprs, texts, turn, large, contexts, rails, unlisted, empties, foreign]) =>
    SUB_INTERFACES.map((sub, i) => {
      let cpr = structuredClone(cprs[i]!.cpr) as unknown as Doc;
      const notes: string[] = [cprs[i]!.optionalFields === 'all' ? 'every optional member' : 'optional members present or not'];
      const target = (i + turn) % TEXT_TARGETS.length;
      const text = texts[target]! as ClassValue<string>;
      const [pointer] = TEXT_TARGETS[target]!;
      if (pointer === '/memo') cpr.memo = text.value;
      else cpr = { ...cpr, payee: { ...(cpr.payee as Doc), display_name: text.value } };
      notes.push(`${pointer} ${text.note}`);
      for (const member of EMPTY_TEXTS) {
        if (!empties[i]![member] || (member === 'memo' && pointer === '/memo') || (member !== 'memo' && !otherFields(sub).includes(member))) continue;
        cpr = { ...cpr, [member]: '' };
        notes.push(`${member} the empty text (present, at its least)`);
      }
      if (i === 0) {
        cpr = { ...cpr, value: { ...(cpr.value as Doc), amount: large.value } };
        notes.push(`amount ${large.note}`);
      }
      // Only where the request stays valid: an ON_CHAIN request carries ON_CHAIN (PROFILE.md §7.4).
      const hinted = unlisted[i] === undefined ? undefined : { ...cpr, rail_hint: unlisted[i] };
      if (hinted !== undefined && validateCpr(hinted).ok) {
        cpr = hinted;
        notes.push(`rail_hint ${JSON.stringify(unlisted[i])}, none of the listed values`);
      } else {
        const hint = foreign[i];
        const railOf = hint === undefined ? undefined : RAIL_HINT_SUB_INTERFACE[hint];
        if (railOf !== undefined && railOf !== sub && validateCpr({ ...cpr, rail_hint: hint }).ok) {
          cpr = { ...cpr, rail_hint: hint };
          notes.push(`rail_hint ${hint}, a rail of ${railOf} requests`);
        }
      }
      const { payer_amount, ...context } = contexts[i]!;
      const open = (cpr.value as Doc).amount === undefined;
      return { sub, cpr, context: { ...context, now: CONTEXT.now, ...(open ? { payer_amount } : {}) }, notes, rails: rails[i]! };
    }),
  );

/** PROFILE.md §9 intent.conditions: the sub-interface's non-address members present, and expires_at; acquirer_id always on chain. */
function expectedConditions(d: Derivation): Doc {
  const conditions: Doc = d.sub === 'ON_CHAIN' ? { acquirer_id: ZERO_ACQUIRER_ID } : {};
  for (const field of otherFields(d.sub)) if (d.cpr[field] !== undefined) conditions[field] = d.cpr[field];
  return { ...conditions, expires_at: d.cpr.expires_at };
}

function judge(d: Derivation, payment: Doc): PropertyFailure | undefined {
  const cpr = d.cpr;
  const value = cpr.value as Doc;
  const expectedValue = { amount: value.amount ?? d.context.payer_amount, asset: value.asset };
  const intent = payment.intent as Doc | undefined;
  const context = payment.context as Doc | undefined;
  const checks: [boolean, string, unknown, unknown, string[]][] = [
    [payloadSchemaErrors('payment', payment).length === 0, 'the Payment schema', 'valid', payloadSchemaErrors('payment', payment), ['PRF-PAY-1']],
    [isUuid(payment.id) && payment.id !== cpr.request_id && payment.state === 'CREATED', 'a new id and state CREATED', { state: 'CREATED', id: 'a new UUID' }, { id: payment.id, state: payment.state }, ['DRV-SHAPE-1']],
    [same(payment.payee, cpr.payee), 'payee, unchanged', cpr.payee, payment.payee, ['DRV-SHAPE-1']],
    [same(payment.value, expectedValue), 'value, unchanged', expectedValue, payment.value, [value.amount === undefined ? 'DRV-OPEN-1' : 'DRV-VALUE-1']],
    [intent?.reference === (cpr.memo ?? cpr.request_id), 'intent.reference, the memo as written', cpr.memo ?? cpr.request_id, intent?.reference, ['DRV-INTENT-1']],
    [same(intent?.conditions, expectedConditions(d)), 'intent.conditions, no member added, dropped or re-formed', expectedConditions(d), intent?.conditions, ['DRV-INTENT-1', 'PRF-PAY-1']],
    [context?.request_id === cpr.request_id && same(context?.rail, d.context.rail) && context?.conversion === undefined, 'context: request_id and rail, no conversion', { request_id: cpr.request_id, rail: d.context.rail }, context, ['DRV-SHAPE-1', 'PRF-PAY-1']],
    [same(payment.payer, d.context.payer) && same(payment.authorization, d.context.authorization), 'payer and authorization from the context, unchanged', { payer: d.context.payer, authorization: d.context.authorization }, { payer: payment.payer, authorization: payment.authorization }, ['DRV-PAYER-1']],
  ];
  const broken = checks.find(([ok]) => !ok);
  if (!broken) return undefined;
  const [, what, expected, actual, requirements] = broken;
  return { expected, actual, message: `${d.sub} request (${d.notes.join('; ')}): ${what}`, requirements };
}

/** A hint none of the listed values refused as a rail the application does not serve: no preference, handled as such (spec §4.8, PROFILE.md §8.3). */
const unlistedRefused = (d: Derivation, code: string): boolean => typeof d.cpr.rail_hint === 'string' && !isRailHint(d.cpr.rail_hint) && code === 'RAIL_UNSUPPORTED';

/** The same request derived with the context's supported_rails: RAIL_UNSUPPORTED exactly when its hinted rail (a listed one, not OPEN) is left out. */
async function withRails(ctx: Parameters<typeof derive>[0], d: Derivation): Promise<PropertyFailure | undefined> {
  const hint = d.cpr.rail_hint;
  const unsupported = isRailHint(hint) && hint !== 'OPEN' && !d.rails.includes(hint);
  const result = await derive(ctx, d.cpr, { ...d.context, supported_rails: d.rails } as never);
  const seen = crashed(result) ? { crashed: result.message } : result.ok ? 'a Payment' : { code: result.code };
  const where = `${d.sub} request with rail_hint ${JSON.stringify(hint ?? null)} (${d.notes.join('; ')}), derived with supported_rails ${JSON.stringify(d.rails)}`;
  if (unsupported && (crashed(result) || result.ok || result.code !== 'RAIL_UNSUPPORTED')) return { expected: { rejected: 'RAIL_UNSUPPORTED' }, actual: seen, message: `${where}: a rail the application does not serve`, requirements: ['DRV-RAIL-1'] };
  if (!unsupported && (crashed(result) || !result.ok)) return { expected: 'a Payment', actual: seen, message: `${where}: a rail it serves, or none hinted`, requirements: crashed(result) || result.ok ? ['DRV-RAIL-1'] : unlistedRefused(d, result.code) ? ['CPR-RAIL-1'] : await refusalOf(ctx, d.cpr, ['DRV-RAIL-1']) };
  // A context's supported_rails hold for its own derivation (PROFILE.md §9): without them the request is derived as it was at first.
  const again = await derive(ctx, d.cpr, d.context as never);
  if (!crashed(again) && again.ok) return undefined;
  return { expected: 'a Payment, as before', actual: crashed(again) ? { crashed: again.message } : { code: again.code }, message: `${where}, then derived again without supported_rails: the application's own rails serve it, as they did before`, requirements: ['DRV-RAIL-1'] };
}

/** The context members the Payment copies unchanged (PROFILE.md §9), and where it writes each. */
const COPIED = [
  ['rail', (payment: Doc) => (payment.context as Doc | undefined)?.rail, 'context.rail'],
  ['payer', (payment: Doc) => payment.payer, 'payer'],
  ['authorization', (payment: Doc) => payment.authorization, 'authorization'],
] as const;

/**
 * The same request derived with a context whose rail, payer or authorization
 * is null, and with one that has none (the application chose no rail, the
 * payer gave nothing): where a Payment comes of it, that member is null or
 * absent, never filled in (the request's rail_hint for a rail, an empty proof
 * for an authorization: PROFILE.md §9 "<context.rail, unchanged>",
 * "<context.authorization, unchanged>"; the hint is advisory, spec §4.7.4). A
 * refusal is not judged: spec §2.6 has the application choose a rail and
 * obtain the payer's authorization.
 */
async function withoutContextValue(ctx: Parameters<typeof derive>[0], d: Derivation): Promise<PropertyFailure | undefined> {
  for (const [member, written, where] of COPIED) {
    const { [member]: _drawn, ...without } = d.context;
    for (const [context, given] of [[{ ...without, [member]: null }, `whose ${member} is null`], [without, `without a ${member}`]] as const) {
      const result = await derive(ctx, d.cpr, context as never);
      if (crashed(result) || !result.ok || typeof result.payment !== 'object' || result.payment === null) continue;
      const value = written(result.payment as Doc);
      if (same(value, null)) continue;
      return { expected: { [where]: null }, actual: { [where]: value }, message: `${d.sub} request with rail_hint ${JSON.stringify(d.cpr.rail_hint ?? null)} (${d.notes.join('; ')}), derived with a context ${given}: ${where} unchanged`, requirements: ['DRV-SHAPE-1', 'PRF-PAY-1'] };
    }
  }
  return undefined;
}

export const APP_DERIVED = define<readonly Derivation[]>({
  id: 'PROP-APP-012',
  title: 'the derived Payment copies the CPR and the context unchanged, adding, dropping and re-forming nothing, whatever the text, case and size of its members',
  requirements: ['DRV-SHAPE-1', 'DRV-VALUE-1', 'DRV-OPEN-1', 'DRV-INTENT-1', 'DRV-PAYER-1', 'PRF-PAY-1', 'DRV-RAIL-1', 'CPR-RAIL-1'],
  charges: () => REFUSAL_RULES,
  level: 'MUST',
  role: 'paying-app',
  sections: ['§4.5', '§4.7.5', 'PROFILE §9'],
  needs: [],
  defaultRuns: 20,
  caseWeight: 2,
  file: FILE,
  covers: COVERS,
  arbitrary: () => derivations,
  async check(ctx, all) {
    return firstFailure(ctx, all, 4, async (d) => {
      const result = await derive(ctx, d.cpr, d.context as never);
      if (crashed(result) || !result.ok || typeof result.payment !== 'object' || result.payment === null) {
        const requirements = crashed(result) || result.ok ? ['DRV-SHAPE-1'] : unlistedRefused(d, result.code) ? ['CPR-RAIL-1'] : await refusalOf(ctx, d.cpr, ['DRV-SHAPE-1']);
        return { expected: 'a Payment', actual: crashed(result) ? { crashed: result.message } : result.ok ? 'no Payment' : { code: result.code, message: result.message }, message: `${d.sub} request (${d.notes.join('; ')}) was not derived`, requirements };
      }
      return judge(d, result.payment as Doc) ?? (await withRails(ctx, d)) ?? (await withoutContextValue(ctx, d));
    });
  },
});
