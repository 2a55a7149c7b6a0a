// The benchmark's contract, never its speed: timings live in the benchmark.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WireRequest, WireResponse } from '../../../harness/adapters/types.ts';
import { trendRise } from '../../../harness/bench/memory.ts';
import type { MemorySample } from '../../../harness/bench/memory-probe.ts';
import { createRecorder, requestCount, type RecordedGroup, type RecordedRequest } from '../../../harness/bench/recorder.ts';
import { adapterLikeAgent, inFlightTogether, replay } from '../../../harness/bench/raw-loop.ts';
import { cpuList } from '../../../harness/bench/pinning.ts';
import { freezeBoth } from '../../../harness/bench/throughput.ts';
import { jsonRequest } from '../../../harness/scenarios/http.ts';
import { formatTimestamp } from '../../../profile/time.ts';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import { runCampaign } from '../../../harness/fuzz/index.ts';
import { startReference } from '../../../reference/start.ts';
import { FIGURES, formatTarget, verdicts, type Figures } from '../../../harness/bench/index.ts';
import { bench } from '../../../harness/cli/bench.ts';
import { HarnessError } from '../../../harness/errors.ts';
import { captured } from '../../support/captured.ts';

/** The keys issue 8 requires in bench.json, each a finite number. */
const REQUIRED = [
  'run_wall_s',
  'run_wall_sequential_s',
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

  it('exits 0: a quick run is a smoke test of the benchmark, and its figures are not judged', () => {
    expect(result.code).toBe(0);
    expect(json['targets']).toSatisfy((targets: Record<string, { verdict?: string }>) => Object.values(targets).every((t) => t.verdict === undefined));
    expect(result.stdout).toContain('--quick: the benchmark ran; its figures are not judged against the targets');
    expect(result.stdout).toMatch(/^ratio\b.*not judged$/m);
  });

  it.each(REQUIRED)('writes %s to bench.json as a finite number', (key) => {
    expect(typeof json[key]).toBe('number');
    expect(Number.isFinite(json[key])).toBe(true);
  });

  it('counts the tests and checks of the run it timed, and keeps each time with its median', () => {
    const run = (json.detail as { run: { wallSeconds: number; samples: number[] } }).run;
    expect(run.samples).toHaveLength(1);
    expect(run.wallSeconds).toBe(run.samples[0]);
    expect(json.run_wall_s).toBeCloseTo(run.wallSeconds, 3);
    expect(json.tests_executed).toBeGreaterThan(0);
    expect(json.checks_executed as number).toBeGreaterThanOrEqual(json.tests_executed as number);
  });

  it('warms up with the identity round, then a racing pair, and counts neither in the rounds', () => {
    const throughput = (json.detail as { throughput: { warmup: { fuzz: { ops: number; cpuUsPerOp: number }; raw: { ops: number } }[]; rounds: unknown[]; identity: { compared: number } } }).throughput;
    expect(throughput.warmup).toHaveLength(2);
    for (const pair of throughput.warmup) {
      expect(pair.fuzz.ops).toBeGreaterThan(0);
      expect(pair.raw.ops).toBe(pair.fuzz.ops);
      expect(pair.fuzz.cpuUsPerOp).toBeGreaterThan(0);
    }
    // The identity figure is the first pair's alone.
    expect(throughput.identity.compared).toBe(throughput.warmup[0]!.raw.ops);
    expect(throughput.rounds).toHaveLength(2);
    expect(result.stdout).toMatch(/in the untimed warm-up before them \(the identity round, then fuzzing with races on\): fuzz \d+, \d+ µs/);
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
    for (const option of ['--out', '--quick', '--long']) expect(r.stdout).toContain(option);
  });

  it('refuses --quick with --long as a usage error', async () => {
    await expect(cli(['--quick', '--long'])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(/--quick and --long/) } satisfies Partial<HarnessError>);
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
    ['raw_identical_share', 0.97],
    ['rss_growth_mb', 50.1],
    ['ratio', Number.NaN],
    ['duration_s', 91],
  ] as const)('fails %s at %d', (key, value) => {
    expect(verdicts({ ...passing, [key]: value })[key]).toBe('FAIL');
  });

  it('judges the benchmark\'s own duration in the default plan only: --long takes longer on purpose', () => {
    expect(verdicts({ ...passing, duration_s: 240 }, 'long').duration_s).toBeUndefined();
    expect(verdicts({ ...passing, ratio: 0.5 }, 'long').ratio).toBe('FAIL');
  });
});

