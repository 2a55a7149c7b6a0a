// The payee fuzzer's commands as data (plain JSON, so a crash file carries them
// and `replay` runs them again). A request is named by its index among the
// requests the run created, taken modulo their number when the command runs.
import type { RailHint, SubInterface } from '../../../profile/cpr/index.ts';

/** How the harness reads the token it presents (PROFILE.md §12): the `token` member, or the token of the QR or deep-link URI. */
export type Via = 'token' | 'qr' | 'deep-link';
export const VIAS: readonly Via[] = ['token', 'qr', 'deep-link'];

/**
 * What is presented as the token: the token itself, or another string near it.
 * Truncated, extended and prefixed tokens, and the request_id, are other
 * tokens: unknown. An upper-case token is another string too (tokens are
 * lower-case hex, PROFILE.md §10). A token with some characters percent-encoded
 * is the same URI (RFC 3986 §6.2.2.2): a payee may take it for the token or for
 * an unknown one, but never serve it twice.
 */
export type TokenVariant =
  | 'exact'
  | { readonly truncate: number }
  | { readonly extend: string }
  | { readonly prefix: string }
  | 'upper-case'
  | { readonly percent: string; readonly upperHex: boolean }
  | 'request-id';

/** A clock move (forward only): whole seconds, or to an instant a request carries, to the millisecond. */
export type ClockMove =
  | { readonly seconds: number }
  | { readonly to: 'token-expiry' | 'request-expiry'; readonly of: number; readonly deltaMs: number }
  | 'token-lifetime'
  | 'request-validity';

/** The input of POST /_control/payee/requests (PROFILE.md §12). */
export interface RequestInput {
  readonly sub_interface: SubInterface;
  readonly amount?: string;
  readonly memo?: string;
  readonly rail_hint?: RailHint;
  readonly display_name?: string;
  readonly extensions?: Readonly<Record<string, unknown>>;
}

export type PayeeCommand =
  | { readonly kind: 'create'; readonly input: RequestInput }
  /** Two requests: one with an empty padding extension, then one padded so its inline form is 2 048 bytes + delta. */
  | { readonly kind: 'create-inline-limit'; readonly sub: SubInterface; readonly delta: -1 | 0 | 1 }
  | { readonly kind: 'retrieve'; readonly request: number | 'unknown'; readonly via: Via; readonly variant: TokenVariant; readonly plaintext?: true }
  /** Concurrent retrievals of one request, one through each channel listed. */
  | { readonly kind: 'burst'; readonly request: number; readonly vias: readonly Via[] }
  | { readonly kind: 'advance'; readonly by: ClockMove }
  | { readonly kind: 'fulfil'; readonly request: number | 'unknown' }
  | { readonly kind: 'fulfil-burst'; readonly request: number; readonly copies: number };

export type PayeeCommandKind = PayeeCommand['kind'];
export const PAYEE_COMMAND_KINDS: readonly PayeeCommandKind[] = ['create', 'create-inline-limit', 'retrieve', 'burst', 'advance', 'fulfil', 'fulfil-burst'];

/** Fresh state of a run: the frozen clock set this many milliseconds past a whole second, so that every instant can have a fraction. */
export interface PayeeSetup {
  readonly startMs: number;
}
