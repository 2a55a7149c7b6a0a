// The reduction after shrinking: a finding keeps only the commands, burst
// members and accounts its cause needs, within a count of runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext, runOnce } from '../../../harness/fuzz/campaign.ts';
import { FuzzCommand } from '../../../harness/fuzz/commands.ts';
import { HarnessFault, Mismatch } from '../../../harness/fuzz/mismatch.ts';
import { reduceFinding, type FailingRun, type RunWorld } from '../../../harness/fuzz/reduce.ts';
import { regressionText } from '../../../harness/fuzz/regression.ts';
import type { CommandSpec } from '../../../harness/fuzz/spec.ts';
import type { FuzzContext, RunSetup } from '../../../harness/fuzz/world.ts';
import YAML from 'yaml';
import { startMutant, type MutantUnderTest } from './scenario-target.ts';

const ISSUE: CommandSpec = { kind: 'issue', amount: { small: 5 }, expiry: 'typical', signer: 'principal' };
const REDEEM: CommandSpec = { kind: 'redeem', pack: 0, by: 'bearer', identity: 'identified' };
const SETUP: RunSetup = { balance: 'max' };

describe('the reduction of a finding to what its cause needs', () => {
  let faulty: MutantUnderTest;
  let context: FuzzContext;
  let calls = 0;
  const run: RunWorld = (setup, commands) => {
    calls++;
    return runOnce(context, [setup], commands.map((spec) => new FuzzCommand(spec)), () => false);
  };
  /** The failing run of these commands, as the campaign hands it over. */
  const found = async (commands: readonly CommandSpec[]): Promise<FailingRun> => {
    const record = await run(SETUP, commands);
    expect(record.error).toBeInstanceOf(Mismatch);
    const error = record.error as Mismatch;
    return { setup: SETUP, commands: record.world!.executed, world: record.world!, detail: error.detail, message: error.message };
  };

  beforeAll(async () => {
    // Redeem step 9 with <= for <: the redeemer at the required level is refused.
    faulty = await startMutant('op-identity-level-strict');
    context = await openContext(faulty.role);
  });
  afterAll(async () => {
    await faulty.close();
  });

  it.each<[string, CommandSpec]>([
    ['a burst', { kind: 'burst', pack: 1, op: 'redeem', copies: 4 }],
    ['an interleaving', { kind: 'interleave', pack: 1, ops: ['status', 'redeem', 'status'], order: [2, 0, 1] }],
  ])('keeps one issue and one redeem of a finding made in %s after unrelated commands, and the one redeemer', async (_name, carrier) => {
    const start = await found([
      ISSUE,
      { kind: 'status', pack: 0, caller: 'stranger' },
      { kind: 'advance', by: { seconds: 5 } },
      { ...ISSUE, amount: { small: 7 }, dated: { permille: 200 } },
      { kind: 'cancel', pack: 0 },
      carrier,
    ]);
    const reduced = await reduceFinding(run, start, 100);
    expect(reduced.detail.cause).toEqual(start.detail.cause);
    expect(reduced.detail.cause.requirement).toBe('CPP-IDN-1');
    // Both issues can go, but not both at once; the dating is dropped.
    expect(reduced.commands.map((c) => c.kind)).toEqual(['issue', 'redeem']);
    expect(reduced.commands[0]).not.toHaveProperty('dated');
    expect(reduced.commands[1]).toEqual({ ...REDEEM, pack: 1 });
    expect(reduced.setup).toEqual({ balance: 'max', without: ['stranger', 'redeemer2', 'redeemer_low'] });
    expect(reduced.attempts).toBeLessThanOrEqual(100);
    // The regression scenario is then provision, issue, redeem: nothing else.
    const doc = YAML.parse(regressionText({ seed: 1, world: reduced.world, failure: reduced.detail, flaky: false, commands: [], reproduce: 'test' })) as { scenarios: { steps: { do: string }[] }[] };
    expect(doc.scenarios[0]!.steps.map((s) => s.do)).toEqual(['clock', 'provision-principal', 'provision-redeemer', 'keygen', 'issue', 'redeem']);
  }, 30_000);

  it('stops after the number of runs it is given', async () => {
    const start = await found([ISSUE, { kind: 'status', pack: 0, caller: 'principal' }, { kind: 'status', pack: 0, caller: 'redeemer' }, REDEEM]);
    calls = 0;
    const reduced = await reduceFinding(run, start, 2);
    expect(calls).toBe(2);
    expect(reduced.attempts).toBe(2);
    calls = 0;
    expect(await reduceFinding(run, start, 0)).toMatchObject({ attempts: 0, commands: start.commands });
    expect(calls).toBe(0);
  });

  it('keeps no removal after which the run fails for another cause', async () => {
    const start = await found([ISSUE, { kind: 'status', pack: 0, caller: 'principal' }, REDEEM]);
    const other: RunWorld = async (setup, commands) => {
      const record = await run(setup, commands);
      if (!(record.error instanceof Mismatch)) return record;
      return { ...record, error: new Mismatch({ ...record.error.detail, cause: { ...record.error.detail.cause, requirement: 'CPP-RED-1' } }) };
    };
    calls = 0;
    const reduced = await reduceFinding(other, start, 20);
    expect(calls).toBeGreaterThan(2);
    expect(reduced.commands).toEqual(start.commands);
    expect(reduced.setup).toEqual(SETUP);
    expect(reduced.world).toBe(start.world);
  });

  it('throws a harness fault of a run, which is no finding', async () => {
    const start = await found([ISSUE, REDEEM]);
    await expect(reduceFinding(async () => ({ error: new HarnessFault('test control answered 500') }), start, 10)).rejects.toThrow('test control answered 500');
  });
});
