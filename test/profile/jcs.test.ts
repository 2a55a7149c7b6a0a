import fc from 'fast-check';
import canonicalize from 'canonicalize';
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

  it('writes what the canonicalize package writes, and refuses what it refuses, for any value', () => {
    // The direct path for plain data must never differ from the package it stands in for.
    const outcome = (f: () => unknown) => {
      try {
        return { text: f() };
      } catch {
        return { refused: true };
      }
    };
    const odd = fc.constantFrom<unknown>(undefined, Number.NaN, -0, Infinity, Symbol('s'), () => 1, 10n, new Date(0), new Map([[1, 2]]), { toJSON: () => ({ b: 1, a: [2] }) }, 'a\ud800', '\udc00b', '\ud83d\ude00', [1, , 2], Object.create(null));
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.anything({ maxDepth: 2, withBigInt: true, withDate: true, withMap: true, withSet: true, withSparseArray: true, withTypedArray: true, withNullPrototype: true, withBoxedValues: true, withObjectString: true }), odd, tie('object'), tie('array')),
      object: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('a\ud800', 'toJSON', '\u00e9', '\ud83d\ude00')), tie('any'), { maxKeys: 4 }),
      array: fc.array(tie('any'), { maxLength: 4 }),
    })).any;
    fc.assert(
      fc.property(value, (v) => {
        expect(outcome(() => canonicalJson(v))).toEqual(outcome(() => {
          const text = canonicalize(v);
          if (text === undefined) throw new TypeError('no JSON representation');
          return text;
        }));
      }),
      { numRuns: 2000 },
    );
    const deep: unknown[] = [];
    let at = deep;
    for (let i = 0; i < 200; i++) at.push((at = []));
    expect(canonicalJson(deep)).toBe(canonicalize(deep));
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = { circular };
    expect(() => canonicalJson(circular)).toThrow(/Circular/);
  });

  it('refuses a lone surrogate rather than emitting ill-formed UTF-8', () => {
    expect(() => canonicalJson({ a: '\ud800' })).toThrow();
  });
});
