// `cpr-conformance run`: certify a target (the embedded reference when none).
import { readBaseline } from '../runner/baseline.ts';
import { conformanceRun, defaultReportDir } from '../runner/run.ts';
import { terminalOf } from '../runner/terminal.ts';
import { integerOption, optionLines, optionsHelp, parse, shardOption, type Declared } from './args.ts';
import { MAX_CONCURRENCY, MAX_REPEAT } from '../runner/plan.ts';
import { EXIT, HarnessError } from './errors.ts';
import { allowHostsOf, CA_FLAG, fileInExistingFolder, leaseWaitOf, LIFECYCLE_HELP, rerunBase, serverOptionsOf, TARGET_FLAGS, targetChoice, withServer, writableDir } from './target-options.ts';
import { rolesOf } from './list.ts';
import { printSummary } from './summary.ts';
import { REPORTER_FLAG, reportersOf, reportFiles } from './reporters.ts';
import { processIo, type CommandIo } from '../io.ts';
import { bootReferenceThread, EMBEDDED_REFERENCE_OPTIONS } from '../target/reference-thread.ts';

/** run's options, by the heading its --help lists them under: they parse the command line and write its --help. */
const RUN_TARGET = {
  target: { type: 'string', value: 'FILE|URL', help: 'a target file (see: cpr-conformance init), or a base URL: shorthand for the http adapter on the payee and operator roles at that URL, with its test-control interface' },
  ...CA_FLAG,
  insecure: { type: 'boolean', help: 'with --target URL: skip TLS verification (recorded in the report; prefer --ca)' },
  'allow-host': { type: 'string', multiple: true, value: 'HOST', help: "let the reference paying application retrieve token URIs from HOST (host or host:port) too. By default it follows a QR or deep-link endpoint only to the target's own hosts (no request forgery through a CPR URI)" },
  'lease-wait': { type: 'string', value: 'S', help: "when another run or campaign holds the target's test-control lease (PROFILE.md §12), wait up to S seconds for it; without it the run stops at once (HARNESS_TARGET_BUSY, exit 2, every test an error)" },
} as const satisfies Readonly<Record<string, Declared>>;

const RUN_SELECTION = {
  only: { type: 'string', multiple: true, value: 'ID', help: 'a scenario ID, a requirement ID, a suite name, or a prefix of one (TOK-, CPP-BAL-1)' },
  role: { type: 'string', multiple: true, value: 'ROLE', help: 'payee, paying-app or operator' },
  scenario: { type: 'string', multiple: true, value: 'FILE', help: "also run this scenario file (a fuzzer's regression scenario, say)" },
  shard: { type: 'string', value: 'i/n', help: 'run only the i-th of n shards of the selection, balanced by measured time (suites/timings.json; a test not in it counts as the median); every machine computes the same split from the same selection and timings. Join the reports with: cpr-conformance report merge DIR...' },
  'shard-timings': { type: 'string', value: 'FILE', help: "with --shard: balance by this file instead: a report.json of an earlier run (its tests' durations) or a table written by --write-timings" },
  repeat: { type: 'string', value: 'N', help: `run each test N times (1 to ${MAX_REPEAT}) and label it stable-pass, stable-fail or flaky; a flaky test counts as failed (or error), never as a pass. A scenario runs as written each time; a property's k-th run (from 0) takes seed + k, so each run explores other cases` },
  concurrency: { type: 'string', value: 'N', help: `most tests in flight at once (1 to ${MAX_CONCURRENCY}; default 8 against the embedded reference, 1 against any other target, so a server is never sent requests side by side unless asked). A test that moves state every test shares (the target's clock, the target file's credentials) runs alone, before the others; the others start longest first (suites/timings.json). Results, their order and report.json are the same for any N` },
} as const satisfies Readonly<Record<string, Declared>>;

