// Derivation of a Payment from a CPR, spec §4.5 steps in order, with the rules of
// §4.6 and the invariants of §4.7 (PROFILE.md §9). Steps 3 and 6 (payer,
// authorization) are the application's own and arrive in the context.
import { formatTimestamp, isAmount, newUuid, parseTimestamp } from '../../profile/index.ts';
import {
  RAIL_HINT_NAMES,
  RAIL_HINT_SUB_INTERFACE,
  SUB_INTERFACE_FIELDS,
  ZERO_ACQUIRER_ID,
  identifySubInterface,
  isRailHint,
  otherFields,
  type Cpr,
  type RailField,
  type SubInterface,
} from '../../profile/cpr/index.ts';
import type { Faults } from '../mutants.ts';
import { accept } from './accept.ts';
import type { Conditions, DerivationContext, Payment } from './payment.ts';
import { reject, type Accepted, type Rejection } from './rejection.ts';

interface DeriveSettings {
  now(): number;
  readonly supportedRails: readonly string[];
  /** The fault switched on, if any (reference/mutants.ts). */
  readonly faults: Faults;
}

export type Derivation = { readonly ok: true; readonly payment: Payment; readonly notices: readonly string[] } | Rejection;

// Stryker disable all: only the app-conversion-rate-through-double fault reads the rate as a number
/** The rate as the context gives it (mutant app-conversion-rate-through-double: read as a number and written back, losing trailing zeros, to an exponent, past a double's precision). */
const disclosedRate = (rate: string, faults: Faults): string => (faults.has('app-conversion-rate-through-double') ? String(Number(rate)) : rate);
// Stryker restore all

/** Spec §2.5: values a sub-interface implies when a field is absent. */
const CONDITION_DEFAULTS: Readonly<Partial<Record<SubInterface, { readonly [F in RailField]?: string }>>> = {
  ON_CHAIN: { acquirer_id: ZERO_ACQUIRER_ID },
};

