// The input of a request the payee creates (PROFILE.md §12 `POST /_control/payee/requests`),
// checked member by member so a 400 names the field at fault.
import { isAmount } from '../../profile/index.ts';
import {
  SUB_INTERFACES,
  codePoints,
  findPayerMembers,
  isRailHint,
  isSubInterface,
  type RailHint,
  type SubInterface,
} from '../../profile/cpr/index.ts';
import { isPayerMemberName } from '../../profile/cpr/fields.ts';
import { NO_FAULTS, type Faults } from '../mutants.ts';

export interface CreateRequestInput {
  readonly sub_interface: SubInterface;
  /** Absent for an open amount. */
  readonly amount?: string;
  readonly memo?: string;
  /** Defaults to the sub-interface's usual rail; a payee sends only listed values (PROFILE.md §7.1). */
  readonly rail_hint?: RailHint;
  readonly extensions?: Readonly<Record<string, unknown>>;
  readonly display_name?: string;
}

type InputCheck = { readonly ok: true; readonly input: CreateRequestInput } | { readonly ok: false; readonly field: string; readonly detail: string };

/** Thrown by createRequest for input a control client would get a 400 for. */
export class PayeeInputError extends Error {
  readonly code = 'MALFORMED_REQUEST';
  constructor(readonly field: string, readonly detail: string) {
    super(`${field}: ${detail}`);
  }
}

interface InputRule {
  readonly required: boolean;
  /** A problem with the value, or undefined. */
  check(value: unknown): string | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const RULES: Readonly<Record<keyof CreateRequestInput, InputRule>> = {
  sub_interface: { required: true, check: (v) => (isSubInterface(v) ? undefined : `must be one of ${SUB_INTERFACES.join(', ')}`) },
  amount: { required: false, check: (v) => (isAmount(v) ? undefined : 'must be a decimal string of the smallest unit matching ^[1-9][0-9]{0,77}$') },
  memo: { required: false, check: (v) => (typeof v === 'string' && codePoints(v) <= 140 ? undefined : 'must be a string of at most 140 code points') },
  rail_hint: { required: false, check: (v) => (isRailHint(v) ? undefined : 'must be one of the rail_hint values of spec §2.4') },
  extensions: { required: false, check: extensionsProblem },
  display_name: { required: false, check: (v) => (typeof v === 'string' && codePoints(v) >= 1 && codePoints(v) <= 140 ? undefined : 'must be a string of 1 to 140 code points') },
};

function extensionsProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'must be an object';
  const payer = findPayerMembers(value)[0];
  return payer ? `must carry no payer data (PROFILE.md §7.5), found ${payer.path}` : undefined;
}

/** Mutant payee-payer-check-over-json-text: payer words searched for in the extensions' JSON text, member values included. */
function payerWordsProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'must be an object';
  const payer = /"(payer|authorization|settlement|payer_[^"]*)"/.exec(JSON.stringify(value));
  return payer ? `must carry no payer data (PROFILE.md §7.5), found ${payer[1]}` : undefined;
}

/** Mutant payee-payer-check-top-level: payer-named members looked for among the keys of extensions only. */
function topLevelPayerProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'must be an object';
  const payer = Object.keys(value).find(isPayerMemberName);
  return payer ? `must carry no payer data (PROFILE.md §7.5), found /${payer}` : undefined;
}

/** Mutant payee-extensions-nesting-capped: levels of objects and arrays in `value`, itself included. */
function nesting(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(nesting));
}

