// The field coverage table is the code's: README.md shows it as the code
// computes it, every (field, class) pair of the inventory has a property that
// generates it, no property claims a pair the inventory does not have, and a
// property's cases generate exactly the pairs it declares.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTIES } from '../../../harness/properties/catalogue.ts';
import { coverageMarkdown, coverageRows, readmeWith, readReadme, strayCovers } from '../../../harness/properties/coverage.ts';
import { fieldInventory, fieldsOf } from '../../../harness/properties/fields.ts';
import { FIELD_PROPERTIES } from '../../../harness/properties/field-classes/index.ts';
import { CLASSES_OF_KIND, FIELD_CLASSES, isFieldClass } from '../../../generators/classes/catalogue.ts';
import { DEFAULT_POLICY } from '../../../reference/operator/policy.ts';

describe('the field inventory', () => {
  const fields = fieldInventory();

  it('takes every member of the CPR and of the messages an Operator reads from their schemas', () => {
    const ids = new Set(fields.map((f) => f.id));
    for (const id of ['cpr/memo', 'cpr/payee/rail_address/iban', 'cpr/value/asset/chain_id', 'cpr/txid', 'lock-request/requested_expiry', 'renew-request/cash_pack/renewal_chain', 'redeem-request/redemption/redeemer_kid', 'control:payee-request/memo', 'derivation-context/now', 'GET /cpr/{token}']) {
      expect(ids.has(id), id).toBe(true);
    }
    expect(fieldsOf('lock-request').map((f) => f.pointer).sort()).toEqual(['', '/amount', '/asset/chain_id', '/asset/code', '/asset/type', '/created_at', '/initial_bearer_pk', '/principal_pk', '/request_id', '/requested_expiry', '/signature']);
  });

  it('gives each field the classes of its kind, signed.altered inside a signed message, derived.exact where the Payment copies it', () => {
    const memo = fields.find((f) => f.id === 'cpr/memo')!;
    expect(memo).toMatchObject({ kind: 'free-text', text: { min: 0, max: 140, ascii: false } });
    expect(memo.classes).toEqual([...CLASSES_OF_KIND['free-text'], 'derived.exact']);
    expect(fields.find((f) => f.id === 'lock-request/created_at')!.classes).toContain('signed.altered');
    expect(fields.find((f) => f.id === 'cpr/created_at')!.classes).not.toContain('derived.exact');
    // A presented cash-pack is judged on its form and its signature only.
    expect(fields.find((f) => f.id === 'renew-request/cash_pack/amount')!.classes).toEqual(['amount.non-canonical', 'signed.altered']);
    expect(fields.find((f) => f.id === 'cpr/end_to_end_id')!.text).toEqual({ min: 1, max: 35, ascii: true });
  });

  it('has unique ids and only classes of the catalogue', () => {
    expect(new Set(fields.map((f) => f.id)).size).toBe(fields.length);
    const known = new Set<string>(FIELD_CLASSES.map((c) => c.id));
    for (const f of fields) for (const c of f.classes) expect(known.has(c), `${f.id} ${c}`).toBe(true);
  });
});

describe('the coverage table', () => {
  const rows = coverageRows(PROPERTIES);

  it('leaves no (field, class) pair uncovered', () => {
    expect(rows.filter((r) => r.by.length === 0).map((r) => `${r.field.id} × ${r.class}`)).toEqual([]);
  });

  it('has no property claiming a pair the inventory does not have', () => {
    expect(strayCovers(PROPERTIES)).toEqual([]);
  });

  it('is the one README.md shows (npm run coverage-table rewrites it)', () => {
    expect(readmeWith(coverageMarkdown(rows)) === readReadme(), 'README.md Field coverage is stale: run npm run coverage-table').toBe(true);
  });

  it('flags a pair nothing covers', () => {
    const without = coverageRows(PROPERTIES.filter((p) => p.id !== 'PROP-APP-014'));
    expect(without.filter((r) => r.by.length === 0).map((r) => `${r.field.id} × ${r.class}`)).toEqual(['cpr × json.escaped-name', 'cpr × json.duplicate', 'cpr × json.bom']);
    expect(coverageMarkdown(without)).toContain('json.bom → **nothing**');
  });
});

describe('a property generates what it declares', () => {
  const env = { policy: { ...DEFAULT_POLICY } };
  const pairsOf = (value: unknown): string[] => {
    const items = (value as { items?: unknown }).items ?? value;
    // Only the catalogue's classes are coverage; a case may also ask for inputs of no class (an optional member sent as null).
    return [...new Set((items as { field: string | { id: string }; class: string; item?: unknown }[]).filter((i) => isFieldClass(i.class)).map((i) => `${typeof i.field === 'string' ? i.field : i.field.id} ${i.class}`))].sort();
  };

  it.each(['PROP-APP-010', 'PROP-PAYEE-010'])('%s: every case holds a member of every pair it covers, and no other', (id) => {
    const property = FIELD_PROPERTIES.find((p) => p.id === id)!;
    // http.problem is judged on the refusals of a case, not generated as an item of its own.
    const declared = (property.covers ?? []).filter((c) => c.class !== 'http.problem').map((c) => `${c.field} ${c.class}`).sort();
    for (const value of fc.sample(property.arbitrary(env), { seed: 7, numRuns: 3 })) expect(pairsOf(value)).toEqual(declared);
  });

  it('every field property declares what it covers, in a file of its own', () => {
    for (const p of FIELD_PROPERTIES) {
      expect(p.covers?.length ?? 0, p.id).toBeGreaterThan(0);
      expect(p.file, p.id).toMatch(/^harness\/properties\/field-classes\/[a-z-]+\.ts$/);
    }
  });
});
