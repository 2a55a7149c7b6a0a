// Writes report.json and every view of it into a report folder. A view that
// throws is a defect of the harness, never of the target: the report records it
// (HARNESS_INTERNAL, with its stack), its verdict becomes `error` unless a
// failure was observed, and every other view is still written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAllureResults } from './allure.ts';
import { writeJsonReport } from './json.ts';
import { junitXml } from './junit.ts';
import { summaryMarkdown } from './markdown.ts';
import { reportHtml } from './html.ts';
import type { Report } from './model.ts';

export interface WrittenReports {
  /** The report as written: the one given, or with the harness faults of its views recorded. */
  readonly report: Report;
  readonly json: string;
  /** A view's path; absent when rendering it failed (report.errors says why). */
  readonly junit?: string;
  readonly markdown?: string;
  readonly html?: string;
  readonly allure?: string;
}

/** The text views, by file name. */
export const TEXT_VIEWS = {
  'junit.xml': junitXml,
  'summary.md': summaryMarkdown,
  'report.html': reportHtml,
} as const satisfies Readonly<Record<string, (report: Report) => string>>;

type TextViews = Readonly<Record<keyof typeof TEXT_VIEWS, (report: Report) => string>>;
type ViewName = keyof typeof TEXT_VIEWS | 'allure-results';

interface Rendered {
  readonly texts: Partial<Record<keyof typeof TEXT_VIEWS, string>>;
  readonly allure?: string;
  readonly broken: readonly { readonly view: ViewName; readonly error: unknown }[];
}

/**
 * Writes report.json (the source) and its views junit.xml, summary.md,
 * report.html and allure-results/ into DIR. `textViews` draws the text views
 * (TEXT_VIEWS unless given: the tests give a view that throws).
 */
export function writeAllReports(dir: string, given: Report, textViews: TextViews = TEXT_VIEWS): WrittenReports {
  mkdirSync(dir, { recursive: true });
  const first = render(dir, given, textViews);
  const report = first.broken.length === 0 ? given : withViewFaults(given, first.broken);
  // The views show the verdict: when it changed, they are drawn again from the report as written.
  const views = report === given ? first : render(dir, report, textViews);
  const json = writeJsonReport(dir, report);
  const paths: Partial<Record<keyof typeof TEXT_VIEWS, string>> = {};
  for (const [file, text] of Object.entries(views.texts) as [keyof typeof TEXT_VIEWS, string][]) {
    paths[file] = join(dir, file);
    writeFileSync(paths[file], text);
  }
  return {
    report,
    json,
    ...(paths['junit.xml'] !== undefined ? { junit: paths['junit.xml'] } : {}),
    ...(paths['summary.md'] !== undefined ? { markdown: paths['summary.md'] } : {}),
    ...(paths['report.html'] !== undefined ? { html: paths['report.html'] } : {}),
    ...(views.allure !== undefined ? { allure: views.allure } : {}),
  };
}

function render(dir: string, report: Report, textViews: TextViews): Rendered {
  const texts: Rendered['texts'] = {};
  const broken: { view: ViewName; error: unknown }[] = [];
  for (const [file, view] of Object.entries(textViews) as [keyof typeof TEXT_VIEWS, (r: Report) => string][]) {
    try {
      texts[file] = view(report);
    } catch (error) {
      broken.push({ view: file, error });
    }
  }
  let allure: string | undefined;
  try {
    allure = writeAllureResults(dir, report);
  } catch (error) {
    broken.push({ view: 'allure-results', error });
  }
  return { texts, ...(allure !== undefined ? { allure } : {}), broken };
}

/** The report with each broken view recorded as a harness fault; what was observed stands, anything less is no verdict. */
function withViewFaults(report: Report, broken: Rendered['broken']): Report {
  const errors = [
    ...report.errors,
    ...broken.map(({ view, error }) => ({ code: 'HARNESS_INTERNAL' as const, message: `the ${view} view could not be written: harness failure: ${(error as Error)?.stack ?? String(error)}` })),
  ];
  return { ...report, verdict: report.verdict === 'non-conformant' ? report.verdict : 'error', errors };
}
