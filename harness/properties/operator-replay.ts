// PROP-OP-021: an id used again wherever the Operator's clock then stands
// (PROFILE.md §6). request_id, renewal_id and redemption_id share one
// namespace; a message's id is recorded at the Operator's clock when it is
// received. A case records an id with a Lock Request, a renewal or a
// redemption, moves the clock (frozen at whole seconds) forward or back, and
// sends a new, valid, fresh message of any of the three kinds with that id:
//
//   less than twice request_window_seconds after the recording, or up to
//   twice the window before it (a clock set back: the id was recorded less
//   than twice the window ago), the new message is refused DUPLICATE_ID and
//   changes nothing, neither the packs of the case nor the Principal's
//   balance;
//
//   twice the window after it or later (at exactly that instant too), the
//   Operator MAY have forgotten the id; set back further than twice the
//   window, the profile does not say whether the id was recorded less than
//   twice the window ago: refused DUPLICATE_ID, changing
//   nothing, or taken as the message of its own it is. Taken, a Lock Request
//   issues a pack with a pack_id no other pack has, and no message changes
//   the pack the id was first used for.
//
// The forward moves fall anywhere within the window's double, at its last
// second, at its end or past it (days past it too); the backward ones a second
// to twice the window back, or further. Up to three ids are recorded first,
// earlier, so that the Operator's store holds ids it may forget by the time
// the case's id is used again beside the one it must keep. Two cases in five play out with the clock set days to
// ten years back of where it stood, one in five as far ahead: a store that forgets by the machine's clock, not
// the Operator's, shows there. The packs of the case are read before and after
// the new message, at the same clock, so an expiry between changes nothing. Every case ends with a Lock
// Request recorded where the clock then stands and sent again with the clock set back a second: DUPLICATE_ID.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { createSigningKey, type CashPack, type SigningKey } from '../../profile/cashpack/index.ts';
import { newUuid } from '../../profile/uuid.ts';
import { StepError, type HttpResult, type ScenarioContext } from '../scenarios/context.ts';
import { jsonRequest, send } from '../scenarios/http.ts';
import type { Policy } from '../scenarios/actions/index.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { clockBefore, restoreClock, setClock } from './field-classes/clock.ts';
import { answerOf, balanceOf, issuePack, lockRequest, operatorNow, operatorParties, policyOnItsClock, redeemRequest, redemption, renewal, statusRequest, type OperatorParties } from './field-classes/operator-setup.ts';

const FILE = 'harness/properties/operator-replay.ts';

type Kind = 'issue' | 'renew' | 'redeem';

/** Where the clock stands when the id is used again, from the instant it was recorded. */
type Move =
  | { readonly within: number } // a fraction (of 2^16) of the way through twice the window, its last second included
  | { readonly edge: 'last-second' | 'end' | 'past' } // 2w - 1 s, 2w, 2w + 1 s
  | { readonly beyond: number } // 2w plus up to a thousand windows (farthest)
  | { readonly back: number } // a fraction (of 2^16) of twice the window, at least a second, back
  | { readonly farBack: number }; // more than twice the window back: up to a thousand windows more (farthest)

interface Case {
  readonly first: Kind;
  readonly again: Kind;
  readonly move: Move;
  /**
   * Ids recorded before the case's own, each a fraction (of 2^16) of the way
   * back from the last second of twice the window towards where the clock will
   * stand: still remembered when the case's id is recorded, due to be forgotten
   * by the time it is used again (a store then holds ids to forget beside one
   * it must keep).
   */
  readonly older: readonly number[];
  /** Days the case's clock stands from where it stood before the property (0: on from the last case): a clock set days to years back or ahead of the machine's keeps its ids as surely. */
  readonly eraDays: number;
}

const KINDS = ['issue', 'renew', 'redeem'] as const;
// A Lock Request first one case in two (the pack a reuse could be mistaken for is its own), and the id used again
// in the same kind of message one case in two, in any kind otherwise. Where max_chain_depth is 0 no renewal is
// granted: the kinds are the Lock Request and the redemption.
const casesOf = (kinds: readonly Kind[]): fc.Arbitrary<Case> => fc.record({
  first: fc.constantFrom<Kind>('issue', 'issue', ...kinds.filter((k) => k !== 'issue')),
  again: fc.option(fc.constantFrom(...kinds), { nil: undefined, freq: 2 }),
  move: fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((within): Move => ({ within })) },
    { weight: 2, arbitrary: fc.constantFrom('last-second' as const, 'end' as const, 'past' as const).map((edge): Move => ({ edge })) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((beyond): Move => ({ beyond })) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((back): Move => ({ back })) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((farBack): Move => ({ farBack })) },
  ),
  older: fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 3 }),
  eraDays: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 3650 }).map((d) => -d) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3650 }) }),
}).map(({ first, again, move, older, eraDays }) => ({ first, again: again ?? first, move, older, eraDays }));

