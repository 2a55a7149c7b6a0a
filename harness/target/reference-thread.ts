// The embedded reference on a thread of its own (a node:worker_threads Worker
// running reference/thread.ts): its answers cost the harness's thread nothing, so
// on two cores the harness and the reference work at once. The harness talks to
// it over loopback HTTP, as to any target; this module only starts it, learns
// its URLs and CA from its first message, and closes it.
//
// Loading the reference's modules in a new thread takes a second or two, so a
// command that knows early that it will need the reference boots its thread
// first (bootReferenceThread): the thread loads while the harness loads its
// suites, and the start takes that thread; a closed reference leaves its
// thread waiting for the next start in this process. At most one thread waits.
//
// Every way a start can go wrong ends in HARNESS_REFERENCE_START_FAILED with the
// thread's own message: an error in startReference (an unknown mutant, a policy
// that is no policy), a thread that fails to load, dies or exits first, or no
// word within the start deadline. A thread never keeps the process alive while
// it waits or serves (unref): a harness that crashes or forgets to close it
// still exits.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { HarnessError } from '../errors.ts';
import { BUNDLE_DIR } from '../bundle.ts';
import type { ReferenceOptions } from '../../reference/start.ts';
import type { ThreadCommand, ThreadMessage } from '../../reference/thread.ts';
import type { CreateRoleOptions, ModulePayingAppImplementation } from '../adapters/module.ts';

/** Default deadline of a start: loading the TypeScript sources on a busy machine takes seconds. */
const REFERENCE_START_TIMEOUT_MS = 60_000;
/** How long a close waits for the reference to close its listeners before the thread is ended regardless. */
const CLOSE_GRACE_MS = 5_000;

export interface ThreadedReference {
  readonly url: string;
  readonly plaintextUrl: string | undefined;
  readonly ca: string;
  readonly mutant: string | undefined;
  /** The reference's one clock, shared with this thread (reference/clock.ts sharedClockReader). */
  readonly clock: SharedArrayBuffer;
  /** The worker's thread id (diagnostics, and the tests that see it end). */
  readonly threadId: number;
  /** Started with recordSwitches: the switches the reference consulted since the last call (SwitchRecorder). */
  takeSwitches(): Promise<readonly string[]>;
  /** The reference paying application served from the thread (reference/adapter.ts createRole, role paying-app), as the module contract's { read, derive, close }. */
  openPayingApp(options: CreateRoleOptions): Promise<ModulePayingAppImplementation>;
  /**
   * Starts a second reference with the same options in the same thread, on ports
   * and a clock of its own (its twin): tests that move the clock run on it beside
   * the others. Closed with this one.
   */
  twin(): Promise<TwinReference>;
  /** Closes the reference's listeners (and its twins'); its thread ends or waits for the next start (closeThread). Idempotent. */
  close(): Promise<void>;
}

/** A twin's facts: closed with the reference it was started beside. */
type TwinReference = Pick<ThreadedReference, 'url' | 'plaintextUrl' | 'ca' | 'mutant' | 'clock' | 'openPayingApp'>;

/** A thread loading or waiting for its options; `fault` is why it ended, once it has. */
interface Booted {
  readonly worker: Worker;
  readonly exited: Promise<void>;
  fault: string | undefined;
  /** A start posted as soon as the thread was booted (bootReferenceThread with options), and the thread's answer to it. */
  early: { readonly options: string; readonly answer: Promise<Started | string> } | undefined;
}

type Started = Extract<ThreadMessage, { kind: 'started' }>;

/**
 * What a command that certifies the embedded reference starts it with (target.ts
 * embeddedTarget): every listener on a port of the system's choosing, under a
 * base path, so that every run judges what a payee writes of a base URL that
 * is more than an origin (PROFILE.md §8.1): a path of two segments with
 * parentheses, UTF-8 percent-encoded and a ';' (a sub-delimiter
 * encodeURIComponent encodes and a hand-written escaper may leave raw), short
 * enough that its QR URIs keep to QR version 6, at its 106 bytes in byte mode
 * with a five-digit port (a longer one, /shops/caf%C3%A9(eu), made them
 * version 7: a decode 1.4 ms dearer, and a cold run about 0.2 s longer).
 */
export const EMBEDDED_REFERENCE_OPTIONS: ReferenceOptions = { port: 0, plaintextPort: 0, basePath: '/p/%C3%A9;(1)', policy: { assets: [{ type: 'fiat', code: 'EUR' }, { type: 'stablecoin', code: 'USDC', chain_id: '1' }] } };

/** The thread's module: the build's, when this process runs from one (bin/bundle.js), else the source, loaded through tsx. */
const ENTRY = BUNDLE_DIR === undefined ? new URL('../../reference/thread.ts', import.meta.url).href : new URL('thread.cjs', BUNDLE_DIR).href;
/** What runs the build's thread module with V8's code cache (bin/compiled.cjs). */
const COMPILED = fileURLToPath(new URL('../../bin/compiled.cjs', import.meta.url));
let spare: Booted | undefined;