export function checkRequestInput(input: unknown, faults: Faults = NO_FAULTS): InputCheck {
  // Mutant payee-input-amount-normalised: a string amount read as the integer it names (BigInt) before it is checked: "0250", " 5", "+5" and "0x10" are taken as 250, 5, 5 and 16.
  const value = faults.has('payee-input-amount-normalised') && isObject(input) && typeof input.amount === 'string' ? { ...input, amount: namedInteger(input.amount) } : input;
  if (!isObject(value)) return { ok: false, field: '(body)', detail: 'must be a JSON object' };
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(RULES, key)) return { ok: false, field: key, detail: `is not a member of a request input (${Object.keys(RULES).join(', ')})` };
  }
  for (const [field, rule] of Object.entries(RULES)) {
    // Mutant payee-null-input-read-as-absent: an optional member sent as null read as one left out.
    if (faults.has('payee-null-input-read-as-absent') && !rule.required && value[field] === null) {
      delete value[field];
      continue;
    }
    if (!Object.hasOwn(value, field)) {
      if (rule.required) return { ok: false, field, detail: 'is required' };
      continue;
    }
    // Mutant payee-rail-hint-case-folded: a rail_hint checked in upper case, and served as given.
    // Stryker disable next-line all: only the payee-rail-hint-case-folded fault reads the hint folded
    const given = field === 'rail_hint' && faults.has('payee-rail-hint-case-folded') && typeof value[field] === 'string' ? value[field].toUpperCase() : value[field];
    // Mutant payee-extensions-nesting-capped: extensions refused past 20 levels of objects and arrays, a document store's limit, where I-JSON allows 32 for the whole CPR.
    const problem = field === 'extensions' && faults.has('payee-payer-check-top-level') ? topLevelPayerProblem(value[field])
      : field === 'extensions' && faults.has('payee-payer-check-over-json-text') ? payerWordsProblem(value[field])
      : field === 'extensions' && faults.has('payee-extensions-nesting-capped') && nesting(value[field]) > 20 ? 'must nest at most 20 levels of objects and arrays'
      // Mutant payee-extensions-capped-8kib: extensions refused past 8 192 bytes of JSON, a ledger column's size, where only the body's 65 536 bound the profile.
      // Stryker disable next-line all: only the payee-extensions-capped-8kib fault measures them
      : field === 'extensions' && faults.has('payee-extensions-capped-8kib') && Buffer.byteLength(JSON.stringify(value[field])) > 8192 ? 'must be at most 8192 bytes of JSON'
      : rule.check(given);
    if (problem) return { ok: false, field, detail: problem };
    // Mutant payee-blank-display-name-refused: display_name checked as a "not blank" form field, its length counted after a trim.
    // Stryker disable next-line all: only the payee-blank-display-name-refused fault trims the name
    if (field === 'display_name' && faults.has('payee-blank-display-name-refused') && typeof given === 'string' && given.trim() === '') return { ok: false, field, detail: 'must not be blank' };
  }
  // Mutant payee-rail-hint-bound-to-sub-interface: a hinted rail refused unless it is one the sub-interface's address is usually paid on.
  // Stryker disable next-line all: only the payee-rail-hint-bound-to-sub-interface fault refuses it
  if (faults.has('payee-rail-hint-bound-to-sub-interface') && USUAL_SUB_INTERFACE[value.rail_hint as string] !== undefined && USUAL_SUB_INTERFACE[value.rail_hint as string] !== value.sub_interface) return { ok: false, field: 'rail_hint', detail: `${String(value.rail_hint)} is paid to another sub-interface's address` };
  return { ok: true, input: value as unknown as CreateRequestInput };
}

/** Mutant payee-input-amount-normalised: the integer a text names to BigInt, written in decimal; the text itself when it names none. */
function namedInteger(text: string): string {
  try {
    return BigInt(text).toString();
  } catch {
    return text;
  }
}

/** Mutant payee-rail-hint-bound-to-sub-interface: the sub-interface each listed rail is usually paid to (OPEN none). */
// Stryker disable next-line all: only the payee-rail-hint-bound-to-sub-interface fault reads this table
const USUAL_SUB_INTERFACE: Readonly<Record<string, SubInterface>> = { SEPA_CT: 'IBAN', SEPA_INST: 'IBAN', SWIFT: 'IBAN', ACH: 'ACCOUNT', PIX: 'INSTANT_KEY', UPI: 'INSTANT_KEY', ON_CHAIN: 'ON_CHAIN' };
