// The reference as the benchmark's target: its own process (`cpr-conformance
// serve`), exactly as a user's target runs. Throughput and memory figures are
// the harness's; sharing one process with the target would charge the target's
// CPU and its ever-growing state to the harness.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/cpr-conformance.js', import.meta.url));

interface ServeOptions {
  /** `serve --seed`: two references with one seed answer the same requests alike. */
  readonly seed?: string;
  /** CPU list to pin the server to (taskset -c; pinning.ts). */
  readonly cpus?: string;
}

export interface ServedReference {
  readonly url: string;
  /** PEM of the CA the server's certificate chains to. */
  readonly ca: string;
  close(): Promise<void>;
}

export async function serveReference(options: ServeOptions = {}): Promise<ServedReference> {
  const args = [BIN, 'serve', '--port', '0', '--no-plaintext', '--json', ...(options.seed !== undefined ? ['--seed', options.seed] : [])];
  const [command, argv] = options.cpus !== undefined ? ['taskset', ['-c', options.cpus, process.execPath, ...args]] : [process.execPath, args];
  const child: ChildProcess = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const facts = await new Promise<{ url: string; ca_file: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the reference did not start within 20 s: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as { url: string; ca_file: string });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference exited with ${code}: ${stderr}`));
    });
  });
  const ca = readFileSync(facts.ca_file, 'utf8');
  return {
    url: facts.url,
    ca,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
