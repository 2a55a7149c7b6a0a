// What every comparison reads of one report: where it came from, a requirement's
// status in it (or its absence), the rules that decided its verdict.
import type { Report, RequirementResult, RequirementStatus } from '../model.ts';

/** A report and where it was read from (a path, as given on the command line). */
export interface CompareInput {
  readonly source: string;
  readonly report: Report;
}

/** A requirement's status in one report, or `absent` when that report has no such requirement (another suite version). */
export type Cell = RequirementStatus | 'absent';

export const OBSERVED_FAILURE: readonly Cell[] = ['failed', 'warning'];

export function cellOf(result: RequirementResult | undefined): Cell {
  return result?.status ?? 'absent';
}

/** Which failures decide a report's verdict: "--strict, PROFILE deciding". */
export function verdictRules(report: Report): string {
  return [report.run.strict ? '--strict' : 'SHOULD failures as warnings', report.run.profile_advisory ? '--profile-advisory' : 'PROFILE deciding'].join(', ');
}

export function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
