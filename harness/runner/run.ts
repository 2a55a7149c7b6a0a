// A conformance run: load and validate every scenario file, select, resolve the
// target (the embedded reference when none is given), check it answers, drive
// the scenarios through vitest, then aggregate and write every report form.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { startVitest, type Vitest } from 'vitest/node';
import AllureReporter from 'allure-vitest/reporter';
import { PROFILE_ID } from '../../profile/signing.ts';
import { loadRegistry } from '../../profile/registry.ts';
import { HarnessError } from '../cli/errors.ts';
import { baselineDiff, requirementResults, summarize, verdictOf, type Report, type TestResult, writeAllReports } from '../report/index.ts';
import { REPORT_SCHEMA_VERSION, type HarnessIssue } from '../report/model.ts';
import { loadSuiteFile, loadSuites, PROJECT_ROOT, suiteFiles } from '../scenarios/load.ts';
import type { Scenario } from '../scenarios/types.ts';
import { resolveTarget, type ResolvedTarget, type TargetChoice } from './resolve-target.ts';
import { CollectingReporter } from './reporter.ts';
import { scenarioPlugin } from './plugin.ts';
import type { RunProvided } from './provided.ts';
import { selectProperties, selectScenarios, type Selection } from './select.ts';
import { PROPERTIES } from '../properties/catalogue.ts';

/** The vitest module that registers the selected properties. */
const PROPERTIES_MODULE = fileURLToPath(new URL('./properties.vitest.ts', import.meta.url));
import type { Terminal } from './terminal.ts';

export const SUITE_VERSION = '0.1.0';
export const SPEC_VERSIONS = { cpr: 'CPR-1.0 (1.0.0 Draft)', cpp: 'CPP-001 (1.0.0 Draft)' } as const;

export interface RunOptions extends Selection {
  readonly target: TargetChoice;
  readonly strict: boolean;
  readonly profileAdvisory: boolean;
  readonly seed?: number;
  readonly shard?: string;
  readonly reportDir?: string;
  /** Extra scenario files to run besides suites/ (e.g. a fuzzer's regression scenario). */
  readonly scenarioFiles: readonly string[];
  readonly baseline?: { readonly file: string; readonly knownFailures: readonly string[] };
  /** How this run was started, for the report and the rerun commands. */
  readonly command: readonly string[];
  readonly rerunBase: string;
  /** Cases per property; each property's default when absent. */
  readonly propertyRuns?: number;
  /** Run the scenarios only. */
  readonly noProperties?: boolean;
}

export interface RunOutcome {
  readonly report: Report;
  readonly dir: string;
  readonly exitCode: 0 | 1 | 2;
}

export async function conformanceRun(options: RunOptions, terminal: Terminal): Promise<RunOutcome> {
  const started = new Date();
  const registry = loadRegistry();
  // Every file is validated, selected or not: a broken scenario file is never silently skipped.
  const suites = loadSuites([...suiteFiles(), ...options.scenarioFiles.map((f) => resolve(f))]);
  const scenarios = selectScenarios(suites, options);
  const properties = options.noProperties ? [] : selectProperties(PROPERTIES, options);
  const selected = [...scenarios.map((s) => s.id), ...properties.map((p) => p.id)];
  if (selected.length === 0) throw new HarnessError('NOTHING_SELECTED', 'no scenario or property matches the selection', 'see what exists with: cpr-conformance list');
  const files = [...new Set(scenarios.map((s) => resolve(PROJECT_ROOT, s.file))), ...(properties.length > 0 ? [PROPERTIES_MODULE] : [])];
  const seed = options.seed ?? randomBytes(4).readUInt32BE(0);
  const dir = resolve(options.reportDir ?? join(PROJECT_ROOT, 'reports', runId(started)));
  mkdirSync(dir, { recursive: true });

  const target = await resolveTarget(options.target, terminal);
  const issues: HarnessIssue[] = [];
  let results: TestResult[] = [];
  let interrupted = false;
  try {
    terminal.line(
      `cpr-conformance ${SUITE_VERSION} (${PROFILE_ID}) — ${scenarios.length} scenario(s) and ${properties.length} propert${properties.length === 1 ? 'y' : 'ies'} against ${target.description.name}${options.shard ? `, shard ${options.shard}` : ''}`,
    );
    const collector = new CollectingReporter(terminal, selected.length);
    const provided: RunProvided = {
      target: target.config,
      selected,
      rerunBase: options.rerunBase,
      seed,
      ...(options.propertyRuns !== undefined ? { propertyRuns: options.propertyRuns } : {}),
    };
    let vitest: Vitest | undefined;
    const onInterrupt = () => {
      interrupted = true;
      void vitest?.cancelCurrentRun('keyboard-input');
    };
    process.once('SIGINT', onInterrupt);
    vitest = await startVitest(
      'test',
      files,
      {
        watch: false,
        config: false,
        root: PROJECT_ROOT,
        include: ['suites/**/*.yaml', PROPERTIES_MODULE, ...options.scenarioFiles.map((f) => resolve(f))],
        dir: PROJECT_ROOT,
        reporters: [collector, new AllureReporter({ resultsDir: join(dir, 'allure-results') })],
        provide: { cprRun: provided },
        pool: 'threads',
        maxWorkers: 1,
        fileParallelism: false,
        isolate: false,
        testTimeout: 120_000,
        hookTimeout: 30_000,
        passWithNoTests: true,
        ...(options.shard ? { shard: options.shard } : {}),
      },
      { plugins: [scenarioPlugin()], logLevel: 'silent' },
    );
    await vitest.close();
    process.off('SIGINT', onInterrupt);
    results = collector.results;
    issues.push(...collector.issues);
  } finally {
    await target.close();
  }

  const aggregate = { strict: options.strict, profileAdvisory: options.profileAdvisory };
  const requirements = requirementResults(registry, results, aggregate);
  const diff = options.baseline ? baselineDiff(results, options.baseline.knownFailures) : undefined;
  if (interrupted) issues.push({ code: 'INTERRUPTED', message: 'the run was interrupted; results are partial' });
  const report: Report = {
    schema_version: REPORT_SCHEMA_VERSION,
    verdict: verdictOf(requirements, results, issues.length, diff),
    run: {
      suite_version: SUITE_VERSION,
      profile_version: PROFILE_ID,
      spec_versions: SPEC_VERSIONS,
      target: target.description,
      seed,
      started_at: started.toISOString(),
      duration_ms: Date.now() - started.getTime(),
      node_version: process.version,
      strict: options.strict,
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.baseline ? { baseline: options.baseline.file } : {}),
      command: options.command,
      incomplete: interrupted,
    },
    summary: summarize(results, requirements),
    requirements,
    tests: results,
    ...(diff ? { baseline_diff: diff } : {}),
    errors: issues,
  };
  writeAllReports(dir, report);
  const exitCode = report.verdict === 'conformant' ? 0 : report.verdict === 'non-conformant' ? 1 : 2;
  return { report, dir, exitCode };
}

function runId(at: Date): string {
  return `${at.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}-${randomBytes(2).toString('hex')}`;
}

export type { Scenario, ResolvedTarget };
export { loadSuiteFile };
