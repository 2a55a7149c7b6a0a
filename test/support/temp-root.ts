// vitest globalSetup: every temporary file a test run makes, the tests' own and
// their child processes' (a conformance run's report folder, the reference's CA
// file, a browser's profile), goes under one folder of the system's temporary
// directory (TMPDIR, which os.tmpdir() reads and the workers and their children
// inherit), removed when the run ends, whether the tests passed or not. tsx
// keeps its transform cache in the temporary directory too (tsx-<user>): the
// folder links to the one it already has, so that a test run's child
// processes do not each compile the sources again.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // Each project of the configuration runs its global setup: the first one's folder serves them all.
  if (process.env['CPR_TESTS_TMPDIR'] !== undefined) return () => undefined;
  const previous = process.env['TMPDIR'];
  const root = mkdtempSync(join(tmpdir(), 'cpr-tests-'));
  const tsxCache = `tsx-${process.geteuid?.() ?? userInfo().username}`;
  try {
    mkdirSync(join(tmpdir(), tsxCache), { recursive: true, mode: 0o700 });
    symlinkSync(join(tmpdir(), tsxCache), join(root, tsxCache), 'dir');
  } catch {
    // No link where the system allows none (Windows without the privilege): tsx then fills a cache of the run's own, more slowly.
  }
  process.env['TMPDIR'] = root;
  process.env['CPR_TESTS_TMPDIR'] = root;
  return () => {
    delete process.env['CPR_TESTS_TMPDIR'];
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
