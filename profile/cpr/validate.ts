// validateCpr: every rule of spec §2.1-§2.5 and PROFILE.md §7 that a single CPR can
// break, each reported with its registry ID. All violations are reported, in
// document order of the checks, not just the first.
import { isUuid } from '../uuid.ts';
import { parseTimestamp } from '../time.ts';
import {
  ASSET_FIELDS,
  ASSET_TYPES,
  BASE_FIELDS,
  CHAIN_BOUND_ASSET_TYPES,
  CPR_VERSION,
  EXTENSION_KEY,
  PAYEE_FIELDS,
  RAIL_FIELD_RULES,
  RAIL_FIELDS,
  RAIL_HINT_SUB_INTERFACE,
  SUB_INTERFACES,
  SUB_INTERFACE_FIELDS,
  VALUE_FIELDS,
  addressFields,
  isPayerMemberName,
  isRailHint,
  otherFields,
  type AssetType,
  type RailField,
  type RailFieldRule,
  type SubInterface,
} from './fields.ts';
import { Findings, pointer, type Finding } from './findings.ts';
import { CHAIN_ID, FIAT_CODE, TOKEN_CODE, text, type FieldFormat, type Format } from './formats.ts';
import { amountFinding, timestampFinding } from './lexical.ts';
import { findPayerMembers } from './payer-data.ts';
import type { Cpr, CprValidation, Violation } from './types.ts';

type Json = Record<string, unknown>;

/**
 * Every registry rule a violation of validateCpr can name (a test keeps the
 * two equal): what a check that validates a CPR can charge.
 */
export const CPR_RULES: readonly string[] = [
  'CPR-VER-1', 'CPR-ID-1', 'CPR-TIME-1', 'CPR-TIME-2', 'CPR-MEMO-1', 'CPR-RAIL-1', 'CPR-EXT-1', 'CPR-PAYEE-1', 'CPR-PAYER-1',
  'CPR-VAL-1', 'CPR-VAL-2', 'CPR-VAL-3',
  'SUB-CHAIN-1', 'SUB-CHAIN-3', 'SUB-IBAN-1', 'SUB-IBAN-2', 'SUB-ACCT-1', 'SUB-KEY-1',
  'PRF-CPR-1', 'PRF-TIME-1', 'PRF-AMT-1', 'PRF-RAIL-1', 'PRF-ASSET-1', 'PRF-EVM-1', 'PRF-IBAN-1', 'PRF-FIELD-1',
];

export interface ValidateOptions {
  /** The payee's configured validity window; expires_at − created_at must not exceed it (spec §4.8). */
  readonly validitySeconds?: number;
}

