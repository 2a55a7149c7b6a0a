// The fuzzer's commands (fc.commands with fc.asyncModelRun). A command is data
// (CommandSpec: plain JSON, so a crash file can carry it and `replay` can run it
// again) wrapped in FuzzCommand, which also names the world of the run it acts
// on (its lane, lanes.ts). Each sends real signed requests through the
// operator role, predicts every answer with the model (model.ts) and compares:
// status and problem code, for successes the returned pack (operator signature,
// chain digest predicted and recomputed, bearer, depth) or confirmation, and
// afterwards the balances read through test control. The first difference throws
// a Mismatch with expected and actual.
//
// Choices that depend on the state (which pack, which amount, how far to move the
// clock) are resolved when the command runs, against the model: a pack index is
// taken modulo the packs issued so far, so a shrunk sequence still means something.
// Every command also writes the scenario steps it amounts to (world.script), with
// the checks the model predicted: the regression scenario is that script.
import fc from 'fast-check';
import { parseTimestamp, toAmount } from '../../profile/index.ts';
import type { CashPack } from '../../profile/cashpack/index.ts';
import type { WireRequest } from '../adapters/types.ts';
import type { Reply } from './client.ts';
import { buildCancel, buildIssue, buildRedeem, buildRenew, buildStatus, ISSUE_PATH, REDEEM_PATH, RENEW_PATH } from './messages.ts';
import { Mismatch } from './mismatch.ts';
import { burstChecks, judge, judgeAnswer, judgeBurstAnswer, judgeConfirmation, judgeEqual, judgePack, judgeSchema, tally, type Ctx } from './judge.ts';
import { depthOf, digestOf, type Decision, type IssueMessage, type Prediction, type PackState, type RedeemMessage, type RedeemPrediction, type RenewMessage, type RenewPrediction } from './model.ts';
import { LaneFailure, type Run, type RunModel } from './lanes.ts';
import { control, FROZEN_AT, KEY, type FuzzModel, type RealPack, type ScriptCheck, type World } from './world.ts';

// ---- Commands as data ----

/** An amount near the policy's and the balance's bounds (PROFILE.md §5 issue steps 7 and 9). */
type AmountChoice = { readonly small: number } | 'available' | 'available+1' | 'max' | 'max+1';
/** A lifetime near the policy's bounds (issue step 8); `typical` is one hour, kept within them. */
type ExpiryChoice = 'typical' | 'min' | 'min-1' | 'max' | 'max+1' | { readonly permille: number };
/** How far the clock moves: seconds, to just before or at a pack's expiry, past the freshness window, past every expiry. */
type AdvanceChoice = { readonly seconds: number } | { readonly toExpiryOf: number; readonly delta: -1 | 0 } | 'window+1' | 'past-max-expiry';
/** Who signs a renewal or redemption: the current bearer, or the one before it (a key that never held the pack on a fresh pack). */
type Holder = 'bearer' | 'previous-bearer';
/** The redeemer's HTTP identity (PROFILE.md §5 redeem step 9). */
export type Identity = 'identified' | 'unsigned' | 'low-level' | 'other-redeemer' | 'unregistered';
/** Who reads a status (PROFILE.md §5 status). */
export type Caller = 'principal' | 'stranger' | 'redeemer' | 'outsider' | 'unsigned';
type InterleaveOp = 'redeem' | 'renew' | 'cancel' | 'status';
/**
 * When a signed message says it was created (PROFILE.md §6): at the Operator's
 * now when absent; anywhere in the freshness window, as a share of it (-1000 a
 * whole window early, 1000 a whole window late); or a second outside it. Rules
 * that must read the Operator's clock are told from ones reading created_at only
 * when the two differ.
 */
type DatingChoice = { readonly permille: number } | 'stale-before' | 'stale-after';

export type CommandSpec =
  | { readonly kind: 'issue'; readonly amount: AmountChoice; readonly expiry: ExpiryChoice; readonly signer: 'principal' | 'outsider'; readonly dated?: DatingChoice }
  | { readonly kind: 'renew'; readonly pack: number; readonly by: Holder; readonly digest: 'current' | 'stale'; readonly present: 'known' | 'first'; readonly reuseId?: number; readonly dated?: DatingChoice }
  | { readonly kind: 'renew-to-limit'; readonly pack: number }
  | { readonly kind: 'redeem'; readonly pack: number; readonly by: Holder; readonly identity: Identity; readonly reuseId?: number; readonly dated?: DatingChoice }
  | { readonly kind: 'status'; readonly pack: number | 'unknown'; readonly caller: Caller }
  | { readonly kind: 'advance'; readonly by: AdvanceChoice }
  | { readonly kind: 'cancel'; readonly pack: number | 'unknown' }
  | { readonly kind: 'replay'; readonly message: number }
  | { readonly kind: 'burst'; readonly pack: number; readonly op: 'redeem' | 'renew' | 'issue'; readonly copies: number }
  | { readonly kind: 'interleave'; readonly pack: number; readonly ops: readonly InterleaveOp[]; readonly order?: readonly number[] };

type CommandKind = CommandSpec['kind'];
export const COMMAND_KINDS: readonly CommandKind[] = ['issue', 'renew', 'renew-to-limit', 'redeem', 'status', 'advance', 'cancel', 'replay', 'burst', 'interleave'];

/** Readable form, as fast-check prints a counterexample and the crash file lists it. */
export function describe(spec: CommandSpec): string {
  const { kind, ...rest } = spec;
  const args = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return `${kind}(${args.join(', ')})`;
}

