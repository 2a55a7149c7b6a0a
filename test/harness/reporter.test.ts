// The reporter that turns vitest's per-test events into the run's results.
import type { TestCase } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import type { TestResult } from '../../harness/report/model.ts';
import { CollectingReporter } from '../../harness/runner/reporter.ts';
import type { Terminal } from '../../harness/runner/terminal.ts';
import { fixtureTests } from './report/fixture.ts';

const quiet: Terminal = { progress: () => undefined, endProgress: () => undefined, line: () => undefined, error: () => undefined };
const event = (cpr: TestResult | undefined, name = cpr?.id ?? 'x') => ({ name, meta: () => ({ cpr }), result: () => ({ errors: [] }) }) as unknown as TestCase;
const [passed, failed, errored] = (['passed', 'failed', 'error'] as const).map((status) => fixtureTests().find((t) => t.status === status)!);

describe('CollectingReporter', () => {
  it('counts a test once however often vitest reports it', () => {
    const reporter = new CollectingReporter(quiet, 3);
    for (const t of [passed!, failed!, passed!, failed!]) reporter.onTestCaseResult(event(t));
    expect(reporter.results.map((t) => t.id)).toEqual([passed!.id, failed!.id]);
  });

  it('after an interrupt keeps passes and leaves out the failures and errors of tests it cut off', () => {
    const reporter = new CollectingReporter(quiet, 4);
    reporter.onTestCaseResult(event(failed!));
    reporter.interrupt();
    reporter.onTestCaseResult(event({ ...errored!, id: 'CUT-1', error_code: 'HARNESS_TARGET_UNREACHABLE' }));
    reporter.onTestCaseResult(event({ ...failed!, id: 'CUT-2' }));
    reporter.onTestCaseResult(event({ ...passed!, id: 'DONE-1' }));
    reporter.onTestCaseResult(event(undefined, 'no result'));
    // The failure observed before the interrupt stands; nothing is blamed on the target for the cut.
    expect(reporter.results.map((t) => t.id)).toEqual([failed!.id, 'DONE-1']);
    expect(reporter.issues).toEqual([]);
  });

  it('makes a test that ended without a result a harness issue, never a conformance result', () => {
    const reporter = new CollectingReporter(quiet, 1);
    reporter.onTestCaseResult(event(undefined, 'TOK-ONCE-001'));
    expect(reporter.results).toEqual([]);
    expect(reporter.issues).toEqual([{ code: 'HARNESS_INTERNAL', message: `TOK-ONCE-001: ${CollectingReporter.NO_RESULT}` }]);
  });
});