const RUN_VERDICT = {
  strict: { type: 'boolean', help: 'SHOULD failures fail the run (otherwise warnings)' },
  'profile-advisory': { type: 'boolean', help: 'PROFILE failures are warnings: for implementations certified through an adapter with another wire format' },
  'allow-partial': { type: 'boolean', help: 'an incomplete verdict exits 0 instead of 3 (the verdict still says incomplete)' },
  baseline: { type: 'string', value: 'FILE', help: 'known failures: a report.json, or YAML/JSON with known_failures: [test IDs]. Changes the exit code only: it is 1 when any result differs from the baseline (a new failure or a new pass); the verdict and every report still say what was observed, known failures marked as such' },
} as const satisfies Readonly<Record<string, Declared>>;

const RUN_BOUNDS = {
  'request-timeout': { type: 'string', value: 'MS', help: 'deadline of each request to the target, connect to last byte (default 10000); when given, also the deadline of the preflight probes (otherwise 3000)' },
  'unreachable-after': { type: 'string', value: 'N', help: 'after N consecutive requests to a role with no answer at all, the role counts as unreachable: its remaining tests are reported as errors (HARNESS_TARGET_UNREACHABLE) without being run (default 5; 0 never)' },
  'time-limit': { type: 'string', value: 'S', help: 'after S seconds no test starts and the one running is stopped; they are errors (HARNESS_DEADLINE_EXCEEDED) and the report is marked incomplete (default 1800)' },
} as const satisfies Readonly<Record<string, Declared>>;

const RUN_OUTPUT = {
  'report-dir': { type: 'string', value: 'DIR', help: 'where to write the reports (default reports/<run-id>/): report.json, junit.xml, summary.md, report.html and allure-results/' },
  ...REPORTER_FLAG,
  seed: { type: 'string', value: 'N', help: 'seed for the properties (default random, recorded)' },
  'property-runs': { type: 'string', value: 'N', help: "generated cases per property (default: each property's own budget)" },
  'no-properties': { type: 'boolean', help: 'run the scenarios only' },
  'write-timings': { type: 'string', value: 'FILE', help: "also write each test's time (the median with --repeat) as a timings table for --shard-timings; the committed suites/timings.json is written with --repeat 5 --concurrency 1 against the embedded reference (a test's time side by side includes its neighbours')" },
} as const satisfies Readonly<Record<string, Declared>>;

/** Every option run parses: the target's shared flags (cli/target-options.ts) with run's own words for --target and --insecure. */
export const RUN_OPTIONS = { ...TARGET_FLAGS, ...RUN_TARGET, ...RUN_SELECTION, ...RUN_VERDICT, ...RUN_BOUNDS, ...RUN_OUTPUT } as const;

const RUN_HELP = () => `Usage: cpr-conformance run [options]

Runs the conformance scenarios against a target and writes a report. With no
--target, the embedded reference implementation is started on loopback,
certified and stopped.

Target:
${optionLines(RUN_TARGET)}
${LIFECYCLE_HELP}
Selection:
${optionLines(RUN_SELECTION)}

Verdict (conformant only when every deciding requirement of the target's
roles was exercised and passed; incomplete when nothing failed but some were
not exercised, by a missing capability, a selection, an inapplicable policy or
a harness error):
${optionLines(RUN_VERDICT)}

Bounds (a target that hangs or stops answering ends the run within seconds):
${optionLines(RUN_BOUNDS)}

Output:
${optionsHelp(RUN_OUTPUT)}

While it runs, a run holds the target's test-control lease when the target
offers one (PROFILE.md §12), so no other client moves its clock; with a target
that offers none, a clock move the run did not make turns the tests it touched
into errors (HARNESS_CLOCK_MOVED), never failures.

Whatever the target does, a complete report is written. Ctrl-C stops the run
and writes the results so far, marked incomplete (exit 2); a second Ctrl-C
exits at once. Text from the target never reaches the terminal raw, and the
target file's control tokens and private keys never appear in any report or
output.

Exit codes: 0 conformant, 1 non-conformant, 2 harness or usage error,
unreachable target, interrupted, or nothing selected, 3 incomplete (nothing
failed, but not every deciding requirement was exercised).
`;

