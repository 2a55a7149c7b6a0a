// A fuzzing campaign whose target's clock another client moves (the hostile
// clock-mover: a proxy to the reference that advances its clock an hour before
// every fifth request). Without a lease nothing stops it: the campaign ends as
// a harness error (HARNESS_CLOCK_MOVED), never a finding, and writes no crash
// file. The fuzz command holds the lease of a target that offers one, and the
// stranger's moves are then refused.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import { runCampaign } from '../../../harness/fuzz/index.ts';
import { startClockMover, type HostileServer } from '../../fixtures/hostile/servers.ts';
import { cli, workDir } from '../hostile/support.ts';

vi.setConfig({ testTimeout: 180_000 });

let setup: Awaited<ReturnType<typeof startClockMover>> | undefined;
afterEach(async () => setup?.close());

async function moverBefore(lease: boolean): Promise<HostileServer> {
  setup = await startClockMover(lease);
  return setup.mover;
}

describe('a campaign against a target whose clock another client moves', () => {
  it('ends as HARNESS_CLOCK_MOVED, with no finding and no crash file', async () => {
    const target = await moverBefore(false);
    const operator = createHttpRole({ baseUrl: target.url, ca: setup!.reference.tls.ca });
    const outDir = workDir('fuzz-clock-moved');
    try {
      const campaign = runCampaign({ operator, seed: 3, budget: { kind: 'runs', runs: 5 }, lanes: 2, outDir, targetName: 'clock-mover' });
      await expect(campaign).rejects.toMatchObject({ code: 'HARNESS_CLOCK_MOVED', message: expect.stringMatching(/^the operator's clock moved under the campaign without the fuzzer moving it: it read .*, where the model had it frozen at .*; another client of its test control\? Nothing the run met is a finding$/) });
      expect(target.stats.clockMoves.made).toBeGreaterThan(0);
      expect(readdirSync(outDir).filter((f) => f.startsWith('crash-'))).toEqual([]);
    } finally {
      await operator.close();
    }
  });

  it('with the lease, which the fuzz command holds: the stranger is refused and nothing is found', async () => {
    const target = await moverBefore(true);
    const r = await cli(['fuzz', '--target', target.url, '--ca', setup!.reference.caFile, '--runs', '5', '--lanes', '2', '--seed', '3', '--out', workDir('fuzz-clock-leased')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/nothing found: every answer matched the model/);
    expect(target.stats.clockMoves.refused).toBeGreaterThan(0);
  });
});
