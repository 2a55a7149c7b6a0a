// Amounts: decimal strings of the smallest unit, PROFILE.md §1.
const AMOUNT_PATTERN = /^[1-9][0-9]{0,77}$/;

export function isAmount(value: unknown): value is string {
  return typeof value === 'string' && AMOUNT_PATTERN.test(value);
}

/** A balance may also be zero. */
export function isBalance(value: unknown): value is string {
  return value === '0' || isAmount(value);
}

export function toAmount(value: bigint): string {
  if (value < 0n) throw new RangeError('amounts are never negative');
  return value.toString(10);
}
