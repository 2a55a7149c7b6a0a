// One request of a fuzz command: predict the answer with the model, write the
// scenario step it amounts to, send it, compare every member the model
// predicts (judge.ts records each comparison as a check of the step), then
// commit the prediction. Each charges a difference to its own endpoint, from
// whatever command it was sent (a resend, an interleaving).
import { toAmount } from '../../profile/index.ts';
import type { CashPack } from '../../profile/cashpack/index.ts';
import type { WireRequest } from '../adapters/types.ts';
import { buildCancel, buildStatus } from './messages.ts';
import { judgeAnswer, judgeConfirmation, judgeEqual, judgePack, judgeRenewedMembers, judgeSchema, on, type Ctx } from './judge.ts';
import type { IssueMessage, Prediction, RedeemMessage, RenewMessage, StatusView } from './model.ts';
import type { RealPack, ScriptStep, World } from './world.ts';
import { ref } from './choices.ts';

/** How a request's message is named and kept: `sentAt` names it in the scenario (this step's `res.sent` when absent, or the capture of a message built apart), `fresh` false for a resend (not kept again for replays). */
interface SentOptions {
  readonly sentAt?: string;
  readonly fresh?: boolean;
  /** Called as soon as the answer is in, before it is checked. */
  readonly onReply?: () => void;
}

export async function performIssue(command: Ctx, built: { message: IssueMessage; request: WireRequest }, fields: Record<string, unknown>, capture: string, bearer: string, options: SentOptions = {}): Promise<void> {
  const ctx = on(command, 'issue');
  const { sentAt, fresh = true, onReply } = options;
  const sent = sentAt ?? 'res.sent';
  const { m, w } = ctx;
  const decision = m.operator.issue(built.message);
  const outcome = decision.outcome;
  const step = w.step(fields);
  if (fresh) {
    w.sent.push({ message: built.message, request: built.request, sentRef: sentAt ?? `${capture}.sent` });
    m.sent = w.sent.length;
  }
  const reply = await w.send(built.request);
  onReply?.();
  judgeAnswer(ctx, step, 'issue', outcome, reply);
  if (!outcome.ok) return decision.commit(undefined);
  const body = reply.body as CashPack;
  judgeIssued(ctx, step, outcome, body, '${res.body}', sent);
  decision.commit(body.pack_id);
  addPack(w, body, `${capture}.body`, bearer);
}

/** An issued pack (`at`, its template; `sent`, the Lock Request's): what the model predicts of it (PROFILE.md §4.3). */
export function judgeIssued(ctx: Ctx, step: ScriptStep, outcome: Extract<Prediction<{ readonly amount: bigint; readonly asset: string; readonly expiryMs: number; readonly initialBearer: string }>, { ok: true }>, body: CashPack, at: string, sent: string): void {
  const { m, w } = ctx;
  const of = at.slice(2, -1);
  judgePack(ctx, step, body, at, {
    digest: m.operator.genesisDigest(body.pack_id, outcome.initialBearer),
    digestAt: ref(`genesis_digest(${of}.pack_id, ${sent}.initial_bearer_pk)`),
    depth: 0,
    bearer: outcome.initialBearer,
    bearerAt: ref(`${sent}.initial_bearer_pk.x`),
  }, 'CPP-ISS-1');
  judgeEqual(ctx, step, 'amount', 'CPP-ISS-1', toAmount(outcome.amount), body.amount, ref(`${of}.amount`));
  judgeEqual(ctx, step, 'asset', 'CPP-ISS-1', JSON.parse(outcome.asset), body.asset, ref(`${of}.asset`), ref(`${sent}.asset`));
  judgeEqual(ctx, step, 'expiry', 'CPP-ISS-1', w.timestamp(outcome.expiryMs), body.expiry, ref(`${of}.expiry`), ref(`${sent}.requested_expiry`));
  // PROFILE.md §4.3: the Operator's clock, not created_at.
  judgeEqual(ctx, step, 'issued_at', 'PRF-MSG-1', w.timestamp(m.operator.now), body.issued_at, ref(`${of}.issued_at`), '${ts(now)}');
}

/** A pack the Operator issued joins the world, named in the scenario by `packRef`. */
export function addPack(w: World, body: CashPack, packRef: string, bearer: string): void {
  w.packs.set(body.pack_id, {
    packId: body.pack_id,
    idRef: `${packRef}.pack_id`,
    first: body,
    firstRef: packRef,
    known: body,
    knownRef: packRef,
    digestRefs: [`${packRef}.chain_digest`],
    bearerNames: [bearer],
    versions: [{ pack: body, ref: packRef }],
  });
}

