// tokenAlteration: a retrieval token altered the ways a careless lookup still
// matches (class token.altered): cut short at either end, extended, prefixed,
// in upper case, doubled; or replaced by a name a lookup in a plain object
// finds without any token (constructor, __proto__, ...). None is the token: a
// payee answers each as unknown
// and leaves the real token as it was. The alteration is data, applied with
// alterToken once the payee has handed the token out.
import fc from 'fast-check';
import { matching } from '../parts/deferred.ts';
import { BUILT_IN_NAMES } from '../parts/built-in-names.ts';
import type { ClassValue } from './catalogue.ts';

export type TokenAlteration =
  | { readonly kind: 'cut-end' | 'cut-start'; readonly n: number }
  | { readonly kind: 'append' | 'prepend'; readonly text: string }
  | { readonly kind: 'twice' | 'upper-case' }
  | { readonly kind: 'object-name'; readonly text: string };


const hex = matching(/^[0-9a-f]{1,8}$/);

export function tokenAlteration(): fc.Arbitrary<TokenAlteration> {
  return fc.oneof(
    fc.record({ kind: fc.constantFrom('cut-end' as const, 'cut-start' as const), n: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constantFrom('append' as const, 'prepend' as const), text: hex }),
    fc.record({ kind: fc.constantFrom('twice' as const, 'upper-case' as const) }),
    fc.record({ kind: fc.constant('object-name' as const), text: fc.constantFrom(...BUILT_IN_NAMES) }),
  );
}

/** The token altered; a token without lower-case letters is doubled where upper case would change nothing. */
export function alterToken(token: string, alteration: TokenAlteration): ClassValue<string> {
  if (typeof token !== 'string' || token.length < 8) throw new RangeError('alterToken: the token must be a string of at least 8 characters');
  const label = (value: string, note: string): ClassValue<string> => ({ class: 'token.altered', value, note });
  switch (alteration.kind) {
    case 'cut-end':
      return label(token.slice(0, -alteration.n), `with its last ${alteration.n} character(s) cut`);
    case 'cut-start':
      return label(token.slice(alteration.n), `with its first ${alteration.n} character(s) cut`);
    case 'append':
      return label(`${token}${alteration.text}`, `with ${JSON.stringify(alteration.text)} appended`);
    case 'prepend':
      return label(`${alteration.text}${token}`, `with ${JSON.stringify(alteration.text)} prepended`);
    case 'upper-case':
      if (token.toUpperCase() !== token) return label(token.toUpperCase(), 'in upper case');
      return label(`${token}${token}`, 'written twice');
    case 'twice':
      return label(`${token}${token}`, 'written twice');
    case 'object-name':
      return label(alteration.text, `replaced by ${JSON.stringify(alteration.text)}, a name a plain object has without it`);
  }
}
