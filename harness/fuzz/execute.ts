// Running a command: one executor per CommandSpec kind, each resolving its
// choices (choices.ts), building real signed requests (messages.ts) and
// performing them (perform.ts); bursts and interleavings send concurrently.
import fc from 'fast-check';
import { newUuid, parseTimestamp, toAmount } from '../../profile/index.ts';
import type { AssetDescriptor, CashPack } from '../../profile/cashpack/index.ts';
import type { WireRequest } from '../adapters/types.ts';
import { buildIssue, buildRedeem, buildRenew, ISSUE_PATH, REDEEM_PATH, RENEW_PATH } from './messages.ts';
import { Mismatch } from './mismatch.ts';
import { answerKey, burstChecks, judge, judgeAnswer, judgeBurstAnswer, judgeConfirmation, judgePack, tally, type Ctx } from './judge.ts';
import type { CauseKind } from './cause.ts';
import type { Reply } from './client.ts';
import { assetKey, CONCURRENCY_RULES, depthOf, digestOf, type Decision, type IssueMessage, type OperatorModel, type Prediction, type RedeemMessage, type RedeemPrediction, type RenewMessage, type RenewPrediction } from './model.ts';
import { LaneFailure, type Run, type RunModel } from './lanes.ts';
import { control, FROZEN_AT, KEY, type FuzzModel, type RealPack, type ScriptStep, type World } from './world.ts';
import { CALLER_KEY, NEVER_A_DIGEST, assetField, createdAtField, datedOffset, identityOf, nameOfKey, pickPack, present, ref, resolveAdvance, resolveAmount, resolveAsset, resolveExpiry, reusedId } from './choices.ts';
import { addPack, judgeIssued, judgeRenewed, performCancel, performIssue, performRedeem, performRenew, performStatus, signedAtField } from './perform.ts';
import { type CommandKind, type CommandSpec, type InterleaveOp, describe } from './spec.ts';
import { observe, reprovision } from './accounts.ts';
import { breach } from './breach.ts';
import { mix } from './mix.ts';
import { flood, issueMany } from './volume.ts';

/** The request kind a command's differences are charged to, its balances after it included (cause.ts). */
const OP_OF: { readonly [K in CommandKind]: (spec: Extract<CommandSpec, { kind: K }>, w: World) => CauseKind } = {
  issue: () => 'issue',
  renew: () => 'renew',
  'renew-to-limit': () => 'renew',
  redeem: () => 'redeem',
  status: () => 'status',
  advance: () => 'clock',
  cancel: () => 'cancel',
  replay: (spec, w) => w.sent[spec.message % Math.max(w.sent.length, 1)]?.message.kind ?? 'issue',
  burst: (spec) => spec.op,
  interleave: () => 'interleave',
  mix: () => 'mix',
  breach: (spec) => spec.endpoint,
  reprovision: () => 'provision',
  observe: () => 'observe',
  'issue-many': () => 'issue',
  flood: () => 'issue',
};

/** The label and the request kind are only read when a comparison fails. */
export function contextOf(spec: CommandSpec, m: FuzzModel, w: World): Ctx {
  return {
    m,
    w,
    get label() {
      return describe(spec);
    },
    get op() {
      return (OP_OF[spec.kind] as (spec: CommandSpec, w: World) => CauseKind)(spec, w);
    },
  };
}

/** A status and problem code as tally counts them: "200", "409 INSTRUMENT_NOT_ACTIVE". */
function predictedKey(outcome: Prediction<object>): string {
  return outcome.ok ? '200' : `${outcome.status} ${outcome.code}`;
}

/**
 * A burst of which the model says exactly one copy succeeds, once the answers
 * are in: the winner's index. More than one 200 breaks the concurrency rule
 * (CONCURRENCY_RULES); so does none, when every copy got what the model gives
 * a loser (`losers`: nobody won a race one must win). A copy refused for
 * anything else is judged as the request would be alone (`lone`) and named by
 * its own rule: a burst never turns, say, an identity finding into a race.
 */
