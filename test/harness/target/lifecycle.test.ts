// The server lifecycle against a real child: a tiny node server started
// through a shell, polled until ready, and stopped however it behaves. Bounded
// by the harness's own deadlines; nothing here asserts how long anything took.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { HarnessError } from '../../../harness/errors.ts';
import { startServer, type ServerOptions } from '../../../harness/target/lifecycle.ts';
import { BIN, cli } from '../hostile/support.ts';
import { freePort } from '../../support/ports.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/lifecycle-server.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cpr-lifecycle-'));
let n = 0;


/** The harness's own notices, as the command's stderr would get them. */
const notices: string[] = [];

async function options(mode: string, overrides: Partial<ServerOptions> = {}): Promise<ServerOptions & { pidFile: string }> {
  const port = await freePort();
  const dir = join(work, `s${n++}`);
  const pidFile = join(dir, 'pid');
  mkdirSync(dir, { recursive: true });
  return {
    command: `PIDFILE='${pidFile}' '${process.execPath}' '${FIXTURE}' ${mode} ${port}`,
    readyUrl: `http://127.0.0.1:${port}/health`,
    readyTimeoutMs: 20_000,
    stopGraceMs: 5_000,
    logFile: join(dir, 'server.log'),
    pollIntervalMs: 50,
    env: process.env,
    notice: (text) => notices.push(text),
    pidFile,
    ...overrides,
  };
}

function alive(pidFile: string): boolean {
  if (!existsSync(pidFile)) return false;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

async function failure(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  return error as HarnessError;
}

describe('a server started with --start', () => {
  it('is ready once the ready URL answers below 500, and stops on SIGTERM', async () => {
    const o = await options('ready');
    const server = await startServer(o);
    expect(alive(o.pidFile)).toBe(true);
    const log = readFileSync(o.logFile, 'utf8');
    // Polled until it answered: two 503s first, then the 200 that made it ready.
    expect(log).toMatch(/request 1: GET \/health -> 503\nrequest 2: GET \/health -> 503\nrequest 3: GET \/health -> 200/);
    expect(await server.stop()).toEqual({ killed: false });
    expect(alive(o.pidFile)).toBe(false);
    expect(server.ended()).toBeDefined();
  });

  it('that never answers usably is HARNESS_TARGET_NOT_READY, naming the last answer, and is stopped', async () => {
    const o = await options('never', { readyTimeoutMs: 1500 });
    const error = await failure(startServer(o));
    expect(error.code).toBe('HARNESS_TARGET_NOT_READY');
    expect(error.message).toMatch(/^--ready http:\/\/127\.0\.0\.1:\d+\/health gave no usable answer within 1\.5 s; last answer: 503 "warming up"/);
    expect(error.message).toContain(`its last output lines (${o.logFile}):`);
    expect(alive(o.pidFile)).toBe(false);
  });

  it('that stops answering names the last answer it gave, not the poll the deadline cut short', async () => {
    const o = await options('stalls', { readyTimeoutMs: 2500 });
    const error = await failure(startServer(o));
    expect(error.code).toBe('HARNESS_TARGET_NOT_READY');
    expect(error.message).toMatch(/last answer: 503 "warming up", then no answer in time;/);
    expect(alive(o.pidFile)).toBe(false);
  });

  it('that nothing listens for names the refusal as its last answer', async () => {
    const o = await options('never', { readyTimeoutMs: 1000 });
    const error = await failure(startServer({ ...o, readyUrl: `http://127.0.0.1:${await freePort()}/` }));
    expect(error.message).toMatch(/last answer: no answer \(.*ECONNREFUSED/);
  });

  it('that exits at start is HARNESS_TARGET_START_FAILED, quoting its last output lines', async () => {
    const o = await options('crash');
    const error = await failure(startServer(o));
    expect(error.code).toBe('HARNESS_TARGET_START_FAILED');
    expect(error.message).toMatch(/exited with code 3 before http:\/\/127\.0\.0\.1:\d+\/health answered; its last output lines/);
    expect(error.message).toContain('  | starting up\n  | error: cannot open database at /nonexistent/db\n  | fatal: giving up');
  });

  it('whose command does not exist is HARNESS_TARGET_START_FAILED with the shell saying so', async () => {
    const o = await options('ready');
    const error = await failure(startServer({ ...o, command: 'cpr-no-such-command-here --port 1' }));
    expect(error.code).toBe('HARNESS_TARGET_START_FAILED');
    expect(error.message).toMatch(/exited with code 127 .*\n {2}\| .*cpr-no-such-command-here.*not found/s);
  });

  it('that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const o = await options('stubborn', { stopGraceMs: 500 });
    const server = await startServer(o);
    expect(await server.stop()).toEqual({ killed: true });
    expect(alive(o.pidFile)).toBe(false);
    expect(readFileSync(o.logFile, 'utf8')).toContain('ignoring SIGTERM');
  });

  it('stopped by Ctrl-C that nothing else handles says so to the notice it was given, not to the process\'s stderr', async () => {
    const o = await options('ready');
    const server = await startServer(o);
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const stderr = vi.spyOn(process.stderr, 'write');
    notices.length = 0;
    try {
      expect(process.listenerCount('SIGINT')).toBe(1);
      process.emit('SIGINT');
      await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(2), { timeout: 30_000, interval: 20 });
      expect(notices).toEqual(['cpr-conformance: interrupted: the --start server was stopped']);
      expect(stderr).not.toHaveBeenCalled();
      expect(alive(o.pidFile)).toBe(false);
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
      await server.stop();
    }
  });

  it('starts with the environment it is given, not the process\'s', async () => {
    const o = await options('ready');
    expect(process.env['CPR_GIVEN_TO_THE_SERVER']).toBeUndefined();
    const server = await startServer({ ...o, command: `echo "given: $CPR_GIVEN_TO_THE_SERVER"; ${o.command}`, env: { ...process.env, CPR_GIVEN_TO_THE_SERVER: 'to-it-alone' } });
    try {
      expect(readFileSync(o.logFile, 'utf8')).toContain('given: to-it-alone\n');
    } finally {
      await server.stop();
    }
  });

  it('that exited by itself says so when stopped', async () => {
    const o = await options('stubborn');
    const server = await startServer(o);
    process.kill(Number(readFileSync(o.pidFile, 'utf8')), 'SIGKILL');
    for (let i = 0; i < 200 && server.ended() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await server.stop()).toMatchObject({ killed: false, exitedBefore: expect.objectContaining({}) });
  });
});

