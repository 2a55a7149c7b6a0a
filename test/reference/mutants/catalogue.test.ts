// The mutant catalogue as data (reference/mutants.ts): enough mutants, stable
// names, every requirement family covered, every declared catcher a real
// requirement, and a fault site in the reference for every name.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAMILIES, findRequirement } from '../../../profile/registry.ts';
import { APP_FAULTS } from '../../../reference/faults/app.ts';
import { OPERATOR_FAULTS } from '../../../reference/faults/operator.ts';
import { PAYEE_FAULTS } from '../../../reference/faults/payee.ts';
import { MUTANTS, NO_FAULTS, describeMutants, faultsFor, isMutantName } from '../../../reference/mutants.ts';

const REFERENCE_DIR = new URL('../../../reference/', import.meta.url).pathname;

/** Every reference source except the catalogue itself. */
function referenceSources(dir = REFERENCE_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return referenceSources(path);
    return entry.name.endsWith('.ts') && entry.name !== 'mutants.ts' ? [readFileSync(path, 'utf8')] : [];
  });
}

const ROLE_PREFIX = { payee: 'payee-', 'paying-app': 'app-', operator: 'op-' } as const;

describe('the mutant catalogue', () => {
  it('holds at least 40 mutants with unique kebab-case names', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(40);
    const names = MUTANTS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)+$/);
  });

  it('names each mutant for its role (payee-, app-, op-), or ctl- for the test-control interface', () => {
    for (const m of MUTANTS) {
      if (m.name.startsWith('ctl-')) expect(m.family, m.name).toBe('test-control');
      else expect(m.name.startsWith(ROLE_PREFIX[m.role]), m.name).toBe(true);
    }
  });

  it('has at least one mutant in every requirement family', () => {
    const covered = new Set(MUTANTS.map((m) => m.family));
    expect(FAMILIES.filter((f) => !covered.has(f))).toEqual([]);
  });

  it('declares for each mutant at least one requirement that should catch it, each in the registry and not retired', () => {
    for (const m of MUTANTS) {
      expect(m.catches.length, m.name).toBeGreaterThan(0);
      expect(new Set(m.catches).size, m.name).toBe(m.catches.length);
      for (const id of m.catches) {
        const requirement = findRequirement(id);
        expect(requirement, `${m.name} declares ${id}`).toBeDefined();
        expect(requirement?.retired, `${m.name} declares retired ${id}`).not.toBe(true);
      }
    }
  });

  it('describes each fault in one sentence', () => {
    for (const m of MUTANTS) {
      expect(m.description.length, m.name).toBeGreaterThan(20);
      expect(m.description, m.name).not.toMatch(/\n/);
    }
  });

  it("says who must catch each mutant: the suite unless the entry names the fuzzer, and both kinds are there", () => {
    for (const m of MUTANTS) expect(['suite', 'fuzzer'], m.name).toContain(m.catcher);
    expect(MUTANTS.filter((m) => m.catcher === 'suite').length).toBeGreaterThanOrEqual(40);
    // Every role has faults nobody placed a check for, which only its fuzzer must find.
    expect(new Set(MUTANTS.filter((m) => m.catcher === 'fuzzer').map((m) => m.role))).toEqual(new Set(['operator', 'payee', 'paying-app']));
  });

  it('has a fault site in the reference for every mutant', () => {
    const sources = referenceSources().join('\n');
    const missing = MUTANTS.filter((m) => !sources.includes(`'${m.name}'`)).map((m) => m.name);
    expect(missing).toEqual([]);
  });
});

describe('faultsFor', () => {
  it('is NO_FAULTS without a name: nothing switched on', () => {
    expect(faultsFor(undefined)).toBe(NO_FAULTS);
    expect(MUTANTS.some((m) => NO_FAULTS.has(m.name))).toBe(false);
    expect(NO_FAULTS.active).toBeUndefined();
  });

  it('switches exactly the named fault on', () => {
    for (const m of MUTANTS) {
      const faults = faultsFor(m.name);
      expect(faults.active).toBe(m.name);
      expect(MUTANTS.filter((other) => faults.has(other.name)).map((other) => other.name)).toEqual([m.name]);
    }
  });

  it('answers hasAny for a list holding the fault switched on, and for no other', () => {
    const faults = faultsFor('op-replay-unchecked');
    expect(faults.hasAny(['payee-token-reusable', 'op-replay-unchecked'])).toBe(true);
    expect(faults.hasAny(['payee-token-reusable', 'op-replay-namespaces-split'])).toBe(false);
    expect(faults.hasAny([])).toBe(false);
    expect(NO_FAULTS.hasAny(MUTANTS.map((m) => m.name))).toBe(false);
  });

  it('rejects an unknown name with the list of valid ones', () => {
    expect(() => faultsFor('token-reusable')).toThrow(/unknown mutant "token-reusable".*payee-token-reusable/s);
    expect(() => faultsFor('')).toThrow(Error);
    expect(isMutantName('payee-token-reusable')).toBe(true);
    expect(isMutantName('constructor')).toBe(false);
  });
});

describe('the fuzzer mutants', () => {
  it('switches each fuzzer mutant on by the table of faulty parts of its role (reference/faults/), and no suite mutant', () => {
    const tables = { operator: OPERATOR_FAULTS, payee: PAYEE_FAULTS, 'paying-app': APP_FAULTS } as const;
    for (const m of MUTANTS.filter((m) => m.catcher === 'fuzzer')) expect(faultsFor(m.name).hasAny(tables[m.role]), m.name).toBe(true);
    const switched = [...OPERATOR_FAULTS, ...PAYEE_FAULTS, ...APP_FAULTS];
    expect(new Set(switched).size).toBe(switched.length);
    expect([...switched].sort()).toEqual(MUTANTS.filter((m) => m.catcher === 'fuzzer').map((m) => m.name).sort());
    // A suite mutant never opens a faulty part.
    for (const m of MUTANTS.filter((s) => s.catcher === 'suite')) expect(faultsFor(m.name).hasAny(switched), m.name).toBe(false);
  });
});

describe('describeMutants', () => {
  it('lists every mutant on its own line with its role, who must catch it and its description', () => {
    const lines = describeMutants().trimEnd().split('\n');
    expect(lines).toHaveLength(MUTANTS.length);
    MUTANTS.forEach((m, i) => {
      expect(lines[i]).toMatch(new RegExp(`^${m.name} +${m.role} +${m.catcher} +`));
      expect(lines[i]?.endsWith(m.description)).toBe(true);
    });
  });
});
