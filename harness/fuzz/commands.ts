// The fuzzer's commands for fc.commands with fc.asyncModelRun: FuzzCommand wraps
// a CommandSpec (spec.ts: plain JSON, so a crash file can carry it and `replay`
// can run it again) with the world of the run it acts on (its lane, lanes.ts),
// and the arbitraries here choose the specs. Running one (execute.ts) sends
// real signed requests through the operator role, predicts every answer with
// the model (model.ts) and compares (perform.ts, judge.ts): status and problem
// code, for successes the returned pack (operator signature, chain digest
// predicted and recomputed, bearer, depth) or confirmation, and afterwards the
// balances read through test control. The first difference throws a Mismatch
// with expected and actual. Every command also writes the scenario steps it
// amounts to (world.script), with the checks the model predicted: the
// regression scenario is that script.
import fc from 'fast-check';
import type { Ctx } from './judge.ts';
import type { Run, RunModel } from './lanes.ts';
import type { FuzzModel } from './world.ts';
import { EXECUTORS, advance, contextOf } from './execute.ts';
import { type AdvanceChoice, type AmountChoice, type Caller, type CommandKind, type CommandSpec, type DatingChoice, type ExpiryChoice, type Holder, type Identity, type InterleaveOp, describe } from './spec.ts';

/** A command of the model run; see the file comment. `lane` picks the world it acts on (lanes.ts). */
export class FuzzCommand implements fc.AsyncCommand<RunModel, Run> {
  constructor(
    readonly spec: CommandSpec,
    /** Orders an interleave's requests (fc.scheduler); a spec with `order` needs none. */
    private readonly scheduler?: fc.Scheduler,
    readonly lane = 0,
  ) {}

  /** The same command, acting on another world. */
  onLane(lane: number): FuzzCommand {
    return new FuzzCommand(this.spec, this.scheduler, lane);
  }

  check(m: Readonly<RunModel>): boolean {
    if (m.halted()) return false;
    // With one world nothing is in flight here, so its model is current; with
    // more, a lane's model is read when the command's turn comes (run).
    return m.lanes.length > 1 || applicable(this.spec, m.lanes[0]!);
  }

  async run(m: RunModel, r: Run): Promise<void> {
    const lane = this.lane % r.worlds.length;
    const spec = this.spec;
    if (spec.kind === 'advance') return r.barrier(lane, () => advance(spec, lane, m, r));
    const done = r.enqueue(lane, async () => {
      const model = m.lanes[lane]!;
      if (!r.sequential && (m.halted() || !applicable(spec, model))) return;
      const w = r.worlds[lane]!;
      const run = EXECUTORS[spec.kind as Exclude<CommandKind, 'advance'>] as (spec: CommandSpec, ctx: Ctx, scheduler?: fc.Scheduler) => Promise<void>;
      try {
        await run(spec, contextOf(spec, model, w), this.scheduler);
      } catch (error) {
        await w.settleEarlyReads();
        throw error;
      }
    });
    if (r.sequential) {
      await done;
      r.throwIfFailed();
    }
  }

  toString(): string {
    return this.lane === 0 ? describe(this.spec) : `${describe(this.spec)}@${this.lane}`;
  }

  // A scheduler is stateful: each run gets a fresh copy, so a replay orders the same way.
  [fc.cloneMethod](): FuzzCommand {
    return new FuzzCommand(this.spec, this.scheduler === undefined ? undefined : fc.cloneIfNeeded(this.scheduler), this.lane);
  }
}

function applicable(spec: CommandSpec, m: Readonly<FuzzModel>): boolean {
  const packs = m.operator.packList().length;
  switch (spec.kind) {
    case 'issue':
    case 'advance':
      return true;
    case 'status':
    case 'cancel':
      return spec.pack === 'unknown' || packs > 0;
    case 'replay':
      return m.sent > 0;
    case 'burst':
      return spec.op === 'issue' || packs > 0;
    case 'renew-to-limit':
      return packs > 0 && m.operator.policy.maxChainDepth <= MAX_RENEWALS_IN_ONE_COMMAND;
    default:
      return packs > 0;
  }
}

/** renew-to-limit is skipped when the policy allows deeper chains than this. */
const MAX_RENEWALS_IN_ONE_COMMAND = 32;

const weighted = <T>(...entries: [fc.Arbitrary<T>, number][]) => fc.oneof(...entries.map(([arbitrary, weight]) => ({ arbitrary, weight })));
const packIndex = fc.nat(7);
/** Mostly a fresh id; sometimes the id of an earlier message, of any kind (PROFILE.md §6: one namespace). */
export const reuseId = fc.option(fc.nat(31), { nil: undefined, freq: 8 });
/** Mostly dated at the Operator's now; sometimes anywhere in the window; rarely a second outside it. */
export const dated = fc.option(weighted<DatingChoice>([fc.record({ permille: fc.integer({ min: -1000, max: 1000 }) }), 5], [fc.constantFrom<DatingChoice>('stale-before', 'stale-after'), 1]), { nil: undefined, freq: 3 });

