// PROP-OP-012: the Operator judges every time rule by its own clock, to the
// second, in any time zone (PROFILE.md §4.8, §5, §6): with its clock frozen
// at an instant inside daylight-saving time of a common zone (the harness's TZ
// set to it), a message dated at, and one or two seconds inside or outside,
// either end of the freshness window is fresh exactly when it is inside; a
// requested expiry at and around either end of the permitted range is granted
// exactly inside it; a pack's issued_at is the Operator's clock, never the
// message's, in whole seconds even when the clock stands at a fraction (the
// second it stands in, rounded down: a fraction either side of the half
// second among those drawn). With
// the clock at that fraction, HTTP Message Signatures (four status reads, a
// redemption) and a Lock Request are dated around the window where every
// reading of "within the window of the clock" agrees: the clock's second plus
// the window, or minus the window less one, is inside; a second further out
// either way is outside; the redemption's own created_at a second inside the
// window on the other side of the clock from a fresh signature, on the same
// side as a stale one (created is judged against the clock, not the message).
// (The clock's second minus the window is 1 s + the
// fraction from the clock: whether that is inside, PROFILE.md §6 leaves open,
// as it does a requested_expiry exactly expiry_min_seconds after the clock's
// second.) A Lock Request there asks for an expiry at, or a second either side
// of, an end of the permitted range from the clock's second, where both
// readings agree: granted exactly inside it. The instant is in this decade one
// case in three, otherwise past where an integer writing of time runs out
// (Unix seconds in 32 bits, signed or not; nanoseconds in 64) or in the year
// 9000: a clock may stand anywhere (PROFILE.md §12).
import fc from 'fast-check';
import { formatTimestamp, parseTimestamp } from '../../../profile/time.ts';
import { buildLockRequest, createSigningKey, type CashPack } from '../../../profile/cashpack/index.ts';
import { boundaryOffset, dstInstant, eraDstInstant, type ClassValue, type DstInstant } from '../../../generators/classes/index.ts';
import type { HttpResult, ScenarioContext } from '../../scenarios/context.ts';
import { jsonRequest, send } from '../../scenarios/http.ts';
import { define } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { inZone } from './app-time.ts';
import { restoreClock, setClock } from './clock.ts';
import { issuePack, lifetimeSeconds, operatorSetup, redeemRequest, redemption, renewal, renewedPack, statusRequest, type OperatorSetup } from './operator-setup.ts';

const FILE = 'harness/properties/field-classes/operator-time.ts';

/** Where a time sits: at an edge of its rule's range (or at the clock), plus a boundary offset. */
interface Dated {
  readonly edge: -1 | 0 | 1;
  readonly offset: ClassValue<number>;
}

interface OperatorTimeCase {
  readonly instant: DstInstant;
  readonly lockCreated: Dated;
  readonly expiry: Dated;
  readonly renewCreated: Dated;
  readonly redeemCreated: Dated;
  /** The clock at a fraction of a second, for the issued_at of a last pack. */
  readonly fraction: number;
  /** At that clock: the Lock Request's created_at and the redemption's HTTP Message Signature, at one of the places every reading agrees on. */
  readonly atFraction: { readonly lock: Unambiguous; readonly redeem: Unambiguous };
}

/** A requested expiry a whole number of seconds from the fractional clock's own second: an edge of the permitted range, a second either side. */
interface ExpiryAtFraction {
  readonly edge: 'min' | 'max';
  readonly seconds: -1 | 0 | 1;
}

/** Seconds from the fractional clock's own second, in windows and seconds, and whether every reading of the window takes it as fresh. */
interface Unambiguous {
  readonly windows: -1 | 1;
  readonly seconds: -1 | 0 | 1;
  readonly fresh: boolean;
}

