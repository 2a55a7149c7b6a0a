// What a command reads and writes besides its arguments: its two output
// streams and its environment. The launcher (bin/) gives the process's; tests
// give captured streams and an environment of their own, and run commands in
// process without touching the process's.
export interface OutputStream {
  write(text: string): unknown;
  /** A terminal: run's progress is one redrawn line (runner/terminal.ts). */
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CommandIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's own streams and environment. */
export function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}
