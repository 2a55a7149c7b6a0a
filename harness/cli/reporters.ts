// `--reporter NAME[,NAME]`: which reports run, certify and report merge write.
// The names are the registry's (report/write.ts REPORT_VIEWS) and the terminal's
// closing lines; report.json is written whatever is chosen, since every other
// command (explain, compare, report merge, --baseline, certify) reads it.
import { REPORT_VIEWS, type ViewName } from '../report/write.ts';
import { didYouMean } from '../text.ts';
import { HarnessError } from './errors.ts';

const VIEW_NAMES = Object.keys(REPORT_VIEWS) as ViewName[];

/** Every name --reporter takes. */
export const REPORTER_NAMES: readonly string[] = ['terminal', 'json', ...VIEW_NAMES];

/** What a command writes: the terminal's closing lines or not, and which views beside report.json. */
export interface Reporters {
  readonly terminal: boolean;
  readonly views: readonly ViewName[];
}

export const REPORTER_FLAG = { reporter: { type: 'string', multiple: true } } as const;

/** The --reporter lines of a command's --help, from the registry. */
export const REPORTER_HELP = helpLines(
  '  --reporter NAME[,NAME]',
  `write only these reports; repeatable. Default all: terminal (the closing lines: verdict, failures, exit reason), json (report.json), ${VIEW_NAMES.map((name) => `${name} (${reportFile(name)})`).join(', ')}. report.json is written whatever is chosen: every other command (explain, compare, report merge, --baseline) reads it`,
);

/** A flag and its description as --help shows them: the description from column 25, lines of at most 80. */
function helpLines(flag: string, text: string): string {
  const lines = [flag];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1]!;
    if (last.length < 24) lines[lines.length - 1] = `${last.padEnd(23)} ${word}`;
    else if (last.length + 1 + word.length <= 80) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`${' '.repeat(23)} ${word}`);
  }
  return lines.join('\n');
}

/** The reporters the --reporter values name; every one when none is given. */
export function reportersOf(command: string, given: readonly string[] | undefined): Reporters {
  if (given === undefined) return { terminal: true, views: VIEW_NAMES };
  const names = given.flatMap((value) => value.split(',')).map((name) => name.trim());
  const hint = `the reporters are ${REPORTER_NAMES.join(', ')}; see: cpr-conformance ${command} --help`;
  if (names.every((name) => name === '')) throw new HarnessError('USAGE_ERROR', '--reporter takes one name or more, comma-separated', hint);
  for (const name of names) {
    if (!REPORTER_NAMES.includes(name)) throw new HarnessError('USAGE_ERROR', `--reporter: no reporter is called ${JSON.stringify(name)}${didYouMean(name, REPORTER_NAMES, (w) => `"${w}"`)}`, hint);
  }
  return { terminal: names.includes('terminal'), views: VIEW_NAMES.filter((name) => names.includes(name)) };
}

/** The files a report folder holds with these views: report.json first. */
export function reportFiles(views: readonly ViewName[]): string[] {
  return ['report.json', ...views.map(reportFile)];
}

function reportFile(name: ViewName): string {
  const view = REPORT_VIEWS[name];
  return view.kind === 'folder' ? `${view.file}/` : view.file;
}
