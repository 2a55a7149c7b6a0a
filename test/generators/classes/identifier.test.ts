import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identifierVariant } from '../../../generators/classes/identifier.ts';
import { isUuid } from '../../../profile/uuid.ts';

describe('identifierVariant', () => {
  it.each(['identifier.case', 'identifier.form'] as const)('%s: never a canonical lower-case UUID', (cls) => {
    fc.assert(
      fc.property(identifierVariant({ class: cls }), (v) => {
        expect(v.class).toBe(cls);
        expect(isUuid(v.value)).toBe(false);
      }),
      { seed: 1, numRuns: 200 },
    );
  });

  it('identifier.case: the id itself in another letter case', () => {
    const id = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
    for (const v of fc.sample(identifierVariant({ class: 'identifier.case', id }), { seed: 2, numRuns: 50 })) expect(v.value.toLowerCase()).toBe(id);
  });

  it('refuses a bad constraint when it is built', () => {
    expect(() => identifierVariant({ class: 'identifier.case', id: 'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D' })).toThrow(RangeError);
    expect(() => identifierVariant({ class: 'identifier.case', id: '12345678-1234-4123-8123-123456789012' })).toThrow(/letter/);
    expect(() => identifierVariant({ class: 'text.length' as never })).toThrow(RangeError);
  });
});