describe('the request recorder', () => {
  const answered: WireResponse = { status: 200, headers: {}, body: new Uint8Array([1]), truncated: false, durationMs: 0 };
  const request = (path: string): WireRequest => ({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}' });
  /** Sends through the recorder's tap as the fuzzer's client does. */
  const send = async (recorder: ReturnType<typeof createRecorder>, path: string, lane: number | undefined) => {
    const done = recorder.tap(request(path), lane);
    await Promise.resolve();
    done?.(answered);
  };

  it('records requests in order, with their answers; those of one lane in one turn form one group', async () => {
    const recorder = createRecorder();
    const groups = recorder.start();
    await send(recorder, '/clock', undefined);
    await Promise.all([send(recorder, '/b1', 0), send(recorder, '/b2', 0), send(recorder, '/c', 1)]);
    await send(recorder, '/d', 0);
    expect(groups.map((g) => [g.lane, g.requests.map((r) => r.path)])).toEqual([
      [undefined, ['/clock']],
      [0, ['/b1', '/b2']],
      [1, ['/c']],
      [0, ['/d']],
    ]);
    expect(requestCount(groups)).toBe(5);
    expect(groups[0]!.requests[0]).toEqual({ method: 'POST', path: '/clock', headers: { 'content-type': 'application/json' }, body: '{}', after: 0, answer: { status: 200, body: new Uint8Array([1]) } });
    // Each request knows how many answers of its lane had come in when it went out.
    expect(groups.map((g) => g.requests.map((r) => r.after))).toEqual([[0], [0, 0], [0], [2]]);
  });

  it('records a window of requests refilled as answers come in: each waits for as many answers as the fuzzer had', async () => {
    const recorder = createRecorder();
    const groups = recorder.start();
    // Three in flight at once, then one more each time an answer comes in, as a flood's window does.
    const pending = ['/f1', '/f2', '/f3'].map((path) => recorder.tap(request(path), 0)!);
    await Promise.resolve();
    for (const [i, path] of ['/f4', '/f5'].entries()) {
      pending[i]!(answered);
      pending.push(recorder.tap(request(path), 0)!);
      await Promise.resolve();
    }
    for (const done of pending.slice(2)) done(answered);
    expect(groups.map((g) => g.requests.map((r) => [r.path, r.after]))).toEqual([[['/f1', 0], ['/f2', 0], ['/f3', 0]], [['/f4', 1]], [['/f5', 2]]]);
    // In flight together: all five (each overlapped another of its lane).
    expect(inFlightTogether(groups).flat()).toEqual([true, true, true, true, true]);
  });

  it('counts in flight together only requests that were: a sequential lane has none, a burst all of its group', () => {
    const entry = (after: number): RecordedRequest => ({ method: 'GET', path: '/x', headers: {}, after });
    const groups: RecordedGroup[] = [
      { lane: 0, requests: [entry(0)] },
      { lane: 0, requests: [entry(1), entry(1)] },
      { lane: undefined, requests: [entry(0)] },
      { lane: 0, requests: [entry(3)] },
      { lane: 1, requests: [entry(0)] },
    ];
    expect(inFlightTogether(groups)).toEqual([[false], [true, true], [false], [false], [false]]);
  });

  it('records nothing once stopped', async () => {
    const recorder = createRecorder();
    const groups = recorder.start();
    recorder.stop();
    await send(recorder, '/x', 0);
    expect(groups).toEqual([]);
  });
});

describe('the raw replay\'s concurrency', () => {
  // A plain HTTP server that answers each request 20 ms after it came and notes
  // how many were in flight at once: the replay keeps as many in flight as the
  // recording says the fuzzer had, no more and no fewer.
  let server: Server;
  let origin: string;
  let inFlight = 0;
  let most = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        response.end('{}');
      }, 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const lane = (afters: readonly number[]): RecordedGroup[] => afters.map((after) => ({ lane: 0, requests: [{ method: 'GET', path: '/x', headers: {}, after, answer: { status: 200, body: new TextEncoder().encode('{}') } }] }));
  const mostInFlight = async (groups: RecordedGroup[]) => {
    most = 0;
    const agent = adapterLikeAgent(undefined);
    try {
      const result = await replay({ baseUrl: origin, groups }, agent);
      expect(result.identical).toBe(requestCount(groups));
      return most;
    } finally {
      await agent.close();
    }
  };

  it('sends a sequential lane one request at a time', async () => {
    expect(await mostInFlight(lane([0, 1, 2, 3, 4, 5]))).toBe(1);
  });

  it('keeps a window full as answers come in, as the fuzzer\'s flood did', async () => {
    // Four at once, then each later one after one more answer: four in flight all along.
    expect(await mostInFlight(lane([0, 0, 0, 0, 1, 2, 3, 4, 5, 6]))).toBe(4);
  });

  it('refuses a recording whose request waits for answers its lane never sent for', async () => {
    const agent = adapterLikeAgent(undefined);
    try {
      await expect(replay({ baseUrl: origin, groups: lane([0, 3]) }, agent)).rejects.toThrow(/after 3 answers of its lane/);
    } finally {
      await agent.close();
    }
  });
});

