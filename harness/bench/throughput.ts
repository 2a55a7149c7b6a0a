// Fuzz throughput against the physical limit, side by side in one process and
// against one server: the embedded reference is started once; then, alternately,
// the stateful fuzzer runs for a fixed time with every request it sends recorded
// (recorder.ts), and the raw loop (raw-loop.ts) replays that recording for the
// same time. Alternating (fuzz, raw, fuzz, raw, ...) and taking medians lets
// machine noise hit both sides alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpRole } from '../adapters/http.ts';
import { HarnessError } from '../cli/errors.ts';
import { runCampaign } from '../fuzz/index.ts';
import { serveReference } from './served.ts';
import { adapterLikeAgent, rawLoop, type LoopResult } from './raw-loop.ts';
import { recordingRole, requestCount } from './recorder.ts';

export interface ThroughputOptions {
  /** Fuzzing and raw sending before anything is measured (JIT, pools). */
  readonly warmupMs: number;
  /** Length of each measured fuzz and raw round. */
  readonly roundMs: number;
  /** Fuzz/raw pairs; the figures are medians over them. */
  readonly rounds: number;
  readonly seed: number;
}

export interface Round {
  readonly fuzz: { readonly ops: number; readonly elapsedMs: number; readonly opsPerSecond: number; readonly runs: number; readonly recordedGroups: number };
  readonly raw: LoopResult;
}

export interface ThroughputResult {
  readonly fuzzOpsPerSecond: number;
  readonly rawOpsPerSecond: number;
  readonly rounds: readonly Round[];
  /** Requests per path shape in the last recording, e.g. `POST /v1/cashpack/issue`. */
  readonly mix: Readonly<Record<string, number>>;
}

export async function measureThroughput(options: ThroughputOptions, onRound?: (round: Round, index: number) => void): Promise<ThroughputResult> {
  const reference = await serveReference();
  const role = createHttpRole({ baseUrl: reference.url, ca: reference.ca });
  const recorder = recordingRole(role);
  const agent = adapterLikeAgent(reference.ca);
  const outDir = mkdtempSync(join(tmpdir(), 'cpr-bench-'));
  let keepFindings = false;
  const fuzzFor = async (ms: number, seed: number) => {
    const groups = recorder.start();
    const result = await runCampaign({ operator: recorder.role, seed, budget: { kind: 'time', ms }, shrinkMs: 1000, outDir, targetName: 'embedded reference' });
    recorder.stop();
    if (result.failure) {
      keepFindings = true;
      throw new HarnessError('HARNESS_INTERNAL', `the fuzzer found a difference in the reference (${result.failure.message}); a throughput figure would be meaningless`, `see ${result.failure.crashFile}`);
    }
    return { result, groups };
  };
  try {
    const warm = await fuzzFor(options.warmupMs, options.seed);
    await rawLoop({ baseUrl: reference.url, groups: warm.groups, ms: Math.min(options.warmupMs, 2000) }, agent);
    const rounds: Round[] = [];
    let mix: Record<string, number> = {};
    for (let i = 0; i < options.rounds; i++) {
      const { result, groups } = await fuzzFor(options.roundMs, options.seed + 1 + i);
      const ops = requestCount(groups);
      const raw = await rawLoop({ baseUrl: reference.url, groups, ms: options.roundMs }, agent);
      const round: Round = {
        fuzz: { ops, elapsedMs: result.elapsedMs, opsPerSecond: ops / (result.elapsedMs / 1000), runs: result.runs, recordedGroups: groups.length },
        raw,
      };
      rounds.push(round);
      onRound?.(round, i);
      mix = mixOf(groups.flat());
    }
    return {
      fuzzOpsPerSecond: median(rounds.map((r) => r.fuzz.opsPerSecond)),
      rawOpsPerSecond: median(rounds.map((r) => r.raw.opsPerSecond)),
      rounds,
      mix,
    };
  } finally {
    await agent.close();
    await role.close();
    await reference.close();
    if (!keepFindings) rmSync(outDir, { recursive: true, force: true });
  }
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