interface MemberRule {
  readonly requirement: string;
  readonly required: boolean;
  check(value: unknown): Finding | undefined;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const format = (f: Format) => (v: unknown) => (f.test(v) ? undefined : `must be ${f.expected}`);

/**
 * PROFILE.md §7.4 "Field defects": a value without the spec's meaning is a
 * finding of the caller's (spec) rule; one with it, written otherwise than the
 * profile's format, breaks `profile` only.
 */
const fieldFinding = (f: FieldFormat, profile: string | undefined) => (v: unknown): Finding | undefined => {
  if (f.test(v)) return undefined;
  if (profile === undefined || !f.meaning.test(v)) return `must be ${f.meaning.expected}`;
  return { requirement: profile, message: `must be ${f.expected}` };
};

const MEMO = text(0, 140);
const DISPLAY_NAME = text(1, 140);

/** Spec §2.1 base fields other than payee and value, which have their own checks. */
const BASE_RULES: Readonly<Record<string, MemberRule>> = {
  cpr_version: { requirement: 'CPR-VER-1', required: true, check: (v) => (v === CPR_VERSION ? undefined : `must be "${CPR_VERSION}"`) },
  request_id: { requirement: 'CPR-ID-1', required: true, check: (v) => (isUuid(v) ? undefined : 'must be a UUID in canonical lower-case form') },
  created_at: { requirement: 'CPR-TIME-1', required: true, check: timestampFinding },
  expires_at: { requirement: 'CPR-TIME-1', required: true, check: timestampFinding },
  memo: { requirement: 'CPR-MEMO-1', required: false, check: format(MEMO) },
  rail_hint: { requirement: 'CPR-RAIL-1', required: false, check: (v) => (typeof v === 'string' ? undefined : 'must be a string') },
  extensions: { requirement: 'CPR-EXT-1', required: false, check: (v) => (isObject(v) ? undefined : 'must be an object') },
};

const PAYEE_RULES: Readonly<Record<string, MemberRule>> = {
  display_name: { requirement: 'CPR-PAYEE-1', required: false, check: format(DISPLAY_NAME) },
};

export function validateCpr(doc: unknown, options: ValidateOptions = {}): CprValidation {
  if (!isObject(doc)) return { ok: false, violations: [{ requirement: 'PRF-CPR-1', path: '', message: 'a CPR is a JSON object' }] };
  const out = new Findings();
  const notices: string[] = [];
  out.list.push(...findPayerMembers(doc));
  applyRules(doc, BASE_RULES, [], out);
  checkWindow(doc, options, out);
  noteAdvisories(doc, notices);
  const sub = checkPayee(doc, out);
  checkValue(doc, out);
  if (sub) checkSubInterface(doc, sub, out);
  checkMembers(doc, sub ? [...BASE_FIELDS, ...addressFields(sub), ...otherFields(sub)] : [...BASE_FIELDS, ...RAIL_FIELDS], [], out);
  if (out.empty && sub) return { ok: true, cpr: doc as unknown as Cpr, subInterface: sub, notices };
  return { ok: false, violations: out.list };
}

/**
 * The payee-side reading of CPR-RAIL-1: a payee sends only the listed rail_hint
 * values (PROFILE.md §7.1), while a paying application accepts any string.
 */
export function unknownRailHint(doc: unknown): Violation | undefined {
  if (!isObject(doc) || typeof doc.rail_hint !== 'string' || isRailHint(doc.rail_hint)) return undefined;
  return { requirement: 'CPR-RAIL-1', path: '/rail_hint', message: `"${doc.rail_hint}" is not a listed rail_hint (spec §2.4)` };
}

/**
 * PROFILE.md §7.4: the sub-interface whose required address fields are all in
 * rail_address. Should two qualify (a violation reported separately), the
 * rail_hint's usual sub-interface wins, else the first in table order.
 */
export function identifySubInterface(railAddress: Json, railHint?: unknown): SubInterface | undefined {
  const candidates = SUB_INTERFACES.filter((s) => SUB_INTERFACE_FIELDS[s].address.required.every((f) => Object.hasOwn(railAddress, f)));
  const hinted = isRailHint(railHint) ? RAIL_HINT_SUB_INTERFACE[railHint] : undefined;
  return hinted !== undefined && candidates.includes(hinted) ? hinted : candidates[0];
}

function applyRules(obj: Json, rules: Readonly<Record<string, MemberRule>>, at: readonly string[], out: Findings): void {
  for (const [field, rule] of Object.entries(rules)) {
    const path = pointer(...at, field);
    if (!Object.hasOwn(obj, field)) {
      if (rule.required) out.add(rule.requirement, path, 'is required');
      continue;
    }
    out.record(rule.requirement, path, rule.check(obj[field]));
  }
}

/** PROFILE.md §7.1: closed objects. Payer-named members are already reported under CPR-PAYER-1. */
function checkMembers(obj: Json, allowed: readonly string[], at: readonly string[], out: Findings, requirement = 'PRF-CPR-1'): void {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key) || isPayerMemberName(key)) continue;
    out.add(requirement, pointer(...at, key), `is not a member of this object (allowed: ${allowed.join(', ')})`);
  }
}

/** Spec §4.8, PROFILE.md §7.1: expires_at strictly after created_at and within the payee's window. */
function checkWindow(doc: Json, options: ValidateOptions, out: Findings): void {
  const created = parseTimestamp(doc.created_at, 'cpr');
  const expires = parseTimestamp(doc.expires_at, 'cpr');
  if (created === undefined || expires === undefined) return;
  if (expires <= created) out.add('CPR-TIME-2', '/expires_at', 'must be after created_at');
  const window = options.validitySeconds;
  if (window !== undefined && expires - created > window * 1000) {
    out.add('CPR-TIME-2', '/expires_at', `must be at most ${window} s after created_at (the payee's validity window)`);
  }
}

/** SHOULD-level and advisory findings: never make a CPR invalid. */
function noteAdvisories(doc: Json, notices: string[]): void {
  if (typeof doc.rail_hint === 'string' && !isRailHint(doc.rail_hint)) {
    notices.push(`rail_hint "${doc.rail_hint}" is not a listed value; it is read as OPEN (no preference) (CPR-RAIL-1, spec §4.8)`);
  }
  if (isUuid(doc.request_id) && doc.request_id[14] !== '4') {
    notices.push('request_id is not a version 4 UUID (CPR-ID-2, SHOULD)');
  }
  if (isObject(doc.extensions)) {
    for (const key of Object.keys(doc.extensions)) {
      if (!EXTENSION_KEY.test(key)) notices.push(`extensions key "${key}" is neither std: nor reverse-domain (spec §9, SHOULD); it is ignored like any unrecognized key`);
    }
  }
}

/** Spec §2.2, PROFILE.md §7.2; returns the sub-interface that rail_address names. */
function checkPayee(doc: Json, out: Findings): SubInterface | undefined {
  const payee = doc.payee;
  if (!isObject(payee)) {
    out.add('CPR-PAYEE-1', '/payee', payee === undefined ? 'is required' : 'must be an object');
    return undefined;
  }
  applyRules(payee, PAYEE_RULES, ['payee'], out);
  checkMembers(payee, PAYEE_FIELDS, ['payee'], out);
  const railAddress = payee.rail_address;
  if (!isObject(railAddress)) {
    out.add('CPR-PAYEE-1', '/payee/rail_address', railAddress === undefined ? 'is required' : 'must be an object');
    return undefined;
  }
  const sub = identifySubInterface(railAddress, doc.rail_hint);
  if (sub === undefined) {
    const choices = SUB_INTERFACES.map((s) => `${s}: ${SUB_INTERFACE_FIELDS[s].address.required.join(' + ')}`).join('; ');
    out.add('CPR-PAYEE-1', '/payee/rail_address', `must hold the required address fields of one sub-interface (${choices})`);
  }
  return sub;
}

