// `run` and `selftest` are one engine: on the same target, with the same seed and
// property budget, they give the same result for every test, check by check;
// and `run --concurrency N` gives the report and terminal order of a run one
// test at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TestResult } from '../../harness/report/model.ts';
import { conformanceRun } from '../../harness/runner/run.ts';
import type { Terminal } from '../../harness/runner/terminal.ts';
import { SELFTEST_PROPERTY_RUNS, SELFTEST_SEED } from '../../harness/selftest/selftest.ts';
import { referenceResults } from '../support/reference-run.ts';

vi.setConfig({ testTimeout: 180_000 });

const dir = mkdtempSync(join(tmpdir(), 'cpr-one-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet: Terminal = { progress: () => undefined, endProgress: () => undefined, line: () => undefined, error: () => undefined };

/** What a test concluded, without what varies between two runs (times, keys, ids in transcripts). */
const conclusion = (t: TestResult) => ({
  id: t.id,
  status: t.status,
  error_code: t.error_code,
  checks: t.checks.map((c) => [c.check, c.requirement, c.level, c.passed, c.step ?? null]),
});

/** A full run against the embedded reference, as `run` starts it, with `given` on top. */
const embeddedRun = (given: { seed: number; propertyRuns?: number; concurrency?: number; reportDir: string }) => ({
  target: { kind: 'embedded' as const },
  only: [],
  roles: [],
  scenarioFiles: [],
  strict: false,
  profileAdvisory: false,
  command: ['cpr-conformance', 'run'],
  rerunBase: 'npx cpr-conformance run',
  ...given,
});

describe('one engine', () => {
  it('run and selftest conclude the same for every test of the embedded reference', async () => {
    const run = await conformanceRun(embeddedRun({ seed: SELFTEST_SEED, propertyRuns: SELFTEST_PROPERTY_RUNS, reportDir: join(dir, 'run') }), quiet);
    const selftest = await referenceResults();
    expect(run.report.tests.length).toBeGreaterThan(300);
    expect(run.report.tests.map(conclusion)).toEqual(selftest.map(conclusion));
    expect(run.report.verdict).toBe('conformant');
  });

  it('gives the same report.json and terminal order with tests side by side as one at a time, for one seed', async () => {
    const runWith = async (concurrency: number) => {
      const shown: string[] = [];
      const terminal: Terminal = { ...quiet, progress: (_done, _total, result) => void shown.push(`${result.id} ${result.status}`) };
      const { report } = await conformanceRun(embeddedRun({ seed: 7, concurrency, reportDir: join(dir, `concurrency-${concurrency}`) }), terminal);
      // Less what differs between any two runs: times, and the keys and ids the tests make afresh.
      const { run, tests, ...rest } = report;
      const { started_at: _started, duration_ms: _duration, target: _target, ...settings } = run;
      return { shown, settings, rest, tests: tests.map((t) => ({ ...conclusion(t), reason: t.reason, rerun: t.rerun, seed: t.seed, requirements: t.requirements })) };
    };
    const one = await runWith(1);
    const side = await runWith(8);
    expect(one.tests.length).toBeGreaterThan(300);
    expect(side).toEqual(one);
    expect(side.rest.verdict).toBe('conformant');
  });
});
