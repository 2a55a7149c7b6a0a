// Steps 1–7 shared by renew and redeem (PROFILE.md §5: redeem "1.–7. as renew
// steps 1–7, with the Redemption Request and redemption_id"). The presented
// cash-pack proves the instrument is authentic and names pack_id; every later
// check uses the Operator's stored state, which is authoritative.
import { parseTimestamp } from '../../profile/index.ts';
import { verifyCashPack, type CashPack, type RedemptionRequest, type RenewalEntry } from '../../profile/cashpack/index.ts';
import { problemResponse } from '../http/respond.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import { readMessage } from './body.ts';
import { isFresh, isReplay, keyOf, verifies, type OperatorContext } from './context.ts';
import { applyExpiry } from './expiry.ts';
import type { PackRecord } from './state.ts';

/** The signed bearer message of each endpoint: body kind, member, signing tag, id. */
const BEARER_MESSAGES = {
  renew: { body: 'renew-request', member: 'renewal', tag: 'renewal-entry', id: 'renewal_id' },
  redeem: { body: 'redeem-request', member: 'redemption', tag: 'redemption-request', id: 'redemption_id' },
} as const;

type BearerMessage = { readonly renew: RenewalEntry; readonly redeem: RedemptionRequest };

type BearerSteps<M> =
  | { readonly ok: true; readonly record: PackRecord; readonly message: M; readonly now: number; readonly presented: CashPack }
  | { readonly ok: false; readonly response: RefResponse };

export function bearerSteps<E extends keyof typeof BEARER_MESSAGES>(ctx: OperatorContext, request: RefRequest, endpoint: E): BearerSteps<BearerMessage[E]> {
  const spec = BEARER_MESSAGES[endpoint];
  const reject = (...args: Parameters<typeof problemResponse>) => ({ ok: false, response: problemResponse(...args) }) as const;

  // 1. HTTP and syntax; the message's pack_id equals the cash-pack's (checked with the schema).
  const body = readMessage(ctx, request, spec.body);
  if (!body.ok) return body;
  const pack = body.value.cash_pack;
  const message = (body.value as unknown as Record<string, BearerMessage[E]>)[spec.member]!;
  const now = ctx.clock.now();

  // Mutant op-pack-looked-up-before-signature: steps 2 and 3 swapped (the cheap lookup first), so a pack the Operator never issued is NOT_FOUND before its signature is judged.
  // Stryker disable next-line all: only the op-pack-looked-up-before-signature fault looks the pack up first
  if (ctx.faults.has('op-pack-looked-up-before-signature') && !ctx.state.packs.has(pack.pack_id)) return reject('NOT_FOUND', 'unknown pack_id');
  // 2. The cash-pack is the Operator's (tag cash-pack).
  if (!verifyCashPack(pack, ctx.keys.publicKey)) return reject('INVALID_SIGNATURE', 'cash_pack signature does not verify under the operator key');
  // 3. The instrument exists.
  const record = ctx.state.packs.get(pack.pack_id);
  if (!record) return reject('NOT_FOUND', 'unknown pack_id');
  // 4. The bearer's signature over its message (spec §5.2).
  if (!verifies(ctx, spec.tag, message, keyOf(message.bearer_pk))) {
    return reject('INVALID_SIGNATURE', `${spec.member} signature does not verify under bearer_pk`);
  }
  // 5. Freshness (PROFILE.md §6).
  if (!isFresh(ctx, message.created_at, now)) return reject('STALE_REQUEST', 'created_at is outside the request window');
  // Mutant op-chain-entries-freshness-checked: the presented pack's Renewal Entries held to the window too, so a pack renewed over a window ago is neither renewed nor redeemed again.
  // Stryker disable next-line all: only the op-chain-entries-freshness-checked fault dates the chain
  if (ctx.faults.has('op-chain-entries-freshness-checked') && pack.renewal_chain.some((entry) => !isFresh(ctx, entry.created_at, now))) return reject('STALE_REQUEST', 'a renewal of the presented pack is outside the request window');
  // 6. Replay (spec §7.1 DUPLICATE_ID): from here on the id is recorded, whatever follows.
  const id = (message as unknown as Record<string, string>)[spec.id]!;
  if (isReplay(ctx, spec.id, id, now, message.created_at)) return reject('DUPLICATE_ID', `${spec.id} has been seen before`);
  // 7. Spec §3.2: only an ACTIVE pack, after applying expiry (PROFILE.md §5.1).
  // Mutant op-expiry-judged-at-created-at: expiry judged at the message's created_at, not the clock.
  applyExpiry(ctx.state, record, ctx.faults.has('op-expiry-judged-at-created-at') ? parseTimestamp(message.created_at, 'cashpack')! : now);
  if (record.status !== 'ACTIVE') {
    // Mutant op-terminal-state-revived: a renewal brings an ended pack back to life.
    if (endpoint === 'renew' && ctx.faults.has('op-terminal-state-revived')) record.status = 'ACTIVE';
    else return reject('INSTRUMENT_NOT_ACTIVE', `the pack is ${record.status}`);
  }

  return { ok: true, record, message, now, presented: pack };
}
