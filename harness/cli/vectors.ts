// `cpr-conformance vectors`: the published test vectors (vectors/README.md).
//   generate [--check]   rewrite vectors/ deterministically, or report drift
//   verify [...]         run the vectors against the reference or a target
import { checkVectors, writeVectors } from '../vectors/generate.ts';
import { VECTOR_KINDS, isVectorKind, type VectorKind } from '../vectors/model.ts';
import { verifyVectors, type CaseReport, type CaseStatus, type VerifyTarget } from '../vectors/verify.ts';
import { didYouMean, stripControl } from '../text.ts';
import { optionLines, optionsHelp, parseCommand, type Declared } from './args.ts';
import { CA_FLAG, leaseWaitOf, refuseUrlLike } from './target-options.ts';
import { EXIT, HarnessError } from './errors.ts';
import { processIo, type CommandIo } from '../io.ts';

/** Each subcommand's options: they parse the command line and write --help; an option of the other one is refused. */
export const VECTORS_GENERATE_OPTIONS = {
  check: { type: 'boolean', help: 'change nothing; exit 1 naming the files that differ from a fresh generation' },
} as const satisfies Readonly<Record<string, Declared>>;

export const VECTORS_VERIFY_OPTIONS = {
  target: { type: 'string', value: 'FILE|URL', help: 'a target file (see: cpr-conformance init) or a base URL: only the sequences (retrieval-token, replay) run; the pure kinds are reported as not applicable to a remote target' },
  ...CA_FLAG,
  'lease-wait': { type: 'string', value: 'S', help: "when another client holds the target's test-control lease (PROFILE.md §12), wait up to S seconds for it; without it verify stops at once (HARNESS_TARGET_BUSY, exit 2). The sequences move the target's clock, so verify holds the lease while they run" },
  kind: { type: 'string', multiple: true, value: 'KIND', help: `only this kind (${VECTOR_KINDS.join(', ')})` },
  failures: { type: 'boolean', help: 'print only the cases that did not pass' },
  json: { type: 'boolean', help: 'one JSON report instead of text' },
} as const satisfies Readonly<Record<string, Declared>>;

const VECTORS_OPTIONS = { ...VECTORS_GENERATE_OPTIONS, ...VECTORS_VERIFY_OPTIONS } as const;

export const VECTORS_HELP = `Usage: cpr-conformance vectors <generate|verify> [options]

The published test vectors in vectors/ (format: vectors/vector.schema.json; how
to use them from any language: vectors/README.md).

vectors generate rewrites vectors/*.json (and harness/vectors/ledger.json,
which keeps tcIds stable) from the generators: the same bytes every time.

Options of generate:
${optionLines(VECTORS_GENERATE_OPTIONS)}

vectors verify runs the vectors and reports every case (tcId, expected result,
result seen) and a summary. With no --target, against the reference: its
functions for the pure kinds and, for the request/response sequences, the
reference started on loopback over HTTPS with its own CA.

Options of verify:
${optionLines(VECTORS_VERIFY_OPTIONS)}

${optionsHelp({})}

Exit codes: 0 success (generate), no drift (--check) or every case matched
(verify); 1 drift or a mismatch; 2 harness or usage error, unreachable target.
`;

export async function vectors(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const { values, positionals } = parseVectorArgs(argv);
  if (values.help) {
    io.stdout.write(VECTORS_HELP);
    return 0;
  }
  const [sub, ...extra] = positionals;
  if (extra.length > 0) throw new HarnessError('USAGE_ERROR', `unexpected argument ${JSON.stringify(extra[0])}`, 'see: cpr-conformance vectors --help');
  switch (sub) {
    case 'generate':
      only(values, VECTORS_GENERATE_OPTIONS, 'generate');
      return generate(values.check === true, io);
    case 'verify':
      only(values, VECTORS_VERIFY_OPTIONS, 'verify');
      return verify(values, io);
    case undefined:
      io.stdout.write(VECTORS_HELP);
      return EXIT.error;
    default:
      throw new HarnessError('USAGE_ERROR', `unknown vectors command "${sub}"${didYouMean(sub, ['generate', 'verify'], (w) => `"${w}"`)}`, 'see: cpr-conformance vectors --help');
  }
}

type Values = ReturnType<typeof parseVectorArgs>['values'];

function parseVectorArgs(argv: string[]) {
  return parseCommand('vectors', argv, VECTORS_OPTIONS);
}

