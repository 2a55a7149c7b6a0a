// Builds a CPR for one sub-interface (spec §2.1-§2.5, PROFILE.md §7): base fields,
// payee with the authoritative rail_address, its top-level mirror, and the
// sub-interface's other fields. No payer data ever (spec §4.8).
import { randomBytes } from 'node:crypto';
import { CPR_VERSION, SUB_INTERFACE_FIELDS, type AssetDescriptor, type Cpr } from '../../profile/cpr/index.ts';
import type { Faults } from '../mutants.ts';
import type { CreateRequestInput } from './input.ts';
import { RAIL_SAMPLES } from './samples.ts';

interface CprTimes {
  readonly request_id: string;
  readonly created_at: string;
  readonly expires_at: string;
}

export function buildCpr(input: CreateRequestInput, times: CprTimes, faults: Faults): Cpr {
  const sample = RAIL_SAMPLES[input.sub_interface];
  const reference = randomBytes(16).toString('hex');
  // Mutant payee-memo-line-breaks-folded: the memo's line breaks written as spaces, as a one-line remittance field wants.
  // Stryker disable next-line all: only the payee-memo-line-breaks-folded fault folds them
  const asked = faults.has('payee-memo-line-breaks-folded') ? input.memo?.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ') : input.memo;
  // Mutant payee-memo-nul-dropped: the memo stored without U+0000, as a text column that cannot hold it keeps it.
  // Stryker disable next-line all: only the payee-memo-nul-dropped fault drops it
  const dropped = faults.has('payee-memo-nul-dropped') ? asked?.replaceAll('\u0000', '') : asked;
  // Mutant payee-memo-formula-guarded: a memo that opens like a spreadsheet formula (=, +, -, @) kept with a leading apostrophe, as a CSV export's guard writes it.
  // Stryker disable next-line all: only the payee-memo-formula-guarded fault prefixes it
  const stored = faults.has('payee-memo-formula-guarded') && dropped !== undefined && /^[=+\-@]/.test(dropped) ? `'${dropped}` : dropped;
  // Mutant payee-memo-utf16-truncated: 140 JavaScript string units, not 140 code points.
  const memo = faults.has('payee-memo-utf16-truncated') ? stored?.slice(0, 140) : stored;
  // Mutant payee-on-chain-hint-missing: every sub-interface gets the same default hint.
  const defaultHint = faults.has('payee-on-chain-hint-missing') ? 'OPEN' : SUB_INTERFACE_FIELDS[input.sub_interface].defaultRailHint;
  // Mutant payee-display-name-html-escaped: the name given escaped for HTML on its way into the store, as a web form's handler writes it.
  // Stryker disable next-line all: only the payee-display-name-html-escaped fault escapes it
  const displayName = faults.has('payee-display-name-html-escaped') ? htmlEscaped(input.display_name ?? sample.displayName) : (input.display_name ?? sample.displayName);
  const cpr: Cpr = {
    cpr_version: CPR_VERSION,
    request_id: times.request_id,
    created_at: times.created_at,
    expires_at: times.expires_at,
    // Mutant payee-rail-address-empty: the address fields at the top level only.
    // Mutant payee-display-name-trimmed: the name given written without the white space at its ends.
    payee: { display_name: faults.has('payee-display-name-trimmed') ? displayName.trim() : displayName, rail_address: faults.has('payee-rail-address-empty') ? {} : { ...sample.address } },
    value: { ...(input.amount !== undefined ? { amount: amountOf(input.amount, sample.asset, faults) } : {}), asset: assetOf(sample.asset, faults) },
    ...(memo !== undefined ? { memo } : {}),
    rail_hint: input.rail_hint ?? defaultHint,
    ...sample.address,
    ...sample.other(reference, memo),
    ...(input.extensions !== undefined ? { extensions: extensionsCopy(input.extensions, faults) } : {}),
  };
  // Mutant payee-empty-memo-dropped: the memo copied by its truthiness, so the empty memo is dropped.
  if (faults.has('payee-empty-memo-dropped') && memo === '') delete (cpr as { memo?: string }).memo;
  // Mutant payee-account-beneficiary-missing: the account number alone.
  if (faults.has('payee-account-beneficiary-missing') && input.sub_interface === 'ACCOUNT') delete (cpr as { beneficiary_name?: string }).beneficiary_name;
  // Mutant payee-instant-key-type-missing: key_value alone, in the rail address and its top-level copy.
  if (faults.has('payee-instant-key-type-missing') && input.sub_interface === 'INSTANT_KEY') {
    delete (cpr as { key_type?: string }).key_type;
    delete (cpr.payee.rail_address as { key_type?: string }).key_type;
  }
  // Mutant payee-evm-checksum-broken: the receiver address, in rail_address and its top-level copy, with its last
  // letter (a lower-case d in the sample's EIP-55 address) in upper case, so the checksum fails.
  if (faults.has('payee-evm-checksum-broken') && typeof cpr.receiver_address === 'string') {
    const broken = cpr.receiver_address.slice(0, -1) + cpr.receiver_address.slice(-1).toUpperCase();
    (cpr as { receiver_address: string }).receiver_address = broken;
    (cpr.payee.rail_address as { receiver_address: string }).receiver_address = broken;
  }
  // Mutants payee-domain-separator-short, payee-order-reference-upper-case and payee-purpose-code-five-letters:
  // one field of the sub-interface's others, without the spec's meaning or written otherwise.
  if (faults.has('payee-domain-separator-short') && typeof cpr.domain_separator === 'string') (cpr as { domain_separator: string }).domain_separator = cpr.domain_separator.slice(0, -1);
  if (faults.has('payee-order-reference-upper-case') && typeof cpr.order_reference === 'string') (cpr as { order_reference: string }).order_reference = cpr.order_reference.toUpperCase();
  if (faults.has('payee-purpose-code-five-letters') && typeof cpr.purpose_code === 'string') (cpr as { purpose_code: string }).purpose_code = 'GOODS';
  // Mutant payee-iban-mirror-spaced: the top-level copy in the printed form of an IBAN.
  if (faults.has('payee-iban-mirror-spaced') && typeof cpr.iban === 'string') (cpr as { iban: string }).iban = cpr.iban.replace(/(.{4})(?=.)/g, '$1 ');
  // Mutant payee-record-status-served: the stored record's bookkeeping member goes out with the request.
  if (faults.has('payee-record-status-served')) return { ...cpr, status: 'OPEN' } as Cpr;
  // Mutant payee-payer-field-leaked: the payee's own customer reference for the payer goes out with the request.
  return faults.has('payee-payer-field-leaked') ? ({ ...cpr, payer_reference: `cust-${reference.slice(0, 8)}` } as Cpr) : cpr;
}

