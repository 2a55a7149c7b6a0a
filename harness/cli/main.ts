// The cpr-conformance command line: a table of commands, each with its own
// --help. Exit codes: 0 conformant / success, 1 non-conformant, 2 harness or
// usage error.
import { stripControl } from '../text.ts';
import { EXIT, HarnessError } from './errors.ts';
import { bench } from './bench.ts';
import { explain } from './explain.ts';
import { fuzz } from './fuzz.ts';
import { init } from './init.ts';
import { list } from './list.ts';
import { report as reportCommand } from './report.ts';
import { replay } from './replay.ts';
import { run } from './run.ts';
import { selftestCommand } from './selftest.ts';
import { vectors } from './vectors.ts';
import { serve } from './serve.ts';

interface Command {
  readonly summary: string;
  readonly run: (argv: string[]) => Promise<number>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  run: { summary: 'certify a target (the embedded reference when none is given)', run },
  list: { summary: 'list the scenarios a run would execute, with a count', run: list },
  explain: { summary: 'show a requirement (spec text, tests covering it) or a scenario', run: explain },
  fuzz: { summary: 'stateful model-based fuzzing of an operator; failures shrunk into regression scenarios', run: fuzz },
  replay: { summary: 'replay a fuzzer crash file or regression scenario: fixed or still failing', run: replay },
  serve: { summary: 'start the reference implementation on loopback', run: serve },
  selftest: { summary: 'prove the suite kills every mutant of the reference (the kill matrix)', run: selftestCommand },
  vectors: { summary: 'vectors generate | verify: the published test vectors', run: vectors },
  bench: { summary: 'benchmark the harness: run time, fuzz vs raw throughput, memory, signing rates', run: bench },
  init: { summary: 'write a commented target-file template', run: init },
  report: { summary: 'report merge DIR...: join sharded reports into one', run: reportCommand },
};

export const HELP = `Usage: cpr-conformance <command> [options]

Conformance suite for the Canonical Payment Request (CPR-1.0) and the cash-pack
protocol (CPP-001), with the wire profile CPP-PROFILE-1.0 (PROFILE.md).

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Run "cpr-conformance <command> --help" for a command's options.
`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP);
    return name === undefined ? EXIT.error : 0;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new HarnessError('USAGE_ERROR', `unknown command "${name}"`, 'see: cpr-conformance --help');
    return await command.run(rest);
  } catch (error) {
    return report(error);
  }
}

function report(error: unknown): number {
  if (error instanceof HarnessError) {
    process.stderr.write(`cpr-conformance: ${error.code}: ${stripControl(error.message)}\n`);
    if (error.hint) process.stderr.write(`  hint: ${stripControl(error.hint)}\n`);
  } else {
    process.stderr.write(`cpr-conformance: HARNESS_INTERNAL: ${stripControl((error as Error)?.stack ?? String(error))}\n`);
  }
  return EXIT.error;
}
