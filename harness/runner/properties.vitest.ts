// The vitest test module for properties: the run includes this file when any
// property is selected. Like the scenario runtime, the TestResult travels in
// the task meta; vitest's pass/fail only carries it, and the run guard
// (guard.ts) reports a property it does not run as an error.
import { afterAll, describe, inject, it } from 'vitest';
import { findRequirement } from '../../profile/registry.ts';
import { PROPERTIES } from '../properties/catalogue.ts';
import { executeProperty } from '../properties/execute.ts';
import { PROPERTIES_FILE, type PropertyDefinition } from '../properties/types.ts';
import type { TestResult } from '../report/model.ts';
import type { ErrorCode } from '../scenarios/context.ts';
import { openTarget, type Target } from '../target/target.ts';
import { runGuard } from './guard.ts';
import { scenarioTarget } from './scenario-target.ts';
import { openFailure, withinTimeLimit } from './test-limits.ts';
import './provided.ts';
import './runtime-meta.ts';

const run = inject('cprRun');
const selected = new Set(run.selected);
const guard = runGuard({ unreachableAfter: run.limits.unreachableAfter, ...(run.limits.deadlineAt !== undefined ? { deadlineAt: run.limits.deadlineAt } : {}) });
let target: Promise<Target> | undefined;
/** A property stops generating cases after this long (fast-check's own limit) and says so. */
const PROPERTY_TIME_LIMIT_MS = 60_000;

describe('properties', () => {
  afterAll(async () => {
    if (target) await (await target.catch(() => undefined))?.close();
  });
  for (const property of PROPERTIES) {
    if (!selected.has(property.id)) continue;
    it(`${property.id} ${property.title}`, async (ctx) => {
      const rerun = `${run.rerunBase} --only ${property.id} --seed ${run.seed}`;
      const unrun = (code: ErrorCode, reason: string, ms = 0) => unrunProperty(property, code, reason, rerun, run.seed, ms);
      let result: TestResult;
      try {
        target ??= openTarget(run.target, run.limits.requestTimeoutMs !== undefined ? { timeoutMs: run.limits.requestTimeoutMs } : {});
        const opened = guard.guard(scenarioTarget(await target));
        // A property that would not apply, or be skipped, is reported so by executeProperty (it sends nothing).
        const inapplicable = opened.adapterKind(property.role) === undefined || property.needs.some((c) => !opened.capabilities(property.role).has(c));
        const blocked = inapplicable ? undefined : guard.blocked(opened, property.role);
        const limit = Math.max(run.limits.testTimeLimitMs, PROPERTY_TIME_LIMIT_MS + 10_000);
        result = blocked
          ? unrun(blocked.code, blocked.reason)
          : await withinTimeLimit(
              executeProperty(property, opened, {
                seed: run.seed,
                ...(run.propertyRuns !== undefined ? { runs: run.propertyRuns } : {}),
                timeLimitMs: PROPERTY_TIME_LIMIT_MS,
                levelOf: (id) => findRequirement(id)?.level ?? property.level,
                rerun: () => rerun,
              }),
              limit,
              () => unrun('HARNESS_DEADLINE_EXCEEDED', `stopped: the property ran longer than ${limit} ms`, limit),
            );
      } catch (error) {
        const failure = openFailure(error);
        result = unrun(failure.code, failure.reason);
      }
      ctx.task.meta.cpr = result;
      if (result.status === 'skipped' || result.status === 'not-applicable') ctx.skip(`${result.status}: ${result.reason ?? ''}`);
      if (result.status !== 'passed') throw new Error(`${result.status}: ${result.reason ?? ''}`);
    });
  }
});

function unrunProperty(def: PropertyDefinition, code: ErrorCode, reason: string, rerun: string, seed: number, ms: number): TestResult {
  return {
    id: def.id,
    title: def.title,
    kind: 'property',
    file: PROPERTIES_FILE,
    sections: def.sections,
    requirements: def.requirements,
    level: def.level,
    role: def.role,
    status: 'error',
    duration_ms: Math.round(ms),
    reason,
    error_code: code,
    checks: [],
    transcript: [],
    rerun,
    seed,
  };
}
