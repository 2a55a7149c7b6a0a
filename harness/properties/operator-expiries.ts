// PROP-OP-017: each pack's funds come back at its own expiry instant (PROFILE.md
// §5.1), whatever the order its Principal's packs were issued in and expire in.
// A fresh Principal issues two to six packs at one instant, a whole second or,
// two times in three, a generated fraction past it (its first and last
// millisecond and the half among them) while every requested_expiry stays on
// a whole second, so that no lifetime is a whole number of seconds: the pack
// runs to the instant it asked for, not to its lifetime rounded (some renewed once or
// twice then, which changes neither expiry nor funds), of generated amounts
// (up to a million units, or beyond 2^53 where max_amount allows) and lifetimes
// (half within the policy's first hour, the others anywhere up to
// expiry_max_seconds or in the last quarter of its range;
// their expiry order any permutation of their issue order, ties too), one of
// them cancelled at once two times in three (one time in three before a
// provisioning in the other asset; where the Operator offers
// cancel: its funds held from then on, its expiry changing nothing); the
// clock then moves,
// with nothing read on the way, to a second before, at or a second after one
// of their expiry instants, or a fraction of a second either side of it (its
// ends and the half second, where a clock rounded to the nearest second turns,
// among them), or
// beyond them all; and the first request after
// the move is a balance read (then those two Lock Requests: held funds are
// not available), a Lock Request one unit over what must be
// available and one of exactly that (reads change nothing, §12: an expiry
// applied only when a pack is read is no expiry), or the Principal provisioned
// again, with a generated balance (past 2^53 too) and, where the policy lists
// two assets, sometimes the other asset (§12 "Provisioning again": the funds of
// the packs that expired are back first and replaced with the new balance,
// held funds stay; the asset changes only while nothing is locked or held;
// refused in the other asset for what was locked with a pack cancelled, the
// Principal is refused it again once only the held funds are left), and the
// packs still running come back at their expiries after it. A Principal that
// took its other asset with nothing held then locks a unit there and cancels
// that pack: it is refused its first asset back while the unit is held.
// What the Principal holds is predicted from the instants alone. Each case
// ends with every pack read where the clock stands, then the clock set back
// to the issue instant: a pack that ended stays as it ended, and no funds
// move (PROFILE.md §5.1: terminal states).
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { createSigningKey, type CashPack, type SigningKey } from '../../profile/cashpack/index.ts';
import { StepError, type HttpResult, type ScenarioContext } from '../scenarios/context.ts';
import { jsonRequest, send } from '../scenarios/http.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { restoreClock, setClock } from './field-classes/clock.ts';
import { policyOf, type Policy } from '../scenarios/actions/index.ts';
import { answerOf, balanceOf, lifetimeSeconds, lockRequest, MOST_PER_PACK, operatorNow, provisionPrincipal, renewal, statusRequest } from './field-classes/operator-setup.ts';

const FILE = 'harness/properties/operator-expiries.ts';

interface PackPlan {
  /** Where its lifetime falls in the part of the policy's range `reach` names, a fraction of 2^16. */
  readonly lifetimeAt: number;
  /**
   * That part: its first hour, all of it, or its last quarter (down from
   * expiry_max_seconds: days, past the 2^31 ms a timer of 32 bits holds, under
   * the default 30 days).
   */
  readonly reach: 'hour' | 'any' | 'top';
  /** Its amount: of a million units at most, or beyond 2^53 (where max_amount allows), `amountAt` / 2^16 of the way up. */
  readonly large: boolean;
  readonly amountAt: number;
  /**
   * How far back its Lock Request's created_at is dated, a fraction of 2^16 of
   * the freshness window (none one time in three): the expiry is the
   * requested_expiry, wherever in the window the request was made (PROFILE.md
   * §4.3), never its lifetime counted from receipt.
   */
  readonly datedAt: number | null;
  /**
   * How many times it is renewed right after the issues, at the same instant
   * (up to max_chain_depth): a renewal changes neither its expiry nor its
   * funds (PROFILE.md §5), so a renewed pack's come back at its expiry too.
   */
  readonly renewals: number;
}

