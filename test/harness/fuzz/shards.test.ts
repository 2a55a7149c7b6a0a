// A fuzzing campaign split into shards (fuzz --shard i/n) and joined again
// (fuzz merge): disjoint seeds, a run budget split, each finding once by its
// cause, whatever sequences showed it, and nothing published until every
// shard reported.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fuzz } from '../../../harness/cli/fuzz.ts';
import { readCrashFile } from '../../../harness/fuzz/crash.ts';
import { findingKey, mergeFuzzShards, shardBudget, shardSeeds, SHARD_FILE } from '../../../harness/fuzz/shards.ts';
import { startMutant, type MutantUnderTest } from './scenario-target.ts';
import { captured } from '../../support/captured.ts';

/** Runs a command in this process and returns its exit code and what it printed. */
const cli = (argv: string[]) => captured(() => fuzz(argv));

describe('shard seeds and budgets', () => {
  it('gives shard 1 the campaign seed and every other shard its own, whatever the number of shards', () => {
    const seeds = shardSeeds(3, 8);
    expect(seeds[0]).toBe(3);
    expect(new Set(seeds).size).toBe(8);
    expect(shardSeeds(3, 4)).toEqual(seeds.slice(0, 4));
    expect(shardSeeds(4, 2)[1]).not.toBe(seeds[1]);
    expect(seeds.every((s) => Number.isInteger(s) && s >= 0 && s < 2 ** 32)).toBe(true);
  });

  it('splits a run budget between the shards and gives each shard the whole time budget', () => {
    expect([1, 2, 3].map((i) => shardBudget({ kind: 'runs', runs: 10 }, i, 3))).toEqual([4, 3, 3].map((runs) => ({ kind: 'runs', runs })));
    expect(shardBudget({ kind: 'time', ms: 60_000 }, 2, 3)).toEqual({ kind: 'time', ms: 60_000 });
  });

  it.each([
    [['--shard', '0/2'], /--shard takes i\/n/],
    [['--shard', '2'], /--shard takes i\/n/],
    [['--shard', '1/3', '--runs', '2'], /--runs 2 cannot be split between 3 shards/],
  ])('refuses the usage %j', async (argv, message) => {
    await expect(fuzz(argv)).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(message) });
  });

  it('lists --shard and fuzz merge in --help', async () => {
    const help = await cli(['--help']);
    expect(help.stdout).toContain('--shard i/n');
    expect(help.stdout).toContain('cpr-conformance fuzz merge DIR...');
    expect((await cli(['merge', '--help'])).stdout).toMatch(/^Usage: cpr-conformance fuzz merge DIR\.\.\. \[--out DIR\]/);
  });
});