/** The places around a window, at a clock standing at a fraction of its second, that no reading of PROFILE.md §2.4 and §6 judges otherwise. */
const UNAMBIGUOUS: readonly Unambiguous[] = [
  { windows: 1, seconds: 0, fresh: true },
  { windows: 1, seconds: 1, fresh: false },
  { windows: -1, seconds: 1, fresh: true },
  { windows: -1, seconds: -1, fresh: false },
];
const unambiguousNote = (u: Unambiguous, window: number): string => `${u.windows > 0 ? '+' : '-'}${window} s${u.seconds === 0 ? '' : ` ${u.seconds > 0 ? '+' : '-'} 1 s`} from the clock's second (${u.fresh ? 'fresh' : 'stale'} however the fraction is read)`;

const COVERS: Coverage[] = [
  ...['lock-request/created_at', 'lock-request/requested_expiry', 'renew-request/renewal/created_at', 'redeem-request/redemption/created_at'].flatMap((field) => [
    { field, class: 'timestamp.dst' as const },
    { field, class: 'timestamp.boundary' as const },
  ]),
  { field: 'control:clock/set', class: 'timestamp.dst' },
  { field: 'control:clock/set', class: 'timestamp.fraction' },
];

const dated = (edges: readonly (-1 | 0 | 1)[]): fc.Arbitrary<Dated> => fc.record({ edge: fc.constantFrom(...edges), offset: boundaryOffset({ tick: 's' }) });

const cases: fc.Arbitrary<OperatorTimeCase> = fc.record({
  // In this decade one case in three; otherwise past where an integer writing of time runs out (2038, 2106, 2262) or in the year 9000.
  instant: fc.oneof({ weight: 1, arbitrary: dstInstant() }, { weight: 2, arbitrary: eraDstInstant() }),
  lockCreated: dated([-1, 0, 1]),
  expiry: dated([-1, 1]),
  renewCreated: dated([-1, 0, 1]),
  redeemCreated: dated([-1, 0, 1]),
  // Either side of the half second too (where rounding to the nearest second and rounding down part).
  fraction: fc.oneof(fc.constantFrom(1, 499, 500, 999), fc.integer({ min: 1, max: 999 })),
  atFraction: fc.record({
    lock: fc.constantFrom(...UNAMBIGUOUS),
    redeem: fc.constantFrom(...UNAMBIGUOUS),
  }),
});

/** Every end of the permitted range and a second either side of it. */
const EXPIRIES_AT_FRACTION: readonly ExpiryAtFraction[] = (['min', 'max'] as const).flatMap((edge) => ([-1, 0, 1] as const).map((seconds) => ({ edge, seconds })));

/** The lifetime, in whole seconds from the clock's second, of a requested expiry `e`. */
const lifetimeAt = (e: ExpiryAtFraction, policy: OperatorSetup['policy']): number => (e.edge === 'min' ? policy.expiry_min_seconds : policy.expiry_max_seconds) + e.seconds;

/**
 * Whether an expiry `whole` seconds after the clock's second is granted at a clock `fractionMs` past that second: the lifetime
 * read from the clock and from its whole second (PROFILE.md §6 lets either stand) must agree, else undefined.
 */
function expiryGranted(whole: number, fractionMs: number, policy: OperatorSetup['policy']): boolean | undefined {
  const granted = inExpiryRange(whole, policy);
  return granted === inExpiryRange(whole - fractionMs / 1000, policy) ? granted : undefined;
}

/** Spec §8, PROFILE.md §5 step 8: a lifetime in seconds within the permitted range, both ends inclusive. */
const inExpiryRange = (lifetime: number, policy: OperatorSetup['policy']): boolean => lifetime >= policy.expiry_min_seconds && lifetime <= policy.expiry_max_seconds;

const stamp = (ms: number) => formatTimestamp(ms, 'cashpack');
const code = (answer: HttpResult): unknown => (answer.status === 200 ? 200 : (answer.body as { code?: unknown } | undefined)?.code ?? answer.status);

