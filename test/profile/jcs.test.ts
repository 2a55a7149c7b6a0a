import fc from 'fast-check';
import { canonicalize as secondImplementation } from 'json-canonicalize';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalJson } from '../../profile/jcs.ts';
import { describeExternal, listExternal, readExternal } from '../support/external-vectors.ts';

describeExternal('RFC 8785 canonical JSON: the RFC\'s own test data', () => {
  const names = listExternal('jcs/input');

  it('finds the RFC 8785 test data', () => {
    expect(names.length).toBeGreaterThanOrEqual(6);
  });

  it.each(names)('canonicalizes %s byte for byte as the RFC data says', (name) => {
    const input = JSON.parse(readExternal(`jcs/input/${name}`));
    const expectedHex = readExternal(`jcs/outhex/${name.replace(/\.json$/, '.txt')}`).replace(/\s+/g, '');
    expect(Buffer.from(canonicalBytes(input)).toString('hex')).toBe(expectedHex);
    expect(canonicalJson(input)).toBe(readExternal(`jcs/output/${name}`));
  });
});

describe('RFC 8785 canonical JSON', () => {

  it('agrees with a second, independent implementation on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON.parse(JSON.stringify()) normalises -0 the way a parsed document would carry it.
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        expect(canonicalJson(parsed)).toBe(secondImplementation(parsed));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a lone surrogate rather than emitting ill-formed UTF-8', () => {
    expect(() => canonicalJson({ a: '\ud800' })).toThrow();
  });
});
