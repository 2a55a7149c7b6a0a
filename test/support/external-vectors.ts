// Third-party vectors live beside the checkout in ../shared/external-vectors/
// (read in place, never copied into the project).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const EXTERNAL_VECTORS = fileURLToPath(new URL('../../../shared/external-vectors/', import.meta.url));

export function readExternal(path: string): string {
  return readFileSync(EXTERNAL_VECTORS + path, 'utf8');
}

export function listExternal(dir: string): string[] {
  return readdirSync(EXTERNAL_VECTORS + dir).sort();
}

export const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));

export interface WycheproofCase {
  readonly tcId: number;
  readonly comment: string;
  readonly flags: readonly string[];
  readonly msg: string;
  readonly sig: string;
  readonly result: 'valid' | 'invalid' | 'acceptable';
}

export function wycheproofEd25519(): { publicKey: string; test: WycheproofCase }[] {
  const file = JSON.parse(readExternal('wycheproof/ed25519_test.json')) as {
    testGroups: { publicKey: { pk: string }; tests: WycheproofCase[] }[];
  };
  return file.testGroups.flatMap((g) => g.tests.map((test) => ({ publicKey: g.publicKey.pk, test })));
}

export interface SpeccheckCase {
  readonly message: string;
  readonly pub_key: string;
  readonly signature: string;
}

export function speccheckCases(): SpeccheckCase[] {
  return JSON.parse(readExternal('speccheck/cases.json')) as SpeccheckCase[];
}
