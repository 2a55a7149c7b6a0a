// Small helpers the builders share: a case constructor, hex, and seeded samples.
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import type { DraftCase, JsonObject, Result } from '../model.ts';

export function draftCase(
  key: string,
  comment: string,
  flags: readonly string[],
  result: Result,
  requirements: readonly string[],
  members: JsonObject,
): DraftCase {
  return { key, comment, flags, result, requirements, members };
}

export function hexOf(bytes: Uint8Array | string): string {
  return (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes)).toString('hex');
}

/** A 32-bit seed from a label, so a case's sample does not depend on its position in a table. */
export function seedOf(label: string): number {
  return createHash('sha256').update(label, 'utf8').digest().readUInt32BE(0) & 0x7fffffff;
}

/** One value of `arb`, fixed by the label. */
export function sampleOne<T>(arb: fc.Arbitrary<T>, label: string): T {
  const [value] = fc.sample(arb, { seed: seedOf(label), numRuns: 1 });
  if (value === undefined) throw new Error(`no sample for ${label}`);
  return value;
}

/** Plain JSON data (drops undefined members, as the file will). */
export function asJson<T>(value: T): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** "a" or "an" before a word as it is read aloud (IBAN, ON_CHAIN, INSTANT_KEY: an). */
export function article(word: string): string {
  return /^[AEIOaeio]/.test(word) ? `an ${word}` : `a ${word}`;
}
