// The paying-app fuzzer (harness/fuzz/paying-app/): nothing found in the
// reference application; each paying-app fuzzer mutant (reference/mutants.ts,
// catcher 'fuzzer': none shown to the suite's scenarios) found within a fixed count of
// model runs and a fixed seed, named by the rule it breaks; the finding
// written as a crash file and a regression scenario (served by the harness's
// retrieval stub) that fail against the faulty application and pass against
// the reference; faults in field classes (the class faults of
// reference/faults/app.ts) found by the
// documents drawn from the classes and missed by the fixed shapes; and the
// command line's --role paying-app.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fuzz } from '../../../../harness/cli/fuzz.ts';
import { replay } from '../../../../harness/cli/replay.ts';
import type { PayingAppRole } from '../../../../harness/adapters/types.ts';
import { readCrashEnvelope } from '../../../../harness/fuzz/crash.ts';
import { appCrash, replayAppCrash, runAppCampaign, type DocumentSource } from '../../../../harness/fuzz/paying-app/index.ts';
import { scenarioTarget } from '../../../../harness/runner/scenario-target.ts';
import { executeScenario } from '../../../../harness/scenarios/execute.ts';
import { loadSuiteFile } from '../../../../harness/scenarios/load.ts';
import { RetrievalStub } from '../../../../harness/stub/retrieval-stub.ts';
import { embeddedTarget, type Target } from '../../../../harness/target/target.ts';
import { findRequirement } from '../../../../profile/registry.ts';
import { captured } from '../../../support/captured.ts';
import type { MutantName } from '../../../../reference/mutants.ts';

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

/** The paying application of the reference with `mutant` on, trusting the retrieval stub; closed after the test. */
async function mutantApp(mutant: MutantName): Promise<PayingAppRole> {
  const mutated = await embeddedTarget({ stub, reference: { mutant } });
  onTestFinished(() => mutated.close());
  return mutated.payingApp!;
}

