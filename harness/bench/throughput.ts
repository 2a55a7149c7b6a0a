// Fuzz throughput against the physical limit, side by side in one process. A
// round is a pair: the stateful fuzzer runs for a fixed time against a reference
// started with a fresh seed, every request and answer recorded (recorder.ts);
// then a second reference with the same seed takes that reference's port and the
// raw loop (raw-loop.ts) sends the recording to it once, as fast as it can. Both
// servers start empty and receive the same requests in the same order, so they
// do the same work and give the same answers (the raw loop counts how many were
// identical): what differs is only the client. Rounds follow each other; the
// throughputs are medians, and the ratio is the median of each round's own
// ratio, its two halves having run back to back on the same machine state.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpRole } from '../adapters/http.ts';
import { HarnessError } from '../cli/errors.ts';
import { runCampaign } from '../fuzz/index.ts';
import { adapterLikeAgent, replay, type LoopResult } from './raw-loop.ts';
import { createRecorder, requestCount, type RecordedGroup } from './recorder.ts';
import { pinningPlan, pinSelf, type Pinning } from './pinning.ts';
import { serveReference } from './served.ts';

export interface ThroughputOptions {
  /** Fuzzing before each measured round, recorded and replayed untimed (JIT, pools, state). */
  readonly warmupMs: number;
  /** Length of each measured fuzz round; the raw loop takes what it takes. */
  readonly roundMs: number;
  /** Measured pairs; the figures are medians over them. */
  readonly rounds: number;
  /** Concurrent worlds of the fuzzer (CampaignOptions.lanes); the raw loop keeps the same concurrency. */
  readonly lanes: number;
  readonly seed: number;
}

export interface Round {
  readonly fuzz: { readonly ops: number; readonly elapsedMs: number; readonly opsPerSecond: number; readonly runs: number; readonly recordedGroups: number };
  readonly raw: LoopResult;
}

export interface ThroughputResult {
  /** The CPUs of harness and target, when they were pinned (pinning.ts). */
  readonly pinned: Pinning | null;
  readonly lanes: number;
  readonly fuzzOpsPerSecond: number;
  readonly rawOpsPerSecond: number;
  /** Median over the rounds of each round's fuzz / raw: a round's two halves ran back to back on the same machine state. */
  readonly ratio: number;
  /** Share of the raw loop's answers identical to the fuzzer's, over every round, warm-ups included. */
  readonly identicalShare: number;
  readonly rounds: readonly Round[];
  /** Requests per path shape in the last recording, e.g. `POST /v1/cashpack/issue`. */
  readonly mix: Readonly<Record<string, number>>;
}

export async function measureThroughput(options: ThroughputOptions, onRound?: (round: Round, index: number) => void): Promise<ThroughputResult> {
  const outDir = mkdtempSync(join(tmpdir(), 'cpr-bench-'));
  let keepFindings = false;
  const pinned = pinningPlan();
  const cpus = pinned ? { cpus: pinned.target } : {};
  let unpin = () => {};
  try {
    if (pinned) unpin = pinSelf(pinned.harness);
    const pair = async (seed: number): Promise<{ round: Round; groups: RecordedGroup[] }> => {
      const serverSeed = `bench-${seed}`;
      const first = await serveReference({ seed: serverSeed, ...cpus });
      const role = createHttpRole({ baseUrl: first.url, ca: first.ca });
      const recorder = createRecorder();
      const fuzz = async (ms: number, campaignSeed: number) => {
        const groups = recorder.start();
        const result = await runCampaign({ operator: role, seed: campaignSeed, budget: { kind: 'time', ms }, shrinkMs: 1000, outDir, targetName: 'embedded reference', lanes: options.lanes, tap: recorder.tap });
        recorder.stop();
        if (result.failure) {
          keepFindings = true;
          throw new HarnessError('HARNESS_INTERNAL', `the fuzzer found a difference in the reference (${result.failure.message}); a throughput figure would be meaningless`, `see ${result.failure.crashFile}`);
        }
        return { result, groups };
      };
      let warm: Awaited<ReturnType<typeof fuzz>>;
      let measured: Awaited<ReturnType<typeof fuzz>>;
      try {
        warm = await fuzz(options.warmupMs, seed * 2);
        measured = await fuzz(options.roundMs, seed * 2 + 1);
      } finally {
        await role.close();
        await first.close();
      }
      const second = await serveReference({ seed: serverSeed, port: first.port, ...cpus });
      const agent = adapterLikeAgent(second.ca);
      let raw: LoopResult;
      try {
        // The warm-up is sent again untimed: the second server warms up alike and reaches the state the measured requests met.
        const warmed = await replay({ baseUrl: second.url, groups: warm.groups }, agent);
        raw = await replay({ baseUrl: second.url, groups: measured.groups }, agent);
        raw = { ...raw, identical: raw.identical + warmed.identical, compared: raw.compared + warmed.compared, differences: merged(raw.differences, warmed.differences) };
      } finally {
        await agent.close();
        await second.close();
      }
      const { result, groups } = measured;
      const ops = requestCount(groups);
      return { round: { fuzz: { ops, elapsedMs: result.elapsedMs, opsPerSecond: ops / (result.elapsedMs / 1000), runs: result.runs, recordedGroups: groups.length }, raw }, groups };
    };
    const rounds: Round[] = [];
    let last: RecordedGroup[] = [];
    for (let i = 0; i < options.rounds; i++) {
      const { round, groups } = await pair(options.seed + i);
      rounds.push(round);
      onRound?.(round, i);
      last = groups;
    }
    const compared = rounds.reduce((n, r) => n + r.raw.compared, 0);
    return {
      pinned: pinned ?? null,
      lanes: options.lanes,
      fuzzOpsPerSecond: median(rounds.map((r) => r.fuzz.opsPerSecond)),
      rawOpsPerSecond: median(rounds.map((r) => r.raw.opsPerSecond)),
      // Paired: the medians of the two columns may come from different rounds.
      ratio: median(rounds.map((r) => r.fuzz.opsPerSecond / r.raw.opsPerSecond)),
      identicalShare: rounds.reduce((n, r) => n + r.raw.identical, 0) / compared,
      rounds,
      mix: mixOf(last.flatMap((g) => g.requests)),
    };
  } finally {
    unpin();
    if (!keepFindings) rmSync(outDir, { recursive: true, force: true });
  }
}

function merged(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = { ...a };
  for (const [k, n] of Object.entries(b)) out[k] = (out[k] ?? 0) + n;
  return out;
}

function mixOf(requests: readonly { method: string; path: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of requests) {
    const shape = `${r.method} ${r.path.replace(/\/v1\/cashpack\/[^/]+\/status$/, '/v1/cashpack/{id}/status').replace(/\/(principals|redeemers|packs)\/[^/]+\//, '/$1/{id}/')}`;
    out[shape] = (out[shape] ?? 0) + 1;
  }
  return out;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