/** A renewal the Operator granted: its pack's new version, named in the scenario by `packRef`. */
export function addVersion(w: World, packId: string, body: CashPack, packRef: string, newBearer: string): void {
  const known = w.packs.get(packId)!;
  known.known = body;
  known.knownRef = packRef;
  known.digestRefs.push(`${packRef}.chain_digest`);
  known.bearerNames.push(newBearer);
  known.versions.push({ pack: body, ref: packRef });
}

/** The checks of a renewed pack: what the model predicts of it, and what the renewal leaves as it was. */
export function judgeRenewed(ctx: Ctx, step: ScriptStep, body: unknown, at: string, expected: { readonly packId: string; readonly digest: string; readonly digestAt: string; readonly depth: number; readonly bearer: string; readonly bearerAt: string; readonly entry: unknown; readonly entryAt: string }): void {
  const { m, w } = ctx;
  const pack = m.operator.pack(expected.packId)!;
  const real = w.packs.get(expected.packId);
  judgePack(ctx, step, body, at, { ...expected, packIdAt: real !== undefined ? ref(real.idRef) : expected.packId }, 'CPP-RNW-1');
  judgeRenewedMembers(ctx, step, body, at, {
    amount: toAmount(pack.amount),
    asset: JSON.parse(pack.asset),
    expiry: w.timestamp(pack.expiryMs),
    issuedAt: w.timestamp(pack.issuedAtMs),
    initialBearer: pack.bearers[0]!,
    first: real?.firstRef ?? 'res.body',
  }, { value: expected.entry, at: expected.entryAt, index: expected.depth - 1 });
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
  /** The message in the scenario: `res.sent`, the capture a resend repeats, or that of a message built apart. */
  readonly sentAt: string;
  /** Called as soon as the answer is in, before it is checked. */
  readonly onReply?: () => void;
}

export async function performRenew(command: Ctx, message: RenewMessage, request: WireRequest, fields: Record<string, unknown>, capture: string, refs: RenewRefs): Promise<Prediction<object>> {
  const ctx = on(command, 'renew');
  const { m, w } = ctx;
  const decision = m.operator.renew(message);
  const outcome = decision.outcome;
  const { step, digestBefore, reply } = await sendStep(ctx, 'renew', outcome, message, request, fields, { sentRef: sentRefOf(refs.sentAt, capture), packRef: refs.packRef }, refs);
  if (outcome.ok) {
    judgeRenewed(ctx, step, reply.body, '${res.body}', {
      packId: message.packId,
      digest: outcome.digest,
      // The digest the pack held before this renewal, as the scenario captured it; the model's own when it never captured one.
      digestAt: digestBefore !== undefined ? ref(`renewal_digest(${digestBefore}, ${refs.sentAt})`) : outcome.digest,
      depth: outcome.depth,
      bearer: outcome.bearer,
      bearerAt: ref(`${refs.newBearer}.x`),
      entry: sentEntry(request),
      entryAt: ref(refs.sentAt),
    });
  }
  decision.commit();
  if (outcome.ok) addVersion(w, message.packId, reply.body as CashPack, `${capture}.body`, refs.newBearer);
  return outcome;
}

interface RedeemRefs {
  readonly packRef: string;
  readonly signAs: string | false;
  readonly fresh: boolean;
  /** The message in the scenario: `res.sent`, the capture a resend repeats, or that of a message built apart. */
  readonly sentAt: string;
  /** Called as soon as the answer is in, before it is checked. */
  readonly onReply?: () => void;
}

export async function performRedeem(command: Ctx, message: RedeemMessage, request: WireRequest, fields: Record<string, unknown>, capture: string, refs: RedeemRefs): Promise<void> {
  const ctx = on(command, 'redeem');
  const { m, w } = ctx;
  const decision = m.operator.redeem(message);
  const outcome = decision.outcome;
  const { step, real, digestBefore, reply } = await sendStep(ctx, 'redeem', outcome, message, request, fields, { sentRef: sentRefOf(refs.sentAt, capture), packRef: refs.packRef, ...(refs.signAs !== false ? { signAs: refs.signAs } : {}) }, refs);
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
      asset: JSON.parse(outcome.asset),
      assetAt: real !== undefined ? ref(`${real.firstRef}.asset`) : JSON.parse(outcome.asset),
      digest: outcome.digest,
      digestAt: digestBefore !== undefined ? ref(digestBefore) : outcome.digest,
    });
  }
  decision.commit();
}