/**
 * Starts loading a reference thread for the next startReferenceThread, unless
 * one is loading already. With `options`, the thread also starts a reference
 * with them as soon as it has loaded: a later start with the same options takes
 * that reference, one with other options closes it and starts its own.
 */
export function bootReferenceThread(options?: ReferenceOptions): void {
  if (spare === undefined || spare.fault !== undefined) spare = boot();
  if (options !== undefined && spare.early === undefined) spare.early = { options: JSON.stringify(options), answer: answerTo(spare, options) };
}

/** The URL of the reference the waiting thread started early, once it listens; undefined when it started none, or could not (diagnostics, tests). */
export async function earlyReferenceUrl(): Promise<string | undefined> {
  const answer = await spare?.early?.answer;
  return typeof answer === 'object' ? answer.url : undefined;
}

export async function startReferenceThread(options: ReferenceOptions, startTimeoutMs = REFERENCE_START_TIMEOUT_MS): Promise<ThreadedReference> {
  const booted = spare !== undefined && spare.fault === undefined ? spare : boot();
  spare = undefined;
  const { worker } = booted;
  const failed = (message: string) => new HarnessError('HARNESS_REFERENCE_START_FAILED', `the embedded reference did not start: ${message}`);
  worker.ref();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no word from its thread within ${startTimeoutMs} ms`), startTimeoutMs)));
  const { early } = booted;
  booted.early = undefined;
  let answer: Promise<Started | string>;
  if (early !== undefined && early.options === JSON.stringify(options)) answer = early.answer;
  else {
    // Started early with other options (or failed to): closed first, so that the thread takes this start.
    if (early !== undefined) await Promise.race([early.answer.then(() => askClose(booted)), deadline]);
    answer = answerTo(booted, options);
  }
  const outcome = await Promise.race([answer, deadline]);
  clearTimeout(timer);
  if (typeof outcome === 'string') {
    await worker.terminate();
    throw failed(outcome);
  }
  const started = outcome;
  const apps = appChannel(worker);
  // Once listening, the thread is held alive by the harness's use of it, never the other way round
  // (after the channel's listener: listening for a worker's messages refs it).
  worker.unref();
  let closing: Promise<void> | undefined;
  return {
    url: started.url,
    plaintextUrl: started.plaintextUrl,
    ca: started.ca,
    mutant: started.mutant,
    clock: started.clock,
    threadId: worker.threadId,
    takeSwitches: () => askSwitches(worker),
    openPayingApp: apps.open,
    twin: async () => {
      if (closing !== undefined) throw failed('it was closed before its twin started');
      worker.ref();
      const twin = await answerTo(booted, options).finally(() => worker.unref());
      if (typeof twin === 'string') throw failed(`its twin did not start: ${twin}`);
      return { url: twin.url, plaintextUrl: twin.plaintextUrl, ca: twin.ca, mutant: twin.mutant, clock: twin.clock, openPayingApp: apps.open };
    },
    close: () => (closing ??= closeThread(booted).finally(apps.detach)),
  };
}

type AppCommand = Extract<ThreadCommand, { kind: `app-${string}` }>;
type Unnumbered<T> = T extends unknown ? Omit<T, 'call'> : never;

/**
 * Calls to the paying application served from the thread: each command is
 * numbered and answered once, with its value or the message of what it threw
 * (a throw the module adapter reports as the application's, as it would an
 * in-process module's). Each call carries the process's TZ as this thread
 * has it, which the thread takes before the call: the application runs in the
 * zone a module in this thread would. While a call waits, the thread is held
 * alive, as a request on a socket holds its process. Detached when the
 * reference closes; a call still waiting then, or when the thread ends, is
 * refused.
 */
function appChannel(worker: Worker): { open(options: CreateRoleOptions): Promise<ModulePayingAppImplementation>; detach(): void } {
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let calls = 0;
  let apps = 0;
  const settled = () => pending.size === 0 && worker.unref();
  const refuseAll = (why: string) => {
    for (const waiting of pending.values()) waiting.reject(new Error(why));
    pending.clear();
    settled();
  };
  const onMessage = (message: ThreadMessage) => {
    if (message.kind !== 'app-answer') return;
    const waiting = pending.get(message.call);
    if (waiting === undefined) return;
    pending.delete(message.call);
    settled();
    if (message.thrown !== undefined) waiting.reject(new Error(message.thrown));
    else waiting.resolve(message.value);
  };
  const onExit = () => refuseAll("the embedded reference's thread ended");
  worker.on('message', onMessage).on('exit', onExit);
  const ask = (command: Unnumbered<AppCommand>) =>
    new Promise<unknown>((resolve, reject) => {
      const call = ++calls;
      if (pending.size === 0) worker.ref();
      pending.set(call, { resolve, reject });
      try {
        worker.postMessage({ ...command, call } as AppCommand satisfies ThreadCommand);
      } catch (error) {
        pending.delete(call);
        settled();
        reject(error as Error);
      }
    });
  return {
    async open(options) {
      const app = ++apps;
      await ask({ kind: 'app-open', app, settings: options.settings, ca: options.ca });
      return {
        read: (input) => ask({ kind: 'app-call', app, method: 'read', args: [input], zone: process.env['TZ'] }) as never,
        derive: (cpr, context) => ask({ kind: 'app-call', app, method: 'derive', args: [cpr, context], zone: process.env['TZ'] }) as never,
        close: () => ask({ kind: 'app-close', app }),
      };
    },
    detach() {
      worker.off('message', onMessage).off('exit', onExit);
      refuseAll('the embedded reference was closed');
    },
  };
}

let starts = 0;

/** Posts a start to the thread; resolves with its facts once it listens, or with why it did not start. */
function answerTo(booted: Booted, options: ReferenceOptions): Promise<Started | string> {
  const { worker } = booted;
  // Starts in flight at once (a reference's twins) are told apart by their number.
  const start = ++starts;
  return new Promise((resolve) => {
    const onMessage = (message: ThreadMessage) => {
      if (message.kind === 'started' && message.start === start) settle(message);
      else if (message.kind === 'failed' && message.start === start) settle(message.message);
    };
    const onEnd = () => settle(booted.fault ?? 'its thread ended');
    function settle(outcome: Started | string) {
      worker.off('message', onMessage).off('error', onEnd).off('exit', onEnd);
      resolve(outcome);
    }
    if (booted.fault !== undefined) return settle(booted.fault);
    worker.on('message', onMessage).on('error', onEnd).on('exit', onEnd);
    worker.postMessage({ kind: 'start', start, options } satisfies ThreadCommand);
  });
}

function askSwitches(worker: Worker): Promise<readonly string[]> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ThreadMessage) => {
      if (message.kind !== 'switches') return;
      worker.off('message', onMessage).off('exit', onExit);
      resolve(message.names);
    };
    const onExit = () => {
      worker.off('message', onMessage);
      reject(new HarnessError('HARNESS_INTERNAL', "the embedded reference's thread ended before it said which switches it consulted"));
    };
    worker.on('message', onMessage).once('exit', onExit);
    worker.postMessage({ kind: 'switches' } satisfies ThreadCommand);
  });
}

function boot(): Booted {
  // From the sources, the thread has no TypeScript loader of its own (the launcher's is registered per thread): it registers tsx first.
  // From the build, it keeps the code V8 compiled for it, under the V8 flags the launcher set (compiled.cjs), once asked to close the first time.
  const code = BUNDLE_DIR === undefined ? `import(${JSON.stringify(tsxEsmApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY)}); })` : builtThread();
  // The process's environment is shared, not copied: the paying application served from the thread runs in the process's TZ.
  const worker = new Worker(code, { eval: true, env: SHARE_ENV });
  worker.unref();
  const booted: Booted = {
    worker,
    exited: new Promise<void>((resolve) => worker.once('exit', () => resolve())),
    fault: undefined,
    early: undefined,
  };
  worker.once('error', (error) => (booted.fault ??= error.message));
  worker.once('exit', (code) => (booted.fault ??= `its thread exited with code ${code}`));
  return booted;
}

/** The thread's code when this process runs from the build: thread.cjs through compiled.cjs, its code saved when first asked to close. */
function builtThread(): string {
  const { v8FlagsSet } = createRequire(import.meta.url)(COMPILED) as { v8FlagsSet(): string };
  const run = `require(${JSON.stringify(COMPILED)}).runCompiled(${JSON.stringify(fileURLToPath(ENTRY))}, 'thread', ${JSON.stringify(v8FlagsSet())})`;
  return `const compiled = ${run}; require('node:worker_threads').parentPort.on('message', (command) => command.kind === ${JSON.stringify('close' satisfies ThreadCommand['kind'])} && compiled.save());`;
}

/**
 * Asks the reference to close (its listeners, its CA file). A thread that did
 * so in time waits, loaded, as the next start's spare (a selftest starts one
 * reference per mutant), unless one waits already; any other is ended.
 */
async function closeThread(booted: Booted): Promise<void> {
  const { worker, exited } = booted;
  worker.ref();
  const clean = await askClose(booted);
  if (clean && booted.fault === undefined && spare === undefined) {
    worker.unref();
    spare = booted;
    return;
  }
  await worker.terminate();
  await exited;
}

/** Asks the thread to close its reference; whether it said it did within the grace. */
async function askClose(booted: Booted): Promise<boolean> {
  const { worker, exited } = booted;
  let onMessage: ((message: ThreadMessage) => void) | undefined;
  const closed = new Promise<boolean>((resolve) => worker.on('message', (onMessage = (message) => message.kind === 'closed' && resolve(true))));
  worker.postMessage({ kind: 'close' } satisfies ThreadCommand);
  let timer: NodeJS.Timeout | undefined;
  const clean = await Promise.race([closed, exited.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS)))]);
  clearTimeout(timer);
  worker.off('message', onMessage!);
  return clean;
}

/** tsx's ES module API (its `import` export: require.resolve would give the CommonJS one). */
function tsxEsmApi(): string {
  const manifestFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return new URL(manifest.exports['./esm/api']!.import.default, pathToFileURL(manifestFile)).href;
}
