// The paying-app fuzzer (harness/fuzz/paying-app/): nothing found in the
// reference application; each fault of faulty-app.ts (none of them a reference
// mutant, none shown to the suite's scenarios) found within a fixed count of
// model runs and a fixed seed, named by the rule it breaks; the finding
// written as a crash file and a regression scenario (served by the harness's
// retrieval stub) that fail against the faulty application and pass against
// the reference; and the command line's --role paying-app.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzz } from '../../../../harness/cli/fuzz.ts';
import { replay } from '../../../../harness/cli/replay.ts';
import { readCrashEnvelope } from '../../../../harness/fuzz/crash.ts';
import { appCrash, replayAppCrash, runAppCampaign } from '../../../../harness/fuzz/paying-app/index.ts';
import { scenarioTarget } from '../../../../harness/runner/scenario-target.ts';
import { executeScenario } from '../../../../harness/scenarios/execute.ts';
import { loadSuiteFile } from '../../../../harness/scenarios/load.ts';
import { RetrievalStub } from '../../../../harness/stub/retrieval-stub.ts';
import { embeddedTarget, type Target } from '../../../../harness/target/target.ts';
import { findRequirement } from '../../../../profile/registry.ts';
import { captured } from '../../../support/captured.ts';
import { faultyApp, type AppFault } from '../faulty-app.ts';

let stub: RetrievalStub;
let target: Target;
let dir: string;

beforeAll(async () => {
  stub = await RetrievalStub.start();
  target = await embeddedTarget({ stub });
  dir = mkdtempSync(join(tmpdir(), 'cpr-app-fuzz-'));
});

afterAll(async () => {
  await target?.close();
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the paying-app fuzzer', () => {
  it('finds nothing in the reference paying application', async () => {
    const result = await runAppCampaign({ app: target.payingApp!, stub, seed: 11, budget: { kind: 'runs', runs: 80 }, outDir: join(dir, 'reference'), targetName: 'reference' });
    expect(result.failure).toBeUndefined();
    expect(result.runs).toBe(80);
  });

  // Faults nobody pointed to: each is found within the runs given of the seed given, and named by the rule it breaks.
  it.each<[AppFault, number, number, string]>([
    ['redirect-followed', 1, 40, 'PRF-APP-1'],
    ['media-type-exact', 1, 40, 'DLV-RESOLVE-1'],
    ['length-from-header', 1, 40, 'PRF-APP-1'],
    ['retry-on-server-error', 2, 40, 'DLV-RESOLVE-1'],
    ['retry-on-throttle', 1, 40, 'DLV-RESOLVE-1'],
    ['base-path-dropped', 1, 40, 'DLV-RESOLVE-1'],
    ['endpoint-query-swallowed', 1, 40, 'PRF-APP-1'],
    ['plaintext-endpoint-retrieved', 2, 40, 'PRF-APP-1'],
    ['bom-stripped', 2, 40, 'PRF-JSON-1'],
    ['reference-trimmed', 2, 120, 'DRV-INTENT-1'],
    ['retrieval-client-json', 1, 40, 'PRF-APP-1'],
  ])('finds the fault %s (seed %i, %i runs) by %s', async (fault, seed, runs, requirement) => {
    const result = await runAppCampaign({ app: faultyApp(target.payingApp!, fault, stub.ca), stub, seed, budget: { kind: 'runs', runs }, shrinkMs: 4000, reduceAttempts: 20, outDir: join(dir, fault), targetName: fault });
    expect(result.failure, `${fault} not found in ${runs} runs`).toBeDefined();
    expect(result.failure!.detail.requirement).toBe(requirement);
    expect(result.failure!.flaky).toBe(false);
  });

  it('writes a crash file and a regression scenario served by the retrieval stub: failing against the fault, passing against the reference', async () => {
    const faulty = faultyApp(target.payingApp!, 'base-path-dropped', stub.ca);
    const result = await runAppCampaign({ app: faulty, stub, seed: 1, budget: { kind: 'runs', runs: 40 }, shrinkMs: 4000, reduceAttempts: 20, outDir: join(dir, 'files'), targetName: 'faulty' });
    const failure = result.failure!;
    expect(failure.reproduction?.reproduces).toBe(true);
    const suite = loadSuiteFile(failure.regressionFile);
    const scenario = suite.scenarios[0]!;
    expect(scenario.role).toBe('paying-app');
    expect(readFileSync(failure.regressionFile, 'utf8')).toMatch(/do: stub-serve/);
    const options = { levelOf: (id: string) => findRequirement(id)?.level ?? scenario.level, rerun: () => 'rerun' };
    expect((await executeScenario(scenario, { ...scenarioTarget(target), payingApp: faulty }, options)).status).toBe('failed');
    expect((await executeScenario(scenario, scenarioTarget(target), options)).status).toBe('passed');
    const crash = appCrash(readCrashEnvelope(failure.crashFile), failure.crashFile);
    expect(JSON.parse(readFileSync(failure.crashFile, 'utf8')).role).toBe('paying-app');
    const again = await replayAppCrash(faulty, stub, crash);
    expect(again.fixed).toBe(false);
    expect(again.detail?.requirement).toBe(failure.detail.requirement);
    expect((await replayAppCrash(target.payingApp!, stub, crash)).fixed).toBe(true);
    // The command line replays both files against the embedded reference, with a retrieval stub of its own: fixed.
    for (const file of [failure.crashFile, failure.regressionFile]) {
      const replayed = await captured(() => replay([file]));
      expect(replayed.stdout, file).toMatch(/^fixed: /m);
      expect(replayed.code).toBe(0);
    }
  });
});

describe('cpr-conformance fuzz --role paying-app', () => {
  it("fuzzes the embedded reference's paying application, in shards that merge", async () => {
    const shards = [join(dir, 'cli-1'), join(dir, 'cli-2')];
    for (const [i, out] of shards.entries()) {
      const run = await captured(() => fuzz(['--role', 'paying-app', '--runs', '6', '--seed', '4', '--shard', `${i + 1}/2`, '--out', out]));
      expect(run.stderr).not.toMatch(/cpr-conformance: error/);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/fuzz --role paying-app .* budget 3 model runs/);
      expect(run.stdout).toMatch(/nothing found: every result matched the model/);
    }
    const merged = await captured(() => fuzz(['merge', ...shards, '--out', join(dir, 'merged')]));
    expect(merged.code).toBe(0);
    expect(merged.stdout).toMatch(/2 shard\(s\) of the paying-app campaign seed 4/);
  });

  it('fuzzes the paying application of a target file, which is told to trust the retrieval stub', async () => {
    const file = join(dir, 'app-target.yaml');
    writeFileSync(file, `paying_app: { adapter: module, module: ${fileURLToPath(new URL('../../../../reference/adapter.ts', import.meta.url))} }\n`);
    const run = await captured(() => fuzz(['--role', 'paying-app', '--target', file, '--runs', '8', '--seed', '3', '--out', join(dir, 'file')]));
    expect(run.stderr).not.toMatch(/cpr-conformance: error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/against app-target\.yaml: seed 3, budget 8 model runs/);
    expect(run.stdout).toMatch(/nothing found: every result matched the model/);
  });

  it('refuses a target without a paying application, naming what is missing', async () => {
    const file = join(dir, 'payee-only.yaml');
    writeFileSync(file, `payee: { adapter: module, module: ${fileURLToPath(new URL('../../../../reference/adapter.ts', import.meta.url))} }\n`);
    await expect(fuzz(['--role', 'paying-app', '--target', file, '--runs', '1', '--out', join(dir, 'none')])).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(/has no paying application/) });
  });
});
