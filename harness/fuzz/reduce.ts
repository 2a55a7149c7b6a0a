// The pass after shrinking: fast-check's shrinker over a command list keeps
// commands the failure does not need when removing them changes ids or state
// along the way, and it never touches a burst's copies or the world's
// accounts. This pass (delta debugging) tries to remove chunks of commands, then
// single ones; to replace a burst or an interleaving by fewer members, down to
// the one request it repeats; to drop a command's optional choices (its dating,
// a reused id); and to leave out each account the world provisions but the
// Principal. Each try is a run of its own against the target from fresh state,
// and a removal is kept when the same cause (cause.ts) comes back. It is bounded
// by a count of runs, never by the clock.
import { sameCause } from './cause.ts';
import type { Failing, RunRecord } from './engine.ts';
import { Mismatch, type MismatchDetail } from './mismatch.ts';
import type { CommandSpec, InterleaveOp } from './spec.ts';
import type { RunSetup, World } from './world.ts';

/** A failing run: its world (one lane), what failed, and the setup and commands that made it. */
export interface FailingRun {
  readonly setup: RunSetup;
  readonly commands: readonly CommandSpec[];
  readonly world: World;
  readonly detail: MismatchDetail;
  readonly message: string;
}

interface Reduction extends FailingRun {
  /** Runs the pass made, each against fresh state. */
  readonly attempts: number;
}

/** One run of one world from fresh state (campaign.ts runOnce): its world, and what it threw. */
export type RunWorld = (setup: RunSetup, commands: readonly CommandSpec[]) => Promise<{ readonly world?: World; readonly error?: unknown }>;

export { DEFAULT_REDUCE_ATTEMPTS } from './engine.ts';

/** The request a burst repeats, or an interleaving's operation, as a command of its own (the same request as execute.ts builds it). */
const LONE: Readonly<Record<InterleaveOp, (pack: number) => CommandSpec>> = {
  redeem: (pack) => ({ kind: 'redeem', pack, by: 'bearer', identity: 'identified' }),
  renew: (pack) => ({ kind: 'renew', pack, by: 'bearer', digest: 'current', present: 'known' }),
  cancel: (pack) => ({ kind: 'cancel', pack }),
  status: (pack) => ({ kind: 'status', pack, caller: 'principal' }),
};

/** Simpler forms of one command, the simplest first. */
function simpler(spec: CommandSpec): CommandSpec[] {
  const out: CommandSpec[] = [];
  if (spec.kind === 'burst') {
    if (spec.op !== 'issue') out.push(LONE[spec.op](spec.pack));
    if (spec.copies > 2) out.push({ ...spec, copies: spec.copies - 1 });
  }
  if (spec.kind === 'interleave' && spec.order !== undefined) {
    const order = spec.order;
    spec.ops.forEach((_, drop) => {
      const ops = spec.ops.filter((_, i) => i !== drop);
      out.push(ops.length === 1 ? LONE[ops[0]!](spec.pack) : { ...spec, ops, order: order.filter((i) => i !== drop).map((i) => (i > drop ? i - 1 : i)) });
    });
  }
  // Optional choices: dated at the Operator's now, a fresh id.
  if ('dated' in spec && spec.dated !== undefined) out.push(without(spec, 'dated'));
  if ('reuseId' in spec && spec.reuseId !== undefined) out.push(without(spec, 'reuseId'));
  return out;
}

function without<S extends CommandSpec>(spec: S, member: string): S {
  const { [member]: _dropped, ...rest } = spec as Record<string, unknown>;
  return rest as S;
}

/**
 * Reduces a failing run to what its cause needs, in at most `maxAttempts`
 * runs of `run`; `onAttempt` is told of each. The result is the last run that
 * failed with the same cause (`found` itself when no reduction held). A
 * harness fault in a run is thrown.
 */
