import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

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
  'test/action.test.ts',
  'test/examples.test.ts',
  'test/package.test.ts',
  'test/mutation/stryker.test.ts',
  'test/suites/base-urls.test.ts',
  'test/suites/policies.test.ts',
  'test/suites/reference.test.ts',
  'test/harness/bench/bench.test.ts',
  'test/harness/certify.test.ts',
  'test/harness/compare.test.ts',
  'test/harness/concurrent-runs.test.ts',
  'test/harness/one-engine.test.ts',
  'test/harness/run.test.ts',
  'test/harness/target/lifecycle.test.ts',
  'test/harness/verdict/warnings.test.ts',
  'test/harness/fuzz/breach.test.ts',
  'test/harness/fuzz/campaign.test.ts',
  'test/harness/fuzz/clock.test.ts',
  'test/harness/fuzz/unseen.test.ts',
  'test/harness/fuzz/shards.test.ts',
  'test/harness/fuzz/payee/campaign.test.ts',
  'test/harness/fuzz/paying-app/campaign.test.ts',
  'test/harness/hostile/clock.test.ts',
  'test/harness/hostile/fuzz.test.ts',
  'test/harness/hostile/interrupt.test.ts',
  'test/harness/hostile/run.test.ts',
  'test/harness/hostile/stores.test.ts',
  'test/harness/hostile/report-safety.test.ts',
  'test/harness/hostile/secrets.test.ts',
];

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
    testTimeout: 20_000,
    ...(selfAllure
      ? { setupFiles: ['allure-vitest/setup'], reporters: ['default', ['allure-vitest/reporter', { resultsDir: selfAllure }]] }
      : {}),
  },
});
