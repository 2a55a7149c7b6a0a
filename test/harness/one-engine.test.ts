// `run` and `selftest` are one engine: on the same target, with the same seed and
// property budget, they give the same result for every test, check by check.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TestResult } from '../../harness/report/model.ts';
import { conformanceRun } from '../../harness/runner/run.ts';
import type { Terminal } from '../../harness/runner/terminal.ts';
import { SELFTEST_PROPERTY_RUNS, SELFTEST_SEED, suiteAgainst } from '../../harness/selftest/selftest.ts';

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

describe('one engine', () => {
  it('run and selftest conclude the same for every test of the embedded reference', async () => {
    const run = await conformanceRun(
      {
        target: { kind: 'embedded' },
        only: [],
        roles: [],
        scenarioFiles: [],
        strict: false,
        profileAdvisory: false,
        seed: SELFTEST_SEED,
        propertyRuns: SELFTEST_PROPERTY_RUNS,
        reportDir: join(dir, 'run'),
        command: ['cpr-conformance', 'run'],
        rerunBase: 'npx cpr-conformance run',
      },
      quiet,
    );
    const selftest = await suiteAgainst(undefined);
    expect(run.report.tests.length).toBeGreaterThan(300);
    expect(run.report.tests.map(conclusion)).toEqual(selftest.results.map(conclusion));
    expect(run.report.verdict).toBe('conformant');
  });
});
