// Runs a module of the launcher's build (bin/bundle.js) with V8's code cache.
//
// Node 20 keeps no compiled code between processes for ES modules, so every
// command compiled the build's few megabytes of JavaScript again, and each
// function again the first time it ran: over a second of CPU in a full run, on
// both threads. The build is CommonJS, run here as a vm.Script with the code V8
// produced for it last time (`cachedData`): the functions a command ran then
// are not compiled again.
//
// The code is a cache. V8 uses it only under the same V8 version and flags,
// and rejects it otherwise (the module is then compiled as without it, and the
// code written again); of the source it checks only the length, and it does
// not check that the code is whole, so the file carries the digests of both,
// checked first. It is kept beside the module, one file per use (a command,
// the reference's thread) and per set of flags, so that commands and flags do
// not keep replacing each other's code. Code that cannot be read, written or
// used fails nothing: the module is compiled. With --enable-source-maps, the
// module is required as any other (Node maps stack traces only for what its
// own loader loaded), without the cache.
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');
const { setFlagsFromString } = require('node:v8');
const vm = require('node:vm');

/** The V8 flags set at run time in this process (setV8Flags): part of what the code was compiled under. */
let flagsSet = '';

/** Sets V8 flags at run time, and remembers them for the code cache's key. */
function setV8Flags(flags) {
  setFlagsFromString(flags);
  flagsSet = `${flagsSet} ${flags}`.trim();
}

/** The flags set at run time so far (a thread of this process runs under them too: reference-thread.ts passes them on). */
function v8FlagsSet() {
  return flagsSet;
}

/**
 * Runs `file`, a CommonJS module of the build, and returns its exports, with
 * `save()`, which writes the code V8 compiled for it so far when there was
 * none to use (call it once the work is done: the code then holds every
 * function that ran). `use` names what it is run for; `flags` are the V8
 * flags set at run time in the process (v8FlagsSet of the main thread, for a
 * worker).
 */
function runCompiled(file, use, flags = flagsSet) {
  // Node maps stack traces through the build's source maps (--enable-source-maps) only for modules its own loader loaded.
  if (process.sourceMapsEnabled) return { exports: require(file), cached: false, save() {} };
  const source = readFileSync(file);
  const sourceDigest = digestOf(source);
  const codeFile = `${file}.${use}-${keyOf(flags)}.code`;
  const cachedData = readCode(codeFile, sourceDigest);
  const script = new vm.Script(Module.wrap(source.toString('utf8')), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  let stale = cachedData === undefined || script.cachedDataRejected !== false;
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    /** Whether V8 used the code kept from an earlier run. */
    cached: !stale,
    save() {
      if (!stale) return;
      stale = false;
      const partial = `${codeFile}.${process.pid}-${Math.random().toString(36).slice(2)}`;
      try {
        const code = script.createCachedData();
        writeFileSync(partial, Buffer.concat([sourceDigest, digestOf(code), code]));
        renameSync(partial, codeFile);
      } catch {
        // A read-only build, or a full disk: the next command compiles as this one did.
        rmSync(partial, { force: true });
      }
    },
  };
}

/**
 * The code kept in `codeFile` for the source of digest `sourceDigest`, when it
 * is whole. V8 checks that code was made for its version and flags, but of the
 * source only its length, and not that the code's bytes are the ones it wrote
 * (damaged code can crash the process): the file begins with the SHA-256 of
 * the source it was compiled from, then that of the code. Undefined when there
 * is none, or none for this source, or none whole.
 */
function readCode(codeFile, sourceDigest) {
  let bytes;
  try {
    bytes = readFileSync(codeFile);
  } catch {
    return undefined;
  }
  const code = bytes.subarray(2 * DIGEST_LENGTH);
  const whole = code.length > 0 && sourceDigest.equals(bytes.subarray(0, DIGEST_LENGTH)) && digestOf(code).equals(bytes.subarray(DIGEST_LENGTH, 2 * DIGEST_LENGTH));
  return whole ? code : undefined;
}

const DIGEST_LENGTH = 32;

function digestOf(bytes) {
  return createHash('sha256').update(bytes).digest();
}

/** What V8 checks the code against, short: Node's version and every flag the process runs under. */
function keyOf(flags) {
  const under = [process.version, process.arch, ...process.execArgv, process.env.NODE_OPTIONS ?? '', flags].join('\0');
  return createHash('sha256').update(under).digest('hex').slice(0, 12);
}

module.exports = { runCompiled, setV8Flags, v8FlagsSet };
