// Shared by the hostile-target tests: the command line run in this process
// (cliHere) or, where a real process is what is tested, as a child process (cli);
// both asynchronously, since the fixture servers live in this process and must
// keep answering; and the report folder read back and checked against its schema.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { main } from '../../../harness/cli/main.ts';
import { readReport, type Report } from '../../../harness/report/index.ts';
import type { CommandIo } from '../../../harness/io.ts';

export const BIN = fileURLToPath(new URL('../../../bin/cpr-conformance.js', import.meta.url));
export const REFERENCE_ADAPTER = fileURLToPath(new URL('../../../reference/adapter.ts', import.meta.url));

export interface CliResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Killed (SIGKILL) after this long; default 60 s. */
  readonly killAfterMs?: number;
  /** Called once with the child, for tests that signal it. */
  readonly onSpawn?: (child: ReturnType<typeof spawn>, output: { stdout(): string }) => void;
}

/** Runs `cpr-conformance ...args` as CI would (CI=true, no TTY, no stdin). */
export function cli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true', NO_COLOR: '1', ...options.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const kill = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
  options.onSpawn?.(child, { stdout: () => stdout });
  return new Promise((resolve) => {
    child.once('close', (status, signal) => {
      clearTimeout(kill);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/**
 * The same command line in this process: main() with streams of its own and
 * the environment CI would give it (the process's is left as it is), so no
 * Node start per call. For what needs a real process (signals, the launcher's
 * exit), use cli().
 */
export async function cliHere(args: readonly string[], options: Pick<CliOptions, 'env'> = {}): Promise<CliResult> {
  const out = { stdout: '', stderr: '' };
  const io: CommandIo = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    env: { ...process.env, CI: 'true', NO_COLOR: '1', ...options.env },
  };
  // Everything a command says goes to io, the notices of the layers below it included (test/harness/io.test.ts).
  const status = await main([...args], io);
  return { status, signal: null, stdout: out.stdout, stderr: out.stderr };
}

/**
 * `cpr-conformance serve OPTIONS` in a child process (the reference over TLS,
 * on free ports), stopped after the file's tests: its base URL and CA file.
 */
/**
 * `serve` with these options on free ports, started before the file's (or the
 * describe's) tests and stopped after them; its start-up facts. Started in
 * beforeAll, so a file whose tests are all filtered out starts nothing.
 */
export function served(...options: string[]): Promise<{ url: string; ca_file: string }> {
  let child: ReturnType<typeof spawn> | undefined;
  const facts = new Promise<{ url: string; ca_file: string }>((resolve, reject) => {
    beforeAll(() => {
      child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--plaintext-port', '0', '--json', ...options], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { url: string; ca_file: string });
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
  });
  afterAll(() => {
    child?.kill('SIGTERM');
  });
  return facts;
}

export function workDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `cpr-hostile-${name}-`));
}

/** report.json, read and validated against report.schema.json (readReport throws otherwise). */
export function report(dir: string): Report {
  return readReport(join(dir, 'report.json'));
}

/** Every file the run wrote under `dir` (allure-results included), as text. */
export function reportFiles(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push({ path, text: readFileSync(path, 'latin1') });
    }
  };
  walk(dir);
  return out;
}

/** Bytes a terminal would act on: ESC and the other C0 controls but tab and newline, DEL, the C1 controls. */
export const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
