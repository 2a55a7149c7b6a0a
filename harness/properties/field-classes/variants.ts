// The value of a class for one field of the inventory: the generator of
// generators/classes/ that the field's kind and class name, with the field's
// own bounds and its value in the document as the base. Classes about a
// value's meaning (daylight-saving time, boundaries, bounds the target
// publishes, weak keys) are their properties' own.
import fc from 'fast-check';
import { encodeB64url } from '../../../profile/b64url.ts';
import { formatTimestamp, parseTimestamp } from '../../../profile/time.ts';
import { createSigningKey } from '../../../profile/cashpack/index.ts';
import {
  amountVariant,
  binaryVariant,
  identifierVariant,
  jsonTextVariant,
  letterCaseVariant,
  MAX_AMOUNT,
  textVariant,
  timestampVariant,
  type ClassValue,
  type FieldClassId,
} from '../../../generators/classes/index.ts';
import type { Field } from '../fields.ts';

/** The I-JSON rule's classes of a JSON text (generators/classes/json-text.ts). */
export const JSON_TEXT_CLASSES = ['json.escaped-name', 'json.duplicate', 'json.bom'] as const;

/** `value` written as JSON text in class `cls`, the variant `seed` picks. */
export function jsonTextOf(cls: (typeof JSON_TEXT_CLASSES)[number], value: Record<string, unknown>, seed: number): ClassValue<string> {
  return fc.sample(jsonTextVariant({ class: cls, value }), { seed, numRuns: 1 })[0]! as ClassValue<string>;
}

/** Classes whose members are a different spelling or form of the field's value: the validators say which are accepted. */
const FORM_CLASSES = [
  'identifier.case',
  'identifier.form',
  'timestamp.fraction',
  'timestamp.offset',
  'timestamp.leap-second',
  'amount.large',
  'amount.non-canonical',
  'amount.bound',
  'text.non-ascii',
  'text.length',
  'text.normalisation',
  'enum.case',
  'code.case',
  'binary.non-canonical',
] as const satisfies readonly FieldClassId[];
export type FormClass = (typeof FORM_CLASSES)[number];

export const isFormClass = (c: FieldClassId): c is FormClass => (FORM_CLASSES as readonly string[]).includes(c);

const hasCase = (s: unknown): s is string => typeof s === 'string' && s.toLowerCase() !== s.toUpperCase();

/** A valid value with letters, for a code whose current value has none to vary. */
const LETTERED: Readonly<Record<string, string>> = {
  chainId: 'eip155:1',
  domainSeparator: `0x${'ab'.repeat(32)}`,
  evmAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};

/** The value of `cls` for `field`, around `base` (the field's value in the document the case starts from). */
export function formVariant(field: Field, cls: FormClass, base: unknown): fc.Arbitrary<ClassValue> {
  switch (cls) {
    case 'identifier.case':
    case 'identifier.form':
      return identifierVariant({ class: cls, ...(typeof base === 'string' && /[a-f]/.test(base) ? { id: base } : {}) });
    case 'timestamp.fraction':
    case 'timestamp.offset':
    case 'timestamp.leap-second': {
      const kind = field.document === 'cpr' ? 'cpr' : 'cashpack';
      return timestampVariant({ class: cls, kind, at: parseTimestamp(base, kind) ?? Date.UTC(2030, 0, 1) });
    }
    case 'amount.large':
    case 'amount.non-canonical':
      return amountVariant({ class: cls });
    case 'amount.bound':
      // The ends of the profile's amount: 1 and 10^78 − 1 (the target's own bounds are its properties').
      return fc.constantFrom(1n, MAX_AMOUNT).chain((bound) => amountVariant({ class: cls, bound }));
    case 'text.non-ascii':
    case 'text.length':
    case 'text.normalisation':
      return textVariant({ class: cls, min: field.text?.min ?? 0, max: field.text?.max ?? 140 });
    case 'enum.case': {
      const values = (field.values ?? []).filter(hasCase);
      const from = hasCase(base) ? fc.constant(base) : fc.constantFrom(...(values.length > 0 ? values : ['X']));
      // rail_hint: its listed ON_CHAIN half the time, the value whose case matters most (PROFILE.md §7.4).
      const pick = field.pointer === '/rail_hint' ? fc.oneof(fc.constant('ON_CHAIN'), fc.constantFrom(...values)) : from;
      return pick.chain((value) => letterCaseVariant({ class: cls, value }));
    }
    case 'code.case':
      return letterCaseVariant({ class: cls, value: hasCase(base) ? base : (LETTERED[field.definition ?? ''] ?? 'EUR') });
    case 'binary.non-canonical':
      return binaryVariant({ text: typeof base === 'string' && base.length % 4 > 1 ? base : encodeB64url(new Uint8Array(32)) });
  }
}

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map(encodeB64url);

/** Another valid value for a signed member (class signed.altered): changed after signing, it breaks the signature only. */
export function alteredVariant(field: Field, base: unknown): fc.Arbitrary<ClassValue> {
  const label = (value: unknown, note: string): ClassValue => ({ class: 'signed.altered', value, note });
  switch (field.kind) {
    case 'identifier':
      return fc.uuid({ version: 4 }).filter((id) => id !== base).map((id) => label(id, `another id ${id}`));
    case 'timestamp': {
      const at = parseTimestamp(base, 'cashpack') ?? Date.UTC(2030, 0, 1);
      return fc.integer({ min: 1, max: 3600 }).map((s) => label(formatTimestamp(at + s * 1000, 'cashpack'), `${s} s later`));
    }
    case 'amount':
      return fc.bigInt({ min: 1n, max: 1000n }).map((d) => label((BigInt(typeof base === 'string' ? base : '1') + d).toString(), `${d} more`));
    case 'public-key':
      return fc.uint8Array({ minLength: 32, maxLength: 32 }).map((seed) => label(createSigningKey(seed).jwk, 'another key'));
    case 'binary':
      return bytes(32).filter((b) => b !== base).map((b) => label(b, 'other bytes'));
    case 'signature':
      return bytes(64).filter((b) => b !== base).map((b) => label(b, 'another signature'));
    case 'enumeration':
      return fc.constantFrom(...(field.values ?? []).filter((v) => v !== base)).map((v) => label(v, `${JSON.stringify(v)} in place of ${JSON.stringify(base)}`));
    case 'code':
      return fc.constantFrom('USD', 'GBP', 'CHF', 'JPY').filter((c) => c !== base).map((c) => label(field.pointer.endsWith('chain_id') ? `eip155:${c.length}` : c, `another code`));
    case 'list':
      return fc.integer({ min: 1, max: 3600 }).map((s) => {
        const chain = Array.isArray(base) ? (structuredClone(base) as Record<string, unknown>[]) : [];
        if (chain[0]) chain[0] = { ...chain[0], created_at: formatTimestamp((parseTimestamp(chain[0].created_at, 'cashpack') ?? 0) + s * 1000, 'cashpack') };
        return label(chain.length > 0 ? chain : [{}], chain.length > 0 ? `the first entry's created_at ${s} s later` : 'an entry added');
      });
    default:
      throw new Error(`no altered value for a ${field.kind} field (${field.id})`);
  }
}
