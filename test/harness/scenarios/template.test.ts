import { describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { evaluate, FUNCTIONS, referencedNames, render, TemplateError } from '../../../harness/scenarios/template.ts';

const scope = { req: { token: 'ab', list: [1, { x: 'y' }] }, p: { max: '1000000', min: 60 }, now: 1_700_000_000 };

describe('scenario templates', () => {
  it.each([
    ['/cpr/${req.token}', '/cpr/ab'],
    ['${req.list}', [1, { x: 'y' }]],
    ['${req.list[1].x}', 'y'],
    ['${p.max + 1}', '1000001'],
    ['${p.max - 1000000}', '0'],
    ['${now + p.min - 1}', 1_700_000_059],
    ['${ts(now)}', '2023-11-14T22:13:20Z'],
    ['${iso(now * 1000 + 5)}', '2023-11-14T22:13:20.005Z'],
    ['${len(repeat("😀", 140))}', 140],
    ['${concat("a", 1, "b")}', 'ab'.replace('b', '1b')],
    ['count ${len(req.list)} items', 'count 2 items'],
    ['${b64url("hi")}', 'aGk'],
    ["${repeat('}', 3)}", '}}}'],
    ['${concat("{", req.token, "}")}', '{ab}'],
    ['${replace(req.token, "b", "c")}', 'ac'],
    ['${slice("😀abc", 0, 2)}', '😀a'],
    ['${share(p.max, 10)}', '100000'],
    ['${share("7", 3)}', '2'],
    ['${share("1", 10)}', '1'],
    ['${share(9, 10)}', '1'],
    [`\${share("${'9'.repeat(78)}", 10)}`, '9'.repeat(77)],
    ['${share(p.max, 10) * 3 + 1}', '300001'],
    ['${twice(req.list[1], "x")}', '{"x":"y","x":"y"}'],
    ['${twice(p, "min")}', '{"min":60,"max":"1000000","min":60}'],
    ['${fit(5, "abcdef", "abc")}', 'abc'],
    ['${fit(6, "abcdef", "abc")}', 'abcdef'],
    ['${fit(3, "ééé", "éé", "x")}', 'x'],
    ['${fit(1, "ab", "cd")}', 'cd'],
  ])('renders %s', (text, value) => {
    expect(render(text, scope)).toEqual(value);
  });

  it('renders nested objects and arrays', () => {
    expect(render({ a: ['${req.token}', { b: '${p.min}' }] }, scope)).toEqual({ a: ['ab', { b: 60 }] });
  });

  it.each([
    ['an undefined name', 'nope.x', /"nope" is not defined/],
    ['an unknown function', 'explode()', /unknown function explode/],
    ['arithmetic on text', 'req.token + 1', /cannot do arithmetic/],
    ['a member of nothing', 'req.missing.x', /cannot read "x" of undefined/],
    ['trailing input', 'now now', /unexpected trailing input/],
    ['a share of zero', 'share("0", 2)', /share\(\) cannot take "0", 2/],
    ['a share of a fraction', 'share("1.5", 2)', /share\(\) cannot take/],
    ['a share of a negative number', 'share(0 - 5, 2)', /share\(\) cannot take/],
    ['zero shares', 'share(p.max, 0)', /share\(\) cannot take "1000000", 0/],
    ['a share of nothing', 'share(p.none, 2)', /share\(\) cannot take undefined, 2/],
    ['a member an object does not have written twice', 'twice(p, "none")', /twice\(\) takes an object and the name of one of its members/],
    ['a list written with a member twice', 'twice(req.list, "0")', /twice\(\) takes an object/],
    ['a fit of nothing', 'fit(5)', /fit\(\) takes a number of bytes and one or more strings/],
  ])('refuses %s', (_name, expr, message) => {
    expect(() => evaluate(expr, scope)).toThrow(TemplateError);
    expect(() => evaluate(expr, scope)).toThrow(message);
  });

  it('names only the root names a template uses', () => {
    expect(referencedNames('${a.b + c} ${uuid()} ${d[e]}')).toEqual(['a', 'c', 'd', 'e']);
  });
});

describe('template functions for tokens and assets', () => {
  it('fixed_bits names the bits no token varies: none over random tokens, six for UUIDv4s written as hex', () => {
    const hex = () => Array.from(randomBytes(16)).map((b) => b.toString(16).padStart(2, '0')).join('');
    const random = Array.from({ length: 32 }, hex);
    expect(FUNCTIONS.fixed_bits!(random)).toEqual([]);
    const uuids = Array.from({ length: 32 }, () => randomUUID().replaceAll('-', ''));
    // The version nibble (bits 48-51, 0100) and the variant (bits 64-65, 10).
    expect(FUNCTIONS.fixed_bits!(uuids)).toEqual([48, 49, 50, 51, 64, 65]);
    expect(() => evaluate('fixed_bits(x)', { x: ['0123'] })).toThrow(TemplateError);
  });

  it('recoded_assets gives every other asset with a listed code, valid and unlisted, and push appends', () => {
    expect(FUNCTIONS.recoded_assets!([{ type: 'fiat', code: 'EUR' }])).toEqual([
      { type: 'stablecoin', code: 'EUR', chain_id: '1' },
      { type: 'crypto', code: 'EUR' },
      { type: 'tokenized', code: 'EUR', chain_id: '1' },
      { type: 'fiat', code: 'EUR', chain_id: '1' },
    ]);
    // A code that is no ISO 4217 code is never written as fiat; a chained asset moves to another chain.
    expect(FUNCTIONS.recoded_assets!([{ type: 'stablecoin', code: 'USDC', chain_id: '1' }])).toEqual([
      { type: 'crypto', code: 'USDC' },
      { type: 'tokenized', code: 'USDC', chain_id: '1' },
      { type: 'stablecoin', code: 'USDC', chain_id: '2' },
    ]);
    // What the policy lists is never offered as another asset.
    expect((FUNCTIONS.recoded_assets!([{ type: 'fiat', code: 'EUR' }, { type: 'crypto', code: 'EUR' }]) as unknown[]).map((a) => JSON.stringify(a))).not.toContain('{"type":"crypto","code":"EUR"}');
    expect(FUNCTIONS.push!([1], 2)).toEqual([1, 2]);
  });
});