/** A status read; `signedOffset` seconds from the Operator's now to the signature's `created`. */
export async function performStatus(command: Ctx, real: RealPack | undefined, packId: string, signAs: string | false, signedOffset = 0): Promise<void> {
  const ctx = on(command, 'status');
  const { m, w } = ctx;
  const built = buildStatus(w, m.operator.now, packId, signAs, m.operator.now + signedOffset * 1000);
  const outcome = m.operator.status(built.query);
  const capture = w.capture();
  const step = w.step({ do: 'status', pack_id: real ? ref(real.idRef) : packId, sign_as: signAs, ...signedAtField(signedOffset), as: capture });
  const reply = await w.send(built.request);
  judgeAnswer(ctx, step, 'status', outcome, reply);
  if (outcome.ok) judgeStatusView(ctx, step, outcome.view, reply.body, '${res.body}', real, real ? ref(real.digestRefs.at(-1)!) : outcome.view.digest);
}

/** A status response (`at`, its template) against the model's view (PROFILE.md §4.7); `digestAt` is the template of the digest the view holds. */
export function judgeStatusView(ctx: Ctx, step: ScriptStep, view: StatusView, value: unknown, at: string, real: RealPack | undefined, digestAt: string): void {
  const body = value as Record<string, unknown> | undefined;
  const of = at.slice(2, -1);
  judgeSchema(ctx, step, 'status', body, 'CPP-STS-1', at === '${res.body}' ? undefined : at);
  judgeEqual(ctx, step, 'status', 'CPP-STS-1', view.status, body?.status, ref(`${of}.status`));
  judgeEqual(ctx, step, 'chain_depth', 'CPP-CHN-1', view.depth, body?.chain_depth, ref(`${of}.chain_depth`));
  judgeEqual(ctx, step, 'chain_digest', 'CPP-CHN-1', view.digest, body?.chain_digest, ref(`${of}.chain_digest`), digestAt);
  judgeEqual(ctx, step, 'amount', 'CPP-STS-1', toAmount(view.amount), body?.amount, ref(`${of}.amount`));
  judgeEqual(ctx, step, 'asset', 'CPP-STS-1', JSON.parse(view.asset), body?.asset, ref(`${of}.asset`), real ? ref(`${real.firstRef}.asset`) : JSON.parse(view.asset));
  judgeEqual(ctx, step, 'expiry', 'CPP-STS-1', ctx.w.timestamp(view.expiryMs), body?.expiry, ref(`${of}.expiry`), real ? ref(`${real.firstRef}.expiry`) : ctx.w.timestamp(view.expiryMs));
  judgeEqual(ctx, step, 'updated_at', 'PRF-STS-1', ctx.w.timestamp(view.updatedAtMs), body?.updated_at, ref(`${of}.updated_at`), updatedAtTemplate(ctx, view, real));
}

/**
 * How the scenario names the instant of the pack's last state change
 * (PROFILE.md §4.7): its expiry when it expired, its issued_at when nothing
 * has changed it since, else the clock as many seconds ago as the model says.
 */
function updatedAtTemplate(ctx: Ctx, view: StatusView, real: RealPack | undefined): string {
  const pack = ctx.m.operator.pack(real?.packId ?? '');
  if (real && view.status === 'EXPIRED') return ref(`${real.firstRef}.expiry`);
  if (real && pack && view.updatedAtMs === pack.issuedAtMs) return ref(`${real.firstRef}.issued_at`);
  const ago = Math.round((ctx.m.operator.now - view.updatedAtMs) / 1000);
  return ago === 0 ? '${ts(now)}' : `\${ts(now - ${ago})}`;
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

/** How the scenario names a message kept for replays: the step's own `sent`, or the capture of the message built apart. */
function sentRefOf(sentAt: string, capture: string): string {
  return sentAt === 'res.sent' ? `${capture}.sent` : sentAt;
}

/** The Renewal Entry a renew request carries. */
function sentEntry(request: WireRequest): unknown {
  const body = typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
  return (JSON.parse(body) as { renewal?: unknown }).renewal;
}

/** The scenario step's signed_at (epoch seconds) when the HTTP signature is not created at the Operator's now. */
export function signedAtField(offset: number): { signed_at?: string } {
  return offset === 0 ? {} : { signed_at: `\${now ${offset < 0 ? '-' : '+'} ${Math.abs(offset)}}` };
}

/** The key name of a kid in this world. */
function nameOfKid(w: World, kid: string): string | undefined {
  return [...w.keys].find(([, key]) => key.jwk.kid === kid)?.[0];
}