/** The farthest past twice the window a move goes: a thousand windows, at most a thousand days (the clock stays within years of now, whatever window a policy sets). */
const farthest = (w: number): number => 1000 * Math.min(w, 86_400);

/** The clock's offset from the recording, in whole seconds, for a window of `w` seconds. */
function offsetOf(move: Move, w: number): number {
  const twice = 2 * w;
  if ('within' in move) return Math.floor(((twice - 1) * move.within) / 0xffff);
  if ('edge' in move) return twice + { 'last-second': -1, end: 0, past: 1 }[move.edge];
  if ('beyond' in move) return twice + Math.floor((farthest(w) * move.beyond) / 0xffff);
  if ('farBack' in move) return -(twice + 1 + Math.floor((farthest(w) * move.farBack) / 0xffff));
  return -Math.max(1, Math.floor((twice * move.back) / 0xffff));
}

/** A pack of the case and its current bearer. */
interface Held {
  readonly pack: CashPack;
  readonly bearer: SigningKey;
}

/** The message of `kind` with id `id`, created at `at` (ms): a Lock Request of one unit, or a message on `held`'s pack. */
function messageOf(kind: Kind, id: string, setup: OperatorParties, at: number, held: Held | undefined): { readonly path: string; readonly body: unknown } {
  if (kind === 'issue') return { path: '/v1/cashpack/issue', body: lockRequest(setup, at, { request_id: id }) };
  const { pack, bearer } = held!;
  if (kind === 'renew') return { path: '/v1/cashpack/renew', body: { cash_pack: pack, renewal: renewal(pack, bearer, at, undefined, id) } };
  return { path: '/v1/cashpack/redeem', body: { cash_pack: pack, redemption: redemption(pack, bearer, setup.redeemer, at, id) } };
}

async function sendMessage(ctx: ScenarioContext, setup: OperatorParties, message: { readonly path: string; readonly body: unknown }, at: number): Promise<HttpResult> {
  if (message.path !== '/v1/cashpack/redeem') return send(ctx, 'operator', jsonRequest('POST', message.path, message.body));
  return send(ctx, 'operator', redeemRequest(ctx, JSON.stringify(message.body), setup.redeemer, Math.floor(at / 1000)));
}

const NAME_OF: Record<Kind, string> = { issue: 'Lock Request', renew: 'renewal', redeem: 'redemption' };
const ID_OF: Record<Kind, string> = { issue: 'request_id', renew: 'renewal_id', redeem: 'redemption_id' };

/** The status documents of `packIds` as the Principal reads them now, and its balance. */
async function stateOf(ctx: ScenarioContext, setup: OperatorParties, packIds: readonly string[], at: number): Promise<{ readonly statuses: readonly unknown[]; readonly balance: unknown }> {
  const statuses: unknown[] = [];
  for (const id of packIds) {
    const read = await send(ctx, 'operator', statusRequest(ctx, id, setup.principal, Math.floor(at / 1000)));
    if (read.status !== 200) throw StepError.setupFailed('CPP-STS-1', `setting up: the Principal's status read of its pack ${id} answered ${read.status}: ${read.text.slice(0, 200)}; its own scenarios judge the status endpoint`);
    statuses.push(read.body);
  }
  return { statuses, balance: await balanceOf(ctx, setup.principal) };
}

/**
 * Whether a message of `kind` is over the target's max_body_bytes (a small
 * limit, PROFILE.md §4.8, leaves no room for a renewal or a redemption
 * presenting even a fresh pack): the case is then left out, and the
 * property's result says so.
 */
function overLimit(ctx: ScenarioContext, policy: Policy, kind: Kind, message: { readonly body: unknown }): boolean {
  const bytes = Buffer.byteLength(JSON.stringify(message.body));
  if (bytes <= policy.max_body_bytes) return false;
  ctx.leftOut.add(`the cases that send a ${NAME_OF[kind]}, as a ${NAME_OF[kind]} presenting a fresh pack is over max_body_bytes (${policy.max_body_bytes})`);
  return true;
}

