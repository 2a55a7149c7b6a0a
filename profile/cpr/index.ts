// The CPR rules as code (spec §2, §4.4; PROFILE.md §7, §8), shared by the
// reference payee, the reference paying application and the harness.
export * from './evm.ts';
export * from './fields.ts';
export { codePoints, type Format } from './formats.ts';
export { pointer } from './findings.ts';
export { findPayerMembers } from './payer-data.ts';
export * from './qr-decode.ts';
export type * from './types.ts';
export * from './uri.ts';
export { compareTokenUri, normalizeUri, sameUri, type TokenUriComparison } from './uri-equivalence.ts';
export { CPR_RULES, identifySubInterface, unknownRailHint, validateCpr, type ValidateOptions } from './validate.ts';
