// A command writes to the streams and reads the environment main(argv, io) is
// given (harness/io.ts), and so does everything it calls: its notices, its
// progress, the workers and servers it starts. Under harness/, the process's
// own streams and environment are reached only where listed below, each with
// why; the launcher (bin/) is the one that hands them to main().
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HARNESS = fileURLToPath(new URL('../../harness/', import.meta.url));

/** Each file under harness/ that may name process.stdout, process.stderr or process.env: how many times, and why. */
const ALLOWED: Readonly<Record<string, { readonly uses: number; readonly why: string }>> = {
  'io.ts': { uses: 3, why: "processIo(): the process's own streams and environment, for the launcher and as the commands' default" },
  'target/load.ts': { uses: 1, why: "loadTargetFile's default environment for callers that are not a command (the project's tests); every command passes io.env" },
  'adapters/process.ts': { uses: 1, why: "a child-process adapter starts with the harness process's environment (PATH, HOME, what its runtime needs), as any program it starts would; the target file's env is added to it" },
  'properties/field-classes/app-time.ts': { uses: 4, why: "moves the process's own time zone (TZ) while a paying application runs in process, and puts it back: Date reads it from the process, not from a command's io" },
  'target/reference-thread.ts': { uses: 2, why: "each call to the paying application served from the reference's thread carries the process's own TZ as this thread has it (app-time.ts moves it), for the thread to take: Date reads it from the process" },
  'bench/run-wall.ts': { uses: 1, why: "times run as a cold process started as a user starts it, with the process's environment and CI=true" },
  'bench/memory-probe.ts': { uses: 2, why: "the main of the child process bench starts: its stdout is the line bench reads, its stderr what bench quotes when it fails" },
  'bench/mutation-table.ts': { uses: 2, why: 'the main of `npm run mutation-table`, a script of its own, not a command' },
  'scenarios/write-schema.ts': { uses: 2, why: 'the main of `npm run scenario-schema`, a script of its own, not a command' },
};

const PROCESS_IO = /\bprocess\s*(?:\.\s*|\[\s*['"])(stdout|stderr|env)\b|\{[^}]*\b(?:stdout|stderr|env)\b[^}]*\}\s*=\s*process\b/g;

/** How many times each text names the process's streams or environment, outside comments. */
function usesIn(files: ReadonlyMap<string, string>): Record<string, number> {
  const uses: Record<string, number> = {};
  for (const [file, text] of files) {
    const code = text.replace(/^\s*(?:\/\/|\*|\/\*).*$/gm, '');
    const n = [...code.matchAll(PROCESS_IO)].length;
    if (n > 0) uses[file] = n;
  }
  return uses;
}

const sources = new Map(
  readdirSync(HARNESS, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [f.split('\\').join('/'), readFileSync(join(HARNESS, f), 'utf8')] as const),
);

describe("the process's streams and environment under harness/", () => {
  it('are reached only where ALLOWED says, as often as it says', () => {
    expect(sources.size).toBeGreaterThan(100);
    expect(usesIn(sources)).toEqual(Object.fromEntries(Object.entries(ALLOWED).map(([file, { uses }]) => [file, uses])));
  });

  it('would see a use, however it is written', () => {
    for (const text of ['process.stderr.write(x);', "const e = process['env'];", 'const { stdout } = process;', 'f(process . env.HOME);']) {
      expect(usesIn(new Map([['cli/probe.ts', text]])), text).toEqual({ 'cli/probe.ts': 1 });
    }
    expect(usesIn(new Map([['cli/probe.ts', '// process.stdout is not used here\nio.stdout.write(x);']]))).toEqual({});
  });
});
