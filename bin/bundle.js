// The launcher's build of the TypeScript sources: esbuild bundles the command
// line (harness/cli/main.ts) and the embedded reference's thread
// (reference/thread.ts), with the packages they import, into two CommonJS
// modules that Node loads without a TypeScript loader. Through tsx, each of the
// ~350 source modules is resolved and transformed through a loader thread, in
// both threads, and each of the ~600 package files is found, read and
// (CommonJS) lexed on its own: about a second of every command's start.
// CommonJS, because V8 keeps compiled code between processes only for a
// script (bin/compiled.cjs runs them with it); the sources are ES modules in
// strict mode, and so is the build.
//
// The build is a cache, never a second source of truth. It lives in
// node_modules/.cache/cpr-conformance/ with the digest of every file it was
// built from, packages' files included (and of this file, esbuild's version,
// tsconfig.json and package.json); a command uses it only when every one of
// those files still has that digest, and builds it again (about a second) when
// one does not. When the build cannot be made or written (a read-only install,
// a syntax error), the launcher runs the sources through tsx as before, which
// reports any error itself.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Project files every build depends on, whatever it imports (esbuild reads them when they are there). */
const ALWAYS = ['package.json', 'tsconfig.json'];
/** The one module that differs in the build: it says where the build is. */
const BUNDLE_MARK = 'profile/build.ts';
const BUNDLE_DIR_IN_SOURCES = 'export const BUNDLE_DIR: URL | undefined = undefined;';
const BUNDLE_DIR_IN_BUILD = 'export const BUNDLE_DIR: URL | undefined = new URL("./", import.meta.url);';
/** What import.meta.url reads as in the build (a CommonJS module has no import.meta). */
const IMPORT_META_URL = '__cprImportMetaUrl';
/**
 * A superseded build is removed when no live process uses it (each command
 * leaves a `.user-<pid>` file in the build it runs from: a long fuzzing
 * campaign may still load a module of it, or start the reference's thread
 * again) and nothing has been written in it for this long (a command that chose
 * it is about to say so).
 */
const STALE_MS = 10 * 60 * 1000;

/**
 * The path of the build's command-line module (`main.cjs`; `thread.cjs` beside
 * it; bin/compiled.cjs runs them), built first when a source changed;
 * undefined when there is no usable build (the caller runs the sources through
 * tsx). `root` is the project's folder (tests build projects of their own).
 */
export async function bundledMain(root = ROOT) {
  const cache = join(root, 'node_modules', '.cache', 'cpr-conformance');
  try {
    const current = readCurrent(cache);
    const dir = current !== undefined && current.digest === digestOf(root, current.inputs) ? current.dir : await build(root, cache);
    using(join(cache, dir));
    return join(cache, dir, 'main.cjs');
  } catch {
    return undefined;
  }
}

