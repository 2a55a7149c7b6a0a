// jsonTextVariant: the JSON text of a value written in the classes of
// PROFILE.md §1's I-JSON rule.
//
// | class             | the text                                                                      | I-JSON |
// |-------------------|-------------------------------------------------------------------------------|--------|
// | json.escaped-name | member names (at any depth) with some characters written as \u escapes        | yes: the same value |
// | json.duplicate    | one member (at any depth) written twice, the second name plain or escaped,     | no     |
// |                   | with the same or another value, before or after the first                      |        |
// | json.bom          | the text after a byte order mark (U+FEFF, EF BB BF in UTF-8)                  | no     |
import fc from 'fast-check';
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
  /** Extra members written into an object, before or after a member. */
  readonly extra?: { readonly object: Record<string, Json>; readonly key: string; readonly text: string; readonly before: boolean };
}

function write(value: Json, how: Writing): string {
  if (Array.isArray(value)) return `[${value.map((v) => write(v, how)).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  const members = Object.entries(value).flatMap(([k, v]) => {
    const own = `"${how.name(value, k)}":${write(v, how)}`;
    const extra = how.extra && how.extra.object === value && how.extra.key === k ? how.extra.text : undefined;
    return extra === undefined ? [own] : how.extra!.before ? [extra, own] : [own, extra];
  });
  return `{${members.join(',')}}`;
}

const plain = (_o: Record<string, Json>, key: string): string => JSON.stringify(key).slice(1, -1);

export function jsonTextVariant(constraints: JsonTextVariantConstraints): fc.Arbitrary<ClassValue<string>> {
  const { class: cls } = constraints;
  if (!isObject(constraints.value) || Object.keys(constraints.value).length === 0) throw new RangeError('jsonTextVariant: constraints.value must be an object with at least one member');
  const value = JSON.parse(JSON.stringify(constraints.value)) as Record<string, Json>;
  const all = objects(value);
  const pickMember = fc.tuple(fc.nat({ max: all.length - 1 }), fc.nat()).map(([o, m]) => {
    const object = all[o]!;
    const keys = Object.keys(object);
    return { object, key: keys[m % keys.length]!, depth: o };
  });
  switch (cls) {
    case 'json.bom':
      return fc.constant({ class: cls, value: `\ufeff${JSON.stringify(value)}`, note: 'a byte order mark before the text' });
    case 'json.escaped-name':
      return fc.tuple(fc.array(fc.boolean(), { minLength: 1, maxLength: 64 }), fc.boolean(), fc.nat()).map(([choices, whole, at]) => {
        let n = 0;
        let escaped = 0;
        const name = (_o: Record<string, Json>, key: string): string => {
          const escapeIt = choices[n++ % choices.length] || (n === 1 && !choices.includes(true));
          if (!escapeIt || key.length === 0) return plain(_o, key);
          escaped++;
          return whole ? escapeAll(key) : escapeOne(key, at);
        };
        const text = write(value, { name });
        return { class: cls, value: text, note: `${escaped} member name(s) written with \\u escapes` };
      });
    case 'json.duplicate':
      return fc.tuple(pickMember, fc.boolean(), fc.boolean(), fc.boolean(), fc.nat()).map(([{ object, key }, escapedName, sameValue, before, at]) => {
        const original = object[key]!;
        const other: Json = sameValue ? original : typeof original === 'string' ? `${original}x` : typeof original === 'number' ? original + 1 : isObject(original) ? {} : 'other';
        const dupName = escapedName && key.length > 0 ? escapeOne(key, at) : plain(object, key);
        const text = write(value, { name: plain, extra: { object, key, text: `"${dupName}":${write(other, { name: plain })}`, before } });
        return { class: cls, value: text, note: `member ${JSON.stringify(key)} twice (${escapedName ? 'the copy escaped' : 'plainly'}, ${sameValue ? 'the same' : 'another'} value, ${before ? 'before' : 'after'})` };
      });
    default:
      throw new RangeError(`jsonTextVariant: constraints.class must be json.escaped-name, json.duplicate or json.bom, got ${String(cls)}`);
  }
}
