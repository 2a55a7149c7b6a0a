// A campaign split over machines. `fuzz --shard i/n` runs shard i of n: shard 1
// explores with the campaign's seed itself (what the unsharded campaign
// explores), shard i > 1 with a seed derived from the campaign's seed and i, so
// the shards explore different sequences; a time budget is each shard's own, a
// run budget (--runs N) is the campaign's, split between the shards. Each shard
// writes DIR/fuzz-shard.json, findings or not.
//
// `fuzz merge DIR...` joins them: it refuses (FUZZ_SHARDS_MISSING) until every
// shard of the campaign reported, and keeps one finding per cause (cause.ts:
// requirement, request kind, what differed and how), read from each crash
// file, whatever sequences showed it: a merged finding names every shard that
// found it and lists every distinct minimal sequence, the shortest first as the
// representative.
//
// Formats: fuzz-shard.json and fuzz.json are version 2 since findings are keyed
// by cause (version 1 keyed them by sequence); the merge reads version 2 only.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { canonicalJson } from '../../profile/jcs.ts';
import { PROFILE_ID } from '../../profile/index.ts';
import { HarnessError } from '../errors.ts';
import { stripControl } from '../text.ts';
import type { CampaignResult } from './campaign.ts';
import type { Budget } from './engine.ts';
import { crashRole, FUZZ_ROLES, readCrashEnvelope, type CrashEnvelope, type FuzzRole } from './crash.ts';
import { causeKey, causeText, type Cause } from './cause.ts';

/** What each shard writes into its --out folder. */
export const SHARD_FILE = 'fuzz-shard.json';
const SHARD_FORMAT = 'cpr-conformance-fuzz-shard/2';
const MERGE_FORMAT = 'cpr-conformance-fuzz-merge/2';

/** One finding as a shard lists it; the crash file beside it is the data. */
interface ShardFinding {
  /** findingKey of the crash file: its cause's key. */
  readonly key: string;
  readonly cause: Cause;
  readonly requirement: string;
  readonly message: string;
  readonly flaky: boolean;
  /** The minimal command sequence, as the crash file lists it. */
  readonly commands: readonly string[];
  /** File names, in the shard's folder. */
  readonly crash: string;
  readonly regression: string;
}

/** DIR/fuzz-shard.json. */
interface ShardRecord {
  readonly format: typeof SHARD_FORMAT;
  /** The role fuzzed (`fuzz --role`); absent in the Operator's records. */
  readonly role?: FuzzRole;
  readonly profile: string;
  /** `i/n`. */
  readonly shard: string;
  /** The campaign's seed (--seed), the same in every shard. */
  readonly campaign_seed: number;
  /** The seed this shard explored with (shardSeeds). */
  readonly seed: number;
  readonly lanes: number;
  /** The campaign's budget, as given: each shard's time, or the runs of all shards together. */
  readonly budget: Budget;
  readonly target: string;
  readonly runs: number;
  readonly shrinks: number;
  /** Runs of the reduction after shrinking. */
  readonly reductions: number;
  readonly ops: number;
  readonly elapsed_ms: number;
  readonly findings: readonly ShardFinding[];
  /** Other causes runs failed with while shrinking and replaying: not followed, each once. */
  readonly also_seen: readonly Cause[];
}

/**
 * The seeds of shards 1..count: the campaign's seed first, then seeds derived
 * from it and the shard's number (SHA-256), each unlike the ones before. Shard i's
 * seed does not depend on the number of shards.
 */
export function shardSeeds(seed: number, count: number): number[] {
  const seeds = [seed >>> 0];
  for (let i = 2; i <= count; i++) {
    let derived: number;
    let salt = 0;
    do derived = createHash('sha256').update(`cpr-conformance fuzz shard ${seed >>> 0} ${i}${salt++ === 0 ? '' : ` ${salt}`}`).digest().readUInt32BE(0);
    while (seeds.includes(derived));
    seeds.push(derived);
  }
  return seeds;
}

/** Shard `index`'s budget: a time budget is its own; a run budget is split, the first shards taking one more run each. */
export function shardBudget(budget: Budget, index: number, count: number): Budget {
  if (budget.kind === 'time') return budget;
  return { kind: 'runs', runs: Math.floor(budget.runs / count) + (index <= budget.runs % count ? 1 : 0) };
}

