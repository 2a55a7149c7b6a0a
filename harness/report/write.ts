// Writes report.json and the views of it (all, or those --reporter names) into
// a report folder. A view that throws is a defect of the harness, never of the
// target: the report records it (HARNESS_INTERNAL, with its stack), its verdict
// becomes `error` unless a failure was observed, and every other view is still
// written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAllureResults } from './allure.ts';
import { writeJsonReport } from './json.ts';
import { junitXml } from './junit.ts';
import { summaryMarkdown } from './markdown.ts';
import { reportHtml } from './html.ts';
import type { Report } from './model.ts';

/**
 * A view of report.json written into the report folder: a text file rendered
 * from the report, or a folder the view writes itself (Allure's results).
 */
type ReportView =
  | { readonly kind: 'text'; readonly file: string; readonly render: (report: Report) => string }
  | { readonly kind: 'folder'; readonly file: string; readonly write: (dir: string, report: Report) => string };

/** The views written beside report.json, by the name `--reporter` gives them. */
export const REPORT_VIEWS = {
  junit: { kind: 'text', file: 'junit.xml', render: junitXml },
  markdown: { kind: 'text', file: 'summary.md', render: summaryMarkdown },
  html: { kind: 'text', file: 'report.html', render: reportHtml },
  allure: { kind: 'folder', file: 'allure-results', write: writeAllureResults },
} as const satisfies Readonly<Record<string, ReportView>>;

export type ViewName = keyof typeof REPORT_VIEWS;
type Views = Partial<Readonly<Record<ViewName, ReportView>>>;

/** The views `names` picks, in the registry's order. */
export function viewsNamed(names: readonly ViewName[]): Views {
  return Object.fromEntries(Object.entries(REPORT_VIEWS).filter(([name]) => names.includes(name as ViewName)));
}

/** report.json's path, and each view's that was written (absent when not chosen, or when rendering it failed: report.errors says why). */
export type WrittenReports = {
  /** The report as written: the one given, or with the harness faults of its views recorded. */
  readonly report: Report;
  readonly json: string;
} & Partial<Readonly<Record<ViewName, string>>>;

interface Rendered {
  readonly texts: Partial<Record<ViewName, string>>;
  readonly folders: Partial<Record<ViewName, string>>;
  readonly broken: readonly { readonly view: string; readonly error: unknown }[];
}

/**
 * Writes report.json (the source, always: every other command reads it) and
 * the chosen views into DIR: every view of REPORT_VIEWS unless `views` names
 * fewer (the tests give a view that throws).
 */
export function writeAllReports(dir: string, given: Report, views: Views = REPORT_VIEWS): WrittenReports {
  mkdirSync(dir, { recursive: true });
  const first = render(dir, given, views);
  const report = first.broken.length === 0 ? given : withViewFaults(given, first.broken);
  // The views show the verdict: when it changed, they are drawn again from the report as written.
  const drawn = report === given ? first : render(dir, report, views);
  const json = writeJsonReport(dir, report);
  const paths: Partial<Record<ViewName, string>> = {};
  for (const name of Object.keys(views) as ViewName[]) {
    const text = drawn.texts[name];
    if (text !== undefined) {
      paths[name] = join(dir, REPORT_VIEWS[name].file);
      writeFileSync(paths[name], text);
    } else if (drawn.folders[name] !== undefined) {
      paths[name] = drawn.folders[name];
    }
  }
  return { report, json, ...paths };
}

function render(dir: string, report: Report, views: Views): Rendered {
  const texts: Rendered['texts'] = {};
  const folders: Rendered['folders'] = {};
  const broken: { view: string; error: unknown }[] = [];
  for (const [name, view] of Object.entries(views) as [ViewName, ReportView][]) {
    try {
      if (view.kind === 'text') texts[name] = view.render(report);
      else folders[name] = view.write(dir, report);
    } catch (error) {
      broken.push({ view: view.file, error });
    }
  }
  return { texts, folders, broken };
}

/** The report with each broken view recorded as a harness fault; what was observed stands, anything less is no verdict. */
function withViewFaults(report: Report, broken: Rendered['broken']): Report {
  const errors = [
    ...report.errors,
    ...broken.map(({ view, error }) => ({ code: 'HARNESS_INTERNAL' as const, message: `the ${view} view could not be written: harness failure: ${(error as Error)?.stack ?? String(error)}` })),
  ];
  return { ...report, verdict: report.verdict === 'non-conformant' ? report.verdict : 'error', errors };
}