function winnerOf(ctx: Ctx, step: ScriptStep, op: keyof typeof CONCURRENCY_RULES, replies: readonly Reply[], lone: Prediction<object>, losers: () => ReadonlySet<string>): number {
  const winners = replies.flatMap((r, i) => (r.status === 200 ? [i] : []));
  if (winners.length === 1) return winners[0]!;
  if (winners.length === 0) {
    const lost = losers();
    const other = replies.find((r) => !lost.has(answerKey(r)));
    // A refusal where the model has the request succeed alone: this throws.
    if (other) judgeAnswer(ctx, step, op, lone, other, { exactly_one: { status: 200 } });
  }
  const race = CONCURRENCY_RULES[op];
  step.expect.push({ exactly_one: { status: 200 }, requirement: race.requirement });
  throw new Mismatch({
    command: ctx.label,
    what: `${replies.length} concurrent ${op === 'issue' ? 'Lock Requests, each for more than half the balance' : `${op} requests of one pack`}`,
    expected: 'exactly one 200',
    actual: tally(replies),
    requirement: race.requirement,
    rule: race.rule,
    cause: { requirement: race.requirement, kind: op, what: 'concurrent answers', difference: `exactly one 200 → ${winners.length === 0 ? 'none' : 'more than one'}` },
  });
}

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
    step.expect.push(...burstChecks(decisions.map((d) => d.outcome), 'CPP-BAL-1'));
    decisions.forEach((d, i) => {
      judgeBurstAnswer(ctx, 'issue', d.outcome, replies[i]!);
      d.commit(undefined);
    });
    await w.checkBalances(m, ctx, 'CPP-BAL-1', false);
    return;
  }
  const winner = winnerOf(ctx, step, 'issue', replies, first, () => {
    const after = m.operator.clone();
    after.issue(builds[0]!.message).commit(newUuid());
    return new Set(builds.slice(1).map((b) => predictedKey(after.issue(b.message).outcome)));
  });
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
  step.expect.push(...burstChecks([decision.outcome, ...losers.map(({ d }) => d.outcome)], 'CPP-BAL-1'));
  for (const { i, d } of losers) judgeBurstAnswer(ctx, 'issue', d.outcome, replies[i]!);
  // The script names the winner by what it answered, not by its place in the burst.
  const won = w.capture();
  const wonStep = w.step({ do: 'let', values: { [won]: `\${first_ok(${capture})}` } });
  if (!decision.outcome.ok) throw new TypeError('the winner of a burst was issued');
  judgeIssued(ctx, wonStep, decision.outcome, body, ref(`${won}.body`), `${won}.sent`);
  addPack(w, body, `${won}.body`, bearer);
  await w.checkBalances(m, ctx, 'CPP-BAL-1', false);
}



type Executor<K extends CommandKind> = (spec: Extract<CommandSpec, { kind: K }>, ctx: Ctx, scheduler?: fc.Scheduler) => Promise<void>;