/** What a Principal holds: available, locked by ACTIVE packs, held by cancelled ones. */
interface Funds {
  readonly available: bigint;
  readonly locked: bigint;
  readonly held: bigint;
}

/**
 * Where the clock moves after the issues: to the `nth` expiry instant in time
 * order, shifted by `offsetMs` (a second before or after, or a fraction of a
 * second either side, before it two times in three: a clock read to the
 * second, rounded, calls a pack expired up to half a second early), or to
 * where a pack kept for its lifetime `rounded` to whole seconds from the issue
 * instant would end (down: a second less the issue's fraction before the
 * expiry; up: a millisecond short of the issue's fraction after it), or past
 * them all.
 */
type Move = { readonly nth: number; readonly offsetMs: number } | { readonly nth: number; readonly rounded: 'down' | 'up' } | { readonly beyond: true };

interface Case {
  readonly packs: readonly PackPlan[];
  readonly move: Move;
  /** The first request after the move. */
  readonly probe: 'balance' | 'lock' | 'provision';
  /** With `provision`: the balance provisioned again, and whether in the policy's other asset (where it lists two). */
  readonly again: { readonly balance: bigint; readonly otherAsset: boolean };
  /** Funds the Principal keeps beyond what its packs lock. */
  readonly spare: number;
  /** Which pack (modulo their count) is cancelled right after the issues, if any: its funds held from then on, whatever its expiry (PROFILE.md §5.1). */
  readonly cancelled: number | null;
  /** Milliseconds past a whole second at which the packs are issued, their requested expiries on whole seconds (0: none). */
  readonly issuedPastMs: number;
}

const drawn = fc.record({
  packs: fc.array(fc.record({ lifetimeAt: fc.integer({ min: 0, max: 0xffff }), reach: fc.constantFrom('hour' as const, 'hour' as const, 'hour' as const, 'any' as const, 'top' as const, 'top' as const), large: fc.boolean(), amountAt: fc.integer({ min: 0, max: 0xffff }), datedAt: fc.option(fc.integer({ min: 0, max: 0xffff }), { nil: null, freq: 3 }), renewals: fc.constantFrom(0, 0, 1, 2) }), { minLength: 2, maxLength: 6 }),
  move: fc.oneof(
    { weight: 6, arbitrary: fc.record({ nth: fc.nat({ max: 5 }), offsetMs: fc.oneof({ weight: 2, arbitrary: fc.constantFrom(-1000, 0, 1000) }, { weight: 4, arbitrary: fc.tuple(fc.constantFrom(-1, -1, 1), fc.oneof({ weight: 2, arbitrary: fc.constantFrom(1, 250, 499, 500, 501, 999) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 999 }) })).map(([sign, ms]) => sign * ms) }) }) },
    { weight: 2, arbitrary: fc.record({ nth: fc.nat({ max: 5 }), rounded: fc.constantFrom('down' as const, 'up' as const) }) },
    { weight: 1, arbitrary: fc.constant({ beyond: true as const }) },
  ),
  probe: fc.constantFrom('balance' as const, 'lock' as const, 'provision' as const, 'provision' as const),
  again: fc.record({
    // None, a small one, one either side of 2^53, or far beyond it: a balance kept as a double loses the last digits.
    balance: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 1_000_000n }), fc.bigInt({ min: 2n ** 53n - 1n, max: 2n ** 53n + 3n }), { weight: 2, arbitrary: fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n }) }),
    // Two times in three: refused while anything is locked or held, taken when nothing is.
    otherAsset: fc.constantFrom(true, true, false),
  }),
  spare: fc.integer({ min: 0, max: 1000 }),
  cancelled: fc.option(fc.nat({ max: 5 }), { nil: null, freq: 3 }),
  issuedPastMs: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.constantFrom(1, 500, 999) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 999 }) }),
  // A provisioning in the other asset can change it only where no pack is cancelled (held funds stay, §12): it keeps its cancelled pack one time in two.
  keepCancelled: fc.boolean(),
});

