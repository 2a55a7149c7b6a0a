// derivation.json: a CPR and a derivation context (spec §2.6, PROFILE.md §9), and
// the Payment a paying application derives (every member but its new id), or the
// rejection code (PROFILE.md §8.3). The expected Payment is computed here from
// the mapping of PROFILE.md §9, not by the reference paying application.
import { validCpr } from '../../../generators/cpr.ts';
import { SUB_INTERFACES, type SubInterface } from '../../../profile/cpr/index.ts';
import { formatTimestamp, parseTimestamp } from '../../../profile/time.ts';
import type { DraftCase, DraftFile, JsonObject } from '../model.ts';
import { asJson, draftCase, sampleOne } from './draft.ts';
import { CPR_NOW } from './cpr-documents.ts';
import { RAIL_SAMPLES } from '../../../reference/payee/samples.ts';
import { vectorUuid } from './messages.ts';

/** PROFILE.md §7.4 "other fields" column: what intent.conditions may hold (§9). */
const CONDITION_FIELDS: Record<SubInterface, readonly string[]> = {
  ON_CHAIN: ['domain_separator', 'order_reference', 'acquirer_id'],
  IBAN: ['beneficiary_name', 'remittance_info', 'end_to_end_id', 'purpose_code'],
  ACCOUNT: ['beneficiary_name', 'remittance_info', 'end_to_end_id'],
  INSTANT_KEY: ['beneficiary_name', 'txid'],
};
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const RAIL_OF: Record<SubInterface, string> = { ON_CHAIN: 'ON_CHAIN', IBAN: 'SEPA_CT', ACCOUNT: 'ACH', INSTANT_KEY: 'PIX' };

type Doc = JsonObject;

function context(sub: SubInterface, extra: JsonObject = {}, now = CPR_NOW): JsonObject {
  return {
    payer: { id: 'payer-0001', name: 'Alice Example', account: { scheme: RAIL_OF[sub], reference: 'alice-primary' } },
    rail: { type: RAIL_OF[sub], provider: 'example-psp' },
    authorization: { method: 'SCA', reference: vectorUuid(`authorization ${sub}`) },
    now,
    ...extra,
  };
}

/** PROFILE.md §9, member by member. */
function expectedPayment(cpr: Doc, sub: SubInterface, ctx: JsonObject): JsonObject {
  const value = cpr.value as Doc;
  const conditions: JsonObject = {};
  if (sub === 'ON_CHAIN') conditions.acquirer_id = (cpr.acquirer_id as string | undefined) ?? ZERO_UUID;
  for (const f of CONDITION_FIELDS[sub]) if (cpr[f] !== undefined) conditions[f] = cpr[f]!;
  conditions.expires_at = cpr.expires_at!;
  const conversion = ctx.conversion as Doc | undefined;
  return {
    state: 'CREATED',
    payer: ctx.payer!,
    payee: cpr.payee!,
    value: { amount: (value.amount as string | undefined) ?? (ctx.payer_amount as string), asset: value.asset! },
    intent: { reference: (cpr.memo as string | undefined) ?? (cpr.request_id as string), conditions },
    authorization: ctx.authorization!,
    context: { rail: ctx.rail!, request_id: cpr.request_id!, ...(conversion ? { conversion: { ...conversion, disclosed: true } } : {}) },
  };
}

function ok(k: string, comment: string, flags: string[], requirements: string[], cpr: Doc, sub: SubInterface, ctx: JsonObject): DraftCase {
  return draftCase(k, comment, flags, 'valid', ['DRV-SHAPE-1', 'PRF-PAY-1', ...requirements], {
    json: JSON.stringify(cpr),
    context: ctx,
    expected: { payment: expectedPayment(cpr, sub, ctx) },
  });
}

function rejected(k: string, comment: string, flags: string[], requirements: string[], cpr: unknown, ctx: JsonObject, code: string): DraftCase {
  return draftCase(k, comment, flags, 'invalid', ['PRF-APP-1', ...requirements], { json: JSON.stringify(cpr), context: ctx, expected: { code } });
}

function sample(sub: SubInterface, amount: string | undefined, memo?: string): Doc {
  const s = RAIL_SAMPLES[sub];
  const reference = vectorUuid(`derivation sample ${sub}`).replaceAll('-', '');
  return asJson({
    cpr_version: 'CPR-1.0',
    request_id: vectorUuid(`derivation request ${sub} ${amount ?? 'open'} ${memo ?? ''}`),
    created_at: '2025-12-31T23:55:00Z',
    expires_at: '2026-01-01T00:10:00.250Z',
    payee: { display_name: s.displayName, rail_address: { ...s.address } },
    value: { ...(amount !== undefined ? { amount } : {}), asset: { ...s.asset } },
    ...(memo !== undefined ? { memo } : {}),
    rail_hint: RAIL_OF[sub],
    ...s.address,
    ...s.other(reference, memo),
  });
}

