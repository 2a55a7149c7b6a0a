// `cpr-conformance selftest`: proves the suite catches faulty implementations.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MUTANTS } from '../../reference/mutants.ts';
import { matrixHtml, matrixText } from '../selftest/render.ts';
import { killersOf, writeKillers } from '../selftest/killers.ts';
import { selftest, selftestPlan, selftestSelection, workerMain } from '../selftest/selftest.ts';
import { loadTimings } from '../runner/timings.ts';
import { selftestPassed, type SwitchReach } from '../selftest/matrix.ts';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import { terminalOf } from '../runner/terminal.ts';
import { integerOption, optionsHelp, parse, type Declared } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { processIo, type CommandIo } from '../io.ts';
import { fileInExistingFolder, writableDir } from './target-options.ts';

/** selftest's options: they parse the command line and write its --help. */
export const SELFTEST_OPTIONS = {
  mutant: { type: 'string', multiple: true, value: 'NAME', help: "only this mutant. A fuzzer mutant (serve --list-mutants: catcher fuzzer) is run too, as information: its row says which tests failed against it, and it counts neither as killed nor as survived" },
  targeted: { type: 'boolean', help: "each mutant runs only the tests that can judge a requirement it declares, its scenarios first and its properties only when no scenario killed it (npm test's quick form; the reference still runs the whole suite). Without it every mutant runs every test that reaches its switch (see above), and a kill by an undeclared requirement is flagged: the full matrix. Either way a property failing against a mutant is not shrunk" },
  workers: { type: 'string', value: 'N', help: 'worker processes (default: the number of cores)' },
  'report-dir': { type: 'string', value: 'DIR', help: 'where to write the matrix (default reports/selftest-<time>)' },
  'write-killers': { type: 'string', value: 'FILE', help: "also write, for each mutant, the tests that killed it, cheapest first, for the targeted selftest to run before its other tests (the full matrix of every mutant only; the committed suites/killers.json is written so). An order, never a verdict" },
  worker: { type: 'string', value: 'NAMES', help: 'internal: a worker process runs those mutants (selftest starts them itself)' },
  reach: { type: 'string', value: 'FILE', help: "internal: a full matrix's worker reads there which tests reach each switch" },
} as const satisfies Readonly<Record<string, Declared>>;

const SELFTEST_HELP = `Usage: cpr-conformance selftest [options]

Runs the whole suite (scenarios and a fixed-seed property budget) against the
reference, which must be conformant, and against every suite mutant: the
reference with one fault switched on (see serve --list-mutants). Each must be
killed, by a check of a requirement it declares. The reference runs one test
at a time, noting which mutants' switches each test consults; each mutant then
runs the tests that reach its switch and those of the requirements it
declares (a test that never asks for a fault's switch runs the same with it
on), every test when its switch is asked while the target opens. Prints the
kill matrix (mutant x the requirement IDs whose checks caught it), the line
"selftest: K/N mutants killed, reference conformant", and writes the matrix as
kill-matrix.json and kill-matrix.html.

The fuzzer mutants (catcher fuzzer in serve --list-mutants) are faults nobody
placed a check for: the suite is not required to kill them, the fuzzer of
their role is (cpr-conformance fuzz --role ROLE against serve --mutant NAME).
selftest counts them neither killed nor survived and says how many it left to
the fuzzer; named with --mutant, one is run for information.

A suite mutant whose fault the suite reaches only with what this machine lacks
(an IPv6 loopback, ::1, for app-endpoint-ipv6-refused) is left out and named,
counted neither killed nor survived; with CI=true it runs and must be killed.

Options:
${optionsHelp(SELFTEST_OPTIONS)}

Exit codes: 0 every suite mutant run killed by a declared check and the
reference conformant (fuzzer mutants run for information do not count); 1
otherwise; 2 usage or harness error.
`;

export async function selftestCommand(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const values = parse('selftest', argv, SELFTEST_OPTIONS);
  if (values.help) {
    io.stdout.write(SELFTEST_HELP);
    return 0;
  }
  if (values.worker !== undefined) {
    if ((values.reach === undefined) === (values.targeted !== true)) throw new HarnessError('USAGE_ERROR', 'a selftest worker takes --targeted or --reach FILE', 'selftest starts its workers itself: run cpr-conformance selftest');
    const form = values.reach !== undefined ? { reach: JSON.parse(readFileSync(values.reach, 'utf8')) as SwitchReach } : ({ targeted: true } as const);
    await workerMain(values.worker.split(','), form, io.stdout);
    return 0;
  }
  const names = values.mutant ?? [];
  const writeKillersTo = values['write-killers'];
  if (writeKillersTo !== undefined && (values.targeted === true || names.length > 0)) {
    throw new HarnessError('USAGE_ERROR', '--write-killers records the full matrix of every mutant: not with --targeted or --mutant', 'run: cpr-conformance selftest --write-killers suites/killers.json');
  }
  fileInExistingFolder(writeKillersTo, '--write-killers', 'suites/killers.json');
  const unknown = names.filter((n) => !MUTANTS.some((m) => m.name === n));
  if (unknown.length > 0) throw new HarnessError('USAGE_ERROR', `unknown mutant(s): ${unknown.join(', ')}`, 'list them with: cpr-conformance serve --list-mutants');
  // Checked before the mutants run: a folder that cannot be written is said now, not after minutes of work.
  const dir = writableDir(values['report-dir'] ?? join(PROJECT_ROOT, 'reports', `selftest-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`), '--report-dir');
  const terminal = terminalOf(io);
  const { chosen } = selftestSelection(names);
  const fuzzerNamed = chosen.filter((m) => m.catcher === 'fuzzer').length;
  const information = fuzzerNamed > 0 ? `, and ${fuzzerNamed} fuzzer mutant(s) for information only` : '';
  terminal.line(`selftest: the reference and ${chosen.length - fuzzerNamed} mutant(s)${values.targeted ? ', each against the tests of the requirements it declares' : ''}${information}`);
  const matrix = await selftest({
    env: io.env,
    notice: (text) => terminal.error(text),
    mutants: names,
    targeted: values.targeted === true,
    ...(values.workers !== undefined ? { workers: integerOption('selftest', 'workers', values.workers, 1, 64)! } : {}),
    onRow: (row) => terminal.line(`  ${row.catcher === 'fuzzer' ? 'info   ' : row.killed ? (row.flagged ? 'killed?' : 'killed ') : 'SURVIVED'} ${row.name}`),
  });
  writeFileSync(join(dir, 'kill-matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(join(dir, 'kill-matrix.html'), matrixHtml(matrix));
  if (writeKillersTo !== undefined) {
    writeKillers(writeKillersTo, killersOf(matrix, selftestPlan, loadTimings().ms), ['cpr-conformance', 'selftest', '--write-killers', relative(PROJECT_ROOT, resolve(writeKillersTo)) || writeKillersTo]);
    terminal.line(`killers: ${writeKillersTo}`);
  }
  io.stdout.write(`\n${matrixText(matrix)}`);
  terminal.line(`matrix: ${join(dir, 'kill-matrix.json')}, ${join(dir, 'kill-matrix.html')}`);
  return selftestPassed(matrix) ? EXIT.conformant : EXIT.nonConformant;
}