const cases: fc.Arbitrary<Case> = drawn.map(({ keepCancelled, ...c }) => (c.probe === 'provision' && c.again.otherAsset && !keepCancelled ? { ...c, cancelled: null } : c));

/** The most a small pack holds: the target's max_amount, at most a million units. */
const SMALL = 1_000_000n;
const BEYOND_2_53 = 2n ** 53n + 1n;

/** A pack's amount: small, or beyond 2^53 up to max_amount (at most MOST_PER_PACK: the Principal's balance is their sum). */
function amountOf(p: PackPlan, maxAmount: bigint): bigint {
  const [low, high] = p.large && maxAmount >= BEYOND_2_53 ? [BEYOND_2_53, maxAmount < MOST_PER_PACK ? maxAmount : MOST_PER_PACK] : [1n, maxAmount < SMALL ? maxAmount : SMALL];
  return low + ((high - low) * BigInt(p.amountAt)) / 0xffffn;
}

async function judgeCase(ctx: ScenarioContext, policy: Policy, c: Case): Promise<PropertyFailure | undefined> {
  // The clock is frozen throughout: every lifetime the policy permits, from its first whole second (half within
  // its first hour, where the expiries of a case fall close together; the others anywhere, or in its last quarter).
  const min = Math.max(policy.expiry_min_seconds, 1);
  const whole = Math.max(0, policy.expiry_max_seconds - min);
  const lifetimeOf = (p: PackPlan): number => {
    if (p.reach === 'top') return policy.expiry_max_seconds - Math.floor((Math.floor(whole / 4) * p.lifetimeAt) / 0xffff);
    return min + Math.floor(((p.reach === 'any' ? whole : Math.min(whole, 3600)) * p.lifetimeAt) / 0xffff);
  };
  // Dated back up to a second short of the window: at the window itself, a clock at a fraction lets either answer conform (PROFILE.md §6).
  const datedBackOf = (p: PackPlan) => (p.datedAt === null ? 0 : Math.floor((p.datedAt / 0x10000) * policy.request_window_seconds));
  // Issued past a whole second, each pack asks for a whole second at least expiry_min_seconds on (a policy of one lifetime only has none).
  const past = policy.expiry_max_seconds > min ? c.issuedPastMs : 0;
  const packs = c.packs.map((p) => ({ lifetime: Math.min(lifetimeOf(p) + (past > 0 && lifetimeOf(p) === min ? 1 : 0), policy.expiry_max_seconds), amount: amountOf(p, BigInt(policy.max_amount)), datedBack: datedBackOf(p), renewals: Math.min(p.renewals, policy.max_chain_depth) }));
  const locked = packs.reduce((sum, p) => sum + p.amount, 0n);
  const balance = locked + BigInt(c.spare);

  const principal: SigningKey = createSigningKey();
  await provisionPrincipal(ctx, principal, balance.toString(), policy);
  // Every pack issued at one instant, in the case's order: a whole second, or `past` ms after it; each expiry a whole second, `lifetime` after that second.
  const second = Math.floor((await operatorNow(ctx)) / 1000) * 1000 + 1000;
  const issuedAt = second + past;
  const expiryOf = (p: { lifetime: number }) => second + p.lifetime * 1000;
  await setClock(ctx, 'operator', issuedAt);
  let funded = balance;
  const packIds: string[] = [];
  const issued: { pack: CashPack; bearer: SigningKey }[] = [];
  for (const [i, p] of packs.entries()) {
    const bearer = createSigningKey();
    const answer = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lockRequest({ principal, policy }, issuedAt, { amount: p.amount.toString(), expiresAt: expiryOf(p), datedBack: p.datedBack, bearer: bearer.jwk })));
    const packId = issuedPackId(answer, `pack ${i + 1} of ${packs.length}, of ${p.amount}, from ${funded} available (a balance of ${balance})`, `pack ${i + 1} of ${packs.length}`);
    if (typeof packId !== 'string') return packId;
    funded -= p.amount;
    packIds.push(packId);
    issued.push({ pack: answer.body as CashPack, bearer });
  }
  // Some renewed at the same instant, once or twice: their expiry and funds stay as issued.
  for (const [i, p] of packs.entries()) {
    let { pack, bearer } = issued[i]!;
    for (let k = 0; k < p.renewals; k++) {
      const next = createSigningKey();
      const answer = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: pack, renewal: renewal(pack, bearer, issuedAt, next) }));
      if (answer.status !== 200) throw StepError.setupFailed('CPP-RNW-1', `setting up: the Operator did not renew pack ${i + 1} of ${packs.length} at its issue instant (renewal ${k + 1}, HTTP ${answer.status}: ${answer.text.slice(0, 200)}); its own scenarios judge renewal`);
      [pack, bearer] = [answer.body as CashPack, next];
    }
  }
  // One pack cancelled at the same instant: CANCELLED, its amount held from then on, its expiry changing nothing (PROFILE.md §5.1).
  const cancelled = c.cancelled !== null && ctx.target.capabilities('operator').has('cancel') ? c.cancelled % packs.length : undefined;
  if (cancelled !== undefined) {
    const answer = await send(ctx, 'operator', jsonRequest('POST', `/_control/operator/packs/${encodeURIComponent(packIds[cancelled]!)}/cancel`, {}));
    if (answer.status !== 200) return { expected: 200, actual: { status: answer.status, body: answer.body }, message: `pack ${cancelled + 1} of ${packs.length}, ACTIVE, cancelled through test control`, requirements: cancelRules(answer) };
  }
  const held = cancelled === undefined ? 0n : packs[cancelled]!.amount;

  const expiries = packs.map(expiryOf).sort((a, b) => a - b);
  const nthExpiry = (nth: number) => expiries[nth % expiries.length]!;
  const to = 'beyond' in c.move ? expiries.at(-1)! + 1000 : 'rounded' in c.move ? nthExpiry(c.move.nth) + (c.move.rounded === 'down' ? past - 1000 : past - 1) : nthExpiry(c.move.nth) + c.move.offsetMs;
  const now = Math.max(to, issuedAt);
  await setClock(ctx, 'operator', now);
  // PROFILE.md §5.1: a pack whose expiry is at or before the clock is EXPIRED, its amount available again.
  const running = packs.filter((p, i) => i !== cancelled && expiryOf(p) > now);
  const stillLocked = running.reduce((sum, p) => sum + p.amount, 0n);
  const available = balance - stillLocked - held;
  const story = `${packs.length} packs issued at one instant${past > 0 ? `, ${past} ms past a whole second, each asking for a whole second` : ''} (lifetimes ${packs.map((p) => `${p.lifetime} s${past > 0 ? ` from that second` : ''}${p.datedBack > 0 ? `, its Lock Request dated ${p.datedBack} s before` : ''}${p.renewals > 0 ? `, renewed ${p.renewals === 1 ? 'once' : `${p.renewals} times`} then` : ''}`).join('; ')}; amounts ${packs.map((p) => p.amount).join(', ')}) from a balance of ${balance}${cancelled === undefined ? '' : `, pack ${cancelled + 1} cancelled then (${held} held)`}, the clock then ${now - issuedAt} ms on with nothing read between: ${packs.length - running.length - (cancelled === undefined ? 0 : 1)} expired, ${running.length} running`;

  /**
   * One unit over what is available is refused; all of it is granted (within max_amount: else the balance alone
   * is judged). `after` says what came before: nothing (the move), or a balance read, after which a refusal
   * of what is available, or a grant beyond it, is the balance rule's alone (held funds counted as available, say).
   */
  const lockProbe = async (after: string, charged: string[]): Promise<PropertyFailure | undefined> => {
    // Between whole seconds, the least lifetime after the clock's second is the edge PROFILE.md §6 lets either way: a second
    // more where the policy allows it; where it allows one lifetime only, no Lock Request is judged there, the balance alone.
    const onEdge = now % 1000 !== 0 && lifetimeSeconds(policy) === policy.expiry_min_seconds;
    if (onEdge && policy.expiry_max_seconds === policy.expiry_min_seconds) return balanceDefect(ctx, principal, { available, locked: stillLocked, held }, `${story}${after}`);
    const lifetime = onEdge ? { lifetime: policy.expiry_min_seconds + 1 } : {};
    const lock = (amount: bigint) => send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lockRequest({ principal, policy }, now, { amount: amount.toString(), ...lifetime })));
    for (const [amount, expected] of [[available + 1n, 'INSUFFICIENT_BALANCE'], [available, 200]] as const) {
      if (amount < 1n || amount > BigInt(policy.max_amount)) continue;
      const answer = await lock(amount);
      const seen = answerOf(answer);
      const asked = `${story}${after}; then a Lock Request for ${amount}`;
      if (seen === 'INSUFFICIENT_BALANCE' && expected === 200) return refusedAll(ctx, principal, { available, locked: stillLocked, held }, asked, () => lock(amount));
      // Granted beyond what is available: the balance rule's, or an expiry come early.
      if (seen !== expected) return { expected, actual: { status: answer.status, body: answer.body }, message: asked, requirements: charged };
      if (expected === 200) return balanceDefect(ctx, principal, { available: 0n, locked: stillLocked + amount, held }, `${story}${after}; then ${amount} locked, all that was available`);
    }
    // Nothing to grant (none available, or more than max_amount): the balance alone.
    return balanceDefect(ctx, principal, { available, locked: stillLocked, held }, `${story}${after}`);
  };
  const probed = async (): Promise<PropertyFailure | undefined> => {
    if (c.probe === 'lock') return lockProbe('', ['CPP-BAL-1', 'CPP-EXP-2']);
    if (c.probe === 'provision') {
      const first = await provisionedAgain(ctx, policy, principal, { available, locked: stillLocked, held }, c.again, story);
      const took = `${story}; then provisioned again with ${c.again.balance} in its other asset`;
      if (first !== undefined || stillLocked === 0n) return first ?? (assetTaken(policy, c.again, held) ? heldKeepsAsset(ctx, policy, principal, now, c.again.balance, took) : undefined);
      // Its packs stay through the provisioning (§12), so the funds of those still running come back at their
      // expiries after it: the clock past every one of them. With a pack cancelled, once only its funds are
      // held, the other asset is refused still ("while nothing is locked or held", §12); with none, the other
      // asset is taken now, nothing read since the move: the funds of the packs that expired are back first.
      await setClock(ctx, 'operator', expiries.at(-1)! + 1000);
      const then = `${story}; then provisioned again with ${c.again.balance}${c.again.otherAsset && policy.assets.length > 1 ? ' (refused in its other asset first)' : ''}, and the clock moved past every expiry (${stillLocked} back${held > 0n ? `, ${held} still held` : ''}) with nothing read between`;
      const after = { available: c.again.balance + stillLocked, locked: 0n, held };
      if (!(c.again.otherAsset && policy.assets.length > 1)) return balanceDefect(ctx, principal, after, then);
      const second = await provisionedAgain(ctx, policy, principal, after, c.again, then);
      return second ?? (held === 0n ? heldKeepsAsset(ctx, policy, principal, expiries.at(-1)! + 1000, c.again.balance, `${then}; then provisioned again with ${c.again.balance} in its other asset`) : undefined);
    }
    // The balance read first, then the same two Lock Requests: what is held (a cancelled pack's) is no more available than what is locked.
    return (await balanceDefect(ctx, principal, { available, locked: stillLocked, held }, story)) ?? lockProbe('; then the balance read', ['CPP-BAL-1']);

  };
  return (await probed()) ?? terminalAfterSetBack(ctx, principal, packIds, issuedAt, story);
}

