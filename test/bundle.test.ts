// The launcher's build of the sources (bin/bundle.js), on a small project of
// its own: built once, reused while no source changes, built again when one
// does, never used when it cannot be built.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- the launcher is plain JavaScript, without declarations.
import { bundledMain } from '../bin/bundle.js';

const build = bundledMain as (root: string) => Promise<string | undefined>;
interface Compiled {
  readonly exports: Record<string, unknown>;
  readonly cached: boolean;
  save(): void;
}
const { runCompiled } = createRequire(import.meta.url)('../bin/compiled.cjs') as { runCompiled(file: string, use: string, flags?: string): Compiled };
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

function load(file: string): { bundleDir?: string; data: string; said: string } {
  return runCompiled(file, 'test').exports as { bundleDir?: string; data: string; said: string };
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the launcher build', () => {
  it('bundles main.ts and thread.ts into the cache; each module keeps its source location, and profile/build.ts says where the build is', async () => {
    const root = project();
    const file = await build(root);
    expect(file).toBeDefined();
    const dir = dirname(file!);
    expect(dir.startsWith(join(root, 'node_modules', '.cache', 'cpr-conformance'))).toBe(true);
    expect(readFileSync(join(dir, 'thread.cjs'), 'utf8')).toContain('thread = true');
    const main = load(file!);
    expect(main.data).toBe('beside the source\n');
    expect(main.said).toBe('first');
    expect(main.bundleDir).toBe(pathToFileURL(dir).href + '/');
  });

  it('is reused while no input changed, and built again, elsewhere, when one did', async () => {
    const root = project();
    const first = await build(root);
    // What a command runs is the cache: a change made to the build itself shows, so no second build happened.
    writeFileSync(first!, 'exports.said = "from the cache";\n');
    expect(await build(root)).toBe(first);
    expect(load(first!).said).toBe('from the cache');

    writeFileSync(join(root, 'harness/cli/word.ts'), "export const word: string = 'second';\n");
    const second = await build(root);
    expect(second).not.toBe(first);
    expect(load(second!).said).toBe('second');
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
    const firstDir = dirname(first!);
    utimesSync(firstDir, older, older);
    writeFileSync(join(root, 'harness/cli/word.ts'), "export const word: string = 'second';\n");
    const second = await build(root);
    expect(readdirSync(cache).sort()).toEqual(['current.json', 'in-use', 'recent', ...[firstDir, dirname(second!)].map((d) => d.split('/').at(-1)!)].sort());
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

  it('leaves the launcher running the sources through tsx when told to (CPR_CONFORMANCE_SOURCES=1), with the same answers', async () => {
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
    // A short command keeps the code V8 compiled for it beside the build (bin/compiled.cjs).
    const dir = dirname((await build(fileURLToPath(new URL('../', import.meta.url))))!);
    expect(readdirSync(dir)).toContainEqual(expect.stringMatching(/^main\.cjs\.list-[0-9a-f]{12}\.code$/));
    // Four commands in child processes, the first from sources tsx has not compiled yet (a clean clone's, or
    // sources changed since) and the first from a build the launcher makes again: beyond 20 s on a loaded machine.
  }, 90_000);

  it("builds the project's own sources; its command line runs from the build and keeps the suites it loaded there", async () => {
    const file = await build(fileURLToPath(new URL('../', import.meta.url)));
    expect(file).toBeDefined();
    const { main } = runCompiled(file!, 'test').exports as { main: (argv: string[], io: unknown) => Promise<number> };
    const list = async (argv: string[]) => {
      let out = '';
      const stdout = { write: (text: string) => ((out += text), true) };
      expect(await main(argv, { stdout, stderr: stdout, env: {} })).toBe(0);
      return out;
    };
    expect(await list(['list', '--help'])).toContain('Usage: cpr-conformance list');
    const first = await list(['list']);
    expect(readdirSync(dirname(file!)).filter((name) => /^suites-[0-9a-f]{32}\.json$/.test(name))).toHaveLength(1);
    expect(await list(['list'])).toBe(first);
    expect(first).toMatch(/\d+ scenario/);
  });
});

describe("the build's compiled code (bin/compiled.cjs)", () => {
  const COMPILED = fileURLToPath(new URL('../bin/compiled.cjs', import.meta.url));

  /** A built module of a project of its own, and the code files kept beside it. */
  async function built(files: Record<string, string> = {}): Promise<{ file: string; codeFiles: () => string[] }> {
    const file = (await build(project(files)))!;
    return { file, codeFiles: () => readdirSync(dirname(file)).filter((name) => name.endsWith('.code')).sort() };
  }

  /**
   * Runs the module in a process of its own (V8 also keeps what it compiled for
   * a source within a process, which would hide whether the kept code was used),
   * under V8 `flags` set at run time, saving its code when `save`. The process's
   * own arguments are the same for every call: they are part of the code's key.
   */
  const RUN = [
    'const [file, use, flags, save] = JSON.parse(process.argv[1]);',
    `const compiled = require(${JSON.stringify(COMPILED)});`,
    'if (flags) compiled.setV8Flags(flags);',
    'const c = compiled.runCompiled(file, use);',
    'if (save) c.save();',
    'console.log(JSON.stringify({ cached: c.cached, said: c.exports.said }));',
  ].join(' ');
  function run(file: string, use: string, options: { flags?: string; save?: boolean; nodeOptions?: string } = {}): { cached: boolean; said: string } {
    const args = JSON.stringify([file, use, options.flags ?? '', options.save === true]);
    const child = spawnSync(process.execPath, ['-e', RUN, args], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: options.nodeOptions ?? '' } });
    expect(child.status, child.stderr).toBe(0);
    return JSON.parse(child.stdout) as { cached: boolean; said: string };
  }

  it('is kept once saved, then used: a second run compiles nothing it ran before', async () => {
    const { file, codeFiles } = await built();
    expect(run(file, 'list')).toEqual({ cached: false, said: 'first' });
    expect(codeFiles()).toEqual([]);
    expect(run(file, 'list', { save: true })).toEqual({ cached: false, said: 'first' });
    expect(codeFiles()).toEqual([expect.stringMatching(/^main\.cjs\.list-[0-9a-f]{12}\.code$/)]);
    const kept = readFileSync(join(dirname(file), codeFiles()[0]!));
    // Used, and not written again: there was nothing to save.
    expect(run(file, 'list', { save: true })).toEqual({ cached: true, said: 'first' });
    expect(readFileSync(join(dirname(file), codeFiles()[0]!)).equals(kept)).toBe(true);
  });

  it('keeps one file per use and per set of V8 flags, which V8 would reject for another', async () => {
    const { file, codeFiles } = await built();
    run(file, 'list', { save: true });
    run(file, 'run', { save: true });
    run(file, 'run', { save: true, flags: '--interrupt-budget=270336' });
    expect(codeFiles()).toHaveLength(3);
    expect(run(file, 'run', { flags: '--interrupt-budget=270336' }).cached).toBe(true);
    expect(run(file, 'run').cached).toBe(true);
  });

  it("compiles as without it when the kept code is not V8's (damaged, or for another source), and keeps fresh code", async () => {
    const { file, codeFiles } = await built();
    run(file, 'run', { save: true });
    const codeFile = join(dirname(file), codeFiles()[0]!);
    const good = readFileSync(codeFile);
    const other = (await built({ 'harness/cli/word.ts': "export const word: string = 'other';\n" })).file;
    run(other, 'run', { save: true });
    const otherCode = readFileSync(join(dirname(other), readdirSync(dirname(other)).find((name) => name.endsWith('.code'))!));
    const flipped = Buffer.from(good);
    const middle = flipped.length >> 1;
    flipped.writeUInt8(flipped.readUInt8(middle) ^ 0xff, middle);
    for (const damaged of [Buffer.from('not code'), good.subarray(0, 100), Buffer.alloc(0), flipped, otherCode]) {
      writeFileSync(codeFile, damaged);
      expect(run(file, 'run', { save: true })).toEqual({ cached: false, said: 'first' });
      expect(run(file, 'run')).toEqual({ cached: true, said: 'first' });
    }
  });

  it('fails nothing when the code cannot be written: the next run compiles again', async () => {
    const { file } = await built();
    run(file, 'run', { save: true });
    const codeFile = join(dirname(file), readdirSync(dirname(file)).find((name) => name.endsWith('.code'))!);
    // A folder where the code file would be: it cannot be read, and the rename onto it fails.
    rmSync(codeFile);
    mkdirSync(codeFile);
    expect(run(file, 'run', { save: true })).toEqual({ cached: false, said: 'first' });
    expect(run(file, 'run')).toEqual({ cached: false, said: 'first' });
    expect(readdirSync(dirname(file)).filter((name) => name.includes('.code.'))).toEqual([]);
  });

  it('runs the build in strict mode, as the ES modules it is built from', async () => {
    const { file } = await built({ 'harness/cli/word.ts': "export const word: string = (() => { try { Object.freeze({ a: 1 }).a = 2; return 'sloppy'; } catch { return 'strict'; } })();\n" });
    expect(run(file, 'run').said).toBe('strict');
  });

  it('is not used with --enable-source-maps: Node maps stack traces only for modules its own loader loaded', async () => {
    const { file } = await built({ 'harness/cli/word.ts': "export const word: string = new Error('where').stack!.split('\\n')[1]!;\n" });
    expect(run(file, 'run', { nodeOptions: '--enable-source-maps', save: true })).toEqual({ cached: false, said: expect.stringMatching(/harness\/cli\/word\.ts:1:/) });
    expect(run(file, 'run', { nodeOptions: '--enable-source-maps' }).cached).toBe(false);
    expect(run(file, 'run').said).toMatch(/main\.cjs:\d+:/);
  });
});
