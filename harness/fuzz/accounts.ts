// Commands on the world's accounts: provisioning one again (PROFILE.md §12:
// a Principal's available balance, a redeemer's identity level change, and
// every later request is judged on the new value), and reading the balances at
// a point of the run's choosing (an observation: commands marked `unread` read
// nothing, so what they changed must show whenever it is read, or in later
// answers).
import { toAmount } from '../../profile/index.ts';
import { assetField } from './choices.ts';
import type { Ctx } from './judge.ts';
import type { CommandSpec } from './spec.ts';
import { KEY, startingBalance } from './world.ts';

type Spec<K extends CommandSpec['kind']> = Extract<CommandSpec, { kind: K }>;

export async function reprovision(spec: Spec<'reprovision'>, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  w.executed.push(spec);
  if (spec.account === 'principal') {
    const principal = m.operator.principal(w.kid(KEY.principal))!;
    const balance = spec.balance === 'zero' ? 0n : spec.balance === 'same' ? principal.available : startingBalance(spec.balance, m.operator.policy.maxAmount);
    w.step({ do: 'provision-principal', key: KEY.principal, balance: toAmount(balance), ...assetField(w, w.principalAsset), note: 'provisioned again (PROFILE.md §12): a new available balance; locked and held funds stay' });
    await w.reprovision(KEY.principal, { balance });
    m.operator.reprovisionPrincipal(w.kid(KEY.principal), balance);
    await w.checkBalances(m, ctx, 'PRF-CTL-1', false);
    return;
  }
  // A redeemer the world left out (reduce.ts) stays unregistered: there is nothing to provision again.
  if (!w.redeemerLevels.has(spec.account)) return;
  w.step({ do: 'provision-redeemer', key: spec.account, identity_level: spec.level, note: 'provisioned again (PROFILE.md §12): a new identity level; credited funds stay' });
  await w.reprovision(spec.account, { level: spec.level });
  m.operator.reprovisionRedeemer(w.kid(spec.account), spec.level);
  await w.checkBalances(m, ctx, 'PRF-CTL-1', true);
}

export async function observe(spec: Spec<'observe'>, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  w.executed.push(spec);
  w.step({ do: 'balance', principal: KEY.principal, note: 'an observation at a point of the run: the balances as the model has them' });
  // An observation reads, even in a run that reads nothing else.
  w.quiet = false;
  await w.checkBalances(m, ctx, 'CPP-FND-1', true);
}
