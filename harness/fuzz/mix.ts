// Mixed concurrent operations: different requests released together, on one
// pack (a renewal against a redemption, a cancellation against a redemption,
// renewals by different keys, a status read during a renewal) or on different
// packs sharing an account (Lock Requests draining one balance, redemptions
// credited to one redeemer). The answers are judged by linearisability
// (linearize.ts): some sequential order of the requests must explain every
// answer and, once read, the balances. The regression scenario releases them
// the same way (a parallel step with `steps`) and checks what every order the
// model allows agrees on: the answers (status and problem code of each) are
// one of the orders' answers, and each balance member all orders leave the same.
import { newUuid, toAmount } from '../../profile/index.ts';
import type { CashPack } from '../../profile/cashpack/index.ts';
import type { WireRequest } from '../adapters/types.ts';
import type { Reply } from './client.ts';
import { assetField, pickPack, ref, resolveAmount, resolveExpiry } from './choices.ts';
import { answerKey, answerMatches, judgeAnswer, judgeConfirmation, judgeEqual, on, type Ctx } from './judge.ts';
import { linearize, modelOrders, type Concurrent } from './linearize.ts';
import { buildCancel, buildIssue, buildRedeem, buildRenew, buildStatus } from './messages.ts';
import { Mismatch } from './mismatch.ts';
import { depthOf, digestOf, type CashpackMessage, type Endpoint, type Prediction, type StatusView } from './model.ts';
import { addPack, addVersion, judgeIssued, judgeRenewed, judgeStatusView } from './perform.ts';
import type { CommandSpec, MixOp } from './spec.ts';
import { KEY, type ScriptCheck, type ScriptStep } from './world.ts';

type Spec<K extends CommandSpec['kind']> = Extract<CommandSpec, { kind: K }>;

/** One request of the group. */
interface Member extends Concurrent<Reply> {
  readonly kind: Endpoint;
  readonly request: WireRequest;
  /** The request as an item of the scenario's parallel `steps`. */
  readonly fields: Record<string, unknown>;
  /** A signed message, kept for replays. */
  readonly sent?: { readonly message: CashpackMessage; readonly packRef?: string; readonly signAs?: string };
  /** Every check the model makes of an answer it predicts (the body's members, signatures), into `step`. */
  judge(ctx: Ctx, step: ScriptStep, outcome: Prediction<object>, reply: Reply): void;
  /** The real side after the group: a new pack, a new version. */
  adopt(outcome: Prediction<object>, reply: Reply): void;
}

const SCRATCH = (): ScriptStep => ({ fields: {}, expect: [] });

/** A success the model predicted, with the members its endpoint predicts. */
function succeeded<T>(outcome: Prediction<object>): T {
  if (!outcome.ok) throw new TypeError('a refusal has no predicted members');
  return outcome as unknown as T;
}

export async function mix(spec: Spec<'mix'>, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  w.executed.push(spec);
  const capture = w.capture();
  const digests = new Map<string, string>();
  const members = spec.ops.map((op, i) => member(ctx, op, i, capture, digests));
  noteRenewalDigests(ctx, members, spec.ops, capture, digests);
  const requirement = groupRequirement(spec.ops, ctx);
  const allowed = modelOrders(m.operator, members);
  const step = w.step({ do: 'parallel', steps: members.map((x) => x.fields), as: capture }, scriptChecks(capture, members, allowed, requirement, digests));
  members.forEach((x, i) => x.sent && w.sent.push({ ...x.sent, request: x.request, sentRef: `${capture}.sent[${i}]` }));
  m.sent = w.sent.length;

  const replies = await Promise.all(members.map((x) => w.send(x.request)));
  w.readBalancesNow(true);

  const verdict = linearize(m.operator, members, replies);
  if (!('best' in verdict)) {
    // The bodies, in the first order that explains the answers.
    const first = verdict.explained[0]!;
    const copy = m.operator.clone();
    for (const i of first.order) {
      const decision = members[i]!.decide(copy);
      members[i]!.judge(on(ctx, members[i]!.kind), SCRATCH(), decision.outcome, replies[i]!);
      decision.commit(replies[i]);
    }
    // The balances, as one of those orders leaves them; the model then takes that order.
    // A balance no order leaves is a lost update: the Principal's funds (spec §1.2), or a redeemer's (each redemption releases its funds).
    const balances = { principal: 'CPP-FND-1', redeemer: 'CPP-RED-1' };
    const chosen = verdict.explained[await w.checkBalances(m, ctx, balances, true, { candidates: verdict.explained.map((r) => r.model), scripted: allowed.map((o) => o.model) })]!;
    for (const i of chosen.order) {
      const decision = members[i]!.decide(m.operator);
      decision.commit(replies[i]);
      members[i]!.adopt(decision.outcome, replies[i]!);
    }
    return;
  }
  await w.settleEarlyReads();
  const { at, alone } = verdict;
  if (!alone) {
    // An answer no order gives: judged as the request would be alone, by its own rule (a burst's copies are judged so too).
    // The scenario's check of the answers then names that rule.
    const decision = members[at]!.decide(m.operator.clone());
    try {
      members[at]!.judge(on(ctx, members[at]!.kind), SCRATCH(), decision.outcome, replies[at]!);
    } catch (error) {
      if (error instanceof Mismatch) step.expect[0] = { ...step.expect[0]!, requirement: error.detail.requirement };
      throw error;
    }
  }
  throw new Mismatch({
    command: ctx.label,
    what: `${members.length} different requests released together`,
    expected: { 'one of': answerTuples(allowed) },
    actual: replies.map(answerKey),
    requirement,
    rule: 'PROFILE.md §5.1, spec §1.2: concurrent requests take effect one at a time; some order of them explains every answer',
    cause: { requirement, kind: 'mix', what: 'concurrent answers', difference: 'no order of the requests explains them' },
  });
}

