// The benchmark's contract, never its speed: timings live in the benchmark.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpRole, WireRequest, WireResponse } from '../../../harness/adapters/types.ts';
import { trendRise } from '../../../harness/bench/memory.ts';
import type { MemorySample } from '../../../harness/bench/memory-probe.ts';
import { recordingRole, requestCount, type RecordedGroup } from '../../../harness/bench/recorder.ts';
import { adapterLikeAgent, replay } from '../../../harness/bench/raw-loop.ts';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import { runCampaign } from '../../../harness/fuzz/index.ts';
import { startReference } from '../../../reference/start.ts';
import { FIGURES, formatTarget, verdicts, type Figures } from '../../../harness/bench/index.ts';
import { bench } from '../../../harness/cli/bench.ts';
import { HarnessError } from '../../../harness/cli/errors.ts';

/** The keys issue 8 requires in bench.json, each a finite number. */
const REQUIRED = [
  'run_wall_s',
  'checks_executed',
  'tests_executed',
  'fuzz_ops_per_s',
  'raw_ops_per_s',
  'ratio',
  'raw_identical_share',
  'valid_cprs_per_s',
  'broken_cprs_per_s',
  'rss_growth_mb',
  'node_sign_per_s',
  'node_verify_per_s',
  'noble_sign_per_s',
  'noble_verify_per_s',
  'duration_s',
] as const;

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  try {
    return { code: await bench(argv), stdout: out.join(''), stderr: err.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

describe('cpr-conformance bench --quick', () => {
  let dir: string;
  let result: { code: number; stdout: string; stderr: string };
  let json: Record<string, unknown>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cpr-bench-test-'));
    result = await cli(['--quick', '--out', dir]);
    json = JSON.parse(readFileSync(join(dir, 'bench.json'), 'utf8')) as Record<string, unknown>;
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 or 1 (targets met or missed), never 2', () => {
    expect([0, 1]).toContain(result.code);
  });

  it.each(REQUIRED)('writes %s to bench.json as a finite number', (key) => {
    expect(typeof json[key]).toBe('number');
    expect(Number.isFinite(json[key])).toBe(true);
  });

  it('counts the tests and checks of the run it timed', () => {
    expect(json.tests_executed).toBeGreaterThan(0);
    expect(json.checks_executed as number).toBeGreaterThanOrEqual(json.tests_executed as number);
  });

  it('describes the machine', () => {
    expect(json.machine).toMatchObject({ cpus: expect.any(Number), model: expect.any(String), node: process.version, platform: process.platform });
  });

  it('names every figure in the table, with the targets', () => {
    for (const key of REQUIRED) expect(result.stdout).toMatch(new RegExp(`^${key}\\b`, 'm'));
    for (const figure of FIGURES.filter((f) => f.target)) expect(result.stdout).toContain(formatTarget(figure));
    expect(result.stdout).toContain(join(dir, 'bench.json'));
  });

  it('says the quick figures are not representative', () => {
    expect(json.plan).toBe('quick');
    expect(result.stdout).toMatch(/--quick/);
  });
});

describe('cpr-conformance bench options', () => {
  it('prints its help', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: cpr-conformance bench/);
    for (const option of ['--out', '--quick']) expect(r.stdout).toContain(option);
  });

  it('refuses an unknown option as a usage error', async () => {
    await expect(cli(['--fast'])).rejects.toMatchObject({ code: 'USAGE_ERROR' } satisfies Partial<HarnessError>);
  });
});

describe('verdicts', () => {
  const passing: Figures = Object.fromEntries(FIGURES.map((f) => [f.key, f.target ? f.target.value : 1])) as Figures;

  it('passes a figure exactly at its target', () => {
    expect(Object.values(verdicts(passing))).toEqual(FIGURES.filter((f) => f.target).map(() => 'PASS'));
  });

  it.each([
    ['run_wall_s', 15.1],
    ['ratio', 0.79],
    ['raw_identical_share', 0.98],
    ['rss_growth_mb', 50.1],
    ['ratio', Number.NaN],
  ] as const)('fails %s at %d', (key, value) => {
    expect(verdicts({ ...passing, [key]: value })[key]).toBe('FAIL');
  });
});