export function reduceFinding(run: RunWorld, found: FailingRun, maxAttempts: number, onAttempt?: () => void): Promise<Reduction> {
  return reduceSequence<RunSetup, CommandSpec, FailingRun>(
    {
      async run(setup, commands) {
        const record = await run(setup, commands);
        // What ran: commands whose precondition failed were skipped, those after the failure never ran.
        const failing = record.error instanceof Mismatch ? { setup, commands: [...record.world!.executed], world: record.world!, detail: record.error.detail, message: record.error.message } : undefined;
        return { ...(failing ? { failing } : {}), ...(record.error !== undefined ? { error: record.error } : {}) };
      },
      simpler,
      // Leaves out each account of the world but the Principal.
      leaveOut: (best) => best.world.optionalAccounts().map((account) => (setup: RunSetup) => ({ ...setup, without: [...(setup.without ?? []), account] })),
    },
    found,
    maxAttempts,
    onAttempt,
  );
}

/** What the reduction needs of a role: a run from fresh state, simpler forms of a command, and setups with something left out. */
export interface SequenceReducer<S, C, F extends Failing & { readonly setup: S; readonly commands: readonly C[] }> {
  /** One run from fresh state; `failing` holds what ran (its setup and commands). */
  run(setup: S, commands: readonly C[]): Promise<RunRecord<F>>;
  /** Simpler forms of one command, the simplest first. */
  simpler(command: C): C[];
  /** Ways to leave one thing out of a setup (tried one by one on the best run's setup so far). */
  leaveOut(best: F): ((setup: S) => S)[];
}

/**
 * The pass itself, for any role whose findings are a setup and a command
 * sequence: removes chunks of commands, then single ones, simplifies each
 * command, and tries the role's smaller setups, as long as something holds
 * and runs are left. A removal is kept when the same cause comes back.
 */
export async function reduceSequence<S, C, F extends Failing & { readonly setup: S; readonly commands: readonly C[] }>(
  role: SequenceReducer<S, C, F>,
  found: F,
  maxAttempts: number,
  onAttempt?: () => void,
): Promise<F & { readonly attempts: number }> {
  let best = found;
  let attempts = 0;
  const exhausted = () => attempts >= maxAttempts;

  /** Runs a candidate; keeps it when it fails with the finding's cause. */
  const holds = async (setup: S, commands: readonly C[]): Promise<boolean> => {
    if (exhausted()) return false;
    attempts++;
    onAttempt?.();
    const record = await role.run(setup, commands);
    if (record.error === undefined) return false;
    if (!(record.error instanceof Mismatch)) throw record.error;
    if (!sameCause(record.error.detail.cause, found.detail.cause) || record.failing === undefined) return false;
    best = record.failing;
    return true;
  };

  /**
   * Removes chunks of the commands before the failing one (the last, which no
   * removal can spare): halves, then quarters, ... then single commands.
   */
  const removeChunks = async (): Promise<boolean> => {
    let progress = false;
    let parts = 2;
    while (!exhausted()) {
      const before = best.commands.slice(0, -1);
      const last = best.commands.at(-1)!;
      if (before.length === 0) break;
      parts = Math.min(parts, before.length);
      const size = Math.ceil(before.length / parts);
      let removed = false;
      for (let start = 0; start < before.length && !removed; start += size) {
        removed = await holds(best.setup, [...before.slice(0, start), ...before.slice(start + size), last]);
      }
      if (removed) {
        progress = true;
        parts = Math.max(parts - 1, 2);
      } else if (size === 1) {
        break;
      } else {
        parts *= 2;
      }
    }
    return progress;
  };

  /** Replaces one command by a simpler form of it, each command in turn. */
  const simplifyCommands = async (): Promise<boolean> => {
    let progress = false;
    for (let i = 0; i < best.commands.length && !exhausted(); i++) {
      for (const variant of role.simpler(best.commands[i]!)) {
        const commands = best.commands;
        if (await holds(best.setup, [...commands.slice(0, i), variant, ...commands.slice(i + 1)])) {
          progress = true;
          break;
        }
      }
    }
    return progress;
  };

  /** Tries the best setup with one thing left out, each in turn. */
  const smallerSetups = async (): Promise<boolean> => {
    let progress = false;
    for (const leave of role.leaveOut(best)) {
      if (exhausted()) break;
      if (await holds(leave(best.setup), best.commands)) progress = true;
    }
    return progress;
  };

  for (let changed = true; changed && !exhausted(); ) {
    const removed = await removeChunks();
    const simplified = await simplifyCommands();
    const dropped = await smallerSetups();
    changed = removed || simplified || dropped;
  }
  return { ...best, attempts };
}
