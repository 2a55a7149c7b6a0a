// `cpr-conformance bench`: the performance benchmark (harness/bench/). Prints a
// table of every figure with its target and writes DIR/bench.json.
import { join } from 'node:path';
import { FIGURES, formatTarget, FULL_PLAN, LONG_PLAN, PHASE_TITLES, QUICK_PLAN, renderTable, runBench, writeBenchJson } from '../bench/index.ts';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import { optionsHelp, parse, type Declared } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { uniqueStamp } from '../text.ts';
import { processIo, type CommandIo } from '../io.ts';
import { writableDir } from './target-options.ts';

/** bench's options: they parse the command line and write its --help. */
export const BENCH_OPTIONS = {
  out: { type: 'string', value: 'DIR', help: 'where bench.json goes (default reports/bench-<time>/)' },
  long: { type: 'boolean', help: 'an 8 s racing warm-up (untimed), fifteen throughput rounds and the memory run of 200,000 operations: the figures the README reports' },
  quick: { type: 'boolean', help: 'shorten every phase (seconds in all): a smoke test of the benchmark itself; its figures are printed but not judged' },
} as const satisfies Readonly<Record<string, Declared>>;

const BENCH_HELP = `Usage: cpr-conformance bench [options]

Measures the harness against the embedded reference implementation and prints
one row per figure, with its target and PASS or FAIL:

  run_wall_s          a full \`run\` as a cold process: the median of three
                      (five with --long), and the tests and checks it executed
  run_wall_sequential_s  the same run with --concurrency 1, right after it
  fuzz_ops_per_s      six rounds (fifteen with --long): the stateful fuzzer
  raw_ops_per_s       (8 lanes, 2 s; 3 s with --long) against a reference
  ratio               started with a seed, then a plain undici loop sending
                      the same requests, with the same lanes and bursts and
                      the first one's Host, to a second reference with that
                      seed (the same state, the same answers); ratio = the
                      median of each round's fuzz / raw
  raw_identical_share the share of the loop's answers identical to the
                      fuzzer's in the identity round (the warm-up: the
                      fuzzer's races off, both clocks frozen at one instant
                      first): the two servers did the same work
  valid_cprs_per_s    fast-check samples of validCpr() and brokenCpr()
  broken_cprs_per_s
  rss_growth_mb       resident memory growth over a long fuzz after warm-up
  node_/noble_        Ed25519 sign and verify rates of node:crypto and
  sign/verify_per_s   @noble/ed25519
  duration_s          the whole benchmark

Each phase runs alone; by default the whole benchmark aims at a minute and a
half (a memory run of 30,000 operations; --long: an untimed pair of 8 s with
races on after the identity round, so V8 has compiled the fuzzer before any
round, fifteen 3 s rounds and 200,000 operations, about four minutes), in a
Node with 128 MB semi-spaces, as the fuzz command runs. Targets:
${FIGURES.filter((f) => f.target).map((f) => `  ${f.key.padEnd(20)}${formatTarget(f)}${f.target!.plan ? ' (the default plan)' : ''}`).join('\n')}
Where taskset exists and there are two cores or more, the throughput phase
pins the harness and the reference to different CPUs.

Options:
${optionsHelp(BENCH_OPTIONS)}

Exit codes: 0 every target met (with --quick: the benchmark ran), 1 a target
missed, 2 harness or usage error.
`;

export async function bench(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const out = io.stdout;
  const values = parse('bench', argv, BENCH_OPTIONS);
  if (values.help) {
    out.write(BENCH_HELP);
    return 0;
  }
  if (values.quick && values.long) throw new HarnessError('USAGE_ERROR', '--quick and --long contradict each other', 'give one: --quick for a smoke test, --long for the figures the README reports');
  const plan = values.quick ? QUICK_PLAN : values.long ? LONG_PLAN : FULL_PLAN;
  const dir = writableDir(values.out ?? join(PROJECT_ROOT, 'reports', `bench-${uniqueStamp(new Date())}`), '--out');
  const started = performance.now();
  const report = await runBench(plan, (phase) => io.stderr.write(`bench: ${PHASE_TITLES[phase]} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`));
  const file = writeBenchJson(dir, report);
  out.write(`${renderTable(report)}\nbench.json: ${file}\n`);
  const missed = FIGURES.filter((f) => report.verdicts[f.key] === 'FAIL').map((f) => f.key);
  if (report.plan === 'quick') out.write('--quick: the benchmark ran; its figures are not judged against the targets\n');
  else out.write(missed.length === 0 ? 'every target met\n' : `target missed: ${missed.join(', ')}\n`);
  return missed.length === 0 ? EXIT.conformant : EXIT.nonConformant;
}
