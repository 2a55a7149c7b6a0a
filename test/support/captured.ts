// A command of the command line run in this process (main(), or one command's
// function), with what it writes to stdout and stderr kept instead of shown.
import { vi } from 'vitest';

export interface Captured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function captured(command: () => Promise<number>): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const text = (chunk: string | Uint8Array) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += text(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += text(chunk)), true));
  try {
    const code = await command();
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
