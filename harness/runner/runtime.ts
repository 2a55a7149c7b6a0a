// Runs inside a vitest worker: registers a suite file's selected scenarios as
// tests. Each test executes its scenario through the engine and hands the
// TestResult to the reporter in the task's meta; vitest's own pass/fail is only
// transport for that result. The run guard (guard.ts) reports a test of a role
// that stopped answering, or one past the run's time limit, without running it.
import { afterAll, describe, inject, it } from 'vitest';
import { findRequirement } from '../../profile/registry.ts';
import type { TestResult } from '../report/model.ts';
import type { ErrorCode } from '../scenarios/context.ts';
import { applicability, executeScenario, unrunResult } from '../scenarios/execute.ts';
import { loadSuiteFile } from '../scenarios/load.ts';
import { openTarget, type Target } from '../target/target.ts';
import { runGuard } from './guard.ts';
import { scenarioTarget } from './scenario-target.ts';
import { openFailure, withinTimeLimit } from './test-limits.ts';
import './provided.ts';
import './runtime-meta.ts';

export function registerSuite(absolutePath: string): void {
  const run = inject('cprRun');
  const selected = new Set(run.selected);
  const suite = loadSuiteFile(absolutePath);
  const guard = runGuard({ unreachableAfter: run.limits.unreachableAfter, ...(run.limits.deadlineAt !== undefined ? { deadlineAt: run.limits.deadlineAt } : {}) });
  let target: Promise<Target> | undefined;
  const openOnce = () => (target ??= openTarget(run.target, run.limits.requestTimeoutMs !== undefined ? { timeoutMs: run.limits.requestTimeoutMs } : {}));

  describe(`${suite.sections.join(' ')} ${suite.title}`, () => {
    afterAll(async () => {
      if (target) await (await target.catch(() => undefined))?.close();
    });
    for (const scenario of suite.scenarios) {
      if (!selected.has(scenario.id)) continue;
      it(`${scenario.id} ${scenario.title}`, async (ctx) => {
        const rerun = `${run.rerunBase} --only ${scenario.id}`;
        const unrun = (code: ErrorCode, reason: string, ms?: number) => unrunResult(scenario, code, reason, rerun, ms);
        let result: TestResult;
        try {
          const opened = guard.guard(scenarioTarget(await openOnce()));
          // A test that would not apply, or be skipped, is reported so (it sends nothing); the rest may be blocked.
          const blocked = applicability(scenario, opened) ? undefined : guard.blocked(opened, scenario.role);
          result = blocked
            ? unrun(blocked.code, blocked.reason)
            : await withinTimeLimit(
                executeScenario(scenario, opened, { levelOf: (id) => findRequirement(id)?.level ?? scenario.level, rerun: () => rerun }),
                run.limits.testTimeLimitMs,
                () => unrun('HARNESS_DEADLINE_EXCEEDED', `stopped: the scenario ran longer than ${run.limits.testTimeLimitMs} ms`, run.limits.testTimeLimitMs),
              );
        } catch (error) {
          const failure = openFailure(error);
          result = unrun(failure.code, failure.reason);
        }
        ctx.task.meta.cpr = result;
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