/**
 * The requirement a group of concurrent requests is judged under: the rule that
 * makes their order matter. Renewals or redemptions of one pack with other
 * requests on it (PROFILE.md §5.1: one succeeds, funds move once); Lock
 * Requests of one Principal (the balance covers what it covers); redemptions
 * credited to one redeemer (each releases its funds); else the status read and
 * cancellation rules.
 */
function groupRequirement(ops: readonly MixOp[], ctx: Ctx): string {
  const packs = ctx.m.operator.packList();
  const packOf = (op: MixOp) => ('pack' in op ? packs[op.pack % packs.length]?.packId : undefined);
  const shared = (op: MixOp) => ops.some((other) => other !== op && packOf(other) !== undefined && packOf(other) === packOf(op));
  if (ops.some((op) => (op.op === 'renew' || op.op === 'redeem') && shared(op))) return 'CPP-RACE-1';
  if (ops.filter((op) => op.op === 'issue').length > 1) return 'CPP-BAL-1';
  if (ops.filter((op) => op.op === 'redeem').length > 1) return 'CPP-RED-1';
  if (ops.some((op) => op.op === 'cancel')) return 'CPP-CAN-1';
  return 'CPP-FND-1';
}

/** Each order's answers, once each (as answers() writes them: "200", "409 INSTRUMENT_NOT_ACTIVE"): what the parallel step's answers must be one of. */
function answerTuples(allowed: readonly { readonly outcomes: readonly Prediction<object>[] }[]): string[][] {
  const seen = new Map<string, string[]>();
  for (const { outcomes } of allowed) {
    const tuple = outcomes.map((o) => (o.ok ? '200' : `${o.status} ${o.code}`));
    seen.set(JSON.stringify(tuple), tuple);
  }
  return [...seen.values()];
}

/** The scenario's checks of the parallel step: what every order the model allows agrees on. */
function scriptChecks(capture: string, members: readonly Member[], allowed: ReturnType<typeof modelOrders>, requirement: string, digests: ReadonlyMap<string, string>): ScriptCheck[] {
  const checks: ScriptCheck[] = [{ one_of: { value: `\${answers(${capture})}`, in: answerTuples(allowed) }, requirement }];
  members.forEach((x, i) => {
    if (x.kind !== 'status' || !allowed.every((o) => o.outcomes[i]!.ok)) return;
    const views = new Map<string, [number, string]>();
    for (const o of allowed) {
      const view = (o.outcomes[i] as Extract<Prediction<{ view: { depth: number; digest: string } }>, { ok: true }>).view;
      views.set(`${view.depth} ${view.digest}`, [view.depth, digests.get(view.digest) ?? view.digest]);
    }
    checks.push({ one_of: { value: [`\${${capture}.responses[${i}].body.chain_depth}`, `\${${capture}.responses[${i}].body.chain_digest}`], in: [...views.values()] }, requirement: 'CPP-CHN-1' });
  });
  return checks;
}