export async function run(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const values = parse('run', argv, RUN_OPTIONS);
  if (values.help) {
    io.stdout.write(RUN_HELP());
    return 0;
  }
  const roles = rolesOf(values.role, 'run');
  const shard = shardOption('run', values.shard)?.text;
  const shardTimings = values['shard-timings'];
  if (shardTimings !== undefined && shard === undefined) throw new HarnessError('USAGE_ERROR', '--shard-timings goes with --shard i/n: it says how to balance the shards', 'e.g. --shard 1/3 --shard-timings previous/report.json; see: cpr-conformance run --help');
  const repeat = integerOption('run', 'repeat', values.repeat, 1, MAX_REPEAT, 'e.g. --repeat 5 runs each test five times and says which are flaky; see: cpr-conformance run --help');
  const concurrency = integerOption('run', 'concurrency', values.concurrency, 1, MAX_CONCURRENCY, 'e.g. --concurrency 1 runs the tests one after another; see: cpr-conformance run --help');
  const writeTimings = values['write-timings'];
  fileInExistingFolder(writeTimings, '--write-timings', 'suites/timings.json');
  const target = targetChoice(values, 'run', io.env);
  const reporters = reportersOf('run', values.reporter);
  // Checked before anything starts: a folder that cannot be written is a usage error now, not after the run.
  const reportDir = writableDir(values['report-dir'] ?? defaultReportDir(), '--report-dir');
  const server = serverOptionsOf(values, 'run', target, reportDir, io.env);
  const allowHosts = allowHostsOf(values['allow-host'], target);
  const requestTimeoutMs = integerOption('run', 'request-timeout', values['request-timeout'], 1, 600_000);
  const unreachableAfter = integerOption('run', 'unreachable-after', values['unreachable-after'], 0, 1_000_000);
  const timeLimit = integerOption('run', 'time-limit', values['time-limit'], 1, 7 * 86_400);
  // The embedded reference's thread loads its modules while the suites load (booted already when run-early.ts saw no --target).
  if (target.kind === 'embedded') bootReferenceThread(EMBEDDED_REFERENCE_OPTIONS);
  const terminal = terminalOf(io);
  const baseline = values.baseline === undefined ? undefined : readBaseline(values.baseline, values.scenario ?? []);
  if (baseline !== undefined && baseline.unknown.length > 0) {
    terminal.line(`warning: the baseline report ${baseline.file} names ${baseline.unknown.length} test(s) this suite does not have: ${baseline.unknown.slice(0, 10).join(', ')}${baseline.unknown.length > 10 ? ', ...' : ''}`);
  }
  const outcome = await withServer(server, terminal, () => conformanceRun(
    {
      target,
      only: values.only ?? [],
      roles,
      scenarioFiles: values.scenario ?? [],
      strict: values.strict === true,
      profileAdvisory: values['profile-advisory'] === true,
      allowPartial: values['allow-partial'] === true,
      ...(values.seed !== undefined ? { seed: integerOption('run', 'seed', values.seed, 0, 2 ** 32 - 1)! } : {}),
      ...(values['property-runs'] !== undefined ? { propertyRuns: integerOption('run', 'property-runs', values['property-runs'], 1, 100_000)! } : {}),
      noProperties: values['no-properties'] === true,
      ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
      ...(unreachableAfter !== undefined ? { unreachableAfter } : {}),
      ...(timeLimit !== undefined ? { timeLimitMs: timeLimit * 1000 } : {}),
      ...(allowHosts.length > 0 ? { allowHosts } : {}),
      ...leaseWaitOf(values, 'run'),
      ...(shard !== undefined ? { shard } : {}),
      ...(shardTimings !== undefined ? { shardTimings } : {}),
      ...(repeat !== undefined ? { repeat } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(writeTimings !== undefined ? { writeTimings } : {}),
      reportDir,
      views: reporters.views,
      ...(baseline !== undefined ? { baseline } : {}),
      command: ['cpr-conformance', 'run', ...argv],
      rerunBase: rerunBase(values),
    },
    terminal,
  ));
  if (reporters.terminal) printSummary(outcome.report, outcome.dir, terminal, reportFiles(reporters.views));
  return outcome.exitCode;
}
