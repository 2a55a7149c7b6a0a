// `cpr-conformance run`: certify a target (the embedded reference when none).
import { readBaseline } from '../runner/baseline.ts';
import { conformanceRun } from '../runner/run.ts';
import type { TargetChoice } from '../runner/resolve-target.ts';
import { createTerminal } from '../runner/terminal.ts';
import { integerOption, parse } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { rolesOf } from './list.ts';
import { printSummary } from './summary.ts';
import { checkAllowedHosts } from '../../reference/paying-app/hosts.ts';

const RUN_HELP = `Usage: cpr-conformance run [options]

Runs the conformance scenarios against a target and writes a report. With no
--target, the embedded reference implementation is started on loopback,
certified and stopped.

Target:
  --target FILE|URL     a target file (see: cpr-conformance init), or a base URL:
                        shorthand for the http adapter on the payee and operator
                        roles at that URL, with its test-control interface
  --ca FILE             with --target URL: the CA certificate to trust
  --insecure            with --target URL: skip TLS verification (recorded in
                        the report; prefer --ca)
  --allow-host HOST     let the reference paying application retrieve token
                        URIs from HOST (host or host:port) too; repeatable.
                        By default it follows a QR or deep-link endpoint only
                        to the target's own hosts (no request forgery through
                        a CPR URI)

Selection:
  --only ID             a scenario ID, a requirement ID, a suite name, or a
                        prefix of one (TOK-, CPP-BAL-1); repeatable
  --role ROLE           payee, paying-app or operator; repeatable
  --scenario FILE       also run this scenario file (a fuzzer's regression
                        scenario, say); repeatable
  --shard i/n           run only the i-th of n shards (every n-th test of the
                        selection, from the i-th); join the reports with:
                        cpr-conformance report merge DIR...

Verdict (conformant only when every deciding requirement of the target's
roles was exercised and passed; incomplete when nothing failed but some were
not exercised, by a missing capability, a selection, an inapplicable policy or
a harness error):
  --strict              SHOULD failures fail the run (otherwise warnings)
  --profile-advisory    PROFILE failures are warnings: for implementations
                        certified through an adapter with another wire format
  --allow-partial       an incomplete verdict exits 0 instead of 3 (the
                        verdict still says incomplete)
  --baseline FILE       known failures: a report.json, or YAML/JSON with
                        known_failures: [test IDs]. Changes the exit code only:
                        it is 1 when any result differs from the baseline (a
                        new failure or a new pass); the verdict and every
                        report still say what was observed, known failures
                        marked as such

Bounds (a target that hangs or stops answering ends the run within seconds):
  --request-timeout MS  deadline of each request to the target, connect to last
                        byte (default 10000); when given, also the deadline of
                        the preflight probes (otherwise 3000)
  --unreachable-after N after N consecutive requests to a role with no answer
                        at all, the role counts as unreachable: its remaining
                        tests are reported as errors (HARNESS_TARGET_UNREACHABLE)
                        without being run (default 5; 0 never)
  --time-limit S        after S seconds no test starts and the one running is
                        stopped; they are errors (HARNESS_DEADLINE_EXCEEDED)
                        and the report is marked incomplete (default 1800)

Output:
  --report-dir DIR      where to write the reports (default reports/<run-id>/):
                        report.json, junit.xml, summary.md, report.html and
                        allure-results/
  --seed N              seed for the properties (default random, recorded)
  --property-runs N     generated cases per property (default: each
                        property's own budget)
  --no-properties       run the scenarios only
  -h, --help            show this help

Whatever the target does, a complete report is written. Ctrl-C stops the run and writes the results so far,
marked incomplete (exit 2); a second Ctrl-C exits at once. Text from the target
never reaches the terminal raw, and the target file's control tokens and private
keys never appear in any report or output.

Exit codes: 0 conformant, 1 non-conformant, 2 harness or usage error,
unreachable target, interrupted, or nothing selected, 3 incomplete (nothing
failed, but not every deciding requirement was exercised).
`;