describe('the raw replay', () => {
  // Records a short campaign against a seeded reference and sends it to a second
  // one on another port, with the first one's Host: with the same seed the answers
  // are the fuzzer's (but for the clock read of the first freeze); with another
  // seed, or without the Host the signatures cover, they are not, so the count can fail.
  let recording: RecordedGroup[];
  let authority: string;
  beforeAll(async () => {
    const first = await startReference({ seed: 'replay-test', plaintextPort: null });
    authority = new URL(first.url).host;
    const role = createHttpRole({ baseUrl: first.url, ca: first.tls.ca });
    const recorder = createRecorder();
    recording = recorder.start();
    try {
      const result = await runCampaign({ operator: role, seed: 7, lanes: 3, budget: { kind: 'runs', runs: 2 }, outDir: tmpdir(), targetName: 'test', tap: recorder.tap });
      expect(result.failure).toBeUndefined();
    } finally {
      await role.close();
      await first.close();
    }
  }, 60_000);

  const replayTo = async (seed: string, host: string | undefined) => {
    const second = await startReference({ seed, plaintextPort: null });
    const agent = adapterLikeAgent(second.tls.ca);
    try {
      expect(new URL(second.url).host).not.toBe(authority);
      return await replay({ baseUrl: second.url, groups: recording, ...(host !== undefined ? { authority: host } : {}) }, agent);
    } finally {
      await agent.close();
      await second.close();
    }
  };

  it('gets the recorded answers from a second reference with the same seed, lanes side by side', async () => {
    const result = await replayTo('replay-test', authority);
    expect(result.ops).toBe(requestCount(recording));
    expect(result.ops).toBeGreaterThan(100);
    expect(new Set(recording.map((g) => g.lane)).size).toBe(4);
    // The first clock read differs; so may the winner of a race the fuzzer ran (a burst) and what followed in that world.
    expect(result.identical / result.compared).toBeGreaterThan(0.97);
    // Every answer that differs has a named source: the clock while it ran, a race, or what followed a race in its lane.
    const sources = result.differenceSources;
    expect(sources.clock + sources.race + sources['after-race'] + sources.unexplained).toBe(result.compared - result.identical);
    expect(sources.unexplained).toBe(0);
    expect(Object.values(result.differingParts).reduce((a, b) => a + b, 0)).toBe(result.compared - result.identical);
  }, 30_000);

  it('sees the differences when the second reference has another seed', async () => {
    const result = await replayTo('another seed', authority);
    // Refusals (breaches, floods of duplicates) read the same under any seed; pack ids, digests and
    // signatures do not: about a fifth of the answers differ, far above the same seed's few.
    expect(result.compared - result.identical).toBeGreaterThan(result.compared / 10);
    expect(Object.keys(result.differences).length).toBeGreaterThan(0);
    // Differences no race or clock explains are counted as such, and named by what differed.
    expect(result.differenceSources.unexplained).toBeGreaterThan(0);
    expect(Object.keys(result.differingParts).some((part) => /^POST \/v1\/cashpack\/issue 200 -> 200: .*signature/.test(part))).toBe(true);
  }, 30_000);

  it('sees the differences when the requests go without the Host their signatures cover', async () => {
    const right = await replayTo('replay-test', authority);
    const wrong = await replayTo('replay-test', undefined);
    // Signed status reads and identified redemptions are refused (401) when @authority differs.
    expect(wrong.differences['200 -> 401'] ?? 0).toBeGreaterThan(0);
    expect(wrong.identical).toBeLessThan(right.identical);
  }, 30_000);
});