export function derivePayment(doc: unknown, context: DerivationContext, settings: DeriveSettings): Derivation {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the adapter always passes a context object (harness/ADAPTERS.md); this guards library callers
  const ctx: Partial<DerivationContext> = typeof context === 'object' && context !== null ? context : {};
  const now = typeof ctx.now === 'number' && Number.isFinite(ctx.now) ? ctx.now : settings.now();

  const { faults } = settings;

  // 1. Parse and validate; expires_at must be in the future.
  // Mutant app-derive-skips-validation: derive trusts that read has validated.
  const accepted = faults.has('app-derive-skips-validation') ? unvalidated(doc) : accept(doc, now, faults);
  if (!accepted.ok) return accepted;
  const { cpr, subInterface } = accepted;

  // 2. Select the rail: rail_hint is a non-binding signal (§4.7.4).
  // Mutant app-empty-supported-rails-ignored: an empty list taken for none given, so every rail counts as served.
  const given = Array.isArray(ctx.supported_rails) && !(ctx.supported_rails.length === 0 && faults.has('app-empty-supported-rails-ignored'));
  // Mutant app-unknown-hint-read-as-usual-rail: a hint none of the listed values read as the rail the sub-interface is usually paid on, not as OPEN.
  // Stryker disable next-line all: only the app-unknown-hint-read-as-usual-rail fault reads it so
  const hint = faults.has('app-unknown-hint-read-as-usual-rail') && cpr.rail_hint !== undefined && !isRailHint(cpr.rail_hint) ? SUB_INTERFACE_FIELDS[subInterface].defaultRailHint : cpr.rail_hint;
  // Mutant app-rail-hint-prototype-name-refused: a listed hint looked up with `in` on the table of rail names, so a name every object has (constructor, toString) counts as a listed rail the application does not serve.
  // Stryker disable next-line all: only the app-rail-hint-prototype-name-refused fault looks it up so
  const protoNamed = faults.has('app-rail-hint-prototype-name-refused') && typeof hint === 'string' && !isRailHint(hint) && hint in RAIL_HINT_NAMES;
  // Stryker disable next-line all: only the app-rail-hint-prototype-name-refused fault refuses it
  const railProblem = protoNamed ? reject('RAIL_UNSUPPORTED', `This payment request asks to be paid by ${hint}, which this application does not support.`, { alternatives: [] }) : checkRail(hint, given ? ctx.supported_rails! : settings.supportedRails);
  // Mutant app-amount-before-rail: the value built before the rail is selected, so a refused amount is answered first.
  const railFirst = !faults.has('app-amount-before-rail');
  if (railProblem && railFirst && !faults.has('app-unsupported-rail-ignored')) return railProblem; // mutant: refused in silence

  // 4. Construct the value: amount and asset unmodified (§4.7.5), the payer's amount only when open (§4.6.3-4).
  // Mutant app-open-amount-from-conversion: an open amount taken from the conversion's amount, what the payer spends in its own asset.
  // Stryker disable next-line all: only the app-open-amount-from-conversion fault reads the conversion's amount here
  const entered = faults.has('app-open-amount-from-conversion') && cpr.value.amount === undefined ? ((ctx.conversion as { amount?: string } | undefined)?.amount ?? ctx.payer_amount) : ctx.payer_amount;
  const amount = paymentAmount(cpr.value.amount, entered, faults);
  if (typeof amount !== 'string') return amount;
  if (faults.has('app-amount-before-rail') && railProblem) return railProblem;

  // 5. Intent: memo as reference, else request_id; conditions from the sub-interface.
  // Mutant app-reference-ignores-memo: request_id always.
  // Mutant app-empty-memo-dropped: an empty memo is taken for no memo.
  // Mutant app-reference-normalised: the memo put in NFC, as the application stores text.
  const memo = faults.has('app-reference-normalised') ? cpr.memo?.normalize('NFC') : cpr.memo;
  const reference = faults.has('app-reference-ignores-memo') ? cpr.request_id : faults.has('app-empty-memo-dropped') ? memo || cpr.request_id : (memo ?? cpr.request_id);
  // Stryker disable next-line all: only the app-conditions-from-hinted-rail fault takes the conditions' sub-interface from the hint
  const intent = { reference, conditions: conditionsOf(cpr, faults.has('app-conditions-from-hinted-rail') ? hintedSubInterface(cpr.rail_hint, subInterface) : subInterface, faults) };

  // 7. The Payment, with request_id bound to its context; conversion is extra, disclosed context (§4.6.2).
  const notices = [...accepted.notices];
  // Mutant app-same-code-conversion-undisclosed: a conversion into an asset of the requested asset's code (another chain, another type) is taken for none.
  // Stryker disable next-line all: only the app-same-code-conversion-undisclosed fault compares the conversion's code
  const sameCode = faults.has('app-same-code-conversion-undisclosed') && ctx.conversion?.asset?.code === cpr.value.asset.code;
  // Mutant app-conversion-at-par-undisclosed: a conversion at rate 1 (a EUR stablecoin for EUR, say) taken for none.
  // Stryker disable next-line all: only the app-conversion-at-par-undisclosed fault reads the rate so
  const atPar = faults.has('app-conversion-at-par-undisclosed') && typeof ctx.conversion?.rate === 'string' && /^1(\.0*)?$/.test(ctx.conversion.rate);
  const conversion = ctx.conversion && !sameCode && !atPar ? { asset: ctx.conversion.asset, amount: ctx.conversion.amount, rate: disclosedRate(ctx.conversion.rate, faults), disclosed: true as const } : undefined;
  // Stryker disable next-line OptionalChaining,StringLiteral: free text for a reader (a notice, PROFILE.md §8.3; the disclosure itself is context.conversion.disclosed)
  if (conversion) notices.push(`conversion disclosed to the payer: pays ${conversion.amount} ${conversion.asset?.code} at rate ${conversion.rate}; the requested value is unchanged`);
  // Mutant app-missing-authorization-defaulted: a context with no authorization gives an empty proof, {}.
  // Stryker disable next-line all: only the app-missing-authorization-defaulted fault fills it in
  const authorization = faults.has('app-missing-authorization-defaulted') ? (ctx.authorization ?? {}) : ctx.authorization;
  const payment: Payment = {
    id: faults.has('app-payment-id-reused') ? cpr.request_id : newUuid(), // mutant: the request's id, not a new one
    state: 'CREATED',
    payer: faults.has('app-payer-from-cpr') ? cpr.payee : copied(ctx.payer, faults), // mutant: payer and payee mixed up
    payee: faults.has('app-payee-address-lowercased') ? lowerCaseAddresses(cpr.payee) : faults.has('app-payee-named-from-beneficiary') ? namedFromBeneficiary(cpr) : structuredClone(cpr.payee), // mutants: EVM addresses re-formed; a display_name added
    // Mutant app-amount-converted: the converted amount replaces the requested value.
    value: conversion && faults.has('app-amount-converted') ? { amount: conversion.amount, asset: structuredClone(conversion.asset) } : { amount, asset: structuredClone(cpr.value.asset) },
    intent,
    authorization: copied(authorization, faults),
    context: { rail: copied(ctx.rail, faults), request_id: cpr.request_id, ...(conversion ? { conversion } : {}) },
    // Mutant app-missing-rail-filled-from-hint: a context with no rail takes the request's listed rail_hint, as if step 2 had selected it.
    // Stryker disable next-line all: only the app-missing-rail-filled-from-hint fault fills the rail in
    ...(faults.has('app-missing-rail-filled-from-hint') && (ctx.rail === null || ctx.rail === undefined) && isRailHint(cpr.rail_hint) && cpr.rail_hint !== 'OPEN' ? { context: { rail: cpr.rail_hint, request_id: cpr.request_id, ...(conversion ? { conversion } : {}) } } : {}),
  };
  return { ok: true, payment, notices };
}

