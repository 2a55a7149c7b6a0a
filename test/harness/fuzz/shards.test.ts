// A fuzzing campaign split into shards (fuzz --shard i/n) and joined again
// (fuzz merge): disjoint seeds, a run budget split, each finding once by its
// minimal counterexample, and nothing published until every shard reported.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fuzz } from '../../../harness/cli/fuzz.ts';
import { readCrashFile } from '../../../harness/fuzz/crash.ts';
import { findingKey, mergeFuzzShards, shardBudget, shardSeeds, SHARD_FILE } from '../../../harness/fuzz/shards.ts';
import { startFaultyOperator, type FaultyOperator } from './faulty-operator.ts';
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
  let faulty: FaultyOperator;
  const codes: number[] = [];
  beforeAll(async () => {
    faulty = await startFaultyOperator('digest-unchecked');
    for (const i of [1, 2, 3, 4]) codes.push((await cli(['--target', faulty.url, '--shard', `${i}/4`, '--seed', '3', '--runs', '400', '--lanes', '1', '--out', shard(i)])).code);
  }, 60_000);
  afterAll(async () => {
    await faulty.close();
    rmSync(work, { recursive: true, force: true });
  });
  const record = (i: number) => JSON.parse(readFileSync(join(shard(i), SHARD_FILE), 'utf8')) as { shard: string; seed: number; budget: unknown; runs: number; findings: { key: string; crash: string }[] };

  it('runs each shard with its own seed and share of the runs, and each writes its record', () => {
    expect(codes).toEqual([1, 1, 1, 1]);
    expect([1, 2, 3, 4].map((i) => record(i).seed)).toEqual(shardSeeds(3, 4));
    expect([1, 2, 3, 4].map((i) => record(i).budget)).toEqual(Array(4).fill({ kind: 'runs', runs: 400 }));
    for (const i of [1, 2, 3, 4]) {
      const [finding] = record(i).findings;
      expect(finding!.key).toBe(findingKey(readCrashFile(join(shard(i), finding!.crash))));
    }
  });

  it('merges the findings, each minimal counterexample once, naming every shard that found it', async () => {
    const out = join(work, 'merged');
    const merged = await cli(['merge', shard(3), shard(1), shard(4), shard(2), '--out', out]);
    expect(merged.code).toBe(1);
    const campaign = JSON.parse(readFileSync(join(out, 'fuzz.json'), 'utf8')) as { found: number; runs: number; findings: { key: string; requirement: string; crash: string; regression: string; found_in: { shard: string }[] }[] };
    const keys = [1, 2, 3, 4].map((i) => record(i).findings[0]!.key);
    expect(campaign.found).toBe(4);
    expect(campaign.runs).toBe([1, 2, 3, 4].reduce((sum, i) => sum + record(i).runs, 0));
    expect(campaign.findings.map((f) => f.key)).toEqual([...new Set(keys)]);
    for (const f of campaign.findings) {
      expect(f.requirement).toBe('CPP-CHN-2');
      expect(f.found_in.map((s) => s.shard)).toEqual([1, 2, 3, 4].filter((i) => keys[i - 1] === f.key).map((i) => `${i}/4`));
      expect(findingKey(readCrashFile(join(out, f.crash)))).toBe(f.key);
      expect(existsSync(join(out, f.regression))).toBe(true);
    }
    // With seed 3, shards 2 and 3 reduce to the same two commands: one finding, found twice.
    expect(keys[1]).toBe(keys[2]);
    expect(campaign.findings).toHaveLength(3);
    expect(merged.stdout).toMatch(/^3 finding\(s\) \(4 before dropping the same minimal counterexample found again\):$/m);
    expect(merged.stdout).toMatch(/found by shard 2\/4 \(seed \d+\), shard 3\/4 \(seed \d+\)/);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/^## cpr-conformance fuzz: 3 finding\(s\)\n\n```text\n/);
  });

  it('keeps the files of a shard whose finding came back over one that was flaky', () => {
    const copy = join(work, 'flaky-2');
    cpSync(shard(2), copy, { recursive: true });
    const crashFile = join(copy, record(2).findings[0]!.crash);
    writeFileSync(crashFile, JSON.stringify({ ...readCrashFile(crashFile), flaky: true }));
    const { campaign } = mergeFuzzShards([shard(1), copy, shard(3), shard(4)]);
    const twice = campaign.findings.find((f) => f.found_in.length === 2)!;
    expect(twice).toMatchObject({ flaky: false, crash: record(3).findings[0]!.crash, found_in: [{ shard: '2/4', flaky: true }, { shard: '3/4', flaky: false }] });
  });

  it('refuses, writing nothing, until every shard reported', async () => {
    const out = join(work, 'partial');
    await expect(fuzz(['merge', shard(1), shard(2), shard(4), '--out', out])).rejects.toMatchObject({ code: 'FUZZ_SHARDS_MISSING', message: expect.stringMatching(/^shard 3\/4 of campaign seed 3 is missing/) });
    await expect(fuzz(['merge', shard(1), shard(2), shard(3), join(work, 'never-ran'), '--out', out])).rejects.toMatchObject({ code: 'FUZZ_SHARDS_MISSING', message: expect.stringContaining('never-ran holds no fuzz-shard.json') });
    expect(existsSync(out)).toBe(false);
  });

  it('refuses shards of different campaigns, or one shard twice', () => {
    const other = join(work, 'other-seed');
    cpSync(shard(2), other, { recursive: true });
    writeFileSync(join(other, SHARD_FILE), JSON.stringify({ ...record(2), campaign_seed: 4 }));
    expect(() => mergeFuzzShards([shard(1), other, shard(3), shard(4)])).toThrow(/the campaign seed differs: 3 in .*fuzz-1, 4 in .*other-seed/);
    expect(() => mergeFuzzShards([shard(1), shard(2), shard(2), shard(4)])).toThrow(/shard 2\/4 is given twice/);
  });
});