describe('run --start, as a command', () => {
  // Real processes: the harness, and the reference it starts as the implementation under test.
  vi.setConfig({ testTimeout: 180_000 });

  /** `run --start` of the reference served on a port of its own, its shell's pid written (exec keeps it the server's). */
  async function startedRun(extra: string[]): Promise<{ args: string[]; dir: string; pidFile: string; port: number }> {
    const port = await freePort();
    const dir = join(work, `run${n++}`);
    const pidFile = join(work, `run${n++}.pid`);
    const serve = `echo $$ > '${pidFile}'; exec '${process.execPath}' '${BIN}' serve --port ${port} --no-plaintext --ca-out '${join(dir, 'ca.pem')}'`;
    const url = `https://127.0.0.1:${port}`;
    return { args: ['run', '--start', serve, '--target', url, '--ca', join(dir, 'ca.pem'), '--ready', `${url}/.well-known/cashpack-policy.json`, '--report-dir', join(dir, 'out'), ...extra], dir, pidFile, port };
  }

  it('starts the server, runs against it, captures its output in the report folder and stops it', async () => {
    const { args, dir, pidFile } = await startedRun(['--only', 'CPP-ISS-001', '--no-properties']);
    const r = await cli(args, { killAfterMs: 150_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(3); // incomplete: a selection, nothing failed
    expect(r.stdout).toMatch(/^server: ready \(pid \d+\)$/m);
    expect(r.stdout).toMatch(/^PASS CPP-ISS-001 /m);
    expect(r.stdout).toMatch(/^server: stopped$/m);
    expect(readFileSync(join(dir, 'out', 'server.log'), 'utf8')).toContain('cpr-conformance reference implementation');
    expect(alive(pidFile)).toBe(false);
    // Its rerun commands start a server of their own too.
    expect(JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')).tests[0].rerun).toMatch(/ --start '.*serve --port \d+ .*' --ready https:/);
  });

  it('stops the server on Ctrl-C while it is waiting for it: INTERRUPTED, exit 2', async () => {
    const o = await options('never', { readyTimeoutMs: 120_000 });
    const r = await cli(['run', '--start', o.command, '--ready', o.readyUrl, '--target', 'https://127.0.0.1:9', '--report-dir', join(work, `int${n++}`)], {
      killAfterMs: 150_000,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (alive(o.pidFile)) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 50);
      },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/INTERRUPTED: interrupted \(SIGINT\) while waiting for http:\/\/127\.0\.0\.1:\d+\/health: the --start server was stopped/);
    expect(alive(o.pidFile)).toBe(false);
  });

  it('stops the server on Ctrl-C during the run, after the partial report is written', async () => {
    const { args, dir, pidFile } = await startedRun(['--only', 'CPP-', '--no-properties']);
    const r = await cli(args, {
      killAfterMs: 150_000,
      onSpawn: (child, output) => {
        const poll = setInterval(() => {
          if (/^PASS /m.test(output.stdout())) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/^server: stopped$/m);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')).run.incomplete).toBe(true);
    expect(alive(pidFile)).toBe(false);
  });
});