/** The served amount: the one asked for, as it was written (a decimal string in the asset's smallest unit). */
function amountOf(amount: string, asset: AssetDescriptor, faults: Faults): string {
  // Mutant payee-amount-through-double: the amount kept as a double and written back as an integer.
  if (faults.has('payee-amount-through-double')) return BigInt(Number(amount)).toString();
  // Mutant payee-amount-major-units: a fiat amount in major units (every sample currency has two minor digits).
  if (faults.has('payee-amount-major-units') && asset.type === 'fiat') {
    const digits = amount.padStart(3, '0');
    return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
  }
  // Mutant payee-amount-json-number: a JSON number where the profile writes a string (the CPR type cannot say so).
  if (faults.has('payee-amount-json-number')) return Number(amount) as unknown as string;
  return amount;
}

/**
 * The sample's asset; mutant payee-asset-code-lower-case writes a fiat code in
 * lower case, mutant payee-asset-code-numeric as its ISO 4217 numeric code.
 */
function assetOf(asset: AssetDescriptor, faults: Faults): AssetDescriptor {
  if (faults.has('payee-asset-code-lower-case') && asset.type === 'fiat') return { ...asset, code: asset.code.toLowerCase() };
  if (faults.has('payee-asset-code-numeric') && asset.type === 'fiat') return { ...asset, code: ISO_4217_NUMERIC[asset.code] ?? asset.code };
  return { ...asset };
}

/** Mutant payee-asset-code-numeric: the ISO 4217 numeric codes of the samples' currencies. */
// Stryker disable next-line ObjectLiteral,StringLiteral: only the payee-asset-code-numeric fault reads this table
const ISO_4217_NUMERIC: Readonly<Record<string, string>> = { EUR: '978', USD: '840', BRL: '986' };

