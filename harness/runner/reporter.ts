// Collects each test's TestResult (from the task meta the runtime sets) and shows
// progress: one updating line on a TTY, plain lines under CI or when piped.
// Anything vitest reports that has no TestResult (a module that failed to load,
// an unhandled error) becomes a harness issue, never a conformance result.
import type { TestCase, TestModule } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';
import type { HarnessIssue, TestResult } from '../report/model.ts';
import { stripControl } from '../text.ts';
import type { Terminal } from './terminal.ts';
import './runtime-meta.ts';

export class CollectingReporter implements Reporter {
  /** In the issue of a test that ended without a TestResult (one cancelled by an interrupt, say). */
  static readonly NO_RESULT = 'no result was recorded';

  readonly results: TestResult[] = [];
  readonly issues: HarnessIssue[] = [];
  private readonly seen = new Set<string>();
  private interrupted = false;
  private done = 0;
  private readonly counts = { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0, error: 0 };

  constructor(
    private readonly terminal: Terminal,
    private readonly total: number,
  ) {}

  /**
   * From an interrupt on, the harness stops its own side (connections, the
   * target it started): a test then in flight that ends failed or in error may
   * have been cut off rather than failed by the target, so it is left out, not
   * judged (the report says how many tests ran). A pass is a pass.
   */
  interrupt(): void {
    this.interrupted = true;
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.meta().cpr;
    if (this.interrupted && (!result || result.status === 'failed' || result.status === 'error')) return;
    if (!result) {
      const errors = testCase.result().errors ?? [];
      this.issues.push({ code: 'HARNESS_INTERNAL', message: `${testCase.name}: ${CollectingReporter.NO_RESULT}${errors[0] ? `: ${errors[0].message}` : ''}` });
      return;
    }
    // A test is counted once, whatever vitest reports again while a run is cancelled.
    if (this.seen.has(result.id)) return;
    this.seen.add(result.id);
    this.results.push(result);
    this.done++;
    this.counts[result.status]++;
    this.terminal.progress(this.done, this.total, result, this.counts);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const module of modules) {
      for (const error of module.errors()) this.issues.push({ code: 'HARNESS_INTERNAL', message: `${module.moduleId}: ${stripControl(error.message)}` });
    }
    for (const error of unhandledErrors) this.issues.push({ code: 'HARNESS_INTERNAL', message: `unhandled: ${stripControl(error.message ?? String(error))}` });
    this.terminal.endProgress();
  }
}
