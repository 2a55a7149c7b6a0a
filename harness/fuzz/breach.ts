// Requests that break two or three of an endpoint's checks at once (PROFILE.md
// §5: "each endpoint applies its checks in this order and answers with the
// first that fails"). The checks are the model's own table (ENDPOINT_RULES), and
// each has a breaker here, in the same order: what to change in an otherwise
// valid request so that it fails that check. A breach names checks by their
// place in the table, so every pair (and triple) the table orders is generated
// from it, and the model, not this file, says which one answers.
//
// A breaker that needs state the world does not have (a terminal pack, a pack
// at max_chain_depth, an id to reuse) changes nothing; what was sent is what
// the model judges.
import type { ProblemCode } from '../../profile/index.ts';
import { toAmount } from '../../profile/index.ts';
import { assetField, CALLER_KEY, createdAtField, datedOffset, identityOf, LARGEST_AMOUNT, NEVER_A_DIGEST, present, ref, resolveAsset, resolveExpiry, reusedId } from './choices.ts';
import type { Ctx } from './judge.ts';
import { buildIssue, buildRedeem, buildRenew, ISSUE_PATH, REDEEM_PATH, RENEW_PATH } from './messages.ts';
import { depthOf, digestOf, ENDPOINT_RULES, type PackState } from './model.ts';
import { performIssue, performRedeem, performRenew, performStatus } from './perform.ts';
import type { BreachEndpoint, Caller, CommandSpec, DatingChoice, Identity, Tamper } from './spec.ts';
import { KEY } from './world.ts';

type Spec<K extends CommandSpec['kind']> = Extract<CommandSpec, { kind: K }>;

/** What an issue breach changes in a valid Lock Request. */
interface IssueDraft {
  flip: boolean;
  signer: 'principal' | 'outsider';
  dated?: DatingChoice;
  reuse: boolean;
  unlisted: boolean;
  overLimit: boolean;
  overBalance: boolean;
  lifetime: 'typical' | 'max+1';
}

/** What a renew or redeem breach changes in a valid request of the current bearer. */
interface BearerDraft {
  tamper?: Tamper;
  flip: boolean;
  dated?: DatingChoice;
  reuse: boolean;
  terminal: boolean;
  outsider: boolean;
  staleDigest: boolean;
  deep: boolean;
  identity: Identity;
}

/** What a status breach changes in a read by the issuing Principal. */
interface StatusDraft {
  caller: Caller;
  unknown: boolean;
}

interface Breaker<D> {
  /** The code of the check it breaks: the table's, in the same place (a test keeps them in step). */
  readonly code: ProblemCode;
  readonly apply: (draft: D) => void;
}

/** Renew and redeem steps 2–7 (PROFILE.md §5 redeem: "as renew steps 1–7"). */
const BEARER_FRONT: readonly Breaker<BearerDraft>[] = [
  // Step 2: a presented cash-pack that does not verify (one member changed, the Operator's signature left).
  { code: 'INVALID_SIGNATURE', apply: (d) => void (d.tamper ??= { member: 'amount', how: 'unsigned' }) },
  // Step 3: an unknown pack_id; only a pack the Operator did not sign can carry one, so step 2 fails too.
  { code: 'NOT_FOUND', apply: (d) => void (d.tamper = { member: 'pack_id', how: 'unsigned' }) },
  { code: 'INVALID_SIGNATURE', apply: (d) => void (d.flip = true) },
  { code: 'STALE_REQUEST', apply: (d) => void (d.dated = 'stale-after') },
  { code: 'DUPLICATE_ID', apply: (d) => void (d.reuse = true) },
  { code: 'INSTRUMENT_NOT_ACTIVE', apply: (d) => void (d.terminal = true) },
  { code: 'BEARER_MISMATCH', apply: (d) => void (d.outsider = true) },
];

