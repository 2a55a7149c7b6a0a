// Before an Operator scenario's first step: a frozen clock when the policy is too tight for a running one.
import { StepError, type ScenarioContext } from '../context.ts';
import { Params } from '../params.ts';
import { policyOf, tightPolicy } from './policy.ts';
import { ACTION_IMPLEMENTATIONS } from './table.ts';

/**
 * An Operator scenario against a tight policy runs on a frozen clock (released
 * after the scenario), frozen before its first step renders `now`. Without the
 * clock capability its dated messages would land outside a range the harness
 * cannot hit: the scenario is then not applicable.
 */
export async function exactClockForPolicy(ctx: ScenarioContext): Promise<void> {
  if (ctx.scenario.role !== 'operator' || ctx.clockFrozen) return;
  // A policy that cannot be read is not this scenario's business unless a step
  // needs it (that step then says so); the policy's own scenarios judge it.
  const policy = await policyOf(ctx).catch((error: unknown) => {
    if (error instanceof StepError) return undefined;
    throw error;
  });
  if (policy === undefined) return;
  const tight = tightPolicy(policy);
  if (tight === undefined) return;
  if (!ctx.target.capabilities('operator').has('clock')) {
    throw new StepError('skipped', `missing test-control capability: clock (the target ${tight}, which the harness hits only with the target's clock frozen)`);
  }
  await ACTION_IMPLEMENTATIONS.clock(ctx, new Params('clock', { freeze: true, role: 'operator' }));
}
