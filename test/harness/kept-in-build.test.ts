// profile/build.ts keptInBuild: a value computed from files read at run time,
// kept in the launcher's build folder for the next command while those files
// do not change.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptInBuild } from '../../profile/build.ts';

let root: string;
let dir: URL;
let input: string;
let computed: number;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cpr-kept-'));
  dir = pathToFileURL(`${root}/`);
  input = join(root, 'input.yaml');
  writeFileSync(input, 'a: 1\n');
  computed = 0;
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const compute = <T>(value: T) => () => {
  computed++;
  return value;
};
const entries = (kind: string) => readdirSync(root).filter((name) => name.startsWith(`${kind}-`));

describe('keptInBuild', () => {
  it('computes once, and the next command reads what was kept, equal to it', () => {
    const value = { suites: [{ id: 'S-1', lines: [1, 2], nested: { text: 'é ✓', n: -0.5 } }] };
    expect(keptInBuild('suites', [input], compute(value), dir)).toBe(value);
    const again = keptInBuild('suites', [input], compute({ other: true }), dir);
    expect(computed).toBe(1);
    expect(again).toEqual(value);
    expect(entries('suites')).toHaveLength(1);
  });

  it('computes again when an input changed, keeping one entry per kind, and leaves other kinds alone', () => {
    keptInBuild('suites', [input], compute(1), dir);
    keptInBuild('registry', [input], compute(2), dir);
    writeFileSync(input, 'a: 2\n');
    expect(keptInBuild('suites', [input], compute(3), dir)).toBe(3);
    expect(computed).toBe(3);
    expect(entries('suites')).toHaveLength(1);
    expect(entries('registry')).toHaveLength(1);
    expect(keptInBuild('suites', [input], compute(4), dir)).toBe(3);
  });

  it('names the inputs by path as well as content', () => {
    const twin = join(root, 'twin.yaml');
    writeFileSync(twin, 'a: 1\n');
    keptInBuild('suites', [input], compute('from input'), dir);
    expect(keptInBuild('suites', [twin], compute('from twin'), dir)).toBe('from twin');
  });

  it('never keeps a value JSON would not give back as it is', () => {
    for (const value of [{ a: undefined }, { n: Number.NaN }, [Number.POSITIVE_INFINITY], { d: new Date(0) }]) {
      keptInBuild('odd', [input], compute(value), dir);
      expect(keptInBuild('odd', [input], compute(value), dir)).toBe(value);
    }
    expect(computed).toBe(8);
    expect(entries('odd')).toEqual([]);
  });

  it('computes again over an entry that cannot be read', () => {
    keptInBuild('suites', [input], compute({ ok: 1 }), dir);
    writeFileSync(join(root, entries('suites')[0]!), '{ torn');
    expect(keptInBuild('suites', [input], compute({ ok: 2 }), dir)).toEqual({ ok: 2 });
    expect(keptInBuild('suites', [input], compute({ ok: 3 }), dir)).toEqual({ ok: 2 });
  });

  it('computes every time without a build folder (the sources)', () => {
    keptInBuild('suites', [input], compute(1));
    keptInBuild('suites', [input], compute(1));
    expect(computed).toBe(2);
  });
});
