// The Node version the README and package.json promise is one every installed
// dependency supports: `npm ci` on that Node raises no engine warning.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean; dev?: boolean }>;
};
const readme = readFileSync(new URL('README.md', root), 'utf8');

describe('the promised Node version', () => {
  const promised = semver.minVersion(pkg.engines.node)!;

  it('is what the README says', () => {
    expect(readme).toContain(`Node.js ${promised.major}.${promised.minor} or later`);
  });

  it('satisfies the engines of every package npm ci installs', () => {
    const unmet = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.optional && p.engines !== undefined && !Array.isArray(p.engines) && p.engines.node !== undefined)
      .filter(([, p]) => !semver.satisfies(promised, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')} needs node ${(p.engines as { node: string }).node}`);
    expect(unmet).toEqual([]);
  });
});
