// `--reporter NAME[,NAME]`: which reports run, certify and report merge write.
// The names are the registry's (report/write.ts REPORT_VIEWS) and the terminal's
// closing lines; report.json is written whatever is chosen, since every other
// command (explain, compare, report merge, --baseline, certify) reads it.
import { REPORT_VIEWS, type ViewName } from '../report/write.ts';
import { didYouMean } from '../text.ts';
import { HarnessError } from './errors.ts';
import type { Declared } from './args.ts';

const VIEW_NAMES = Object.keys(REPORT_VIEWS) as ViewName[];

/** Every name --reporter takes. */
const REPORTER_NAMES: readonly string[] = ['terminal', 'json', ...VIEW_NAMES];

/** What a command writes: the terminal's closing lines or not, and which views beside report.json. */
interface Reporters {
  readonly terminal: boolean;
  readonly views: readonly ViewName[];
}

export const REPORTER_FLAG = {
  reporter: {
    type: 'string',
    multiple: true,
    value: 'NAME[,NAME]',
    help: `write only these reports. Default all: terminal (the closing lines: verdict, failures, exit reason), json (report.json), ${VIEW_NAMES.map((name) => `${name} (${reportFile(name)})`).join(', ')}. report.json is written whatever is chosen: every other command (explain, compare, report merge, --baseline) reads it`,
  },
} as const satisfies Readonly<Record<string, Declared>>;

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