describe('the request recorder', () => {
  const answered: WireResponse = { status: 200, headers: {}, body: new Uint8Array(), truncated: false, durationMs: 0 };
  const inner: HttpRole = { kind: 'http', description: 'test', authority: 'test', tls: 'none', send: async () => answered, close: async () => {} };
  const request = (path: string): WireRequest => ({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}' });

  it('records requests in order, those sent in one turn as one group', async () => {
    const recorder = recordingRole(inner);
    const groups = recorder.start();
    await recorder.role.send(request('/a'));
    await Promise.all([recorder.role.send(request('/b1')), recorder.role.send(request('/b2'))]);
    await recorder.role.send(request('/c'));
    expect(groups.map((g) => g.map((r) => r.path))).toEqual([['/a'], ['/b1', '/b2'], ['/c']]);
    expect(requestCount(groups)).toBe(4);
    expect(groups[0]![0]).toEqual({ method: 'POST', path: '/a', headers: { 'content-type': 'application/json' }, body: '{}', answer: { status: 200, body: new Uint8Array() } });
  });

  it('records nothing once stopped', async () => {
    const recorder = recordingRole(inner);
    const groups = recorder.start();
    recorder.stop();
    await recorder.role.send(request('/x'));
    expect(groups).toEqual([]);
  });
});

describe('the raw replay', () => {
  // Records a short campaign against a seeded reference and sends it to a second
  // one: with the same seed the answers are the fuzzer's (but for the clock read
  // of the first freeze); with another seed they are not, so the count can fail.
  let recording: RecordedGroup[];
  let port: number;
  beforeAll(async () => {
    const first = await startReference({ seed: 'replay-test', plaintextPort: null });
    port = Number(new URL(first.url).port);
    const role = createHttpRole({ baseUrl: first.url, ca: first.tls.ca });
    const recorder = recordingRole(role);
    recording = recorder.start();
    try {
      const result = await runCampaign({ operator: recorder.role, seed: 7, budget: { kind: 'runs', runs: 15 }, outDir: tmpdir(), targetName: 'test' });
      expect(result.failure).toBeUndefined();
    } finally {
      await role.close();
      await first.close();
    }
  }, 60_000);

  const replayTo = async (seed: string) => {
    const second = await startReference({ seed, port, plaintextPort: null });
    const agent = adapterLikeAgent(second.tls.ca);
    try {
      return await replay({ baseUrl: second.url, groups: recording }, agent);
    } finally {
      await agent.close();
      await second.close();
    }
  };

  it('gets the recorded answers from a second reference with the same seed', async () => {
    const result = await replayTo('replay-test');
    expect(result.ops).toBe(requestCount(recording));
    expect(result.ops).toBeGreaterThan(100);
    expect(result.compared - result.identical).toBeLessThanOrEqual(1);
  }, 30_000);

  it('sees the differences when the second reference has another seed', async () => {
    const result = await replayTo('another seed');
    expect(result.compared - result.identical).toBeGreaterThan(result.compared / 4);
    expect(Object.keys(result.differences).length).toBeGreaterThan(0);
  }, 30_000);
});

describe('memory growth', () => {
  const sample = (ops: number, rss: number): MemorySample => ({ ops, elapsed_s: 0, rss_mb: rss, heap_used_mb: 0, heap_total_mb: 0, external_mb: 0 });

  it('is the rise of the trend over the measured span', () => {
    expect(trendRise([0, 1, 2, 3, 4].map((i) => sample(i * 1000, 100 + 10 * i)), (s) => s.rss_mb)).toBeCloseTo(40);
  });

  it('follows the trend more than a step of the heap in the first sample', () => {
    const flat = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => sample(i * 1000, i === 0 ? 140 : 100));
    // The difference of the end samples says -40 MB; the trend is nearly flat.
    expect(Math.abs(trendRise(flat, (s) => s.rss_mb))).toBeLessThan(20);
    expect(trendRise([sample(0, 100)], (s) => s.rss_mb)).toBe(0);
  });
});
