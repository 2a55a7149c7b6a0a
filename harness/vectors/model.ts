// The vector files' model (vectors/vector.schema.json): what a builder produces
// (a draft: cases with stable keys, no tcIds yet) and what is written (cases with
// tcIds assigned by the ledger, ledger.ts).
export const VECTOR_KINDS = [
  'cpr-documents',
  'delivery-uris',
  'jcs',
  'signatures',
  'chain-digests',
  'jwk-thumbprints',
  'retrieval-token',
  'replay',
  'derivation',
] as const;

export type VectorKind = (typeof VECTOR_KINDS)[number];

export function isVectorKind(value: unknown): value is VectorKind {
  return typeof value === 'string' && (VECTOR_KINDS as readonly string[]).includes(value);
}

/** Kinds whose cases are HTTP request/response sequences, the only ones a remote target can run. */
export const SEQUENCE_KINDS: readonly VectorKind[] = ['retrieval-token', 'replay'];

export const SCHEMA_NAME = 'vector.schema.json';

/** Wycheproof semantics: valid must be accepted, invalid rejected, acceptable may go either way. */
export type Result = 'valid' | 'invalid' | 'acceptable';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** One case before a tcId is given: `key` is its stable name in the ledger. */
export interface DraftCase {
  readonly key: string;
  readonly comment: string;
  readonly flags: readonly string[];
  readonly result: Result;
  readonly requirements: readonly string[];
  /** The kind-specific members, in the order they are written. */
  readonly members: JsonObject;
}

interface DraftGroup {
  /** Group-level members (written before `tests`); `type` names the group's test type. */
  readonly members: JsonObject & { readonly type: string };
  readonly tests: readonly DraftCase[];
}

export interface DraftFile {
  readonly kind: VectorKind;
  readonly algorithm?: string;
  /** What the file tests and how to use it. Keys, versioning and removed tcIds are appended. */
  readonly header: readonly string[];
  /** Every flag used, with why such a case exists. */
  readonly notes: Readonly<Record<string, string>>;
  readonly groups: readonly DraftGroup[];
}

/** A written test case: the common members, then the kind's. */
export interface VectorTest extends JsonObject {
  tcId: number;
  comment: string;
  flags: string[];
  result: Result;
  requirements: string[];
}

export interface VectorGroup extends JsonObject {
  type: string;
  tests: VectorTest[];
}

export interface VectorFile extends JsonObject {
  schema: string;
  profile: string;
  kind: VectorKind;
  version: number;
  header: string[];
  notes: { [flag: string]: string };
  numberOfTests: number;
  testGroups: VectorGroup[];
}

export function fileNameOf(kind: VectorKind): string {
  return `${kind}.json`;
}

/** 2-space JSON with a trailing newline: the one written form (byte-identical every time). */
export function serialize(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
