// `report merge`: joins the reports of a sharded run (`--shard i/n` on several
// machines) into the report one unsharded run would have written.
import { ROLES, type Requirement, type Role } from '../../profile/registry.ts';
import { HarnessError } from '../errors.ts';
import { assess, baselineDiff } from './aggregate.ts';
import { REPORT_SCHEMA_VERSION } from './model.ts';
import type { BaselineDiff, HarnessIssue, Report, RunInfo, TestResult } from './model.ts';

export interface MergeOptions {
  /** Overrides the inputs' `run.strict` (which must otherwise agree). */
  readonly strict?: boolean;
  /** Overrides the inputs' `run.profile_advisory` (which must otherwise agree). */
  readonly profileAdvisory?: boolean;
  /** Every test of the suite by requirement (AggregateOptions.catalogue), so unselected requirements read `not-run`. */
  readonly catalogue?: ReadonlyMap<string, readonly string[]>;
  /** Known failures (test IDs): the baseline diff is recomputed over the union. Without it, the inputs' diffs are joined. */
  readonly knownFailures?: readonly string[];
  /** A name per input (its file), same order, for error messages. Default: the shard, or "report #i". */
  readonly sources?: readonly string[];
}

/** A merge problem is the user's input: exit 2 with what to fix. */
function mergeError(message: string): HarnessError {
  return new HarnessError('USAGE_ERROR', `cannot merge reports: ${message}`, 'pass the report.json of each shard of one run, once each');
}

export function mergeReports(reports: readonly Report[], registry: readonly Requirement[], options: MergeOptions = {}): Report {
  const first = reports[0];
  if (first === undefined) throw mergeError('no reports given');
  const name = (i: number) => options.sources?.[i] ?? (reports[i]?.run.shard === undefined ? `report #${i + 1}` : `shard ${reports[i]?.run.shard}`);

  const shared: [string, (r: Report) => string][] = [
    ['seed', (r) => String(r.run.seed)],
    ['suite_version', (r) => r.run.suite_version],
    ['profile_version', (r) => r.run.profile_version],
    ['repeat', (r) => String(r.run.repeat ?? 1)],
  ];
  if (options.strict === undefined) shared.push(['strict', (r) => String(r.run.strict)]);
  if (options.profileAdvisory === undefined) shared.push(['profile_advisory', (r) => String(r.run.profile_advisory)]);
  for (const [field, value] of shared) {
    reports.forEach((r, i) => {
      if (value(r) !== value(first)) throw mergeError(`${field} differs: ${value(first)} in ${name(0)}, ${value(r)} in ${name(i)} (shards of one run share it)`);
    });
  }

  const owner = new Map<string, number>();
  const tests: TestResult[] = [];
  reports.forEach((r, i) => {
    for (const test of r.tests) {
      const seen = owner.get(test.id);
      if (seen !== undefined) throw mergeError(`test ${test.id} appears in both ${name(seen)} and ${name(i)}`);
      owner.set(test.id, i);
      tests.push(test);
    }
  });
  // One order whatever the order of the inputs: by suite file, then ID.
  tests.sort((a, b) => compare(a.file, b.file) || compare(a.id, b.id));

  const errors: HarnessIssue[] = reports.flatMap((r) => r.errors.map((e) => (r.run.shard === undefined ? e : { code: e.code, message: `[shard ${r.run.shard}] ${e.message}` })));
  const missing = missingShards(reports, name);
  if (missing !== undefined) errors.push({ code: 'REPORT_SHARDS_MISSING', message: missing });

  const strict = options.strict ?? first.run.strict;
  const profileAdvisory = options.profileAdvisory ?? first.run.profile_advisory;
  const known = knownFailures(reports, options.knownFailures, name);
  const assessed = assess(registry, tests, errors, {
    strict,
    profileAdvisory,
    scopeRoles: mergedScope(reports),
    ...(options.catalogue !== undefined ? { catalogue: options.catalogue } : {}),
    ...(known !== undefined ? { knownFailures: known } : {}),
  });
  // An input that ended in error taints the merge, unless a failure was observed anyway.
  const inputError = reports.some((r) => r.verdict === 'error');
  const verdict = inputError && assessed.verdict !== 'non-conformant' ? 'error' : assessed.verdict;
  // Without a list of known failures, the shards' diffs are joined (see mergedBaseline).
  const baseline = options.knownFailures === undefined ? mergedBaseline(reports, name, assessed.baseline_diff) : assessed.baseline_diff;
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    verdict,
    run: mergedRun(reports, strict, profileAdvisory, missing !== undefined),
    summary: assessed.summary,
    coverage: assessed.coverage,
    requirements: assessed.requirements,
    tests: assessed.tests,
    ...(baseline === undefined ? {} : { baseline_diff: baseline }),
    errors,
  };
}

