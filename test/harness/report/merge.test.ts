import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport } from '../../../harness/report/json.ts';
import { mergeReports } from '../../../harness/report/merge.ts';
import type { Report, TestResult } from '../../../harness/report/model.ts';
import { loadRegistry } from '../../../profile/registry.ts';
import { buildReport, fixtureTests, WARNING_CASES } from './fixture.ts';

const registry = loadRegistry();

/** Splits tests round-robin over n shards, each a report as `run --shard i/n` writes it. */
function shards(tests: readonly TestResult[], n: number, run: (i: number) => Partial<Report['run']> = () => ({}), options: Parameters<typeof buildReport>[0] = {}): Report[] {
  return Array.from({ length: n }, (_, i) =>
    buildReport({
      ...options,
      tests: tests.filter((_, k) => k % n === i),
      run: { shard: `${i + 1}/${n}`, command: ['cpr-conformance', 'run', '--seed', '42', '--shard', `${i + 1}/${n}`], ...run(i) },
    }),
  );
}

const statuses = (r: Report) => Object.fromEntries(r.requirements.map((q) => [q.id, q.status]));
const covering = (r: Report) => Object.fromEntries(r.requirements.map((q) => [q.id, [...q.tests].sort()]));

describe('mergeReports', () => {
  it.each([
    ['with a harness error (verdict error)', fixtureTests()],
    ['with a MUST failure (verdict non-conformant)', fixtureTests().filter((t) => t.status !== 'error')],
    ['all passing (verdict conformant)', fixtureTests().filter((t) => t.status === 'passed')],
  ])('gives two shards the requirement statuses, summary and verdict of one combined run, %s', (_name, tests) => {
    const combined = buildReport({ tests });
    const merged = mergeReports(shards(tests, 2), registry);
    expect(statuses(merged)).toEqual(statuses(combined));
    expect(covering(merged)).toEqual(covering(combined));
    expect(merged.summary).toEqual(combined.summary);
    expect(merged.verdict).toBe(combined.verdict);
    expect([...merged.tests].map((t) => t.id).sort()).toEqual(tests.map((t) => t.id).sort());
  });

  it('recomputes statuses over the union: a requirement failed in one shard stays failed', () => {
    const tests = fixtureTests();
    const failing = tests.find((t) => t.id === 'CPR-ID-001')!;
    const passing = { ...tests.find((t) => t.id === 'CPR-VER-001')!, id: 'CPR-ID-003', requirements: ['CPR-ID-1'], checks: [{ ...tests[0]!.checks[0]!, requirement: 'CPR-ID-1' }] };
    const [a, b] = [buildReport({ tests: [passing], run: { shard: '1/2' } }), buildReport({ tests: [failing], run: { shard: '2/2' } })];
    expect(statuses(a)['CPR-ID-1']).toBe('passed');
    const merged = mergeReports([a, b], registry);
    expect(statuses(merged)['CPR-ID-1']).toBe('failed');
    expect(merged.requirements.find((r) => r.id === 'CPR-ID-1')?.tests).toEqual(['CPR-ID-001', 'CPR-ID-003']);
  });

  it('orders tests by suite file then ID whatever the order of the inputs', () => {
    const [a, b] = shards(fixtureTests(), 2);
    expect(mergeReports([a!, b!], registry).tests.map((t) => t.id)).toEqual(mergeReports([b!, a!], registry).tests.map((t) => t.id));
  });

  it.each<[string, () => Report[], RegExp]>([
    ['a test ID found in two shards', () => [buildReport({ tests: fixtureTests().slice(0, 2), run: { shard: '1/2' } }), buildReport({ tests: fixtureTests().slice(1, 3), run: { shard: '2/2' } })], /test CPR-ID-001 appears in both shard 1\/2 and shard 2\/2/],
    ['shards with different seeds', () => shards(fixtureTests(), 2, (i) => ({ seed: 42 + i })), /seed differs: 42 in shard 1\/2, 43 in shard 2\/2/],
    ['shards of different suite versions', () => shards(fixtureTests(), 2, (i) => ({ suite_version: `0.${i}.0` })), /suite_version differs/],
    ['shards run with and without --strict', () => shards(fixtureTests(), 2, (i) => ({ strict: i === 0 })), /strict differs/],
    ['one shard given twice', () => shards(fixtureTests(), 2, () => ({ shard: '1/2' })), /shard 1\/2 is given twice/],
    ['shards of different shardings', () => shards(fixtureTests(), 2, (i) => ({ shard: i === 0 ? '1/2' : '2/3' })), /different shardings/],
    ['no reports', () => [], /no reports given/],
  ])('throws on %s', (_name, inputs, message) => {
    expect(() => mergeReports(inputs(), registry)).toThrow(message);
  });

  it('names inputs by their files when given', () => {
    const [a, b] = shards(fixtureTests(), 2, (i) => ({ seed: i }));
    expect(() => mergeReports([a!, b!], registry, { sources: ['a/report.json', 'b/report.json'] })).toThrow(/0 in a\/report\.json, 1 in b\/report\.json/);
  });

  it('starts at the earliest start, lasts until the latest end, and drops the shard', () => {
    const merged = mergeReports(
      shards(fixtureTests(), 2, (i) => ({ started_at: i === 0 ? '2025-01-15T10:00:05.000Z' : '2025-01-15T10:00:00.000Z', duration_ms: i === 0 ? 1000 : 3000 })),
      registry,
    );
    expect(merged.run.started_at).toBe('2025-01-15T10:00:00.000Z');
    expect(merged.run.duration_ms).toBe(6000);
    expect(merged.run).not.toHaveProperty('shard');
    expect(merged.run.command).toEqual(['cpr-conformance', 'run', '--seed', '42']);
    expect(merged.run.seed).toBe(42);
  });

  it('is cut short when an input is, and keeps the inputs\u2019 harness errors beside an observed failure', () => {
    const tests = fixtureTests().filter((t) => t.status !== 'error');
    const incomplete = mergeReports(shards(tests, 2, (i) => ({ incomplete: i === 1 })), registry);
    expect(incomplete.run.incomplete).toBe(true);
    expect(incomplete.verdict).toBe('non-conformant');

    const [a, b] = shards(tests, 2, (i) => ({ incomplete: i === 1 }));
    const withErrors = mergeReports([a!, { ...b!, verdict: 'error', errors: [{ code: 'HARNESS_TARGET_UNREACHABLE', message: 'connect ECONNREFUSED' }] }], registry);
    expect(withErrors.verdict).toBe('non-conformant');
    expect(withErrors.errors).toEqual([{ code: 'HARNESS_TARGET_UNREACHABLE', message: '[shard 2/2] connect ECONNREFUSED' }]);
  });

  it('keeps an input verdict of error even when nothing else records why', () => {
    const [a, b] = shards(fixtureTests().filter((t) => t.status === 'passed'), 2);
    expect(mergeReports([a!, { ...b!, verdict: 'error' }], registry).verdict).toBe('error');
  });

  it('reports missing shards as a harness error and marks the run incomplete', () => {
    const [, second] = shards(fixtureTests().filter((t) => t.status === 'passed'), 3);
    const merged = mergeReports([second!], registry);
    expect(merged.run.incomplete).toBe(true);
    expect(merged.verdict).toBe('error');
    expect(merged.errors).toEqual([{ code: 'REPORT_SHARDS_MISSING', message: 'shards 1/3, 3/3 missing: the merged results are partial' }]);
  });

  it('joins the shards\u2019 baseline diffs, or recomputes them from known failures', () => {
    const tests = fixtureTests().filter((t) => t.status !== 'error');
    const parts = shards(tests, 2).map((r) => ({ ...r, baseline_diff: { new_failures: r.tests.filter((t) => t.status === 'failed').map((t) => t.id), unexpected_passes: [] } }));
    // CPR-ID-002 failed a SHOULD only: a warning, and no new failure, unless the merge applies --strict.
    expect(mergeReports(parts, registry).baseline_diff).toEqual({ new_failures: ['CPR-ID-001'], unexpected_passes: [] });
    expect(mergeReports(parts, registry, { strict: true }).baseline_diff).toEqual({ new_failures: ['CPR-ID-001', 'CPR-ID-002'], unexpected_passes: [] });
    const passedAgain = parts.map((r, i) => (i === 0 ? { ...r, baseline_diff: { new_failures: [], unexpected_passes: ['CPR-VER-001'] } } : r));
    expect(mergeReports(passedAgain, registry).baseline_diff?.unexpected_passes).toEqual(['CPR-VER-001']);
    const recomputed = mergeReports(parts, registry, { knownFailures: ['CPR-ID-001', 'CPR-ID-002', 'CPR-VER-001'] });
    expect(recomputed.baseline_diff).toEqual({ new_failures: [], unexpected_passes: ['CPR-VER-001'] });
    expect(recomputed.verdict).toBe('non-conformant');
    expect(() => mergeReports([parts[0]!, shards(tests, 2)[1]!], registry)).toThrow(/shard 2\/2 was run without --baseline/);
  });

  it('applies --strict when asked: a SHOULD failure then fails its requirement, and its test is no longer a warning', () => {
    const merged = mergeReports(shards(fixtureTests(), 2), registry, { strict: true });
    expect(merged.run.strict).toBe(true);
    expect(statuses(merged)['CPR-ID-2']).toBe('failed');
    expect(merged.tests.find((t) => t.id === 'CPR-ID-002')?.warning).toBeUndefined();
    expect([merged.summary.failed, merged.summary.warned]).toEqual([2, 0]);
  });

  it.each(WARNING_CASES)('merges shards with %s (%s) into the %s one combined run shows', (_name, id, shown, options) => {
    const tests = options.tests ?? fixtureTests();
    const merged = mergeReports(shards(tests, 2, () => ({}), options), registry);
    const combined = buildReport(options);
    expect(merged.tests.find((t) => t.id === id)?.warning).toBe(shown === 'warning' ? true : undefined);
    expect(merged.summary).toEqual(combined.summary);
    expect(merged.verdict).toBe(combined.verdict);
  });
});
