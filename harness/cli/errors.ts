// Harness errors are values with stable codes (STYLE.md §6); the CLI maps them to
// exit code 2 and prints the code, the message and a hint.
export type HarnessErrorCode =
  | 'USAGE_ERROR'
  | 'CONFIG_INVALID'
  | 'SCENARIO_INVALID'
  | 'HARNESS_TARGET_UNREACHABLE'
  | 'HARNESS_INTERNAL'
  | 'NOTHING_SELECTED'
  | 'FINDING_NOT_REPRODUCED';

export class HarnessError extends Error {
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'HarnessError';
  }
}

export { EXIT_CODES as EXIT } from '../report/aggregate.ts';
