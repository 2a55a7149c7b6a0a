// The cpr-conformance command line: a table of commands, each with its own
// --help. Exit codes: 0 conformant / success, 1 non-conformant, 2 harness or
// usage error.
import { fileURLToPath } from 'node:url';
import { didYouMean, stripControl } from '../text.ts';
import { versionLine } from '../version.ts';
import { PROFILE_ID } from '../../profile/version.ts';
import { RegistryError } from '../../profile/registry.ts';
import { EXIT, HarnessError } from './errors.ts';
import { processIo, type CommandIo, type OutputStream } from '../io.ts';
import { BUNDLE_DIR } from '../bundle.ts';

type CommandFn = (argv: string[], io: CommandIo) => Promise<number>;

interface Command {
  readonly summary: string;
  /** Loaded only when chosen: --version and --help never pay for the runner. */
  readonly load: () => Promise<CommandFn>;
  /** What may start before the command's modules load (a hint from the raw arguments; the command decides). */
  readonly early?: (argv: readonly string[]) => Promise<void>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  run: {
    summary: 'run the suite against a target (the embedded reference when none is given): verdict and reports',
    load: async () => (await import('./run.ts')).run,
    early: async (argv) => (await import('./run-early.ts')).runEarly(argv),
  },
  list: { summary: 'list the scenarios a run would execute, with a count', load: async () => (await import('./list.ts')).list },
  explain: { summary: 'show a requirement (spec text, tests covering it) or a scenario', load: async () => (await import('./explain.ts')).explain },
  coverage: { summary: 'the field coverage table: every field, every class, the properties that generate it', load: async () => (await import('./coverage.ts')).coverage },
  fuzz: { summary: 'stateful model-based fuzzing of an operator; failures shrunk into regression scenarios', load: async () => (await import('./fuzz.ts')).fuzz },
  replay: { summary: 'replay a fuzzer crash file or regression scenario: fixed or still failing', load: async () => (await import('./replay.ts')).replay },
  serve: { summary: 'start the reference implementation on loopback', load: async () => (await import('./serve.ts')).serve },
  selftest: { summary: 'prove the suite kills every mutant of the reference (the kill matrix)', load: async () => (await import('./selftest.ts')).selftestCommand },
  vectors: { summary: 'vectors generate | verify: the published test vectors', load: async () => (await import('./vectors.ts')).vectors },
  bench: { summary: 'benchmark the harness: run time, fuzz vs raw throughput, memory, signing rates', load: async () => (await import('./bench.ts')).bench },
  init: { summary: 'write a commented target-file template', load: async () => (await import('./init.ts')).init },
  report: { summary: 'report merge DIR...: join sharded reports into one', load: async () => (await import('./report.ts')).report },
  compare: { summary: 'compare reports of implementations side by side, or --diff two runs of one', load: async () => (await import('./compare.ts')).compare },
  certify: { summary: 'run the whole suite and write a signed certification package', load: async () => (await import('./certify.ts')).certify },
  'verify-package': { summary: 'check a certification package: signature, digests, consistency, grade', load: async () => (await import('./verify-package.ts')).verifyPackageCommand },
};

const HELP = `Usage: cpr-conformance <command> [options]

Conformance suite for the Canonical Payment Request (CPR-1.0) and the cash-pack
protocol (CPP-001), with the wire profile ${PROFILE_ID} (PROFILE.md).

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(Math.max(...Object.keys(COMMANDS).map((n) => n.length)))}  ${c.summary}`)
  .join('\n')}

Run "cpr-conformance <command> --help" (or "cpr-conformance help <command>")
for a command's options; "cpr-conformance --version" for the versions.
`;

/** Which code this process runs: the launcher's build of the sources (bin/bundle.js), or the sources themselves. */
function runsFrom(): string {
  return BUNDLE_DIR === undefined ? 'runs from the TypeScript sources' : `runs from the launcher's build of the sources, ${fileURLToPath(BUNDLE_DIR)}`;
}

/** The command line: `io` is what the command writes to and reads its environment from (the process's unless given). */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    // The suite's digest is what a certification package names: two installs with one digest judge alike.
    const { suiteDigest } = await import('../certify/suite.ts');
    io.stdout.write(`${versionLine()}\nsuite digest sha256:${suiteDigest().digest} (suites/, profile/, PROFILE.md and the judging code under harness/)\n${runsFrom()}\n`);
    return 0;
  }
  try {
    if (name === 'help' && rest.length > 0) {
      // `help run` is `run --help`.
      if (rest.length > 1) throw new HarnessError('USAGE_ERROR', 'help takes one command name', 'see: cpr-conformance --help');
      return await (await commandNamed(rest[0]!).load())(['--help'], io);
    }
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(HELP);
      return name === undefined ? EXIT.error : 0;
    }
    const command = commandNamed(name);
    await command.early?.(rest);
    return await (await command.load())(rest, io);
  } catch (error) {
    return report(error, io.stderr, name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined);
  }
}

function commandNamed(name: string): Command {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const known = Object.keys(COMMANDS);
    throw new HarnessError('USAGE_ERROR', `unknown command "${name}"${didYouMean(name, known, (w) => `"${w}"`)}`, `the commands are ${known.join(', ')}; see: cpr-conformance --help`);
  }
  return command;
}

function report(error: unknown, stderr: OutputStream, command?: string): number {
  // The registry is the profile's: its own error, reported under the harness's code for it.
  if (error instanceof RegistryError) error = new HarnessError('REGISTRY_INVALID', error.message);
  if (error instanceof HarnessError) {
    stderr.write(`cpr-conformance: ${error.code}: ${stripControl(error.message)}\n`);
    // A code's own hint speaks of "<command>": the command that failed is known here.
    const hint = command === undefined ? error.hint : error.hint.replaceAll('<command>', command);
    if (hint) stderr.write(`  hint: ${stripControl(hint)}\n`);
  } else {
    stderr.write(`cpr-conformance: HARNESS_INTERNAL: ${stripControl((error as Error)?.stack ?? String(error))}\n`);
  }
  return EXIT.error;
}
