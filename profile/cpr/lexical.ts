// Amount and timestamp grammar, split by who makes the rule. The spec asks for an
// amount in the smallest unit (§2.3) and ISO 8601 UTC timestamps (§2.1); the
// profile narrows both to one written form (PROFILE.md §1). A value the spec
// would accept but written another way breaks only the profile rule, so an
// implementation on another wire format is reported separately (PROFILE.md intro).
import { isAmount } from '../amount.ts';
import { parseTimestamp } from '../time.ts';
import type { Finding } from './findings.ts';

const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** undefined for a profile amount; PRF-AMT-1 for a whole non-negative number in another form; else CPR-VAL-2. */
export function amountFinding(value: unknown): Finding | undefined {
  if (isAmount(value)) return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC_TEXT.test(value) ? Number(value) : NaN;
  if (Number.isFinite(n) && Number.isInteger(n) && n >= 0) {
    return { requirement: 'PRF-AMT-1', message: 'must be written as a decimal string matching ^[1-9][0-9]{0,77}$ (no zero, leading zero, exponent, fraction or JSON number)' };
  }
  return 'must be a whole positive amount in the asset\'s smallest unit, as a decimal string';
}

// ISO 8601 in UTC, loosely: basic or extended form, any fraction, Z or a zero offset.
const ISO_8601_UTC = /^\d{4}-?\d{2}-?\d{2}[Tt ]\d{2}(:?\d{2}(:?\d{2}([.,]\d+)?)?)?([Zz]|[+-]00(:?00)?)$/;

/** undefined for a profile timestamp; PRF-TIME-1 for another ISO 8601 UTC form; else CPR-TIME-1. */
export function timestampFinding(value: unknown): Finding | undefined {
  if (parseTimestamp(value, 'cpr') !== undefined) return undefined;
  if (typeof value === 'string' && ISO_8601_UTC.test(value)) {
    return { requirement: 'PRF-TIME-1', message: 'must be an existing instant written YYYY-MM-DDTHH:MM:SS[.fff]Z (RFC 3339, upper-case T and Z, 0 to 3 fraction digits)' };
  }
  return 'must be an ISO 8601 timestamp in UTC';
}
