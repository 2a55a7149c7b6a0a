// `cpr-conformance compare INPUT...`: implementations side by side, with badges;
// `compare --diff BEFORE AFTER`: what changed between two runs of one implementation.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { compareHtml, compareMarkdown, compareReports, compareText, diffFails, diffMarkdown, diffReports, diffText, endpointBadge, type CompareInput } from '../report/compare/index.ts';
import { REPORT_JSON, REPORT_SCHEMA_VERSION, readReport } from '../report/index.ts';
import { verifyPackage } from '../certify/index.ts';
import { terminalOf } from '../runner/terminal.ts';
import { optionsHelp, parseCommand, type Declared } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { processIo, type CommandIo } from '../io.ts';
import { writableDir } from './target-options.ts';

/** compare's options: they parse the command line and write its --help. */
export const COMPARE_OPTIONS = {
  'report-dir': { type: 'string', value: 'DIR', help: 'where to write (default reports/compare)' },
  diff: { type: 'boolean', help: 'compare two runs of one implementation: BEFORE AFTER' },
  force: { type: 'boolean', help: 'with --diff: compare reports of different targets' },
  kid: { type: 'string', value: 'THUMBPRINT', help: 'every input is a certification package signed by the key with this RFC 7638 thumbprint (as verify-package --kid)' },
} as const satisfies Readonly<Record<string, Declared>>;

const COMPARE_HELP = `Usage: cpr-conformance compare INPUT... [options]
       cpr-conformance compare --diff BEFORE AFTER [options]

INPUT, BEFORE and AFTER are each a report.json (written by run or report merge),
the folder holding one, or a certification package (.tar.gz, written by
certify), which is verified as verify-package does before it is compared; a
folder of packages (and no report.json) gives each package in it.

compare INPUT... puts implementations side by side: one row per requirement of
the registry, by spec section, one column per implementation (its target name;
a repeated name becomes "name (2)"), each cell that implementation's status.
Requirements one implementation passed and another failed are listed first,
under "Where implementations disagree". Statuses that were not observed
(skipped, not applicable, error, not run, uncovered) are shown as they are,
never as passed. Writes to --report-dir:
  compare.html          self-contained, no external resources
  compare.md            for a CI step summary or a document
  badges/<slug>.json    one per implementation, in the shields.io endpoint
                        format: the verdict and the deciding requirements
                        passed of all ("non-conformant 3 failed, 98/101")
Inputs that ran different suite or profile versions, or different verdict
rules (--strict, --profile-advisory), are compared all the same, with a
warning in both files and on stderr.

compare --diff BEFORE AFTER compares two runs of one implementation (the main
branch and a pull request, say), requirement by requirement and test by test:
new failures (failing now, passing or not exercised before), coverage lost
(observed before, not exercised now), fixes (failing before, passing now) and
other changes. Writes diff.md to --report-dir (for a pull-request comment or
$GITHUB_STEP_SUMMARY) and prints the same on the terminal. Two reports of
different targets (by name) are refused unless --force.

A package that fails verification is named with the check it failed
(PACKAGE_SIGNATURE_INVALID, ...), and nothing is written. The files written
name each input by its path relative to the current folder, or by its last
part: no absolute local path is published.

Options:
${optionsHelp(COMPARE_OPTIONS)}

Exit codes: 0 written (compare; --diff with no new failure and no deciding
requirement no longer exercised), 1 --diff found a new failure (a requirement
failed or warned, or a test failed, that did not before) or a deciding
requirement observed before and not exercised now, 2 usage error or an input
that is not a readable report.json (USAGE_ERROR).
`;

export async function compare(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const { values, positionals } = parseCommand('compare', argv, COMPARE_OPTIONS);
  if (values.help) {
    io.stdout.write(COMPARE_HELP);
    return 0;
  }
  const out = resolve(values['report-dir'] ?? join('reports', 'compare'));
  const kid = values.kid;
  if (kid !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(kid)) throw new HarnessError('USAGE_ERROR', `--kid takes an RFC 7638 thumbprint (43 base64url characters), not ${JSON.stringify(kid)}`, 'see: cpr-conformance compare --help');
  const loadInput = (input: string) => load(input, kid);
  if (values.diff === true) return diffCommand(positionals, out, values.force === true, loadInput, io);
  if (values.force === true) throw new HarnessError('USAGE_ERROR', '--force applies to --diff only', 'see: cpr-conformance compare --help');
  if (positionals.length === 0) throw new HarnessError('USAGE_ERROR', 'compare needs at least one INPUT (a report.json, or the folder holding one)', 'see: cpr-conformance compare --help');
  // Every input is read (and checked) before anything is written.
  const comparison = compareReports(positionals.flatMap(expandInput).map(loadInput));
  const terminal = terminalOf(io);
  for (const warning of comparison.warnings) terminal.error(`cpr-conformance: warning: ${warning}`);
  const written = [write(out, 'compare.html', compareHtml(comparison)), write(out, 'compare.md', compareMarkdown(comparison))];
  for (const i of comparison.implementations) written.push(write(join(out, 'badges'), `${i.slug}.json`, `${JSON.stringify(endpointBadge(i.report), null, 2)}\n`));
  terminal.line(`compared ${comparison.implementations.length} implementation(s):`);
  for (const line of compareText(comparison)) terminal.line(line);
  terminal.line(`written: ${written.join(', ')}`);
  return EXIT.conformant;
}

