// identifierVariant: a UUID written in a form PROFILE.md §1 does not accept
// (classes identifier.case and identifier.form). Every value denotes, or
// nearly denotes, a canonical id, so a reader that folds case or strips
// decoration takes it for that id: the fault the class is about.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export interface IdentifierVariantConstraints {
  /** 'identifier.case' (upper or mixed case) or 'identifier.form' (braces, urn:, no hyphens, a digit short or over ...). */
  readonly class: 'identifier.case' | 'identifier.form';
  /** The canonical id to vary, lower-case with at least one letter. @defaultValue a generated version 4 UUID with a letter */
  readonly id?: string;
}

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A version 4 UUID with at least one hex letter, so that it has another letter case. */
export const lettered = fc.uuid({ version: 4 }).map((id) => (/[a-f]/.test(id) ? id : `a${id.slice(1)}`));

const FORMS: readonly [string, (id: string) => string][] = [
  ['in braces', (id) => `{${id}}`],
  ['as a URN', (id) => `urn:uuid:${id}`],
  ['without hyphens', (id) => id.replaceAll('-', '')],
  ['one digit short', (id) => id.slice(0, -1)],
  ['one digit over', (id) => `${id}0`],
  ['with hyphens moved', (id) => id.replaceAll('-', '').replace(/^(.{4})(.{4})(.{4})(.{4})(.{16})$/, '$1-$2-$3-$4-$5')],
  ['with white space', (id) => ` ${id}`],
  ['with a non-hex digit', (id) => `${id.slice(0, -1)}g`],
];

export function identifierVariant(constraints: IdentifierVariantConstraints): fc.Arbitrary<ClassValue<string>> {
  const { class: cls, id } = constraints;
  if (cls !== 'identifier.case' && cls !== 'identifier.form') throw new RangeError(`identifierVariant: constraints.class must be identifier.case or identifier.form, got ${String(cls)}`);
  if (id !== undefined && (!CANONICAL.test(id) || !/[a-f]/.test(id))) throw new RangeError(`identifierVariant: constraints.id must be a canonical lower-case UUID with a letter, got ${JSON.stringify(id)}`);
  const ids = id === undefined ? lettered : fc.constant(id);
  if (cls === 'identifier.case') {
    return fc.tuple(ids, fc.boolean(), fc.array(fc.boolean(), { minLength: 36, maxLength: 36 })).map(([canonical, upper, flips]) => {
      let value = upper ? canonical.toUpperCase() : [...canonical].map((c, i) => (flips[i] ? c.toUpperCase() : c)).join('');
      // At least one letter in upper case: otherwise the value is the id itself.
      if (value === canonical) value = canonical.replace(/[a-f]/, (c) => c.toUpperCase());
      return { class: cls, value, note: `${upper ? 'upper' : 'mixed'}-case ${value}` };
    });
  }
  return fc.tuple(ids, fc.constantFrom(...FORMS)).map(([canonical, [what, form]]) => ({ class: cls, value: form(canonical), note: `the id ${what}` }));
}
