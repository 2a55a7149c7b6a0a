// Test files share their worker's modules (vitest.config.ts): a file that
// replaces a module must run isolated, or the replacement would reach, or miss,
// the files around it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../vitest.config.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

describe('per-file isolation', () => {
  it('is given to exactly the test files that replace a module', () => {
    const replacing = testFiles(join(ROOT, 'test'))
      .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file).split('\\').join('/'))
      .filter((file) => file !== 'test/isolation.test.ts');
    expect(replacing.sort()).toEqual([...ISOLATED].sort());
  });
});
