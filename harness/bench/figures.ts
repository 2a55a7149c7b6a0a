// The benchmark's figures: each key of bench.json, what it measures and its
// target on the reference machine: the project's goals (a full run in 3 s
// cold, the fuzzer at 0.9 of the raw loop, the raw replay identical for 99.9%
// of requests), not what it reaches today. The table, the verdict and the
// README's Performance section are all read from here.

export type FigureKey =
  | 'run_wall_s'
  | 'run_wall_sequential_s'
  | 'checks_executed'
  | 'tests_executed'
  | 'fuzz_ops_per_s'
  | 'raw_ops_per_s'
  | 'ratio'
  | 'raw_identical_share'
  | 'valid_cprs_per_s'
  | 'broken_cprs_per_s'
  | 'rss_growth_mb'
  | 'node_sign_per_s'
  | 'node_verify_per_s'
  | 'noble_sign_per_s'
  | 'noble_verify_per_s'
  | 'duration_s';

export interface Target {
  readonly op: '<=' | '>=';
  readonly value: number;
  /** Judged only in this plan (the benchmark's own duration is the default plan's goal; --long takes longer on purpose). */
  readonly plan?: 'full';
}

export interface Figure {
  readonly key: FigureKey;
  readonly unit: string;
  /** Decimals shown. */
  readonly digits: number;
  readonly target?: Target;
  /** One line: what is measured. */
  readonly what: string;
}

export const FIGURES: readonly Figure[] = [
  { key: 'run_wall_s', unit: 's', digits: 1, target: { op: '<=', value: 3 }, what: 'a full `cpr-conformance run` against the embedded reference (its default `--concurrency`), as a cold child process, spawn to exit: the median of three (five with `--long`)' },
  { key: 'run_wall_sequential_s', unit: 's', digits: 1, what: 'the same run with `--concurrency 1`, one test after another, measured right after it: what running tests side by side saves' },
  { key: 'checks_executed', unit: 'checks', digits: 0, what: 'check results in that run’s report.json' },
  { key: 'tests_executed', unit: 'tests', digits: 0, what: 'scenarios and properties in that run’s report.json' },
  { key: 'fuzz_ops_per_s', unit: 'ops/s', digits: 0, what: 'HTTP requests per second of the stateful fuzzer against the embedded reference (median of the rounds)' },
  { key: 'raw_ops_per_s', unit: 'ops/s', digits: 0, what: 'a plain undici loop (the http adapter’s pool settings) sending the requests the fuzzer sent, with its order, lanes and bursts, to a second reference with the same seed and the first one’s Host (median)' },
  { key: 'ratio', unit: '', digits: 2, target: { op: '>=', value: 0.9 }, what: 'the median over the rounds of each round’s fuzz / raw (paired: a round’s two halves run back to back): how close the fuzzer drives the server to what it can serve' },
  { key: 'raw_identical_share', unit: '', digits: 4, target: { op: '>=', value: 0.999 }, what: 'share of the raw loop’s answers byte-identical to the fuzzer’s in the identity round (the warm-up, fuzzed with races off, both clocks frozen at one instant first): the baseline did the same server work, or the ratio means nothing' },
  { key: 'valid_cprs_per_s', unit: 'CPRs/s', digits: 0, what: 'fast-check samples of validCpr() per second' },
  { key: 'broken_cprs_per_s', unit: 'CPRs/s', digits: 0, what: 'fast-check samples of brokenCpr() (valid but for one rule) per second' },
  { key: 'rss_growth_mb', unit: 'MB', digits: 1, target: { op: '<=', value: 50 }, what: 'resident memory growth of a fuzz process (fuzzer and embedded reference) over a long fuzz after warm-up, after forced GC' },
  { key: 'node_sign_per_s', unit: 'sig/s', digits: 0, what: 'Ed25519 signatures per second, node:crypto (OpenSSL)' },
  { key: 'node_verify_per_s', unit: 'ver/s', digits: 0, what: 'Ed25519 verifications per second, node:crypto' },
  { key: 'noble_sign_per_s', unit: 'sig/s', digits: 0, what: 'Ed25519 signatures per second, @noble/ed25519 (the test oracle), same keys and messages' },
  { key: 'noble_verify_per_s', unit: 'ver/s', digits: 0, what: 'Ed25519 verifications per second, @noble/ed25519' },
  { key: 'duration_s', unit: 's', digits: 0, target: { op: '<=', value: 90, plan: 'full' }, what: 'the whole benchmark, every phase (judged in the default plan: --long takes longer on purpose)' },
];

export type Figures = Readonly<Record<FigureKey, number>>;

export type Mark = 'PASS' | 'FAIL';

export function meets(target: Target, value: number): boolean {
  return Number.isFinite(value) && (target.op === '<=' ? value <= target.value : value >= target.value);
}

/** The verdict of every figure that has a target judged in `plan`. */
export function verdicts(figures: Figures, plan: 'full' | 'long' = 'full'): Partial<Record<FigureKey, Mark>> {
  const out: Partial<Record<FigureKey, Mark>> = {};
  for (const f of FIGURES) if (f.target && (f.target.plan === undefined || f.target.plan === plan)) out[f.key] = meets(f.target, figures[f.key]) ? 'PASS' : 'FAIL';
  return out;
}

export function formatValue(figure: Figure, value: number): string {
  const number = Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: figure.digits, maximumFractionDigits: figure.digits }) : String(value);
  return figure.unit ? `${number} ${figure.unit}` : number;
}

export function formatTarget(figure: Figure): string {
  if (!figure.target) return '';
  return `${figure.target.op === '<=' ? '≤' : '≥'} ${formatValue(figure, figure.target.value)}`;
}