/**
 * Once the case is judged, each pack's status is read where the clock now
 * stands (every expiry up to it applied), then the clock is set back to the
 * packs' issue instant and each is read again: an EXPIRED, CANCELLED or
 * REDEEMED pack stays so (PROFILE.md §5.1: terminal, no request changes it
 * again; a clock set back is no exception), and the Principal's balance is
 * what it was before the clock went back (no funds locked again).
 */
async function terminalAfterSetBack(ctx: ScenarioContext, principal: SigningKey, packIds: readonly string[], issuedAt: number, story: string): Promise<PropertyFailure | undefined> {
  const statuses = async (at: number) => {
    const read: unknown[] = [];
    for (const id of packIds) read.push(((await send(ctx, 'operator', statusRequest(ctx, id, principal, Math.floor(at / 1000)))).body as { status?: unknown } | undefined)?.status ?? null);
    return read;
  };
  const before = await operatorNow(ctx);
  const ended = await statuses(before);
  const funds = ctx.target.capabilities('operator').has('balance') ? await balanceOf(ctx, principal) : {};
  await setClock(ctx, 'operator', issuedAt);
  const after = await statuses(issuedAt);
  const changed = packIds.findIndex((_, i) => ended[i] !== 'ACTIVE' && after[i] !== ended[i]);
  const what = `${story}; then, every pack read at ${before - issuedAt} ms after the issues, the clock set back to the issue instant`;
  if (changed >= 0) return { expected: { status: ended[changed] }, actual: { status: after[changed] }, message: `${what}: pack ${changed + 1} of ${packIds.length}, ${String(ended[changed])}, read again (PROFILE.md §5.1: a terminal state never changes)`, requirements: ['CPP-ACT-1'] };
  if (!ctx.target.capabilities('operator').has('balance')) return undefined;
  const again = await balanceOf(ctx, principal);
  const moved = (['available', 'locked', 'held'] as const).some((k) => again[k] !== funds[k]);
  return moved ? { expected: funds, actual: again, message: `${what}: the Principal's balance (no pack that ended locks its funds again)`, requirements: ['CPP-ACT-1'] } : undefined;
}

