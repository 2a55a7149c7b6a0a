// tcId bookkeeping (vectors/README.md "Versioning"): a ledger maps each case's
// stable key to its tcId and a digest of what the case says. A case whose digest
// changes gets a new tcId and the old one is retired, named in the file's header;
// a tcId is never reused because `next_tc_id` only grows. The ledger is committed
// beside the generator, so generation is a pure function of code plus ledger.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PROFILE_ID } from '../../profile/version.ts';
import { SCHEMA_NAME, fileNameOf, serialize, type DraftFile, type VectorFile, type VectorGroup, type VectorTest } from './model.ts';

export const LEDGER_URL = new URL('./ledger.json', import.meta.url);

interface RetiredCase {
  readonly tcId: number;
  readonly key: string;
  readonly reason: string;
  /** The file version that no longer has it. */
  readonly version: number;
}

export interface LedgerEntry {
  readonly version: number;
  readonly fingerprint: string;
  readonly next_tc_id: number;
  readonly cases: Readonly<Record<string, { readonly tcId: number; readonly digest: string }>>;
  readonly retired: readonly RetiredCase[];
}

/** File name → entry. */
export type Ledger = Readonly<Record<string, LedgerEntry>>;

export function readLedger(url: URL = LEDGER_URL): Ledger {
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return JSON.parse(text) as Ledger;
}

const VERSIONING =
  'Versioning: a tcId is never reused. A case whose input or expectation changes gets a new tcId and the old one is removed; removed tcIds are listed below with the version that dropped them.';

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Gives the draft's cases their tcIds and writes the file; returns the ledger entry after it. */
export function assemble(draft: DraftFile, previous: LedgerEntry | undefined): { file: VectorFile; entry: LedgerEntry } {
  const known = previous?.cases ?? {};
  let next = previous?.next_tc_id ?? 1;
  const cases: Record<string, { tcId: number; digest: string }> = {};
  const retiredNow: Omit<RetiredCase, 'version'>[] = [];

  const groups: VectorGroup[] = draft.groups.map((group) => {
    const tests: VectorTest[] = group.tests.map((test) => {
      if (Object.hasOwn(cases, test.key)) throw new Error(`${fileNameOf(draft.kind)}: two cases share the key ${JSON.stringify(test.key)}`);
      const digest = sha256(serialize({ group: { ...group.members }, result: test.result, members: test.members })).slice(0, 32);
      const old = known[test.key];
      let tcId: number;
      if (old && old.digest === digest) tcId = old.tcId;
      else {
        if (old) retiredNow.push({ tcId: old.tcId, key: test.key, reason: 'its input or expectation changed' });
        tcId = next++;
      }
      cases[test.key] = { tcId, digest };
      return {
        tcId,
        comment: test.comment,
        flags: [...test.flags],
        result: test.result,
        requirements: [...test.requirements],
        ...test.members,
      };
    });
    return { ...group.members, tests };
  });
  for (const [key, old] of Object.entries(known)) {
    if (!Object.hasOwn(cases, key)) retiredNow.push({ tcId: old.tcId, key, reason: 'the case was removed' });
  }

  // What the draft says; a retirement bumps the version by itself. Over this generation's
  // retirements, the fingerprint would differ from the next generation's (which retires
  // nothing) and bump the version a second time; `retired: []` keeps the ledger's fingerprints.
  const fingerprint = sha256(serialize({ header: draft.header, notes: draft.notes, groups, retired: [] }));
  const unchanged = previous !== undefined && previous.fingerprint === fingerprint && retiredNow.length === 0;
  const version = previous === undefined ? 1 : unchanged ? previous.version : previous.version + 1;
  const retired = [...(previous?.retired ?? []), ...retiredNow.map((r) => ({ ...r, version }))].sort((a, b) => a.tcId - b.tcId);

  const header = [
    ...draft.header,
    VERSIONING,
    ...(retired.length === 0 ? ['Removed tcIds: none.'] : retired.map((r) => `Removed in version ${r.version}: tcId ${r.tcId} (${r.key}): ${r.reason}.`)),
  ];
  const file: VectorFile = {
    ...(draft.algorithm !== undefined ? { algorithm: draft.algorithm } : {}),
    schema: SCHEMA_NAME,
    profile: PROFILE_ID,
    kind: draft.kind,
    version,
    header,
    notes: Object.fromEntries(Object.entries(draft.notes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    numberOfTests: groups.reduce((n, g) => n + g.tests.length, 0),
    testGroups: groups,
  };
  const sortedCases = Object.fromEntries(Object.entries(cases).sort(([, a], [, b]) => a.tcId - b.tcId));
  return { file, entry: { version, fingerprint, next_tc_id: next, cases: sortedCases, retired } };
}
