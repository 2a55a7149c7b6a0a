// The crash file of a counterexample: the seed and fast-check's path, the minimal
// command sequence as data (so `replay` can run it again), every request and
// response of the replay against fresh state (bodies capped), and what the model
// expected against what the implementation answered, with its cause (cause.ts).
//
// Format 2 added failure.cause, setup.without and reduction; a format 1 file
// (no cause to follow) is refused with what to do. Every role's fuzzer writes
// this one format: `role` says whose it is (absent: the Operator's, as before
// other roles had fuzzers), and `setup` and `commands` are that role's data,
// which its own reader checks (readCrashFile for the Operator's).
import { readFileSync } from 'node:fs';
import type { PolicyDocument } from '../../profile/cashpack/index.ts';
import { PROFILE_ID } from '../../profile/index.ts';
import { HarnessError } from '../errors.ts';
import type { Exchange } from './client.ts';
import { COMMAND_KINDS, type CommandSpec } from './spec.ts';
import type { MismatchDetail } from './mismatch.ts';
import { OPTIONAL_ACCOUNTS, type BalanceChoice, type RunSetup } from './world.ts';

export const CRASH_FORMAT = 'cpr-conformance-fuzz-crash/2';

/** The roles with a fuzzer of their own (`fuzz --role`). */
export const FUZZ_ROLES = ['operator', 'payee', 'paying-app'] as const;
export type FuzzRole = (typeof FUZZ_ROLES)[number];

/** What every role's crash file holds: the role's own setup and commands are data its reader checks. */
export interface CrashEnvelope {
  readonly format: typeof CRASH_FORMAT;
  /** Absent in the Operator's files. */
  readonly role?: FuzzRole;
  readonly profile: string;
  readonly seed: number;
  /** fast-check's counterexample path: `fuzz --seed` with it reproduces the shrunk run (before the reduction). */
  readonly path: string;
  /** fast-check's rendering of the shrunk counterexample. */
  readonly counterexample: string;
  /** True when the shrunk counterexample did not fail again against fresh state. */
  readonly flaky: boolean;
  readonly target: string;
  /** The role's fresh state, as data. */
  readonly setup: unknown;
  /** The minimal command sequence, as the role's data: shrunk, then reduced. */
  readonly commands: readonly unknown[];
  readonly commands_text: readonly string[];
  /** The reduction after shrinking (reduce.ts): its runs, and the failing world's sequence before it. */
  readonly reduction: { readonly attempts: number; readonly shrunk: readonly string[] };
  readonly failure: MismatchDetail & { readonly message: string };
  /** Every exchange with the target in the replay (or in the failing run, when flaky). */
  readonly exchanges: readonly unknown[];
  readonly regression: string;
  readonly reproduce: string;
}

/** The role a crash file belongs to. */
export function crashRole(crash: Pick<CrashEnvelope, 'role'>): FuzzRole {
  return crash.role ?? 'operator';
}

/** The Operator's crash file. */
export interface CrashFile extends CrashEnvelope {
  readonly policy: PolicyDocument;
  readonly setup: RunSetup;
  readonly commands: readonly CommandSpec[];
  /** Every request and response of the replay (or of the failing run, when flaky). */
  readonly exchanges: readonly Exchange[];
}

export function crashJson(crash: CrashEnvelope): string {
  return `${JSON.stringify(crash, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`;
}

const BALANCES: readonly BalanceChoice[] = ['twice-max', 'max', 'small'];

/** A crash file's shared members checked; a file that is not one is a CONFIG_INVALID harness error (an unreadable one USAGE_ERROR). */
export function readCrashEnvelope(file: string): CrashEnvelope {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarnessError(code ? 'USAGE_ERROR' : 'CONFIG_INVALID', `cannot read ${file}: ${(error as Error).message}`);
  }
  const crash = data as Partial<CrashEnvelope> | null;
  const bad = crashFault(file);
  if (!crash || typeof crash !== 'object') throw bad(`"format" must be ${CRASH_FORMAT}`);
  if ((crash.format as string) === 'cpr-conformance-fuzz-crash/1') throw bad(`it is format 1, written before findings had a cause; run the campaign again (its seed is in the file), or replay regression-${String(crash.seed)}.yaml beside it`);
  if (crash.format !== CRASH_FORMAT) throw bad(`"format" must be ${CRASH_FORMAT}`);
  if (crash.role !== undefined && !FUZZ_ROLES.includes(crash.role)) throw bad(`"role" must be one of ${FUZZ_ROLES.join(', ')}`);
  const cause = crash.failure?.cause;
  if (!cause || typeof cause !== 'object' || !(['requirement', 'kind', 'what', 'difference'] as const).every((k) => typeof cause[k] === 'string')) throw bad('"failure.cause" must give requirement, kind, what and difference');
  if (!Array.isArray(crash.commands) || crash.commands.length === 0) throw bad('"commands" must list the command sequence');
  if (crash.profile !== undefined && crash.profile !== PROFILE_ID) throw bad(`written for ${crash.profile}, this harness speaks ${PROFILE_ID}`);
  return crash as CrashEnvelope;
}

/** The error for a file that is not a crash file, naming what is wrong. */
export function crashFault(file: string): (why: string) => HarnessError {
  return (why) => new HarnessError('CONFIG_INVALID', `${file} is not a fuzzer crash file: ${why}`, 'give a crash-<seed>.json or regression-<seed>.yaml written by cpr-conformance fuzz');
}

/** Reads the Operator's crash file; a file that is not one is a CONFIG_INVALID harness error. */
export function readCrashFile(file: string): CrashFile {
  return operatorCrash(readCrashEnvelope(file), file);
}

/** The Operator's parts of a crash file checked. */
export function operatorCrash(crash: CrashEnvelope, file: string): CrashFile {
  const bad = crashFault(file);
  if (crashRole(crash) !== 'operator') throw bad(`it is a finding of the ${crashRole(crash)} fuzzer, not the Operator's`);
  const setup = crash.setup as Partial<RunSetup> | undefined;
  if (!setup || !BALANCES.includes(setup.balance!)) throw bad('"setup.balance" is missing or unknown');
  if (setup.without !== undefined && (!Array.isArray(setup.without) || !setup.without.every((a) => OPTIONAL_ACCOUNTS.includes(a)))) throw bad(`"setup.without" lists accounts among ${OPTIONAL_ACCOUNTS.join(', ')}`);
  for (const [i, c] of crash.commands.entries()) {
    if (!c || typeof c !== 'object' || !COMMAND_KINDS.includes((c as CommandSpec).kind)) throw bad(`commands[${i}] is not a fuzzer command`);
    if ((c as CommandSpec).kind === 'interleave' && !Array.isArray((c as { order?: unknown }).order)) throw bad(`commands[${i}]: an interleave carries the order it ran in`);
  }
  return crash as CrashFile;
}
