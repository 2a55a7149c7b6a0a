// What PROP-OP-019 (issue) and PROP-OP-020 (renew, redeem) share when they
// break the Operator's checks of PROFILE.md §5 several at a time: which steps
// a case breaks, a created_at outside the freshness window, and the rule a
// wrong answer is charged to.
import fc from 'fast-check';

/** Seconds kept from an edge the harness's view of a running clock may be off by (a second either way, and the time a step takes). */
export const MARGIN_S = 2;

/** The last instant an RFC 3339 timestamp can write (9999-12-31T23:59:59Z). */
export const LAST_MS = 253_402_300_799_000;

/**
 * The step that decides, drawn evenly (each is the first broken as often),
 * and up to two later ones broken with it (every pair is one order two checks
 * can be swapped in); sorted by `orderOf`.
 */
export function brokenSteps<S>(steps: readonly S[], orderOf: (step: S) => number): fc.Arbitrary<S[]> {
  return fc.constantFrom(...steps).chain((first) => {
    const later = steps.filter((s) => orderOf(s) > orderOf(first));
    return fc.subarray(later, { maxLength: Math.min(2, later.length) }).map((broken) => [first, ...broken]);
  });
}

/** Seconds beyond the freshness window (and MARGIN_S), before or after the clock. */
export interface Stale {
  readonly side: -1 | 1;
  readonly by: number;
}

export const stale: fc.Arbitrary<Stale> = fc.record({ side: fc.constantFrom(-1 as const, 1 as const), by: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 86_400 })) });

/** A created_at outside the window on the side drawn, or on the other where that one is past what a timestamp can write; undefined when neither can be written (the step cannot be broken). */
export function staleCreatedAt(now: number, windowSeconds: number, drawn: Stale): number | undefined {
  const at = (side: -1 | 1) => now + side * (windowSeconds + MARGIN_S + drawn.by) * 1000;
  const side = ([drawn.side, -drawn.side] as (-1 | 1)[]).find((s) => at(s) >= 0 && at(s) <= LAST_MS);
  return side === undefined ? undefined : at(side);
}

/**
 * The rules a wrong answer to a message breaking `broken` (its first step
 * decides) is charged to: the right code with another status, the profile's
 * problem rule; another broken step's code, the order; the code of an earlier
 * step the message passes, that step's rule (it fired on a value it takes);
 * anything else, the deciding step's rule (its check did not answer).
 */
export function misansweredRules<S>(seen: unknown, status: number | null, expected: { readonly code: string; readonly status: number }, broken: readonly S[], steps: readonly S[], step: { readonly orderOf: (s: S) => number; readonly codeOf: (s: S) => string; readonly ruleOf: (s: S) => string }): string[] {
  const first = broken[0]!;
  if (seen === expected.code) return status === expected.status ? [] : ['PRF-ERR-1'];
  if (broken.some((s) => step.codeOf(s) === seen)) return ['PRF-ORDER-1'];
  const earlier = steps.find((s) => step.orderOf(s) < step.orderOf(first) && step.codeOf(s) === seen && !broken.includes(s));
  return [step.ruleOf(earlier ?? first)];
}
