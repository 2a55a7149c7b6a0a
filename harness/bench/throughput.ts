// Fuzz throughput against the physical limit, side by side in one process. Two
// references are started with one seed: the fuzzer's and the raw loop's. After
// an untimed warm-up, rounds alternate: the stateful fuzzer runs for a fixed
// time against the first, every request and answer recorded (recorder.ts); then
// the raw loop (raw-loop.ts) sends that recording to the second, once, as fast
// as it can, with the first one's Host. The second has received every earlier
// request too, so both servers meet the same requests in the same state, do the
// same work and give the same answers (the raw loop counts how many were
// identical): what differs is only the client. Only one of them works at a time.
// A round's two halves run back to back, seconds apart, so the host's speed,
// which drifts on that scale, is nearly the same for both: the ratio is the
// median of the rounds' own ratios, and the throughputs are medians.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpRole } from '../adapters/http.ts';
import type { HttpRole, WireRequest } from '../adapters/types.ts';
import type { Races } from '../fuzz/client.ts';
import { jsonRequest, parseJson } from '../scenarios/http.ts';
import { formatTimestamp, parseTimestamp } from '../../profile/index.ts';
import { CONTROL_INPUTS } from '../../profile/control.ts';
import { HarnessError } from '../errors.ts';
import { runCampaign } from '../fuzz/index.ts';
import { adapterLikeAgent, noDifferences, replay, type DifferenceSource, type LoopResult } from './raw-loop.ts';
import { createRecorder, pathShape, requestCount, type RecordedGroup } from './recorder.ts';
import { pinningPlan, pinSelf, type Pinning } from './pinning.ts';
import { serveReference, type ServedReference } from './served.ts';

export interface ThroughputOptions {
  /** Fuzzing before the first round, replayed untimed (JIT, pools, state): the identity round. */
  readonly warmupMs: number;
  /**
   * Then fuzzing with races on, replayed untimed like a round, that no figure
   * counts: V8 compiles the racing paths too before anything is measured. 0 skips it.
   */
  readonly racingWarmupMs: number;
  /** Length of each round's fuzzing; the raw loop takes what it takes. */
  readonly roundMs: number;
  /** Measured pairs; the figures are medians over them. */
  readonly rounds: number;
  /** Concurrent worlds of the fuzzer (CampaignOptions.lanes); the raw loop keeps the same concurrency. */
  readonly lanes: number;
  readonly seed: number;
}

export interface Round {
  readonly fuzz: {
    readonly ops: number;
    readonly elapsedMs: number;
    readonly opsPerSecond: number;
    readonly runs: number;
    readonly recordedGroups: number;
    /** CPU time of the harness's process (every thread) per request while it fuzzed, in µs: its own cost, whatever else the machine runs. */
    readonly cpuUsPerOp: number;
  };
  /** With the CPU time of the harness's process per request while the loop sent and compared them (µs). */
  readonly raw: LoopResult & { readonly cpuUsPerOp: number };
}

/** How the raw replay's answers compared with the fuzzer's over some pairs. */
export interface Identity {
  /** Answers equal to the fuzzer's, of `compared`. */
  readonly identical: number;
  readonly compared: number;
  /** The answers that differed, by their source (raw-loop.ts DifferenceSource). */
  readonly differenceSources: Readonly<Record<DifferenceSource, number>>;
}

/**
 * The sources of non-determinism the benchmark controls, and how: the clocks
 * of both references are frozen at one instant before each pair (so the
 * fuzzer's first clock read answers alike on both), and the identity round
 * fuzzes with races off (client.ts Races: requests sent together go out one
 * after the other, so the target meets them in one order on both).
 */
export const CONTROLLED = {
  clock: 'both references frozen at one whole second before each pair, the fuzzer\'s and the raw loop\'s',
  race: 'off in the identity round: the requests a command sends together go out one after the other, in the order it made them',
} as const;

