// Whether this process runs from the launcher's build of the sources
// (bin/bundle.js) or from the TypeScript sources themselves (through tsx, or
// vitest). In the build, this module is replaced by one that gives the build's
// folder; here, in the sources, there is none.
/** The folder of the build this process runs from; undefined when it runs from the sources. */
export const BUNDLE_DIR: URL | undefined = undefined;

let registered: Promise<void> | undefined;

/**
 * Makes TypeScript importable, as it is when the sources run through tsx: a
 * module adapter (harness/adapters/module.ts) may be a .ts file, or import
 * one. Nothing to do when the process runs from the sources.
 */
export function importableTypeScript(): Promise<void> {
  if (BUNDLE_DIR === undefined) return Promise.resolve();
  registered ??= import('tsx/esm/api').then((tsx) => {
    tsx.register();
  });
  return registered;
}
