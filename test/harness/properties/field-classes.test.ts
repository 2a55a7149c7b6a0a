// The paying-application field properties hold against the reference
// application and fail against one with a fault in a class they generate,
// charging the rule it broke; the teardown of a property runs after its cases.
// (Against the embedded reference and its mutants, payee and operator
// properties included, the selftest proves the same: `cpr-conformance selftest
// --mutant NAME`.)
import { describe, expect, it } from 'vitest';
import { appTarget } from '../../support/app-target.ts';
import type { AppResult, CprInput, DerivationContext, PayingAppRole } from '../../../harness/adapters/types.ts';
import { FIELD_PROPERTIES } from '../../../harness/properties/field-classes/index.ts';
import { executeProperty, propertyRequirements } from '../../../harness/properties/execute.ts';
import type { PropertyDefinition } from '../../../harness/properties/types.ts';
import { parseTimestamp } from '../../../profile/time.ts';
import { faultsFor } from '../../../reference/mutants.ts';
import { createPayingApp } from '../../../reference/paying-app/index.ts';

/** The reference library as a module-adapter paying app (the harness speaks RFC 3339 for `now`). */
function app(mutant?: string): PayingAppRole {
  const library = createPayingApp({ clock: () => Date.UTC(2030, 0, 1), ...(mutant ? { faults: faultsFor(mutant) } : {}) });
  return {
    kind: 'module',
    description: mutant ?? 'reference',
    read: (input: CprInput) => library.read(input as never) as Promise<AppResult>,
    derive: async (cpr: unknown, context: DerivationContext) => {
      const now = typeof context.now === 'string' ? parseTimestamp(context.now) : undefined;
      return library.derive(cpr as never, { ...(context as object), ...(now !== undefined ? { now } : {}) } as never) as AppResult;
    },
    close: async () => undefined,
  };
}

const property = (id: string) => FIELD_PROPERTIES.find((p) => p.id === id)!;
// A seed whose ten cases reach each fault below (a rail_hint of another letter case on an ON_CHAIN request, for one).
const run = (def: PropertyDefinition, payingApp: PayingAppRole) => executeProperty(def, appTarget(payingApp), { seed: 1, runs: 10, levelOf: () => 'MUST', rerun: () => '' });

describe('the paying-application field properties', () => {
  it.each(['PROP-APP-010', 'PROP-APP-011', 'PROP-APP-012', 'PROP-APP-013', 'PROP-APP-014'])('%s holds against the reference application', async (id) => {
    const result = await run(property(id), app());
    expect(result.status, result.reason).toBe('passed');
  });

  it.each([
    ['PROP-APP-010', 'app-rail-hint-case-folded', 'DRV-VALID-1'],
    ['PROP-APP-011', 'app-validity-compared-in-seconds', 'DRV-VALID-1'],
    ['PROP-APP-012', 'app-reference-normalised', 'DRV-INTENT-1'],
    ['PROP-APP-012', 'app-payee-address-lowercased', 'DRV-SHAPE-1'],
    ['PROP-APP-013', 'app-payer-amount-compared-as-number', 'DRV-PARTIAL-1'],
    ['PROP-APP-014', 'app-file-bom-stripped', 'PRF-JSON-1'],
  ])('%s fails against %s, charging %s and leaving the rest not evaluated', async (id, mutant, requirement) => {
    const result = await run(property(id), app(mutant));
    expect(result.status).toBe('failed');
    const failed = result.checks.filter((c) => !c.passed).map((c) => c.requirement);
    expect(failed).toContain(requirement);
    // Every requirement the property can judge (its own and its charges) is either failed or not evaluated.
    expect(failed.length + (result.not_evaluated?.length ?? 0)).toBe(propertyRequirements(property(id)).length);
  });

  it('PROP-APP-011 judges in the time zone of each case, and puts the process TZ back', async () => {
    const before = process.env.TZ;
    const result = await run(property('PROP-APP-011'), app('app-expiry-local-time'));
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/judged in [A-Z][a-z]+\//);
    expect(process.env.TZ).toBe(before);
  });
});

describe('a property teardown', () => {
  it('runs once, after the last case, whatever the cases found', async () => {
    const calls: string[] = [];
    const def: PropertyDefinition = {
      ...property('PROP-APP-013'),
      id: 'PROP-TEST-001',
      check: async () => {
        calls.push('case');
        return calls.length === 2 ? { expected: 'x', actual: 'y', message: 'the second case fails' } : undefined;
      },
      teardown: async () => {
        calls.push('teardown');
      },
    };
    const result = await run(def, app());
    expect(result.status).toBe('failed');
    expect(calls.at(-1)).toBe('teardown');
    expect(calls.filter((c) => c === 'teardown')).toHaveLength(1);
  });
});
