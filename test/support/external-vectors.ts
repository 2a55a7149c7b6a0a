// Third-party vectors live beside the checkout in ../shared/external-vectors/
// (read in place, never copied into the project), or wherever
// CPR_EXTERNAL_VECTORS points. A clone without them skips these tests and says
// so; CI, which has them, must run them (like the browser test).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

const configured = process.env['CPR_EXTERNAL_VECTORS'];
export const EXTERNAL_VECTORS = configured
  ? configured.replace(/\/?$/, '/')
  : fileURLToPath(new URL('../../../shared/external-vectors/', import.meta.url));

/** The files the cross-checks read; all must be there for them to run. */
const NEEDED = ['jcs/input', 'jcs/output', 'jcs/outhex', 'wycheproof/ed25519_test.json', 'speccheck/cases.json'];
const absent = NEEDED.filter((path) => !existsSync(EXTERNAL_VECTORS + path));
export const EXTERNAL_AVAILABLE = absent.length === 0;
export const IN_CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
export const EXTERNAL_MISSING =
  `the third-party vectors are not at ${EXTERNAL_VECTORS} (missing ${absent.join(', ')}): ` +
  'they are the RFC 8785 test data, Wycheproof ed25519_test.json and speccheck cases.json, kept beside this checkout in ../shared/external-vectors/; ' +
  'put them there or set CPR_EXTERNAL_VECTORS to their folder';

/**
 * A describe block that needs the third-party vectors: skipped with the reason
 * outside CI when they are absent, failing in CI (where they must be present).
 */
export function describeExternal(name: string, body: () => void): void {
  if (EXTERNAL_AVAILABLE) {
    describe(name, body);
  } else if (IN_CI) {
    describe(name, () => {
      throw new Error(`${EXTERNAL_MISSING}. In CI these cross-checks must run.`);
    });
  } else {
    console.warn(`skipping "${name}": ${EXTERNAL_MISSING}`);
    describe.skip(name, () => {
      it.skip(`needs the third-party vectors, which are not at ${EXTERNAL_VECTORS}`, () => undefined);
    });
  }
}

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