describe('a campaign of 4 shards against an operator with a fault', () => {
  const work = mkdtempSync(join(tmpdir(), 'cpr-fuzz-shards-'));
  const shard = (i: number) => join(work, `fuzz-${i}`);
  let faulty: MutantUnderTest;
  const codes: number[] = [];
  beforeAll(async () => {
    faulty = await startMutant('op-digest-unchecked');
    for (const i of [1, 2, 3, 4]) codes.push((await cli(['--target', faulty.reference.url, '--ca', faulty.reference.caFile, '--shard', `${i}/4`, '--seed', '3', '--runs', '400', '--lanes', '1', '--out', shard(i)])).code);
  }, 60_000);
  afterAll(async () => {
    await faulty.close();
    rmSync(work, { recursive: true, force: true });
  });
  const record = (i: number) => JSON.parse(readFileSync(join(shard(i), SHARD_FILE), 'utf8')) as { shard: string; seed: number; budget: unknown; runs: number; findings: { key: string; crash: string; cause: unknown }[] };
  const crashOf = (i: number) => readCrashFile(join(shard(i), record(i).findings[0]!.crash));
  interface Merged {
    found: number;
    runs: number;
    findings: { key: string; requirement: string; flaky: boolean; commands: string[]; crash: string; regression: string; found_in: { shard: string; flaky: boolean }[]; sequences: { commands: string[]; crash: string; regression: string; found_in: { shard: string }[] }[] }[];
  }

  it('runs each shard with its own seed and share of the runs, and each writes its record', () => {
    expect(codes).toEqual([1, 1, 1, 1]);
    expect([1, 2, 3, 4].map((i) => record(i).seed)).toEqual(shardSeeds(3, 4));
    expect([1, 2, 3, 4].map((i) => record(i).budget)).toEqual(Array(4).fill({ kind: 'runs', runs: 400 }));
    for (const i of [1, 2, 3, 4]) {
      const [finding] = record(i).findings;
      expect(finding!.key).toBe(findingKey(crashOf(i)));
      expect(finding!.cause).toEqual(crashOf(i).failure.cause);
    }
  });

  it('merges the findings of one cause into one, naming every shard and every distinct minimal sequence', async () => {
    const out = join(work, 'merged');
    const merged = await cli(['merge', shard(3), shard(1), shard(4), shard(2), '--out', out]);
    expect(merged.code).toBe(1);
    const campaign = JSON.parse(readFileSync(join(out, 'fuzz.json'), 'utf8')) as Merged;
    expect(campaign.found).toBe(4);
    expect(campaign.runs).toBe([1, 2, 3, 4].reduce((sum, i) => sum + record(i).runs, 0));
    // Every shard found the skipped digest check: one cause, one finding.
    expect(campaign.findings).toHaveLength(1);
    const [finding] = campaign.findings;
    expect(finding!.requirement).toBe('CPP-CHN-2');
    expect(finding!.key).toBe(record(1).findings[0]!.key);
    expect(finding!.found_in.map((s) => s.shard)).toEqual(['1/4', '2/4', '3/4', '4/4']);
    // Each distinct sequence once, with the shards that shrank to it; the shortest is the representative.
    const distinct = new Set([1, 2, 3, 4].map((i) => JSON.stringify([crashOf(i).setup, crashOf(i).commands])));
    expect(finding!.sequences).toHaveLength(distinct.size);
    expect(finding!.sequences.flatMap((q) => q.found_in.map((s) => s.shard)).sort()).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(finding!.commands).toEqual(finding!.sequences[0]!.commands);
    expect(Math.min(...finding!.sequences.map((q) => q.commands.length))).toBe(finding!.commands.length);
    for (const q of finding!.sequences) {
      expect(findingKey(readCrashFile(join(out, q.crash)))).toBe(finding!.key);
      expect(existsSync(join(out, q.regression))).toBe(true);
    }
    expect(merged.stdout).toMatch(/^1 finding\(s\) \(4 before merging those with the same cause\):$/m);
    expect(merged.stdout).toContain('cause: CPP-CHN-2: renew status: 409 CHAIN_DIGEST_MISMATCH → 200');
    expect(merged.stdout).toMatch(/found by shard 1\/4 \(seed 3\), shard 2\/4 \(seed \d+\), shard 3\/4 \(seed \d+\), shard 4\/4 \(seed \d+\)/);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/^## cpr-conformance fuzz: 1 finding\(s\)\n\n```text\n/);
  });

  it('takes as representative a sequence that came back over one that was flaky, and calls the finding flaky only when every shard did', () => {
    const flaky = (i: number) => {
      const copy = join(work, `flaky-${i}`);
      cpSync(shard(i), copy, { recursive: true });
      const crashFile = join(copy, record(i).findings[0]!.crash);
      writeFileSync(crashFile, JSON.stringify({ ...readCrashFile(crashFile), flaky: true }));
      return copy;
    };
    const { campaign } = mergeFuzzShards([flaky(1), flaky(2), flaky(3), shard(4)]);
    expect(campaign.findings[0]).toMatchObject({ flaky: false, crash: record(4).findings[0]!.crash, found_in: [{ shard: '1/4', flaky: true }, { shard: '2/4', flaky: true }, { shard: '3/4', flaky: true }, { shard: '4/4', flaky: false }] });
    expect(mergeFuzzShards([flaky(1), flaky(2), flaky(3), flaky(4)]).campaign.findings[0]!.flaky).toBe(true);
  });

  it('refuses, writing nothing, until every shard reported', async () => {
    const out = join(work, 'partial');
    await expect(fuzz(['merge', shard(1), shard(2), shard(4), '--out', out])).rejects.toMatchObject({ code: 'FUZZ_SHARDS_MISSING', message: expect.stringMatching(/^shard 3\/4 of campaign seed 3 is missing/) });
    await expect(fuzz(['merge', shard(1), shard(2), shard(3), join(work, 'never-ran'), '--out', out])).rejects.toMatchObject({ code: 'FUZZ_SHARDS_MISSING', message: expect.stringContaining('never-ran holds no fuzz-shard.json') });
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a shard record of the format before findings had a cause', () => {
    const old = join(work, 'format-1');
    cpSync(shard(2), old, { recursive: true });
    writeFileSync(join(old, SHARD_FILE), JSON.stringify({ ...record(2), format: 'cpr-conformance-fuzz-shard/1' }));
    expect(() => mergeFuzzShards([shard(1), old, shard(3), shard(4)])).toThrow(/is not a fuzz shard record: "format" must be cpr-conformance-fuzz-shard\/2/);
  });

  it('refuses shards of different campaigns, or one shard twice', () => {
    const other = join(work, 'other-seed');
    cpSync(shard(2), other, { recursive: true });
    writeFileSync(join(other, SHARD_FILE), JSON.stringify({ ...record(2), campaign_seed: 4 }));
    expect(() => mergeFuzzShards([shard(1), other, shard(3), shard(4)])).toThrow(/the campaign seed differs: 3 in .*fuzz-1, 4 in .*other-seed/);
    expect(() => mergeFuzzShards([shard(1), shard(2), shard(2), shard(4)])).toThrow(/shard 2\/4 is given twice/);
  });
});

