// The vitest test module for properties: the run includes this file when any
// property is selected. Like the scenario runtime, the TestResult travels in
// the task meta; vitest's pass/fail only carries it.
import { afterAll, describe, inject, it } from 'vitest';
import { findRequirement } from '../../profile/registry.ts';
import { PROPERTIES } from '../properties/catalogue.ts';
import { executeProperty } from '../properties/execute.ts';
import { openTarget, type Target } from '../target/target.ts';
import { scenarioTarget } from './scenario-target.ts';
import './provided.ts';
import './runtime-meta.ts';

const run = inject('cprRun');
const selected = new Set(run.selected);
let target: Promise<Target> | undefined;

describe('properties', () => {
  afterAll(async () => {
    if (target) await (await target).close();
  });
  for (const property of PROPERTIES) {
    if (!selected.has(property.id)) continue;
    it(`${property.id} ${property.title}`, async (ctx) => {
      target ??= openTarget(run.target);
      const result = await executeProperty(property, scenarioTarget(await target), {
        seed: run.seed,
        ...(run.propertyRuns !== undefined ? { runs: run.propertyRuns } : {}),
        timeLimitMs: 60_000,
        levelOf: (id) => findRequirement(id)?.level ?? property.level,
        rerun: (id) => `${run.rerunBase} --only ${id} --seed ${run.seed}`,
      });
      ctx.task.meta.cpr = result;
      if (result.status === 'skipped' || result.status === 'not-applicable') ctx.skip(`${result.status}: ${result.reason ?? ''}`);
      if (result.status !== 'passed') throw new Error(`${result.status}: ${result.reason ?? ''}`);
    });
  }
});
