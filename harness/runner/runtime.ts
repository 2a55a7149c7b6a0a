// Runs inside a vitest worker: registers a suite file's selected scenarios as
// tests. Each test executes its scenario through the engine and hands the
// TestResult to the reporter in the task's meta; vitest's own pass/fail is only
// transport for that result.
import * as allure from 'allure-js-commons';
import { afterAll, describe, inject, it } from 'vitest';
import { findRequirement } from '../../profile/registry.ts';
import type { TestResult } from '../report/model.ts';
import { executeScenario } from '../scenarios/execute.ts';
import { loadSuiteFile } from '../scenarios/load.ts';
import { openTarget, type Target } from '../target/target.ts';
import { scenarioTarget } from './scenario-target.ts';
import './provided.ts';
import './runtime-meta.ts';


export function registerSuite(absolutePath: string, file: string): void {
  const run = inject('cprRun');
  const selected = new Set(run.selected);
  const suite = loadSuiteFile(absolutePath);
  let target: Promise<Target> | undefined;
  const openOnce = () => (target ??= openTarget(run.target));

  describe(`${suite.sections.join(' ')} ${suite.title}`, () => {
    afterAll(async () => {
      if (target) await (await target).close();
    });
    for (const scenario of suite.scenarios) {
      if (!selected.has(scenario.id)) continue;
      it(`${scenario.id} ${scenario.title}`, async (ctx) => {
        const result = await executeScenario(scenario, scenarioTarget(await openOnce()), {
          levelOf: (id) => findRequirement(id)?.level ?? scenario.level,
          rerun: (id) => `${run.rerunBase} --only ${id}`,
        });
        ctx.task.meta.cpr = result;
        await describeForAllure(result, file);
        if (result.status === 'skipped' || result.status === 'not-applicable') ctx.skip(`${result.status}: ${result.reason ?? ''}`);
        if (result.status !== 'passed') throw new ScenarioOutcome(result);
      });
    }
  });
}

/** Carries a non-passing result out of the test so vitest (and Allure) mark it. */
class ScenarioOutcome extends Error {
  constructor(result: TestResult) {
    super(`${result.status}: ${result.reason ?? ''}`);
    this.name = result.status === 'error' ? 'HarnessError' : 'ConformanceFailure';
  }
}

async function describeForAllure(result: TestResult, file: string): Promise<void> {
  await allure.epic(result.sections[0] ?? 'spec');
  await allure.feature(file);
  for (const id of result.requirements) await allure.story(id);
  await allure.severity(result.level === 'MUST' ? 'critical' : result.level === 'SHOULD' ? 'normal' : 'minor');
  await allure.label('level', result.level);
  await allure.label('role', result.role);
  if (result.transcript.length > 0) await allure.attachment('transcript.json', JSON.stringify(result.transcript, null, 2), 'application/json');
  const failed = result.checks.filter((c) => !c.passed);
  if (failed.length > 0) await allure.attachment('failed-checks.json', JSON.stringify(failed, null, 2), 'application/json');
}