/** Each endpoint's breakers, parallel to its checks in ENDPOINT_RULES. */
export const BREAKERS: { readonly issue: readonly Breaker<IssueDraft>[]; readonly renew: readonly Breaker<BearerDraft>[]; readonly redeem: readonly Breaker<BearerDraft>[]; readonly status: readonly Breaker<StatusDraft>[] } = {
  issue: [
    { code: 'INVALID_SIGNATURE', apply: (d) => void (d.flip = true) },
    { code: 'PRINCIPAL_UNKNOWN', apply: (d) => void (d.signer = 'outsider') },
    { code: 'STALE_REQUEST', apply: (d) => void (d.dated = 'stale-before') },
    { code: 'DUPLICATE_ID', apply: (d) => void (d.reuse = true) },
    { code: 'ASSET_NOT_SUPPORTED', apply: (d) => void (d.unlisted = true) },
    { code: 'AMOUNT_EXCEEDS_LIMIT', apply: (d) => void (d.overLimit = true) },
    { code: 'EXPIRY_INVALID', apply: (d) => void (d.lifetime = 'max+1') },
    { code: 'INSUFFICIENT_BALANCE', apply: (d) => void (d.overBalance = true) },
  ],
  renew: [...BEARER_FRONT, { code: 'CHAIN_DIGEST_MISMATCH', apply: (d) => void (d.staleDigest = true) }, { code: 'CHAIN_DEPTH_EXCEEDED', apply: (d) => void (d.deep = true) }],
  redeem: [...BEARER_FRONT, { code: 'REDEEMER_NOT_IDENTIFIED', apply: (d) => void (d.identity = 'unsigned') }],
  status: [
    { code: 'UNAUTHENTICATED', apply: (d) => void (d.caller = 'unsigned') },
    { code: 'FORBIDDEN', apply: (d) => void (d.caller = d.caller === 'unsigned' ? 'unsigned' : 'stranger') },
    { code: 'NOT_FOUND', apply: (d) => void (d.unknown = true) },
  ],
};

/** How many checks each endpoint has that a breach can name (the length of its ENDPOINT_RULES table). */
export const BREACHABLE: Readonly<Record<BreachEndpoint, number>> = {
  issue: ENDPOINT_RULES.issue.checks.length,
  renew: ENDPOINT_RULES.renew.checks.length,
  redeem: ENDPOINT_RULES.redeem.checks.length,
  status: ENDPOINT_RULES.status.checks.length,
};

function draftOf<D>(breakers: readonly Breaker<D>[], rules: readonly number[], draft: D): D {
  // In the table's order, whatever the spec's: a later breaker may build on an earlier one (pack_id over amount).
  for (const i of [...new Set(rules)].sort((a, b) => a - b)) breakers[i % breakers.length]!.apply(draft);
  return draft;
}

export async function breach(spec: Spec<'breach'>, ctx: Ctx): Promise<void> {
  ctx.w.executed.push(spec);
  switch (spec.endpoint) {
    case 'issue':
      return breachIssue(draftOf(BREAKERS.issue, spec.rules, { flip: false, signer: 'principal', reuse: false, unlisted: false, overLimit: false, overBalance: false, lifetime: 'typical' }), ctx);
    case 'renew':
    case 'redeem': {
      const draft = draftOf(BREAKERS[spec.endpoint], spec.rules, { flip: false, reuse: false, terminal: false, outsider: false, staleDigest: false, deep: false, identity: 'identified' });
      return spec.endpoint === 'renew' ? breachRenew(draft, spec.pack, ctx) : breachRedeem(draft, spec.pack, ctx);
    }
    case 'status': {
      const draft = draftOf(BREAKERS.status, spec.rules, { caller: 'principal', unknown: false });
      const target = draft.unknown || ctx.m.operator.packList().length === 0 ? undefined : pickFor(ctx, spec.pack, false, false);
      // FORBIDDEN needs a registered account that is not the pack's Principal: the stranger, else a redeemer.
      const caller = draft.caller === 'stranger' && ctx.w.unprovisioned.has(KEY.stranger) ? 'redeemer' : draft.caller;
      const signAs = caller === 'unsigned' ? false : CALLER_KEY[caller];
      return performStatus(ctx, target ? ctx.w.packs.get(target.packId) : undefined, target?.packId ?? ctx.w.unknownPackId, signAs);
    }
  }
}

