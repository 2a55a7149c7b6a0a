// `cpr-conformance vectors generate`: builds every vector file deterministically
// (fixed seeds, fixed instants, published keys; stable member order, 2-space
// JSON, trailing newline, no timestamps), so regenerating gives the same bytes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildChainDigests } from './build/chain-digests.ts';
import { buildCprDocuments } from './build/cpr-documents.ts';
import { buildDeliveryUris } from './build/delivery-uris.ts';
import { buildDerivation } from './build/derivation.ts';
import { buildJcs } from './build/jcs.ts';
import { buildJwkThumbprints } from './build/jwk-thumbprints.ts';
import { buildReplay } from './build/replay.ts';
import { buildRetrievalToken } from './build/retrieval-token.ts';
import { buildSignatures } from './build/signatures.ts';
import { LEDGER_URL, assemble, readLedger, type Ledger, type LedgerEntry } from './ledger.ts';
import { VECTOR_KINDS, fileNameOf, serialize, type DraftFile, type VectorKind } from './model.ts';
import { schemaErrors } from './schema.ts';

export const VECTORS_DIR = new URL('../../vectors/', import.meta.url);

const BUILDERS: Readonly<Record<VectorKind, () => DraftFile>> = {
  'cpr-documents': buildCprDocuments,
  'delivery-uris': buildDeliveryUris,
  jcs: buildJcs,
  signatures: buildSignatures,
  'chain-digests': buildChainDigests,
  'jwk-thumbprints': buildJwkThumbprints,
  'retrieval-token': buildRetrievalToken,
  replay: buildReplay,
  derivation: buildDerivation,
};

export interface Generated {
  /** File name (in vectors/) → exact text. */
  readonly files: ReadonlyMap<string, string>;
  readonly ledger: Ledger;
  readonly ledgerText: string;
}

/** Every flag used is explained in notes, and every note is used (a builder defect otherwise). */
function checkFlags(draft: DraftFile): void {
  const used = new Set(draft.groups.flatMap((g) => g.tests.flatMap((t) => t.flags)));
  const noted = new Set(Object.keys(draft.notes));
  const unexplained = [...used].filter((f) => !noted.has(f));
  const unused = [...noted].filter((f) => !used.has(f));
  if (unexplained.length > 0 || unused.length > 0) {
    throw new Error(`${fileNameOf(draft.kind)}: flags without a note: [${unexplained.join(', ')}]; notes without a case: [${unused.join(', ')}]`);
  }
}

/** Builds every file in memory from the code and the ledger; writes nothing. */
export function generateVectors(ledger: Ledger = readLedger()): Generated {
  const files = new Map<string, string>();
  const next: Record<string, LedgerEntry> = {};
  for (const kind of VECTOR_KINDS) {
    const draft = BUILDERS[kind]();
    checkFlags(draft);
    const name = fileNameOf(kind);
    const { file, entry } = assemble(draft, ledger[name]);
    const errors = schemaErrors(JSON.parse(serialize(file)));
    if (errors.length > 0) throw new Error(`${name} does not match vectors/vector.schema.json:\n  ${errors.slice(0, 10).join('\n  ')}`);
    files.set(name, serialize(file));
    next[name] = entry;
  }
  return { files, ledger: next, ledgerText: serialize(next) };
}

interface Drift {
  /** Paths, relative to the repository, whose committed content differs from a fresh generation. */
  readonly differing: readonly string[];
}

const LEDGER_NAME = 'harness/vectors/ledger.json';

function read(url: URL): string | undefined {
  return existsSync(url) ? readFileSync(url, 'utf8') : undefined;
}

/** Compares a fresh generation with the committed files (vectors/*.json and the ledger). */
export function checkVectors(dir: URL = VECTORS_DIR, ledgerUrl: URL = LEDGER_URL): Drift {
  const generated = generateVectors(readLedger(ledgerUrl));
  const differing = [...generated.files].filter(([name, text]) => read(new URL(name, dir)) !== text).map(([name]) => `vectors/${name}`);
  if (read(ledgerUrl) !== generated.ledgerText) differing.push(LEDGER_NAME);
  return { differing };
}

/** Rewrites vectors/*.json and the ledger; returns the paths that changed. */
export function writeVectors(dir: URL = VECTORS_DIR, ledgerUrl: URL = LEDGER_URL): string[] {
  const generated = generateVectors(readLedger(ledgerUrl));
  const changed: string[] = [];
  for (const [name, text] of generated.files) {
    const url = new URL(name, dir);
    if (read(url) === text) continue;
    writeFileSync(url, text);
    changed.push(fileURLToPath(url));
  }
  if (read(ledgerUrl) !== generated.ledgerText) {
    writeFileSync(ledgerUrl, generated.ledgerText);
    changed.push(fileURLToPath(ledgerUrl));
  }
  return changed;
}
