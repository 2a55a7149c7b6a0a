// `cpr-conformance certify`: the whole suite against a target, packaged as signed
// evidence (harness/certify/) when the run is certification-grade.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildPackage, certificationProblems, freshSigningKey, privateJwk, readSigningKey, suiteDigest, targetSlug, type SigningKey } from '../certify/index.ts';
import { readReport, REPORT_JSON } from '../report/json.ts';
import { conformanceRun, defaultReportDir } from '../runner/run.ts';
import { terminalOf } from '../runner/terminal.ts';
import { integerOption, optionLines, optionsHelp, parse, type Declared } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { allowHostsOf, leaseWaitOf, LIFECYCLE_HELP, rerunBase, serverOptionsOf, TARGET_FLAGS, targetChoice, withServer, writableDir } from './target-options.ts';
import { printSummary } from './summary.ts';
import { REPORTER_FLAG, reportersOf, reportFiles } from './reporters.ts';
import { fileStamp } from '../text.ts';
import { processIo, type CommandIo } from '../io.ts';
import { RUN_OPTIONS } from './run.ts';

/** certify's options, by the heading its --help lists them under: they parse the command line and write its --help. */
const CERTIFY_TARGET = {
  target: RUN_OPTIONS.target,
  ca: RUN_OPTIONS.ca,
  insecure: RUN_OPTIONS.insecure,
  'allow-host': RUN_OPTIONS['allow-host'],
  'lease-wait': RUN_OPTIONS['lease-wait'],
} as const satisfies Readonly<Record<string, Declared>>;

const CERTIFY_RUN = {
  'request-timeout': RUN_OPTIONS['request-timeout'],
  'unreachable-after': RUN_OPTIONS['unreachable-after'],
  'time-limit': { ...RUN_OPTIONS['time-limit'], help: `${RUN_OPTIONS['time-limit'].help}. A run cut short gets no package` },
  seed: RUN_OPTIONS.seed,
  strict: { type: 'boolean', help: 'SHOULD requirements decide too (recorded)' },
} as const satisfies Readonly<Record<string, Declared>>;

const CERTIFY_PACKAGE = {
  out: { type: 'string', value: 'FILE', help: 'the archive (default reports/certification-<target>-<date>.tar.gz)' },
  key: { type: 'string', value: 'FILE', help: 'the signing key: a private OKP Ed25519 JWK (kty, crv, x, d). Without it a fresh key is generated and written beside the archive as FILE.key.jwk (mode 0600), and its thumbprint (the signature\'s kid) is printed' },
  'report-dir': RUN_OPTIONS['report-dir'],
  ...REPORTER_FLAG,
} as const satisfies Readonly<Record<string, Declared>>;

/** Flags of run that would narrow or relax the run: parsed, so that the refusal says why. */
const NARROWING = {
  only: { type: 'string', value: 'ID', help: 'it selects tests' },
  role: { type: 'string', value: 'ROLE', help: 'it selects roles' },
  shard: { type: 'string', value: 'i/n', help: 'it runs a part of the suite' },
  scenario: { type: 'string', value: 'FILE', help: 'it adds scenarios from outside the suite' },
  baseline: { type: 'string', value: 'FILE', help: 'it changes the exit code for known failures' },
  'allow-partial': { type: 'boolean', help: 'it accepts an incomplete run' },
  'profile-advisory': { type: 'boolean', help: 'it makes PROFILE failures warnings' },
  'property-runs': { type: 'string', value: 'N', help: 'it changes how many cases each property runs' },
  'no-properties': { type: 'boolean', help: 'it leaves the properties out' },
} as const satisfies Readonly<Record<string, Declared>>;

/** Every option certify parses: the target's shared flags, its own, and run's that it refuses. */
export const CERTIFY_OPTIONS = { ...TARGET_FLAGS, ...CERTIFY_TARGET, ...CERTIFY_RUN, ...CERTIFY_PACKAGE, ...NARROWING } as const;

const CERTIFY_HELP = `Usage: cpr-conformance certify [options]

Runs the whole suite against a target (every test of every role it declares)
and, when the run is certification-grade, writes one signed certification
package: a deterministic .tar.gz with report.json, manifest.json,
capabilities.json, policy.json, target.json and signature.jws (a detached
EdDSA JWS over the canonical manifest). Check one with:
cpr-conformance verify-package FILE.

A non-conformant run that ran to the end always gets a package: an observed
failure of a deciding requirement is evidence whatever else was not exercised
(the manifest's coverage says what). A conformant one needs every deciding
requirement of the target's roles exercised (or not applicable, by the spec
or the target's policy) and no harness error. Any other run gets none: exit 2
with NOT_CERTIFICATION_GRADE; its reports are written all the same.

Target (as for run; with none, the embedded reference implementation):
${optionLines(CERTIFY_TARGET)}
${LIFECYCLE_HELP}
Run (as for run):
${optionLines(CERTIFY_RUN)}

Package:
${optionsHelp(CERTIFY_PACKAGE)}

Not accepted, because a certification is of everything (use run for these):
${optionLines(NARROWING)}

Exit codes: 0 conformant, package written; 1 non-conformant, package written;
2 not certification-grade (no package), harness or usage error.
`;

