// The CPR's vocabulary as data (spec §2.1-§2.5, PROFILE.md §7): rail hints,
// sub-interfaces, which fields belong to which sub-interface, which of them are
// address fields (held in payee.rail_address) and the format of each.
import * as F from './formats.ts';
import type { FieldFormat } from './formats.ts';

export const CPR_VERSION = 'CPR-1.0';

/** Spec §2.4, with the meaning a paying application shows to its user. */
export const RAIL_HINT_NAMES = {
  ON_CHAIN: 'on-chain settlement (stablecoin or crypto)',
  SEPA_CT: 'SEPA Credit Transfer',
  SEPA_INST: 'SEPA Instant',
  ACH: 'US ACH',
  PIX: 'Pix (Brazilian instant payments)',
  UPI: 'UPI (Indian instant payments)',
  SWIFT: 'international wire (SWIFT)',
  OPEN: 'no preference',
} as const;

export type RailHint = keyof typeof RAIL_HINT_NAMES;
export const RAIL_HINTS = Object.keys(RAIL_HINT_NAMES) as readonly RailHint[];

export function isRailHint(value: unknown): value is RailHint {
  return typeof value === 'string' && Object.hasOwn(RAIL_HINT_NAMES, value);
}

export const ASSET_TYPES = ['fiat', 'stablecoin', 'crypto', 'tokenized'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];
/** Spec §2.3: chain_id is required for these asset types. */
export const CHAIN_BOUND_ASSET_TYPES: readonly AssetType[] = ['stablecoin', 'tokenized'];

/** Members of the base request (spec §2.1). */
export const BASE_FIELDS = [
  'cpr_version',
  'request_id',
  'created_at',
  'expires_at',
  'payee',
  'value',
  'memo',
  'rail_hint',
  'extensions',
] as const;
export const PAYEE_FIELDS = ['display_name', 'rail_address'] as const;
export const VALUE_FIELDS = ['amount', 'asset'] as const;
export const ASSET_FIELDS = ['type', 'code', 'chain_id'] as const;

export const SUB_INTERFACES = ['ON_CHAIN', 'IBAN', 'ACCOUNT', 'INSTANT_KEY'] as const;
export type SubInterface = (typeof SUB_INTERFACES)[number];

export function isSubInterface(value: unknown): value is SubInterface {
  return typeof value === 'string' && (SUB_INTERFACES as readonly string[]).includes(value);
}

/** A field's format and the rules its defects break (PROFILE.md §7.4, "Field defects"). */
export interface RailFieldRule {
  readonly format: FieldFormat;
  /** Registry ID of the spec's rule, when it is not the sub-interface's own. */
  readonly spec?: string;
  /** Registry ID of the profile's rule for the written form. */
  readonly profile?: string;
}

/**
 * Every sub-interface field with its format (PROFILE.md §7.4) and the rules a
 * defect of it breaks ("Field defects"): `spec` when the value lacks the spec's
 * meaning (absent: the sub-interface's own rule), `profile` when it has it but
 * is written otherwise (absent: the profile asks no other form).
 */
export const RAIL_FIELD_RULES = {
  chain_id: { format: F.ON_CHAIN_CHAIN_ID, profile: 'PRF-EVM-1' },
  receiver_address: { format: F.EVM_ADDRESS, profile: 'PRF-EVM-1' },
  contract_address: { format: F.EVM_ADDRESS, spec: 'SUB-CHAIN-3', profile: 'PRF-EVM-1' },
  domain_separator: { format: F.DOMAIN_SEPARATOR, spec: 'SUB-CHAIN-3', profile: 'PRF-FIELD-1' },
  order_reference: { format: F.UUID_16_BYTES, profile: 'PRF-FIELD-1' },
  acquirer_id: { format: F.UUID_16_BYTES, profile: 'PRF-FIELD-1' },
  iban: { format: F.IBAN, profile: 'PRF-IBAN-1' },
  bic: { format: F.BIC, profile: 'PRF-IBAN-1' },
  beneficiary_name: { format: F.NAME, profile: 'PRF-FIELD-1' },
  remittance_info: { format: F.REMITTANCE },
  end_to_end_id: { format: F.MAX35_TEXT, profile: 'PRF-FIELD-1' },
  purpose_code: { format: F.PURPOSE_CODE, spec: 'SUB-IBAN-2', profile: 'PRF-FIELD-1' },
  account_number: { format: F.NAME, profile: 'PRF-FIELD-1' },
  routing_code: { format: F.NAME, profile: 'PRF-FIELD-1' },
  routing_code_type: { format: F.OPEN_LIST_CODE, profile: 'PRF-FIELD-1' },
  bank_name: { format: F.NAME, profile: 'PRF-FIELD-1' },
  key_type: { format: F.OPEN_LIST_CODE, profile: 'PRF-FIELD-1' },
  key_value: { format: F.NAME, profile: 'PRF-FIELD-1' },
  txid: { format: F.NAME, profile: 'PRF-FIELD-1' },
} as const satisfies Record<string, RailFieldRule>;

