// The benchmark as text: one row per figure with its target and verdict, then
// the lines that say how the figures were obtained.
import { FIGURES, formatTarget, formatValue } from './figures.ts';
import type { BenchReport } from './bench.ts';
import { CONTROLLED, type Identity } from './throughput.ts';
import { renderMutationScore } from './mutation-score.ts';
import { MUTANTS } from '../../reference/mutants.ts';

export function renderTable(report: BenchReport): string {
  const rows = FIGURES.map((f) => [f.key, formatValue({ ...f, unit: '' }, report.figures[f.key]), f.unit, formatTarget(f), report.verdicts[f.key] ?? (f.target ? 'not judged' : '')]);
  const header = ['figure', 'value', 'unit', 'target', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const m = report.machine;
  const { throughput, memory, run, runSequential } = report.detail;
  const probe = memory.probe;
  const notes = [
    `machine: ${m.cpus} × ${m.model}, Node ${m.node}${m.node_flags.length > 0 ? ` (${m.node_flags.join(' ')})` : ''}, ${m.platform}/${m.arch}, ${m.memory_gb} GB${report.plan === 'quick' ? ' (--quick: every phase shortened, the figures are not representative)' : ''}`,
    `run: ${run.command.join(' ')} → ${run.verdict}${run.samples.length > 1 ? `, the median of ${run.samples.length} cold processes (${run.samples.map((s) => s.toFixed(2)).join(', ')} s)` : ''}; then ${runSequential.command.join(' ')} → ${runSequential.verdict}`,
    `throughput: ${throughput.rounds.length} fuzz/raw round pairs, ${throughput.lanes} lanes; fuzz ${throughput.rounds.map((r) => Math.round(r.fuzz.opsPerSecond)).join(', ')} ops/s; raw ${throughput.rounds.map((r) => Math.round(r.raw.opsPerSecond)).join(', ')} ops/s; ${
      throughput.pinned ? `harness on CPU ${throughput.pinned.harness}, reference on CPU ${throughput.pinned.target} (taskset)` : 'not pinned to CPUs (no taskset, or one core): harness and reference share the cores'
    }`,
    `harness CPU per request (its process, every thread): fuzz ${throughput.rounds.map((r) => Math.round(r.fuzz.cpuUsPerOp)).join(', ')} µs; raw loop ${throughput.rounds.map((r) => Math.round(r.raw.cpuUsPerOp)).join(', ')} µs; in the untimed warm-up before them (${warmupNames(throughput.warmup.length)}): fuzz ${throughput.warmup.map((r) => Math.round(r.fuzz.cpuUsPerOp)).join(', ')} µs`,
    `raw replay, identity round (the warm-up; controlled: the fuzzer's races off, ${CONTROLLED.clock}): ${throughput.identity.identical} of ${throughput.identity.compared} answers identical; ${differing(throughput.identity.differenceSources)}`,
    `raw replay, measured rounds (races on, as the fuzzer runs; clocks frozen alike): ${throughput.racing.identical} of ${throughput.racing.compared} answers identical; ${differing(throughput.racing.differenceSources)}`,
    `memory: ${probe.measured_ops.toLocaleString('en-US')} operations after ${probe.warmup_ops.toLocaleString('en-US')} of warm-up${probe.capped ? `, fewer than the ${probe.target_ops.toLocaleString('en-US')} planned: the time cap was reached` : ''}; RSS ${probe.baseline.rss_mb} → ${probe.final.rss_mb} MB (peak ${probe.peak_rss_mb}), JS heap in use ${memory.heapGrowthMb >= 0 ? '+' : ''}${memory.heapGrowthMb.toFixed(1)} MB${probe.gc_forced ? '' : ' (no forced GC: --expose-gc was not honoured)'}`,
    'the reference is served from its own process (cpr-conformance serve) as any target would be: throughput and memory are the harness\'s',
  ];
  return [line(header), ...rows.map(line), '', ...notes, '', `selftest kill matrix: ${MUTANTS.filter((m) => m.catcher === 'suite').length} hand-made mutants (reference/mutants.ts), each one chosen with the check that kills it (cpr-conformance selftest); ${MUTANTS.filter((m) => m.catcher === 'fuzzer').length} more only the fuzzer must find`, ...renderMutationScore(report.mutation)].join('\n');
}

function warmupNames(pairs: number): string {
  return pairs > 1 ? 'the identity round, then fuzzing with races on' : 'the identity round';
}

/** The raw loop's differing answers by source, as a line: every one has a named source, or says it has none. */
function differing(sources: Identity['differenceSources']): string {
  const total = Object.values(sources).reduce((a, b) => a + b, 0);
  if (total === 0) return 'none differs';
  return `${total} answer(s) differ from the fuzzer's: ${sources.clock} clock read(s) while it ran, ${sources.race} race(s) of requests of one lane in flight together, ${sources['after-race']} later in a lane whose race went otherwise, ${sources.unexplained} unexplained`;
}