/** Spec §2.3, PROFILE.md §7.3 (the code and chain_id by "Field defects" in §7.4). */
function checkValue(doc: Json, out: Findings): void {
  const value = doc.value;
  if (!isObject(value)) {
    out.add('CPR-VAL-1', '/value', value === undefined ? 'is required' : 'must be an object');
    return;
  }
  checkMembers(value, VALUE_FIELDS, ['value'], out);
  if (Object.hasOwn(value, 'amount')) out.record('CPR-VAL-2', '/value/amount', amountFinding(value.amount));
  const asset = value.asset;
  if (!isObject(asset)) {
    out.add('CPR-VAL-1', '/value/asset', asset === undefined ? 'is required' : 'must be an object');
    return;
  }
  checkMembers(asset, ASSET_FIELDS, ['value', 'asset'], out);
  const type = asset.type;
  const knownType = (ASSET_TYPES as readonly unknown[]).includes(type);
  if (!knownType) out.add('CPR-VAL-1', '/value/asset/type', `must be one of ${ASSET_TYPES.join(', ')}`);
  const codeFormat = type === 'fiat' ? FIAT_CODE : TOKEN_CODE;
  if (!Object.hasOwn(asset, 'code')) out.add('CPR-VAL-1', '/value/asset/code', 'is required');
  else out.record('CPR-VAL-3', '/value/asset/code', fieldFinding(codeFormat, 'PRF-ASSET-1')(asset.code));
  if (Object.hasOwn(asset, 'chain_id')) out.record('CPR-VAL-1', '/value/asset/chain_id', fieldFinding(CHAIN_ID, 'PRF-ASSET-1')(asset.chain_id));
  else if (knownType && CHAIN_BOUND_ASSET_TYPES.includes(type as AssetType)) {
    out.add('CPR-VAL-1', '/value/asset/chain_id', `is required when the asset type is ${String(type)}`);
  }
}

/** Spec §2.5, PROFILE.md §7.4: the fields, their formats ("Field defects"), the authoritative copy and the ON_CHAIN coupling. */
function checkSubInterface(doc: Json, sub: SubInterface, out: Findings): void {
  const spec = SUB_INTERFACE_FIELDS[sub];
  const railAddress = (doc.payee as Json).rail_address as Json;
  const address = addressFields(sub);
  const checkFormat = (field: RailField, value: unknown, path: string) => {
    const rule: RailFieldRule = RAIL_FIELD_RULES[field];
    out.record(rule.spec ?? spec.requirement, path, fieldFinding(rule.format, rule.profile)(value));
  };

  for (const [key, value] of Object.entries(railAddress)) {
    const path = pointer('payee', 'rail_address', key);
    if (isPayerMemberName(key)) continue;
    if (!address.includes(key as RailField)) {
      out.add('PRF-RAIL-1', path, `is not an address field of the ${sub} sub-interface (${address.join(', ')})`);
      continue;
    }
    checkFormat(key as RailField, value, path);
  }
  for (const field of spec.other.required) {
    if (!Object.hasOwn(doc, field)) out.add(spec.requirement, pointer(field), `is required in a ${sub} request`);
  }
  for (const field of otherFields(sub)) {
    if (Object.hasOwn(doc, field)) checkFormat(field, doc[field], pointer(field));
  }
  for (const field of address) {
    if (Object.hasOwn(doc, field) && doc[field] !== railAddress[field]) {
      out.add('PRF-RAIL-1', pointer(field), `must equal payee.rail_address.${field}, the authoritative copy`);
    }
  }
  checkOnChainCoupling(doc, sub, railAddress, out);
}

/** PROFILE.md §7.4: rail_hint is ON_CHAIN exactly for ON_CHAIN requests, and the two chain ids agree. */
function checkOnChainCoupling(doc: Json, sub: SubInterface, railAddress: Json, out: Findings): void {
  const onChain = sub === 'ON_CHAIN';
  const hinted = doc.rail_hint === 'ON_CHAIN';
  if (onChain && !hinted) out.add('SUB-CHAIN-1', '/rail_hint', 'must be "ON_CHAIN" in an on-chain request (spec §2.5)');
  if (!onChain && hinted) out.add('SUB-CHAIN-1', '/rail_hint', `is "ON_CHAIN" but payee.rail_address names the ${sub} sub-interface`);
  const asset = isObject(doc.value) && isObject(doc.value.asset) ? doc.value.asset : {};
  if (onChain && typeof asset.chain_id === 'string' && typeof railAddress.chain_id === 'string' && asset.chain_id !== railAddress.chain_id) {
    out.add('PRF-RAIL-1', '/value/asset/chain_id', `must equal the on-chain chain_id "${railAddress.chain_id}"`);
  }
}
