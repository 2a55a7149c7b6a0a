// The implementation under test, started and stopped by the harness
// (`--start "COMMAND" --ready URL`): the command runs in a shell of its own
// process group, its output goes to a log file in the report folder, the ready
// URL is polled until it answers or a deadline passes, and whatever happens
// (the run's outcome, an exception, Ctrl-C) the group is sent SIGTERM, then
// SIGKILL after a grace period. A server that does not start is a harness
// error quoting its last output lines, never a conformance result.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Agent, request } from '../../profile/undici.ts';
import { HarnessError } from '../errors.ts';

export interface ServerOptions {
  /** A shell command line (`sh -c`), run in the current folder. */
  readonly command: string;
  /** Its environment: the command's (cli/main.ts). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Polled until it answers with a status below 500 (any answer but a server error means the server is up). */
  readonly readyUrl: string;
  /** How long the server may take to answer the ready URL. */
  readonly readyTimeoutMs: number;
  /** How long it has to exit after SIGTERM before it gets SIGKILL. */
  readonly stopGraceMs: number;
  /** Where its standard output and error go. */
  readonly logFile: string;
  /** Time between two polls of the ready URL; default 200 ms. */
  readonly pollIntervalMs?: number;
  /** Where a notice of the harness's own goes (the command's stderr, cli/main.ts): the server's output never does. */
  readonly notice: (text: string) => void;
}

/** How the server ended. */
export interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

interface RunningServer {
  readonly pid: number;
  readonly logFile: string;
  /** Set once the server's shell has exited (by itself, or stopped). */
  ended(): Ended | undefined;
  /** SIGTERM to its process group, SIGKILL after the grace period; resolves once the group is gone. Idempotent. */
  stop(): Promise<StopOutcome>;
}

interface StopOutcome {
  /** SIGKILL was needed: the group outlived SIGTERM by the grace period. */
  readonly killed: boolean;
  /** Its own exit, when it exited before it was told to stop. */
  readonly exitedBefore?: Ended;
}

/** Lines of the server's output an error quotes. */
const QUOTED_LINES = 20;
const POLL_INTERVAL_MS = 200;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Starts the command and waits until the ready URL answers. Throws
 * HARNESS_TARGET_START_FAILED (it could not be started, or exited first),
 * HARNESS_TARGET_NOT_READY (no usable answer before the deadline, the last
 * one named) or INTERRUPTED (Ctrl-C while waiting); in each case it has
 * been stopped first.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, 'w');
  let child: ChildProcess;
  try {
    // A process group of its own (detached): a terminal's Ctrl-C does not reach it
    // behind the harness's back, and a stop reaches every process the shell started.
    child = spawn('/bin/sh', ['-c', options.command], { detached: true, stdio: ['ignore', log, log], env: options.env });
  } finally {
    closeSync(log);
  }
  const server = supervise(child, options);
  const spawnError = await new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', resolve);
  });
  if (spawnError !== undefined || child.pid === undefined) {
    server.dispose();
    throw new HarnessError('HARNESS_TARGET_START_FAILED', `--start could not run ${JSON.stringify(options.command)}: ${spawnError?.message ?? 'no process'}`);
  }
  try {
    await waitReady(server, options);
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    server.starting = false;
  }
  return server;
}

interface Supervised extends RunningServer {
  /** True until the ready URL answered (or the start failed). */
  starting: boolean;
  /** Resolves when the shell exits. */
  readonly exit: Promise<Ended>;
  /** Settles when a signal comes while nothing else handles it. */
  readonly interrupted: Promise<NodeJS.Signals>;
  dispose(): void;
}

