import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import type { HttpRole } from '../../../harness/adapters/types.ts';
import { openContext, runOnce, setupArbitrary } from '../../../harness/fuzz/campaign.ts';
import { commandsArbitrary, FuzzCommand } from '../../../harness/fuzz/commands.ts';
import { COMMAND_KINDS, type CommandSpec } from '../../../harness/fuzz/spec.ts';
import { regressionId, regressionText, regressionYaml } from '../../../harness/fuzz/regression.ts';
import { main } from '../../../harness/cli/main.ts';
import { loadSuiteFile } from '../../../harness/scenarios/load.ts';
import type { FuzzContext, RunSetup } from '../../../harness/fuzz/world.ts';
import type { ScenarioTarget } from '../../../harness/scenarios/context.ts';
import { executeScenario } from '../../../harness/scenarios/execute.ts';
import { findRequirement } from '../../../profile/registry.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';

const failure = { command: 'probe', what: 'probe', expected: 1, actual: 2, requirement: 'CPP-RPL-1', cause: { requirement: 'CPP-RPL-1', kind: 'issue', what: 'probe', difference: 'differs' } } as const;

describe('the regression scenario of a model run', () => {
  let reference: RunningReference;
  let role: HttpRole;
  let context: FuzzContext;
  let target: ScenarioTarget;
  beforeAll(async () => {
    reference = await startReference({ port: 0, plaintextPort: null });
    role = createHttpRole({ baseUrl: reference.url, ca: reference.tls.ca });
    context = await openContext(role);
    target = {
      credential: () => undefined,
      httpRole: () => role,
      payingApp: undefined,
      capabilities: () => new Set(['provision', 'clock', 'cancel', 'balance']),
      adapterKind: () => 'http',
    };
  });
  afterAll(async () => {
    await role.close();
    await reference.close();
  });

  // The script a run writes is the scenario language's account of what the run
  // did and what the model predicted: for runs the reference passes, executing
  // that scenario against the reference must pass too, whatever commands ran.
  it('says in scenario steps exactly what the run did: on the reference it passes, for every kind of command', async () => {
    const samples: [RunSetup, Iterable<FuzzCommand>][] = fc.sample(fc.tuple(setupArbitrary, commandsArbitrary(30)), { seed: 5, numRuns: 12 });
    // The kinds a sample of this size may not reach, each at least once, with the choices that write steps of their own.
    samples.push([
      { balance: 'max' },
      [
        { kind: 'issue', amount: { small: 5 }, expiry: 'typical', signer: 'principal' },
        { kind: 'flood', count: 30 },
        { kind: 'issue-many', count: 4, lifetimes: 'descending' },
        { kind: 'mix', ops: [{ op: 'renew', pack: 0, by: 'bearer' }, { op: 'redeem', pack: 0, by: 'bearer', redeemer: 'redeemer' }, { op: 'status', pack: 0 }, { op: 'cancel', pack: 1 }] },
        { kind: 'mix', ops: [{ op: 'issue', amount: 'available' }, { op: 'issue', amount: { near: 'available', delta: -1 } }, { op: 'redeem', pack: 2, by: 'bearer', redeemer: 'redeemer2' }] },
        { kind: 'breach', endpoint: 'renew', rules: [2, 3], pack: 3 },
        { kind: 'breach', endpoint: 'redeem', rules: [0, 2, 7], pack: 3 },
        { kind: 'breach', endpoint: 'issue', rules: [0, 4, 5], pack: 0 },
        { kind: 'breach', endpoint: 'status', rules: [1, 2], pack: 0 },
        { kind: 'renew', pack: 4, by: 'bearer', digest: 'current', present: { version: 0 }, tamper: { member: 'expiry', how: 'resigned' } },
        { kind: 'redeem', pack: 4, by: 'bearer', identity: 'identified', tamper: { member: 'pack_id', how: 'unsigned' }, signedAt: { permille: -1000 } },
        { kind: 'reprovision', account: 'principal', balance: { digits: 40 } },
        { kind: 'reprovision', account: 'redeemer', level: 0 },
        { kind: 'advance', by: { toRetentionOf: 0 }, unread: true },
        { kind: 'observe' },
      ].map((spec) => new FuzzCommand(spec as CommandSpec)),
    ]);
    const actions = new Set<string>();
    const kinds = new Set<string>();
    for (const [setup, commands] of samples) {
      const run = await runOnce(context, [setup], commands, () => false);
      expect(run.error).toBeUndefined();
      const world = run.world!;
      for (const spec of world.executed) kinds.add(spec.kind);
      if (world.script.length === 0) continue;
      for (const step of world.script) actions.add(String(step.fields.do));
      const { suite } = regressionYaml({ seed: 5, world, failure, flaky: false, commands: [], reproduce: 'test' });
      const result = await executeScenario(suite.scenarios[0]!, target, { levelOf: (id) => findRequirement(id)?.level ?? 'MUST', rerun: (id) => id });
      expect(result.reason).toBeUndefined();
      expect(result.status).toBe('passed');
    }
    expect([...kinds].sort()).toEqual([...COMMAND_KINDS].sort());
    expect([...actions].sort()).toEqual(['balance', 'cancel', 'clock', 'http', 'issue', 'let', 'lock-request', 'parallel', 'provision-principal', 'provision-redeemer', 'redeem', 'redemption', 'renew', 'renewal', 'repeat', 'status', 'tamper']);
  }, 300_000);

  it('is a valid scenario file: ID pattern, registry requirements, declared capabilities', async () => {
    const run = await runOnce(context, [{ balance: 'max' }], [], () => false);
    run.world!.step({ do: 'cancel', pack_id: run.world!.unknownPackId, as: 's1' }, [{ problem: 'NOT_FOUND', requirement: 'PRF-CTL-1' }]);
    const { text, suite } = regressionYaml({ seed: 4294967295, world: run.world!, failure, flaky: true, commands: ['cancel(pack=unknown)'], reproduce: 'test' });
    const scenario = suite.scenarios[0]!;
    expect(scenario.id).toBe(regressionId(4294967295));
    expect(scenario.id).toMatch(/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*-[0-9]{3}$/);
    expect(scenario.requirements).toEqual(['CPP-RPL-1', 'PRF-CTL-1']);
    expect(scenario.needs).toEqual(['provision', 'clock', 'balance', 'cancel']);
    expect(suite.info).toContain('FLAKY');
    expect(text.startsWith('# Fuzzer regression scenario')).toBe(true);
  });

  it('says so when it did not reproduce its finding, and replay then refuses to call it fixed', async () => {
    const run = await runOnce(context, [{ balance: 'max' }], [], () => false);
    run.world!.step({ do: 'cancel', pack_id: run.world!.unknownPackId, as: 's1' }, [{ problem: 'NOT_FOUND', requirement: 'PRF-CTL-1' }]);
    const reproduction = { reproduces: false, note: 'it did not fail against https://op.test, where the fuzzer found the difference (it passed)' };
    const text = regressionText({ seed: 9, world: run.world!, failure, flaky: true, commands: [], reproduce: 'test', crashFile: 'crash-9.json', reproduction });
    expect(text).toContain('DOES NOT REPRODUCE THE FINDING: it did not fail against https://op.test');
    expect(text).toContain('cpr-conformance replay crash-9.json');
    const dir = mkdtempSync(join(tmpdir(), 'cpr-regression-'));
    try {
      const file = join(dir, 'regression-9.yaml');
      writeFileSync(file, text);
      const suite = loadSuiteFile(file);
      expect(suite.reproduces).toBe(false);
      expect(suite.title).toContain('(does not reproduce the finding)');
      // Against the reference it passes, which here proves nothing: replay says it cannot tell (exit 2).
      const err: string[] = [];
      const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
      let code: number;
      try {
        code = await main(['replay', file]);
      } finally {
        out.mockRestore();
        spy.mockRestore();
      }
      expect(code).toBe(2);
      expect(err.join('')).toMatch(/FINDING_NOT_REPRODUCED: FUZZ-9-001 passed, but this regression scenario did not fail even where its finding was made/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
