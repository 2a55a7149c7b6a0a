// `cpr-conformance verify-package FILE`: checks a certification package in
// memory (harness/certify/verify.ts) and says what it certifies.
import { readFileSync, statSync } from 'node:fs';
import { ARCHIVE_LIMITS } from '../certify/archive.ts';
import { readPublicKid, suiteDigest, verifyPackage } from '../certify/index.ts';
import { coverageLine, targetName } from '../report/wording.ts';
import { stripControl } from '../text.ts';
import { optionsHelp, parseCommand, type Declared } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { processIo, type CommandIo } from '../io.ts';

/** verify-package's options: they parse the command line and write its --help. */
export const VERIFY_OPTIONS = {
  key: { type: 'string', value: 'FILE', help: 'require this signer: an OKP Ed25519 JWK file (a public key is enough; of a private one only x is read)' },
  kid: { type: 'string', value: 'THUMBPRINT', help: 'require the signer whose RFC 7638 thumbprint this is (write --kid=THUMBPRINT: a thumbprint may start with -)' },
} as const satisfies Readonly<Record<string, Declared>>;

const VERIFY_HELP = `Usage: cpr-conformance verify-package FILE [options]

Checks a certification package written by cpr-conformance certify. It is read
in memory (nothing is extracted) and must pass, in order:
  - it is a gzip'd tar holding exactly capabilities.json, manifest.json,
    policy.json, report.json, signature.jws and target.json, as plain files
  - signature.jws is a detached EdDSA JWS over the canonical manifest.json that
    verifies (strict Ed25519, PROFILE.md §2.3) with the key in its header, and
    that key is the one --key or --kid names, when given
  - every other file has the SHA-256 the manifest gives
  - report.json agrees with the manifest (verdict, coverage, every
    requirement's status) and the other files are what it implies
  - the run is certification-grade: complete, with every deciding requirement
    exercised
Then it prints the target, tool version, suite digest (and whether this
checkout's suite is the same), verdict, coverage and signer.

Options:
${optionsHelp(VERIFY_OPTIONS)}

Without --key or --kid any signer is accepted and named: a package shows who
signed it only to someone who knows that key.

Exit codes: 0 valid, conformant; 1 valid, non-conformant; 2 invalid (the code
says which check failed: PACKAGE_UNREADABLE, PACKAGE_ENTRIES_INVALID,
PACKAGE_SIGNATURE_INVALID, PACKAGE_SIGNER_MISMATCH, PACKAGE_DIGEST_MISMATCH,
PACKAGE_INCONSISTENT, NOT_CERTIFICATION_GRADE) or a usage error.
`;

export async function verifyPackageCommand(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const { values, positionals } = parseCommand('verify-package', argv, VERIFY_OPTIONS);
  if (values.help) {
    io.stdout.write(VERIFY_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new HarnessError('USAGE_ERROR', `verify-package takes one package file, not ${positionals.length}`, 'see: cpr-conformance verify-package --help');
  if (values.key !== undefined && values.kid !== undefined) throw new HarnessError('USAGE_ERROR', 'give either --key or --kid, not both', 'see: cpr-conformance verify-package --help');
  const file = positionals[0]!;
  const pinned = values.key !== undefined ? readPublicKid(readText(values.key, '--key'), values.key) : values.kid;
  if (pinned !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(pinned)) throw new HarnessError('USAGE_ERROR', `--kid takes an RFC 7638 thumbprint (43 base64url characters), not ${JSON.stringify(pinned)}`, 'see: cpr-conformance verify-package --help');

  const verified = verifyPackage(readPackageFile(file), pinned);
  const { report, suite, signer } = verified;
  const run = report.run;
  const local = suiteDigest();
  const changed = localDifference(suite.files, local.files);
  const lines = [
    `certification package: ${file}`,
    `  target:        ${targetName(run.target)} (${Object.keys(run.target.roles).join(', ')})`,
    `  tool:          cpr-conformance ${run.suite_version} (profile ${run.profile_version}; ${run.spec_versions.cpr}, ${run.spec_versions.cpp}), node ${run.node_version}`,
    `  run:           started ${run.started_at}, seed ${run.seed}${run.strict ? ', --strict' : ''}`,
    `  suite digest:  sha256:${suite.digest} (${suite.files.length} files; ${local.digest === suite.digest ? "the same as this checkout's" : `not this checkout's: ${changed}`})`,
    `  verdict:       ${report.verdict}`,
    `  coverage:      ${coverageLine(report.coverage)}`,
    pinned === undefined ? `  signed by key ${signer} (not pinned: pass --key or --kid to require it)` : `  signed by key ${signer} (the required key)`,
    `valid: signature, file digests, report consistent with the manifest, certification-grade; ${report.verdict === 'conformant' ? 'the target is conformant' : 'the target is NOT conformant'}`,
  ];
  io.stdout.write(`${lines.map(stripControl).join('\n')}\n`);
  return report.verdict === 'conformant' ? EXIT.conformant : EXIT.nonConformant;
}

/** The package's bytes; a file too large to be one is never read. */
function readPackageFile(file: string): Uint8Array {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new HarnessError('PACKAGE_UNREADABLE', `${file} is not a regular file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError('USAGE_ERROR', `cannot read ${file}: ${(error as Error).message}`, 'see: cpr-conformance verify-package --help');
  }
  if (size > ARCHIVE_LIMITS.compressedBytes) throw new HarnessError('PACKAGE_UNREADABLE', `${file} is ${size} bytes, more than a package may be (${ARCHIVE_LIMITS.compressedBytes})`);
  return readFileSync(file);
}

/** How the packaged suite differs from this checkout's, in a few words. */
function localDifference(packaged: readonly { path: string; sha256: string }[], local: readonly { path: string; sha256: string }[]): string {
  const here = new Map(local.map((f) => [f.path, f.sha256]));
  const there = new Set(packaged.map((f) => f.path));
  const differ = packaged.filter((f) => here.has(f.path) && here.get(f.path) !== f.sha256).length;
  const onlyThere = packaged.filter((f) => !here.has(f.path)).length;
  const onlyHere = local.filter((f) => !there.has(f.path)).length;
  return `${differ} file(s) differ, ${onlyThere} only in the package, ${onlyHere} only here`;
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot read ${flag} ${file}: ${(error as Error).message}`, 'see: cpr-conformance verify-package --help');
  }
}