// ---- fast-check ----

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

/** The label is only read when a comparison fails. */
function contextOf(spec: CommandSpec, m: FuzzModel, w: World): Ctx {
  return {
    m,
    w,
    get label() {
      return describe(spec);
    },
  };
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
const reuseId = fc.option(fc.nat(31), { nil: undefined, freq: 8 });
/** Mostly dated at the Operator's now; sometimes anywhere in the window; rarely a second outside it. */
const dated = fc.option(weighted<DatingChoice>([fc.record({ permille: fc.integer({ min: -1000, max: 1000 }) }), 5], [fc.constantFrom<DatingChoice>('stale-before', 'stale-after'), 1]), { nil: undefined, freq: 3 });

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

// ---- Running a command ----

/**
 * N Lock Requests of one Principal released together, each for more than half
 * its available balance: exactly one can be issued (spec §1.2, funds locked on
 * issue; PROFILE.md §5 issue step 9), whatever order the Operator takes them in.
 * The winner's pack joins the world under the name the script gives the first
 * 200 of the burst.
 */
async function issueBurst(copies: number, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  w.executed.push({ kind: 'burst', pack: 0, op: 'issue', copies });
  const policy = m.operator.policy;
  const available = m.operator.principal(w.kid(KEY.principal))!.available;
  const amount = available / 2n + 1n; // two of them exceed what is available, one does not (when it is at least 1)
  const lifetime = resolveExpiry('typical', policy.expiryMinSeconds, policy.expiryMaxSeconds);
  const bearer = w.newBearer();
  const now = m.operator.now;
  const builds = Array.from({ length: copies }, () => buildIssue(w, now, { signer: KEY.principal, bearer, amount, expiryMs: now + lifetime * 1000 }));
  const capture = w.capture();
  const first = m.operator.issue(builds[0]!.message).outcome;
  const step = w.step({ do: 'parallel', copies, of: { do: 'issue', principal: KEY.principal, bearer, amount: toAmount(amount), expiry_in: lifetime, beyond_limit: true }, as: capture });
  builds.forEach((b, i) => w.sent.push({ message: b.message, request: b.request, sentRef: `${capture}.sent[${i}]` }));
  m.sent = w.sent.length;

  const replies = await Promise.all(builds.map((b) => w.send(b.request)));

  if (!first.ok) {
    const decisions = builds.map((b) => m.operator.issue(b.message));
    step.expect.push(...burstChecks('issue', decisions.map((d) => d.outcome), 'CPP-BAL-1'));
    decisions.forEach((d, i) => {
      judgeBurstAnswer(ctx, 'issue', d.outcome, replies[i]!);
      d.commit(undefined);
    });
    return w.checkBalances(m, ctx, 'CPP-BAL-1', false);
  }
  const winners = replies.flatMap((r, i) => (r.status === 200 ? [i] : []));
  if (winners.length !== 1) {
    step.expect.push({ exactly_one: { status: 200 }, requirement: 'CPP-BAL-1' });
    throw new Mismatch({ command: ctx.label, what: `${copies} concurrent Lock Requests, each for more than half the balance`, expected: 'exactly one 200', actual: tally(replies), requirement: 'CPP-BAL-1', rule: 'spec §1.2: funds are locked on issue; the balance covers one of them only' });
  }
  const winner = winners[0]!;
  const body = replies[winner]!.body as CashPack;
  // The model takes the winner first, then the others meet the balance it left.
  const decision = m.operator.issue(builds[winner]!.message);
  decision.commit(body.pack_id);
  const losers = builds.flatMap((b, i) => {
    if (i === winner) return [];
    const d = m.operator.issue(b.message);
    d.commit(undefined);
    return [{ i, d }];
  });
  step.expect.push(...burstChecks('issue', [decision.outcome, ...losers.map(({ d }) => d.outcome)], 'CPP-BAL-1'));
  for (const { i, d } of losers) judgeBurstAnswer(ctx, 'issue', d.outcome, replies[i]!);
  // The script names the winner by what it answered, not by its place in the burst.
  const won = w.capture();
  const wonStep = w.step({ do: 'let', values: { [won]: `\${first_ok(${capture})}` } });
  const packRef = `${won}.body`;
  const initialBearer = bearerKeyOf(builds[winner]!.message);
  judgePack(ctx, wonStep, body, ref(packRef), {
    digest: m.operator.genesisDigest(body.pack_id, initialBearer),
    digestAt: ref(`genesis_digest(${packRef}.pack_id, ${won}.sent.initial_bearer_pk)`),
    depth: 0,
    bearer: initialBearer,
    bearerAt: ref(`${won}.sent.initial_bearer_pk.x`),
  }, 'CPP-ISS-1');
  w.packs.set(body.pack_id, { packId: body.pack_id, idRef: `${packRef}.pack_id`, first: body, firstRef: packRef, known: body, knownRef: packRef, digestRefs: [`${packRef}.chain_digest`], bearerNames: [bearer] });
  await w.checkBalances(m, ctx, 'CPP-BAL-1', false);
}

function bearerKeyOf(message: IssueMessage): string {
  return message.initialBearer;
}

type Executor<K extends CommandKind> = (spec: Extract<CommandSpec, { kind: K }>, ctx: Ctx, scheduler?: fc.Scheduler) => Promise<void>;

/** Every kind but `advance`, which moves the clock of every world (advance below). */
const EXECUTORS: { readonly [K in Exclude<CommandKind, 'advance'>]: Executor<K> } = {
  async issue(spec, ctx) {
    const { m, w } = ctx;
    w.executed.push(spec);
    const policy = m.operator.policy;
    const principal = m.operator.principal(w.kid(KEY.principal))!;
    const amount = resolveAmount(spec.amount, principal.available, policy.maxAmount);
    const lifetime = resolveExpiry(spec.expiry, policy.expiryMinSeconds, policy.expiryMaxSeconds);
    const bearer = w.newBearer();
    const offset = datedOffset(spec.dated, policy.requestWindowSeconds);
    const built = buildIssue(w, m.operator.now, { signer: spec.signer, bearer, amount, expiryMs: m.operator.now + lifetime * 1000, createdMs: m.operator.now + offset * 1000 });
    const capture = w.capture();
    const fields = { do: 'issue', principal: spec.signer, bearer, amount: toAmount(amount), expiry_in: lifetime, ...createdAtField(offset), beyond_limit: true, as: capture };
    await performIssue(ctx, built, fields, capture, bearer, undefined, () => w.readBalancesNow(false));
    await w.checkBalances(m, ctx, 'CPP-FND-1', false);
  },

  async renew(spec, ctx) {
    const { m, w } = ctx;
    w.executed.push(spec);
    const { pack, real } = pickPack(ctx, spec.pack);
    const depth = depthOf(pack);
    const bearer = spec.by === 'bearer' ? real.bearerNames.at(-1)! : depth >= 1 ? real.bearerNames.at(-2)! : KEY.outsider;
    // A stale digest: the one before the current, or on a fresh pack one that never was.
    const [prevDigest, prevExpr] =
      spec.digest === 'current' ? [digestOf(pack), ref(real.digestRefs.at(-1)!)]
      : depth >= 1 ? [pack.digests.at(-2)!, ref(real.digestRefs.at(-2)!)]
      : [NEVER_A_DIGEST, NEVER_A_DIGEST];
    const [presented, presentedRef] = spec.present === 'first' ? [real.first, real.firstRef] : [real.known, real.knownRef];
    const reused = reusedId(ctx, spec.reuseId);
    const newBearer = w.newBearer();
    const offset = datedOffset(spec.dated, m.operator.policy.requestWindowSeconds);
    const built = buildRenew(w, m.operator.now, { pack: presented, bearer, newBearer, prevDigest, ...(reused ? { id: reused.id } : {}), createdMs: m.operator.now + offset * 1000 });
    const capture = w.capture();
    const fields = {
      do: 'renew',
      pack: ref(presentedRef),
      bearer,
      new_bearer: newBearer,
      prev_chain_digest: prevExpr,
      ...(reused ? { renewal_id: ref(reused.expr) } : {}),
      ...createdAtField(offset),
      beyond_limit: true,
      as: capture,
    };
    await performRenew(ctx, built.message, built.request, fields, capture, { newBearer, packRef: presentedRef, fresh: true, sentAt: 'res.sent', onReply: () => w.readBalancesNow(false) });
    await w.checkBalances(m, ctx, 'CPP-FND-1', false);
  },

  async 'renew-to-limit'(spec, ctx) {
    const { m, w } = ctx;
    w.executed.push(spec);
    const { pack, real } = pickPack(ctx, spec.pack);
    // Renew by the current bearer until the chain is at max_chain_depth, then once more (renew step 10).
    const steps = Math.max(0, m.operator.policy.maxChainDepth - depthOf(pack)) + 1;
    for (let i = 0; i < steps && !m.halted(); i++) {
      const newBearer = w.newBearer();
      const bearer = real.bearerNames.at(-1)!;
      const built = buildRenew(w, m.operator.now, { pack: real.known, bearer, newBearer, prevDigest: digestOf(pack) });
      const capture = w.capture();
      const fields = { do: 'renew', pack: ref(real.knownRef), bearer, new_bearer: newBearer, prev_chain_digest: ref(real.digestRefs.at(-1)!), beyond_limit: true, as: capture };
      const outcome = await performRenew(ctx, built.message, built.request, fields, capture, { newBearer, packRef: real.knownRef, fresh: true, sentAt: 'res.sent' });
      if (!outcome.ok) break;
    }
    await w.checkBalances(m, ctx, 'CPP-FND-1', false);
  },

  async redeem(spec, ctx) {
    const { m, w } = ctx;
    w.executed.push(spec);
    const { pack, real } = pickPack(ctx, spec.pack);
    const bearer = spec.by === 'bearer' ? real.bearerNames.at(-1)! : depthOf(pack) >= 1 ? real.bearerNames.at(-2)! : KEY.outsider;
    const { redeemer, identifyAs } = identityOf(spec.identity, w);
    const reused = reusedId(ctx, spec.reuseId);
    const offset = datedOffset(spec.dated, m.operator.policy.requestWindowSeconds);
    const built = buildRedeem(w, m.operator.now, { pack: real.known, bearer, redeemer, identifyAs, ...(reused ? { id: reused.id } : {}), createdMs: m.operator.now + offset * 1000 });
    const capture = w.capture();
    const fields = {
      do: 'redeem',
      ...createdAtField(offset),
      pack: ref(real.knownRef),
      bearer,
      redeemer,
      ...(identifyAs !== redeemer ? { identify_as: identifyAs } : {}),
      ...(reused ? { redemption_id: ref(reused.expr) } : {}),
      as: capture,
    };
    await performRedeem(ctx, built.message, built.request, fields, capture, { packRef: real.knownRef, signAs: identifyAs, fresh: true, sentAt: 'res.sent', onReply: () => w.readBalancesNow(true) });
    await w.checkBalances(m, ctx, 'CPP-FND-1', true);
  },

  async status(spec, ctx) {
    ctx.w.executed.push(spec);
    const target = spec.pack === 'unknown' ? undefined : pickPack(ctx, spec.pack);
    const signAs = spec.caller === 'unsigned' ? false : CALLER_KEY[spec.caller];
    await performStatus(ctx, target?.real, target?.pack.packId ?? ctx.w.unknownPackId, signAs);
  },

  async cancel(spec, ctx) {
    const { m, w } = ctx;
    w.executed.push(spec);
    const target = spec.pack === 'unknown' ? undefined : pickPack(ctx, spec.pack);
    await performCancel(ctx, target?.real, target?.pack.packId ?? w.unknownPackId, () => w.readBalancesNow(false));
    await w.checkBalances(m, ctx, 'CPP-CAN-1', false);
  },

  async replay(spec, ctx) {
    const { m, w } = ctx;
    w.executed.push(spec);
    // An identical resend (PROFILE.md §6): same bytes, same headers.
    const entry = w.sent[spec.message % w.sent.length]!;
    const capture = w.capture();
    const message = entry.message;
    const onReply = () => w.readBalancesNow(message.kind === 'redeem');
    switch (message.kind) {
      case 'issue':
        await performIssue(ctx, { message, request: entry.request }, { do: 'http', method: 'POST', path: ISSUE_PATH, json: ref(entry.sentRef), as: capture }, capture, nameOfKey(w, message.initialBearer), entry.sentRef, onReply);
        break;
      case 'renew': {
        const fields = { do: 'http', method: 'POST', path: RENEW_PATH, json: { cash_pack: ref(entry.packRef!), renewal: ref(entry.sentRef) }, as: capture };
        await performRenew(ctx, message, entry.request, fields, capture, { newBearer: nameOfKey(w, message.newBearer), packRef: entry.packRef!, fresh: false, sentAt: entry.sentRef, onReply });
        break;
      }
      case 'redeem': {
        const fields = {
          do: 'http',
          method: 'POST',
          path: REDEEM_PATH,
          json: { cash_pack: ref(entry.packRef!), redemption: ref(entry.sentRef) },
          ...(entry.signAs ? { sign_as: entry.signAs } : {}),
          as: capture,
        };
        await performRedeem(ctx, message, entry.request, fields, capture, { packRef: entry.packRef!, signAs: entry.signAs ?? false, fresh: false, sentAt: entry.sentRef, onReply });
        break;
      }
    }
    await w.checkBalances(m, ctx, 'PRF-RPL-1', message.kind === 'redeem');
  },

  async burst(spec, ctx) {
    if (spec.op === 'issue') return issueBurst(spec.copies, ctx);
    const { m, w } = ctx;
    w.executed.push(spec);
    const { pack, real } = pickPack(ctx, spec.pack);
    const bearer = real.bearerNames.at(-1)!;
    const capture = w.capture();
    const now = m.operator.now;
    // Every request is built (fresh ids, own signatures) before any is sent; then all are released together.
    let builds: { message: RenewMessage | RedeemMessage; request: WireRequest }[];
    let of: Record<string, unknown>;
    let newBearer: string | undefined;
    if (spec.op === 'redeem') {
      builds = Array.from({ length: spec.copies }, () => buildRedeem(w, now, { pack: real.known, bearer, redeemer: KEY.redeemer, identifyAs: KEY.redeemer }));
      of = { do: 'redeem', pack: ref(real.knownRef), bearer, redeemer: KEY.redeemer };
    } else {
      newBearer = w.newBearer();
      const nb = newBearer;
      builds = Array.from({ length: spec.copies }, () => buildRenew(w, now, { pack: real.known, bearer, newBearer: nb, prevDigest: digestOf(pack) }));
      of = { do: 'renew', pack: ref(real.knownRef), bearer, new_bearer: newBearer, prev_chain_digest: ref(real.digestRefs.at(-1)!), beyond_limit: true };
    }
    const decide = (message: RenewMessage | RedeemMessage): Decision<Prediction<object>> => (message.kind === 'renew' ? m.operator.renew(message) : m.operator.redeem(message));
    const first = decide(builds[0]!.message).outcome;
    const kind = spec.op;
    const step = w.step({ do: 'parallel', copies: spec.copies, of, as: capture });
    builds.forEach((b, i) => w.sent.push({ message: b.message, request: b.request, sentRef: `${capture}.sent[${i}]`, packRef: real.knownRef, ...(kind === 'redeem' ? { signAs: KEY.redeemer } : {}) }));
    m.sent = w.sent.length;
    const digestBefore = real.digestRefs.at(-1)!;

    const replies = await Promise.all(builds.map((b) => w.send(b.request)));

    if (first.ok) {
      const winners = replies.flatMap((r, i) => (r.status === 200 ? [i] : []));
      if (winners.length !== 1) {
        step.expect.push({ exactly_one: { status: 200 }, requirement: 'CPP-RACE-1' });
        throw new Mismatch({ command: ctx.label, what: `${spec.copies} concurrent ${kind} requests of one pack`, expected: 'exactly one 200', actual: tally(replies), requirement: 'CPP-RACE-1', rule: 'PROFILE.md §5.1: of concurrent renewals or redemptions of one pack, exactly one succeeds' });
      }
      const winner = winners[0]!;
      const message = builds[winner]!.message;
      // The model takes the winner first; the others then meet the state it left: INSTRUMENT_NOT_ACTIVE, or BEARER_MISMATCH for renewals.
      const decision = decide(message);
      decision.commit();
      const losers = builds.flatMap((b, i) => {
        if (i === winner) return [];
        const d = decide(b.message);
        d.commit();
        return [{ i, d }];
      });
      step.expect.push(...burstChecks(kind, [decision.outcome, ...losers.map(({ d }) => d.outcome)], 'CPP-RACE-1'));
      for (const { i, d } of losers) judgeBurstAnswer(ctx, kind, d.outcome, replies[i]!);
      const won = w.capture();
      const wonStep = w.step({ do: 'let', values: { [won]: `\${first_ok(${capture})}` } });
      const outcome = decision.outcome;
      if (message.kind === 'redeem' && outcome.ok) {
        const o = outcome as Extract<RedeemPrediction, { ok: true }>;
        judgeConfirmation(ctx, wonStep, replies[winner]!.body, ref(`${won}.body`), {
          packId: message.packId,
          packIdAt: ref(real.idRef),
          redemptionId: message.id,
          redemptionIdAt: ref(`${won}.sent.redemption_id`),
          redeemerKid: o.redeemerKid,
          redeemerKidAt: ref(`${KEY.redeemer}.kid`),
          amount: o.amount,
          digest: o.digest,
          digestAt: ref(digestBefore),
        });
      } else if (message.kind === 'renew' && outcome.ok) {
        const o = outcome as Extract<RenewPrediction, { ok: true }>;
        judgePack(ctx, wonStep, replies[winner]!.body, ref(`${won}.body`), {
          digest: o.digest,
          digestAt: ref(`renewal_digest(${digestBefore}, ${won}.sent)`),
          depth: o.depth,
          bearer: o.bearer,
          bearerAt: ref(`${newBearer!}.x`),
          packId: pack.packId,
          packIdAt: ref(real.idRef),
        }, 'CPP-RNW-1');
      }
      if (message.kind === 'renew' && outcome.ok) {
        // The scenario names the winning pack by what it answered (first_ok), wherever it came.
        real.bearerNames.push(newBearer!);
        real.digestRefs.push(`${won}.body.chain_digest`);
      }
    } else {
      const decisions = builds.map((b) => decide(b.message));
      step.expect.push(...burstChecks(kind, decisions.map((d) => d.outcome), 'CPP-RACE-1'));
      decisions.forEach((d, i) => {
        judgeBurstAnswer(ctx, kind, d.outcome, replies[i]!);
        d.commit();
      });
    }
    await w.checkBalances(m, ctx, 'CPP-RACE-1', kind === 'redeem');
  },

  async interleave(spec, ctx, scheduler) {
    const { m, w } = ctx;
    const { pack, real } = pickPack(ctx, spec.pack);
    // Every operation is built against the same state; the scheduler picks the order they are released in, one at a time.
    const now = m.operator.now;
    const bearer = real.bearerNames.at(-1)!;
    const packRef = real.knownRef;
    const digestExpr = ref(real.digestRefs.at(-1)!);
    const ops = spec.ops.map((op) => {
      switch (op) {
        case 'redeem': {
          const built = buildRedeem(w, now, { pack: real.known, bearer, redeemer: KEY.redeemer, identifyAs: KEY.redeemer });
          return async () => {
            const capture = w.capture();
            await performRedeem(ctx, built.message, built.request, { do: 'redeem', pack: ref(packRef), bearer, redeemer: KEY.redeemer, as: capture }, capture, { packRef, signAs: KEY.redeemer, fresh: true, sentAt: 'res.sent' });
          };
        }
        case 'renew': {
          const newBearer = w.newBearer();
          const built = buildRenew(w, now, { pack: real.known, bearer, newBearer, prevDigest: digestOf(pack) });
          return async () => {
            const capture = w.capture();
            const fields = { do: 'renew', pack: ref(packRef), bearer, new_bearer: newBearer, prev_chain_digest: digestExpr, beyond_limit: true, as: capture };
            await performRenew(ctx, built.message, built.request, fields, capture, { newBearer, packRef, fresh: true, sentAt: 'res.sent' });
          };
        }
        case 'cancel':
          return () => performCancel(ctx, real, pack.packId);
        case 'status':
          return async () => {
            await performStatus(ctx, real, pack.packId, KEY.principal);
          };
      }
    });
    const order = spec.order ?? (await releaseOrder(scheduler, spec.ops));
    w.executed.push({ ...spec, order });
    for (const i of order) await ops[i]!();
    await w.checkBalances(m, ctx, 'CPP-FND-1', true);
  },
};

/**
 * Moves the clock, with every lane idle (Run.barrier): seconds are resolved
 * against the issuing world, the clock moves once, and every world records the
 * move in its history (the issuer its own spec, the others an advance by that
 * many seconds) and checks its balances. With one world this is the plain command.
 */
async function advance(spec: Extract<CommandSpec, { kind: 'advance' }>, issuer: number, m: RunModel, r: Run): Promise<void> {
  const seconds = resolveAdvance(spec.by, contextOf(spec, m.lanes[issuer]!, r.worlds[issuer]!));
  const moved: CommandSpec = { kind: 'advance', by: { seconds } };
  const lanes = r.worlds.map((w, i) => {
    const own = i === issuer ? spec : moved;
    w.executed.push(own);
    const step = w.step({ do: 'clock', advance: seconds }, [{ equals: { value: '${res.frozen}', to: true }, requirement: 'PRF-CTL-1' }]);
    w.advancedMs += seconds * 1000;
    return { w, step, m: m.lanes[i]!, ctx: contextOf(own, m.lanes[i]!, w) };
  });
  const expected = m.lanes[issuer]!.operator.now + seconds * 1000;
  const state = (await control(r.worlds[issuer]!.client, 'POST', '/_control/clock', { advance_seconds: seconds }, r.worlds.map((w) => w.log), undefined)) as { now?: unknown };
  for (const lane of lanes) {
    lane.m.operator.advance(seconds);
    lane.w.readBalancesNow(false);
  }
  const checks = await Promise.allSettled(
    lanes.map(async ({ w, step, m: model, ctx }) => {
      try {
        // The one clock every world shares, moved from where the run froze it (the scenario's first step, FROZEN_AT).
        judge(ctx, step, {
          what: 'the clock after advance_seconds',
          requirement: 'PRF-CTL-1',
          expected: w.timestamp(expected),
          actual: state.now,
          holds: parseTimestamp(state.now) === expected,
          script: { equals: { value: '${res.now}', to: `\${${FROZEN_AT}.now + ${w.advancedMs / 1000}}` } },
        });
        await w.checkBalances(model, ctx, 'CPP-EXP-2', false);
      } finally {
        await w.settleEarlyReads();
      }
    }),
  );
  // The issuer's clock check comes first, as in a sequential run; then the worlds in order.
  const order = [issuer, ...lanes.keys()].filter((i, at, all) => all.indexOf(i) === at);
  for (const i of order) {
    const check = checks[i]!;
    if (check.status === 'rejected') throw new LaneFailure(i, check.reason);
  }
}

/** The order in which fc.scheduler releases the operations (each label scheduled once). */
async function releaseOrder(scheduler: fc.Scheduler | undefined, ops: readonly InterleaveOp[]): Promise<number[]> {
  if (!scheduler) return ops.map((_, i) => i);
  const order: number[] = [];
  const tasks = ops.map((op, i) => scheduler.schedule(Promise.resolve(i), `${op}#${i}`).then(() => void order.push(i)));
  await scheduler.waitIdle();
  await Promise.all(tasks);
  return order;
}

// ---- One request: predict, write the step, send, compare, commit ----

/** `sentAt` names the message in the scenario: this step's `res.sent`, or the capture of the message a resend repeats. */
async function performIssue(ctx: Ctx, built: { message: IssueMessage; request: WireRequest }, fields: Record<string, unknown>, capture: string, bearer: string, sentAt: string | undefined, onReply?: () => void): Promise<void> {
  const fresh = sentAt === undefined;
  const sent = sentAt ?? 'res.sent';
  const { m, w } = ctx;
  const decision = m.operator.issue(built.message);
  const outcome = decision.outcome;
  const step = w.step(fields);
  if (fresh) {
    w.sent.push({ message: built.message, request: built.request, sentRef: `${capture}.sent` });
    m.sent = w.sent.length;
  }
  const reply = await w.send(built.request);
  onReply?.();
  judgeAnswer(ctx, step, 'issue', outcome, reply);
  if (!outcome.ok) return decision.commit(undefined);
  const body = reply.body as CashPack;
  judgePack(ctx, step, body, '${res.body}', {
    digest: m.operator.genesisDigest(body.pack_id, outcome.initialBearer),
    digestAt: ref(`genesis_digest(res.body.pack_id, ${sent}.initial_bearer_pk)`),
    depth: 0,
    bearer: outcome.initialBearer,
    bearerAt: ref(`${sent}.initial_bearer_pk.x`),
  }, 'CPP-ISS-1');
  judgeEqual(ctx, step, 'amount', 'CPP-ISS-1', toAmount(outcome.amount), body.amount, '${res.body.amount}');
  judgeEqual(ctx, step, 'expiry', 'CPP-ISS-1', w.timestamp(outcome.expiryMs), body.expiry, '${res.body.expiry}', ref(`${sent}.requested_expiry`));
  // PROFILE.md §4.3: the Operator's clock, not created_at.
  judgeEqual(ctx, step, 'issued_at', 'PRF-MSG-1', w.timestamp(m.operator.now), body.issued_at, '${res.body.issued_at}', '${ts(now)}');
  decision.commit(body.pack_id);
  const packRef = `${capture}.body`;
  w.packs.set(body.pack_id, {
    packId: body.pack_id,
    idRef: `${packRef}.pack_id`,
    first: body,
    firstRef: packRef,
    known: body,
    knownRef: packRef,
    digestRefs: [`${packRef}.chain_digest`],
    bearerNames: [bearer],
  });
}

interface RenewRefs {
  readonly newBearer: string;
  readonly packRef: string;
  /** A new message (recorded for replays), not a resend. */
  readonly fresh: boolean;
  /** The message in the scenario: `res.sent`, or the capture a resend repeats. */
  readonly sentAt: string;
  /** Called as soon as the answer is in, before it is checked. */
  readonly onReply?: () => void;
}

async function performRenew(ctx: Ctx, message: RenewMessage, request: WireRequest, fields: Record<string, unknown>, capture: string, refs: RenewRefs): Promise<Prediction<object>> {
  const { m, w } = ctx;
  const decision = m.operator.renew(message);
  const outcome = decision.outcome;
  const step = w.step(fields);
  if (refs.fresh) {
    w.sent.push({ message, request, sentRef: `${capture}.sent`, packRef: refs.packRef });
    m.sent = w.sent.length;
  }
  const real = w.packs.get(message.packId);
  const digestBefore = real?.digestRefs.at(-1);
  const reply = await w.send(request);
  refs.onReply?.();
  judgeAnswer(ctx, step, 'renew', outcome, reply);
  if (outcome.ok) {
    judgePack(ctx, step, reply.body, '${res.body}', {
      digest: outcome.digest,
      // The digest the pack held before this renewal, as the scenario captured it; the model's own when it never captured one.
      digestAt: digestBefore !== undefined ? ref(`renewal_digest(${digestBefore}, ${refs.sentAt})`) : outcome.digest,
      depth: outcome.depth,
      bearer: outcome.bearer,
      bearerAt: ref(`${refs.newBearer}.x`),
      packId: message.packId,
      packIdAt: real !== undefined ? ref(real.idRef) : message.packId,
    }, 'CPP-RNW-1');
  }
  decision.commit();
  if (outcome.ok) {
    const known = w.packs.get(message.packId)!;
    known.known = reply.body as CashPack;
    known.knownRef = `${capture}.body`;
    known.digestRefs.push(`${capture}.body.chain_digest`);
    known.bearerNames.push(refs.newBearer);
  }
  return outcome;
}

interface RedeemRefs {
  readonly packRef: string;
  readonly signAs: string | false;
  readonly fresh: boolean;
  /** The message in the scenario: `res.sent`, or the capture a resend repeats. */
  readonly sentAt: string;
  /** Called as soon as the answer is in, before it is checked. */
  readonly onReply?: () => void;
}

async function performRedeem(ctx: Ctx, message: RedeemMessage, request: WireRequest, fields: Record<string, unknown>, capture: string, refs: RedeemRefs): Promise<void> {
  const { m, w } = ctx;
  const decision = m.operator.redeem(message);
  const outcome = decision.outcome;
  const step = w.step(fields);
  if (refs.fresh) {
    w.sent.push({ message, request, sentRef: `${capture}.sent`, packRef: refs.packRef, ...(refs.signAs !== false ? { signAs: refs.signAs } : {}) });
    m.sent = w.sent.length;
  }
  const real = w.packs.get(message.packId);
  const digestBefore = real?.digestRefs.at(-1);
  const reply = await w.send(request);
  refs.onReply?.();
  judgeAnswer(ctx, step, 'redeem', outcome, reply);
  if (outcome.ok) {
    const redeemer = nameOfKid(w, outcome.redeemerKid);
    judgeConfirmation(ctx, step, reply.body, '${res.body}', {
      packId: message.packId,
      packIdAt: real !== undefined ? ref(real.idRef) : message.packId,
      redemptionId: message.id,
      redemptionIdAt: ref(`${refs.sentAt}.redemption_id`),
      redeemerKid: outcome.redeemerKid,
      redeemerKidAt: redeemer !== undefined ? ref(`${redeemer}.kid`) : outcome.redeemerKid,
      amount: outcome.amount,
      digest: outcome.digest,
      digestAt: digestBefore !== undefined ? ref(digestBefore) : outcome.digest,
    });
  }
  decision.commit();
}

/** A status read. */
async function performStatus(ctx: Ctx, real: RealPack | undefined, packId: string, signAs: string | false): Promise<void> {
  const { m, w } = ctx;
  const built = buildStatus(w, m.operator.now, packId, signAs);
  const outcome = m.operator.status(built.query);
  const capture = w.capture();
  const step = w.step({ do: 'status', pack_id: real ? ref(real.idRef) : packId, sign_as: signAs, as: capture });
  const reply = await w.send(built.request);
  judgeAnswer(ctx, step, 'status', outcome, reply);
  if (outcome.ok) {
    const body = reply.body as Record<string, unknown> | undefined;
    judgeSchema(ctx, step, 'status', body, 'CPP-STS-1');
    judgeEqual(ctx, step, 'status', 'CPP-STS-1', outcome.view.status, body?.status, '${res.body.status}');
    judgeEqual(ctx, step, 'chain_depth', 'CPP-CHN-1', outcome.view.depth, body?.chain_depth, '${res.body.chain_depth}');
    judgeEqual(ctx, step, 'chain_digest', 'CPP-CHN-1', outcome.view.digest, body?.chain_digest, '${res.body.chain_digest}', real ? ref(real.digestRefs.at(-1)!) : outcome.view.digest);
    judgeEqual(ctx, step, 'amount', 'CPP-STS-1', toAmount(outcome.view.amount), body?.amount, '${res.body.amount}');
    judgeEqual(ctx, step, 'expiry', 'CPP-STS-1', w.timestamp(outcome.view.expiryMs), body?.expiry, '${res.body.expiry}', real ? ref(`${real.firstRef}.expiry`) : w.timestamp(outcome.view.expiryMs));
  }
}

async function performCancel(ctx: Ctx, real: RealPack | undefined, packId: string, onReply?: () => void): Promise<void> {
  const { m, w } = ctx;
  const decision = m.operator.cancel(packId);
  const capture = w.capture();
  const step = w.step({ do: 'cancel', pack_id: real ? ref(real.idRef) : packId, as: capture });
  const reply = await w.send(buildCancel(packId));
  onReply?.();
  judgeAnswer(ctx, step, 'cancel', decision.outcome, reply);
  if (decision.outcome.ok) judgeEqual(ctx, step, 'status', 'CPP-CAN-1', 'CANCELLED', (reply.body as Record<string, unknown> | undefined)?.status, '${res.body.status}');
  decision.commit();
}

/** The key name of a kid in this world. */
function nameOfKid(w: World, kid: string): string | undefined {
  return [...w.keys].find(([, key]) => key.jwk.kid === kid)?.[0];
}

// ---- Resolving choices against the state ----

/** 32 bytes that are no pack's digest (an all-zero SHA-256 output is not expected to occur). */
const NEVER_A_DIGEST = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

const CALLER_KEY: Readonly<Record<Exclude<Caller, 'unsigned'>, string>> = {
  principal: KEY.principal,
  stranger: KEY.stranger,
  redeemer: KEY.redeemer,
  outsider: KEY.outsider,
};

/** A scenario template of an expression. */
function ref(expression: string): string {
  return `\${${expression}}`;
}

/** Seconds from the Operator's now to the message's created_at (DatingChoice). */
function datedOffset(choice: DatingChoice | undefined, windowSeconds: number): number {
  if (choice === undefined) return 0;
  if (choice === 'stale-before') return -(windowSeconds + 1);
  if (choice === 'stale-after') return windowSeconds + 1;
  return Math.trunc((choice.permille * windowSeconds) / 1000);
}

/** The scenario step's created_at when the message is not dated at now. */
function createdAtField(offset: number): { created_at?: string } {
  return offset === 0 ? {} : { created_at: `\${ts(now ${offset < 0 ? '-' : '+'} ${Math.abs(offset)})}` };
}

function pickPack(ctx: Ctx, index: number): { pack: PackState; real: RealPack } {
  const packs = ctx.m.operator.packList();
  const pack = packs[index % packs.length]!;
  return { pack, real: ctx.w.packs.get(pack.packId)! };
}

/** The id of an earlier message the Operator must still remember (PROFILE.md §6), or undefined for a fresh id. */
function reusedId(ctx: Ctx, index: number | undefined): { id: string; expr: string } | undefined {
  if (index === undefined) return undefined;
  const candidates = ctx.w.sent.filter((s) => ctx.m.operator.remembers(s.message.id));
  if (candidates.length === 0) return undefined;
  const entry = candidates[index % candidates.length]!;
  const member = entry.message.kind === 'issue' ? 'request_id' : entry.message.kind === 'renew' ? 'renewal_id' : 'redemption_id';
  return { id: entry.message.id, expr: `${entry.sentRef}.${member}` };
}

function identityOf(identity: Identity, w: World): { redeemer: string; identifyAs: string | false } {
  switch (identity) {
    case 'identified':
      return { redeemer: KEY.redeemer, identifyAs: KEY.redeemer };
    case 'unsigned':
      return { redeemer: KEY.redeemer, identifyAs: false };
    case 'low-level':
      // With required_identity_level 0 every level passes: the same request unsigned is the nearest failure.
      return w.redeemerLevels.has(KEY.redeemerLow) ? { redeemer: KEY.redeemerLow, identifyAs: KEY.redeemerLow } : { redeemer: KEY.redeemer, identifyAs: false };
    case 'other-redeemer':
      return { redeemer: KEY.redeemer, identifyAs: KEY.redeemer2 };
    case 'unregistered':
      return { redeemer: KEY.redeemer, identifyAs: KEY.outsider };
  }
}

function nameOfKey(w: World, x: string): string {
  for (const [name, key] of w.keys) if (key.jwk.x === x) return name;
  throw new TypeError('a key the run did not create');
}

function resolveAmount(choice: AmountChoice, available: bigint, max: bigint): bigint {
  const fits = (n: bigint) => (n < 1n ? 1n : n.toString().length > 78 ? max : n);
  if (typeof choice === 'object') return BigInt(choice.small);
  switch (choice) {
    case 'available':
      return fits(available);
    case 'available+1':
      return fits(available + 1n);
    case 'max':
      return fits(max);
    case 'max+1':
      return fits(max + 1n);
  }
}

/** The requested lifetime in seconds. */
function resolveExpiry(choice: ExpiryChoice, min: number, max: number): number {
  if (typeof choice === 'object') return min + Math.floor(((max - min) * choice.permille) / 1000);
  switch (choice) {
    case 'typical':
      return Math.min(Math.max(3600, min), max);
    case 'min':
      return min;
    case 'min-1':
      return min - 1;
    case 'max':
      return max;
    case 'max+1':
      return max + 1;
  }
}

function resolveAdvance(choice: AdvanceChoice, ctx: Ctx): number {
  const policy = ctx.m.operator.policy;
  if (choice === 'window+1') return policy.requestWindowSeconds + 1;
  if (choice === 'past-max-expiry') return policy.expiryMaxSeconds + 1;
  if ('seconds' in choice) return choice.seconds;
  const packs = ctx.m.operator.packList();
  if (packs.length === 0) return 1;
  const pack = packs[choice.toExpiryOf % packs.length]!;
  const seconds = Math.ceil((pack.expiryMs - ctx.m.operator.now) / 1000) + choice.delta;
  return Math.max(0, seconds);
}
