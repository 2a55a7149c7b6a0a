#!/usr/bin/env node
// Launcher: runs the command from the build of the TypeScript sources
// (bundle.js: rebuilt whenever a source changed), or, when there is no usable
// build, from the sources themselves through tsx.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundledMain } from './bundle.js';

const { runCompiled, setV8Flags } = createRequire(import.meta.url)('./compiled.cjs');

// The fuzzer keeps each model run's state (worlds, exchanges, scripts) while it
// allocates fast; with V8's default 16 MB semi-spaces every young collection
// copies that state again. `fuzz`, and `bench` which measures it, run in a
// Node with larger semi-spaces (harness/bench/memory.ts starts its fuzzing
// child alike), unless the size was chosen on the command line or in NODE_OPTIONS.
const YOUNG_GENERATION = '--max-semi-space-size';
const FUZZER_NODE_FLAGS = [`${YOUNG_GENERATION}=128`];

const INTERRUPT_BUDGET = '--interrupt-budget';
/** The commands that end within seconds: a run, and what runs the suite or its vectors once. */
const SHORT_COMMANDS = new Set(['run', 'certify', 'replay', 'vectors', 'list', 'explain', 'coverage', 'compare', 'report', 'verify-package']);

const args = process.argv.slice(2);
/** Whether V8 or Node flag `name` was given on the command line or in NODE_OPTIONS. */
const usesFlag = (name) => [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flag) => new RegExp(`(^|\\s)${name}(=|\\s|$)`).test(flag));
if ((args[0] === 'fuzz' || args[0] === 'bench') && !usesFlag(YOUNG_GENERATION)) {
  const child = spawn(process.execPath, [...process.execArgv, ...FUZZER_NODE_FLAGS, fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
  // Signals sent to this process reach the command too (a terminal's Ctrl-C reaches both).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.once('error', (error) => {
    process.stderr.write(`cpr-conformance: could not start node for ${args[0]}: ${error.message}\n`);
    process.exit(2);
  });
  child.once('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
} else {
  // A command of a few seconds (a run against the embedded reference takes about
  // three) spends a second of its two cores' time on V8's optimizing compiler,
  // compiling functions the moment they look hot and running most of that code
  // only a few more times. With four times the interrupt budget of Node 20's V8
  // (67,584) a function is optimized only after four times as much work in it: in a full
  // run the compiler threads' time falls from about 1.8 s to 0.7 s and the run
  // takes about 0.5 s less (README "Performance"). Long commands keep V8's
  // default; a budget set on the command line or in NODE_OPTIONS is kept.
  const short = SHORT_COMMANDS.has(args[0]);
  if (short && !usesFlag(INTERRUPT_BUDGET)) setV8Flags(`${INTERRUPT_BUDGET}=${4 * 67_584}`);
  // CPR_CONFORMANCE_SOURCES=1: from the sources even when the build is usable (a debugger's breakpoints in the .ts files).
  const built = process.env.CPR_CONFORMANCE_SOURCES === '1' ? undefined : await bundledMain();
  if (built === undefined) (await import('tsx/esm/api')).register();
  // A short command's start is a good share of its time: it keeps the code V8 compiled for it (compiled.cjs).
  const compiled = built === undefined ? undefined : runCompiled(built, short ? args[0] : 'command');
  /** @type {typeof import('../harness/cli/main.ts')} */
  const { main } = compiled?.exports ?? (await import('../harness/cli/main.ts'));
  // The command writes to this process's streams and reads its environment; tests give main() their own.
  const code = await main(args, { stdout: process.stdout, stderr: process.stderr, env: process.env });
  // A short command that did its work (not a usage error) ran the functions worth keeping.
  if (short && code <= 1) compiled?.save();
  // Exit explicitly: a stray handle (an unreachable target's socket, say) must never
  // keep the command alive after it has decided its result.
  process.exit(code);
}
