// Vitest global setup of the mutation run (vitest.mutation.config.ts): the
// suites are parsed and validated once, in Vitest's own process, and handed to
// every run of the test file. Stryker reruns that file once per mutant, and
// reading the YAML suites is the largest part of a run that is not a test.
import type { TestProject } from 'vitest/node';
import { loadSuites } from '../../harness/scenarios/load.ts';
import type { Scenario } from '../../harness/scenarios/types.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    scenarios: Scenario[];
  }
}

export default function setup(project: TestProject): void {
  project.provide(
    'scenarios',
    loadSuites().flatMap((s) => s.scenarios),
  );
}
