// Runs the memory probe (memory-probe.ts) in a child process of its own, with
// --expose-gc so each sample follows a full collection, and reads its result.
// The growth is the rise of the least-squares line through the samples taken
// after warm-up, from the first to the last: V8 grows and shrinks its heap in
// steps of tens of megabytes, and a difference of two samples measures whichever
// step each fell on rather than the trend.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HarnessError } from '../errors.ts';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import type { MemoryProbeOptions, MemoryProbeResult, MemorySample } from './memory-probe.ts';

export interface MemoryResult {
  readonly growthMb: number;
  /** Growth of the JS heap in use over the same span. */
  readonly heapGrowthMb: number;
  /** Accounts and packs the reference gained over the same span. */
  readonly probe: MemoryProbeResult;
}

const PROBE = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));

/**
 * The Node flags `cpr-conformance fuzz` runs with (bin/cpr-conformance.js): the
 * probe fuzzes as that command does. Its young generation starts at the size
 * the command's reaches within seconds of fuzzing (min = max): otherwise the
 * semi-spaces growing to it after the baseline (the heap's total size rising
 * from 161 to 292 MB with the heap in use flat at 27 MB) read as growth.
 */
const FUZZER_NODE_FLAGS = ['--max-semi-space-size=128', '--min-semi-space-size=128'];

export async function measureMemory(options: MemoryProbeOptions): Promise<MemoryResult> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const output = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [...FUZZER_NODE_FLAGS, '--expose-gc', '--import', tsx, PROBE, JSON.stringify(options)], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr = (stderr + chunk).slice(-4000)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
  const line = output.stdout.trim().split('\n').at(-1);
  if (output.code !== 0 || !line) throw new HarnessError('HARNESS_INTERNAL', `the memory probe failed (exit ${output.code}): ${output.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const probe = JSON.parse(line) as MemoryProbeResult;
  if (probe.failure) throw new HarnessError('HARNESS_INTERNAL', `the fuzzer found a difference in the reference during the memory probe: ${probe.failure}`);
  const measured = probe.samples.filter((s) => s.ops >= probe.baseline.ops);
  return {
    growthMb: trendRise(measured, (s) => s.rss_mb),
    heapGrowthMb: trendRise(measured, (s) => s.heap_used_mb),
    probe,
  };
}

/** Rise of the least-squares line of `pick` against operations, over the span of the samples. */
export function trendRise(samples: readonly MemorySample[], pick: (s: MemorySample) => number): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((sum, s) => sum + s.ops, 0) / n;
  const my = samples.reduce((sum, s) => sum + pick(s), 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const s of samples) {
    sxy += (s.ops - mx) * (pick(s) - my);
    sxx += (s.ops - mx) ** 2;
  }
  if (sxx === 0) return 0;
  return (sxy / sxx) * (samples.at(-1)!.ops - samples[0]!.ops);
}