export type RailField = keyof typeof RAIL_FIELD_RULES;
export const RAIL_FIELDS = Object.keys(RAIL_FIELD_RULES) as readonly RailField[];

interface FieldGroup {
  readonly required: readonly RailField[];
  readonly optional: readonly RailField[];
}

interface SubInterfaceSpec {
  /** Registry ID of the sub-interface's field rules (the spec's rule of a field that names none of its own). */
  readonly requirement: string;
  /** Held in payee.rail_address (authoritative); may be mirrored at the top level. */
  readonly address: FieldGroup;
  /** Top level only. */
  readonly other: FieldGroup;
  /** The rail_hint a payee sends when it is not told otherwise. */
  readonly defaultRailHint: RailHint;
}

/** PROFILE.md §7.4 table. */
export const SUB_INTERFACE_FIELDS: Readonly<Record<SubInterface, SubInterfaceSpec>> = {
  ON_CHAIN: {
    requirement: 'SUB-CHAIN-1',
    address: { required: ['chain_id', 'receiver_address'], optional: ['contract_address'] },
    other: { required: [], optional: ['domain_separator', 'order_reference', 'acquirer_id'] },
    defaultRailHint: 'ON_CHAIN',
  },
  IBAN: {
    requirement: 'SUB-IBAN-1',
    address: { required: ['iban'], optional: ['bic'] },
    other: { required: ['beneficiary_name'], optional: ['remittance_info', 'end_to_end_id', 'purpose_code'] },
    defaultRailHint: 'SEPA_CT',
  },
  ACCOUNT: {
    requirement: 'SUB-ACCT-1',
    address: { required: ['account_number'], optional: ['routing_code', 'routing_code_type', 'bank_name'] },
    other: { required: ['beneficiary_name'], optional: ['remittance_info', 'end_to_end_id'] },
    defaultRailHint: 'ACH',
  },
  INSTANT_KEY: {
    requirement: 'SUB-KEY-1',
    address: { required: ['key_type', 'key_value'], optional: [] },
    other: { required: [], optional: ['beneficiary_name', 'txid'] },
    defaultRailHint: 'PIX',
  },
};

/**
 * The sub-interface a rail usually travels on. Used only to break a tie when a
 * rail_address names two sub-interfaces (which is itself a violation).
 */
export const RAIL_HINT_SUB_INTERFACE: Readonly<Partial<Record<RailHint, SubInterface>>> = {
  ON_CHAIN: 'ON_CHAIN',
  SEPA_CT: 'IBAN',
  SEPA_INST: 'IBAN',
  SWIFT: 'IBAN',
  ACH: 'ACCOUNT',
  PIX: 'INSTANT_KEY',
  UPI: 'INSTANT_KEY',
};

export function addressFields(sub: SubInterface): readonly RailField[] {
  const { required, optional } = SUB_INTERFACE_FIELDS[sub].address;
  return [...required, ...optional];
}

export function otherFields(sub: SubInterface): readonly RailField[] {
  const { required, optional } = SUB_INTERFACE_FIELDS[sub].other;
  return [...required, ...optional];
}

/** Spec §2.5: "the all-zero UUID if absent". */
export const ZERO_ACQUIRER_ID = '00000000-0000-0000-0000-000000000000';

/** PROFILE.md §7.5: member names that identify, reference or assume a payer. */
const PAYER_MEMBER_NAMES: readonly string[] = ['payer', 'authorization', 'settlement'];
const PAYER_MEMBER_PREFIX = 'payer_';

export function isPayerMemberName(name: string): boolean {
  return PAYER_MEMBER_NAMES.includes(name) || name.startsWith(PAYER_MEMBER_PREFIX);
}

/** Spec §9: extension keys SHOULD be `std:` (standards body) or reverse-domain. */
export const EXTENSION_KEY = /^(std:.+|[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+\.[A-Za-z0-9_-]+)$/;