/** A Lock Request with the draft's breaks; a flipped signature is written in the scenario as a built message, tampered, then posted. */
async function breachIssue(d: IssueDraft, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  const policy = m.operator.policy;
  const principal = m.operator.principal(w.kid(KEY.principal))!;
  const bumps = [...(d.overLimit && policy.maxAmount < LARGEST_AMOUNT ? [policy.maxAmount + 1n] : []), ...(d.overBalance && principal.available < LARGEST_AMOUNT ? [principal.available + 1n] : [])];
  const amount = bumps.reduce((a, b) => (a > b ? a : b), 1n);
  const lifetime = d.lifetime === 'typical' ? resolveExpiry('typical', policy.expiryMinSeconds, policy.expiryMaxSeconds) : policy.expiryMaxSeconds + 1;
  const asset = resolveAsset(d.unlisted ? 'unlisted' : undefined, w);
  const offset = datedOffset(d.dated, policy.requestWindowSeconds);
  const reused = d.reuse ? reusedId(ctx, 0) : undefined;
  const bearer = w.newBearer();
  const now = m.operator.now;
  const built = buildIssue(w, now, { signer: d.signer, bearer, amount, asset, expiryMs: now + lifetime * 1000, createdMs: now + offset * 1000, flip: d.flip, ...(reused ? { id: reused.id } : {}) });
  const lock = { principal: d.signer, bearer, amount: toAmount(amount), ...assetField(w, asset), expiry_in: lifetime, ...createdAtField(offset), ...(reused ? { request_id: ref(reused.expr) } : {}), beyond_limit: true };
  const capture = w.capture();
  if (!d.flip) {
    await performIssue(ctx, built, { do: 'issue', ...lock, as: capture }, capture, bearer, { onReply: () => w.readBalancesNow(false) });
  } else {
    const sentAt = flippedMessage(ctx, { do: 'lock-request', ...lock });
    await performIssue(ctx, built, { do: 'http', method: 'POST', path: ISSUE_PATH, json: ref(sentAt), as: capture }, capture, bearer, { sentAt, onReply: () => w.readBalancesNow(false) });
  }
  await w.checkBalances(m, ctx, 'CPP-FND-1', false);
}

/** The scenario steps of a message built apart whose signature is then flipped (PROFILE.md §5 step 2 or 4); returns the flipped message's capture. */
function flippedMessage(ctx: Ctx, build: Record<string, unknown>): string {
  const built = ctx.w.capture();
  ctx.w.step({ ...build, as: built });
  const flipped = ctx.w.capture();
  ctx.w.step({ do: 'tamper', value: ref(built), flip_signature: true, as: flipped });
  return flipped;
}

/** The pack a renew or redeem breach acts on: one the draft's state-dependent breaks can use when there is one. */
function pickFor(ctx: Ctx, index: number, terminal: boolean, deep: boolean): PackState {
  const packs = ctx.m.operator.packList();
  const max = ctx.m.operator.policy.maxChainDepth;
  const fits = (p: PackState) => (!terminal || p.status !== 'ACTIVE') && (!deep || depthOf(p) >= max);
  const loose = (p: PackState) => (terminal ? p.status !== 'ACTIVE' : deep ? depthOf(p) >= max : true);
  const candidates = [packs.filter(fits), packs.filter(loose), packs].find((list) => list.length > 0)!;
  return candidates[index % candidates.length]!;
}