export async function certify(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const values = parse('certify', argv, CERTIFY_OPTIONS);
  if (values.help) {
    io.stdout.write(CERTIFY_HELP);
    return 0;
  }
  for (const [flag, { help: why }] of Object.entries(NARROWING) as [keyof typeof NARROWING, Declared][]) {
    if (values[flag] !== undefined) {
      throw new HarnessError('USAGE_ERROR', `certify takes no --${flag}: ${why}, and a certification is of the whole suite against every role of the target`, 'run such a run with: cpr-conformance run; see: cpr-conformance certify --help');
    }
  }
  const target = targetChoice(values, 'certify', io.env);
  const reporters = reportersOf('certify', values.reporter);
  const reportDir = writableDir(values['report-dir'] ?? defaultReportDir(), '--report-dir');
  const server = serverOptionsOf(values, 'certify', target, reportDir, io.env);
  const allowHosts = allowHostsOf(values['allow-host'], target);
  const requestTimeoutMs = integerOption('certify', 'request-timeout', values['request-timeout'], 1, 600_000);
  const unreachableAfter = integerOption('certify', 'unreachable-after', values['unreachable-after'], 0, 1_000_000);
  const timeLimit = integerOption('certify', 'time-limit', values['time-limit'], 1, 7 * 86_400);
  const seed = integerOption('certify', 'seed', values.seed, 0, 2 ** 32 - 1);
  // The key is read before the run: a bad key file fails in a second, not after the suite.
  const keyFile = values.key;
  const givenKey = keyFile === undefined ? undefined : readSigningKey(readText(keyFile, '--key'), keyFile);
  // What ran: the suite as it was when the run loaded it.
  const suite = suiteDigest();

  const terminal = terminalOf(io);
  const outcome = await withServer(server, terminal, () => conformanceRun(
    {
      target,
      only: [],
      roles: [],
      scenarioFiles: [],
      strict: values.strict === true,
      profileAdvisory: false,
      allowPartial: false,
      ...(seed !== undefined ? { seed } : {}),
      ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
      ...(unreachableAfter !== undefined ? { unreachableAfter } : {}),
      ...(timeLimit !== undefined ? { timeLimitMs: timeLimit * 1000 } : {}),
      ...(allowHosts.length > 0 ? { allowHosts } : {}),
      ...leaseWaitOf(values, 'certify'),
      reportDir,
      views: reporters.views,
      command: ['cpr-conformance', 'certify', ...argv],
      rerunBase: rerunBase(values),
    },
    terminal,
  ));
  if (reporters.terminal) printSummary(outcome.report, outcome.dir, terminal, reportFiles(reporters.views));
  // The report as the run wrote it: scrubbed of the target's secrets, checked against its schema.
  const report = readReport(join(outcome.dir, REPORT_JSON));
  const problems = certificationProblems(report);
  if (problems.length > 0) {
    throw new HarnessError('NOT_CERTIFICATION_GRADE', `no certification package written: ${problems.join('; ')}`, `the run's reports are in ${outcome.dir}/; why each requirement was not exercised: cpr-conformance explain ID --report ${join(outcome.dir, REPORT_JSON)}`);
  }

  const key: SigningKey = givenKey ?? freshSigningKey();
  const archive = resolve(values.out ?? join('reports', `certification-${targetSlug(report.run.target.name)}-${fileStamp(report.run.started_at)}.tar.gz`));
  writeAtomically(archive, buildPackage(report, suite, key));
  terminal.line('');
  terminal.line(`certification package: ${archive} (verdict ${report.verdict})`);
  if (givenKey === undefined) {
    const keyOut = `${archive}.key.jwk`;
    rmSync(keyOut, { force: true });
    writeFileSync(keyOut, `${JSON.stringify(privateJwk(key), null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    terminal.line(`signed by key ${key.kid}, generated for this package: its private JWK is ${keyOut} (mode 0600; keep it, or pass --key next time)`);
  } else {
    terminal.line(`signed by key ${key.kid} (${keyFile})`);
  }
  terminal.line(`check it with: cpr-conformance verify-package ${archive} --kid=${key.kid}`);
  return report.verdict === 'conformant' ? EXIT.conformant : EXIT.nonConformant;
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot read ${flag} ${file}: ${(error as Error).message}`, 'see: cpr-conformance certify --help');
  }
}

/** Written whole or not at all: a reader never sees half a package. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new HarnessError('USAGE_ERROR', `cannot write --out ${file}: ${(error as Error).message}`, 'choose a writable place with --out FILE');
  }
}
