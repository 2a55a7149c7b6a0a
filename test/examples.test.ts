// The CI examples do what they say: the GitHub Actions workflow
// (examples/github-actions/conformance.yml) names real commands and flags in its
// shard and merge steps, and the local fan-out (examples/shard-and-merge.sh)
// really shards a run and a fuzzing campaign against the embedded reference and
// merges them: every shard's tests exactly once, and no merge from a shard short.
// Jobs never drive one target instance at once: each has its own, or they take
// turns (README "In CI").
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { main } from '../harness/cli/main.ts';
import { mergeFuzzShards } from '../harness/fuzz/shards.ts';
import { mergeReports, readReport } from '../harness/report/index.ts';
import { committedCatalogue } from '../harness/runner/catalogue.ts';
import { loadRegistry } from '../profile/registry.ts';
import { startReference, type RunningReference } from '../reference/start.ts';
import { captured } from './support/captured.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORKFLOW = join(ROOT, 'examples/github-actions/conformance.yml');
const FAN_OUT = join(ROOT, 'examples/shard-and-merge.sh');
const BIN = join(ROOT, 'bin/cpr-conformance.js');

interface Step {
  readonly id?: string;
  readonly name?: string;
  readonly if?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly with?: Record<string, string>;
}
interface Job {
  readonly strategy?: { readonly matrix: { readonly shard: number[] } };
  readonly needs?: string[];
  readonly if?: string;
  readonly steps: Step[];
}
interface Workflow {
  readonly env: Record<string, string>;
  readonly permissions?: Record<string, string>;
  readonly jobs: Record<string, Job>;
}

const workflow = YAML.parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;
const action = YAML.parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };

/** A step's `run:` as the shell would get it: expressions and variables filled in, globs expanded (two shards), split into words. */
function words(job: string, id: string): string[] {
  const step = workflow.jobs[job]!.steps.find((s) => s.id === id);
  expect(step?.run, `${job} step ${id}`).toBeDefined();
  const command = step!.run!.replace(/\$(CPR_[A-Z_]+)/g, (_, name: string) => workflow.env[name] ?? '');
  expect(command).not.toMatch(/\$\{\{|\$[A-Z]/);
  return command
    .trim()
    .split(/\s+/)
    .flatMap((w) => (w.includes('-*') ? [1, 2].map((i) => w.replace('-*', `-${i}`)) : [w]));
}

/** The command line in this process; its exit code and output. */
const cli = (argv: string[]) => captured(() => main(argv));

describe('the GitHub Actions example', () => {
  const shardJob = workflow.jobs['conformance']!;
  const shardStep = shardJob.steps.find((s) => s.id === 'shard')!;
  const merge = workflow.jobs['merge']!.steps;

  it('does not run in this repository', () => {
    expect(WORKFLOW).not.toMatch(/\.github\/workflows/);
    expect(existsSync(join(ROOT, '.github/workflows/conformance.yml'))).toBe(false);
  });

  it("uses the action from the implementer's repository: their checkout, their build, no npm ci of theirs", () => {
    expect(shardJob.steps[0]!.uses).toMatch(/^actions\/checkout@/);
    expect(shardStep.uses).toMatch(/^[\w-]+\/cpr-conformance@v\d/);
    expect(shardJob.steps.some((s) => s.run?.includes('npm ci') || s.run?.includes('npx cpr-conformance'))).toBe(false);
    // Every input it gives is one the action has.
    for (const input of Object.keys(shardStep.with ?? {})) expect(Object.keys(action.inputs), input).toContain(input);
  });

  it('gives each job a target instance of its own, started by the action, and a shard of the run and of the fuzzing campaign', () => {
    expect(shardJob.strategy!.matrix.shard.length).toBeGreaterThan(1);
    expect(shardStep.with).toMatchObject({ start: '${{ env.SERVER_START }}', target: '${{ env.SERVER_URL }}', shard: '${{ matrix.shard }}/${{ strategy.job-total }}', artifact: 'shard-${{ matrix.shard }}' });
    expect(Number(shardStep.with!['fuzz-time'])).toBeGreaterThan(0);
    expect(workflow.env['CPR_VERSION']).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('merges in a job that waits for every shard, whatever they did, and publishes the merged reports', () => {
    expect(workflow.jobs['merge']!.needs).toEqual(['conformance']);
    expect(workflow.jobs['merge']!.if).toBe('always()');
    expect(merge.some((s) => s.uses?.startsWith('actions/download-artifact'))).toBe(true);
    expect(merge.some((s) => s.run?.includes('summary.md >> "$GITHUB_STEP_SUMMARY"'))).toBe(true);
    expect(merge.find((s) => s.uses?.startsWith('actions/upload-artifact'))?.with?.['name']).toBe('conformance-report');
  });

  it("downloads the base branch's report and diffs against it, always", () => {
    const base = merge.findIndex((s) => s.id === 'base');
    const diff = merge.findIndex((s) => s.id === 'diff');
    expect(base).toBeGreaterThan(-1);
    expect(diff).toBeGreaterThan(base);
    expect(merge[base]!.if).toMatch(/^always\(\) && /);
    // The artifact it downloads is the one this workflow publishes, and holds merged/report.json.
    expect(merge[base]!.run).toContain('gh run download "$id" --repo "$GITHUB_REPOSITORY" --name conformance-report --dir base');
    expect(merge[diff]!.if).toBe("always() && hashFiles('base/merged/report.json') != ''");
    expect(words('merge', 'diff')).toEqual(['cpr-conformance', 'compare', '--diff', 'base/merged', 'out/merged', '--report-dir', 'out/diff']);
    expect(workflow.permissions?.['actions']).toBe('read');
  });

  it.each([
    ['merge-run', 'report'],
    ['merge-fuzz', 'fuzz'],
    ['compare', 'compare'],
    ['diff', 'compare'],
  ])('merge step %s names a real command and flags (the command line parses it)', async (id, command) => {
    const [bin, ...argv] = words('merge', id);
    expect([bin, argv[0]]).toEqual(['cpr-conformance', command]);
    // Every flag the step gives, checked by the command's own strict parser; --help stops it there.
    const parsed = await cli([...argv, '--help']);
    expect(parsed.stderr).toBe('');
    expect(parsed.code).toBe(0);
    expect(parsed.stdout).toMatch(new RegExp(`^Usage: cpr-conformance ${argv[0]}${argv[1] === 'merge' ? ' merge' : ''}`, 'm'));
  });

  it('merges the folders the shards upload: the run in shard-N, the fuzzing campaign of the operator in shard-N/fuzz/operator', () => {
    expect(shardStep.with!['report-dir']).toBe('out/shard-${{ matrix.shard }}');
    expect(shardStep.with!['fuzz-roles']).toBe('operator');
    expect(words('merge', 'merge-run')).toEqual(['cpr-conformance', 'report', 'merge', 'out/shard-1', 'out/shard-2', '--report-dir', 'out/merged']);
    expect(words('merge', 'merge-fuzz')).toEqual(['cpr-conformance', 'fuzz', 'merge', 'out/shard-1/fuzz/operator', 'out/shard-2/fuzz/operator', '--out', 'out/fuzz-merged']);
  });
});

/** Runs the fan-out with `env`; its exit status and everything it printed. */
async function fanOut(env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const child = spawn('bash', [FAN_OUT], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true', CPR: `${process.execPath} ${BIN}`, ...env } });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { status, output };
}

describe('examples/shard-and-merge.sh with 2 shards against the embedded reference', () => {
  const out = mkdtempSync(join(tmpdir(), 'cpr-fan-out-'));
  const selection = ['--only', 'TOK-GET-001', '--only', 'TOK-ONCE-001', '--only', 'CPP-ISS-001', '--no-properties'];
  let status: number | null;
  let output = '';
  beforeAll(async () => {
    ({ status, output } = await fanOut({ SHARDS: '2', OUT: out, SEED: '11', RUN_ARGS: selection.join(' '), FUZZ_ARGS: '--runs 2 --lanes 1' }));
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('merges the run shards into one report with every shard\'s tests exactly once', () => {
    expect(status, output).toBe(0);
    const shards = [1, 2].map((i) => readReport(join(out, `run-${i}`, 'report.json')));
    const merged = readReport(join(out, 'merged', 'report.json'));
    expect(shards.map((r) => r.run.shard)).toEqual(['1/2', '2/2']);
    expect(shards.every((r) => r.tests.length > 0)).toBe(true);
    const ids = shards.flatMap((r) => r.tests.map((t) => t.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(merged.tests.map((t) => t.id).sort()).toEqual([...ids].sort());
    expect(merged.tests.map((t) => t.id).sort()).toEqual(['CPP-ISS-001', 'TOK-GET-001', 'TOK-ONCE-001']);
    expect(merged.errors).toEqual([]);
    expect(merged.verdict).toBe('incomplete');
    expect(existsSync(join(out, 'merged', 'summary.md'))).toBe(true);
    // ... and publishes the comparison page and badge of the merged run.
    expect(readFileSync(join(out, 'compare', 'compare.html'), 'utf8')).toContain('embedded reference');
    expect(JSON.parse(readFileSync(join(out, 'compare', 'badges', 'embedded-reference.json'), 'utf8')).message).toMatch(/^incomplete \d+\/\d+$/);
  });

  it('merges the fuzzing shards: one seed each, every shard reported, nothing found in the reference', () => {
    const campaign = JSON.parse(readFileSync(join(out, 'fuzz-merged', 'fuzz.json'), 'utf8')) as { campaign_seed: number; shards: { shard: string; seed: number; runs: number }[]; runs: number; findings: unknown[] };
    expect(campaign).toMatchObject({ campaign_seed: 11, runs: 2, findings: [] });
    expect(campaign.shards.map((s) => [s.shard, s.runs])).toEqual([['1/2', 1], ['2/2', 1]]);
    expect(campaign.shards[0]!.seed).toBe(11);
    expect(campaign.shards[1]!.seed).not.toBe(11);
    expect(output).toMatch(/nothing found: every answer matched the model/);
  });

  it('does not merge from a shard short: the report says the shard is missing, fuzz merge refuses', () => {
    const partial = mergeReports([readReport(join(out, 'run-2', 'report.json'))], loadRegistry(), { catalogue: committedCatalogue() });
    expect(partial.verdict).toBe('error');
    expect(partial.errors).toContainEqual({ code: 'REPORT_SHARDS_MISSING', message: 'shard 1/2 missing: the merged results are partial' });
    expect(() => mergeFuzzShards([join(out, 'fuzz-1')])).toThrow(/shard 2\/2 of campaign seed 11 is missing/);
  });
});

describe('examples/shard-and-merge.sh against one shared target instance', () => {
  const out = mkdtempSync(join(tmpdir(), 'cpr-fan-out-shared-'));
  let ref: RunningReference;
  /** Every lease the target was asked for: granted, or refused because another job held one. */
  const asked: ('granted' | 'refused')[] = [];
  beforeAll(async () => {
    ref = await startReference({ plaintextPort: null });
    const acquire = ref.clock.lease.acquire.bind(ref.clock.lease);
    ref.clock.lease.acquire = (holder, ttl) => {
      const answer = acquire(holder, ttl);
      asked.push(answer.ok ? 'granted' : 'refused');
      return answer;
    };
  });
  afterAll(async () => {
    await ref.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('runs the jobs one after another: each gets the lease at once, and the merges are whole', async () => {
    const target = `--target ${ref.url} --ca ${ref.caFile}`;
    const { status, output } = await fanOut({ SHARDS: '2', OUT: out, SEED: '12', RUN_ARGS: `${target} --only CPP-WK- --no-properties`, FUZZ_ARGS: `${target} --runs 2 --lanes 1` });
    expect(status, output).toBe(0);
    // Two run shards and two fuzzing shards, none of which met another's lease.
    expect(asked).toEqual(['granted', 'granted', 'granted', 'granted']);
    expect(readReport(join(out, 'merged', 'report.json')).summary).toMatchObject({ failed: 0, error: 0 });
    expect(JSON.parse(readFileSync(join(out, 'fuzz-merged', 'fuzz.json'), 'utf8'))).toMatchObject({ findings: [] });
  }, 300_000);
});
