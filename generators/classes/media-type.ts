// mediaTypeVariant: Content-Type values for a JSON request body (class
// http.media-type). PROFILE.md §1: application/json, parameters such as
// charset=utf-8 allowed; media types are case-insensitive (RFC 9110 §8.3.1),
// so every spelling of application/json is accepted and anything else is 415.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export interface MediaTypeVariantConstraints {
  /** true: spellings of application/json; false: other media types. */
  readonly json: boolean;
}

const flip = fc.array(fc.boolean(), { minLength: 16, maxLength: 16 });
const cased = (text: string, flips: readonly boolean[]): string => [...text].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');

export function mediaTypeVariant(constraints: MediaTypeVariantConstraints): fc.Arbitrary<ClassValue<string>> {
  const { json } = constraints;
  if (typeof json !== 'boolean') throw new RangeError(`mediaTypeVariant: constraints.json must be a boolean, got ${String(json)}`);
  if (json) {
    return fc
      .tuple(flip, fc.constantFrom('', '; charset=utf-8', ';charset=UTF-8', '; charset="utf-8"', ' ; charset=utf-8', '; Charset=UTF-8', '; charset=utf-8; foo=bar'))
      .map(([flips, params]) => {
        const value = `${cased('application/json', flips)}${params}`;
        return { class: 'http.media-type' as const, value, note: `Content-Type ${value}` };
      });
  }
  return fc
    .tuple(flip, fc.constantFrom('text/plain', 'application/jsonx', 'application/json-patch+json', 'application/problem+json', 'application/x-www-form-urlencoded', 'application/ld+json', 'text/json', 'application', 'json', 'x-application/json', 'text/plain; profile=application/json'))
    .map(([flips, type]) => {
      const value = cased(type, flips);
      return { class: 'http.media-type' as const, value, note: `Content-Type ${value}` };
    });
}
