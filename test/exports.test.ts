// Nothing is exported that no other module uses, and no index file is dead: an
// export is a promise to other code, and one nobody takes hides dead code.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCES = ['harness', 'profile', 'reference', 'generators', 'bin', 'test'];

/** Exported for implementers of the module adapter (harness/ADAPTERS.md), who import them from outside the project. */
const PUBLIC = new Set(['harness/adapters/module.ts CreateRoleOptions', 'harness/adapters/module.ts ModuleHttpRequest', 'harness/adapters/module.ts ModuleHttpResponse', 'harness/adapters/module.ts ModuleHttpImplementation', 'harness/adapters/module.ts ModulePayingAppImplementation']);

const files = SOURCES.flatMap((dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mjs|js)$/.test(f))
    .map((f) => relative(ROOT, join(ROOT, dir, f))),
);
const text = new Map(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
const DECLARATION = /^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|function\*?|class|type|interface|enum|abstract class)\s+([A-Za-z_$][\w$]*)/gm;

describe('exports', () => {
  it('are each used by another module', () => {
    const unused: string[] = [];
    for (const [file, source] of text) {
      if (file.startsWith('test/')) continue;
      for (const [, name] of source.matchAll(DECLARATION)) {
        const word = new RegExp(`\\b${name!.replace(/\$/g, '\\$')}\\b`);
        const elsewhere = [...text].some(([other, t]) => other !== file && word.test(t));
        if (!elsewhere && !PUBLIC.has(`${file} ${name}`)) unused.push(`${file} ${name}`);
      }
    }
    expect(unused, 'drop the export (or the code, when nothing uses it)').toEqual([]);
  });

  it('leave no index file that nothing imports', () => {
    const indexes = files.filter((f) => !f.startsWith('test/') && f.endsWith('/index.ts'));
    expect(indexes.length).toBeGreaterThan(3);
    const dead = indexes.filter((index) => {
      return ![...text].some(([file, t]) => {
        if (file === index) return false;
        return [...t.matchAll(/from\s+'([^']+)'/g)].some(([, spec]) => spec!.startsWith('.') && join(dirname(file), spec!) === index);
      });
    });
    expect(dead.map((f) => `${f} (${dirname(f)})`)).toEqual([]);
  });
});

describe('layers (README "Architecture")', () => {
  const IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm;
  /** Where each file's relative imports (static and dynamic) land, as paths from the root. */
  const targetsOf = (file: string): string[] => [...text.get(file)!.matchAll(IMPORT)].map(([, from, dynamic]) => relative(ROOT, join(ROOT, dirname(file), (from ?? dynamic)!)));
  /** Where each file's relative imports land, as top-level folders. */
  const importsOf = (file: string): string[] => targetsOf(file).map((target) => target.split('/')[0]!);

  it.each([
    ['profile', ['profile']],
    ['reference', ['profile', 'reference']],
    ['generators', ['profile', 'generators']],
  ])('%s imports only from %j', (layer, allowed) => {
    const crossings = [...text.keys()]
      .filter((f) => f.startsWith(`${layer}/`))
      .flatMap((f) => importsOf(f).filter((top) => !allowed.includes(top) && !top.endsWith('.json')).map((top) => `${f} -> ${top}/`));
    expect(crossings).toEqual([]);
  });

  /**
   * The folders of harness/, bottom to top: each imports only from its own
   * layer and those below it (and from profile/, generators/, reference/).
   * `.` is the files directly in harness/ (errors, io, text, version).
   * properties/ and fuzz/ are one layer: the fuzzer generates documents from
   * the properties' field classes, and the paying application's properties
   * judge with the fuzzer's oracle.
   */
  const HARNESS_LAYERS: readonly (readonly string[])[] = [
    ['.'],
    ['adapters', 'crypto'],
    ['report'],
    ['stub'],
    ['target'],
    ['scenarios'],
    ['properties', 'fuzz'],
    ['runner'],
    ['certify', 'selftest', 'vectors', 'bench'],
    ['cli'],
  ];
  /** The harness folder a path is in (`.` for harness/*.ts), or undefined outside harness/. */
  const harnessFolder = (path: string): string | undefined => {
    const parts = path.split('/');
    if (parts[0] !== 'harness') return undefined;
    return parts.length > 2 ? parts[1] : '.';
  };
  const layerOf = (folder: string): number => HARNESS_LAYERS.findIndex((layer) => layer.includes(folder));
  /** Each import of a harness file that goes up, or into a folder with no layer. */
  const upward = (files: readonly string[]): string[] =>
    files.flatMap((file) => {
      const from = harnessFolder(file)!;
      return targetsOf(file).flatMap((target) => {
        const to = harnessFolder(target);
        if (to === undefined) return ['profile', 'generators', 'reference'].includes(target.split('/')[0]!) ? [] : [`${file} -> ${target} (outside the layers)`];
        return layerOf(from) < 0 || layerOf(to) < 0 || layerOf(to) > layerOf(from) ? [`${file} (${from}) -> ${target} (${to})`] : [];
      });
    });
  const harnessFiles = () => [...text.keys()].filter((f) => f.startsWith('harness/'));

  it('gives every folder of harness/ a layer', () => {
    const folders = readdirSync(join(ROOT, 'harness'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => layerOf(folder) < 0)).toEqual([]);
  });

  it('harness/ folders import only from their layer and those below', () => {
    expect(upward(harnessFiles())).toEqual([]);
  });

  it('would see a crossing (the check can fail)', () => {
    text.set('profile/zz-probe.ts', "import { x } from '../harness/errors.ts';\n");
    text.set('harness/report/zz-probe.ts', "const { runPlan } = await import('../runner/plan.ts');\n");
    try {
      expect(importsOf('profile/zz-probe.ts')).toEqual(['harness']);
      expect(upward(['harness/report/zz-probe.ts'])).toEqual(['harness/report/zz-probe.ts (report) -> harness/runner/plan.ts (runner)']);
    } finally {
      text.delete('profile/zz-probe.ts');
      text.delete('harness/report/zz-probe.ts');
    }
  });
});
