// signatureLabel: a label for an HTTP Message Signature other than the profile's
// `cpp` (class http.signature-label, PROFILE.md §2.4 "The label is `cpp`"). The
// label is no part of the signature base (RFC 9421 §2.5), so a signature under
// any of them verifies; a verifier that reads whatever label comes, or compares
// it loosely, is met by the members: the labels RFC 9421's own examples use,
// `cpp` with letters before or after it, cut short or in other letter case, and
// any other dictionary key (RFC 8941 §3.2).
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

const PROFILE_LABEL = 'cpp';
const lcalpha = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
const keyChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_-.*');

export function signatureLabel(): fc.Arbitrary<ClassValue<string>> {
  const member = (value: string, note: string): ClassValue<string> => ({ class: 'http.signature-label', value, note });
  return fc
    .oneof(
      fc.constantFrom('sig1', 'sig-b21', 'sig', 'reqres').map((v) => member(v, "a label of RFC 9421's examples")),
      fc.array(keyChar, { minLength: 1, maxLength: 4 }).map((tail) => member(`${PROFILE_LABEL}${tail.join('')}`, 'cpp with characters after it')),
      fc.array(lcalpha, { minLength: 1, maxLength: 3 }).map((head) => member(`${head.join('')}${PROFILE_LABEL}`, 'cpp with letters before it')),
      fc.constantFrom('cp', 'pp', 'c', '*').map((v) => member(v, 'cpp cut short, or a wildcard')),
      fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }).map((flips) => {
        const upper = flips.some(Boolean) ? flips : [true, false, false];
        const v = [...PROFILE_LABEL].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        return member(v, 'cpp in other letter case');
      }),
      fc.tuple(fc.oneof(lcalpha, fc.constant('*')), fc.array(keyChar, { maxLength: 12 })).map(([first, rest]) => member(`${first}${rest.join('')}`, 'a dictionary key drawn at random')),
    )
    .filter((m) => m.value !== PROFILE_LABEL);
}
