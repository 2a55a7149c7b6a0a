// Whether this process runs from the launcher's build of the sources
// (bin/bundle.js) or from the TypeScript sources themselves (through tsx, or
// vitest), and what a command keeps in that build for the next. In the build,
// the one declaration below gives the build's folder; in the sources there is
// none. It lives in profile/, the layer every other imports (the reference's
// thread keeps its compiled validators here too).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

/** The folder of the build this process runs from; undefined when it runs from the sources. */
export const BUNDLE_DIR: URL | undefined = undefined;

/**
 * `compute()`, kept in the build's folder for the next command: a value that
 * depends only on the build's code and on the files `inputs` (read at run
 * time: YAML, JSON), and is plain JSON. The entry is named by the digest of the
 * inputs' paths and contents, so a changed input is computed again, and a new
 * build (any source changed) starts with none. A value JSON would not give back
 * as it is (undefined members, non-finite numbers) is never kept. From the
 * sources, and whenever the folder cannot be read or written, it is computed.
 * One entry per `kind`: the one before is removed when another is written.
 * `dir` is the build's folder (tests give one of their own).
 */
export function keptInBuild<T>(kind: string, inputs: readonly string[], compute: () => T, dir: URL | undefined = BUNDLE_DIR): T {
  if (dir === undefined) return compute();
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(`\0${input}\0`).update(readFileSync(input));
  const name = `${kind}-${hash.digest('hex').slice(0, 32)}.json`;
  const file = new URL(name, dir);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    // Not kept yet (or unreadable): computed below.
  }
  const value = compute();
  const text = JSON.stringify(value);
  if (text === undefined || !isDeepStrictEqual(JSON.parse(text), value)) return value;
  try {
    const partial = new URL(`${name}.${process.pid}`, dir);
    writeFileSync(partial, text);
    renameSync(partial, file);
    for (const other of readdirSync(dir)) {
      if (other.startsWith(`${kind}-`) && other !== name) rmSync(new URL(other, dir), { force: true });
    }
  } catch {
    // A read-only build is used as it is.
  }
  return value;
}
