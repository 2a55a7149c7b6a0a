import { describe, expect, it } from 'vitest';
import { checkVectors, generateVectors } from '../../harness/vectors/generate.ts';
import { readLedger } from '../../harness/vectors/ledger.ts';
import { ALL_FILES } from './support.ts';

describe('vector generation', () => {
  it('gives the committed files byte for byte (drift guard)', () => {
    const { differing } = checkVectors();
    expect(differing, `these files differ from a fresh generation (after a change to generators/, profile/ or harness/vectors/?): ${differing.join(', ')}. Run: npx cpr-conformance vectors generate, review the diff and commit it`).toEqual([]);
  });

  it('is deterministic: two generations in one process are identical', () => {
    const ledger = readLedger();
    const a = generateVectors(ledger);
    const b = generateVectors(ledger);
    expect([...a.files]).toEqual([...b.files]);
    expect(a.ledgerText).toBe(b.ledgerText);
  });

  it('never reuses a tcId: retired ids are absent and every id is below the ledger counter', () => {
    const ledger = readLedger();
    for (const { kind, file } of ALL_FILES) {
      const entry = ledger[`${kind}.json`]!;
      const ids = file.testGroups.flatMap((g) => g.tests.map((t) => t.tcId));
      expect(Math.max(...ids)).toBeLessThan(entry.next_tc_id);
      for (const retired of entry.retired) expect(ids).not.toContain(retired.tcId);
      expect(file.version).toBe(entry.version);
    }
  });

  it('gives a changed case a new tcId, retires the old one and notes it in the header', () => {
    const ledger = readLedger();
    const entry = ledger['jcs.json']!;
    const [key, old] = Object.entries(entry.cases)[0]!;
    const tampered = { ...ledger, 'jcs.json': { ...entry, cases: { ...entry.cases, [key]: { ...old, digest: 'a different expectation' } } } };
    const text = generateVectors(tampered).files.get('jcs.json')!;
    const file = JSON.parse(text) as { version: number; header: string[]; testGroups: { tests: { tcId: number }[] }[] };
    const ids = file.testGroups.flatMap((g) => g.tests.map((t) => t.tcId));
    expect(ids).not.toContain(old.tcId);
    expect(ids).toContain(entry.next_tc_id);
    expect(file.version).toBe(entry.version + 1);
    expect(file.header.some((line) => line.includes(`tcId ${old.tcId} (${key})`))).toBe(true);
  });

  it('is settled after a retirement: generating again from the ledger it wrote changes nothing', () => {
    const ledger = readLedger();
    const entry = ledger['jcs.json']!;
    const [key, old] = Object.entries(entry.cases)[0]!;
    const first = generateVectors({ ...ledger, 'jcs.json': { ...entry, cases: { ...entry.cases, [key]: { ...old, digest: 'a different expectation' } } } });
    const second = generateVectors(JSON.parse(first.ledgerText) as typeof ledger);
    expect(second.files.get('jcs.json')).toBe(first.files.get('jcs.json'));
    expect(second.ledgerText).toBe(first.ledgerText);
  });
});