/**
 * A context value as the Payment carries it: unchanged. Mutant
 * app-context-values-spread: copied with an object spread, which turns a value
 * of any other type than an object into another ("ab" into {"0":"a","1":"b"}).
 */
function copied(value: unknown, faults: Faults): unknown {
  // Stryker disable next-line all: only the app-context-values-spread fault spreads the value
  return faults.has('app-context-values-spread') && value !== undefined && value !== null ? { ...(value as object) } : value;
}

/** Mutant app-derive-skips-validation: the document taken for a CPR as it is. */
// Stryker disable all: only the app-derive-skips-validation fault calls this function
function unvalidated(doc: unknown): Accepted | Rejection {
  const cpr = doc as Cpr;
  const railAddress = cpr?.payee?.rail_address;
  const subInterface = typeof railAddress === 'object' && railAddress !== null ? identifySubInterface(railAddress as Record<string, unknown>, cpr.rail_hint) : undefined;
  if (subInterface === undefined || typeof cpr.value !== 'object' || cpr.value === null) return reject('CPR_INVALID', 'This payment request names no payee rail or value.');
  return { ok: true, cpr, subInterface, notices: [] };
}
// Stryker restore all

/**
 * Spec §4.6.1: a hinted rail the application cannot serve gets a message and
 * alternatives, never silence. No hint, OPEN or an unrecognized value (read as
 * OPEN, §4.8; the validator's notice says so) never blocks.
 */
function checkRail(hint: string | undefined, supported: readonly string[]): Rejection | undefined {
  if (!isRailHint(hint) || hint === 'OPEN' || supported.includes(hint)) return undefined;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,MethodExpression: which rails `alternatives` lists is the application's choice (PROFILE.md §8.3: it MAY list rails it offers)
  const alternatives = supported.filter((r) => isRailHint(r) && r !== 'OPEN');
  // Stryker disable next-line all: free text for a reader (the offer inside the RAIL_UNSUPPORTED message, PROFILE.md §8.3)
  const offer = alternatives.length > 0 ? ` It can pay by ${alternatives.map((r) => RAIL_HINT_NAMES[r as keyof typeof RAIL_HINT_NAMES]).join(', ')} instead.` : '';
  return reject('RAIL_UNSUPPORTED', `This payment request asks to be paid by ${RAIL_HINT_NAMES[hint]} (${hint}), which this application does not support.${offer}`, {
    alternatives,
  });
}