/** Options belong to one subcommand: --check with verify is a usage error, not silently ignored. */
function only(values: Values, allowed: Readonly<Record<string, Declared>>, sub: string): void {
  const stray = Object.keys(values).filter((k) => k !== 'help' && values[k as keyof Values] !== undefined && !Object.hasOwn(allowed, k));
  if (stray.length > 0) throw new HarnessError('USAGE_ERROR', `--${stray[0]} is not an option of vectors ${sub}`, 'see: cpr-conformance vectors --help');
}

function generate(check: boolean, io: CommandIo): number {
  if (check) {
    const { differing } = checkVectors();
    if (differing.length === 0) {
      io.stdout.write('vectors are up to date\n');
      return EXIT.conformant;
    }
    io.stdout.write(`these files differ from a fresh generation:\n${differing.map((f) => `  ${f}\n`).join('')}run: npx cpr-conformance vectors generate\n`);
    return EXIT.nonConformant;
  }
  const changed = writeVectors();
  io.stdout.write(changed.length === 0 ? 'vectors are up to date; nothing written\n' : `wrote:\n${changed.map((f) => `  ${f}\n`).join('')}`);
  return EXIT.conformant;
}

const LABEL: Record<CaseStatus, string> = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP', 'not-applicable': 'N/A ', error: 'ERR ' };

function targetOf(values: Values, env: CommandIo['env']): VerifyTarget {
  const target = values.target;
  if (target === undefined) {
    if (values.ca !== undefined) throw new HarnessError('USAGE_ERROR', '--ca goes with --target URL', 'see: cpr-conformance vectors --help');
    return { kind: 'reference' };
  }
  if (/^https?:\/\//i.test(target)) return { kind: 'url', url: target, ...(values.ca !== undefined ? { caFile: values.ca } : {}) };
  refuseUrlLike(target);
  if (values.ca !== undefined) throw new HarnessError('USAGE_ERROR', '--ca goes with --target URL; a target file sets tls per role');
  return { kind: 'file', path: target, env };
}

function kindsOf(values: Values): VectorKind[] {
  return (values.kind ?? []).map((k) => {
    if (!isVectorKind(k)) throw new HarnessError('USAGE_ERROR', `--kind takes one of ${VECTOR_KINDS.join(', ')}, not ${JSON.stringify(k)}`, 'see: cpr-conformance vectors --help');
    return k;
  });
}

function line(c: CaseReport): string {
  const got = c.got === 'none' ? '-' : c.got;
  const detail = c.detail && c.status !== 'pass' ? ` — ${c.detail.split('\n')[0]!.slice(0, 300)}` : '';
  return stripControl(`${LABEL[c.status]} ${c.file} tcId ${c.tcId}: expected ${c.expected}, got ${got}: ${c.comment}${detail}`);
}

async function verify(values: Values, io: CommandIo): Promise<number> {
  const json = values.json === true;
  const failuresOnly = values.failures === true;
  const report = await verifyVectors({
    target: targetOf(values, io.env),
    kinds: kindsOf(values),
    ...leaseWaitOf(values, 'vectors'),
    onWarning: (text: string) => io.stderr.write(`warning: ${stripControl(text)}\n`),
    ...(json ? {} : { onCase: (c: CaseReport) => (!failuresOnly || c.status === 'fail' || c.status === 'error') && io.stdout.write(`${line(c)}\n`) }),
  });
  if (json) {
    io.stdout.write(`${JSON.stringify({ target: report.target, counts: report.counts, exit_code: report.exitCode, cases: report.cases }, null, 2)}\n`);
    return report.exitCode;
  }
  const files = [...new Set(report.cases.map((c) => c.file))];
  io.stdout.write(`\nvectors verified against ${stripControl(report.target)}\n`);
  for (const file of files) {
    const of = report.cases.filter((c) => c.file === file);
    const n = (s: CaseStatus) => of.filter((c) => c.status === s).length;
    io.stdout.write(`  ${file.padEnd(22)} ${String(of.length).padStart(4)} cases: ${n('pass')} pass, ${n('fail')} fail, ${n('skipped')} skipped, ${n('not-applicable')} n/a, ${n('error')} error\n`);
  }
  const c = report.counts;
  io.stdout.write(`total: ${report.cases.length} cases: ${c.pass} pass, ${c.fail} fail, ${c.skipped} skipped, ${c['not-applicable']} not applicable, ${c.error} error\n`);
  return report.exitCode;
}
