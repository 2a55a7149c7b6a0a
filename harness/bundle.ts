// Whether this process runs from the launcher's build of the sources
// (profile/build.ts says where it is), and what that means for the harness: a
// module adapter written in TypeScript needs a loader of its own.
import { BUNDLE_DIR } from '../profile/build.ts';

export { BUNDLE_DIR, keptInBuild } from '../profile/build.ts';

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