function paymentAmount(requested: string | undefined, offered: unknown, faults: Faults): string | Rejection {
  if (requested !== undefined) {
    if (offered === undefined || offered === requested) return requested;
    // Mutant app-payer-amount-compared-as-number: "the same amount" judged as doubles, and the payer's figure kept.
    if (faults.has('app-payer-amount-compared-as-number') && isAmount(offered) && Number(offered) === Number(requested)) return offered;
    if (faults.has('app-partial-payment-accepted') && isAmount(offered)) return offered; // mutant: the payer's amount wins
    return reject('PARTIAL_PAYMENT_UNSUPPORTED', `This request is for exactly ${requested}; paying ${JSON.stringify(offered)} instead is not supported.`);
  }
  // Stryker disable next-line ConditionalExpression: an absent amount is no amount either: the next line gives the same code
  if (offered === undefined) return reject('AMOUNT_REQUIRED', 'This request leaves the amount to the payer: enter the amount to pay.');
  if (!isAmount(offered)) return reject('AMOUNT_REQUIRED', `${JSON.stringify(offered)} is not an amount: enter a whole number of the asset's smallest unit.`);
  // Stryker disable next-line all: only the app-open-amount-through-double fault takes this branch
  if (faults.has('app-open-amount-through-double')) return BigInt(Number(offered)).toString(); // mutant: rounded through a double
  return offered;
}

/** Mutant app-payee-address-lowercased: EVM addresses written in lower case, their checksum case dropped. */
// Stryker disable all: only the app-payee-address-lowercased and app-payee-named-from-beneficiary faults call these functions
function lowerCaseAddresses(payee: Cpr['payee']): Cpr['payee'] {
  const copy = structuredClone(payee) as { rail_address: Record<string, unknown> };
  for (const field of ['receiver_address', 'contract_address']) {
    const value = copy.rail_address[field];
    if (typeof value === 'string') copy.rail_address[field] = value.toLowerCase();
  }
  return copy as unknown as Cpr['payee'];
}

/** Mutant app-payee-named-from-beneficiary: a payee without display_name is named by the request's beneficiary_name. */
function namedFromBeneficiary(cpr: Cpr): Cpr['payee'] {
  const beneficiary = (cpr as { beneficiary_name?: string }).beneficiary_name;
  return { ...(beneficiary !== undefined ? { display_name: beneficiary } : {}), ...structuredClone(cpr.payee) };
}
// Stryker restore all

// Stryker disable all: only the app-conditions-from-hinted-rail fault calls this function
/** Mutant app-conditions-from-hinted-rail: the sub-interface of the rail the hint names, else the address's. */
function hintedSubInterface(hint: string | undefined, addressed: SubInterface): SubInterface {
  return (isRailHint(hint) ? RAIL_HINT_SUB_INTERFACE[hint] : undefined) ?? addressed;
}
// Stryker restore all

/** PROFILE.md §9: the sub-interface's non-address fields that are present, and expires_at. */
function conditionsOf(cpr: Cpr, sub: SubInterface, faults: Faults): Conditions {
  // Mutant app-acquirer-id-not-defaulted: the sub-interface's implied values are forgotten.
  const conditions: Record<string, string> = faults.has('app-acquirer-id-not-defaulted') ? {} : { ...CONDITION_DEFAULTS[sub] };
  for (const field of otherFields(sub)) {
    const value = cpr[field];
    // Mutant app-empty-condition-dropped: a condition copied only when its text is truthy, so a present empty remittance_info is left out.
    // Stryker disable next-line all: only the app-empty-condition-dropped fault drops the empty text
    if (faults.has('app-empty-condition-dropped') && value === '') continue;
    // Mutant app-condition-hex-lower-cased: hex conditions put in one case (a signing library's), so a domain_separator with upper-case digits is carried otherwise than the request has it.
    // Stryker disable next-line all: only the app-condition-hex-lower-cased fault folds the case
    if (faults.has('app-condition-hex-lower-cased') && field === 'domain_separator' && value !== undefined) conditions[field] = value.toLowerCase();
    else if (value !== undefined) conditions[field] = value;
  }
  // Mutant app-condition-expiry-canonicalised: the deadline written again in the canonical form (milliseconds, none at a whole second), not as the request has it.
  // Stryker disable next-line all: only the app-condition-expiry-canonicalised fault rewrites the deadline
  if (faults.has('app-condition-expiry-canonicalised')) return { ...conditions, expires_at: formatTimestamp(parseTimestamp(cpr.expires_at, 'cpr')!, 'cpr') };
  return { ...conditions, expires_at: cpr.expires_at };
}
