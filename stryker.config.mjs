// Mutation testing of the reference with the conformance run as the test
// (README "Mutation testing"): `npm run mutation`, narrowed with
// `npm run mutation -- --mutate reference/payee/tokens.ts`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  // The conformance run as vitest tests, one per scenario and property, in one
  // process with the reference: Stryker records which tests reach each mutant.
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // A mutant that does not type-check is reported as such, never run.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  plugins: ['@stryker-mutator/vitest-runner', '@stryker-mutator/typescript-checker', './mutation/fault-switch-ignorer.js', './mutation/free-text-ignorer.js'],
  // The hand-made faults' switches, and the words of messages no rule fixes (each file says why).
  ignorers: ['fault-switch', 'free-text'],
  // All of the reference but the hand-made faults (the catalogue, the lax
  // verifiers and the validator's faults only its mutants call, and the parts
  // written again for the fuzzer mutants, reference/faults/), test control (PROFILE.md §12): its
  // routes, the provisioning of principals and the payee's request input, the throw-away TLS
  // material (tls.ts: its names, critical flags and validity margins are no rule of the spec or the
  // profile; a certificate a client must refuse is the retrieval stub's to make), and how the
  // reference is started and hosted: its start-up options, listeners and certificate names
  // (start.ts), the module adapter's wiring (adapter.ts) and the worker thread that hosts it
  // (thread.ts), which test/reference/start.test.ts and its neighbours test. What it serves is
  // the handlers' code (operator/, payee/, paying-app/, http/, router.ts, clock.ts).
  mutate: [
    'reference/**/*.ts',
    '!reference/mutants.ts',
    '!reference/operator/lax-verifiers.ts',
    '!reference/paying-app/mutant-validation.ts',
    '!reference/faults/operator.ts',
    '!reference/faults/knobs.ts',
    '!reference/faults/payee.ts',
    '!reference/faults/app.ts',
    '!reference/control.ts',
    '!reference/operator/control.ts',
    '!reference/operator/provision.ts',
    '!reference/payee/input.ts',
    '!reference/tls.ts',
    '!reference/start.ts',
    '!reference/adapter.ts',
    '!reference/thread.ts',
  ],
  // The file is committed: a rerun tests only the mutants of code (or tests) that changed.
  incremental: true,
  incrementalFile: 'mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, reportMutants: false, reportTests: false },
  // Two cores: a checker and a test runner each. A loaded machine runs the
  // conformance tests several times slower than the dry run measured them.
  concurrency: 2,
  timeoutFactor: 3,
  timeoutMS: 30_000,
  dryRunTimeoutMinutes: 20,
  ignorePatterns: ['reports', '.tmp', 'examples'],
};
