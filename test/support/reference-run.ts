// One in-process run of the embedded reference through the whole suite, with
// the selftest's engine, seed and property budget, shared by the test files of
// a worker that need its results (test files share their worker's modules:
// vitest.config.ts), so the whole suite runs against the reference once per
// worker rather than once per file.
import type { TestResult } from '../../harness/report/index.ts';
import { suiteAgainst } from '../../harness/selftest/selftest.ts';

let results: Promise<readonly TestResult[]> | undefined;

export function referenceResults(): Promise<readonly TestResult[]> {
  return (results ??= suiteAgainst(undefined).then((r) => r.results));
}