/** The shards' target roles (one target), narrowed by their --role selection. */
function mergedScope(reports: readonly Report[]): Role[] {
  const has = new Set(reports.flatMap((r) => Object.keys(r.run.target.roles)));
  const selected = new Set(reports.flatMap((r) => r.run.selection.roles));
  return ROLES.filter((role) => has.has(role) && (selected.size === 0 || selected.has(role)));
}

/** The known failures behind the inputs' baselines: a listed test stays marked as known in the merge. */
function knownFailures(reports: readonly Report[], given: readonly string[] | undefined, name: (i: number) => string): readonly string[] | undefined {
  if (given !== undefined) return given;
  if (reports.every((r) => r.baseline_diff === undefined)) return undefined;
  const without = reports.findIndex((r) => r.baseline_diff === undefined);
  if (without !== -1) throw mergeError(`${name(without)} was run without --baseline and others with it`);
  return reports.flatMap((r) => r.tests.filter((t) => t.known_failure).map((t) => t.id));
}

function mergedRun(reports: readonly Report[], strict: boolean, profileAdvisory: boolean, shardsMissing: boolean): RunInfo {
  const [first] = reports as [Report, ...Report[]];
  const starts = reports.map((r) => Date.parse(r.run.started_at));
  const start = Math.min(...starts);
  // Duration is the wall-clock span, earliest start to latest end: the longest
  // shard when shards run in parallel (the usual CI matrix), their sum when run
  // one after another; summing parallel shards would overstate the run.
  const end = Math.max(...reports.map((r, i) => (starts[i] ?? start) + r.run.duration_ms));
  const earliest = reports[starts.indexOf(start)] ?? first;
  const { shard: _dropped, ...rest } = first.run;
  return {
    ...rest,
    started_at: earliest.run.started_at,
    duration_ms: end - start,
    node_version: [...new Set(reports.map((r) => r.run.node_version))].join(', '),
    strict,
    profile_advisory: profileAdvisory,
    command: withoutShard(first.run.command),
    incomplete: shardsMissing || reports.some((r) => r.run.incomplete),
  };
}

/** The command of the equivalent unsharded run. */
function withoutShard(command: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < command.length; i++) {
    const arg = command[i] ?? '';
    if (arg === '--shard') i++;
    else if (!arg.startsWith('--shard=')) out.push(arg);
  }
  return out;
}

/** When every input is a shard `i/n`: all share n, none repeats, and a missing one is reported. */
function missingShards(reports: readonly Report[], name: (i: number) => string): string | undefined {
  const shards = reports.map((r) => /^(\d+)\/(\d+)$/.exec(r.run.shard ?? ''));
  if (shards.some((m) => m === null)) return undefined;
  const counts = new Set(shards.map((m) => m?.[2]));
  if (counts.size > 1) throw mergeError(`the inputs come from different shardings (${[...counts].map((n) => `/${n}`).join(', ')})`);
  const seen = new Map<number, number>();
  shards.forEach((m, i) => {
    const index = Number(m?.[1]);
    const before = seen.get(index);
    if (before !== undefined) throw mergeError(`shard ${m?.[0]} is given twice (${name(before)} and ${name(i)})`);
    seen.set(index, i);
  });
  const total = Number(shards[0]?.[2]);
  const absent = Array.from({ length: total }, (_, k) => k + 1).filter((k) => !seen.has(k));
  return absent.length === 0 ? undefined : `shard${absent.length === 1 ? '' : 's'} ${absent.map((k) => `${k}/${total}`).join(', ')} missing: the merged results are partial`;
}

/**
 * The baseline diff of the union. Each test runs in one shard, so a known
 * failure that passed is an unexpected pass of its shard: those are joined.
 * New failures are the merge's own (over the known failures the shards
 * marked), since whether a failure is a warning, and so no new failure, depends
 * on the merge's --strict and --profile-advisory.
 */
function mergedBaseline(reports: readonly Report[], name: (i: number) => string, assessed: BaselineDiff | undefined): BaselineDiff | undefined {
  const diffs = reports.map((r) => r.baseline_diff);
  if (diffs.every((d) => d === undefined) || assessed === undefined) return undefined;
  const without = diffs.findIndex((d) => d === undefined);
  if (without !== -1) throw mergeError(`${name(without)} was run without --baseline and others with it`);
  const unexpected = [...new Set(diffs.flatMap((d) => d?.unexpected_passes ?? []))].sort(compare);
  return { new_failures: assessed.new_failures, unexpected_passes: unexpected };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
