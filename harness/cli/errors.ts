// The command line's exit codes, and its errors: the harness's one taxonomy (harness/errors.ts).
export { HarnessError, type HarnessErrorCode } from '../errors.ts';
export { EXIT_CODES as EXIT } from '../report/aggregate.ts';
