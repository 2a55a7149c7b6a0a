// A paying application's answer when it will not go on (PROFILE.md §8.3): a value
// with a stable code and a sentence a payer can read, never an exception.
import type { Cpr, SubInterface, Violation } from '../../profile/cpr/index.ts';

export const REJECTION_CODES = [
  'URI_INVALID',
  'RETRIEVAL_FAILED',
  'CPR_VERSION_UNSUPPORTED',
  'CPR_INVALID',
  'CPR_EXPIRED',
  'RAIL_UNSUPPORTED',
  'PARTIAL_PAYMENT_UNSUPPORTED',
  'AMOUNT_REQUIRED',
] as const;

export type RejectionCode = (typeof REJECTION_CODES)[number];

export interface Rejection {
  readonly ok: false;
  readonly code: RejectionCode;
  /** Human readable. */
  readonly message: string;
  /** CPR_INVALID (and CPR_VERSION_UNSUPPORTED): each broken rule with its registry ID. */
  readonly violations?: readonly Violation[];
  /** RAIL_UNSUPPORTED: rails the application can pay with instead (spec §4.6.1 MAY). */
  readonly alternatives?: readonly string[];
}

/** A CPR that passed reading: valid, supported version, not expired. */
export interface Accepted {
  readonly ok: true;
  readonly cpr: Cpr;
  readonly subInterface: SubInterface;
  readonly notices: readonly string[];
}

export function reject(code: RejectionCode, message: string, extra: Pick<Rejection, 'violations' | 'alternatives'> = {}): Rejection {
  return { ok: false, code, message, ...extra };
}
