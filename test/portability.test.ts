// The project's own tests are portable: none asserts on elapsed wall-clock time
// (the harness is bounded by its own deadlines, and the benchmark measures
// speed), and none reaches outside the checkout except through the one module
// that says what is missing when the third-party data is not there.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ISOLATED, SLOW } from '../vitest.config.ts';

const TEST_ROOT = fileURLToPath(new URL('./', import.meta.url));
const files = readdirSync(TEST_ROOT, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.(ts|mjs)$/.test(f))
  .map((f) => ({ name: relative(TEST_ROOT, join(TEST_ROOT, f)), text: readFileSync(join(TEST_ROOT, f), 'utf8') }));
const SELF = 'portability.test.ts';

describe('the tests themselves', () => {
  it('are found', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('never measure elapsed time to assert on it', () => {
    // A stopwatch is (performance|Date).now() taken twice; the only ones allowed set deadlines, never expectations.
    const stopwatches = files.filter((f) => f.name !== SELF && /(performance|Date)\.now\(\)\s*-\s*\w+/.test(f.text) && /expect\(/.test(f.text));
    const offenders = stopwatches.filter((f) => /expect\([^)]*(performance|Date)\.now\(\)\s*-|\.ms\)\.toBeLessThan|elapsed\)\.toBeLessThan/.test(f.text));
    expect(offenders.map((f) => f.name)).toEqual([]);
  });

  // Test files share their worker's modules (vitest.config.ts): a file that
  // replaces a module must run isolated, or the replacement would reach, or
  // miss, the files around it.
  it('that replace a module (vi.mock) are exactly the ones vitest.config.ts isolates', () => {
    const replacing = files.filter((f) => f.name !== SELF && /\bvi\.(mock|doMock)\(/.test(f.text)).map((f) => `test/${f.name.split('\\').join('/')}`);
    expect(replacing.sort()).toEqual([...ISOLATED].sort());
  });

  // npm test runs the fast tier, npm run test:slow the slow one (test/support/tiers.ts):
  // a name in SLOW that names no file would drop nothing and say nothing.
  it('of the slow tier are files that exist, each listed once', () => {
    const names = new Set(files.map((f) => `test/${f.name.split('\\').join('/')}`));
    expect(SLOW.filter((f) => !names.has(f))).toEqual([]);
    expect(new Set(SLOW).size).toBe(SLOW.length);
    expect(SLOW.filter((f) => ISOLATED.includes(f))).toEqual([]);
  });

  it('read data beside the checkout only through test/support/external-vectors.ts', () => {
    const outside = files.filter((f) => f.name !== SELF && f.name !== join('support', 'external-vectors.ts') && /\.\.\/shared\/|['"`]\.\.\/\.\.\/\.\.\/\.\.\/shared/.test(f.text.replace(/^\s*\/\/.*$/gm, '')));
    expect(outside.map((f) => f.name)).toEqual([]);
  });
});
