// The launcher's build of the sources (bin/bundle.js), on a small project of
// its own: built once, reused while no source changes, built again when one
// does, never used when it cannot be built.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- the launcher is plain JavaScript, without declarations.
import { bundledMain } from '../bin/bundle.js';

const build = bundledMain as (root: string) => Promise<string | undefined>;
const roots: string[] = [];

/** A project with the two entry points the build bundles; `main` reads a data file beside its own source. */
function project(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'cpr-bundle-'));
  roots.push(root);
  const all: Record<string, string> = {
    'package.json': '{ "type": "module" }\n',
    'tsconfig.json': '{}\n',
    'profile/build.ts': 'export const BUNDLE_DIR: URL | undefined = undefined;\n',
    'harness/data.txt': 'beside the source\n',
    'harness/cli/main.ts': [
      "import { readFileSync } from 'node:fs';",
      "import { BUNDLE_DIR } from '../../profile/build.ts';",
      "import { word } from './word.ts';",
      'export const bundleDir: string | undefined = BUNDLE_DIR?.href;',
      "export const data: string = readFileSync(new URL('../data.txt', import.meta.url), 'utf8');",
      'export const said: string = word;',
      '',
    ].join('\n'),
    'harness/cli/word.ts': "export const word: string = 'first';\n",
    'reference/thread.ts': 'export const thread = true;\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

async function load(url: string): Promise<{ bundleDir?: string; data: string; said: string }> {
  return (await import(url)) as { bundleDir?: string; data: string; said: string };
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the launcher build', () => {
  it('bundles main.ts and thread.ts into the cache; each module keeps its source location, and profile/build.ts says where the build is', async () => {
    const root = project();
    const url = await build(root);
    expect(url).toBeDefined();
    const dir = new URL('./', url);
    expect(fileURLToPath(dir).startsWith(join(root, 'node_modules', '.cache', 'cpr-conformance'))).toBe(true);
    expect(readFileSync(new URL('thread.js', dir), 'utf8')).toContain('thread = true');
    const main = await load(url!);
    expect(main.data).toBe('beside the source\n');
    expect(main.said).toBe('first');
    expect(main.bundleDir).toBe(dir.href);
  });

  it('is reused while no input changed, and built again, elsewhere, when one did', async () => {
    const root = project();
    const first = await build(root);
    // What a command runs is the cache: a change made to the build itself shows, so no second build happened.
    writeFileSync(fileURLToPath(first!), 'export const said = "from the cache";\n');
    expect(await build(root)).toBe(first);
    expect((await load(`${first!}?again`)).said).toBe('from the cache');

    writeFileSync(join(root, 'harness/cli/word.ts'), "export const word: string = 'second';\n");
    const second = await build(root);
    expect(second).not.toBe(first);
    expect((await load(second!)).said).toBe('second');
    // tsconfig.json is an input though nothing imports it.
    writeFileSync(join(root, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
    expect(await build(root)).not.toBe(second);
  });

  it('removes a superseded build once nothing was written in it for ten minutes and no live process runs from it', async () => {
    const root = project();
    const first = await build(root);
    const cache = join(root, 'node_modules', '.cache', 'cpr-conformance');
    const older = Date.now() / 1000 - 3600;
    const superseded = (name: string, user?: number) => {
      mkdirSync(join(cache, name));
      if (user !== undefined) writeFileSync(join(cache, name, `.user-${user}`), '');
      utimesSync(join(cache, name), older, older);
    };
    superseded('in-use', process.pid);
    superseded('abandoned');
    // A process that has ended: a child that has been waited for.
    superseded('left-by-the-dead', spawnSync(process.execPath, ['-e', '0']).pid);
    superseded('recent');
    utimesSync(join(cache, 'recent'), new Date(), new Date());
    // This process runs from the first build (it marked it): kept too, though it is superseded and old.
    const firstDir = fileURLToPath(new URL('./', first));
    utimesSync(firstDir, older, older);
    writeFileSync(join(root, 'harness/cli/word.ts'), "export const word: string = 'second';\n");
    const second = await build(root);
    expect(readdirSync(cache).sort()).toEqual(['current.json', 'in-use', 'recent', ...[firstDir, fileURLToPath(new URL('./', second))].map((d) => d.split('/').at(-2)!)].sort());
  });

  it('builds without tsconfig.json (an installed package has none), and again once there is one', async () => {
    const root = project();
    rmSync(join(root, 'tsconfig.json'));
    const first = await build(root);
    expect(first).toBeDefined();
    expect(await build(root)).toBe(first);
    writeFileSync(join(root, 'tsconfig.json'), '{}\n');
    expect(await build(root)).not.toBe(first);
  });

  it('gives nothing to run (the launcher then runs the sources through tsx) when the sources do not build', async () => {
    expect(await build(project({ 'harness/cli/word.ts': 'export const word: string = ;\n' }))).toBeUndefined();
    expect(await build(project({ 'profile/build.ts': 'export const BUNDLE_DIR = undefined;\n' }))).toBeUndefined();
    // Nowhere to write it: a file where the cache folder would be.
    expect(await build(project({ 'node_modules/.cache/cpr-conformance': 'not a folder\n' }))).toBeUndefined();
  });

  it('leaves the launcher running the sources through tsx when told to (CPR_CONFORMANCE_SOURCES=1), with the same answers', () => {
    const bin = fileURLToPath(new URL('../bin/cpr-conformance.js', import.meta.url));
    const cli = (args: string[], env: Record<string, string>) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
    const fromSources = { CPR_CONFORMANCE_SOURCES: '1' };
    expect(cli(['--version'], fromSources).stdout).toMatch(/\nruns from the TypeScript sources\n$/);
    expect(cli(['--version'], {}).stdout).toMatch(/\nruns from the launcher's build of the sources, .*\n$/);
    const sources = cli(['list', '--role', 'payee'], fromSources);
    const built = cli(['list', '--role', 'payee'], {});
    expect(sources.status, sources.stderr).toBe(0);
    expect(built.status, built.stderr).toBe(0);
    expect(sources.stdout).toMatch(/scenario\(s\) of/);
    expect(sources.stdout).toBe(built.stdout);
  });

  it("builds the project's own sources; its command line runs from the build and keeps the suites it loaded there", async () => {
    const url = await build(fileURLToPath(new URL('../', import.meta.url)));
    expect(url).toBeDefined();
    const { main } = (await import(url!)) as { main: (argv: string[], io: unknown) => Promise<number> };
    const list = async (argv: string[]) => {
      let out = '';
      const stdout = { write: (text: string) => ((out += text), true) };
      expect(await main(argv, { stdout, stderr: stdout, env: {} })).toBe(0);
      return out;
    };
    expect(await list(['list', '--help'])).toContain('Usage: cpr-conformance list');
    const first = await list(['list']);
    expect(readdirSync(new URL('./', url)).filter((name) => /^suites-[0-9a-f]{32}\.json$/.test(name))).toHaveLength(1);
    expect(await list(['list'])).toBe(first);
    expect(first).toMatch(/\d+ scenario/);
  });
});
