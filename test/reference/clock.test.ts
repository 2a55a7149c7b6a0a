// The reference's one clock as another thread reads it (Clock.share and
// sharedClockReader): every move is seen at once, frozen or running, and
// memory that is not a shared clock is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Clock, sharedClockReader } from '../../reference/clock.ts';

describe('a shared clock', () => {
  it('reads what the clock reads after any sequence of moves, shared before or after them', () => {
    const move = fc.oneof(
      fc.record({ kind: fc.constant('freeze' as const), at: fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: undefined }) }),
      fc.record({ kind: fc.constant('set' as const), at: fc.integer({ min: 0, max: 4_102_444_800_000 }) }),
      fc.record({ kind: fc.constant('advance' as const), seconds: fc.nat(10 ** 7) }),
      fc.record({ kind: fc.constant('unfreeze' as const) }),
    );
    fc.assert(
      fc.property(fc.array(move, { maxLength: 12 }), fc.nat(12), fc.integer({ min: 1_000_000_000_000, max: 2_000_000_000_000 }), (moves, sharedAfter, start) => {
        let real = start;
        const clock = new Clock(() => real);
        let read: (() => number) | undefined;
        const check = () => read && expect(read()).toBe(clock.now());
        for (const [i, m] of moves.entries()) {
          if (i === sharedAfter) read = sharedClockReader(clock.share(), () => real);
          if (m.kind === 'freeze') clock.freeze(m.at);
          else if (m.kind === 'set') clock.set(m.at);
          else if (m.kind === 'advance') clock.advance(m.seconds);
          else clock.unfreeze();
          real += 1234;
          check();
        }
        read ??= sharedClockReader(clock.share(), () => real);
        check();
      }),
      { numRuns: 300 },
    );
  });

  it('shares one memory however often it is asked', () => {
    const clock = new Clock();
    expect(clock.share()).toBe(clock.share());
  });

  it('refuses memory that is not a shared clock', () => {
    expect(() => sharedClockReader(new SharedArrayBuffer(8))).toThrow(/not the memory of a shared clock/);
    expect(() => sharedClockReader(new ArrayBuffer(24) as unknown as SharedArrayBuffer)).toThrow(/not the memory of a shared clock/);
    expect(() => sharedClockReader({} as SharedArrayBuffer)).toThrow(/not the memory of a shared clock/);
  });
});