/** What a refusal or a grant of an id seen before is charged to: spec §7.1 names request_id and renewal_id reused in their own kind; the shared namespace and redemption_id are the profile's (§6). */
function replayRules(first: Kind, again: Kind): string[] {
  return first === again && again !== 'redeem' ? ['CPP-RPL-1', 'PRF-RPL-1'] : ['PRF-RPL-1'];
}

/** The rule of a message of `kind` taken as itself. */
const RULE_OF: Record<Kind, string> = { issue: 'CPP-ISS-1', renew: 'CPP-RNW-1', redeem: 'CPP-RED-1' };

async function judgeCase(ctx: ScenarioContext, policy: Policy, c: Case): Promise<PropertyFailure | undefined> {
  const setup = await operatorParties(ctx);
  const w = policy.request_window_seconds;
  // On from where the last case left the clock; or days to years from where it stood before the first case (not from the last case's era: eras do not add up).
  const t0 = c.eraDays === 0 ? Math.floor((await operatorNow(ctx)) / 1000) * 1000 + 1000 : Math.floor((await clockBefore(ctx, 'operator')) / 1000) * 1000 + c.eraDays * 86_400_000;
  const offset = offsetOf(c.move, w);
  // The ids recorded before: d seconds before t0, d from 2w - 1 down to 2w - offset (forgettable when the id is used again, offset into the window).
  for (const fraction of c.older) {
    const d = 2 * w - 1 - Math.floor(((Math.min(Math.max(offset, 1), 2 * w) - 1) * fraction) / 0xffff);
    await setClock(ctx, 'operator', t0 - d * 1000);
    await issuePack(ctx, setup, createSigningKey(), t0 - d * 1000, { amount: '1' });
  }
  await setClock(ctx, 'operator', t0);
  // The pack the id is first used for: issued with it, or renewed or redeemed with it.
  const id = newUuid();
  let firstPackId: string;
  if (c.first === 'issue') {
    firstPackId = (await issuePack(ctx, setup, createSigningKey(), t0, { request_id: id })).pack_id;
  } else {
    const bearer = createSigningKey();
    const pack = await issuePack(ctx, setup, bearer, t0, { amount: '1' });
    const message = messageOf(c.first, id, setup, t0, { pack, bearer });
    if (overLimit(ctx, policy, c.first, message)) return undefined;
    const answer = await sendMessage(ctx, setup, message, t0);
    if (answer.status !== 200) throw StepError.setupFailed(RULE_OF[c.first], `setting up: the Operator did not grant a ${NAME_OF[c.first]} of a pack it had just issued (HTTP ${answer.status}: ${answer.text.slice(0, 200)}); its own scenarios judge it`);
    firstPackId = pack.pack_id;
  }
  const at = t0 + offset * 1000;
  await setClock(ctx, 'operator', at);
  // The pack the new message presents, issued now with an id of its own.
  const second: Held | undefined = c.again === 'issue' ? undefined : await (async () => {
    const bearer = createSigningKey();
    return { pack: await issuePack(ctx, setup, bearer, at, { amount: '1' }), bearer };
  })();
  const packIds = [firstPackId, ...(second ? [second.pack.pack_id] : [])];
  const before = await stateOf(ctx, setup, packIds, at);
  const message = messageOf(c.again, id, setup, at, second);
  if (overLimit(ctx, policy, c.again, message)) return undefined;
  const answer = await sendMessage(ctx, setup, message, at);
  const seen = answerOf(answer);
  // Set back more than twice the window, the id was recorded "less than twice the window ago" by its sign and
  // more by its size: the profile does not say which (§6), and either answer stands.
  const mustRemember = offset < 2 * w && offset >= -2 * w;
  const story = `${c.eraDays === 0 ? '' : `the clock set ${Math.abs(c.eraDays)} day(s) ${c.eraDays < 0 ? 'back' : 'ahead'}, `}${c.older.length > 0 ? `${c.older.length} other id(s) recorded up to twice the window before, then ` : ''}${id} recorded as the ${ID_OF[c.first]} of a ${NAME_OF[c.first]}, the clock then moved ${offset} s${offset < 0 ? ' (set back)' : ''} under request_window_seconds ${w}, and a fresh ${NAME_OF[c.again]} sent with it as its ${ID_OF[c.again]}`;
  if (seen !== 'DUPLICATE_ID' && (mustRemember || seen !== 200)) {
    const expected = mustRemember ? { problem: 'DUPLICATE_ID' } : { one_of: [200, { problem: 'DUPLICATE_ID' }] };
    return { expected, actual: { status: answer.status, body: answer.body }, message: `${story}: ${mustRemember ? 'an id the Operator must still remember (recorded less than twice the window ago)' : 'an id the Operator may have forgotten'}`, requirements: mustRemember || seen === 200 ? replayRules(c.first, c.again) : [RULE_OF[c.again]] };
  }
  const after = await stateOf(ctx, setup, packIds, at);
  if (seen === 'DUPLICATE_ID') {
    // Refused: nothing changed (PROFILE.md §6).
    if (!isDeepStrictEqual(after, before)) return { expected: before, actual: after, message: `${story}: refused DUPLICATE_ID, the packs' status documents and the Principal's balance read again`, requirements: ['PRF-RPL-1'] };
    return setBack(ctx, setup, at, story);
  }
  // Taken as a message of its own: the pack the id was first used for is as it was, and a new pack's pack_id is its own.
  if (!isDeepStrictEqual(after.statuses[0], before.statuses[0])) return { expected: before.statuses[0], actual: after.statuses[0], message: `${story}: taken, the pack the id was first used for read again`, requirements: [RULE_OF[c.again]] };
  const newId = (answer.body as { pack_id?: unknown } | undefined)?.pack_id;
  if (c.again === 'issue' && packIds.includes(newId as string)) return { expected: `a pack_id no other pack has (not ${packIds.join(', ')})`, actual: newId, message: `${story}: taken, the pack it issued`, requirements: ['CPP-ISS-1'] };
  return setBack(ctx, setup, at, story);
}

