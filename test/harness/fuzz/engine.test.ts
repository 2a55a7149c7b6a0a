// The engine's bounds under a run budget (harness/fuzz/engine.ts): shrinking
// stops after its count of runs, each of them whole, whatever the time it takes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../harness/errors.ts';
import { runEngine, SHRINK_RUNS, type CampaignRole, type Failing } from '../../../harness/fuzz/engine.ts';
import { Mismatch, type MismatchDetail } from '../../../harness/fuzz/mismatch.ts';

/** A role whose run fails when a sequence holds a value of 1000 or more; it records every run and how much of it ran. */
function thresholdRole() {
  const runs: { readonly commands: number; readonly ran: number; readonly failed: boolean }[] = [];
  const role: CampaignRole<number[], Failing> = {
    input: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 20, maxLength: 40 }),
    async run(input, halted) {
      let ran = 0;
      for (const value of input) {
        if (halted()) break;
        ran += 1;
        if (value >= 1000) {
          runs.push({ commands: input.length, ran, failed: true });
          const cause = { requirement: 'CPP-LIM-1', kind: 'issue', what: 'status', difference: '422 → 200' };
          const detail: MismatchDetail = { command: `value ${value}`, what: 'status', expected: 422, actual: 200, requirement: 'CPP-LIM-1', cause };
          const failing = { detail, message: 'over the limit' };
          return { failing, error: new Mismatch(detail) };
        }
      }
      runs.push({ commands: input.length, ran, failed: false });
      return {};
    },
    reduce: async (failing) => ({ ...failing, attempts: 0 }),
    commands: () => [],
    harnessError: (error) => new HarnessError('HARNESS_INTERNAL', String(error)),
    ops: () => runs.length,
  };
  return { role, runs };
}

describe('shrinking under a run budget', () => {
  it.each([[7], [40]])('makes at most shrinkRuns (%i) runs, each run to its end or its failure', async (shrinkRuns) => {
    const { role, runs } = thresholdRole();
    const result = await runEngine({ seed: 3, budget: { kind: 'runs', runs: 50 }, shrinkRuns }, role);
    expect(result.found).toBeDefined();
    expect(result.shrinks).toBe(shrinkRuns);
    // Exploring, shrinking and the replay: every run went to its end or its failure, none was cut by the count.
    expect(runs).toHaveLength(result.runs + result.shrinks + 1);
    expect(runs.filter((run) => !run.failed && run.ran < run.commands)).toEqual([]);
  });

  it('defaults to SHRINK_RUNS, and a campaign that shrinks in fewer stops when nothing smaller fails', async () => {
    const { role } = thresholdRole();
    const result = await runEngine({ seed: 3, budget: { kind: 'runs', runs: 50 } }, role);
    expect(result.found).toBeDefined();
    expect(result.shrinks).toBeGreaterThan(0);
    expect(result.shrinks).toBeLessThanOrEqual(SHRINK_RUNS);
  });
});
