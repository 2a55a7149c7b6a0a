// A step's parameters after rendering are read with their types checked: each
// reader takes what the vocabulary promises and refuses anything else as the
// scenario's defect (SCENARIO_INVALID, naming the parameter).
import { describe, expect, it } from 'vitest';
import { StepError } from '../../../harness/scenarios/context.ts';
import { Params } from '../../../harness/scenarios/params.ts';

const refusal = (read: () => unknown): string => {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).code).toBe('SCENARIO_INVALID');
    return (error as StepError).message;
  }
  throw new Error('read without complaint');
};

describe('Params', () => {
  const p = new Params('step', { s: 'x', n: 7, ds: '-12', big: '12345678901234567890', o: { a: 1 }, l: ['a', 'b'], b: true, r: 'operator', empty: '', arr: [1] });

  it('reads each kind of value it is given', () => {
    expect([p.text('s'), p.text('n'), p.text('b'), p.text('missing', 'optional')]).toEqual(['x', '7', 'true', undefined]);
    expect([p.key('s'), p.key('missing', 'optional')]).toEqual(['x', undefined]);
    expect([p.integer('n'), p.integer('ds'), p.integer('missing', 'optional')]).toEqual([7, -12, undefined]);
    expect([p.boolean('b'), p.boolean('missing')]).toEqual([true, undefined]);
    expect(p.object('o')).toEqual({ a: 1 });
    expect(p.nested('o')?.value('a')).toBe(1);
    expect(p.strings('l')).toEqual(['a', 'b']);
    expect([p.list('arr'), p.list('missing', 'optional')]).toEqual([[1], undefined]);
    expect([p.choice('r', ['operator', 'payee']), p.role('r'), p.oneOf('s', ['x'])]).toEqual(['operator', 'operator', 'x']);
  });

  it('refuses a value of the wrong type, naming the parameter and what it got', () => {
    expect(refusal(() => p.text('o'))).toBe('step: o rendered to {"a":1}, not a string: check the template that gives it');
    expect(refusal(() => p.text('missing'))).toMatch(/^step: missing rendered to nothing, not a string/);
    expect(refusal(() => p.key('empty'))).toMatch(/not a key name/);
    expect(refusal(() => p.integer('big'))).toMatch(/not a whole number/);
    expect(refusal(() => p.integer('s'))).toMatch(/not a whole number/);
    expect(refusal(() => p.boolean('s'))).toMatch(/not true or false/);
    expect(refusal(() => p.object('arr'))).toMatch(/not an object/);
    expect(refusal(() => p.strings('arr'))).toMatch(/not a list of strings/);
    expect(refusal(() => p.list('o'))).toMatch(/not a list: check/);
    expect(refusal(() => p.list('missing'))).toMatch(/rendered to nothing, not a list/);
    expect(refusal(() => p.choice('s', ['y', 'z']))).toMatch(/not one of y, z/);
    expect(refusal(() => p.oneOf('missing', ['y']))).toMatch(/rendered to nothing, not one of y/);
    expect(refusal(() => p.nested('o')!.text('missing'))).toMatch(/^step\.o: missing/);
    expect(refusal(() => Params.of('tamper: value', 'text'))).toMatch(/^tamper: value rendered to "text", not an object/);
  });
});