/** A renewal of the group that succeeds changes its pack's digest: the scenario names that digest by the entry it sent. */
function noteRenewalDigests(ctx: Ctx, members: readonly Member[], ops: readonly MixOp[], capture: string, digests: Map<string, string>): void {
  ops.forEach((op, i) => {
    if (op.op !== 'renew') return;
    const outcome = members[i]!.decide(ctx.m.operator.clone()).outcome;
    const real = pickPack(ctx, op.pack).real;
    if (outcome.ok) digests.set(succeeded<{ digest: string }>(outcome).digest, ref(`renewal_digest(${real.digestRefs.at(-1)!}, ${capture}.sent[${i}])`));
  });
}

function member(ctx: Ctx, op: MixOp, i: number, capture: string, digests: Map<string, string>): Member {
  const { m, w } = ctx;
  const now = m.operator.now;
  const at = ref(`${capture}.responses[${i}].body`);
  const sentAt = `${capture}.sent[${i}]`;
  if (op.op === 'issue') {
    const policy = m.operator.policy;
    const amount = resolveAmount(op.amount, m.operator.principal(w.kid(KEY.principal))!.available, policy.maxAmount);
    const lifetime = resolveExpiry('typical', policy.expiryMinSeconds, policy.expiryMaxSeconds);
    const bearer = w.newBearer();
    const built = buildIssue(w, now, { signer: KEY.principal, bearer, amount, expiryMs: now + lifetime * 1000 });
    return {
      kind: 'issue',
      request: built.request,
      fields: { do: 'issue', principal: KEY.principal, bearer, amount: toAmount(amount), ...assetField(w, w.principalAsset), expiry_in: lifetime, beyond_limit: true },
      sent: { message: built.message },
      decide: (model) => {
        const d = model.issue(built.message);
        // A pack issued in an order tried on a copy needs an id: the Operator's when it answered 200, else one of the harness's.
        return { outcome: d.outcome, commit: (reply) => d.commit(d.outcome.ok ? (reply?.status === 200 ? (reply.body as CashPack).pack_id : newUuid()) : undefined) };
      },
      explains: (outcome, reply) => answerMatches('issue', outcome, reply),
      judge: (c, step, outcome, reply) => {
        judgeAnswer(c, step, 'issue', outcome, reply);
        if (outcome.ok) judgeIssued(c, step, outcome as Parameters<typeof judgeIssued>[2], reply.body as CashPack, at, sentAt);
      },
      adopt: (outcome, reply) => outcome.ok && addPack(w, reply.body as CashPack, at.slice(2, -1), bearer),
    };
  }
  const { pack, real } = pickPack(ctx, op.pack);
  const current = ref(real.digestRefs.at(-1)!);
  digests.set(digestOf(pack), current);
  const holder = (by: 'bearer' | 'previous-bearer') => (by === 'bearer' ? real.bearerNames.at(-1)! : depthOf(pack) >= 1 ? real.bearerNames.at(-2)! : KEY.outsider);
  switch (op.op) {
    case 'renew': {
      const bearer = holder(op.by);
      const newBearer = w.newBearer();
      const built = buildRenew(w, now, { pack: real.known, bearer, newBearer, prevDigest: digestOf(pack) });
      return {
        kind: 'renew',
        request: built.request,
        fields: { do: 'renew', pack: ref(real.knownRef), bearer, new_bearer: newBearer, prev_chain_digest: current, beyond_limit: true },
        sent: { message: built.message, packRef: real.knownRef },
        decide: (model) => {
          const d = model.renew(built.message);
          return { outcome: d.outcome, commit: () => d.commit() };
        },
        explains: (outcome, reply) => {
          if (!answerMatches('renew', outcome, reply) || !outcome.ok) return answerMatches('renew', outcome, reply);
          const body = reply.body as Partial<CashPack> | undefined;
          return body?.chain_digest === succeeded<{ digest: string }>(outcome).digest && body?.renewal_chain?.length === succeeded<{ depth: number }>(outcome).depth;
        },
        judge: (c, step, outcome, reply) => {
          judgeAnswer(c, step, 'renew', outcome, reply);
          if (!outcome.ok) return;
          const o = succeeded<{ digest: string; depth: number; bearer: string }>(outcome);
          judgeRenewed(c, step, reply.body, at, { packId: pack.packId, digest: o.digest, digestAt: ref(`renewal_digest(${real.digestRefs.at(-1)!}, ${sentAt})`), depth: o.depth, bearer: o.bearer, bearerAt: ref(`${newBearer}.x`), entry: built.wire, entryAt: ref(sentAt) });
        },
        adopt: (outcome, reply) => outcome.ok && addVersion(w, pack.packId, reply.body as CashPack, at.slice(2, -1), newBearer),
      };
    }
    case 'redeem': {
      const bearer = holder(op.by);
      // A redeemer the world left out (reduce.ts) is replaced by the one every world has.
      const redeemer = w.redeemerLevels.has(op.redeemer) ? op.redeemer : KEY.redeemer;
      const built = buildRedeem(w, now, { pack: real.known, bearer, redeemer, identifyAs: redeemer });
      return {
        kind: 'redeem',
        request: built.request,
        fields: { do: 'redeem', pack: ref(real.knownRef), bearer, redeemer },
        sent: { message: built.message, packRef: real.knownRef, signAs: redeemer },
        decide: (model) => {
          const d = model.redeem(built.message);
          return { outcome: d.outcome, commit: () => d.commit() };
        },
        explains: (outcome, reply) => {
          if (!answerMatches('redeem', outcome, reply) || !outcome.ok) return answerMatches('redeem', outcome, reply);
          const body = reply.body as { amount?: unknown; redeemer_kid?: unknown; chain_digest?: unknown } | undefined;
          const o = succeeded<{ amount: bigint; redeemerKid: string; digest: string }>(outcome);
          return body?.amount === toAmount(o.amount) && body?.redeemer_kid === o.redeemerKid && body?.chain_digest === o.digest;
        },
        judge: (c, step, outcome, reply) => {
          judgeAnswer(c, step, 'redeem', outcome, reply);
          if (!outcome.ok) return;
          const o = succeeded<{ amount: bigint; asset: string; redeemerKid: string; digest: string }>(outcome);
          judgeConfirmation(c, step, reply.body, at, {
            packId: pack.packId,
            packIdAt: ref(real.idRef),
            redemptionId: built.message.id,
            redemptionIdAt: ref(`${sentAt}.redemption_id`),
            redeemerKid: o.redeemerKid,
            redeemerKidAt: ref(`${redeemer}.kid`),
            amount: o.amount,
            asset: JSON.parse(o.asset),
            assetAt: ref(`${real.firstRef}.asset`),
            digest: o.digest,
            digestAt: current,
          });
        },
        adopt: () => undefined,
      };
    }
    case 'cancel':
      return {
        kind: 'cancel',
        request: buildCancel(pack.packId),
        fields: { do: 'cancel', pack_id: ref(real.idRef) },
        decide: (model) => {
          const d = model.cancel(pack.packId);
          return { outcome: d.outcome, commit: () => d.commit() };
        },
        explains: (outcome, reply) => answerMatches('cancel', outcome, reply),
        judge: (c, step, outcome, reply) => {
          judgeAnswer(c, step, 'cancel', outcome, reply);
          if (outcome.ok) judgeEqual(c, step, 'status', 'CPP-CAN-1', 'CANCELLED', (reply.body as Record<string, unknown> | undefined)?.status, ref(`${at.slice(2, -1)}.status`));
        },
        adopt: () => undefined,
      };
    case 'status': {
      const built = buildStatus(w, now, pack.packId, KEY.principal);
      return {
        kind: 'status',
        request: built.request,
        fields: { do: 'status', pack_id: ref(real.idRef), sign_as: KEY.principal },
        decide: (model) => ({ outcome: model.status(built.query), commit: () => undefined }),
        explains: (outcome, reply) => {
          if (!answerMatches('status', outcome, reply) || !outcome.ok) return answerMatches('status', outcome, reply);
          const body = reply.body as { status?: unknown; chain_depth?: unknown; chain_digest?: unknown } | undefined;
          const view = succeeded<{ view: { status: string; depth: number; digest: string } }>(outcome).view;
          return body?.status === view.status && body?.chain_depth === view.depth && body?.chain_digest === view.digest;
        },
        judge: (c, step, outcome, reply) => {
          judgeAnswer(c, step, 'status', outcome, reply);
          if (!outcome.ok) return;
          const view = succeeded<{ view: StatusView }>(outcome).view;
          judgeStatusView(c, step, view, reply.body, at, real, digests.get(view.digest) ?? view.digest);
        },
        adopt: () => undefined,
      };
    }
  }
}
