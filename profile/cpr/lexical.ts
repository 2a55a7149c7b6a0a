// Amount and timestamp grammar, split by who makes the rule. The spec asks for an
// amount in the smallest unit (§2.3) and ISO 8601 UTC timestamps (§2.1); the
// profile narrows both to one written form (PROFILE.md §1). A value the spec
// would accept but written another way breaks only the profile rule, so an
// implementation on another wire format is reported separately (PROFILE.md intro).
import { isAmount } from '../amount.ts';
import { parseTimestamp } from '../time.ts';
import type { Finding } from './findings.ts';

/** A decimal numeral (PROFILE.md §1, amount categories): sign, digits, fraction, exponent; no white space. */
const NUMERAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/**
 * Whether a numeral denotes a whole number of at least zero, decided exactly on
 * its digits (never through a binary floating-point value): `1.0`, `1e3` and
 * `1e400` are whole, `1.00000000000000000001` and `1e-1` are not.
 */
function wholeNonNegativeNumeral(text: string): boolean | undefined {
  const m = NUMERAL.exec(text);
  if (!m) return undefined;
  const [, sign, int = '', frac = '', exp] = m;
  if (int === '' && frac === '') return undefined; // no digit at all: '', '.', '+', 'e5'
  const digits = int + frac;
  if (/^0*$/.test(digits)) return true; // zero, whatever its sign, fraction or exponent
  if (sign === '-') return false;
  // The value is digits × 10^(exponent − fraction length): whole when that power is
  // not negative, or when the digits end in at least as many zeros as it takes away.
  const scale = BigInt(exp ?? '0') - BigInt(frac.length);
  if (scale >= 0n) return true;
  const trailingZeros = digits.length - digits.replace(/0+$/, '').length;
  return BigInt(trailingZeros) >= -scale;
}

/**
 * undefined for a profile amount; PRF-AMT-1 for a whole number of at least zero
 * written another way (zero, a leading zero, a sign, an exponent, a fraction of
 * zeros, more than 78 digits, a JSON number); CPR-VAL-2 for anything else
 * (PROFILE.md §1, "Amount defects").
 */
export function amountFinding(value: unknown): Finding | undefined {
  if (isAmount(value)) return undefined;
  const whole = typeof value === 'number' ? Number.isInteger(value) && value >= 0 : typeof value === 'string' ? wholeNonNegativeNumeral(value) === true : false;
  if (whole) {
    return { requirement: 'PRF-AMT-1', message: 'must be written as a decimal string matching ^[1-9][0-9]{0,77}$ (no zero, leading zero, sign, exponent, fraction or JSON number)' };
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
