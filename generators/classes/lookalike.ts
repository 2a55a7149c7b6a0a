// lookalikeString, lookalikeValue (class json.lookalike of catalogue.ts):
// strings that look like a value of another type, the strings a JSON reader
// with a reviver, a document store or a schema-less copy turns into dates,
// numbers, booleans or null and writes back otherwise. JSON gives them no
// type: a member that holds one (an extension's value, say) holds a string,
// and whoever carries it carries it as written. Each kind is generated, not
// listed: date-times of any instant in every fraction, zone and impossible-date
// form of timestamp.ts, bare dates and times, integers of any length (past
// 2^53, with leading zeros or a sign), decimals and exponents, hexadecimal, and
// the words of other types, with white space around them one time in four.
import fc from 'fast-check';
import { matching } from '../parts/deferred.ts';
import { timestampVariant } from './timestamp.ts';

/** Instants from 1970 to 9998, with the common ones near now more likely than the far ones. */
const instant = fc.oneof(fc.integer({ min: 0, max: Date.UTC(9998, 0, 1) }), fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }));

/** A date-time in any class of timestamp.ts (fractions of 1 to 9 digits, every zone and offset, impossible dates), or as toISOString writes it. */
const dateTime = instant.chain((at) =>
  fc.oneof(
    timestampVariant({ class: 'timestamp.fraction', kind: 'cpr', at }).map((v) => v.value),
    timestampVariant({ class: 'timestamp.offset', kind: 'cpr', at }).map((v) => v.value),
    timestampVariant({ class: 'timestamp.leap-second', kind: 'cpr', at }).map((v) => v.value),
    fc.constant(new Date(at).toISOString()),
    fc.constant(new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')),
  ),
);

/** A calendar date or a time of day alone. */
const dateOrTime = instant.chain((at) => {
  const iso = new Date(at).toISOString();
  return fc.constantFrom(iso.slice(0, 10), iso.slice(11, 19), iso.slice(11, 23));
});

/** Numbers written as text: integers of any length (beyond 2^53 too), signed, with leading zeros, decimals, exponents, hexadecimal, and the non-finite words. */
const numeric = fc.oneof(
  fc.bigInt({ min: -(2n ** 128n), max: 2n ** 128n }).map(String),
  fc.constantFrom(String(2 ** 53), String(2 ** 53 + 1), '9007199254740993', '-0', '0', '00', '007', '+1'),
  matching(/^-?[0-9]{1,20}\.[0-9]{1,20}$/),
  matching(/^-?[0-9]{1,3}(\.[0-9]{1,3})?[eE][+-]?[0-9]{1,3}$/),
  matching(/^0[xX][0-9a-fA-F]{1,16}$/),
  fc.constantFrom('NaN', 'Infinity', '-Infinity'),
);

/** The words JSON or JavaScript give another type. */
const word = fc.constantFrom('true', 'false', 'null', 'undefined', 'True', 'NULL', 'yes', 'no', 'on', 'off');

/** A string that looks like a date, a number or another type's word, sometimes with white space around it. */
export const lookalikeString: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: dateTime }, { weight: 1, arbitrary: dateOrTime }, { weight: 3, arbitrary: numeric }, { weight: 1, arbitrary: word }),
    fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.tuple(fc.constantFrom(' ', '\t', '\n'), fc.boolean()) }),
  )
  .map(([text, space]) => (space === undefined ? text : space[1] ? `${space[0]}${text}` : `${text}${space[0]}`));

/** A lookalike string alone, in an array, or as the members of an object. */
export const lookalikeValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: lookalikeString },
  { weight: 1, arbitrary: fc.array(lookalikeString, { minLength: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(matching(/^[a-z_]{1,12}$/), lookalikeString, { minKeys: 1, maxKeys: 3, noNullPrototype: true }) },
);
