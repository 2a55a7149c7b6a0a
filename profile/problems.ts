// RFC 9457 problem details with the spec's and the profile's codes, PROFILE.md §11.

/** The ten error codes of spec §7.1; the profile adds its own (PROBLEM_STATUS). */
export const SPEC_ERROR_CODES = [
  'INSUFFICIENT_BALANCE',
  'AMOUNT_EXCEEDS_LIMIT',
  'INVALID_SIGNATURE',
  'BEARER_MISMATCH',
  'CHAIN_DIGEST_MISMATCH',
  'INSTRUMENT_NOT_ACTIVE',
  'CHAIN_DEPTH_EXCEEDED',
  'REDEEMER_NOT_IDENTIFIED',
  'DUPLICATE_ID',
  'EXPIRY_INVALID',
] as const;

/** Exactly one HTTP status per code. */
export const PROBLEM_STATUS = {
  INSUFFICIENT_BALANCE: 422,
  AMOUNT_EXCEEDS_LIMIT: 422,
  INVALID_SIGNATURE: 400,
  BEARER_MISMATCH: 403,
  CHAIN_DIGEST_MISMATCH: 409,
  INSTRUMENT_NOT_ACTIVE: 409,
  CHAIN_DEPTH_EXCEEDED: 422,
  REDEEMER_NOT_IDENTIFIED: 403,
  DUPLICATE_ID: 409,
  EXPIRY_INVALID: 422,
  MALFORMED_REQUEST: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  METHOD_NOT_ALLOWED: 405,
  NOT_FOUND: 404,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  PRINCIPAL_UNKNOWN: 403,
  STALE_REQUEST: 422,
  ASSET_NOT_SUPPORTED: 422,
  TOKEN_UNKNOWN: 404,
  TOKEN_CONSUMED: 410,
  TOKEN_EXPIRED: 410,
  TLS_REQUIRED: 403,
  REQUEST_CONSUMED: 409,
  REQUEST_EXPIRED: 410,
  CONTROL_DISABLED: 404,
  CONTROL_BUSY: 409,
  INTERNAL_ERROR: 500,
} as const;

export type ProblemCode = keyof typeof PROBLEM_STATUS;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const PROBLEM_TYPE_BASE = 'https://cpr-conformance.dev/problems/';

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: ProblemCode;
  readonly detail: string;
}

export function problem(code: ProblemCode, detail: string): Problem {
  return { type: PROBLEM_TYPE_BASE + code, title: code.toLowerCase().replaceAll('_', ' '), status: PROBLEM_STATUS[code], code, detail };
}

export function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && Object.hasOwn(PROBLEM_STATUS, value);
}
