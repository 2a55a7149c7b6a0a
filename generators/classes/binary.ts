// binaryVariant: encodings of a byte string that PROFILE.md §1's strict
// base64url refuses (class binary.non-canonical): each decodes, with a lenient
// decoder, to the same bytes or to bytes of another length.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export interface BinaryVariantConstraints {
  /** The strict base64url text to vary (a length of a valid encoding, not a multiple of 4 characters, e.g. 32 or 64 bytes). */
  readonly text: string;
}

const STRICT = /^[A-Za-z0-9_-]*$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function binaryVariant(constraints: BinaryVariantConstraints): fc.Arbitrary<ClassValue<string>> {
  const { text } = constraints;
  if (typeof text !== 'string' || !STRICT.test(text) || text.length % 4 === 0 || text.length % 4 === 1) {
    throw new RangeError('binaryVariant: constraints.text must be strict base64url whose length leaves unused bits (not a multiple of 4)');
  }
  const bytes = Buffer.from(text, 'base64url');
  const last = text.at(-1)!;
  // The unused bits of the last character: 4 when length % 4 is 2, 2 when it is 3.
  const unused = text.length % 4 === 2 ? 4 : 2;
  const withBits = ALPHABET[(ALPHABET.indexOf(last) & ~((1 << unused) - 1)) | 1]!;
  return fc
    .constantFrom<[string, string]>(
      [`${text}${'='.repeat(4 - (text.length % 4))}`, 'padded with ='],
      [bytes.toString('base64').replace(/=+$/, ''), 'the standard alphabet'],
      [`${text.slice(0, -1)}${withBits}`, 'non-zero unused bits in the last character'],
      [`${text.slice(0, 10)} ${text.slice(10)}`, 'white space inside'],
      [`${text}\n`, 'a trailing newline'],
      [text.slice(0, -1), 'one character short'],
      [`${text}A`, 'one character over'],
      [Buffer.concat([bytes, Buffer.from([0])]).toString('base64url'), 'one byte over'],
    )
    .map(([value, note]) => (value === text ? { value: `${text}${'='.repeat(4 - (text.length % 4))}`, note: 'padded with =' } : { value, note }))
    .map(({ value, note }) => ({ class: 'binary.non-canonical' as const, value, note }));
}