/** The key of a finding: its cause's (requirement, request kind, what differed and how), whatever sequence showed it. */
export function findingKey(crash: Pick<CrashEnvelope, 'failure'>): string {
  return causeKey(crash.failure.cause);
}

/** The key of a minimal sequence: the world setup and the commands, as data. */
function sequenceKey(crash: Pick<CrashEnvelope, 'setup' | 'commands'>): string {
  const data = canonicalJson(JSON.parse(JSON.stringify({ setup: crash.setup, commands: crash.commands })));
  return createHash('sha256').update(data).digest('hex').slice(0, 16);
}

/** Writes DIR/fuzz-shard.json for a shard's finished campaign. */
export function writeShardRecord(
  dir: string,
  facts: { readonly shard: string; readonly campaignSeed: number; readonly lanes: number; readonly budget: Budget; readonly target: string; readonly role?: FuzzRole },
  result: Pick<CampaignResult, 'seed' | 'runs' | 'shrinks' | 'reductions' | 'ops' | 'elapsedMs' | 'otherCauses'> & { readonly failure?: Pick<NonNullable<CampaignResult['failure']>, 'crashFile' | 'detail' | 'message' | 'flaky' | 'commands'> },
): string {
  const failure = result.failure;
  const findings: ShardFinding[] = [];
  if (failure !== undefined) {
    const crash = readCrashEnvelope(failure.crashFile);
    findings.push({
      key: findingKey(crash),
      cause: crash.failure.cause,
      requirement: failure.detail.requirement,
      message: failure.message,
      flaky: failure.flaky,
      commands: failure.commands,
      crash: basename(failure.crashFile),
      regression: crash.regression,
    });
  }
  const record: ShardRecord = {
    format: SHARD_FORMAT,
    ...(facts.role !== undefined && facts.role !== 'operator' ? { role: facts.role } : {}),
    profile: PROFILE_ID,
    shard: facts.shard,
    campaign_seed: facts.campaignSeed,
    seed: result.seed,
    lanes: facts.lanes,
    budget: facts.budget,
    target: facts.target,
    runs: result.runs,
    shrinks: result.shrinks,
    reductions: result.reductions,
    ops: result.ops,
    elapsed_ms: Math.round(result.elapsedMs),
    findings,
    also_seen: result.otherCauses,
  };
  mkdirSync(dir, { recursive: true });
  const file = join(dir, SHARD_FILE);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

/** A distinct minimal sequence of a merged finding, with the shards that shrank to it. */
interface MergedSequence {
  /** The sequence, as its crash file lists it. */
  readonly commands: readonly string[];
  /** Its files, copied into the merged folder (those of its first shard that saw it not flaky, else its first). */
  readonly crash: string;
  readonly regression: string;
  readonly flaky: boolean;
  readonly found_in: readonly { readonly shard: string; readonly seed: number; readonly flaky: boolean }[];
}

/**
 * One finding of the merged campaign: one cause. `flaky` is true only when
 * every shard saw it flaky; `commands`, `crash`, `regression` and `message`
 * are the representative's, the first of `sequences`: a sequence seen not
 * flaky before one only seen flaky, then the shortest, then the first in shard
 * order.
 */
interface MergedFinding extends ShardFinding {
  readonly found_in: readonly { readonly shard: string; readonly seed: number; readonly flaky: boolean }[];
  readonly sequences: readonly MergedSequence[];
}

/** DIR/fuzz.json of `fuzz merge`. */
interface MergedCampaign {
  readonly format: typeof MERGE_FORMAT;
  readonly role: FuzzRole;
  readonly profile: string;
  readonly campaign_seed: number;
  readonly shards: readonly { readonly shard: string; readonly seed: number; readonly target: string; readonly runs: number; readonly ops: number; readonly elapsed_ms: number; readonly findings: number }[];
  readonly lanes: number;
  readonly budget: Budget;
  readonly runs: number;
  readonly shrinks: number;
  readonly reductions: number;
  readonly ops: number;
  /** The longest shard: the wall-clock time of shards run side by side. */
  readonly elapsed_ms: number;
  /** Findings of all shards before those with the same cause were merged. */
  readonly found: number;
  readonly findings: readonly MergedFinding[];
  /** Causes seen while shrinking in some shard that are no finding of any: not followed, each once. */
  readonly also_seen: readonly Cause[];
}

interface MergedShards {
  readonly campaign: MergedCampaign;
  /** The files of every sequence kept, and the shard folder each is in. */
  readonly files: readonly { readonly dir: string; readonly name: string }[];
}

/** A merge problem is the user's input: exit 2 with what to fix. */
function mergeError(message: string): HarnessError {
  return new HarnessError('USAGE_ERROR', `cannot merge fuzz shards: ${message}`, 'pass the --out folder of each shard of one campaign (fuzz --shard i/n with the same --seed, --lanes and budget), once each');
}

/**
 * Joins the shards in `dirs`. Refuses (FUZZ_SHARDS_MISSING) when a folder holds
 * no fuzz-shard.json (its shard ended in error, or never ran) or a shard of the
 * campaign is not among them; nothing is published from part of a campaign.
 */
export function mergeFuzzShards(dirs: readonly string[]): MergedShards {
  if (dirs.length === 0) throw mergeError('no shard folders given');
  const unreported = dirs.filter((d) => !existsSync(join(d, SHARD_FILE)));
  if (unreported.length > 0) {
    throw new HarnessError('FUZZ_SHARDS_MISSING', `${unreported.map((d) => `${d} holds no ${SHARD_FILE}`).join('; ')}: that shard did not report (it ended in error or never ran), so the campaign is not complete`);
  }
  const records = dirs.map((d) => readShardRecord(join(d, SHARD_FILE)));
  const first = records[0]!;
  const shared: [string, (r: ShardRecord) => string][] = [
    ['role', (r) => crashRole(r)],
    ['profile', (r) => r.profile],
    ['campaign seed', (r) => String(r.campaign_seed)],
    ['lanes', (r) => String(r.lanes)],
    ['budget', (r) => (r.budget.kind === 'time' ? `--time ${r.budget.ms / 1000}` : `--runs ${r.budget.runs}`)],
    ['shard count', (r) => r.shard.split('/')[1]!],
  ];
  for (const [field, value] of shared) {
    records.forEach((r, i) => {
      if (value(r) !== value(first)) throw mergeError(`the ${field} differs: ${value(first)} in ${dirs[0]}, ${value(r)} in ${dirs[i]} (shards of one campaign share it)`);
    });
  }
  const count = Number(first.shard.split('/')[1]);
  const byIndex = new Map<number, number>();
  records.forEach((r, i) => {
    const index = Number(r.shard.split('/')[0]);
    const before = byIndex.get(index);
    if (before !== undefined) throw mergeError(`shard ${r.shard} is given twice (${dirs[before]} and ${dirs[i]})`);
    byIndex.set(index, i);
  });
  const absent = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !byIndex.has(k));
  if (absent.length > 0) {
    throw new HarnessError('FUZZ_SHARDS_MISSING', `shard${absent.length === 1 ? '' : 's'} ${absent.map((k) => `${k}/${count}`).join(', ')} of campaign seed ${first.campaign_seed} ${absent.length === 1 ? 'is' : 'are'} missing: nothing is published from part of a campaign`);
  }

  // In shard order, whatever the order of the folders.
  const order = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, i]) => i);
  const byCause = new Map<string, { readonly first: ShardFinding; readonly sequences: Map<string, SequenceSeen> }>();
  let found = 0;
  for (const i of order) {
    const record = records[i]!;
    const dir = dirs[i]!;
    for (const listed of record.findings) {
      found++;
      const crash = readCrashEnvelope(join(dir, listed.crash));
      if (!existsSync(join(dir, listed.regression))) throw new HarnessError('CONFIG_INVALID', `${join(dir, SHARD_FILE)} lists ${listed.regression}, which is not in ${dir}`, 'merge the --out folders as the shards wrote them');
      // The crash file is the data: the keys are recomputed from it.
      const key = findingKey(crash);
      const finding = byCause.get(key) ?? { first: { key, cause: crash.failure.cause, requirement: crash.failure.requirement, message: crash.failure.message, flaky: crash.flaky, commands: crash.commands_text, crash: listed.crash, regression: listed.regression }, sequences: new Map<string, SequenceSeen>() };
      byCause.set(key, finding);
      const seen = { shard: record.shard, seed: record.seed, flaky: crash.flaky };
      const sequence = sequenceKey(crash);
      const before = finding.sequences.get(sequence);
      // A sequence that came back when replayed is the better evidence: its files are kept.
      const files = !before || (before.flaky && !crash.flaky) ? { dir, crash: listed.crash, regression: listed.regression, message: crash.failure.message } : before.files;
      finding.sequences.set(sequence, { commands: crash.commands_text, flaky: (before?.flaky ?? true) && crash.flaky, files, found_in: [...(before?.found_in ?? []), seen] });
    }
  }
  const findings = [...byCause.values()].map(({ first, sequences }) => mergedFinding(first, [...sequences.values()]));
  const causes = new Set(findings.map((f) => f.finding.key));
  const alsoSeen = new Map<string, Cause>();
  for (const i of order) for (const cause of records[i]!.also_seen) if (!causes.has(causeKey(cause))) alsoSeen.set(causeKey(cause), cause);
  const ordered = order.map((i) => records[i]!);
  const campaign: MergedCampaign = {
    format: MERGE_FORMAT,
    role: crashRole(first),
    profile: first.profile,
    campaign_seed: first.campaign_seed,
    shards: ordered.map((r) => ({ shard: r.shard, seed: r.seed, target: r.target, runs: r.runs, ops: r.ops, elapsed_ms: r.elapsed_ms, findings: r.findings.length })),
    lanes: first.lanes,
    budget: first.budget,
    runs: sum(ordered.map((r) => r.runs)),
    shrinks: sum(ordered.map((r) => r.shrinks)),
    reductions: sum(ordered.map((r) => r.reductions)),
    ops: sum(ordered.map((r) => r.ops)),
    elapsed_ms: Math.max(...ordered.map((r) => r.elapsed_ms)),
    found,
    findings: findings.map((f) => f.finding),
    also_seen: [...alsoSeen.values()],
  };
  return { campaign, files: findings.flatMap((f) => f.files) };
}

