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
import { BREACHABLE } from './breach.ts';
import { TAMPERED_MEMBERS, type AdvanceChoice, type AmountBound, type AmountChoice, type AssetChoice, type BalanceLike, type BreachEndpoint, type Caller, type CommandKind, type CommandSpec, type DatingChoice, type ExpiryChoice, type Holder, type Identity, type InterleaveOp, type LifetimeOrder, type MixOp, type Presented, type TamperedMember, describe } from './spec.ts';

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
      w.quiet = w.quietFor(spec);
      try {
        await run(spec, contextOf(spec, model, w), this.scheduler);
      } catch (error) {
        await w.settleEarlyReads();
        throw error;
      } finally {
        w.quiet = false;
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
    case 'mix':
      return packs > 0 || spec.ops.every((op) => op.op === 'issue');
    case 'breach':
      return packs > 0 || spec.endpoint === 'issue' || spec.endpoint === 'status';
    case 'reprovision':
    case 'observe':
    case 'issue-many':
    case 'flood':
      return true;
    default:
      return packs > 0;
  }
}

/** renew-to-limit is skipped when the policy allows deeper chains than this. */
const MAX_RENEWALS_IN_ONE_COMMAND = 32;

const weighted = <T>(...entries: [fc.Arbitrary<T>, number][]) => fc.oneof(...entries.map(([arbitrary, weight]) => ({ arbitrary, weight })));
/** Undefined, except one time in `every`. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | undefined> => weighted<T | undefined>([fc.constant(undefined), every - 1], [arbitrary, 1]);
/** A spec without the members left undefined, as a crash file carries it. */
const command = <S extends CommandSpec>(arbitrary: fc.Arbitrary<S>, scheduled?: (spec: S) => fc.Scheduler | undefined) =>
  arbitrary.map((spec) => new FuzzCommand(Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) as S, scheduled?.(spec)));
const packIndex = fc.nat(7);
/** Mostly a fresh id; sometimes the id of an earlier message, of any kind (PROFILE.md §6: one namespace). */
export const reuseId = sometimes(fc.nat(31), 8);
/** A message's created_at (or an HTTP signature's `created`): anywhere in the freshness window, its edges included, or a second outside it. */
const dating = weighted<DatingChoice>([fc.record({ permille: fc.integer({ min: -1000, max: 1000 }) }), 5], [fc.constantFrom<DatingChoice>({ permille: -1000 }, { permille: 1000 }), 1], [fc.constantFrom<DatingChoice>('stale-before', 'stale-after'), 1]);
/** Mostly dated at the Operator's now; sometimes anywhere in the window; rarely a second outside it. */
export const dated = sometimes(dating, 3);
/** Mostly read after; one command in four reads no balance (PROFILE.md §12: a read changes nothing, so an effect must show whether or not it is read). */
const unread = sometimes(fc.constant(true as const), 4);
const holder = weighted<Holder>([fc.constant('bearer'), 4], [fc.constant('previous-bearer'), 1]);
const amount = weighted<AmountChoice>(
  [fc.record({ small: fc.integer({ min: 1, max: 100 }) }), 4],
  [fc.constantFrom<AmountChoice>('available', 'available+1', 'max', 'max+1'), 2],
  [fc.record({ permille: fc.integer({ min: 0, max: 1000 }) }), 1],
  [fc.record({ near: fc.constantFrom<AmountBound>('max', 'available', '2^53', '2^64', 'largest'), delta: fc.integer({ min: -2, max: 2 }) }), 2],
);
const presented = weighted<Presented>([fc.constant('known'), 6], [fc.constant('first'), 2], [fc.record({ version: fc.nat(15) }), 2]);
const tamper = sometimes(fc.record({ member: fc.constantFrom<TamperedMember>(...TAMPERED_MEMBERS), how: fc.constantFrom('unsigned' as const, 'resigned' as const) }), 8);
const balance: fc.Arbitrary<BalanceLike> = weighted<BalanceLike>([fc.constantFrom<BalanceLike>('twice-max', 'max', 'small'), 3], [fc.record({ digits: fc.integer({ min: 16, max: 78 }) }), 1]);
const mixOp = weighted<MixOp>(
  [fc.record({ op: fc.constant('renew' as const), pack: fc.nat(2), by: holder }), 3],
  [fc.record({ op: fc.constant('redeem' as const), pack: fc.nat(2), by: holder, redeemer: weighted<'redeemer' | 'redeemer2'>([fc.constant('redeemer'), 3], [fc.constant('redeemer2'), 1]) }), 3],
  [fc.record({ op: fc.constant('issue' as const), amount }), 2],
  [fc.record({ op: fc.constant('status' as const), pack: fc.nat(2) }), 2],
  [fc.record({ op: fc.constant('cancel' as const), pack: fc.nat(2) }), 1],
);
const breachSpec = fc.constantFrom<BreachEndpoint>('issue', 'renew', 'redeem', 'status').chain((endpoint) =>
  fc.record({ kind: fc.constant('breach' as const), endpoint: fc.constant(endpoint), rules: fc.uniqueArray(fc.nat(BREACHABLE[endpoint] - 1), { minLength: 2, maxLength: 3 }), pack: packIndex, unread }),
);