/** One arbitrary per command kind, with its weight. */
export const COMMAND_ARBITRARIES: Readonly<Record<CommandKind, [fc.Arbitrary<FuzzCommand>, number]>> = {
  issue: [
    fc
      .record({
        kind: fc.constant('issue' as const),
        amount: weighted<AmountChoice>([fc.record({ small: fc.integer({ min: 1, max: 100 }) }), 4], [fc.constantFrom('available', 'available+1', 'max', 'max+1'), 2]),
        expiry: weighted<ExpiryChoice>([fc.constant('typical'), 5], [fc.constantFrom('min', 'min-1', 'max', 'max+1'), 2], [fc.record({ permille: fc.integer({ min: 0, max: 1000 }) }), 1]),
        signer: weighted<'principal' | 'outsider'>([fc.constant('principal'), 9], [fc.constant('outsider'), 1]),
        dated,
      })
      .map((spec) => new FuzzCommand(spec)),
    5,
  ],
  renew: [
    fc
      .record({
        kind: fc.constant('renew' as const),
        pack: packIndex,
        by: weighted<Holder>([fc.constant('bearer'), 4], [fc.constant('previous-bearer'), 1]),
        digest: weighted<'current' | 'stale'>([fc.constant('current'), 4], [fc.constant('stale'), 1]),
        present: weighted<'known' | 'first'>([fc.constant('known'), 3], [fc.constant('first'), 1]),
        reuseId,
        dated,
      })
      .map((spec) => new FuzzCommand(spec)),
    5,
  ],
  'renew-to-limit': [fc.record({ kind: fc.constant('renew-to-limit' as const), pack: packIndex }).map((spec) => new FuzzCommand(spec)), 1],
  redeem: [
    fc
      .record({
        kind: fc.constant('redeem' as const),
        pack: packIndex,
        by: weighted<Holder>([fc.constant('bearer'), 5], [fc.constant('previous-bearer'), 1]),
        identity: weighted<Identity>([fc.constant('identified'), 5], [fc.constantFrom<Identity>('unsigned', 'low-level', 'other-redeemer', 'unregistered'), 2]),
        reuseId,
        dated,
      })
      .map((spec) => new FuzzCommand(spec)),
    3,
  ],
  status: [
    fc
      .record({
        kind: fc.constant('status' as const),
        pack: weighted<number | 'unknown'>([packIndex, 5], [fc.constant('unknown'), 1]),
        caller: weighted<Caller>([fc.constant('principal'), 4], [fc.constantFrom('stranger', 'redeemer', 'outsider', 'unsigned'), 2]),
      })
      .map((spec) => new FuzzCommand(spec)),
    2,
  ],
  advance: [
    fc
      .record({
        kind: fc.constant('advance' as const),
        by: weighted<AdvanceChoice>(
          [fc.record({ seconds: fc.integer({ min: 1, max: 120 }) }), 3],
          [fc.record({ toExpiryOf: packIndex, delta: fc.constantFrom(-1 as const, 0 as const) }), 2],
          [fc.constantFrom('window+1' as const, 'past-max-expiry' as const), 1],
        ),
      })
      .map((spec) => new FuzzCommand(spec)),
    2,
  ],
  cancel: [
    fc.record({ kind: fc.constant('cancel' as const), pack: weighted<number | 'unknown'>([packIndex, 5], [fc.constant('unknown'), 1]) }).map((spec) => new FuzzCommand(spec)),
    1,
  ],
  replay: [fc.record({ kind: fc.constant('replay' as const), message: fc.nat(31) }).map((spec) => new FuzzCommand(spec)), 3],
  burst: [
    fc
      .record({ kind: fc.constant('burst' as const), pack: packIndex, op: fc.constantFrom('redeem' as const, 'renew' as const, 'issue' as const), copies: fc.integer({ min: 2, max: 8 }) })
      .map((spec) => new FuzzCommand(spec)),
    2,
  ],
  interleave: [
    fc
      .record({
        spec: fc.record({
          kind: fc.constant('interleave' as const),
          pack: packIndex,
          ops: fc.array(fc.constantFrom<InterleaveOp>('redeem', 'renew', 'cancel', 'status'), { minLength: 2, maxLength: 3 }),
        }),
        scheduler: fc.scheduler(),
      })
      .map(({ spec, scheduler }) => new FuzzCommand(spec, scheduler)),
    1,
  ],
};

/**
 * The commands of a model run (fc.commands), each on one of `lanes` worlds
 * (lanes.ts). Every world lives through every clock move, so with more than one
 * world `advance` is `lanes` times rarer: each world sees the clock move as
 * often, among its own commands, as a run of its own would.
 */
export function commandsArbitrary(maxCommands = 30, lanes = 1): fc.Arbitrary<Iterable<FuzzCommand>> {
  const entries = (Object.entries(COMMAND_ARBITRARIES) as [CommandKind, [fc.Arbitrary<FuzzCommand>, number]][]).map(([kind, [arbitrary, weight]]): [fc.Arbitrary<FuzzCommand>, number] => [arbitrary, kind === 'advance' ? weight : weight * lanes]);
  const one = weighted(...entries);
  const placed = lanes > 1 ? fc.tuple(one, fc.nat(lanes - 1)).map(([command, lane]) => command.onLane(lane)) : one;
  return fc.commands([placed], { maxCommands, size: lanes > 1 ? 'large' : 'medium' }) as fc.Arbitrary<Iterable<FuzzCommand>>;
}