function diffCommand(positionals: readonly string[], out: string, force: boolean, loadInput: (input: string) => CompareInput, io: CommandIo): number {
  if (positionals.length !== 2) throw new HarnessError('USAGE_ERROR', `compare --diff takes two inputs, BEFORE and AFTER; got ${positionals.length}`, 'see: cpr-conformance compare --help');
  const diff = diffReports(loadInput(positionals[0]!), loadInput(positionals[1]!));
  if (!diff.sameTarget && !force) {
    throw new HarnessError(
      'USAGE_ERROR',
      `compare --diff compares two runs of one implementation, but these are of different targets: "${diff.before.report.run.target.name}" (${positionals[0]}) and "${diff.after.report.run.target.name}" (${positionals[1]})`,
      'to put several implementations side by side, leave out --diff; to diff them anyway, add --force',
    );
  }
  const terminal = terminalOf(io);
  for (const warning of diff.warnings) terminal.error(`cpr-conformance: warning: ${warning}`);
  const file = write(out, 'diff.md', diffMarkdown(diff));
  for (const line of diffText(diff)) terminal.line(line);
  terminal.line(`written: ${file}`);
  return diffFails(diff) ? EXIT.nonConformant : EXIT.conformant;
}

/** Writes one file of the output, the folder made (or refused as a usage error) on first use: a refused input writes nothing. */
function write(dir: string, name: string, text: string): string {
  writableDir(dir, '--report-dir');
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const INPUT_HINT = 'give a report.json written by `cpr-conformance run` (or `report merge`), the folder holding one, or a certification package (.tar.gz) or a folder of them';

/** A folder of certification packages (and no report.json) stands for each package in it, by name. */
function expandInput(input: string): string[] {
  try {
    if (!statSync(input).isDirectory() || existsSync(join(input, REPORT_JSON))) return [input];
  } catch {
    return [input];
  }
  const packages = readdirSync(input).filter((name) => name.endsWith('.tar.gz')).sort();
  return packages.length > 0 ? packages.map((name) => join(input, name)) : [input];
}

/**
 * A report.json, or a folder holding one, read and checked against the report
 * schema; or a certification package (.tar.gz), verified first
 * (verify-package's checks) and compared by the report it holds.
 */
function load(input: string, kid: string | undefined): CompareInput {
  let file = input;
  try {
    if (statSync(input).isDirectory()) file = join(input, REPORT_JSON);
  } catch {
    throw new HarnessError('USAGE_ERROR', `no such file or folder: ${input}`, INPUT_HINT);
  }
  const source = shownPath(input);
  if (file.endsWith('.tar.gz')) {
    try {
      return { source, report: verifyPackage(readFileSync(file), kid).report };
    } catch (error) {
      // Which input failed, and the check it failed: one bad package among several must be findable.
      if (error instanceof HarnessError) throw new HarnessError(error.code, `${input} failed verification: ${error.message}`, error.hint);
      throw error;
    }
  }
  if (kid !== undefined) throw new HarnessError('USAGE_ERROR', `--kid pins the signer of certification packages, and ${input} is a report.json, which is not signed`, 'compare packages only with --kid, or leave --kid out');
  try {
    return { source, report: readReport(file) };
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    // A report of another schema version says so, rather than listing every member that moved.
    const version = schemaVersionOf(file);
    if (version !== undefined && version !== REPORT_SCHEMA_VERSION) {
      throw new HarnessError(
        'USAGE_ERROR',
        `${file} is a report of schema_version ${JSON.stringify(version)}; this cpr-conformance reads schema_version ${REPORT_SCHEMA_VERSION}`,
        'compare reports written by the same version of cpr-conformance: run the older one again',
      );
    }
    throw new HarnessError(error.code, error.message, error.hint === undefined || error.hint.startsWith('see: ') ? INPUT_HINT : error.hint);
  }
}

/** How the files written name an input: relative to the current folder when inside it, else by its last two parts. */
function shownPath(input: string): string {
  const rel = relative(process.cwd(), resolve(input));
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
  return `…/${resolve(input).split(sep).filter(Boolean).slice(-2).join('/')}`;
}

function schemaVersionOf(file: string): unknown {
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>)['schema_version'] : undefined;
  } catch {
    return undefined;
  }
}
