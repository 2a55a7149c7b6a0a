// The ids, amounts and times of a message, inside the resolved policy.
import fc from 'fast-check';
import { formatTimestamp } from '../../profile/time.ts';
import type { Resolved } from './constraints.ts';

export const stamp = (ms: number): string => formatTimestamp(ms, 'cashpack');

/** n distinct version 4 UUIDs. */
export function ids(n: number): fc.Arbitrary<string[]> {
  return fc.uniqueArray(fc.uuid({ version: 4 }), { minLength: n, maxLength: n });
}

export function amountUpTo(max: bigint): fc.Arbitrary<string> {
  return fc.oneof({ weight: 4, arbitrary: fc.bigInt({ min: 1n, max }) }, { weight: 1, arbitrary: fc.constant(max) }).map(String);
}

/** created_at within the request window (PROFILE.md §6), kept `skew` inside it. */
export function freshCreatedAt(r: Resolved): fc.Arbitrary<string> {
  const w = r.policy.request_window_seconds - r.skew;
  return fc.integer({ min: -w, max: w }).map((d) => stamp(r.now + d * 1000));
}
