// Reading the committed vector files in the tests.
import { readFileSync } from 'node:fs';
import { VECTOR_KINDS, fileNameOf, type VectorFile, type VectorKind, type VectorTest } from '../../harness/vectors/model.ts';

export const VECTORS = new URL('../../vectors/', import.meta.url);

export function readVectorFile(kind: VectorKind): VectorFile {
  return JSON.parse(readFileSync(new URL(fileNameOf(kind), VECTORS), 'utf8')) as VectorFile;
}

export const ALL_FILES: readonly { kind: VectorKind; file: VectorFile }[] = VECTOR_KINDS.map((kind) => ({ kind, file: readVectorFile(kind) }));

export function testsOf(kind: VectorKind): VectorTest[] {
  return readVectorFile(kind).testGroups.flatMap((g) => g.tests);
}
