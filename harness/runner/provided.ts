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
}

declare module 'vitest' {
  export interface ProvidedContext {
    cprRun: RunProvided;
  }
}