function readCurrent(cache) {
  let data;
  try {
    data = JSON.parse(readFileSync(join(cache, 'current.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const valid = typeof data?.dir === 'string' && typeof data.digest === 'string' && Array.isArray(data.inputs) && data.inputs.every((p) => typeof p === 'string');
  return valid ? data : undefined;
}

/**
 * One digest over the builder (this file, esbuild's version) and the paths and
 * contents of `inputs` (project-relative, sorted): the contents in `read` when
 * given (what the build itself read: a file changed during the build then
 * makes the next command build again).
 */
function digestOf(root, inputs, read = new Map()) {
  const hash = createHash('sha256').update(builder());
  for (const input of inputs) hash.update(`\0${input}\0`).update(read.get(input) ?? contentOf(join(root, input)));
  return hash.digest('hex');
}

/** A file's bytes; a file that is not there (an installed package has no tsconfig.json; a source was deleted) as a mark no file has. */
function contentOf(path) {
  try {
    return readFileSync(path);
  } catch (error) {
    if (error.code === 'ENOENT') return '\0absent\0';
    throw error;
  }
}

let builderText;
function builder() {
  builderText ??= `${readFileSync(createRequire(import.meta.url).resolve('esbuild/package.json'), 'utf8')}\0${readFileSync(new URL(import.meta.url), 'utf8')}`;
  return builderText;
}

async function build(root, cache) {
  const { build: esbuild } = await import('esbuild');
  const tmp = join(cache, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(tmp, { recursive: true });
  const read = new Map();
  try {
    const result = await esbuild({
      absWorkingDir: root,
      entryPoints: { main: 'harness/cli/main.ts', thread: 'reference/thread.ts' },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // tsx starts a loader of its own from its files (harness/bundle.ts importableTypeScript).
      external: ['tsx', 'esbuild'],
      // Strict, as the ES modules it is built from; import.meta.url, where a module
      // does not say its own (a package's), is the build's, as in an ES module.
      banner: { js: `"use strict";\nvar ${IMPORT_META_URL} = require("node:url").pathToFileURL(__filename).href;` },
      define: { 'import.meta.url': IMPORT_META_URL },
      outExtension: { '.js': '.cjs' },
      outdir: tmp,
      // For NODE_OPTIONS=--enable-source-maps: stack traces that name the sources.
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent',
      plugins: [sourceLocations(root, tmp, read)],
    });
    const inputs = [...new Set([...ALWAYS, ...Object.keys(result.metafile.inputs).map((p) => p.split(sep).join('/'))])].sort();
    const digest = digestOf(root, inputs, read);
    const dir = digest.slice(0, 16);
    try {
      renameSync(tmp, join(cache, dir));
    } catch {
      // Another command built the same sources first: theirs is this one.
      rmSync(tmp, { recursive: true, force: true });
    }
    const pointer = join(cache, `current.json.${process.pid}`);
    writeFileSync(pointer, JSON.stringify({ dir, digest, inputs }));
    renameSync(pointer, join(cache, 'current.json'));
    prune(cache, dir);
    return dir;
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Each module keeps its own location: `import.meta.url` in a source file reads
 * as that file's URL (the sources find their data files, schemas and README
 * beside them), computed from the build's own location so that the project
 * folder may move. profile/build.ts is the one module that says where the
 * build is.
 */
function sourceLocations(root, outdir, read) {
  return {
    name: 'source-locations',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const source = relative(root, args.path).split(sep).join('/');
        read.set(source, text);
        if (source === BUNDLE_MARK) {
          if (!text.includes(BUNDLE_DIR_IN_SOURCES)) throw new Error(`${BUNDLE_MARK} no longer declares ${BUNDLE_DIR_IN_SOURCES}`);
          return { contents: text.replace(BUNDLE_DIR_IN_SOURCES, BUNDLE_DIR_IN_BUILD), loader: 'ts' };
        }
        const url = `new URL(${JSON.stringify(relative(outdir, args.path).split(sep).join('/'))}, import.meta.url).href`;
        return { contents: text.includes('import.meta.url') ? text.replaceAll('import.meta.url', url) : text, loader: 'ts' };
      });
    },
  };
}

/** Marks `dir` as used by this process until it exits. */
function using(dir) {
  const mark = join(dir, `.user-${process.pid}`);
  try {
    writeFileSync(mark, '');
    process.once('exit', () => rmSync(mark, { force: true }));
  } catch {
    // A build another user made, read-only here: used as it is, and never pruned from here either.
  }
}

function prune(cache, keep) {
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (name === keep || name === 'current.json') continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS && !inUse(path)) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another command meanwhile.
    }
  }
}

/** Whether a live process marked `path` (a build folder) as the one it runs from. */
function inUse(path) {
  if (!statSync(path).isDirectory()) return false;
  return readdirSync(path).some((name) => {
    const pid = /^\.user-(\d+)$/.exec(name)?.[1];
    if (pid === undefined) return false;
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch (error) {
      // EPERM: alive, another user's.
      return error.code === 'EPERM';
    }
  });
}