/** A created_at `d` places around the freshness window of the clock `now`, and whether it is fresh. */
function createdAt(d: Dated, now: number, windowSeconds: number): { ms: number; fresh: boolean; note: string } {
  const ms = now + d.edge * windowSeconds * 1000 + d.offset.value;
  return { ms, fresh: Math.abs(ms - now) <= windowSeconds * 1000, note: `created_at ${d.edge === 0 ? 'at the clock' : `at the ${d.edge < 0 ? 'early' : 'late'} edge of the window`}, ${d.offset.note}` };
}

function mismatch(expected: unknown, answer: HttpResult, message: string, requirements: string[]): PropertyFailure {
  return { expected, actual: { status: answer.status, code: code(answer), ...(answer.status === 200 ? { body: answer.body } : {}) }, message, requirements };
}

async function judgeCase(ctx: ScenarioContext, setup: OperatorSetup, c: OperatorTimeCase): Promise<PropertyFailure | undefined> {
  const { policy } = setup;
  const now = c.instant.value;
  const window = policy.request_window_seconds;
  const where = `the Operator's clock at ${new Date(now).toISOString()} (${c.instant.note})`;
  await setClock(ctx, 'operator', now);

  // The Lock Request: freshness (step 4) before the expiry range (step 8).
  const created = createdAt(c.lockCreated, now, window);
  const edge = c.expiry.edge < 0 ? policy.expiry_min_seconds : policy.expiry_max_seconds;
  const expiryMs = now + edge * 1000 + c.expiry.offset.value;
  const lifetime = (expiryMs - now) / 1000;
  const granted = inExpiryRange(lifetime, policy);
  const lock = buildLockRequest({ principal: setup.principal, amount: '1', asset: setup.asset as never, initialBearer: createSigningKey().jwk, requested_expiry: expiryMs, created_at: created.ms });
  const issued = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lock));
  const expected = !created.fresh ? 'STALE_REQUEST' : !granted ? 'EXPIRY_INVALID' : 200;
  const what = `${where}: a Lock Request with ${created.note}, requesting an expiry ${lifetime} s ahead (${c.expiry.edge < 0 ? 'minimum' : 'maximum'} ${edge} s, ${c.expiry.offset.note})`;
  if (code(issued) !== expected) return mismatch(expected, issued, what, expected === 'STALE_REQUEST' || !created.fresh ? ['PRF-FRESH-1', 'PRF-BOUND-1'] : ['CPP-EXP-1', 'PRF-BOUND-1']);
  if (expected === 200) {
    const pack = issued.body as CashPack;
    if (pack.issued_at !== stamp(now) || pack.expiry !== lock.requested_expiry) return mismatch({ issued_at: stamp(now), expiry: lock.requested_expiry }, issued, `${what}: the pack's times`, ['PRF-MSG-1']);
  }

  // A renewal, then a redemption, of a pack issued at the clock: each fresh exactly inside the window.
  const bearer = createSigningKey();
  let pack = await issuePack(ctx, setup, bearer, now);
  let current = bearer;
  const renewAt = createdAt(c.renewCreated, now, window);
  const next = createSigningKey();
  const renewed = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: pack, renewal: renewal(pack, bearer, renewAt.ms, next) }));
  if (policy.max_chain_depth > 0) {
    if (code(renewed) !== (renewAt.fresh ? 200 : 'STALE_REQUEST')) return mismatch(renewAt.fresh ? 200 : 'STALE_REQUEST', renewed, `${where}: a renewal with ${renewAt.note}`, ['PRF-FRESH-1', 'PRF-BOUND-1']);
    if (renewed.status === 200) [pack, current] = [renewedPack(renewed, next, `${where}: a renewal with ${renewAt.note}`, pack), next];
  }
  const redeemAt = createdAt(c.redeemCreated, now, window);
  let body = JSON.stringify({ cash_pack: pack, redemption: redemption(pack, current, setup.redeemer, redeemAt.ms) });
  // A pack renewed once that the target's body limit leaves no room to redeem (a small max_body_bytes): a fresh pack's redemption is timed instead, and the result says so.
  if (Buffer.byteLength(body) > policy.max_body_bytes) {
    ctx.leftOut.add(`the redemption of the pack just renewed, as it is over max_body_bytes (${policy.max_body_bytes}): a fresh pack is redeemed instead`);
    current = createSigningKey();
    pack = await issuePack(ctx, setup, current, now);
    body = JSON.stringify({ cash_pack: pack, redemption: redemption(pack, current, setup.redeemer, redeemAt.ms) });
  }
  const redeemed = await send(ctx, 'operator', redeemRequest(ctx, body, setup.redeemer, Math.floor(now / 1000)));
  if (code(redeemed) !== (redeemAt.fresh ? 200 : 'STALE_REQUEST')) return mismatch(redeemAt.fresh ? 200 : 'STALE_REQUEST', redeemed, `${where}: a redemption with ${redeemAt.note}`, ['PRF-FRESH-1', 'PRF-BOUND-1']);

  // The clock at a fraction of a second: issued_at is still whole seconds, and that second. The
  // whole-second expiry lies a whole number of seconds after `now`, so at least a second past
  // the minimum from the fractional clock; a policy of one lifetime leaves no such expiry.
  const at = now + c.fraction;
  const wholeLifetime = wholeSecondLifetime(policy);
  if (wholeLifetime - c.fraction / 1000 > policy.expiry_max_seconds) return undefined;
  await setClock(ctx, 'operator', at);
  const lastBearer = createSigningKey();
  const last = await issuePack(ctx, setup, lastBearer, now, { lifetime: wholeLifetime });
  const issuedAt = parseTimestamp(last.issued_at, 'cashpack');
  const atWhere = `the Operator's clock set to ${new Date(at).toISOString()} (${c.instant.zone})`;
  // Whole seconds, the clock rounded down (PROFILE.md §1, §6): the second the clock stands in, never the next, which has not come.
  const second = Math.floor(at / 1000) * 1000;
  if (issuedAt !== second) {
    return { expected: `issued_at ${stamp(second)}, the whole second of the clock at issue`, actual: last.issued_at, message: atWhere, requirements: ['PRF-MSG-1', 'PRF-TIME-1'] };
  }
  const dated = (u: Unambiguous): number => now / 1000 + u.windows * window + u.seconds;
  for (const u of UNAMBIGUOUS) {
    const read = await send(ctx, 'operator', statusRequest(ctx, last.pack_id, setup.principal, dated(u)));
    if (code(read) !== (u.fresh ? 200 : 'UNAUTHENTICATED')) return mismatch(u.fresh ? 200 : 'UNAUTHENTICATED', read, `${atWhere}: a status read by the issuing Principal, its HTTP Message Signature created ${unambiguousNote(u, window)}`, ['PRF-AUTH-1']);
  }
  const lockAt = c.atFraction.lock;
  const lateLock = buildLockRequest({ principal: setup.principal, amount: '1', asset: setup.asset as never, initialBearer: createSigningKey().jwk, requested_expiry: now + wholeLifetime * 1000, created_at: dated(lockAt) * 1000 });
  const issuedAtFraction = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lateLock));
  if (code(issuedAtFraction) !== (lockAt.fresh ? 200 : 'STALE_REQUEST')) return mismatch(lockAt.fresh ? 200 : 'STALE_REQUEST', issuedAtFraction, `${atWhere}: a Lock Request created ${unambiguousNote(lockAt, window)}`, ['PRF-FRESH-1', 'PRF-BOUND-1']);
  // Requested expiries at and a second either side of each end of the range, from the clock's second, where both readings agree.
  for (const expiryAt of EXPIRIES_AT_FRACTION) {
    const edgeLifetime = lifetimeAt(expiryAt, policy);
    const grantedAt = expiryGranted(edgeLifetime, c.fraction, policy);
    if (grantedAt === undefined) continue;
    const edgeLock = buildLockRequest({ principal: setup.principal, amount: '1', asset: setup.asset as never, initialBearer: createSigningKey().jwk, requested_expiry: now + edgeLifetime * 1000, created_at: now });
    const edgeIssued = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', edgeLock));
    const dueAt = grantedAt ? 200 : 'EXPIRY_INVALID';
    if (code(edgeIssued) !== dueAt) return mismatch(dueAt, edgeIssued, `${atWhere}: a Lock Request for an expiry ${edgeLifetime} s after the clock's second (the ${expiryAt.edge === 'min' ? 'minimum' : 'maximum'}${expiryAt.seconds === 0 ? '' : ` ${expiryAt.seconds > 0 ? '+' : '-'} 1 s`}; ${grantedAt ? 'inside' : 'outside'} the range however the fraction is read)`, ['CPP-EXP-1', 'PRF-BOUND-1']);
  }
  const identity = c.atFraction.redeem;
  // The Redemption Request dated apart from the signature, fresh, a second inside the window from the clock's second: on
  // the other side of the clock from a fresh signature, on the same side as a stale one. The two are then more than a
  // window apart where the signature is fresh and less than one where it is stale: `created` judged against created_at,
  // not the Operator's clock (PROFILE.md §2.4), decides the other way.
  const bodyAt = now + (identity.fresh ? -identity.windows : identity.windows) * Math.max(window - 1, 0) * 1000;
  const lastBody = JSON.stringify({ cash_pack: last, redemption: redemption(last, lastBearer, setup.redeemer, bodyAt) });
  const redeemedAtFraction = await send(ctx, 'operator', redeemRequest(ctx, lastBody, setup.redeemer, dated(identity)));
  const due = identity.fresh ? 200 : 'REDEEMER_NOT_IDENTIFIED';
  if (code(redeemedAtFraction) !== due) return mismatch(due, redeemedAtFraction, `${atWhere}: a redemption whose redeemer's HTTP Message Signature is created ${unambiguousNote(identity, window)}, the Redemption Request's created_at ${(bodyAt - now) / 1000} s from the clock's second`, ['PRF-IDN-1', 'CPP-IDN-1']);
  return undefined;
}

