import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpRole } from '../../../harness/adapters/types.ts';
import { fuzz } from '../../../harness/cli/fuzz.ts';
import { replay } from '../../../harness/cli/replay.ts';
import { readCrashFile, regressionId, replayCrash, runCampaign, type CampaignResult } from '../../../harness/fuzz/index.ts';
import { executeScenario } from '../../../harness/scenarios/execute.ts';
import { loadSuiteFile } from '../../../harness/scenarios/load.ts';
import { startReference } from '../../../reference/start.ts';
import type { FuzzerMutantName, MutantName } from '../../../reference/mutants.ts';
import { scenarioOptions, scenarioTarget, startMutant, useReference, type MutantUnderTest } from './scenario-target.ts';
import { captured } from '../../support/captured.ts';

/** Runs a command in this process and returns its exit code and what it printed. */
const cli = (command: (argv: string[]) => Promise<number>, argv: string[]) => captured(() => command(argv));

describe('the stateful fuzzer', () => {
  const ref = useReference('cpr-fuzz-');

  it('finds nothing in the embedded reference, and prints its throughput last', async () => {
    const out = join(ref.dir, 'clean');
    const { code, stdout } = await cli(fuzz, ['--runs', '5', '--seed', '7', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toContain('seed 7');
    expect(stdout).toContain('nothing found');
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^\d+ ops\/s$/);
  }, 120_000);

  // One fault at a time; the seed is fixed so the test explores the same sequences every time.
  // With lanes, what is found is one world's history: a sequential run of its own that replays alone.
  const FAULTS: [FuzzerMutantName, string, number, number][] = [
    ['op-replay-store-off', 'CPP-RPL-1', 11, 1],
    ['op-digest-unchecked', 'CPP-CHN-2', 3, 1],
    ['op-non-atomic-redeem', 'CPP-RACE-1', 1, 1],
    ['op-replay-store-off', 'CPP-RPL-1', 4, 4],
    ['op-digest-unchecked', 'CPP-CHN-2', 5, 4],
    // Seen only in a member of the returned pack: the regression must check that member too.
    ['op-pack-expiry-late', 'CPP-ISS-1', 2, 1],
  ];

  describe.each(FAULTS)('with the fault %s (%#)', (fault, requirement, seed, lanes) => {
    let faulty: MutantUnderTest;
    let role: HttpRole;
    let result: CampaignResult;
    beforeAll(async () => {
      faulty = await startMutant(fault);
      role = faulty.role;
      const outDir = join(ref.dir, lanes === 1 ? fault : `${fault}-lanes`);
      result = await runCampaign({ operator: role, seed, lanes, budget: { kind: 'runs', runs: 300 / lanes }, outDir, targetName: fault });
    }, 120_000);
    afterAll(async () => {
      await faulty.close();
    });

    it('finds it, shrinks it to a few commands and confirms it against fresh state', () => {
      const failure = result.failure!;
      expect(failure).toBeDefined();
      expect(failure.flaky).toBe(false);
      expect(failure.detail.requirement).toBe(requirement);
      expect(failure.commands.length).toBeLessThanOrEqual(lanes === 1 ? 4 : 6);
      expect(result.shrinks).toBeGreaterThan(0);
    });

    it('writes a crash file with the seed, the path, the commands and every exchange', async () => {
      const crash = readCrashFile(result.failure!.crashFile);
      expect(crash).toMatchObject({ seed, flaky: false, path: result.failure!.path, failure: { requirement } });
      expect(crash.commands.length).toBe(result.failure!.commands.length);
      expect(crash.exchanges.length).toBeGreaterThan(crash.commands.length);
      expect(crash.exchanges[0]!.request).toMatchObject({ method: 'POST', path: '/_control/clock' });
      expect((await replayCrash(role, crash)).fixed).toBe(false);
      expect((await replayCrash(ref.role, crash)).fixed).toBe(true);
    }, 20_000);

    it('writes a regression scenario that fails on the faulty server and passes on the reference', async () => {
      const suite = loadSuiteFile(result.failure!.regressionFile);
      const scenario = suite.scenarios[0]!;
      expect(scenario.id).toBe(regressionId(seed));
      expect(scenario.requirements).toContain(requirement);
      const onFaulty = await executeScenario(scenario, scenarioTarget(role), scenarioOptions);
      expect(onFaulty.status).toBe('failed');
      expect(onFaulty.checks.filter((c) => !c.passed).map((c) => c.requirement)).toContain(requirement);
      const onReference = await executeScenario(scenario, scenarioTarget(ref.role), scenarioOptions);
      expect(onReference.reason).toBeUndefined();
      expect(onReference.status).toBe('passed');
      // The campaign ran it against the faulty server before writing it, and says it reproduced.
      expect(result.failure!.reproduction).toMatchObject({ reproduces: true });
      expect(readFileSync(result.failure!.regressionFile, 'utf8')).not.toContain('reproduces: false');
    }, 20_000);
  });

  it('names an identity fault met inside a burst by the identity rule, and keeps only the issue and the redeem it needs', async () => {
    const faulty = await startMutant('op-identity-level-strict');
    const role = faulty.role;
    try {
      // With seed 15 the first failing run meets the fault in a burst of redemptions, which shrinking keeps.
      const result = await runCampaign({ operator: role, seed: 15, lanes: 1, budget: { kind: 'runs', runs: 300 }, outDir: join(ref.dir, 'identity'), targetName: 'identity' });
      const crash = readCrashFile(result.failure!.crashFile);
      expect(crash.reduction.shrunk.filter((c) => c.startsWith('burst(pack=0, op=redeem'))).toHaveLength(1);
      expect(crash).toMatchObject({ flaky: false, failure: { requirement: 'CPP-IDN-1', cause: { requirement: 'CPP-IDN-1', kind: 'redeem', what: 'status', difference: '200 → 403 REDEEMER_NOT_IDENTIFIED' } } });
      expect(crash.commands.map((c) => c.kind)).toEqual(['issue', 'redeem']);
      expect(crash.commands[1]).toEqual({ kind: 'redeem', pack: 0, by: 'bearer', identity: 'identified' });
      expect(crash.setup.without).toEqual(['stranger', 'redeemer2', 'redeemer_low']);
      expect(result.reductions).toBe(crash.reduction.attempts);
      const scenario = loadSuiteFile(result.failure!.regressionFile).scenarios[0]!;
      expect(scenario.steps.map((s) => s.action)).toEqual(['clock', 'provision-principal', 'provision-redeemer', 'keygen', 'issue', 'redeem']);
      expect(result.failure!.reproduction).toMatchObject({ reproduces: true });
      expect((await executeScenario(scenario, scenarioTarget(ref.role), scenarioOptions)).status).toBe('passed');
    } finally {
      await faulty.close();
    }
  }, 120_000);

  // The reference's own mutants: a genuine race stays a race finding, in a burst of copies or among different
  // requests released together; an identity fault is named by the identity rule; an expiry
  // applied only on read is met by the Lock Request it refuses; a wrong updated_at by the status read that shows it.
  it.each<[MutantName, number, string, string, string, string]>([
    ['op-redeem-non-atomic', 2, 'CPP-RACE-1', 'redeem', 'concurrent answers', 'exactly one 200 → more than one'],
    ['op-redeem-non-atomic', 1, 'CPP-RACE-1', 'mix', 'concurrent answers', 'no order of the requests explains them'],
    ['op-issue-non-atomic', 1, 'CPP-BAL-1', 'issue', 'concurrent answers', 'exactly one 200 → more than one'],
    ['op-identity-level-off-by-one', 3, 'CPP-IDN-1', 'redeem', 'status', '403 REDEEMER_NOT_IDENTIFIED → 200'],
    // Expiry applied only when something reads: with balances read at observations alone, a Lock Request for the returned funds meets it.
    ['op-expiry-applied-on-read', 2, 'CPP-BAL-1', 'issue', 'status', '200 → 422 INSUFFICIENT_BALANCE'],
    // updated_at (PROFILE.md §4.7), judged on every status read: moved by a refused renewal, or stamped when a read applies the expiry.
    ['op-updated-at-stamped-before-checks', 5, 'PRF-STS-1', 'status', 'updated_at', 'differs'],
    ['op-expired-stamped-when-applied', 1, 'PRF-STS-1', 'status', 'updated_at', 'differs'],
  ])('names the reference mutant %s (seed %i) by %s', async (mutant, seed, requirement, kind, what, difference) => {
    const faulty = await startMutant(mutant);
    try {
      const result = await runCampaign({ operator: faulty.role, seed, lanes: 1, budget: { kind: 'runs', runs: 300 }, outDir: join(ref.dir, mutant), targetName: mutant });
      expect(result.failure).toMatchObject({ flaky: false, detail: { requirement, cause: { requirement, kind, what, difference } } });
    } finally {
      await faulty.close();
    }
  }, 120_000);

  it('finds nothing in the reference with 3 lanes: concurrency alone makes no difference', async () => {
    const result = await runCampaign({ operator: ref.role, seed: 21, lanes: 3, budget: { kind: 'runs', runs: 12 }, outDir: join(ref.dir, 'lanes-clean'), targetName: 'reference' });
    expect(result.failure).toBeUndefined();
    expect(result.runs).toBe(12);
  }, 120_000);

  it('reports a failure that does not come back as FLAKY, with its files', async () => {
    const faulty = await startMutant('op-replay-store-once');
    const role = faulty.role;
    try {
      const result = await runCampaign({ operator: role, seed: 11, budget: { kind: 'runs', runs: 300 }, outDir: join(ref.dir, 'flaky'), targetName: 'flaky' });
      expect(result.failure).toMatchObject({ flaky: true, detail: { requirement: 'CPP-RPL-1' } });
      expect(readCrashFile(result.failure!.crashFile).flaky).toBe(true);
      expect(readFileSync(result.failure!.regressionFile, 'utf8')).toContain('FLAKY');
    } finally {
      await faulty.close();
    }
  }, 120_000);

  it('replay says "still failing" or "fixed" for a crash file and a regression scenario', async () => {
    const faulty = await startMutant('op-digest-unchecked');
    try {
      const files = [readCrashFile(join(ref.dir, 'op-digest-unchecked', 'crash-3.json')).regression, 'crash-3.json'].map((f) => join(ref.dir, 'op-digest-unchecked', f));
      for (const file of files) {
        const still = await cli(replay, [file, '--target', faulty.reference.url, '--ca', faulty.reference.caFile]);
        expect(still.code).toBe(1);
        expect(still.stdout).toContain('still failing');
        expect(still.stdout).toContain('CHAIN_DIGEST_MISMATCH');
        if (file.endsWith('.json')) expect(still.stdout).toContain("cause: CPP-CHN-2: renew status: 409 CHAIN_DIGEST_MISMATCH → 200 (the crash file's)");
        const fixed = await cli(replay, [file, '--target', ref.reference.url, '--ca', ref.reference.caFile]);
        expect(fixed.code).toBe(0);
        expect(fixed.stdout).toContain('fixed');
      }
    } finally {
      await faulty.close();
    }
  }, 120_000);

  it('refuses a target without the capabilities it needs, naming them', async () => {
    const bare = await startReference({ port: 0, plaintextPort: null, controlEnabled: false });
    try {
      await expect(fuzz(['--target', bare.url, '--ca', bare.caFile, '--runs', '1'])).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringContaining('provision, clock, balance, cancel'),
      });
    } finally {
      await bare.close();
    }
  });

  it.each([
    [['--time', '5', '--runs', '3'], 'either --time or --runs'],
    [['--runs', '0'], '--runs takes a whole number'],
    [['--insecure'], '--ca and --insecure go with --target URL'],
    [['--lanes', '0'], '--lanes'],
    [['--lanes', '17'], '--lanes'],
  ])('refuses the usage %j', async (argv, message) => {
    await expect(fuzz(argv)).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringContaining(message) });
  });
});
