import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseIJson } from '../../profile/ijson.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('I-JSON reading (RFC 7493, PROFILE.md §1)', () => {
  it.each([
    ['an object', '{"a":[1,-2.5e3,true,false,null,"x\\u00e9\\ud83d\\ude00"]}', { a: [1, -2500, true, false, null, 'xé😀'] }],
    ['white space around', ' \n{ "a" : 1 }\t', { a: 1 }],
    ['a scalar document', '"text"', 'text'],
    ['nesting at the limit', '['.repeat(32) + ']'.repeat(32), JSON.parse('['.repeat(32) + ']'.repeat(32))],
  ])('reads %s', (_name, text, value) => {
    expect(parseIJson(bytes(text))).toEqual(value);
  });

  it.each([
    ['a duplicate member name', '{"a":1,"a":2}'],
    ['a duplicate spelled with an escape', '{"a":1,"\\u0061":2}'],
    ['a nested duplicate', '{"x":{"k":1,"k":1}}'],
    ['a lone high surrogate escape', '"\\ud800"'],
    ['a lone low surrogate escape', '"\\udc00x"'],
    ['nesting past the limit', '['.repeat(33) + ']'.repeat(33)],
    ['trailing data', '{} {}'],
    ['a trailing comma', '[1,]'],
    ['single quotes', "{'a':1}"],
    ['a raw control character', '"a\u0001b"'],
    ['an invalid escape', '"\\x41"'],
    ['a leading zero', '01'],
    ['NaN', 'NaN'],
    ['a number out of double range', '1e400'],
    ['an empty document', ''],
    ['a byte order mark', '\ufeff{}'],
    ['a comment', '{"a":1 /* no */}'],
  ])('rejects %s', (_name, text) => {
    expect(() => parseIJson(bytes(text))).toThrow(JsonSyntaxError);
  });

  it('rejects invalid UTF-8', () => {
    expect(() => parseIJson(Uint8Array.from([0x22, 0xc3, 0x28, 0x22]))).toThrow(/UTF-8/);
  });

  it('names the offset of the problem', () => {
    expect(() => parseIJson('{"a":1,"a":2}')).toThrow(/duplicate member name "a" at offset 7/);
  });

  it('keeps a "__proto__" member as plain data', () => {
    const value = parseIJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
