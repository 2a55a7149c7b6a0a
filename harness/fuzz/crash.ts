// The crash file of a counterexample: the seed and fast-check's path, the minimal
// command sequence as data (so `replay` can run it again), every request and
// response of the replay against fresh state (bodies capped), and what the model
// expected against what the implementation answered.
import { readFileSync } from 'node:fs';
import type { PolicyDocument } from '../../profile/cashpack/index.ts';
import { PROFILE_ID } from '../../profile/index.ts';
import { HarnessError } from '../errors.ts';
import type { Exchange } from './client.ts';
import { COMMAND_KINDS, type CommandSpec } from './spec.ts';
import type { MismatchDetail } from './mismatch.ts';
import type { BalanceChoice, RunSetup } from './world.ts';

export const CRASH_FORMAT = 'cpr-conformance-fuzz-crash/1';

export interface CrashFile {
  readonly format: typeof CRASH_FORMAT;
  readonly profile: string;
  readonly seed: number;
  /** fast-check's counterexample path: `fuzz --seed` with it reproduces the run. */
  readonly path: string;
  /** fast-check's rendering of the counterexample, with the commands' replayPath. */
  readonly counterexample: string;
  /** True when the shrunk counterexample did not fail again against fresh state. */
  readonly flaky: boolean;
  readonly target: string;
  readonly policy: PolicyDocument;
  readonly setup: RunSetup;
  /** The minimal command sequence, as data. */
  readonly commands: readonly CommandSpec[];
  readonly commands_text: readonly string[];
  readonly failure: MismatchDetail & { readonly message: string };
  /** Every request and response of the replay (or of the failing run, when flaky). */
  readonly exchanges: readonly Exchange[];
  readonly regression: string;
  readonly reproduce: string;
}

export function crashJson(crash: CrashFile): string {
  return `${JSON.stringify(crash, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`;
}

const BALANCES: readonly BalanceChoice[] = ['twice-max', 'max', 'small'];

/** Reads a crash file; a file that is not one is a CONFIG_INVALID harness error. */
export function readCrashFile(file: string): CrashFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarnessError(code ? 'USAGE_ERROR' : 'CONFIG_INVALID', `cannot read ${file}: ${(error as Error).message}`);
  }
  const crash = data as Partial<CrashFile> | null;
  const bad = (why: string) => new HarnessError('CONFIG_INVALID', `${file} is not a fuzzer crash file: ${why}`, 'give a crash-<seed>.json or regression-<seed>.yaml written by cpr-conformance fuzz');
  if (!crash || typeof crash !== 'object' || crash.format !== CRASH_FORMAT) throw bad(`"format" must be ${CRASH_FORMAT}`);
  if (!crash.setup || !BALANCES.includes(crash.setup.balance)) throw bad('"setup.balance" is missing or unknown');
  if (!Array.isArray(crash.commands) || crash.commands.length === 0) throw bad('"commands" must list the command sequence');
  for (const [i, c] of crash.commands.entries()) {
    if (!c || typeof c !== 'object' || !COMMAND_KINDS.includes((c as CommandSpec).kind)) throw bad(`commands[${i}] is not a fuzzer command`);
    if ((c as CommandSpec).kind === 'interleave' && !Array.isArray((c as { order?: unknown }).order)) throw bad(`commands[${i}]: an interleave carries the order it ran in`);
  }
  if (crash.profile !== undefined && crash.profile !== PROFILE_ID) throw bad(`written for ${crash.profile}, this harness speaks ${PROFILE_ID}`);
  return crash as CrashFile;
}
