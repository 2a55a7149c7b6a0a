// boundaryOffset: where a value sits relative to the instant its rule compares
// with (class timestamp.boundary): at it, one tick either side, within the
// second either side, and one second and a tick out. A CPR instant has a
// millisecond tick; a cash-pack instant a one-second tick (PROFILE.md §1), so
// its offsets are whole seconds.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export interface BoundaryOffsetConstraints {
  /** 'ms' (CPR timestamps, 1 to 3 fraction digits) or 's' (cash-pack timestamps, whole seconds). */
  readonly tick: 'ms' | 's';
}

/** An offset in ms from the rule's instant: negative before it, 0 at it. */
export function boundaryOffset(constraints: BoundaryOffsetConstraints): fc.Arbitrary<ClassValue<number>> {
  const { tick } = constraints;
  if (tick !== 'ms' && tick !== 's') throw new RangeError(`boundaryOffset: constraints.tick must be ms or s, got ${String(tick)}`);
  const label = (ms: number) => ({ class: 'timestamp.boundary' as const, value: ms, note: ms === 0 ? 'at the instant' : `${ms > 0 ? '+' : ''}${ms} ms from the instant` });
  if (tick === 's') return fc.constantFrom(0, 1000, -1000, 2000, -2000).map(label);
  return fc
    .oneof(
      fc.constantFrom(0, 1, -1, 999, -999, 1000, -1000, 1001, -1001),
      fc.integer({ min: -999, max: 999 }),
    )
    .map(label);
}