/** A minimal sequence of one cause as the merge collects it, with where its files are. */
interface SequenceSeen {
  readonly commands: readonly string[];
  readonly flaky: boolean;
  readonly files: { readonly dir: string; readonly crash: string; readonly regression: string; readonly message: string };
  readonly found_in: MergedSequence['found_in'];
}

/** One cause's finding from its sequences: the representative first (not flaky, then shortest, then in shard order). */
function mergedFinding(first: ShardFinding, seen: readonly SequenceSeen[]): { finding: MergedFinding; files: { dir: string; name: string }[] } {
  // Array.prototype.sort is stable: equal sequences stay in shard order.
  const sequences = [...seen].sort((a, b) => Number(a.flaky) - Number(b.flaky) || a.commands.length - b.commands.length);
  const representative = sequences[0]!;
  const found_in = seen.flatMap((s) => s.found_in).sort((a, b) => shardIndex(a.shard) - shardIndex(b.shard));
  const finding: MergedFinding = {
    ...first,
    message: representative.files.message,
    flaky: sequences.every((s) => s.flaky),
    commands: representative.commands,
    crash: representative.files.crash,
    regression: representative.files.regression,
    found_in,
    sequences: sequences.map((s) => ({ commands: s.commands, crash: s.files.crash, regression: s.files.regression, flaky: s.flaky, found_in: s.found_in })),
  };
  return { finding, files: sequences.flatMap((s) => [s.files.crash, s.files.regression].map((name) => ({ dir: s.files.dir, name }))) };
}

