// What the main process hands each test worker through vitest's provide/inject.
import type { TargetConfig } from '../target/config.ts';

export interface RunProvided {
  /** The resolved target: every role's adapter settings, with capabilities as explicit lists. */
  readonly target: TargetConfig;
  /** IDs of the scenarios selected for this run. */
  readonly selected: readonly string[];
  /** The rerun command without its `--only ID` part. */
  readonly rerunBase: string;
  readonly seed: number;
  /** Cases per property (each property's default when absent). */
  readonly propertyRuns?: number;
  readonly limits: RunLimits;
}

/** What keeps the run bounded (guard.ts). */
export interface RunLimits {
  /** Deadline of one request to the target; the adapter's default when absent. */
  readonly requestTimeoutMs?: number;
  /** Consecutive transport failures after which a role counts as unreachable; 0 never. */
  readonly unreachableAfter: number;
  /** Epoch milliseconds after which no test starts. */
  readonly deadlineAt?: number;
  /** A test still running after this long is reported as an error (HARNESS_DEADLINE_EXCEEDED). */
  readonly testTimeLimitMs: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    cprRun: RunProvided;
  }
}
