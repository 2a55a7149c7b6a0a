import { availableParallelism } from 'node:os';
import { relative, sep } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// CPR_SELF_ALLURE=DIR: the project's own tests also write Allure results there
// (a conformance run writes its own allure-results/ from report.json).
const selfAllure = process.env['CPR_SELF_ALLURE'];
// CPR_MUTATION_CHECK=1: also the check of the mutation-testing setup (a real Stryker run
// over a few lines: minutes on a loaded machine), which .ci/run runs after npm test.
const mutationCheck = process.env['CPR_MUTATION_CHECK'] === '1';

// The test files that replace a module (vi.mock) run each in a module graph of
// its own; every other file shares its worker's modules with the files before
// it (no per-file isolation: importing the harness once per worker, not once
// per file, saves most of the import time). test/portability.test.ts keeps the list true.
export const ISOLATED = ['test/harness/registry-error.test.ts'];

// The slow tier: the files that run the whole suite, a fuzzing campaign that
// must find a fault, a command end to end in child processes, a browser, the
// packed package or Stryker. `npm test` runs the other files (the fast tier,
// under a minute of CPU) and the targeted selftest; `npm run test:slow` runs
// these, and .ci/run runs both. Every file is in exactly one tier
// (test/portability.test.ts checks the list names files that exist).
export const SLOW = [
  // Longest first (seconds on a 2-core machine): the order the slow tier starts them in (SlowLongestFirst).
  'test/mutation/stryker.test.ts', // 93
  'test/harness/fuzz/paying-app/campaign.test.ts', // 80
  'test/harness/fuzz/unseen.test.ts', // 74
  'test/harness/bench/bench.test.ts', // 69
  'test/package.test.ts', // 53
  'test/harness/fuzz/campaign.test.ts', // 49
  'test/harness/one-engine.test.ts', // 36
  'test/harness/certify.test.ts', // 35
  'test/harness/hostile/interrupt.test.ts', // 35
  'test/suites/base-urls.test.ts', // 33
  'test/action.test.ts', // 30
  'test/suites/policies.test.ts', // 27
  'test/harness/target/lifecycle.test.ts', // 26
  'test/harness/hostile/run.test.ts', // 26
  'test/harness/run.test.ts', // 26
  'test/harness/compare.test.ts', // 24
  'test/harness/concurrent-runs.test.ts', // 20
  'test/harness/fuzz/payee/campaign.test.ts', // 19
  'test/harness/verdict/warnings.test.ts', // 14
  'test/harness/fuzz/clock.test.ts', // 12
  'test/examples.test.ts', // 11
  'test/harness/hostile/stores.test.ts', // 11
  'test/harness/hostile/fuzz.test.ts', // 9
  'test/harness/hostile/report-safety.test.ts', // 5
  'test/harness/hostile/clock.test.ts', // 5
  'test/harness/fuzz/shards.test.ts', // 4
  'test/harness/fuzz/breach.test.ts', // 4
  'test/harness/hostile/secrets.test.ts', // 2
  'test/suites/reference.test.ts', // 0.3
];

/**
 * The slow tier starts its files in SLOW's order, longest first, so that the
 * two workers end together. Vitest orders by the durations it cached on an
 * earlier run, and without them (CI's clean clone) by file size, largest
 * first: the Stryker check, the longest file and one of the smallest, then
 * started near the end, alone.
 */
class SlowLongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => SLOW.indexOf(relative(import.meta.dirname, file.moduleId).split(sep).join('/'));
    return sorted.every((file) => rank(file) >= 0) ? [...sorted].sort((a, b) => rank(a) - rank(b)) : sorted;
  }
}

const exclude = [...configDefaults.exclude, 'test/mutation/*.mutation.test.ts', ...(mutationCheck ? [] : ['test/mutation/stryker.test.ts'])];

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...exclude, ...ISOLATED, ...SLOW], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude, isolate: true } },
      { extends: true, test: { name: 'slow', include: SLOW, exclude, isolate: false } },
    ],
    // Vitest's default is one worker fewer than the cores: one worker on a
    // 2-core machine. Most test files wait on loopback servers and child
    // processes rather than compute, so two workers even there.
    maxWorkers: Math.max(2, availableParallelism()),
    // Temporary files under one folder, removed at the end (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    sequence: { sequencer: SlowLongestFirst },
    testTimeout: 20_000,
    ...(selfAllure
      ? { setupFiles: ['allure-vitest/setup'], reporters: ['default', ['allure-vitest/reporter', { resultsDir: selfAllure }]] }
      : {}),
  },
});
