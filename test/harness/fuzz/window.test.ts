import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inWindow } from '../../../harness/fuzz/volume.ts';

interface Pending {
  readonly at: number;
  settle(ok: boolean): void;
}

/** Drives inWindow with requests the test answers, in the order `picks` chooses among those in flight. */
async function drive(count: number, width: number, picks: readonly number[], options: { haltAfter?: number; judgeThrowsAt?: number; failsAt?: number } = {}) {
  const inFlight: Pending[] = [];
  const started: number[] = [];
  const judged: number[] = [];
  let most = 0;
  let startedAtFailure: number | undefined;
  const outcome = inWindow<number>(
    count,
    width,
    () => options.haltAfter !== undefined && started.length >= options.haltAfter,
    (at) => {
      started.push(at);
      return new Promise<number>((resolve, reject) => {
        inFlight.push({ at, settle: (ok) => (ok ? resolve(at * 10) : reject(new Error(`request ${at} failed`))) });
        most = Math.max(most, inFlight.length);
      });
    },
    (at, reply) => {
      expect(reply).toBe(at * 10);
      if (at === options.judgeThrowsAt) {
        startedAtFailure = started.length;
        throw new Error(`judged ${at} different`);
      }
      judged.push(at);
    },
  ).then(
    () => 'resolved' as const,
    (error: Error) => error.message,
  );
  let ended: string | undefined;
  void outcome.then((e) => (ended = e));
  for (let k = 0; inFlight.length > 0; k++) {
    const [answered] = inFlight.splice(picks[k % picks.length]! % inFlight.length, 1);
    if (answered!.at === options.failsAt) startedAtFailure = started.length;
    answered!.settle(answered!.at !== options.failsAt);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
  return { started, judged, most, ended, startedAtFailure };
}

describe('inWindow: a flood sent a window at a time (fuzz/volume.ts)', () => {
  it('starts every request in order, never more than the width in flight, and judges each once in start order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(60), fc.integer({ min: 1, max: 20 }), fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), async (count, width, picks) => {
        const r = await drive(count, width, picks);
        expect(r.ended).toBe('resolved');
        expect(r.started).toEqual(Array.from({ length: count }, (_, i) => i));
        expect(r.judged).toEqual(r.started);
        expect(r.most).toBe(Math.min(width, count));
      }),
      { numRuns: 150, seed: 5 },
    );
  });

  it('starts no more once halted, and judges all it started', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 20 }), fc.nat(60), fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), async (count, width, haltAfter, picks) => {
        const r = await drive(count, width, picks, { haltAfter });
        expect(r.ended).toBe('resolved');
        expect(r.started.length).toBe(Math.min(count, haltAfter));
        expect(r.judged).toEqual(r.started);
      }),
      { numRuns: 150, seed: 6 },
    );
  });

  it('ends with the first difference or failed request, judging nothing after it and starting no more', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 20 }),
        fc.nat(59),
        fc.boolean(),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        async (count, width, at, judging, picks) => {
          const bad = at % count;
          const r = await drive(count, width, picks, judging ? { judgeThrowsAt: bad } : { failsAt: bad });
          expect(r.ended).toBe(judging ? `judged ${bad} different` : `request ${bad} failed`);
          // Judged in order up to the one that failed; nothing past it.
          expect(r.judged).toEqual(Array.from({ length: r.judged.length }, (_, i) => i));
          expect(r.judged.length).toBeLessThanOrEqual(bad);
          // Nothing started once it failed.
          expect(r.startedAtFailure).toBeDefined();
          expect(r.started.length).toBe(r.startedAtFailure);
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});
