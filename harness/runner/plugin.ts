// A Vite plugin that lets vitest run scenario files directly: each suites/**/*.yaml
// file becomes a test module that registers its scenarios with the runtime. This
// is what gives scenarios vitest's filtering, per-file --shard and reporters.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const RUNTIME = fileURLToPath(new URL('./runtime.ts', import.meta.url));

export function scenarioPlugin(): Plugin {
  return {
    name: 'cpr-conformance-scenarios',
    enforce: 'pre',
    transform(_code, id) {
      const file = id.split('?')[0]!;
      if (!/\.ya?ml$/.test(file)) return undefined;
      return { code: `import { registerSuite } from ${JSON.stringify(RUNTIME)};\nregisterSuite(${JSON.stringify(file)});\n`, map: null };
    },
  };
}
