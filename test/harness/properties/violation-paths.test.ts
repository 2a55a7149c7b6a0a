// unlocatedPaths: a CPR_INVALID violation's path must point where its rule broke
// (PROFILE.md §8.3, RFC 6901), or beneath a missing member there.
import { describe, expect, it } from 'vitest';
import { unlocatedPaths } from '../../../harness/properties/support.ts';

const DOC = { 'meta/v2': 'x', '~note': 'x', payee: { rail_address: {} }, extensions: { 'com.example/checkout': { items: [{ payer: 'Jane' }] } } };
const at = (path: unknown, requirement = 'PRF-CPR-1') => [{ requirement, path }];

describe('unlocatedPaths', () => {
  it.each([
    ['the member itself, its names escaped', '/meta~1v2', '/meta~1v2'],
    ['a member whose name holds a tilde', '/~0note', '/~0note'],
    ['the document', '', '/meta~1v2'],
    ['a member in an array', '/extensions/com.example~1checkout/items/0/payer', '/extensions/com.example~1checkout/items/0/payer'],
    ['a missing member, its object there', '/payee/rail_address/iban', '/payee/rail_address'],
    ['beneath a missing member, where the rule broke', '/payee/rail_address/iban/x', '/payee/rail_address/iban'],
    ['another member that is there (a rule between two members)', '/payee', '/meta~1v2'],
  ])('takes %s', (_name, path, where) => {
    expect(unlocatedPaths(DOC, at(path), 'PRF-CPR-1', where)).toEqual([]);
  });

  it.each([
    ['a name whose "/" is left unescaped', '/meta/v2', '/meta~1v2'],
    ['a name whose "~" is left unescaped', '/~note', '/~0note'],
    ['an unescaped name on the way', '/extensions/com.example/checkout/items/0/payer', '/extensions/com.example~1checkout/items/0/payer'],
    ['an index past the array', '/extensions/com.example~1checkout/items/1/payer', '/extensions/com.example~1checkout/items/0/payer'],
    ['no pointer at all', 'value.amount', '/value/amount'],
    ['no path', undefined, '/value/amount'],
  ])('refuses %s', (_name, path, where) => {
    expect(unlocatedPaths(DOC, at(path), 'PRF-CPR-1', where)).toEqual([path]);
  });

  it('judges only the violations of the rule broken', () => {
    expect(unlocatedPaths(DOC, at('/meta/v2', 'CPR-EXT-1'), 'PRF-CPR-1', '/meta~1v2')).toEqual([]);
  });
});
