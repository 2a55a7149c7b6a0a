import { defineConfig } from 'vitest/config';

// The conformance run as a vitest file, for mutation testing (stryker.config.json,
// README "Mutation testing"): one `it` per scenario and property, and a seeded
// fuzz campaign, against the embedded reference in this process, so that
// Stryker's instrumentation of reference/ is live and records which tests reach
// each mutant. `npm test` does not run it (vitest.config.ts leaves it out).
export default defineConfig({
  test: {
    include: ['test/mutation/*.mutation.test.ts'],
    // One process, one file, tests in order: the embedded reference is started once.
    fileParallelism: false,
    globalSetup: ['test/mutation/suites.setup.ts'],
    // Count-bounded work only; Stryker's own timeout (stryker.config.json) ends a mutant that hangs.
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
