// The published test vectors (vectors/README.md): generation and verification.
export { BUILDERS, VECTORS_DIR, checkVectors, generateVectors, writeVectors, type Drift, type Generated } from './generate.ts';
export { TEST_KEYS, testKey, type TestKey } from './keys.ts';
export { LEDGER_URL, readLedger, type Ledger, type LedgerEntry, type RetiredCase } from './ledger.ts';
export { SEQUENCE_KINDS, VECTOR_KINDS, isVectorKind, type Result, type VectorFile, type VectorGroup, type VectorKind, type VectorTest } from './model.ts';
export { schemaErrors } from './schema.ts';
export { runSequence, type SequenceOutcome } from './sequence.ts';
export { availableKinds, loadVectorFile, verifyVectors, type CaseReport, type CaseStatus, type VerifyOptions, type VerifyReport, type VerifyTarget } from './verify.ts';
