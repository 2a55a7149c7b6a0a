// A difference between what the model predicted and what the implementation
// answered: the one way a model run fails. It carries expected and actual, the
// profile rule and the requirement it breaks, so the crash file and the
// regression scenario can name them, and its cause (cause.ts), by which
// findings are told apart. Anything else thrown in a run (a target that stops
// answering, test control that refuses) is a harness fault, never a finding.
import { HarnessError } from '../errors.ts';
import type { Cause } from './cause.ts';

export interface MismatchDetail {
  /** The command, as the crash file lists it. */
  readonly command: string;
  /** What was compared, e.g. "answer", "principal balance", "chain_digest". */
  readonly what: string;
  readonly expected: unknown;
  readonly actual: unknown;
  /** The requirement ID (suites/requirements.yaml) whose rule the answer breaks: the cause's. */
  readonly requirement: string;
  readonly rule?: string;
  /** What the finding is (cause.ts): the same cause is the same finding, whatever sequence showed it. */
  readonly cause: Cause;
}

/** Internal signal, caught in fuzz/engine.ts, fuzz/campaign.ts, fuzz/reduce.ts: a finding, never an error a user sees. */
export class Mismatch extends Error {
  constructor(readonly detail: MismatchDetail) {
    super(`${detail.command}: ${detail.what}: expected ${brief(detail.expected)}, got ${brief(detail.actual)}${detail.rule ? ` (${detail.rule})` : ''}`);
    this.name = 'Mismatch';
  }
}

/** Setup or test control failed, or the model run could not go on: a harness error (exit 2), never a finding. */
export class HarnessFault extends HarnessError {
  constructor(message: string) {
    super('CONFIG_INVALID', message, "the fuzzer sets up fresh state through the target's test control (PROFILE.md §12); it must answer as the profile describes");
    this.name = 'HarnessFault';
  }
}

export function brief(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return text === undefined ? 'nothing' : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