export async function run(argv: string[]): Promise<number> {
  const values = parse('run', argv, {
    target: { type: 'string' },
    ca: { type: 'string' },
    insecure: { type: 'boolean' },
    only: { type: 'string', multiple: true },
    role: { type: 'string', multiple: true },
    scenario: { type: 'string', multiple: true },
    shard: { type: 'string' },
    strict: { type: 'boolean' },
    'profile-advisory': { type: 'boolean' },
    'allow-partial': { type: 'boolean' },
    baseline: { type: 'string' },
    'report-dir': { type: 'string' },
    seed: { type: 'string' },
    'property-runs': { type: 'string' },
    'no-properties': { type: 'boolean' },
    'request-timeout': { type: 'string' },
    'unreachable-after': { type: 'string' },
    'time-limit': { type: 'string' },
    'allow-host': { type: 'string', multiple: true },
  });
  if (values.help) {
    process.stdout.write(RUN_HELP);
    return 0;
  }
  const roles = rolesOf(values.role as string[] | undefined, 'run');
  const shard = values.shard as string | undefined;
  if (shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new HarnessError('USAGE_ERROR', `--shard takes i/n with 1 <= i <= n, not ${JSON.stringify(shard)}`, 'see: cpr-conformance run --help');
  }
  const target = targetChoice(values);
  const allowHosts = allowHostsOf(values['allow-host'] as string[] | undefined, target);
  const requestTimeoutMs = integerOption('run', 'request-timeout', values['request-timeout'], 1, 600_000);
  const unreachableAfter = integerOption('run', 'unreachable-after', values['unreachable-after'], 0, 1_000_000);
  const timeLimit = integerOption('run', 'time-limit', values['time-limit'], 1, 7 * 86_400);
  const terminal = createTerminal();
  const baseline = values.baseline === undefined ? undefined : readBaseline(values.baseline as string, (values.scenario as string[] | undefined) ?? []);
  if (baseline !== undefined && baseline.unknown.length > 0) {
    terminal.line(`warning: the baseline report ${baseline.file} names ${baseline.unknown.length} test(s) this suite does not have: ${baseline.unknown.slice(0, 10).join(', ')}${baseline.unknown.length > 10 ? ', ...' : ''}`);
  }
  const outcome = await conformanceRun(
    {
      target,
      only: (values.only as string[] | undefined) ?? [],
      roles,
      scenarioFiles: (values.scenario as string[] | undefined) ?? [],
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
      ...(shard !== undefined ? { shard } : {}),
      ...(values['report-dir'] !== undefined ? { reportDir: values['report-dir'] as string } : {}),
      ...(baseline !== undefined ? { baseline } : {}),
      command: ['cpr-conformance', 'run', ...argv],
      rerunBase: rerunBase(values),
    },
    terminal,
  );
  printSummary(outcome.report, outcome.dir, terminal);
  return outcome.exitCode;
}

function targetChoice(values: Record<string, unknown>): TargetChoice {
  const target = values.target as string | undefined;
  if (target === undefined) {
    if (values.ca !== undefined || values.insecure) throw new HarnessError('USAGE_ERROR', '--ca and --insecure go with --target URL', 'see: cpr-conformance run --help');
    return { kind: 'embedded' };
  }
  if (/^https?:\/\//i.test(target)) {
    if (values.ca !== undefined && values.insecure) throw new HarnessError('USAGE_ERROR', 'give either --ca or --insecure, not both');
    return { kind: 'url', url: target, ...(values.ca !== undefined ? { caFile: values.ca as string } : {}), insecure: values.insecure === true };
  }
  if (values.ca !== undefined || values.insecure) throw new HarnessError('USAGE_ERROR', '--ca and --insecure go with --target URL; a target file sets tls per role');
  return { kind: 'file', path: target };
}

/** --allow-host values, checked: a host or host:port, for a target with the reference paying application. */
function allowHostsOf(given: string[] | undefined, target: TargetChoice): string[] {
  if (given === undefined || given.length === 0) return [];
  if (target.kind === 'url') {
    throw new HarnessError('USAGE_ERROR', '--allow-host widens what the reference paying application may contact; a --target URL has no paying application', 'use it with no --target (the embedded reference) or a target file whose paying_app is reference/adapter.ts');
  }
  try {
    return [...checkAllowedHosts(given)];
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `--allow-host: ${(error as Error).message.replace(/^allowedHosts: /, '')}`, 'give a host name or address, optionally with :port, e.g. --allow-host 127.0.0.2:8443');
  }
}

/** The rerun command keeps the target options so one failure reruns alone against the same target. */
function rerunBase(values: Record<string, unknown>): string {
  const parts = ['npx cpr-conformance run'];
  if (values.target !== undefined) parts.push(`--target ${shellQuote(values.target as string)}`);
  if (values.ca !== undefined) parts.push(`--ca ${shellQuote(values.ca as string)}`);
  if (values.insecure) parts.push('--insecure');
  for (const host of (values['allow-host'] as string[] | undefined) ?? []) parts.push(`--allow-host ${shellQuote(host)}`);
  if (values['request-timeout'] !== undefined) parts.push(`--request-timeout ${values['request-timeout'] as string}`);
  for (const f of (values.scenario as string[] | undefined) ?? []) parts.push(`--scenario ${shellQuote(f)}`);
  if (values.strict) parts.push('--strict');
  if (values.seed !== undefined) parts.push(`--seed ${values.seed as string}`);
  return parts.join(' ');
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}
