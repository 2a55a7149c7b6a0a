// What each test takes, for balancing shards (plan.ts partitionPlan): the
// committed table suites/timings.json (test ID -> median ms against the embedded
// reference, written by `run --repeat 5 --concurrency 1 --write-timings suites/timings.json`),
// or the durations of an earlier run's report.json (`--shard-timings FILE`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HarnessError } from '../errors.ts';
import type { Report, TestResult } from '../report/model.ts';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import { partitionPlan, type PlanTest } from './plan.ts';

/** The committed table. */
export const TIMINGS_FILE = join(PROJECT_ROOT, 'suites', 'timings.json');
const TIMINGS_FORMAT = 'cpr-conformance-timings/1';

interface Timings {
  /** Where the figures come from, as messages name it. */
  readonly source: string;
  /** Test ID -> ms of one run. */
  readonly ms: ReadonlyMap<string, number>;
}

interface TimingsTable {
  readonly format: typeof TIMINGS_FORMAT;
  readonly note: string;
  readonly target: string;
  readonly runs_per_test: number;
  readonly tests: Readonly<Record<string, number>>;
}

/**
 * The timings of `file` (a table this module wrote, or a report.json), or of the
 * committed table when none is given; no figures at all when that is absent
 * (then every test weighs the same).
 */
export function loadTimings(file?: string): Timings {
  if (file === undefined) {
    if (!existsSync(TIMINGS_FILE)) return { source: 'no timings (equal weights)', ms: new Map() };
    return readTimings(TIMINGS_FILE, relative(PROJECT_ROOT, TIMINGS_FILE));
  }
  return readTimings(file, file);
}

function readTimings(file: string, shown: string): Timings {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarnessError(code ? 'USAGE_ERROR' : 'CONFIG_INVALID', `cannot read the timings ${file}: ${(error as Error).message}`, TIMINGS_HINT);
  }
  const bad = (why: string) => new HarnessError('CONFIG_INVALID', `${file} gives no timings: ${why}`, TIMINGS_HINT);
  if (typeof data !== 'object' || data === null) throw bad('not a JSON object');
  const record = data as Partial<TimingsTable> & Partial<Pick<Report, 'tests'>>;
  const ms = new Map<string, number>();
  if (record.format === TIMINGS_FORMAT) {
    if (typeof record.tests !== 'object' || record.tests === null || Array.isArray(record.tests)) throw bad('"tests" must map test IDs to milliseconds');
    for (const [id, value] of Object.entries(record.tests)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw bad(`"tests.${id}" must be a number of milliseconds, not ${JSON.stringify(value)}`);
      ms.set(id, value);
    }
    return { source: shown, ms };
  }
  if (Array.isArray(record.tests)) {
    for (const [i, test] of (record.tests as unknown[]).entries()) {
      const t = test as Partial<TestResult> | null;
      if (typeof t?.id !== 'string' || typeof t.duration_ms !== 'number') throw bad(`tests[${i}] has no id and duration_ms: is it a report.json?`);
      const one = oneRun(t as TestResult);
      if (one !== undefined) ms.set(t.id, one);
    }
    return { source: shown, ms };
  }
  throw bad(`neither a timings table ("format": "${TIMINGS_FORMAT}") nor a report.json`);
}

const TIMINGS_HINT = 'give a report.json of an earlier run, or a table written by: cpr-conformance run --write-timings FILE';

/** The time of one run of a test that ran (none for one that ended in error: its time says nothing). */
function oneRun(test: TestResult): number | undefined {
  if (test.status === 'error') return undefined;
  return test.repeat?.median_ms ?? test.duration_ms;
}

/** Writes the timings table of a run's results (`run --write-timings FILE`): the tests that ran, by ID. */
export function writeTimings(file: string, results: readonly TestResult[], facts: { readonly target: string; readonly runsPerTest: number; readonly command: readonly string[] }): number {
  const entries = results.flatMap((t) => {
    const ms = oneRun(t);
    return ms === undefined ? [] : [[t.id, Math.round(ms)] as const];
  });
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const table: TimingsTable = {
    format: TIMINGS_FORMAT,
    note: `Milliseconds of one run of each test${facts.runsPerTest > 1 ? ` (the median of ${facts.runsPerTest})` : ''}, for balancing --shard i/n. Written by: ${facts.command.join(' ')}`,
    target: facts.target,
    runs_per_test: facts.runsPerTest,
    tests: Object.fromEntries(entries),
  };
  try {
    writeFileSync(file, `${JSON.stringify(table, null, 2)}\n`);
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot write the timings ${file}: ${(error as Error).message}`, 'give a path in a folder that exists and can be written');
  }
  return entries.length;
}

/** Shard `i/n` of the plan (run, list), balanced by the timings, and what it is expected to take. */
export function shardingOf(plan: readonly PlanTest[], shard: string | undefined, timingsFile: string | undefined): { plan: PlanTest[]; estimate: string } | undefined {
  if (shard === undefined) return undefined;
  const [i, n] = shard.split('/').map(Number) as [number, number];
  const timings = loadTimings(timingsFile);
  const partition = partitionPlan(plan, n, timings.ms);
  return { plan: [...(partition.shards[i - 1] ?? [])], estimate: shardEstimate(partition, i, timings) };
}

/** What a shard is expected to take: "about 1.7 s (shards 1.7 s, 1.7 s, 1.6 s by suites/timings.json)". */
function shardEstimate(partition: ReturnType<typeof partitionPlan>, index: number, timings: Timings): string {
  if (timings.ms.size === 0) return 'no timings, so every test weighs the same';
  const unknown = partition.unknown > 0 ? `; ${partition.unknown} test(s) not in it counted at the median, ${estimateText(partition.unknownMs)}` : '';
  return `about ${estimateText(partition.estimatedMs[index - 1] ?? 0)} (shards ${partition.estimatedMs.map(estimateText).join(', ')} by ${timings.source}${unknown})`;
}

/** "1.7 s" or "850 ms". */
function estimateText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