/** Every kind but `advance`, which moves the clock of every world (advance below). */
export const EXECUTORS: { readonly [K in Exclude<CommandKind, 'advance'>]: Executor<K> } = {
  async issue(spec, ctx) {
    const { m, w } = ctx;
    w.executed.push(spec);
    const policy = m.operator.policy;
    const principal = m.operator.principal(w.kid(KEY.principal))!;
    const amount = resolveAmount(spec.amount, principal.available, policy.maxAmount);
    const lifetime = resolveExpiry(spec.expiry, policy.expiryMinSeconds, policy.expiryMaxSeconds);
    const bearer = w.newBearer();
    const offset = datedOffset(spec.dated, policy.requestWindowSeconds);
    const asset = resolveAsset(spec.asset, w);
    const built = buildIssue(w, m.operator.now, { signer: spec.signer, bearer, amount, asset, expiryMs: m.operator.now + lifetime * 1000, createdMs: m.operator.now + offset * 1000 });
    const capture = w.capture();
    const fields = { do: 'issue', principal: spec.signer, bearer, amount: toAmount(amount), ...assetField(w, asset), expiry_in: lifetime, ...createdAtField(offset), beyond_limit: true, as: capture };
    await performIssue(ctx, built, fields, capture, bearer, { onReply: () => w.readBalancesNow(false) });
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
    const presented = present(ctx, real, spec.present, spec.tamper);
    const presentedRef = presented.ref;
    const reused = reusedId(ctx, spec.reuseId);
    const newBearer = w.newBearer();
    const offset = datedOffset(spec.dated, m.operator.policy.requestWindowSeconds);
    const built = buildRenew(w, m.operator.now, { pack: presented.pack, tampered: presented.tampered, bearer, newBearer, prevDigest, ...(reused ? { id: reused.id } : {}), createdMs: m.operator.now + offset * 1000 });
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
    const presented = present(ctx, real, spec.present, spec.tamper);
    const reused = reusedId(ctx, spec.reuseId);
    const window = m.operator.policy.requestWindowSeconds;
    const offset = datedOffset(spec.dated, window);
    const signed = datedOffset(spec.signedAt, window);
    const now = m.operator.now;
    const built = buildRedeem(w, now, { pack: presented.pack, tampered: presented.tampered, bearer, redeemer, identifyAs, ...(reused ? { id: reused.id } : {}), createdMs: now + offset * 1000, signedAtMs: now + signed * 1000 });
    const capture = w.capture();
    const fields = {
      do: 'redeem',
      ...createdAtField(offset),
      pack: ref(presented.ref),
      bearer,
      redeemer,
      ...(identifyAs !== redeemer ? { identify_as: identifyAs } : {}),
      ...(identifyAs !== false ? signedAtField(signed) : {}),
      ...(reused ? { redemption_id: ref(reused.expr) } : {}),
      as: capture,
    };
    await performRedeem(ctx, built.message, built.request, fields, capture, { packRef: presented.ref, signAs: identifyAs, fresh: true, sentAt: 'res.sent', onReply: () => w.readBalancesNow(true) });
    await w.checkBalances(m, ctx, 'CPP-FND-1', true);
  },

  async status(spec, ctx) {
    ctx.w.executed.push(spec);
    const target = spec.pack === 'unknown' ? undefined : pickPack(ctx, spec.pack);
    const signAs = spec.caller === 'unsigned' ? false : CALLER_KEY[spec.caller];
    await performStatus(ctx, target?.real, target?.pack.packId ?? ctx.w.unknownPackId, signAs, signAs === false ? 0 : datedOffset(spec.signedAt, ctx.m.operator.policy.requestWindowSeconds));
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
    // An identical resend (PROFILE.md §6): same bytes, same headers.
    const entry = w.sent[spec.message % w.sent.length]!;
    // Fresh, and its id recorded twice the window ago or longer: the Operator may or may not remember it (§6), so nothing is predicted.
    if (m.operator.mayHaveForgotten(entry.message.id) && m.operator.fresh(entry.message.createdMs)) return;
    w.executed.push(spec);
    const capture = w.capture();
    const message = entry.message;
    const onReply = () => w.readBalancesNow(message.kind === 'redeem');
    switch (message.kind) {
      case 'issue':
        await performIssue(ctx, { message, request: entry.request }, { do: 'http', method: 'POST', path: ISSUE_PATH, json: ref(entry.sentRef), as: capture }, capture, nameOfKey(w, message.initialBearer), { sentAt: entry.sentRef, fresh: false, onReply });
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
    let builds: { message: RenewMessage | RedeemMessage; request: WireRequest; wire: unknown }[];
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
    const decideOn = (model: OperatorModel, message: RenewMessage | RedeemMessage): Decision<Prediction<object>> => (message.kind === 'renew' ? model.renew(message) : model.redeem(message));
    const decide = (message: RenewMessage | RedeemMessage) => decideOn(m.operator, message);
    const first = decide(builds[0]!.message).outcome;
    const kind = spec.op;
    const step = w.step({ do: 'parallel', copies: spec.copies, of, as: capture });
    builds.forEach((b, i) => w.sent.push({ message: b.message, request: b.request, sentRef: `${capture}.sent[${i}]`, packRef: real.knownRef, ...(kind === 'redeem' ? { signAs: KEY.redeemer } : {}) }));
    m.sent = w.sent.length;
    const digestBefore = real.digestRefs.at(-1)!;

    const replies = await Promise.all(builds.map((b) => w.send(b.request)));

    if (first.ok) {
      const winner = winnerOf(ctx, step, kind, replies, first, () => {
        const after = m.operator.clone();
        decideOn(after, builds[0]!.message).commit();
        return new Set(builds.slice(1).map((b) => predictedKey(decideOn(after, b.message).outcome)));
      });
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
      step.expect.push(...burstChecks([decision.outcome, ...losers.map(({ d }) => d.outcome)], 'CPP-RACE-1'));
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
          asset: JSON.parse(o.asset),
          assetAt: ref(`${real.firstRef}.asset`),
          digest: o.digest,
          digestAt: ref(digestBefore),
        });
      } else if (message.kind === 'renew' && outcome.ok) {
        const o = outcome as Extract<RenewPrediction, { ok: true }>;
        judgeRenewed(ctx, wonStep, replies[winner]!.body, ref(`${won}.body`), {
          packId: pack.packId,
          digest: o.digest,
          digestAt: ref(`renewal_digest(${digestBefore}, ${won}.sent)`),
          depth: o.depth,
          bearer: o.bearer,
          bearerAt: ref(`${newBearer!}.x`),
          entry: builds[winner]!.wire,
          entryAt: ref(`${won}.sent`),
        });
      }
      if (message.kind === 'renew' && outcome.ok) {
        // The scenario names the winning pack by what it answered (first_ok), wherever it came.
        real.bearerNames.push(newBearer!);
        real.digestRefs.push(`${won}.body.chain_digest`);
        real.versions.push({ pack: replies[winner]!.body as CashPack, ref: `${won}.body` });
      }
    } else {
      const decisions = builds.map((b) => decide(b.message));
      step.expect.push(...burstChecks(decisions.map((d) => d.outcome), 'CPP-RACE-1'));
      decisions.forEach((d, i) => {
        judgeBurstAnswer(ctx, kind, d.outcome, replies[i]!);
        d.commit();
      });
    }
    await w.checkBalances(m, ctx, 'CPP-RACE-1', kind === 'redeem');
  },

  mix,
  breach,
  reprovision,
  observe,
  'issue-many': issueMany,
  flood,

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
export async function advance(spec: Extract<CommandSpec, { kind: 'advance' }>, issuer: number, m: RunModel, r: Run): Promise<void> {
  const seconds = resolveAdvance(spec.by, contextOf(spec, m.lanes[issuer]!, r.worlds[issuer]!));
  // Unread for every world: none reads its balances after this move.
  const moved: CommandSpec = { kind: 'advance', by: { seconds }, ...(spec.unread ? { unread: true } : {}) };
  const lanes = r.worlds.map((w, i) => {
    const own = i === issuer ? spec : moved;
    w.executed.push(own);
    w.quiet = w.quietFor(own);
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
        w.quiet = false;
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
