// `cpr-conformance run`: certify a target (the embedded reference when none).
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { readReport } from '../report/index.ts';
import { conformanceRun } from '../runner/run.ts';
import type { TargetChoice } from '../runner/resolve-target.ts';
import { createTerminal } from '../runner/terminal.ts';
import { integerOption, parse } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { rolesOf } from './list.ts';
import { printSummary } from './summary.ts';

export const RUN_HELP = `Usage: cpr-conformance run [options]

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

Selection:
  --only ID             a scenario ID, a requirement ID, a suite name, or a
                        prefix of one (TOK-, CPP-BAL-1); repeatable
  --role ROLE           payee, paying-app or operator; repeatable
  --scenario FILE       also run this scenario file (a fuzzer's regression
                        scenario, say); repeatable
  --shard i/n           run only the i-th of n shards (by suite file); join the
                        reports with: cpr-conformance report merge DIR...

Verdict:
  --strict              SHOULD failures fail the run (otherwise warnings)
  --profile-advisory    PROFILE failures are warnings: for implementations
                        certified through an adapter with another wire format
  --baseline FILE       known failures: a report.json, or YAML/JSON with
                        known_failures: [test IDs]; the run fails when any
                        result differs from it (a new failure or a new pass)

Output:
  --report-dir DIR      where to write the reports (default reports/<run-id>/):
                        report.json, junit.xml, summary.md, report.html and
                        allure-results/
  --seed N              seed for the properties (default random, recorded)
  --property-runs N     generated cases per property (default: each
                        property's own budget)
  --no-properties       run the scenarios only
  -h, --help            show this help

Exit codes: 0 conformant, 1 non-conformant, 2 harness or usage error,
unreachable target, or nothing selected.
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
    baseline: { type: 'string' },
    'report-dir': { type: 'string' },
    seed: { type: 'string' },
    'property-runs': { type: 'string' },
    'no-properties': { type: 'boolean' },
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
  const baselineFile = values.baseline as string | undefined;
  const terminal = createTerminal();
  const outcome = await conformanceRun(
    {
      target,
      only: (values.only as string[] | undefined) ?? [],
      roles,
      scenarioFiles: (values.scenario as string[] | undefined) ?? [],
      strict: values.strict === true,
      profileAdvisory: values['profile-advisory'] === true,
      ...(values.seed !== undefined ? { seed: integerOption('run', 'seed', values.seed, 0, 2 ** 32 - 1)! } : {}),
      ...(values['property-runs'] !== undefined ? { propertyRuns: integerOption('run', 'property-runs', values['property-runs'], 1, 100_000)! } : {}),
      noProperties: values['no-properties'] === true,
      ...(shard !== undefined ? { shard } : {}),
      ...(values['report-dir'] !== undefined ? { reportDir: values['report-dir'] as string } : {}),
      ...(baselineFile !== undefined ? { baseline: { file: baselineFile, knownFailures: readBaseline(baselineFile) } } : {}),
      command: ['cpr-conformance', 'run', ...argv],
      rerunBase: rerunBase(values),
    },
    terminal,
  );
  printSummary(outcome.report, outcome.dir, terminal);
  return outcome.exitCode === 0 ? EXIT.conformant : outcome.exitCode === 1 ? EXIT.nonConformant : EXIT.error;
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

/** The rerun command keeps the target options so one failure reruns alone against the same target. */
function rerunBase(values: Record<string, unknown>): string {
  const parts = ['npx cpr-conformance run'];
  if (values.target !== undefined) parts.push(`--target ${shellQuote(values.target as string)}`);
  if (values.ca !== undefined) parts.push(`--ca ${shellQuote(values.ca as string)}`);
  if (values.insecure) parts.push('--insecure');
  for (const f of (values.scenario as string[] | undefined) ?? []) parts.push(`--scenario ${shellQuote(f)}`);
  if (values.strict) parts.push('--strict');
  if (values.seed !== undefined) parts.push(`--seed ${values.seed as string}`);
  return parts.join(' ');
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/** A report.json (its failed tests) or a YAML/JSON file with known_failures. */
function readBaseline(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot read --baseline ${file}: ${(error as Error).message}`);
  }
  const data = YAML.parse(text) as unknown;
  if (data && typeof data === 'object' && 'schema_version' in data) return readReport(file).tests.filter((t) => t.status === 'failed').map((t) => t.id);
  const list = (data as { known_failures?: unknown } | null)?.known_failures;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
    throw new HarnessError('CONFIG_INVALID', `--baseline ${file} must be a report.json or hold known_failures: [test IDs]`);
  }
  return list as string[];
}