/**
 * One arbitrary per command kind, with its weight: a flood, the costliest
 * command (up to thousands of requests), has the least.
 */
export const COMMAND_ARBITRARIES: Readonly<Record<CommandKind, [fc.Arbitrary<FuzzCommand>, number]>> = {
  issue: [
    command(
      fc.record({
        kind: fc.constant('issue' as const),
        amount,
        expiry: weighted<ExpiryChoice>([fc.constant('typical'), 5], [fc.constantFrom('min', 'min-1', 'max', 'max+1'), 2], [fc.record({ permille: fc.integer({ min: 0, max: 1000 }) }), 1]),
        signer: weighted<'principal' | 'outsider'>([fc.constant('principal'), 9], [fc.constant('outsider'), 1]),
        asset: sometimes(weighted<AssetChoice>([fc.record({ policy: fc.nat(3) }), 3], [fc.constant('unlisted'), 1]), 6),
        dated,
        unread,
      }),
    ),
    50,
  ],
  renew: [
    command(
      fc.record({
        kind: fc.constant('renew' as const),
        pack: packIndex,
        by: holder,
        digest: weighted<'current' | 'stale'>([fc.constant('current'), 4], [fc.constant('stale'), 1]),
        present: presented,
        tamper,
        reuseId,
        dated,
        unread,
      }),
    ),
    50,
  ],
  'renew-to-limit': [command(fc.record({ kind: fc.constant('renew-to-limit' as const), pack: packIndex })), 10],
  redeem: [
    command(
      fc.record({
        kind: fc.constant('redeem' as const),
        pack: packIndex,
        by: weighted<Holder>([fc.constant('bearer'), 5], [fc.constant('previous-bearer'), 1]),
        identity: weighted<Identity>([fc.constant('identified'), 5], [fc.constantFrom<Identity>('unsigned', 'low-level', 'other-redeemer', 'unregistered'), 2]),
        present: sometimes(presented, 4),
        tamper,
        reuseId,
        dated,
        signedAt: sometimes(dating, 5),
        unread,
      }),
    ),
    30,
  ],
  status: [
    command(
      fc.record({
        kind: fc.constant('status' as const),
        pack: weighted<number | 'unknown'>([packIndex, 5], [fc.constant('unknown'), 1]),
        caller: weighted<Caller>([fc.constant('principal'), 4], [fc.constantFrom('stranger', 'redeemer', 'outsider', 'unsigned'), 2]),
        signedAt: sometimes(dating, 5),
      }),
    ),
    20,
  ],
  advance: [
    command(
      fc.record({
        kind: fc.constant('advance' as const),
        by: weighted<AdvanceChoice>(
          [fc.record({ seconds: fc.integer({ min: 1, max: 120 }) }), 3],
          [fc.record({ toExpiryOf: packIndex, delta: fc.constantFrom(-1 as const, 0 as const) }), 2],
          [fc.record({ toRetentionOf: fc.nat(31) }), 1],
          [fc.constantFrom('window+1' as const, 'past-max-expiry' as const), 1],
        ),
        unread,
      }),
    ),
    20,
  ],
  cancel: [command(fc.record({ kind: fc.constant('cancel' as const), pack: weighted<number | 'unknown'>([packIndex, 5], [fc.constant('unknown'), 1]), unread })), 10],
  replay: [command(fc.record({ kind: fc.constant('replay' as const), message: fc.nat(31), unread })), 30],
  burst: [command(fc.record({ kind: fc.constant('burst' as const), pack: packIndex, op: fc.constantFrom('redeem' as const, 'renew' as const, 'issue' as const), copies: fc.integer({ min: 2, max: 8 }), unread })), 20],
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
    10,
  ],
  mix: [command(fc.record({ kind: fc.constant('mix' as const), ops: fc.array(mixOp, { minLength: 2, maxLength: 4 }), unread })), 30],
  breach: [command(breachSpec), 30],
  reprovision: [
    command(
      weighted<CommandSpec>(
        [fc.record({ kind: fc.constant('reprovision' as const), account: fc.constant('principal' as const), balance: weighted<'zero' | 'same' | BalanceLike>([fc.constantFrom<'zero' | 'same'>('zero', 'same'), 1], [balance, 2]), unread }), 1],
        [fc.record({ kind: fc.constant('reprovision' as const), account: fc.constantFrom('redeemer' as const, 'redeemer2' as const), level: fc.integer({ min: 0, max: 3 }), unread }), 2],
      ),
    ),
    10,
  ],
  observe: [command(fc.record({ kind: fc.constant('observe' as const) })), 10],
  'issue-many': [
    command(fc.record({ kind: fc.constant('issue-many' as const), count: fc.integer({ min: 2, max: 40 }), lifetimes: weighted<LifetimeOrder>([fc.constantFrom<LifetimeOrder>('descending', 'ascending'), 2], [fc.record({ shuffle: fc.nat() }), 1]), unread })),
    10,
  ],
  flood: [command(fc.record({ kind: fc.constant('flood' as const), count: weighted([fc.integer({ min: 2, max: 300 }), 3], [fc.integer({ min: 300, max: 5000 }), 1]), unread })), 1],
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
