// The long fuzz of the memory figure, run in a child process of its own (so that
// nothing else the benchmark did is in its heap) with --expose-gc: the embedded
// reference and the fuzzer in one process, as `cpr-conformance fuzz` runs them.
// Campaigns follow one another until the operation count is reached or the time
// cap is spent; after each, a full collection and a sample of resident memory,
// heap (the reference runs in its own process). Prints one JSON line (MemoryProbeResult).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHttpRole } from '../adapters/http.ts';
import { runCampaign } from '../fuzz/index.ts';
import { serveReference } from './served.ts';

export interface MemorySample {
  /** HTTP operations sent so far. */
  readonly ops: number;
  readonly elapsed_s: number;
  readonly rss_mb: number;
  readonly heap_used_mb: number;
  readonly heap_total_mb: number;
  /** Memory of C++ objects bound to JS ones (buffers, key objects, sockets). */
  readonly external_mb: number;
}

export interface MemoryProbeResult {
  readonly target_ops: number;
  readonly warmup_ops: number;
  /** Operations measured after the warm-up (the baseline sample). */
  readonly measured_ops: number;
  /** True when the time cap ended the probe before target_ops. */
  readonly capped: boolean;
  readonly gc_forced: boolean;
  readonly baseline: MemorySample;
  readonly final: MemorySample;
  readonly peak_rss_mb: number;
  readonly samples: readonly MemorySample[];
  readonly failure?: string;
}

/** Most of maxMs the warm-up may take. */
const WARMUP_SHARE = 0.4;

export interface MemoryProbeOptions {
  readonly targetOps: number;
  /** Operations before the baseline sample, or fewer when WARMUP_SHARE of maxMs has passed. */
  readonly warmupOps: number;
  /** Bound of the whole probe, warm-up included. */
  readonly maxMs: number;
  /** Length of one campaign (one sample each). */
  readonly sliceMs: number;
  readonly seed: number;
  /** Concurrent worlds of each campaign (CampaignOptions.lanes). */
  readonly lanes: number;
}

const MB = 1024 * 1024;

async function memoryProbe(options: MemoryProbeOptions): Promise<MemoryProbeResult> {
  const gc = (globalThis as { gc?: () => void }).gc;
  // The target runs in its own process: this measures the harness's memory, not the reference's state.
  const reference = await serveReference();
  const role = createHttpRole({ baseUrl: reference.url, ca: reference.ca });
  const outDir = mkdtempSync(join(tmpdir(), 'cpr-bench-memory-'));
  const started = performance.now();
  let ops = 0;
  let found = false;
  const sample = (): MemorySample => {
    gc?.();
    const usage = process.memoryUsage();
    return {
      ops,
      elapsed_s: round((performance.now() - started) / 1000, 1),
      rss_mb: round(usage.rss / MB, 1),
      heap_used_mb: round(usage.heapUsed / MB, 1),
      heap_total_mb: round(usage.heapTotal / MB, 1),
      external_mb: round(usage.external / MB, 1),
    };
  };
  const slice = async (seed: number): Promise<string | undefined> => {
    const result = await runCampaign({ operator: role, seed, lanes: options.lanes, budget: { kind: 'time', ms: options.sliceMs }, shrinkMs: 1000, outDir, targetName: 'embedded reference' });
    ops += result.ops;
    return result.failure ? `${result.failure.message} (crash file: ${result.failure.crashFile})` : undefined;
  };
  try {
    let seed = options.seed;
    let failure: string | undefined;
    // On a slow machine the warm-up stops early, so that the measured span keeps most of the time.
    const warmupUntil = started + options.maxMs * WARMUP_SHARE;
    while (ops < options.warmupOps && !failure && performance.now() < warmupUntil) failure = await slice(seed++);
    const baseline = sample();
    const samples = [baseline];
    const deadline = started + options.maxMs;
    while (!failure && ops - baseline.ops < options.targetOps && performance.now() < deadline) {
      failure = await slice(seed++);
      samples.push(sample());
    }
    found = failure !== undefined;
    const final = samples.at(-1)!;
    return {
      target_ops: options.targetOps,
      warmup_ops: baseline.ops,
      measured_ops: final.ops - baseline.ops,
      capped: final.ops - baseline.ops < options.targetOps,
      gc_forced: gc !== undefined,
      baseline,
      final,
      peak_rss_mb: Math.max(...samples.map((s) => s.rss_mb)),
      samples,
      ...(failure ? { failure } : {}),
    };
  } finally {
    await role.close();
    await reference.close();
    if (!found) rmSync(outDir, { recursive: true, force: true });
  }
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// As a child process: options from argv as JSON, the result as one JSON line.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = JSON.parse(process.argv[2] ?? '{}') as MemoryProbeOptions;
  memoryProbe(options).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
      process.exit(2);
    },
  );
}
