import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaErrors } from '../../harness/vectors/schema.ts';
import { TEST_KEYS } from '../../harness/vectors/keys.ts';
import { loadRegistry } from '../../profile/registry.ts';
import { ALL_FILES, VECTORS } from './support.ts';

describe('published vector files', () => {
  it.each(ALL_FILES.map(({ kind, file }) => [kind, file] as const))('%s validates against vector.schema.json', (_kind, file) => {
    expect(schemaErrors(file)).toEqual([]);
  });

  it('hold at least 200 cases in all', () => {
    const total = ALL_FILES.reduce((n, { file }) => n + file.numberOfTests, 0);
    expect(total).toBeGreaterThanOrEqual(200);
  });

  it.each(ALL_FILES.map(({ kind, file }) => [kind, file] as const))('%s: tcIds are unique, numberOfTests is exact, every flag is explained', (_kind, file) => {
    const tests = file.testGroups.flatMap((g) => g.tests);
    const ids = tests.map((t) => t.tcId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(file.numberOfTests).toBe(tests.length);
    const flags = new Set(tests.flatMap((t) => t.flags));
    expect([...flags].filter((f) => !Object.hasOwn(file.notes, f))).toEqual([]);
    expect(Object.keys(file.notes).filter((f) => !flags.has(f))).toEqual([]);
  });

  it('name only requirement IDs that exist in the registry', () => {
    const known = new Set(loadRegistry().map((r) => r.id));
    const unknown = ALL_FILES.flatMap(({ kind, file }) =>
      file.testGroups.flatMap((g) => g.tests.flatMap((t) => [...t.requirements, ...(typeof (t['expected'] as { requirement?: unknown } | undefined)?.requirement === 'string' ? [(t['expected'] as { requirement: string }).requirement] : [])].filter((id) => !known.has(id)).map((id) => `${kind} #${t.tcId}: ${id}`))),
    );
    expect(unknown).toEqual([]);
  });

  it('cover both results in every pure kind and every sub-interface among valid CPRs', () => {
    for (const { kind, file } of ALL_FILES) {
      const results = new Set(file.testGroups.flatMap((g) => g.tests.map((t) => t.result)));
      if (kind !== 'retrieval-token' && kind !== 'replay') expect([kind, [...results].sort()]).toEqual([kind, ['invalid', 'valid']]);
    }
    const cpr = ALL_FILES.find((f) => f.kind === 'cpr-documents')!.file;
    const subs = new Set(cpr.testGroups.flatMap((g) => g.tests.map((t) => (t['expected'] as { sub_interface?: string }).sub_interface).filter(Boolean)));
    expect([...subs].sort()).toEqual(['ACCOUNT', 'IBAN', 'INSTANT_KEY', 'ON_CHAIN']);
  });

  it('publish each test key with its seed recipe, seed and public JWK in the README and the signature header', () => {
    const readme = readFileSync(new URL('README.md', VECTORS), 'utf8');
    const header = ALL_FILES.find((f) => f.kind === 'signatures')!.file.header.join('\n');
    for (const key of TEST_KEYS) {
      const seed = Buffer.from(key.seed).toString('hex');
      expect(readme).toContain(`\`${key.label}\` | \`${seed}\` | \`${key.jwk.x}\` | \`${key.jwk.kid}\``);
      expect(header).toContain(`SHA-256(ASCII "${key.label}") = ${seed}; public JWK ${JSON.stringify(key.jwk)}`);
    }
  });
});
