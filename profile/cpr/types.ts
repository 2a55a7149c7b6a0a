// The CPR as a type (spec §2.1-§2.5, PROFILE.md §7) and the result of validating one.
import type { AssetType, RailField, SubInterface } from './fields.ts';

export interface AssetDescriptor {
  readonly type: AssetType;
  readonly code: string;
  readonly chain_id?: string;
}

interface RequestedValue {
  /** Absent for an open amount (spec §4.6.4). */
  readonly amount?: string;
  readonly asset: AssetDescriptor;
}

export type RailAddress = { readonly [F in RailField]?: string };

export interface PayeeDescriptor {
  readonly display_name?: string;
  readonly rail_address: RailAddress;
}

interface CprBase {
  readonly cpr_version: 'CPR-1.0';
  readonly request_id: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly payee: PayeeDescriptor;
  readonly value: RequestedValue;
  readonly memo?: string;
  /** Any string: an unrecognized value reads as OPEN (PROFILE.md §8.3). */
  readonly rail_hint?: string;
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** A CPR: the base fields plus its sub-interface's fields at the top level. */
export type Cpr = CprBase & { readonly [F in RailField]?: string };

/** One broken rule: the registry ID, a JSON pointer to the member, and what was expected. */
export interface Violation {
  readonly requirement: string;
  readonly path: string;
  readonly message: string;
}

export type CprValidation =
  | { readonly ok: true; readonly cpr: Cpr; readonly subInterface: SubInterface; readonly notices: readonly string[] }
  | { readonly ok: false; readonly violations: readonly Violation[] };
