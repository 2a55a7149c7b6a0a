// jsonTextVariant: the JSON text of a value written in the classes of
// PROFILE.md §1's I-JSON rule.
//
// | class             | the text                                                                      | I-JSON |
// |-------------------|-------------------------------------------------------------------------------|--------|
// | json.escaped-name | member names (at any depth) with some characters written as \u escapes (where | yes: the same value |
// |                   | all are, string values' non-ASCII ones too, beyond the BMP as surrogate pairs), |        |
// |                   | the members of every object in their own order, reversed or shuffled          |        |
// | json.duplicate    | one member (at any depth) written twice, the second name plain or escaped,     | no     |
// |                   | with the same or another value, before or after the first                      |        |
// | json.bom          | the text after a byte order mark (U+FEFF, EF BB BF in UTF-8)                  | no     |
import fc from 'fast-check';
import { seededShuffler } from '../parts/shuffle.ts';
import type { ClassValue } from './catalogue.ts';

export interface JsonTextVariantConstraints {
  readonly class: 'json.escaped-name' | 'json.duplicate' | 'json.bom';
  /** The JSON value to write: an object with at least one member. */
  readonly value: Readonly<Record<string, unknown>>;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every object of the value, in document order (the root first). */
function objects(value: unknown, out: Record<string, Json>[] = []): Record<string, Json>[] {
  if (Array.isArray(value)) for (const item of value) objects(item, out);
  else if (isObject(value)) {
    if (Object.keys(value).length > 0) out.push(value);
    for (const child of Object.values(value)) objects(child, out);
  }
  return out;
}

const escapeAll = (name: string): string => [...name].map((c) => (c.codePointAt(0)! > 0xffff ? JSON.stringify(c).slice(1, -1) : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('');
const escapeOne = (name: string, at: number): string => {
  const chars = [...name];
  const i = at % chars.length;
  const c = chars[i]!;
  chars[i] = c.codePointAt(0)! > 0xffff ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return chars.map((ch, j) => (j === i ? ch : JSON.stringify(ch).slice(1, -1))).join('');
};

interface Writing {
  /** How to write a member name (its JSON string body, without quotes), by the object and the member's index. */
  readonly name: (object: Record<string, Json>, key: string) => string;
  /** The order an object's members are written in (RFC 8259 §4: an object is unordered); their own when absent. */
  readonly order?: (members: [string, Json][]) => [string, Json][];
  /** Extra members written into an object, before or after a member. */
  readonly extra?: { readonly object: Record<string, Json>; readonly key: string; readonly text: string; readonly before: boolean };
  /** How to write a string value (its whole JSON string, quotes included); JSON.stringify's way when absent. */
  readonly string?: (value: string) => string;
}

function write(value: Json, how: Writing): string {
  if (Array.isArray(value)) return `[${value.map((v) => write(v, how)).join(',')}]`;
  if (typeof value === 'string' && how.string) return how.string(value);
  if (!isObject(value)) return JSON.stringify(value);
  const members = (how.order ? how.order(Object.entries(value)) : Object.entries(value)).flatMap(([k, v]) => {
    const own = `"${how.name(value, k)}":${write(v, how)}`;
    const extra = how.extra && how.extra.object === value && how.extra.key === k ? how.extra.text : undefined;
    return extra === undefined ? [own] : how.extra!.before ? [extra, own] : [own, extra];
  });
  return `{${members.join(',')}}`;
}

const plain = (_o: Record<string, Json>, key: string): string => JSON.stringify(key).slice(1, -1);

/** A string value with every character outside ASCII written as a \u escape, one outside the BMP as its escaped surrogate pair (RFC 8259 §7): the same string. */
const escapedString = (value: string): string => JSON.stringify(value).replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The choices that make one member of a class, as plain data (a fuzzer's
 * command carries them, and they apply to any object: indices are taken
 * modulo what the value has).
 */
export type JsonTextChoices =
  | { readonly class: 'json.bom' }
  | { readonly class: 'json.escaped-name'; readonly escape: readonly boolean[]; readonly whole: boolean; readonly at: number; readonly order?: MemberOrder }
  | { readonly class: 'json.duplicate'; readonly object: number; readonly member: number; readonly escapedName: boolean; readonly sameValue: boolean; readonly before: boolean; readonly at: number };

/** The order members are written in: their own, reversed in every object, or shuffled by a seed (each object its own way). */
export type MemberOrder = 'own' | 'reversed' | { readonly shuffle: number };

const memberOrder: fc.Arbitrary<MemberOrder> = fc.oneof(fc.constantFrom<MemberOrder>('own', 'reversed'), fc.nat().map((shuffle): MemberOrder => ({ shuffle })));

/** Members put in `order`; a shuffle draws from one seeded stream for the whole text. */
function ordering(order: MemberOrder | undefined): ((members: [string, Json][]) => [string, Json][]) | undefined {
  if (order === undefined || order === 'own') return undefined;
  if (order === 'reversed') return (members) => [...members].reverse();
  return seededShuffler(order.shuffle);
}

/** The choices of one member of `cls`. */
export function jsonTextChoices(cls: JsonTextChoices['class']): fc.Arbitrary<JsonTextChoices> {
  switch (cls) {
    case 'json.bom':
      return fc.constant({ class: cls });
    case 'json.escaped-name':
      return fc.record({ escape: fc.array(fc.boolean(), { minLength: 1, maxLength: 64 }), whole: fc.boolean(), at: fc.nat(), order: memberOrder }).map((c) => ({ class: cls, ...c }));
    case 'json.duplicate':
      return fc.record({ object: fc.nat(), member: fc.nat(), escapedName: fc.boolean(), sameValue: fc.boolean(), before: fc.boolean(), at: fc.nat() }).map((c) => ({ class: cls, ...c }));
    default:
      throw new RangeError(`jsonTextChoices: the class must be json.escaped-name, json.duplicate or json.bom, got ${String(cls)}`);
  }
}

/** The text of `input` (an object with at least one member) written as the choices say. */
export function writeJsonText(input: Readonly<Record<string, unknown>>, choices: JsonTextChoices): ClassValue<string> {
  if (!isObject(input) || Object.keys(input).length === 0) throw new RangeError('writeJsonText: the value must be an object with at least one member');
  const value = JSON.parse(JSON.stringify(input)) as Record<string, Json>;
  switch (choices.class) {
    case 'json.bom':
      return { class: choices.class, value: `\ufeff${JSON.stringify(value)}`, note: 'a byte order mark before the text' };
    case 'json.escaped-name': {
      const { escape, whole, at } = choices;
      let n = 0;
      let escaped = 0;
      const name = (_o: Record<string, Json>, key: string): string => {
        const escapeIt = escape[n++ % escape.length] || (n === 1 && !escape.includes(true));
        if (!escapeIt || key.length === 0) return plain(_o, key);
        escaped++;
        return whole ? escapeAll(key) : escapeOne(key, at);
      };
      const order = choices.order ?? 'own';
      const reorder = ordering(order);
      // Where every character of a name is escaped, so is every character of a string value outside ASCII (a pair of escapes beyond the BMP).
      const text = write(value, { name, ...(reorder ? { order: reorder } : {}), ...(whole ? { string: escapedString } : {}) });
      return { class: choices.class, value: text, note: `${escaped} member name(s) written with \\u escapes${whole ? ', string values outside ASCII too' : ''}${order === 'own' ? '' : order === 'reversed' ? ', the members of every object in reverse order' : ', the members of every object shuffled'}` };
    }
    case 'json.duplicate': {
      const all = objects(value);
      const object = all[choices.object % all.length]!;
      const keys = Object.keys(object);
      const key = keys[choices.member % keys.length]!;
      const { escapedName, sameValue, before, at } = choices;
      const original = object[key]!;
      const other: Json = sameValue ? original : typeof original === 'string' ? `${original}x` : typeof original === 'number' ? original + 1 : isObject(original) ? {} : 'other';
      const dupName = escapedName && key.length > 0 ? escapeOne(key, at) : plain(object, key);
      const text = write(value, { name: plain, extra: { object, key, text: `"${dupName}":${write(other, { name: plain })}`, before } });
      return { class: choices.class, value: text, note: `member ${JSON.stringify(key)} twice (${escapedName ? 'the copy escaped' : 'plainly'}, ${sameValue ? 'the same' : 'another'} value, ${before ? 'before' : 'after'})` };
    }
  }
}

export function jsonTextVariant(constraints: JsonTextVariantConstraints): fc.Arbitrary<ClassValue<string>> {
  const { class: cls } = constraints;
  if (cls !== 'json.escaped-name' && cls !== 'json.duplicate' && cls !== 'json.bom') throw new RangeError(`jsonTextVariant: constraints.class must be json.escaped-name, json.duplicate or json.bom, got ${String(cls)}`);
  if (!isObject(constraints.value) || Object.keys(constraints.value).length === 0) throw new RangeError('jsonTextVariant: constraints.value must be an object with at least one member');
  return jsonTextChoices(cls).map((choices) => writeJsonText(constraints.value, choices));
}