export interface ThroughputResult {
  /** The CPUs of harness and target, when they were pinned (pinning.ts). */
  readonly pinned: Pinning | null;
  readonly lanes: number;
  readonly fuzzOpsPerSecond: number;
  readonly rawOpsPerSecond: number;
  /** Median over the rounds of each round's fuzz / raw: a round's two halves ran back to back on the same machine state. */
  readonly ratio: number;
  /**
   * Share of the raw loop's answers identical to the fuzzer's in the identity
   * round: the warm-up pair, fuzzed with races off, both clocks frozen at one
   * instant first (CONTROLLED).
   */
  readonly identicalShare: number;
  /** The identity round (the warm-up pair), and what it controlled. */
  readonly identity: Identity & { readonly races: 'off'; readonly controlled: typeof CONTROLLED };
  /** The measured rounds, whose fuzzer races requests on purpose (only the clock is controlled): a race's winner, and what follows in its lane, may differ. */
  readonly racing: Identity & { readonly races: 'on' };
  readonly rounds: readonly Round[];
  /** The untimed pairs before them: the identity round, then the racing warm-up when there is one. */
  readonly warmup: readonly Round[];
  /** Requests per path shape over the measured rounds, e.g. `POST /v1/cashpack/issue`. */
  readonly mix: Readonly<Record<string, number>>;
}

export async function measureThroughput(options: ThroughputOptions, onRound?: (round: Round, index: number) => void): Promise<ThroughputResult> {
  const outDir = mkdtempSync(join(tmpdir(), 'cpr-bench-'));
  let keepFindings = false;
  const pinned = pinningPlan();
  const cpus = pinned ? { cpus: pinned.target } : {};
  let unpin = () => {};
  const servers: ServedReference[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    if (pinned) unpin = pinSelf(pinned.harness);
    const serverSeed = `bench-${options.seed}`;
    // Both start at once: each spends seconds loading its modules.
    const started = await Promise.allSettled([serveReference({ seed: serverSeed, ...cpus }), serveReference({ seed: serverSeed, ...cpus })]);
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const [fuzzed, mirror] = servers as [ServedReference, ServedReference];
    const role = createHttpRole({ baseUrl: fuzzed.url, ca: fuzzed.ca });
    closers.push(() => role.close());
    const agent = adapterLikeAgent(mirror.ca);
    closers.push(() => agent.close());
    // Test control of the second reference, for its clock; the raw loop sends through its own agent.
    const mirrorRole = createHttpRole({ baseUrl: mirror.url, ca: mirror.ca });
    closers.push(() => mirrorRole.close());
    const authority = new URL(fuzzed.url).host;
    const recorder = createRecorder();
    const identity = tallyOf();
    const racing = tallyOf();
    const mix: Record<string, number> = {};
    /** One fuzz campaign against the first server and the raw loop sending its recording to the second, both clocks frozen at one instant first. */
    const pair = async (ms: number, campaignSeed: number, races: Races, into: Tally): Promise<{ round: Round; groups: RecordedGroup[] }> => {
      await freezeBoth(role, mirrorRole);
      const groups = recorder.start();
      const fuzzCpu = process.cpuUsage();
      const result = await runCampaign({ operator: role, seed: campaignSeed, budget: { kind: 'time', ms }, shrinkMs: 1000, outDir, targetName: 'embedded reference', lanes: options.lanes, tap: recorder.tap, races });
      recorder.stop();
      const fuzzCpuUs = cpuSince(fuzzCpu);
      if (result.failure) {
        keepFindings = true;
        throw new HarnessError('HARNESS_INTERNAL', `the fuzzer found a difference in the reference (${result.failure.message}); a throughput figure would be meaningless`, `see ${result.failure.crashFile}`);
      }
      const rawCpu = process.cpuUsage();
      const loop = await replay({ baseUrl: mirror.url, groups, authority }, agent);
      const raw = { ...loop, cpuUsPerOp: cpuSince(rawCpu) / loop.ops };
      into.identical += raw.identical;
      into.compared += raw.compared;
      for (const [source, n] of Object.entries(raw.differenceSources) as [DifferenceSource, number][]) into.differenceSources[source] += n;
      const ops = requestCount(groups);
      return { round: { fuzz: { ops, elapsedMs: result.elapsedMs, opsPerSecond: ops / (result.elapsedMs / 1000), runs: result.runs, recordedGroups: groups.length, cpuUsPerOp: fuzzCpuUs / ops }, raw }, groups };
    };
    // The warm-up is the identity round: races off, so every answer the replay gets can be the fuzzer's.
    const warmup = [(await pair(options.warmupMs, options.seed * 1000, 'off', identity)).round];
    // After the identity round, which must meet both references in the state their seed gives them.
    if (options.racingWarmupMs > 0) warmup.push((await pair(options.racingWarmupMs, options.seed * 1000 + 999, 'on', tallyOf())).round);
    const rounds: Round[] = [];
    for (let i = 0; i < options.rounds; i++) {
      const { round, groups } = await pair(options.roundMs, options.seed * 1000 + i + 1, 'on', racing);
      rounds.push(round);
      tally(mix, groups);
      onRound?.(round, i);
    }
    return {
      pinned: pinned ?? null,
      lanes: options.lanes,
      fuzzOpsPerSecond: median(rounds.map((r) => r.fuzz.opsPerSecond)),
      rawOpsPerSecond: median(rounds.map((r) => r.raw.opsPerSecond)),
      // Paired: the medians of the two columns may come from different rounds.
      ratio: median(rounds.map((r) => r.fuzz.opsPerSecond / r.raw.opsPerSecond)),
      identicalShare: identity.identical / identity.compared,
      identity: { ...identity, races: 'off', controlled: CONTROLLED },
      racing: { ...racing, races: 'on' },
      rounds,
      warmup,
      mix,
    };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await Promise.all(servers.map((s) => s.close()));
    unpin();
    if (!keepFindings) rmSync(outDir, { recursive: true, force: true });
  }
}

