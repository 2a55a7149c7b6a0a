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

const exclude = [...configDefaults.exclude, 'test/mutation/*.mutation.test.ts', ...(mutationCheck ? [] : ['test/mutation/stryker.test.ts'])];

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...exclude, ...ISOLATED], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude, isolate: true } },
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
