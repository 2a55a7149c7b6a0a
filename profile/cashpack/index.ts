// The cash-pack messages as code (PROFILE.md §4), shared by the reference
// Operator, the harness and the fuzzer.
export * from './messages.ts';
export * from './schemas.ts';
export * from './types.ts';
