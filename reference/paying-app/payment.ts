// The Payment a derivation produces (PROFILE.md §9, mapping spec §4.5) and its input,
// the DerivationContext (spec §2.6).
import type { AssetDescriptor, PayeeDescriptor, RailField } from '../../profile/cpr/index.ts';

/** What the payer actually spends when the application converts (spec §4.6.2). */
export interface Conversion {
  readonly asset: AssetDescriptor;
  readonly amount: string;
  /** Units of `asset` per unit of the requested asset, as a decimal string. */
  readonly rate: string;
}

export interface DerivationContext {
  /** Resolved by the application (spec §4.5.3); copied unchanged, never taken from the CPR. */
  readonly payer: unknown;
  /** Chosen by the application (spec §4.5.2). */
  readonly rail: unknown;
  /** Produced by the application (spec §4.5.6). */
  readonly authorization: unknown;
  /** Milliseconds since the epoch; the application's clock when absent. */
  readonly now?: number;
  /** The amount the payer entered or confirmed. */
  readonly payer_amount?: string;
  /** Overrides the application's supported rails for this derivation (PROFILE.md §9). */
  readonly supported_rails?: readonly string[];
  readonly conversion?: Conversion;
}

export type Conditions = { readonly [F in RailField]?: string } & { readonly expires_at: string };

export interface Payment {
  readonly id: string;
  readonly state: 'CREATED';
  readonly payer: unknown;
  readonly payee: PayeeDescriptor;
  readonly value: { readonly amount: string; readonly asset: AssetDescriptor };
  readonly intent: { readonly reference: string; readonly conditions: Conditions };
  readonly authorization: unknown;
  readonly context: {
    readonly rail: unknown;
    readonly request_id: string;
    readonly conversion?: Conversion & { readonly disclosed: true };
  };
}