function validCases(): DraftCase[] {
  const cases: DraftCase[] = [];
  for (const sub of SUB_INTERFACES) {
    const fixed = asJson(sampleOne(validCpr({ subInterface: sub, amount: 'fixed' }), `derivation fixed ${sub}`));
    cases.push(ok(`valid:generated:${sub}:fixed`, `a generated ${sub} CPR with an amount`, ['Generated'], ['DRV-VALUE-1', 'DRV-PAYER-1', 'DRV-INTENT-1'], fixed, sub, context(sub)));
    const open = asJson(sampleOne(validCpr({ subInterface: sub, amount: 'open' }), `derivation open ${sub}`));
    cases.push(ok(`valid:generated:${sub}:open`, `a generated ${sub} CPR with an open amount; the payer enters 4200`, ['Generated', 'OpenAmount'], ['DRV-OPEN-1'], open, sub, context(sub, { payer_amount: '4200' })));
    cases.push(ok(`valid:sample:${sub}`, `the reference payee's ${sub} account with a memo`, ['SpecSample'], ['DRV-INTENT-1'], sample(sub, '12500', 'Invoice 2026-0001'), sub, context(sub)));
  }
  const noMemo = sample('IBAN', '12500');
  cases.push(ok('valid:reference-is-request-id', 'no memo: intent.reference is the request_id', ['IntentReference'], ['DRV-INTENT-1'], noMemo, 'IBAN', context('IBAN')));
  const onChain = sample('ON_CHAIN', '5000000');
  cases.push(ok('valid:acquirer-id-default', 'an ON_CHAIN request without acquirer_id: conditions carry the all-zero UUID (spec §2.5)', ['AcquirerDefault'], ['SUB-CHAIN-2'], onChain, 'ON_CHAIN', context('ON_CHAIN')));
  cases.push(
    ok('valid:acquirer-id-given', 'an ON_CHAIN request with acquirer_id: copied into conditions', ['AcquirerDefault'], ['SUB-CHAIN-2'], { ...onChain, acquirer_id: vectorUuid('acquirer') }, 'ON_CHAIN', context('ON_CHAIN')),
  );
  cases.push(
    ok('valid:conversion', 'the application converts: context.conversion is disclosed extra context and value stays the request\'s', ['Conversion'], ['DRV-VALUE-1', 'DRV-CONV-1'], sample('IBAN', '12500'), 'IBAN', context('IBAN', {
      conversion: { asset: { type: 'fiat', code: 'USD' }, amount: '13625', rate: '1.09' },
    })),
  );
  cases.push(ok('valid:unlisted-rail-hint', 'an unlisted rail_hint is read as OPEN: derivation goes on (PROFILE.md §8.3)', ['UnlistedRailHint'], ['CPR-RAIL-1', 'DRV-RAIL-1'], { ...sample('IBAN', '700'), rail_hint: 'CARRIER_PIGEON' }, 'IBAN', context('IBAN', { supported_rails: ['SEPA_CT'] })));
  cases.push(ok('valid:open-hint-restricted-app', 'rail_hint OPEN never blocks, whatever the application supports', ['RailHint'], ['DRV-RAIL-1'], { ...sample('ACCOUNT', '700'), rail_hint: 'OPEN' }, 'ACCOUNT', context('ACCOUNT', { supported_rails: ['PIX'] })));
  cases.push(ok('valid:payer-amount-equal', 'the payer confirms exactly the requested amount', ['OpenAmount'], ['DRV-PARTIAL-1'], sample('IBAN', '12500'), 'IBAN', context('IBAN', { payer_amount: '12500' })));
  const s = sample('INSTANT_KEY', '990');
  const justBefore = formatTimestamp(parseTimestamp(s.expires_at, 'cpr')! - 1, 'cpr');
  cases.push(ok('valid:one-ms-before-expiry', 'the application\'s clock is 1 ms before expires_at', ['ExpiryBoundary'], ['DRV-EXP-1'], s, 'INSTANT_KEY', context('INSTANT_KEY', {}, justBefore)));
  return cases;
}