describe('the paying-app fuzzer', () => {
  it('finds nothing in the reference paying application', async () => {
    const result = await runAppCampaign({ app: target.payingApp!, stub, seed: 11, budget: { kind: 'runs', runs: 80 }, outDir: join(dir, 'reference'), targetName: 'reference' });
    expect(result.failure).toBeUndefined();
    expect(result.runs).toBe(80);
  });

  // Faults nobody pointed to: each is found within the runs given of the seed given, and named by the rule it breaks.
  // A fault met first with a document that is itself invalid shows as the wrong rejection code (PRF-APP-1):
  // the application still refuses, as the spec asks, but says RETRIEVAL_FAILED where the profile says CPR_INVALID.
  // app-redirect-followed was one of them until the suite learned to catch it: it is a suite mutant now, and the fuzzer still finds it.
  it.each<[MutantName, number, number, string]>([
    ['app-redirect-followed', 1, 40, 'PRF-APP-1'],
    // Met first with a valid CPR served under a charset that is not UTF-8: a token URI not resolved (seed 7 of 1 to 10
    // meets that first; the others meet first the application's result for another media type, PRF-APP-1).
    ['app-media-type-exact', 7, 40, 'DLV-RESOLVE-1'],
    // Found with seeds 2, 3 and 6 to 10 of 1 to 10.
    ['app-length-from-header', 2, 40, 'PRF-APP-1'],
    // Found with seeds 1, 2, 4 to 8 and 10 of 1 to 10.
    ['app-retry-on-server-error', 4, 40, 'DLV-RESOLVE-1'],
    // A throttled retrieval is met rarely: found with seeds 4, 6 and 7 of 1 to 10.
    ['app-retry-on-throttle', 4, 40, 'DLV-RESOLVE-1'],
    // Named by where the token went (DLV-RESOLVE-1) or by the result (PRF-APP-1), whichever a case meets first: seed 2 meets the first (seed 1 the second).
    ['app-base-path-dropped', 2, 40, 'DLV-RESOLVE-1'],
    // Found with seeds 1 to 10; named by the result (PRF-APP-1) where a case meets that first (seed 10), else by
    // where the token went (DLV-RESOLVE-1).
    ['app-endpoint-query-swallowed', 10, 40, 'PRF-APP-1'],
    ['app-plaintext-endpoint-retrieved', 2, 40, 'PRF-APP-1'],
    // Found with seeds 1 to 3 and 6 to 10 of 1 to 10, named by the BOM's rule with 7 (by the result with the others).
    ['app-bom-stripped', 7, 40, 'PRF-JSON-1'],
    // Found with seeds 3, 4 and 6 to 10 of 1 to 10.
    ['app-reference-trimmed', 3, 120, 'DRV-INTENT-1'],
    ['app-retrieval-client-json', 4, 40, 'PRF-APP-1'],
    // A suite mutant the fuzzer finds too: every text that is no JSON, on every channel, names the document "".
    ['app-root-pointer-written-slash', 1, 40, 'PRF-APP-1'],
  ])('finds the mutant %s (seed %i, %i runs) by %s', async (fault, seed, runs, requirement) => {
    const result = await runAppCampaign({ app: await mutantApp(fault), stub, seed, budget: { kind: 'runs', runs }, reduceAttempts: 20, outDir: join(dir, fault), targetName: fault });
    expect(result.failure, `${fault} not found in ${runs} runs`).toBeDefined();
    expect(result.failure!.detail.requirement).toBe(requirement);
    expect(result.failure!.flaky).toBe(false);
  });

  // Token URIs name the stub by ::1 in any of its spellings a third of the time, where it listens there (found with seeds 1 to 6).
  it('finds an application that refuses endpoints named by an IPv6 literal, where the stub listens on ::1; its regression scenario is skipped, naming why, where it does not', async (test) => {
    if (!stub.ipv6) test.skip('this machine has no IPv6 loopback: the stub listens on 127.0.0.1 only');
    const faulty = await mutantApp('app-endpoint-ipv6-refused');
    const result = await runAppCampaign({ app: faulty, stub, seed: 1, budget: { kind: 'runs', runs: 40 }, reduceAttempts: 20, outDir: join(dir, 'ipv6'), targetName: 'ipv6' });
    const failure = result.failure!;
    expect(failure, 'not found in 40 runs').toBeDefined();
    expect(failure.detail.requirement).toBe('PRF-APP-1');
    expect(failure.reproduction?.reproduces).toBe(true);
    expect(readFileSync(failure.regressionFile, 'utf8')).toMatch(/host: "?\[[0:]+1\]/);
    const scenario = loadSuiteFile(failure.regressionFile).scenarios[0]!;
    const options = { levelOf: (id: string) => findRequirement(id)?.level ?? scenario.level, rerun: () => 'rerun' };
    expect((await executeScenario(scenario, scenarioTarget(target), options)).status).toBe('passed');
    // The same stub as seen on a machine without ::1 (its one difference: ipv6 false).
    const v4only = Object.create(stub, { ipv6: { value: false } }) as RetrievalStub;
    const skipped = await executeScenario(scenario, { ...scenarioTarget(target), stub: v4only }, options);
    expect(skipped.status).toBe('skipped');
    expect(skipped.reason).toMatch(/no IPv6 loopback/);
  });

  it('writes a crash file and a regression scenario served by the retrieval stub: failing against the fault, passing against the reference', async () => {
    const faulty = await mutantApp('app-base-path-dropped');
    const result = await runAppCampaign({ app: faulty, stub, seed: 1, budget: { kind: 'runs', runs: 40 }, reduceAttempts: 20, outDir: join(dir, 'files'), targetName: 'faulty' });
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

// Faults in field classes nobody pointed the fuzzer at (the class faults of reference/faults/app.ts): found within a fixed count of
// model runs by the documents drawn from the field classes, where the fuzzer drawing only the fixed
// shapes of validCpr and brokenCpr (`documents: 'examples'`, what it drew before) finds none of them
// in the same runs with the same seed.
describe('the paying-app fuzzer on faults in classes nobody pointed to', () => {
  /** Both document sources against one application, with one seed and 120 runs: what each finds. */
  async function both(app: PayingAppRole, name: string, seed: number) {
    const run = (documents: DocumentSource) =>
      runAppCampaign({ app, stub, seed, budget: { kind: 'runs', runs: 120 }, reduceAttempts: 10, outDir: join(dir, `${name}-${documents}`), targetName: name, documents });
    return { classes: await run('field-classes'), examples: await run('examples') };
  }

  function expectOnlyClassesFind(found: Awaited<ReturnType<typeof both>>, requirements: readonly string[]): void {
    expect(found.classes.failure, 'not found in 120 runs').toBeDefined();
    expect(requirements).toContain(found.classes.failure!.detail.requirement);
    expect(found.classes.failure!.flaky).toBe(false);
    // The draws (a document's fields, or its JSON text's class) travel in the crash file and the regression
    // scenario, which fails on the fault as the run did.
    expect(found.classes.failure!.reproduction?.reproduces).toBe(true);
    expect(readFileSync(found.classes.failure!.crashFile, 'utf8')).toMatch(/"draws"|\\"class\\":\\"json\./);
    expect(found.examples.failure?.message).toBeUndefined();
    expect(found.examples.runs).toBe(120);
  }

  // Measured when this was written: the field classes found them in 1, 1 and 15 model runs of seed 1
  // (12, 7 and 25 of seed 2); the fixed shapes found none in 120 runs of either seed.
  it.each<[MutantName, number, string[]]>([
    ['app-nanosecond-fraction-accepted', 1, ['PRF-TIME-1']],
    ['app-nested-duplicate-accepted', 1, ['PRF-JSON-1', 'PRF-APP-1']],
    // Found with seeds 2 to 6 of 1 to 6 (the fixed shapes with none).
    ['app-payer-depth-limited', 2, ['CPR-PAYER-1', 'PRF-PAYER-1']],
  ])('finds %s (seed %i, 120 runs) by the rule it breaks; the fixed shapes do not', async (fault, seed, requirements) => {
    expectOnlyClassesFind(await both(await mutantApp(fault), fault, seed), requirements);
  }, 90_000);

  // Reference mutants the fixed shapes rarely reach: a fraction of 4 to 9 digits (brokenCpr writes only 4, in
  // one of its 84 mutations) and a leading zero in an amount. Measured: the fraction found by its rule with seeds 1, 3, 5
  // and 8 of 1 to 8, the fixed shapes meeting it with seeds 2 and 7; the leading zero with seeds 1, 7 and 8, the fixed
  // shapes with seeds 2 and 4; neither by the fixed shapes with seeds 3 and 1 used here.
  it.each<[string, number, string[]]>([
    ['app-timestamp-fraction-unbounded', 3, ['PRF-TIME-1']],
    ['app-leading-zero-amount', 1, ['PRF-AMT-1']],
  ])('finds the reference mutant %s (seed %i, 120 runs); the fixed shapes do not', async (mutant, seed, requirements) => {
    const mutated = await embeddedTarget({ stub, reference: { mutant } });
    try {
      expectOnlyClassesFind(await both(mutated.payingApp!, mutant, seed), requirements);
    } finally {
      await mutated.close();
    }
  }, 90_000);
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
