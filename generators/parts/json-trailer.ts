// What follows a JSON document and makes the whole text no JSON text (RFC 8259
// §2: only space, tab, line feed and carriage return may surround a value):
// JSON white space or none, then a character that is not JSON white space
// (white space of other standards included) or a second value. A reader that
// cuts the text at its last brace, or parses a prefix, reads a document there.
// Internal: not re-exported from generators/index.ts.
import fc from 'fast-check';

const JSON_WHITE_SPACE = [' ', '\t', '\n', '\r'];

const AFTER: readonly { readonly text: string; readonly note: string }[] = [
  { text: 'x', note: 'a letter' },
  { text: ']', note: 'a closing bracket' },
  { text: '}', note: 'a closing brace' },
  { text: ',', note: 'a comma' },
  { text: '\u0000', note: 'a NUL' },
  { text: '{}', note: 'a second document' },
  { text: 'null', note: 'a second value' },
  { text: '\u00a0', note: 'a no-break space (not JSON white space)' },
  { text: '\u000b', note: 'a vertical tab (not JSON white space)' },
  { text: '\u000c', note: 'a form feed (not JSON white space)' },
  { text: '\u2028', note: 'a line separator (not JSON white space)' },
  { text: '\ufeff', note: 'a byte order mark' },
  { text: '// end', note: 'a comment' },
];

/** Text after a JSON document that makes it no JSON text: JSON white space, then something that is not. */
export const notJsonTrailer: fc.Arbitrary<{ readonly text: string; readonly note: string }> = fc
  .tuple(fc.array(fc.constantFrom(...JSON_WHITE_SPACE), { maxLength: 3 }), fc.constantFrom(...AFTER))
  .map(([space, after]) => ({ text: `${space.join('')}${after.text}`, note: `${space.length > 0 ? 'JSON white space, then ' : ''}${after.note}` }));