/** The bearer message's fields common to renew and redeem, with the draft's breaks. */
function bearerParts(ctx: Ctx, d: BearerDraft, index: number) {
  const { m, w } = ctx;
  const pack = pickFor(ctx, index, d.terminal, d.deep);
  const real = w.packs.get(pack.packId)!;
  const presented = present(ctx, real, 'known', d.tamper);
  const bearer = d.outsider ? KEY.outsider : real.bearerNames.at(-1)!;
  const offset = datedOffset(d.dated, m.operator.policy.requestWindowSeconds);
  const reused = d.reuse ? reusedId(ctx, 0) : undefined;
  return { pack, real, presented, bearer, offset, reused, now: m.operator.now };
}

async function breachRenew(d: BearerDraft, index: number, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  const { pack, real, presented, bearer, offset, reused, now } = bearerParts(ctx, d, index);
  const [prevDigest, prevExpr] = d.staleDigest ? [NEVER_A_DIGEST, NEVER_A_DIGEST] : [digestOf(pack), ref(real.digestRefs.at(-1)!)];
  const newBearer = w.newBearer();
  const built = buildRenew(w, now, { pack: presented.pack, tampered: presented.tampered, bearer, newBearer, prevDigest, flip: d.flip, createdMs: now + offset * 1000, ...(reused ? { id: reused.id } : {}) });
  const entry = { pack: ref(presented.ref), bearer, new_bearer: newBearer, prev_chain_digest: prevExpr, ...(reused ? { renewal_id: ref(reused.expr) } : {}), ...createdAtField(offset), beyond_limit: true };
  const capture = w.capture();
  const onReply = () => w.readBalancesNow(false);
  if (!d.flip) {
    await performRenew(ctx, built.message, built.request, { do: 'renew', ...entry, as: capture }, capture, { newBearer, packRef: presented.ref, fresh: true, sentAt: 'res.sent', onReply });
  } else {
    const sentAt = flippedMessage(ctx, { do: 'renewal', ...entry });
    const fields = { do: 'http', method: 'POST', path: RENEW_PATH, json: { cash_pack: ref(presented.ref), renewal: ref(sentAt) }, as: capture };
    await performRenew(ctx, built.message, built.request, fields, capture, { newBearer, packRef: presented.ref, fresh: true, sentAt, onReply });
  }
  await w.checkBalances(m, ctx, 'CPP-FND-1', false);
}

async function breachRedeem(d: BearerDraft, index: number, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  const { presented, bearer, offset, reused, now } = bearerParts(ctx, d, index);
  const { redeemer, identifyAs } = identityOf(d.identity, w);
  const built = buildRedeem(w, now, { pack: presented.pack, tampered: presented.tampered, bearer, redeemer, identifyAs, flip: d.flip, createdMs: now + offset * 1000, ...(reused ? { id: reused.id } : {}) });
  const message = { pack: ref(presented.ref), bearer, redeemer, ...(reused ? { redemption_id: ref(reused.expr) } : {}), ...createdAtField(offset) };
  const capture = w.capture();
  const refs = { packRef: presented.ref, signAs: identifyAs, fresh: true, onReply: () => w.readBalancesNow(true) };
  if (!d.flip) {
    await performRedeem(ctx, built.message, built.request, { do: 'redeem', ...message, ...(identifyAs !== redeemer ? { identify_as: identifyAs } : {}), as: capture }, capture, { ...refs, sentAt: 'res.sent' });
  } else {
    const sentAt = flippedMessage(ctx, { do: 'redemption', ...message });
    const fields = { do: 'http', method: 'POST', path: REDEEM_PATH, json: { cash_pack: ref(presented.ref), redemption: ref(sentAt) }, ...(identifyAs !== false ? { sign_as: identifyAs } : {}), as: capture };
    await performRedeem(ctx, built.message, built.request, fields, capture, { ...refs, sentAt });
  }
  await w.checkBalances(m, ctx, 'CPP-FND-1', true);
}
