// Ctrl-C during a run against a slow target: the run stops within seconds,
// writes what it has as a valid report marked incomplete, and exits 2.
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startHostile, type HostileServer } from '../../fixtures/hostile/servers.ts';
import { cli, report, workDir } from './support.ts';

vi.setConfig({ testTimeout: 60_000 });

let slow: HostileServer | undefined;
afterAll(async () => slow?.close());

describe('run interrupted with SIGINT', () => {
  it('writes a partial report marked incomplete and exits 2', async () => {
    // Every test waits on a target answering a byte a second; nothing would end the run soon.
    slow = await startHostile('trickle', { answerPreflight: true, capabilities: ['provision', 'clock'] });
    const dir = join(workDir('interrupt'), 'report');
    let signalled = false;
    const r = await cli(['run', '--target', slow.url, '--request-timeout', '30000', '--unreachable-after', '0', '--report-dir', dir], {
      onSpawn: (child, output) => {
        const poll = setInterval(() => {
          // Once the tests are under way (the run's header is out), interrupt it.
          if (!output.stdout().includes('cpr-conformance 0.1.0')) return;
          clearInterval(poll);
          setTimeout(() => {
            signalled = true;
            child.kill('SIGINT');
          }, 1000);
        }, 100);
        child.once('close', () => clearInterval(poll));
      },
    });
    expect(signalled).toBe(true);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/interrupted: stopping the run and writing a partial report/);
    const out = report(dir);
    expect(out.run.incomplete).toBe(true);
    expect(out.verdict).toBe('error');
    expect(out.errors.map((e) => e.code)).toContain('INTERRUPTED');
    expect(out.errors.find((e) => e.code === 'INTERRUPTED')?.message).toMatch(/results are partial \(\d+ of \d+ tests\)/);
    expect(out.tests.length).toBeLessThan(20);
    expect(r.stdout).toMatch(/verdict: error: .*\(the run was cut short\)/);
    // Each test is counted once, and the test cut off in flight is not charged to the target:
    // the harness closed that connection itself, well before the 30 s request timeout.
    const ids = out.tests.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(out.tests.filter((t) => t.error_code === 'HARNESS_TARGET_UNREACHABLE' || t.error_code === 'HARNESS_INTERNAL')).toEqual([]);
    expect(out.tests.flatMap((t) => t.transcript).filter((e) => /TIMEOUT|within 30000 ms/.test(e.error ?? ''))).toEqual([]);
  });
});
