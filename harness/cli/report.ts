// `cpr-conformance report merge DIR...`: joins sharded runs into one report.
import { join, resolve } from 'node:path';
import { loadRegistry } from '../../profile/registry.ts';
import { exitCodeOf, mergeReports, readReport, writeAllReports } from '../report/index.ts';
import { committedCatalogue } from '../runner/catalogue.ts';
import { terminalOf } from '../runner/terminal.ts';
import { didYouMean } from '../text.ts';
import { optionsHelp, parse, parseCommand, type Declared } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { printSummary } from './summary.ts';
import { REPORTER_FLAG, reportersOf, reportFiles } from './reporters.ts';
import { viewsNamed } from '../report/write.ts';
import { processIo, type CommandIo } from '../io.ts';

/** report merge's options: they parse the command line and write its --help. */
export const REPORT_OPTIONS = {
  'report-dir': { type: 'string', value: 'DIR', help: 'where to write the merged report (default reports/merged)' },
  strict: { type: 'boolean', help: 'as for run' },
  'profile-advisory': { type: 'boolean', help: 'as for run' },
  'allow-partial': { type: 'boolean', help: 'as for run: an incomplete verdict exits 0' },
  ...REPORTER_FLAG,
} as const satisfies Readonly<Record<string, Declared>>;

const REPORT_HELP = `Usage: cpr-conformance report merge DIR... [options]

Joins the report.json of sharded runs (run --shard i/n) into one report and
writes every form (report.json, junit.xml, summary.md, report.html,
allure-results/) to --report-dir. The verdict is recomputed over all shards;
a missing shard makes it an error. Exit codes as for run.

Options:
${optionsHelp(REPORT_OPTIONS)}
`;

export async function report(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === undefined) {
    io.stdout.write(REPORT_HELP);
    return sub === undefined ? EXIT.error : 0;
  }
  if (sub.startsWith('-')) {
    // An option before the command: an unknown one is refused as every command refuses one, with a guess.
    parseCommand('report', argv, REPORT_OPTIONS);
    throw new HarnessError('USAGE_ERROR', `report takes its command first, then ${sub}`, 'e.g. cpr-conformance report merge DIR... --report-dir out; see: cpr-conformance report --help');
  }
  if (sub !== 'merge') throw new HarnessError('USAGE_ERROR', `unknown report command "${sub}"${didYouMean(sub ?? '', ['merge'], (w) => `"${w}"`)}`, 'see: cpr-conformance report --help');
  const dirs = rest.filter((a, i) => !a.startsWith('-') && rest[i - 1] !== '--report-dir' && rest[i - 1] !== '--reporter');
  const values = parse('report', rest.filter((a) => !dirs.includes(a)), REPORT_OPTIONS);
  if (values.help) {
    io.stdout.write(REPORT_HELP);
    return 0;
  }
  const reporters = reportersOf('report', values.reporter);
  if (dirs.length === 0) throw new HarnessError('USAGE_ERROR', 'report merge needs at least one report folder', 'see: cpr-conformance report --help');
  const reports = dirs.map((d) => readReport(join(d, 'report.json')));
  const merged = mergeReports(reports, loadRegistry(), {
    ...(values.strict === true ? { strict: true } : {}),
    ...(values['profile-advisory'] === true ? { profileAdvisory: true } : {}),
    catalogue: committedCatalogue(),
    sources: dirs,
  });
  const out = resolve(values['report-dir'] ?? join('reports', 'merged'));
  const { report } = writeAllReports(out, merged, viewsNamed(reporters.views));
  if (reporters.terminal) printSummary(report, out, terminalOf(io), reportFiles(reporters.views));
  return exitCodeOf(report, values['allow-partial'] === true || report.run.allow_partial);
}