/** The lifetime of a pack issued at a fractional clock with a whole-second expiry: at least a second past the minimum. */
const wholeSecondLifetime = (policy: OperatorSetup['policy']): number => Math.max(lifetimeSeconds(policy), policy.expiry_min_seconds + 1);

export const OPERATOR_TIME = define<OperatorTimeCase>({
  id: 'PROP-OP-012',
  title: "every time rule is the Operator's clock's, to the second, in any time zone: freshness and the expiry range at and around either edge, inside daylight-saving time; issued_at whole seconds at a fractional clock",
  requirements: ['PRF-FRESH-1', 'CPP-EXP-1', 'PRF-BOUND-1', 'PRF-MSG-1', 'PRF-TIME-1', 'PRF-AUTH-1', 'PRF-IDN-1', 'CPP-IDN-1'],
  // A policy whose expiry range is one instant wide lets no pack be issued at a fractional clock: the part judged there has no case.
  vacuousUnder: ({ policy }) => (policy !== undefined && wholeSecondLifetime(policy) > policy.expiry_max_seconds ? ['PRF-TIME-1', 'PRF-AUTH-1', 'PRF-IDN-1', 'CPP-IDN-1'] : []),
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §1', 'PROFILE §4.8', 'PROFILE §5', 'PROFILE §6', '§8'],
  needs: ['provision', 'clock'],
  // It moves the clock through test control and sets the process's time zone (inZone): alone in the process, so that no in-process paying application beside it judges in that zone.
  shares: 'clock-and-time-zone',
  defaultRuns: 10,
  caseWeight: 2,
  file: FILE,
  covers: COVERS,
  arbitrary: () => cases,
  async check(ctx, c) {
    const setup = await operatorSetup(ctx);
    return inZone(c.instant.zone, () => judgeCase(ctx, setup, c));
  },
  teardown: (ctx) => restoreClock(ctx, 'operator'),
});