/**
 * The Principal provisioned again as the first request after the move (PROFILE.md
 * §12 "Provisioning again"): its available balance becomes the new one, the
 * funds of the packs that expired back first and replaced with it; what is
 * still locked stays; another asset is refused 400 MALFORMED_REQUEST while
 * anything is locked, and taken when nothing is. A provisioning answered
 * otherwise, or a balance other than that after it, is test control's rule; a
 * locked amount other than the running packs', the expiry's.
 */
async function provisionedAgain(ctx: ScenarioContext, policy: Policy, principal: SigningKey, before: Funds, again: Case['again'], story: string, holds: 0 | 1 = 0): Promise<PropertyFailure | undefined> {
  // The Principal holds the policy's asset `holds` (its first, or its other once taken) and is provisioned in the other one where `otherAsset`.
  const other = again.otherAsset && policy.assets.length > 1;
  const own = policy.assets[holds];
  const asset = policy.assets[other ? 1 - holds : holds];
  const refused = other && before.locked + before.held > 0n;
  const asked = `${story}; then the Principal provisioned again with ${again.balance}${other ? ` in its other asset ${JSON.stringify(asset)}` : ''}`;
  const answer = await send(ctx, 'operator', jsonRequest('POST', '/_control/operator/principals', { public_key: principal.jwk, asset, balance: String(again.balance) }));
  const status = answer.status !== null && answer.status >= 200 && answer.status < 300 ? '2xx' : answerOf(answer);
  const expected = refused ? 'MALFORMED_REQUEST' : '2xx';
  if (status !== expected) {
    // Refused an asset change with nothing locked or held by the story: where the Operator still holds funds locked, the expiry that should have freed them is what failed.
    // Taken while the story has funds locked: where the Operator shows fewer locked after it (packs stay through a provisioning, §12), a pack expired early.
    const seen = (!refused && status === 'MALFORMED_REQUEST') || (refused && status === '2xx') ? await balanceOf(ctx, principal) : undefined;
    const expiryMissed = seen !== undefined && (refused ? seen.locked !== before.locked.toString() : seen.locked !== before.locked.toString() || seen.held !== before.held.toString());
    return { expected: refused ? { status: 400, problem: 'MALFORMED_REQUEST' } : 'a 2xx answer', actual: { status: answer.status, body: answer.body, ...(expiryMissed ? { balance: seen } : {}) }, message: `${asked}${refused ? `, while ${before.locked} is locked and ${before.held} held` : ', with nothing locked or held, or the asset kept'}${expiryMissed ? ` (the Principal's balance then shows ${seen.locked} locked and ${seen.held} held)` : ''}`, requirements: expiryMissed ? ['CPP-EXP-2'] : ['PRF-CTL-1'] };
  }
  const read = await balanceOf(ctx, principal);
  const want = { available: (refused ? before.available : again.balance).toString(), locked: before.locked.toString(), held: before.held.toString() };
  if (read.locked !== want.locked) return { expected: want, actual: read, message: `${asked}: the Principal's balance`, requirements: ['CPP-EXP-2'] };
  // Held funds stay through a provisioning (PROFILE.md §12), as they stay through an expiry (§5.1).
  if (read.held !== want.held) return { expected: want, actual: read, message: `${asked}: the Principal's balance`, requirements: ['PRF-CTL-1'] };
  if (read.available !== want.available || !isDeepStrictEqual(read.asset, refused ? own : asset)) {
    return { expected: { ...want, asset: refused ? own : asset }, actual: read, message: `${asked}${refused ? ', refused' : ''}: the Principal's balance`, requirements: ['PRF-CTL-1'] };
  }
  // Taken, with the status PROFILE.md §12 gives every provisioning, a key provisioned again among them.
  if (!refused && answer.status !== 201) return { expected: 201, actual: { status: answer.status }, message: `${asked}: taken, answered ${answer.status} where PROFILE.md §12 gives 201 (provisioning again is a provisioning)`, requirements: ['PRF-CTL-1'] };
  // Refused, it is provisioned again in its own asset: granted, what is locked and held staying.
  return refused ? provisionedAgain(ctx, policy, principal, before, { ...again, otherAsset: false }, `${asked}, refused`, holds) : undefined;
}

/** Whether a provisioning in `again` moved the Principal to the policy's other asset: asked, and nothing locked or held then. */
function assetTaken(policy: Policy, again: Case['again'], held: bigint): boolean {
  return again.otherAsset && policy.assets.length > 1 && held === 0n;
}

/**
 * What a refused cancellation of a pack issued at the clock's instant, before
 * its expiry, is charged to: INSTRUMENT_NOT_ACTIVE says the pack already
 * ended, an expiry come early (PROFILE.md §5.1); anything else is test
 * control's refusal (§12).
 */
function cancelRules(answer: HttpResult): string[] {
  return answerOf(answer) === 'INSTRUMENT_NOT_ACTIVE' ? ['CPP-EXP-2'] : ['PRF-CTL-1'];
}

/**
 * The pack_id of a pack issued to the Principal. Refused for want of funds it
 * has (`asked` says what it had), the balance rule's fault: a failure of
 * CPP-BAL-1; any other refusal is an issue the property could not set up.
 */
function issuedPackId(answer: HttpResult, asked: string, what: string): string | PropertyFailure {
  if (answerOf(answer) === 'INSUFFICIENT_BALANCE') return { expected: 200, actual: { status: answer.status, body: answer.body }, message: asked, requirements: ['CPP-BAL-1'] };
  if (answer.status !== 200) throw StepError.setupFailed('CPP-ISS-1', `setting up: the Operator did not issue ${what} (HTTP ${answer.status}: ${answer.text.slice(0, 200)}); its own scenarios judge issue`);
  return (answer.body as { pack_id: string }).pack_id;
}

/**
 * The Principal, now in the policy's other asset with nothing locked or held
 * and `available` to spend, locks one unit there and the pack is cancelled at
 * once (where the Operator offers cancel): the unit is held, nothing locked,
 * and the Principal is refused its first asset back (PROFILE.md §12: the
 * asset changes only while nothing is locked or held), then provisioned in
 * its own asset again, the unit still held.
 */
async function heldKeepsAsset(ctx: ScenarioContext, policy: Policy, principal: SigningKey, at: number, available: bigint, story: string): Promise<PropertyFailure | undefined> {
  if (available < 1n || !ctx.target.capabilities('operator').has('cancel')) return undefined;
  const answer = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lockRequest({ principal, policy }, at, { amount: '1', asset: policy.assets[1] })));
  const asked = `${story}; then a Lock Request for 1 in that asset`;
  const packId = issuedPackId(answer, `${asked}, from ${available} available`, "a pack of 1 in the Principal's new asset");
  if (typeof packId !== 'string') return packId;
  const cancel = await send(ctx, 'operator', jsonRequest('POST', `/_control/operator/packs/${encodeURIComponent(packId)}/cancel`, {}));
  if (cancel.status !== 200) return { expected: 200, actual: { status: cancel.status, body: cancel.body }, message: `${asked}: that pack, ACTIVE, cancelled through test control`, requirements: cancelRules(cancel) };
  return provisionedAgain(ctx, policy, principal, { available: available - 1n, locked: 0n, held: 1n }, { balance: available, otherAsset: true }, `${asked}, and that pack cancelled (1 held)`, 1);
}