describe('a campaign of 2 shards against an operator that refuses a redeemer at the required identity level', () => {
  const work = mkdtempSync(join(tmpdir(), 'cpr-fuzz-identity-'));
  const shard = (i: number) => join(work, `fuzz-${i}`);
  let faulty: MutantUnderTest;
  beforeAll(async () => {
    faulty = await startMutant('op-identity-level-strict');
    for (const i of [1, 2]) await cli(['--target', faulty.reference.url, '--ca', faulty.reference.caFile, '--shard', `${i}/2`, '--seed', '2', '--runs', '40', '--lanes', '1', '--out', shard(i)]);
  }, 60_000);
  afterAll(async () => {
    await faulty.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('merges what the shards found through different sequences into one finding naming both', () => {
    const crashes = [1, 2].map((i) => {
      const listed = JSON.parse(readFileSync(join(shard(i), SHARD_FILE), 'utf8')) as { findings: { crash: string }[] };
      return readCrashFile(join(shard(i), listed.findings[0]!.crash));
    });
    // With seed 2, shard 1 meets the fault in an interleaving and shard 2 in a redemption alone; each reduces to its own issue and a redeem.
    expect(crashes.map((c) => c.reduction.shrunk.at(-1)!.split('(')[0])).toEqual(['interleave', 'redeem']);
    expect(crashes.map((c) => c.commands.map((k) => k.kind))).toEqual([['issue', 'redeem'], ['issue-many', 'redeem']]);
    expect(crashes[0]!.commands).not.toEqual(crashes[1]!.commands);
    const { campaign } = mergeFuzzShards([shard(1), shard(2)]);
    expect(campaign.found).toBe(2);
    expect(campaign.findings).toHaveLength(1);
    expect(campaign.findings[0]).toMatchObject({ requirement: 'CPP-IDN-1', cause: { requirement: 'CPP-IDN-1', kind: 'redeem', what: 'status', difference: '200 → 403 REDEEMER_NOT_IDENTIFIED' } });
    expect(campaign.findings[0]!.found_in.map((s) => s.shard)).toEqual(['1/2', '2/2']);
    expect(campaign.findings[0]!.sequences.map((q) => q.found_in.map((s) => s.shard))).toEqual([['1/2'], ['2/2']]);
  });
});