interface Tally {
  identical: number;
  compared: number;
  readonly differenceSources: Record<DifferenceSource, number>;
}

function tallyOf(): Tally {
  return { identical: 0, compared: 0, differenceSources: noDifferences() };
}

/**
 * Freezes both references' clocks at one whole second, later than either
 * reads: the fuzzer's first read of the clock (its run freezing it) then
 * answers the same on the second when the raw loop replays it. Setting the
 * clock is test control (PROFILE.md §12) and stays out of the recording.
 */
export async function freezeBoth(...roles: HttpRole[]): Promise<void> {
  const reads = await Promise.all(roles.map((r) => clockControl(r, { method: 'GET', path: CLOCK_PATH })));
  const at = Math.ceil(Math.max(...reads) / 1000) * 1000 + 1000;
  await Promise.all(roles.map((r) => clockControl(r, jsonRequest('POST', CLOCK_PATH, { freeze: true, set: formatTimestamp(at) }))));
}

/** The clock's test-control route (PROFILE.md §12): read with GET, set with POST. */
const CLOCK_PATH = CONTROL_INPUTS.clock.path;

/** A clock call that must answer 200 with the clock's `now`; anything else is the harness's fault, not a figure. */
async function clockControl(role: HttpRole, request: WireRequest): Promise<number> {
  const response = await role.send(request);
  const text = Buffer.from(response.body).toString('utf8');
  const now = response.status === 200 ? parseTimestamp((parseJson(response.headers['content-type'], text) as { now?: unknown } | undefined)?.now) : undefined;
  if (now === undefined) throw new HarnessError('HARNESS_INTERNAL', `the benchmark's reference answered ${request.method} ${CLOCK_PATH} with ${response.status}: ${text.slice(0, 200)}`, 'the benchmark sets the clocks of the references it started; this is a fault of the benchmark');
  return now;
}

/** User and system CPU time of this process since `start`, in µs. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/** Counts the recording's requests per path shape into `into`. */
function tally(into: Record<string, number>, groups: readonly RecordedGroup[]): void {
  for (const r of groups.flatMap((g) => g.requests)) {
    const shape = pathShape(r.method, r.path);
    into[shape] = (into[shape] ?? 0) + 1;
  }
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