/**
 * All that must be available, asked for and refused INSUFFICIENT_BALANCE: funds
 * due back that are not (the expiry's rule), or a balance rule that refuses the
 * whole balance (CPP-BAL-1). The balance is read, then the same amount asked
 * for again: short on the read, the expiry's; granted once read, the expiry was
 * applied only by the read (reads change nothing, PROFILE.md §12); refused
 * again with the balance reading it available, the balance rule's.
 */
async function refusedAll(ctx: ScenarioContext, principal: SigningKey, expected: Funds, asked: string, again: () => Promise<HttpResult>): Promise<PropertyFailure> {
  const short = await balanceDefect(ctx, principal, expected, `${asked}, refused INSUFFICIENT_BALANCE`);
  if (short) return short;
  const retried = await again();
  return answerOf(retried) === 200
    ? { expected: 200, actual: 'INSUFFICIENT_BALANCE, then granted once the balance was read', message: `${asked}: refused for want of funds until a balance read brought them back`, requirements: ['CPP-EXP-2'] }
    : { expected: 200, actual: { status: retried.status, body: retried.body }, message: `${asked}: refused INSUFFICIENT_BALANCE, and again once the balance read ${expected.available} available`, requirements: ['CPP-BAL-1'] };
}

async function balanceDefect(ctx: ScenarioContext, principal: SigningKey, expected: Funds, story: string): Promise<PropertyFailure | undefined> {
  const read = await balanceOf(ctx, principal);
  const want = { available: expected.available.toString(), locked: expected.locked.toString(), held: expected.held.toString() };
  if (read.available === want.available && read.locked === want.locked && read.held === want.held) return undefined;
  // Held funds released at the cancelled pack's expiry: cancellation is terminal, its funds held pending instruction (§1.2, PROFILE.md §5.1).
  if (read.held !== want.held) return { expected: want, actual: read, message: `${story}: the Principal's balance`, requirements: ['CPP-CAN-1'] };
  // Less available than predicted: funds that were due back are not (the expiry's rule); more: an amount not locked, or an expiry come early.
  const short = typeof read.available === 'string' && /^\d+$/.test(read.available) && BigInt(read.available) < expected.available;
  return { expected: want, actual: read, message: `${story}: the Principal's balance`, requirements: short ? ['CPP-EXP-2'] : ['CPP-EXP-2', 'CPP-FND-1'] };
}

export const OPERATOR_EXPIRIES = define<Case>({
  id: 'PROP-OP-017',
  title: "each pack's funds come back at its own expiry instant, whatever order its Principal's packs were issued and expire in, with nothing read between the clock's move and the next request, a Lock Request or the Principal provisioned again",
  requirements: ['CPP-EXP-2', 'CPP-FND-1', 'CPP-BAL-1', 'PRF-CTL-1', 'CPP-CAN-1', 'CPP-ACT-1'],
  level: 'MUST',
  role: 'operator',
  sections: ['§3.2', 'PROFILE §5.1', 'PROFILE §12'],
  needs: ['provision', 'clock'],
  // It moves the Operator's clock: nothing else may run beside it.
  shares: 'clock',
  defaultRuns: 10,
  file: FILE,
  arbitrary: () => cases,
  async check(ctx, c) {
    return judgeCase(ctx, await policyOf(ctx), c);
  },
  teardown: (ctx) => restoreClock(ctx, 'operator'),
});
