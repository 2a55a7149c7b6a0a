// A target whose clock another client keeps moving (the hostile clock-mover: a
// proxy to the reference that advances its clock an hour before every fifth
// request, as a second run would). Without a lease the run cannot stop it: the
// tests it touched are harness errors (HARNESS_CLOCK_MOVED), never a failed
// requirement, their failed checks recorded but charged nothing. With the
// lease the stranger's moves are refused and the run is judged as usual.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startClockMover, type HostileServer } from '../../fixtures/hostile/servers.ts';
import { cliHere, report, workDir } from './support.ts';

vi.setConfig({ testTimeout: 240_000 });

const SELECTION = ['--only', 'CPP-EXP-', '--only', 'CPP-ACT-', '--only', 'TOK-', '--only', 'PRF-CTL-', '--no-properties'];

let setup: Awaited<ReturnType<typeof startClockMover>> | undefined;
afterEach(async () => setup?.close());

async function moverBefore(lease: boolean): Promise<HostileServer> {
  setup = await startClockMover(lease);
  return setup.mover;
}

describe('a run against a target whose clock another client moves', () => {
  it('without a lease: the tests it touched are HARNESS_CLOCK_MOVED errors, and no requirement fails', async () => {
    const target = await moverBefore(false);
    const dir = workDir('clock-moved');
    const r = await cliHere(['run', '--target', target.url, '--ca', setup!.reference.caFile, ...SELECTION, '--report-dir', dir]);
    expect(target.stats.clockMoves.made).toBeGreaterThan(0);
    const out = report(dir);
    // Not a conformance result: an error, exit 2.
    expect(r.status).toBe(2);
    expect(out.verdict).toBe('error');
    expect(out.requirements.filter((q) => q.status === 'failed')).toEqual([]);
    expect(out.tests.filter((t) => t.status === 'failed')).toEqual([]);
    const moved = out.tests.filter((t) => t.error_code === 'HARNESS_CLOCK_MOVED');
    expect(moved.length).toBeGreaterThan(0);
    for (const t of moved) expect(t.reason).toMatch(/clock moved under the scenario without the harness moving it/);
    // What the moves made the checks see is kept, and charged nothing: those requirements are errors, not failures.
    const voided = moved.filter((t) => t.checks.some((c) => !c.passed));
    expect(voided.length).toBeGreaterThan(0);
    for (const t of voided) {
      for (const c of t.checks.filter((x) => !x.passed)) expect(out.requirements.find((q) => q.id === c.requirement)?.status).not.toBe('failed');
    }
    expect(r.stdout).toMatch(/^ERR {2}\S+ .* — the (operator|payee)'s clock moved under the scenario/m);
  });

  it('with the lease: the stranger is refused, nothing moved under the run, and it is judged as usual', async () => {
    const target = await moverBefore(true);
    const dir = workDir('clock-leased');
    const r = await cliHere(['run', '--target', target.url, '--ca', setup!.reference.caFile, ...SELECTION, '--report-dir', dir]);
    expect(target.stats.clockMoves.refused).toBeGreaterThan(0);
    const out = report(dir);
    // A selection: incomplete, and nothing failed or broke down.
    expect(r.status, r.stdout).toBe(3);
    expect(out.summary).toMatchObject({ failed: 0, error: 0 });
    expect(out.summary.passed).toBeGreaterThan(0);
  });
});
