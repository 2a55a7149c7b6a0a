// A conformance run as a user starts it: `cpr-conformance run` in a new Node
// process against the embedded reference, timed from spawn to exit, with the
// numbers of tests and checks read back from its report.json. Timed `runs`
// times, one after another: the figure is the median, and every time is kept.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import { median } from './throughput.ts';

interface RunWallOptions {
  /** Extra `run` arguments; a full run has none. */
  readonly args: readonly string[];
  readonly seed: number;
  /** `--concurrency`; run's default when absent. */
  readonly concurrency?: number;
  /** Cold processes timed one after another (default 1). */
  readonly runs?: number;
  /**
   * An untimed run with the same arguments first, not only `--version`: a run
   * saves the code V8 compiled for it in the build (bin/compiled.cjs), which
   * every later run uses, so the first timed run after a change of the sources
   * would otherwise be the one that compiles everything.
   */
  readonly warmUp?: boolean;
}

export interface RunWallResult {
  /** The median of `samples`. */
  readonly wallSeconds: number;
  /** Each timed process, spawn to exit, in the order they ran. */
  readonly samples: readonly number[];
  readonly tests: number;
  readonly checks: number;
  readonly verdict: string;
  readonly command: readonly string[];
}

const CLI = join(PROJECT_ROOT, 'bin', 'cpr-conformance.js');

export async function measureRunWall(options: RunWallOptions): Promise<RunWallResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cpr-bench-run-'));
  // Each run writes into a folder of its own that does not exist yet, as a run
  // without --report-dir does (reports/<run-id>/): a run into a folder used
  // before first removes the earlier run's Allure results, hundreds of files.
  const argsFor = (reportDir: string) => [CLI, 'run', '--report-dir', reportDir, '--seed', String(options.seed), ...(options.concurrency !== undefined ? ['--concurrency', String(options.concurrency)] : []), ...options.args];
  const args = argsFor(dir);
  try {
    // Untimed first: the launcher brings its build of the sources up to date (bin/bundle.js), so the figure is a cold process's, not a first build's.
    let last = join(dir, 'warm-up');
    await cli(options.warmUp ? argsFor(last) : [CLI, '--version']);
    const samples: number[] = [];
    for (let k = 0; k < (options.runs ?? 1); k++) {
      rmSync(last, { recursive: true, force: true });
      last = join(dir, `run-${k + 1}`);
      const started = performance.now();
      const { code, stderr } = await cli(argsFor(last));
      samples.push((performance.now() - started) / 1000);
      // A full run is conformant (0); a selection (--quick) is at best incomplete (3).
      const expected = options.args.length === 0 ? [0] : [0, 3];
      if (code === null || !expected.includes(code)) {
        throw new HarnessError('HARNESS_INTERNAL', `the timed conformance run exited with ${code}, not ${expected.join(' or ')}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`, `run it alone: cpr-conformance ${argsFor(last).slice(1).join(' ')}`);
      }
    }
    const report = JSON.parse(readFileSync(join(last, 'report.json'), 'utf8')) as { verdict: string; tests: { checks?: unknown[] }[] };
    const checks = report.tests.reduce((n, t) => n + (t.checks?.length ?? 0), 0);
    return { wallSeconds: median(samples), samples, tests: report.tests.length, checks, verdict: report.verdict, command: ['cpr-conformance', ...args.slice(1).map((a) => (a === dir ? '<tmp>' : a))] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function cli(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr = (stderr + chunk).slice(-4000)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}
