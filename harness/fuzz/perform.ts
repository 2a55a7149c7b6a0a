// One request of a fuzz command: predict the answer with the model, write the
// scenario step it amounts to, send it, compare every member the model
// predicts (judge.ts records each comparison as a check of the step), then
// commit the prediction. Each charges a difference to its own endpoint, from
// whatever command it was sent (a resend, an interleaving).
import { toAmount } from '../../profile/index.ts';
import type { CashPack } from '../../profile/cashpack/index.ts';
import type { WireRequest } from '../adapters/types.ts';
import { buildCancel, buildStatus } from './messages.ts';
import { judgeAnswer, judgeConfirmation, judgeEqual, judgePack, judgeSchema, on, type Ctx } from './judge.ts';
import type { IssueMessage, Prediction, RedeemMessage, RenewMessage } from './model.ts';
import type { RealPack, World } from './world.ts';
import { ref } from './choices.ts';

/** `sentAt` names the message in the scenario: this step's `res.sent`, or the capture of the message a resend repeats. */
export async function performIssue(command: Ctx, built: { message: IssueMessage; request: WireRequest }, fields: Record<string, unknown>, capture: string, bearer: string, sentAt: string | undefined, onReply?: () => void): Promise<void> {
  const ctx = on(command, 'issue');
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

/**
 * Writes the step, records a fresh message for replays, sends it and judges
 * the answer against the prediction: what a renewal and a redemption share.
 */
async function sendStep(ctx: Ctx, kind: 'renew' | 'redeem', outcome: Prediction<object>, message: RenewMessage | RedeemMessage, request: WireRequest, fields: Record<string, unknown>, record: { readonly sentRef: string; readonly packRef: string; readonly signAs?: string }, refs: { readonly fresh: boolean; readonly onReply?: () => void }) {
  const { m, w } = ctx;
  const step = w.step(fields);
  if (refs.fresh) {
    w.sent.push({ message, request, ...record });
    m.sent = w.sent.length;
  }
  const real = w.packs.get(message.packId);
  const digestBefore = real?.digestRefs.at(-1);
  const reply = await w.send(request);
  refs.onReply?.();
  judgeAnswer(ctx, step, kind, outcome, reply);
  return { step, real, digestBefore, reply };
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

export async function performRenew(command: Ctx, message: RenewMessage, request: WireRequest, fields: Record<string, unknown>, capture: string, refs: RenewRefs): Promise<Prediction<object>> {
  const ctx = on(command, 'renew');
  const { m, w } = ctx;
  const decision = m.operator.renew(message);
  const outcome = decision.outcome;
  const { step, real, digestBefore, reply } = await sendStep(ctx, 'renew', outcome, message, request, fields, { sentRef: `${capture}.sent`, packRef: refs.packRef }, refs);
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

export async function performRedeem(command: Ctx, message: RedeemMessage, request: WireRequest, fields: Record<string, unknown>, capture: string, refs: RedeemRefs): Promise<void> {
  const ctx = on(command, 'redeem');
  const { m, w } = ctx;
  const decision = m.operator.redeem(message);
  const outcome = decision.outcome;
  const { step, real, digestBefore, reply } = await sendStep(ctx, 'redeem', outcome, message, request, fields, { sentRef: `${capture}.sent`, packRef: refs.packRef, ...(refs.signAs !== false ? { signAs: refs.signAs } : {}) }, refs);
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
export async function performStatus(command: Ctx, real: RealPack | undefined, packId: string, signAs: string | false): Promise<void> {
  const ctx = on(command, 'status');
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

export async function performCancel(command: Ctx, real: RealPack | undefined, packId: string, onReply?: () => void): Promise<void> {
  const ctx = on(command, 'cancel');
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