/** The extensions asked for, carried as given (spec §2.1, PROFILE.md §7.1): a deep copy. */
function extensionsCopy(extensions: Record<string, unknown>, faults: Faults): Record<string, unknown> {
  // Mutant payee-extension-arrays-copied-as-objects: a hand-written deep copy that takes arrays for objects.
  if (faults.has('payee-extension-arrays-copied-as-objects')) return plainCopy(extensions) as Record<string, unknown>;
  // Mutant payee-extension-proto-member-lost: a hand-written deep copy by assignment, which loses a member named __proto__.
  if (faults.has('payee-extension-proto-member-lost')) return assignedCopy(extensions) as Record<string, unknown>;
  // Mutant payee-extension-date-times-revived: a copy through JSON with a date reviver, so date-time strings come back in UTC with milliseconds.
  if (faults.has('payee-extension-date-times-revived')) return revivedCopy(extensions);
  // Mutant payee-extension-keys-unnamespaced-dropped: only std: and reverse-domain keys passed on, the SHOULD of PROFILE.md §7.1 read as a MUST.
  if (faults.has('payee-extension-keys-unnamespaced-dropped')) return namespacedOnly(extensions);
  // Mutant payee-extension-falsy-members-dropped: the top-level members copied by their truthiness, so false, 0, "" and null are left out.
  if (faults.has('payee-extension-falsy-members-dropped')) return truthyOnly(extensions);
  // Mutant payee-extension-empty-members-dropped: members holding an empty object or array left out, at any depth.
  if (faults.has('payee-extension-empty-members-dropped')) return withoutEmptyMembers(extensions) as Record<string, unknown>;
  // Mutant payee-extension-arrays-sorted: stored in a canonical form, arrays sorted by their elements' JSON text.
  if (faults.has('payee-extension-arrays-sorted')) return arraysSorted(extensions) as Record<string, unknown>;
  // Mutant payee-extension-integers-int32: the top-level whole numbers kept in a 32-bit INTEGER column, so one past 2^31 - 1 wraps.
  // Stryker disable next-line all: only the payee-extension-integers-int32 fault wraps them
  if (faults.has('payee-extension-integers-int32')) return Object.fromEntries(Object.entries(structuredClone(extensions)).map(([key, value]) => [key, typeof value === 'number' && Number.isInteger(value) ? value | 0 : value]));
  return structuredClone(extensions);
}

// Stryker disable all: only the payee-extension-empty-members-dropped fault calls this function
function withoutEmptyMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyMembers);
  if (typeof value !== 'object' || value === null) return value;
  const kept = Object.entries(value).filter(([, inner]) => typeof inner !== 'object' || inner === null || Object.keys(inner).length > 0);
  return Object.fromEntries(kept.map(([key, inner]) => [key, withoutEmptyMembers(inner)]));
}
// Stryker restore all

// Stryker disable all: only the payee-extension-arrays-sorted fault calls this function
function arraysSorted(value: unknown): unknown {
  if (Array.isArray(value)) {
    const texts = value.map((element) => [JSON.stringify(element), arraysSorted(element)] as const);
    return texts.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, element]) => element);
  }
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, arraysSorted(inner)]));
}
// Stryker restore all

// Stryker disable all: only the payee-display-name-html-escaped fault calls this function
function htmlEscaped(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.codePointAt(0)!};`);
}
// Stryker restore all

// Stryker disable all: only the payee-extension-proto-member-lost fault calls this function
function assignedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(assignedCopy);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) copy[key] = assignedCopy(inner);
  return copy;
}
// Stryker restore all

// Stryker disable all: only the payee-extension-falsy-members-dropped fault calls this function
function truthyOnly(extensions: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(structuredClone(extensions as Record<string, unknown>)).filter(([, value]) => Boolean(value)));
}
// Stryker restore all

// Stryker disable all: only the payee-extension-keys-unnamespaced-dropped fault calls this function
function namespacedOnly(extensions: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(structuredClone(extensions as Record<string, unknown>)).filter(([key]) => key.startsWith('std:') || key.includes('.')));
}
// Stryker restore all

// Stryker disable all: only the payee-extension-date-times-revived fault calls this function
/** A copy through a document store's JSON reader, which revives date-time strings as dates (written back by Date.toJSON). */
function revivedCopy(extensions: unknown): Record<string, unknown> {
  const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
  return JSON.parse(JSON.stringify(extensions), (_key, value: unknown) => (typeof value === 'string' && dateTime.test(value) ? new Date(value) : value)) as Record<string, unknown>;
}
// Stryker restore all

// Stryker disable all: only the payee-extension-arrays-copied-as-objects fault calls this function
function plainCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plainCopy(inner)]));
}
// Stryker restore all