describe('the raw replay with the sources of non-determinism controlled', () => {
  // The benchmark's identity round: the fuzzer with races off, both references'
  // clocks frozen at one instant before the recording and before the replay.
  // Every answer is then the fuzzer's; without the second clock frozen, the
  // fuzzer's first read of the clock (the run freezing it) differs.
  const recordAndReplay = async (freezeSecond: boolean) => {
    const first = await startReference({ seed: 'identity-test', plaintextPort: null });
    const second = await startReference({ seed: 'identity-test', plaintextPort: null });
    const role = createHttpRole({ baseUrl: first.url, ca: first.tls.ca });
    const secondRole = createHttpRole({ baseUrl: second.url, ca: second.tls.ca });
    const agent = adapterLikeAgent(second.tls.ca);
    try {
      // Alone, the first is frozen an hour ahead: whenever the replay reads the second's running clock, in
      // whichever second, it reads another instant (an instant one second ahead could be the second's own by then).
      if (freezeSecond) await freezeBoth(role, secondRole);
      else expect((await role.send(jsonRequest('POST', '/_control/clock', { freeze: true, set: formatTimestamp(Date.now() + 3_600_000) }))).status).toBe(200);
      const recorder = createRecorder();
      const groups = recorder.start();
      const result = await runCampaign({ operator: role, seed: 11, lanes: 3, budget: { kind: 'runs', runs: 2 }, outDir: tmpdir(), targetName: 'test', tap: recorder.tap, races: 'off' });
      expect(result.failure).toBeUndefined();
      return { groups, loop: await replay({ baseUrl: second.url, groups, authority: new URL(first.url).host }, agent) };
    } finally {
      await agent.close();
      await Promise.all([role.close(), secondRole.close()]);
      await Promise.all([first.close(), second.close()]);
    }
  };

  it('gets every answer the fuzzer got, bursts included', async () => {
    const { groups, loop } = await recordAndReplay(true);
    expect(loop.compared).toBeGreaterThan(100);
    expect(loop.identical).toBe(loop.compared);
    // Races off: no lane sent two requests in one turn.
    expect(groups.every((g) => g.requests.length === 1)).toBe(true);
  }, 60_000);

  it('sees the clock read differ when only the first reference was frozen', async () => {
    const { loop } = await recordAndReplay(false);
    expect(loop.differenceSources.clock).toBeGreaterThan(0);
    expect(loop.differenceSources.race + loop.differenceSources['after-race']).toBe(0);
  }, 60_000);
});

describe('CPU pinning', () => {
  it('reads taskset CPU lists, ranges included', () => {
    expect(cpuList('0,1')).toEqual([0, 1]);
    expect(cpuList('0,2-3')).toEqual([0, 2, 3]);
    expect(cpuList(' 4-5 ')).toEqual([4, 5]);
    expect(cpuList('')).toEqual([]);
  });
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

function cli(argv: string[]) {
  return captured(() => bench(argv));
}
