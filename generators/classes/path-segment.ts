// pathSegment: a path segment where a resource takes an identifier, written as
// no identifier the resource holds (class path.segment): a percent sign not
// followed by two hex digits, percent-escapes of bytes that are not UTF-8
// (a decoder that undoes escapes throws or substitutes), well-formed escapes
// of other characters, and text that is no UUID, of lengths up to 2 000. A
// resource answers each with a 4xx problem, never a 5xx (PROFILE.md §11).
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';
import { notUtf8 } from '../parts/utf8.ts';

const hex = (bytes: readonly number[]): string => bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Around the escape, text a UUID could start or end with: a decoder meets the escape in the middle of an identifier. */
const around = fc.tuple(fc.constantFrom('', '0b5e', '9f0c1a2e-'), fc.constantFrom('', '-4d2e', '7'));

export function pathSegment(): fc.Arbitrary<ClassValue<string>> {
  const malformed = fc.tuple(around, fc.constantFrom('%', '%2', '%G0', '%ZZ', '%%', '%u00e9', '%-1')).map(([[before, after], escape]): ClassValue<string> => ({ class: 'path.segment', value: `${before}${escape}${after}`, note: `a percent sign not followed by two hex digits (${escape})` }));
  const notText = fc.tuple(around, notUtf8).map(([[before, after], bad]): ClassValue<string> => ({ class: 'path.segment', value: `${before}${hex(bad.bytes)}${after}`, note: `percent-escapes of bytes that are not UTF-8: ${bad.note}` }));
  const escaped = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((text): ClassValue<string> => ({ class: 'path.segment', value: encodeURIComponent(text), note: `${JSON.stringify(text)} percent-encoded` }));
  const long = fc.integer({ min: 37, max: 2000 }).map((n): ClassValue<string> => ({ class: 'path.segment', value: 'a'.repeat(n), note: `${n} letters, no UUID` }));
  return fc.oneof({ weight: 3, arbitrary: malformed }, { weight: 3, arbitrary: notText }, { weight: 2, arbitrary: escaped }, { weight: 1, arbitrary: long });
}