function invalidCases(): DraftCase[] {
  const iban = sample('IBAN', '12500');
  const expires = iban.expires_at as string;
  const ctx = context('IBAN');
  return [
    rejected('invalid:expired', 'the application\'s clock is 1 s after expires_at', ['Expired'], ['DRV-EXP-1'], iban, context('IBAN', {}, formatTimestamp(parseTimestamp(expires, 'cpr')! + 1000, 'cpr')), 'CPR_EXPIRED'),
    rejected('invalid:expires-exactly-now', 'the clock reads exactly expires_at: the instant itself is too late (PROFILE.md §8.3)', ['Expired', 'ExpiryBoundary'], ['DRV-EXP-1'], iban, context('IBAN', {}, expires), 'CPR_EXPIRED'),
    rejected('invalid:partial-payment', 'the payer offers 12000 of a 12500 request', ['PartialPayment'], ['DRV-PARTIAL-1'], iban, { ...ctx, payer_amount: '12000' }, 'PARTIAL_PAYMENT_UNSUPPORTED'),
    rejected('invalid:overpayment', 'the payer offers 13000 of a 12500 request: any other amount is refused', ['PartialPayment'], ['DRV-PARTIAL-1'], iban, { ...ctx, payer_amount: '13000' }, 'PARTIAL_PAYMENT_UNSUPPORTED'),
    rejected('invalid:open-without-amount', 'an open amount and no payer amount', ['OpenAmount'], ['DRV-OPEN-1'], sample('IBAN', undefined), ctx, 'AMOUNT_REQUIRED'),
    rejected('invalid:open-zero-amount', 'an open amount and the payer enters "0", which is not an amount', ['OpenAmount'], ['DRV-OPEN-1', 'PRF-AMT-1'], sample('IBAN', undefined), { ...ctx, payer_amount: '0' }, 'AMOUNT_REQUIRED'),
    rejected('invalid:unsupported-rail', 'rail_hint ACH and an application that pays by SEPA only', ['RailUnsupported'], ['DRV-RAIL-1'], sample('ACCOUNT', '700'), context('ACCOUNT', { supported_rails: ['SEPA_CT', 'SEPA_INST'] }), 'RAIL_UNSUPPORTED'),
    rejected('invalid:cpr-invalid', 'the CPR breaks a rule (memo of 141 code points): validation comes before derivation', ['InvalidCpr'], ['DRV-VALID-1'], { ...iban, memo: 'x'.repeat(141) }, ctx, 'CPR_INVALID'),
    rejected('invalid:payer-data', 'the CPR carries a payer member: payer data come from the context only', ['InvalidCpr'], ['DRV-PAYER-1', 'CPR-PAYER-1'], { ...iban, payer: { name: 'Mallory' } }, ctx, 'CPR_INVALID'),
    rejected('invalid:version', 'cpr_version CPR-2.0', ['VersionUnsupported'], ['CPR-VER-1'], { ...iban, cpr_version: 'CPR-2.0' }, ctx, 'CPR_VERSION_UNSUPPORTED'),
  ];
}

export function buildDerivation(): DraftFile {
  return {
    kind: 'derivation',
    header: [
      'Derivation of a Payment from a CPR (spec §4.5, PROFILE.md §9).',
      'For each case: parse `json` (the CPR) and derive with `context` (the DerivationContext: payer, rail, authorization, now as an RFC 3339 instant the application must use as its clock, and optionally payer_amount, supported_rails, conversion).',
      'valid: the result is a Payment equal to `expected.payment` member for member (JSON equality, member order free) plus an `id` that is a new UUID, different for every derivation, even of the same CPR.',
      'invalid: the result is a rejection whose code is `expected.code` (PROFILE.md §8.3).',
    ],
    notes: {
      Generated: 'A seeded sample of generators/cpr.ts validCpr.',
      SpecSample: 'The reference payee\'s account for that sub-interface, with a memo.',
      OpenAmount: 'value.amount is absent or the payer states an amount (spec §4.6.3-4).',
      IntentReference: 'intent.reference is the memo if present, otherwise the request_id.',
      AcquirerDefault: 'An ON_CHAIN request without acquirer_id is read as the all-zero acquirer ID (spec §2.5).',
      Conversion: 'The payer spends another asset: disclosed in context.conversion, value unchanged (spec §4.6.2).',
      UnlistedRailHint: 'An unlisted rail_hint is read as OPEN (spec §4.8).',
      RailHint: 'rail_hint is advisory (spec §4.7.4).',
      ExpiryBoundary: 'The clock is at the expiry instant or next to it.',
      Expired: 'expires_at is at or before the application\'s clock: never fulfilled (spec §4.5.1).',
      PartialPayment: 'An amount other than the requested one (spec §4.6.3).',
      RailUnsupported: 'The hinted rail is one the application cannot serve (spec §4.6.1).',
      InvalidCpr: 'The CPR is not valid; nothing is derived.',
      VersionUnsupported: 'cpr_version is not CPR-1.0.',
    },
    groups: [
      { members: { type: 'DerivationTest', comment: 'derived Payments' }, tests: validCases() },
      { members: { type: 'DerivationTest', comment: 'rejections' }, tests: invalidCases() },
    ],
  };
}