function supervise(child: ChildProcess, options: ServerOptions): Supervised {
  let ended: Ended | undefined;
  let stopping: Promise<StopOutcome> | undefined;
  const exit = new Promise<Ended>((resolve) => child.once('exit', (code, signal) => resolve((ended = { code, signal }))));
  const pid = child.pid ?? -1;
  let interrupt!: (signal: NodeJS.Signals) => void;
  const interrupted = new Promise<NodeJS.Signals>((resolve) => (interrupt = resolve));
  // The harness may die without unwinding (a second Ctrl-C exits at once): the group goes with it.
  const onExit = () => killGroup(pid, 'SIGKILL');
  // A command that handles Ctrl-C itself (run writes a partial report) stops the server
  // when it is done; otherwise the signal is this module's to act on.
  const onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    interrupt(signal);
    // While it starts, the wait says so (INTERRUPTED) and stops it; afterwards this is the only handler.
    if (server.starting) return;
    void server.stop().finally(() => {
      options.notice('cpr-conformance: interrupted: the --start server was stopped');
      process.exit(2);
    });
  };
  process.on('exit', onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  const dispose = () => {
    process.off('exit', onExit);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  const server: Supervised = {
    starting: true,
    pid,
    logFile: options.logFile,
    exit,
    interrupted,
    ended: () => ended,
    dispose,
    stop: () => {
      stopping ??= stopGroup(pid, exit, () => ended, options.stopGraceMs).finally(dispose);
      return stopping;
    },
  };
  return server;
}

async function stopGroup(pid: number, exit: Promise<Ended>, ended: () => Ended | undefined, graceMs: number): Promise<StopOutcome> {
  const before = ended();
  if (!killGroup(pid, 'SIGTERM')) return before !== undefined ? { killed: false, exitedBefore: before } : { killed: false };
  // The shell may exit at once while what it started lingers: wait for the whole group.
  const deadline = Date.now() + graceMs;
  await Promise.race([exit, sleep(graceMs)]);
  while (groupAlive(pid) && Date.now() < deadline) await sleep(50);
  let killed = false;
  if (groupAlive(pid)) {
    killed = killGroup(pid, 'SIGKILL');
    await exit;
    for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(20);
  }
  return before !== undefined ? { killed, exitedBefore: before } : { killed };
}

/** Polls the ready URL until it answers below 500, the server exits, the deadline passes or a signal comes. */
async function waitReady(server: Supervised, options: ServerOptions): Promise<void> {
  const deadline = Date.now() + options.readyTimeoutMs;
  // The server's last answer, and the last poll's outcome (a timeout is no answer of the server's).
  let answered: string | undefined;
  let latest: { readonly text: string; readonly timedOut: boolean } | undefined;
  let stop = false;
  const exited = server.exit.then((end) => ({ kind: 'exited' as const, end }));
  const interrupted = server.interrupted.then((signal) => ({ kind: 'interrupted' as const, signal }));
  {
    while (!stop) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const attempt = poll(options, Math.min(left, 2000)).then((answer) => ({ kind: 'answer' as const, answer }));
      const outcome = await Promise.race([attempt, exited, interrupted]);
      if (outcome.kind === 'exited') {
        throw new HarnessError(
          'HARNESS_TARGET_START_FAILED',
          `--start ${JSON.stringify(options.command)} ${endedText(outcome.end)} before ${options.readyUrl} answered${lastLines(options.logFile)}`,
        );
      }
      if (outcome.kind === 'interrupted') throw new HarnessError('INTERRUPTED', `interrupted (${outcome.signal}) while waiting for ${options.readyUrl}: the --start server was stopped`, 'run again to completion for a verdict');
      if (outcome.answer.ready) return;
      latest = outcome.answer;
      if (!latest.timedOut) answered = latest.text;
      stop = Date.now() + (options.pollIntervalMs ?? POLL_INTERVAL_MS) >= deadline;
      if (!stop) await Promise.race([sleep(options.pollIntervalMs ?? POLL_INTERVAL_MS), exited, interrupted]);
    }
    // A poll the deadline cut short does not hide the last answer the server gave.
    const last = answered === undefined ? (latest?.text ?? 'nothing yet') : `${answered}${latest?.timedOut ? ', then no answer in time' : ''}`;
    throw new HarnessError(
      'HARNESS_TARGET_NOT_READY',
      `--ready ${options.readyUrl} gave no usable answer within ${options.readyTimeoutMs / 1000} s; last answer: ${last}${lastLines(options.logFile)}`,
    );
  }
}

async function poll(options: ServerOptions, timeoutMs: number): Promise<{ ready: boolean; text: string; timedOut: boolean }> {
  // Readiness is whether the server answers, not whether the harness trusts it: the run
  // checks its certificate and says so (HARNESS_TLS_UNTRUSTED), whatever its CA is.
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false }, pipelining: 0 });
  try {
    const response = await request(options.readyUrl, { method: 'GET', dispatcher, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.body.text().catch(() => '')).replace(/\s+/g, ' ').trim();
    const text = `${response.statusCode}${body === '' ? '' : ` ${JSON.stringify(body.length > 120 ? `${body.slice(0, 120)}…` : body)}`}`;
    return { ready: response.statusCode < 500, text, timedOut: false };
  } catch (error) {
    const err = error as { name?: string; code?: string | number; message?: string; cause?: { name?: string; code?: string | number; message?: string } };
    const code = err.cause?.code ?? err.code;
    const timedOut = [err.name, err.cause?.name].includes('TimeoutError') || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
    return { ready: false, text: `no answer (${err.cause?.message ?? err.message ?? String(error)}${code !== undefined ? `, ${code}` : ''})`, timedOut };
  } finally {
    void dispatcher.close().catch(() => undefined);
  }
}

function endedText(end: Ended): string {
  return end.signal !== null ? `was ended by ${end.signal}` : `exited with code ${end.code}`;
}

/** The end of the server's log, for an error message: "; its last output lines (FILE): ...". */
function lastLines(file: string): string {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return '';
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '').slice(-QUOTED_LINES);
  if (lines.length === 0) return `; it wrote nothing (${file})`;
  return `; its last output lines (${file}):\n${lines.map((line) => `  | ${line.slice(0, 300)}`).join('\n')}`;
}

function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pid: number): boolean {
  return killGroup(pid, 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
