// A Vite plugin that lets vitest run scenario files directly: each suites/**/*.yaml
// file becomes a test module that registers its scenarios with the runtime. This
// is what gives scenarios vitest's filtering, per-file --shard and reporters.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { PROJECT_ROOT } from '../scenarios/load.ts';

const RUNTIME = fileURLToPath(new URL('./runtime.ts', import.meta.url));

export function scenarioPlugin(): Plugin {
  return {
    name: 'cpr-conformance-scenarios',
    enforce: 'pre',
    transform(_code, id) {
      const file = id.split('?')[0]!;
      if (!/\.ya?ml$/.test(file)) return undefined;
      const path = relative(PROJECT_ROOT, file);
      return { code: `import { registerSuite } from ${JSON.stringify(RUNTIME)};\nregisterSuite(${JSON.stringify(file)}, ${JSON.stringify(path)});\n`, map: null };
    },
  };
}