function shardIndex(shard: string): number {
  return Number(shard.split('/')[0]);
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function readShardRecord(file: string): ShardRecord {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `cannot read ${file}: ${(error as Error).message}`, 'it is written by cpr-conformance fuzz --shard i/n; run the shard again');
  }
  const r = data as Partial<ShardRecord> | null;
  const bad = (why: string) => new HarnessError('CONFIG_INVALID', `${file} is not a fuzz shard record: ${why}`, 'it is written by cpr-conformance fuzz --shard i/n; run the shard again');
  if (!r || typeof r !== 'object' || r.format !== SHARD_FORMAT) throw bad(`"format" must be ${SHARD_FORMAT}`);
  if (r.role !== undefined && !FUZZ_ROLES.includes(r.role)) throw bad(`"role" must be one of ${FUZZ_ROLES.join(', ')}`);
  const m = /^(\d+)\/(\d+)$/.exec(String(r.shard));
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw bad('"shard" must be i/n');
  for (const field of ['campaign_seed', 'seed', 'lanes', 'runs', 'shrinks', 'reductions', 'ops', 'elapsed_ms'] as const) if (typeof r[field] !== 'number') throw bad(`"${field}" must be a number`);
  if (!r.budget || (r.budget.kind !== 'time' && r.budget.kind !== 'runs')) throw bad('"budget" must be a time or run budget');
  if (!Array.isArray(r.findings)) throw bad('"findings" must be a list');
  for (const [i, f] of r.findings.entries()) if (typeof f?.crash !== 'string' || typeof f.regression !== 'string' || /[\\/]/.test(f.crash + f.regression)) throw bad(`findings[${i}] must name its crash and regression files in the folder`);
  if (!Array.isArray(r.also_seen)) throw bad('"also_seen" must be a list');
  return r as ShardRecord;
}

