// Runs scenarios and properties directly through the engine, without vitest: for
// selftest (dozens of targets in one process) and the benchmark. A conformance
// run uses vitest (runner/run.ts); both produce the same TestResults.
import { findRequirement } from '../../profile/registry.ts';
import { executeProperty } from '../properties/execute.ts';
import type { PropertyDefinition } from '../properties/types.ts';
import type { TestResult } from '../report/model.ts';
import type { ScenarioTarget } from '../scenarios/context.ts';
import { executeScenario } from '../scenarios/execute.ts';
import type { Scenario } from '../scenarios/types.ts';

export interface SuiteRunOptions {
  readonly seed: number;
  readonly propertyRuns?: number;
  readonly rerunBase: string;
  /** Called after each test, for progress. */
  readonly onResult?: (result: TestResult) => void;
}

export async function runSuiteInProcess(
  target: ScenarioTarget,
  scenarios: readonly Scenario[],
  properties: readonly PropertyDefinition[],
  options: SuiteRunOptions,
): Promise<TestResult[]> {
  const results: TestResult[] = [];
  const levelOf = (fallback: Scenario['level']) => (id: string) => findRequirement(id)?.level ?? fallback;
  for (const scenario of scenarios) {
    const result = await executeScenario(scenario, target, { levelOf: levelOf(scenario.level), rerun: (id) => `${options.rerunBase} --only ${id}` });
    results.push(result);
    options.onResult?.(result);
  }
  for (const property of properties) {
    const result = await executeProperty(property, target, {
      seed: options.seed,
      ...(options.propertyRuns !== undefined ? { runs: options.propertyRuns } : {}),
      timeLimitMs: 30_000,
      levelOf: levelOf(property.level),
      rerun: (id) => `${options.rerunBase} --only ${id} --seed ${options.seed}`,
    });
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
