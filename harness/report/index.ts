// The public face of harness/report: the canonical result model, the pure
// aggregation functions, and report.json with its views (STYLE.md §8).
export type {
  BaselineDiff,
  CheckResult,
  Coverage,
  Exchange,
  HarnessIssue,
  Outcome,
  Report,
  RequirementResult,
  RequirementStatus,
  RunInfo,
  Summary,
  TargetDescription,
  TestResult,
  Verdict,
} from './model.ts';
export { REPORT_SCHEMA_VERSION, UNTESTED } from './model.ts';
export type { AggregateOptions, Assessment, ExitCode } from './aggregate.ts';
export { assess, baselineDiff, coverageOf, decidingLevel, EXIT_CODES, exitCodeOf, exitOf, observedFailure, requirementResults, summarize, verdictOf, warningJudge } from './aggregate.ts';
export { REPORT_JSON, readReport, reportJson, reportProblems, writeJsonReport } from './json.ts';
export { junitXml } from './junit.ts';
export { summaryMarkdown } from './markdown.ts';
export { reportHtml } from './html.ts';
export type { MergeOptions } from './merge.ts';
export { mergeReports } from './merge.ts';
export type { WrittenReports } from './write.ts';
export { writeAllReports } from './write.ts';
