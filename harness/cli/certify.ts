// `cpr-conformance certify`: the whole suite against a target, packaged as signed
// evidence (harness/certify/) when the run is certification-grade.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildPackage, certificationProblems, freshSigningKey, privateJwk, readSigningKey, suiteDigest, targetSlug, type SigningKey } from '../certify/index.ts';
import { readReport, REPORT_JSON } from '../report/json.ts';
import { conformanceRun, defaultReportDir } from '../runner/run.ts';
import { terminalOf } from '../runner/terminal.ts';
import { integerOption, parse } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { allowHostsOf, leaseWaitOf, rerunBase, serverOptionsOf, TARGET_FLAGS, targetChoice, withServer, writableDir } from './target-options.ts';
import { printSummary } from './summary.ts';
import { REPORTER_FLAG, REPORTER_HELP, reportersOf, reportFiles } from './reporters.ts';
import { fileStamp } from '../text.ts';
import { processIo, type CommandIo } from '../io.ts';

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
  --target FILE|URL     a target file, or a base URL (payee and operator roles)
  --ca FILE             with a URL: the CA certificate to trust
  --insecure            with a URL: skip TLS verification (recorded)
  --allow-host HOST     as for run; repeatable
  --lease-wait S        as for run: wait up to S seconds for the target's
                        test-control lease when another client holds it
  --control-token-env NAME, --start "COMMAND", --ready URL, --ready-timeout S,
  --stop-grace S        as for run: the server is started before the run and
                        stopped after it
  --request-timeout MS  as for run
  --unreachable-after N as for run
  --time-limit S        as for run; a run cut short gets no package
  --seed N              seed for the properties (default random, recorded)
  --strict              SHOULD requirements decide too (recorded)

Package:
  --out FILE            the archive (default
                        reports/certification-<target>-<date>.tar.gz)
  --key FILE            the signing key: a private OKP Ed25519 JWK (kty, crv,
                        x, d). Without it a fresh key is generated and written
                        beside the archive as FILE.key.jwk (mode 0600), and its
                        thumbprint (the signature's kid) is printed
  --report-dir DIR      where the run's reports go (default reports/<run-id>/)
${REPORTER_HELP}
  -h, --help            show this help

Not accepted, because a certification is of everything: --only, --role,
--shard, --scenario, --baseline, --allow-partial, --profile-advisory,
--property-runs, --no-properties (use run for those).

Exit codes: 0 conformant, package written; 1 non-conformant, package written;
2 not certification-grade (no package), harness or usage error.
`;

/** Flags of run that would narrow or relax the run: parsed, so that the refusal says why. */
const NARROWING = {
  only: 'it selects tests',
  role: 'it selects roles',
  shard: 'it runs a part of the suite',
  scenario: 'it adds scenarios from outside the suite',
  baseline: 'it changes the exit code for known failures',
  'allow-partial': 'it accepts an incomplete run',
  'profile-advisory': 'it makes PROFILE failures warnings',
  'property-runs': 'it changes how many cases each property runs',
  'no-properties': 'it leaves the properties out',
} as const;

export async function certify(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const values = parse('certify', argv, {
    ...TARGET_FLAGS,
    'allow-host': { type: 'string', multiple: true },
    'lease-wait': { type: 'string' },
    'request-timeout': { type: 'string' },
    'unreachable-after': { type: 'string' },
    'time-limit': { type: 'string' },
    seed: { type: 'string' },
    strict: { type: 'boolean' },
    out: { type: 'string' },
    key: { type: 'string' },
    'report-dir': { type: 'string' },
    only: { type: 'string', multiple: true },
    role: { type: 'string', multiple: true },
    shard: { type: 'string' },
    scenario: { type: 'string', multiple: true },
    baseline: { type: 'string' },
    'allow-partial': { type: 'boolean' },
    'profile-advisory': { type: 'boolean' },
    'property-runs': { type: 'string' },
    'no-properties': { type: 'boolean' },
    ...REPORTER_FLAG,
  });
  if (values.help) {
    io.stdout.write(CERTIFY_HELP);
    return 0;
  }
  for (const [flag, why] of Object.entries(NARROWING) as [keyof typeof NARROWING, string][]) {
    if (values[flag] !== undefined) {
      throw new HarnessError('USAGE_ERROR', `certify takes no --${flag}: ${why}, and a certification is of the whole suite against every role of the target`, 'run such a run with: cpr-conformance run; see: cpr-conformance certify --help');
    }
  }
  const target = targetChoice(values, 'certify', io.env);
  const reporters = reportersOf('certify', values.reporter);
  const reportDir = writableDir(values['report-dir'] ?? defaultReportDir(), '--report-dir');
  const server = serverOptionsOf(values, 'certify', target, reportDir);
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
