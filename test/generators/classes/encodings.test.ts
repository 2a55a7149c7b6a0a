// binaryVariant, jsonTextVariant, letterCaseVariant, mediaTypeVariant: each
// value is a member of its class, as the profile's own readers judge it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryVariant } from '../../../generators/classes/binary.ts';
import { jsonTextChoices, jsonTextVariant, writeJsonText } from '../../../generators/classes/json-text.ts';
import { letterCaseVariant } from '../../../generators/classes/letter-case.ts';
import { mediaTypeVariant } from '../../../generators/classes/media-type.ts';
import { decodeB64url } from '../../../profile/b64url.ts';
import { parseIJson } from '../../../profile/ijson.ts';

describe('binaryVariant', () => {
  it('is never the one strict encoding, and refuses text it cannot vary', () => {
    const text = Buffer.alloc(32, 0x5a).toString('base64url');
    for (const v of fc.sample(binaryVariant({ text }), { seed: 12, numRuns: 100 })) {
      expect(v.value).not.toBe(text);
      expect(decodeB64url(v.value)?.length, v.note).not.toBe(32);
    }
    expect(() => binaryVariant({ text: 'AAAA' })).toThrow(RangeError);
  });
});

describe('jsonTextVariant', () => {
  const value = { a: 1, b: { c: 'x', d: [{ e: true }] }, amount: '100' };

  it('json.escaped-name: the same value, some names escaped', () => {
    for (const v of fc.sample(jsonTextVariant({ class: 'json.escaped-name', value }), { seed: 13, numRuns: 100 })) {
      expect(parseIJson(v.value)).toEqual(value);
      expect(v.value).toMatch(/\\u00/);
    }
  });

  it('json.escaped-name: members in their own order, reversed in every object, or shuffled, the value the same', () => {
    const orders = new Set<string>();
    for (const v of fc.sample(jsonTextVariant({ class: 'json.escaped-name', value }), { seed: 15, numRuns: 100 })) {
      const parsed = parseIJson(v.value) as Record<string, unknown>;
      expect(parsed).toEqual(value);
      orders.add(`${Object.keys(parsed).join(',')}|${Object.keys(parsed.b as object).join(',')}`);
    }
    expect(orders.has('a,b,amount|c,d')).toBe(true);
    expect(orders.has('amount,b,a|d,c')).toBe(true);
    // A shuffle too: some order that is neither.
    expect(orders.size).toBeGreaterThan(2);
  });

  it('json.duplicate and json.bom: never I-JSON', () => {
    for (const cls of ['json.duplicate', 'json.bom'] as const) {
      for (const v of fc.sample(jsonTextVariant({ class: cls, value }), { seed: 14, numRuns: 100 })) expect(() => parseIJson(v.value), v.note).toThrow();
    }
  });

  it('refuses a value without members', () => {
    expect(() => jsonTextVariant({ class: 'json.bom', value: {} })).toThrow(RangeError);
    expect(() => writeJsonText({}, { class: 'json.bom' })).toThrow(RangeError);
  });

  it('writes the same text from the same choices, for any object: a duplicate lands in nested objects too', () => {
    const depths = new Set<number>();
    for (const choices of fc.sample(jsonTextChoices('json.duplicate'), { seed: 16, numRuns: 200 })) {
      const text = writeJsonText(value, choices);
      expect(writeJsonText(value, choices)).toEqual(text);
      expect(() => parseIJson(text.value), text.note).toThrow();
      // The same choices apply to another object: indices are taken modulo what it has.
      expect(() => parseIJson(writeJsonText({ only: 1 }, choices).value)).toThrow();
      const name = /member "([^"]+)"/.exec(text.note)![1]!;
      depths.add(['a', 'b', 'amount'].includes(name) ? 0 : 1);
    }
    expect([...depths].sort()).toEqual([0, 1]);
    expect(() => jsonTextChoices('json.other' as never)).toThrow(RangeError);
  });
});

describe('letterCaseVariant', () => {
  it('is the value in another letter case, never the value itself', () => {
    for (const v of fc.sample(letterCaseVariant({ class: 'enum.case', value: 'SEPA_CT' }), { seed: 15, numRuns: 100 })) {
      expect(v.value).not.toBe('SEPA_CT');
      expect(v.value.toUpperCase()).toBe('SEPA_CT');
    }
    expect(() => letterCaseVariant({ class: 'code.case', value: '123' })).toThrow(RangeError);
  });
});

describe('mediaTypeVariant', () => {
  it('json: application/json in some spelling; other: never application/json', () => {
    const essence = (t: string) => t.split(';')[0]!.trim().toLowerCase();
    for (const v of fc.sample(mediaTypeVariant({ json: true }), { seed: 16, numRuns: 100 })) expect(essence(v.value)).toBe('application/json');
    for (const v of fc.sample(mediaTypeVariant({ json: false }), { seed: 16, numRuns: 100 })) expect(essence(v.value)).not.toBe('application/json');
    expect(() => mediaTypeVariant({ json: 'yes' as never })).toThrow(RangeError);
  });
});