/** Writes the merged campaign into `out`: fuzz.json, summary.md, and the crash file and regression scenario of each finding. */
export function writeMergedCampaign(out: string, merged: MergedShards): { readonly json: string; readonly summary: string } {
  mkdirSync(out, { recursive: true });
  for (const { dir, name } of merged.files) copyFileSync(join(dir, name), join(out, name));
  const json = join(out, 'fuzz.json');
  writeFileSync(json, `${JSON.stringify(merged.campaign, null, 2)}\n`);
  const summary = join(out, 'summary.md');
  writeFileSync(summary, campaignMarkdown(merged.campaign));
  return { json, summary };
}

/** The merged campaign in words, one line each (the terminal, and summary.md inside a fence). */
export function campaignLines(c: MergedCampaign): string[] {
  const budget = c.budget.kind === 'time' ? `${c.budget.ms / 1000} s a shard` : `${c.budget.runs} model runs in all`;
  const lines = [
    `fuzz merge: ${c.shards.length} shard(s) of ${c.role === 'operator' ? '' : `the ${c.role} `}campaign seed ${c.campaign_seed} (${c.lanes} lane${c.lanes === 1 ? '' : 's'}, ${budget}): ${c.runs} model runs (${c.shrinks} more while shrinking, ${c.reductions} while reducing), ${c.ops} operations, ${(c.elapsed_ms / 1000).toFixed(1)} s for the longest shard`,
    ...c.shards.map((s) => `  shard ${s.shard}: seed ${s.seed}, ${s.runs} runs, ${s.ops} operations, ${s.findings} finding(s)`),
  ];
  const alsoSeen = c.also_seen.map((cause) => `also seen while shrinking, not followed: ${causeText(cause)}`);
  if (c.findings.length === 0) return [...lines, 'nothing found: every answer matched the model', ...alsoSeen].map(stripControl);
  lines.push(`${c.findings.length} finding(s)${c.found > c.findings.length ? ` (${c.found} before merging those with the same cause)` : ''}:`);
  for (const f of c.findings) {
    lines.push(`${f.flaky ? 'FLAKY' : 'FOUND'} ${f.requirement}: ${f.message.slice(0, 400)}`);
    lines.push(`  cause: ${causeText(f.cause)}; key ${f.key}`);
    lines.push(`  found by ${f.found_in.map((s) => `shard ${s.shard} (seed ${s.seed}${s.flaky ? ', flaky' : ''})`).join(', ')}`);
    lines.push(`  minimal command sequence (${f.commands.length}): ${f.commands.join('; ').slice(0, 600)}`);
    lines.push(`  crash file: ${f.crash}; regression scenario: ${f.regression}`);
    if (f.sequences.length > 1) {
      lines.push(`  ${f.sequences.length} distinct minimal sequences showed it:`);
      for (const q of f.sequences) lines.push(`    (${q.commands.length}) ${q.commands.join('; ').slice(0, 300)} (shard ${q.found_in.map((s) => s.shard).join(', ')}; ${q.crash})`);
    }
  }
  return [...lines, ...alsoSeen].map(stripControl);
}

function campaignMarkdown(c: MergedCampaign): string {
  const body = campaignLines(c).join('\n');
  const fence = '`'.repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const verdict = c.findings.length === 0 ? 'nothing found' : `${c.findings.length} finding(s)`;
  return `## cpr-conformance fuzz: ${verdict}\n\n${fence}text\n${body}\n${fence}\n`;
}