/**
 * Every case's tail: a Lock Request recorded where the clock stands, the clock
 * then set back a second and the same request_id sent again, as a fresh Lock
 * Request of that instant: recorded a second "later" than now, less than twice
 * the window ago by any reading, so DUPLICATE_ID (PROFILE.md §6). A store that
 * starts afresh when the clock goes back forgets it.
 */
async function setBack(ctx: ScenarioContext, setup: OperatorParties, at: number, story: string): Promise<PropertyFailure | undefined> {
  const id = newUuid();
  await issuePack(ctx, setup, createSigningKey(), at, { request_id: id, amount: '1' });
  await setClock(ctx, 'operator', at - 1000);
  const answer = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lockRequest(setup, at - 1000, { request_id: id, amount: '1' })));
  if (answerOf(answer) === 'DUPLICATE_ID') return undefined;
  return { expected: { problem: 'DUPLICATE_ID' }, actual: { status: answer.status, body: answer.body }, message: `${story}; then ${id} recorded as the request_id of a Lock Request, the clock set back a second and a fresh Lock Request sent with it: recorded a second after the clock, less than twice the window ago`, requirements: replayRules('issue', 'issue') };
}

export const OPERATOR_REPLAY = define<Case>({
  id: 'PROP-OP-021',
  title: 'an id used again with the clock anywhere from twice the window back to long after: DUPLICATE_ID changing nothing while recorded less than twice the window before, and after that DUPLICATE_ID or a message of its own that leaves the first pack as it was',
  requirements: ['PRF-RPL-1', 'CPP-RPL-1', 'CPP-ISS-1', 'CPP-RNW-1', 'CPP-RED-1'],
  level: 'MUST',
  role: 'operator',
  sections: ['§7.1', 'PROFILE §6', 'PROFILE §12'],
  needs: ['provision', 'clock'],
  // It moves the Operator's clock: nothing else may run beside it.
  shares: 'clock',
  defaultRuns: 16,
  file: FILE,
  arbitrary: ({ policy }) => casesOf(policy?.max_chain_depth === 0 ? KINDS.filter((k) => k !== 'renew') : KINDS),
  vacuousUnder: ({ policy }) => (policy?.max_chain_depth === 0 ? ['CPP-RNW-1'] : []),
  check: async (ctx, c) => judgeCase(ctx, await policyOnItsClock(ctx), c),
  teardown: (ctx) => restoreClock(ctx, 'operator'),
});
