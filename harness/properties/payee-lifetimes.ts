// PROP-PAYEE-013: a request and its retrieval token each live their own
// lifetime (spec §2.1, §5.1.1; PROFILE.md §10, §12). One to four pairs of
// requests are created with the payee's clock frozen at one instant (a
// fraction of a second into it). Each pair is judged at a moment drawn from
// the target's own instants: the end of the configured token lifetime, the
// token_expires_at the payee reported, the request's expires_at, and the ends
// of the times after expiry the payee must still know the token (a token
// lifetime) and the request (its validity), each a millisecond or a second
// before, at or after; within the whole second one falls in (the first pair of
// every case so for the token's lifetime, its token_expires_at or the
// request's expires_at: they end a fraction into a second, which a payee
// counting whole seconds ends early); anywhere between two of them; or long
// after all. The
// pairs are visited in the order of their moments, the clock only moving
// forward, so what the payee did at one moment (a sweep of expired entries,
// say) is there at the next; from one case to the next too, as a payee's clock
// in service runs: each case starts after the last moment of the one before and
// after the clock the property found (but one case in four, which starts at its
// own instant, the clock set back however far it went: the payee's one clock
// reads that instant, and its requests and tokens live from it, §12), so every
// request the payee keeps from before is older than the case's own (a payee that sweeps its requests in the
// order it made them, stopping at the first it must keep, then sweeps as it
// would in service, where one made earlier with the clock set later would hold
// back every sweep). At each, in either order, the first request's
// token is retrieved and the second request fulfilled: the token is served
// while those instants are all ahead, refused TOKEN_EXPIRED from the end of
// its lifetime on (or from the token_expires_at the payee reported, when it
// reported an earlier one) and, a lifetime after it expired, TOKEN_EXPIRED or
// TOKEN_UNKNOWN (§10 lets it be forgotten then); a third of the first
// requests' tokens were retrieved once already, at the instant they were made,
// and are refused TOKEN_CONSUMED (or TOKEN_EXPIRED once their lifetime is over
// too), known as either until a lifetime after they expired; another third were
// presented over the payee's plaintext listener then, and are known as long
// (refused either way, or served as unused ones while they were left valid,
// which §10 only advises against); a third of the second
// requests are read through their token when made, as a paying application
// reads a request before it pays it, and a third have their token presented
// over plaintext then (the token may go, the request stays); the request is fulfilled
// before its expires_at and refused REQUEST_EXPIRED from it on, or NOT_FOUND a
// validity period after it (§12), whatever became of its token; and its token,
// presented after the fulfilment, is known as long as any other (a fulfilment
// invalidates nothing, §10), and the request, fulfilled again after that,
// is refused REQUEST_CONSUMED (§12); an id the payee never issued (a fresh one, or the
// second request's with its last digit changed) is NOT_FOUND at every moment,
// and again when fulfilled a second time right after. Over the
// payee's plaintext listener the expired token is 403 TLS_REQUIRED (§10).
// Each case ends with a request made where its last pair left the clock,
// fulfilled with the clock set back a millisecond to a day before it was made:
// 200 (only expires_at bounds a fulfilment, §12).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { SUB_INTERFACES, type SubInterface } from '../../profile/cpr/fields.ts';
import { formatTimestamp, parseTimestamp } from '../../profile/time.ts';
import { StepError, type HttpResult, type ScenarioContext } from '../scenarios/context.ts';
import { jsonRequest, send } from '../scenarios/http.ts';
import { control, CONTROL_RULE } from '../scenarios/actions/index.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { clockBefore, restoreClock, setClock } from './field-classes/clock.ts';
import { payeeConfig } from './field-classes/payee-config.ts';
import { problemDefects } from './field-classes/problem.ts';
import { plaintextRefusals } from './field-classes/payee-tokens.ts';

const FILE = 'harness/properties/payee-lifetimes.ts';

/**
 * The instants a moment is drawn from: the end of the configured token lifetime,
 * the payee's token_expires_at, the request's expires_at, and the end of the
 * lifetime after expiry that PROFILE.md §10 has the payee still know the token,
 * and the validity period after expires_at that §12 has it know the request.
 */
const ANCHORS = ['lifetime', 'reported', 'expires_at', 'known_until', 'request_known_until'] as const;
type Anchor = (typeof ANCHORS)[number];

/**
 * Where the clock moves: an anchor shifted by some milliseconds, the whole second
 * an anchor falls in shifted so (its start, a millisecond either side, or any
 * millisecond of it: what a payee counting in whole seconds misjudges), a point
 * `at` (of 2^16) of the way between two anchors, or past them all.
 */
type Moment =
  | { readonly anchor: Anchor; readonly offsetMs: number }
  | { readonly secondOf: Anchor; readonly offsetMs: number }
  | { readonly between: readonly [Anchor, Anchor]; readonly at: number }
  | { readonly after: number };

type UsedEarly = false | 'tls' | 'plaintext';

/** One pair of requests, and the moment they are judged at. */
interface Visit {
  readonly subs: readonly [SubInterface, SubInterface];
  readonly moment: Moment;
  /** Retrieve the first request's token before fulfilling the second, or after. */
  readonly tokenFirst: boolean;
  /**
   * The first request's token also presented once at the instant it was made:
   * retrieved over TLS (at the moment it is a used token), or over the payee's
   * plaintext listener (refused there, and invalidated or not: PROFILE.md §10).
   */
  readonly usedEarly: UsedEarly;
  /**
   * The second request's token also presented at the instant it was made: retrieved over TLS, as a paying
   * application reads a request before it is paid, or over the payee's plaintext listener (refused there,
   * PROFILE.md §10): the request is fulfilled all the same.
   */
  readonly readBeforePaid: UsedEarly;
}

interface Case {
  /**
   * The instant every request is created at: whole seconds, then `fraction`
   * milliseconds; a case drawn before where the clock already went starts at
   * the next whole second after it instead.
   */
  readonly seconds: number;
  readonly fraction: number;
  /** The case starts at its own instant even where the clock already went later: the payee's clock set back. */
  readonly back: boolean;
  /** Judged in the order of their moments, the clock only moving forward. */
  readonly visits: readonly Visit[];
  /** How far before its creation the clock is set back for the case's last request's fulfilment (ms). */
  readonly setBackMs: number;
}

/** Within the whole second `anchors` fall in: its start, a millisecond either side of it, or any millisecond of it. */
const secondOf = (anchors: readonly Anchor[]): fc.Arbitrary<Moment> => fc.record({ secondOf: fc.constantFrom(...anchors), offsetMs: fc.oneof(fc.constantFrom(-1, 0, 1), fc.integer({ min: 0, max: 999 })) });

// Exact boundaries (a millisecond either side, or at) are drawn more often than a second either side.
const moment: fc.Arbitrary<Moment> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ anchor: fc.constantFrom(...ANCHORS), offsetMs: fc.constantFrom(-1000, -1, -1, 0, 0, 0, 1, 1, 1000) }) },
  { weight: 2, arbitrary: secondOf(ANCHORS) },
  { weight: 3, arbitrary: fc.record({ between: fc.tuple(fc.constantFrom(...ANCHORS), fc.constantFrom(...ANCHORS)).filter(([a, b]) => a !== b), at: fc.integer({ min: 1, max: 0xffff }) }) },
  { weight: 1, arbitrary: fc.record({ after: fc.integer({ min: 1, max: 86_400_000 }) }) },
);

const visit = (when: fc.Arbitrary<Moment>, usedEarly: fc.Arbitrary<UsedEarly>): fc.Arbitrary<Visit> =>
  fc.record({ subs: fc.tuple(fc.constantFrom(...SUB_INTERFACES), fc.constantFrom(...SUB_INTERFACES)), moment: when, tokenFirst: fc.boolean(), usedEarly, readBeforePaid: fc.constantFrom<UsedEarly>(false, 'tls', 'plaintext') });

const cases: fc.Arbitrary<Case> = fc.record({
  // 2001-09-09 to 2100-01-01: the clock is frozen there and put back afterwards.
  seconds: fc.integer({ min: 1_000_000_000, max: 4_102_444_800 }),
  fraction: fc.integer({ min: 0, max: 999 }),
  // One case in four starts where it was drawn, however far the clock went: set back, the payee's one clock reads
  // that instant (PROFILE.md §12), and its requests and tokens live their lifetimes from it.
  back: fc.constantFrom(true, false, false, false),
  // The first visit of every case judges an unused token, or its request, within the whole second its token's
  // lifetime, its token_expires_at or its expires_at ends in: the requests are made a fraction into a second, so
  // that second's start is before the end (a payee counting whole seconds ends them there).
  visits: fc
    .tuple(visit(secondOf(['lifetime', 'reported', 'expires_at']), fc.constant<UsedEarly>(false)), fc.array(visit(moment, fc.constantFrom<UsedEarly>(false, 'tls', 'plaintext')), { maxLength: 3 }))
    .map(([first, others]) => [first, ...others]),
  // A millisecond, a second, or anything up to a day before the last request's creation.
  setBackMs: fc.oneof(fc.constantFrom(1, 1000), fc.integer({ min: 1, max: 86_400_000 })),
});

function momentAt(m: Moment, anchors: Readonly<Record<Anchor, number>>): number {
  if ('anchor' in m) return anchors[m.anchor] + m.offsetMs;
  if ('secondOf' in m) return Math.floor(anchors[m.secondOf] / 1000) * 1000 + m.offsetMs;
  if ('between' in m) {
    const [a, b] = [anchors[m.between[0]], anchors[m.between[1]]];
    return a + Math.floor(((b - a) * m.at) / 0x10000);
  }
  return Math.max(...Object.values(anchors)) + m.after;
}

function describeMoment(m: Moment): string {
  if ('anchor' in m) return m.offsetMs === 0 ? `at ${m.anchor}` : `${Math.abs(m.offsetMs)} ms ${m.offsetMs < 0 ? 'before' : 'after'} ${m.anchor}`;
  if ('secondOf' in m) return m.offsetMs === 0 ? `at the start of the whole second ${m.secondOf} falls in` : `${Math.abs(m.offsetMs)} ms ${m.offsetMs < 0 ? 'before' : 'after'} the start of the whole second ${m.secondOf} falls in`;
  if ('between' in m) return `${m.at}/65536 of the way from ${m.between[0]} to ${m.between[1]}`;
  return `${m.after} ms after the last of them`;
}

/** The last moment a case of this run set the clock to: the next case starts after it. */
const floors = new WeakMap<ScenarioContext, number>();

interface Created {
  readonly requestId: string;
  readonly token: string;
  /** expires_at of the CPR, and token_expires_at, as the payee wrote them. */
  readonly written: { readonly expires_at: unknown; readonly token_expires_at: unknown };
  readonly expiresAt: number | undefined;
  readonly reported: number | undefined;
}

async function create(ctx: ScenarioContext, sub: SubInterface): Promise<Created> {
  const body = (await control(ctx, 'payee', 'POST', '/_control/payee/requests', { sub_interface: sub })) as { request_id?: unknown; token?: unknown; cpr?: { expires_at?: unknown }; token_expires_at?: unknown };
  if (typeof body.request_id !== 'string' || typeof body.token !== 'string') throw StepError.setupFailed(CONTROL_RULE, `test control POST /_control/payee/requests answered without a request_id and a token: ${JSON.stringify(body).slice(0, 200)}`);
  const written = { expires_at: body.cpr?.expires_at, token_expires_at: body.token_expires_at };
  return { requestId: body.request_id, token: body.token, written, expiresAt: parseTimestamp(written.expires_at), reported: parseTimestamp(written.token_expires_at) };
}

/** A refusal with `code` as PROFILE.md §10 and §12 write it, or what was wrong with the answer. */
function refusedWith(answer: HttpResult, code: string): unknown {
  if (answer.status === 200) return { status: 200 };
  const defects = problemDefects(answer, code);
  return defects.length === 0 ? undefined : { status: answer.status, defects };
}

/**
 * Where the token's life ends: the end of its configured lifetime, or the
 * token_expires_at the payee reported when that is earlier (PROP-PAYEE-012
 * allows it a second short): a token expires at the instant the payee says
 * it does (TOK-EXP-003), so a payee that reports one instant and keeps
 * serving the token past it, to the end of the lifetime, is seen.
 */
function tokenEnd(anchors: Readonly<Record<Anchor, number>>): number {
  return Math.min(anchors.lifetime, anchors.reported);
}

/** The instants of a pair's first request that moments are placed on. */
function anchorsOf(at: number, lifetime: number, validity: number, made: Created): Record<Anchor, number> {
  const end = at + lifetime * 1000;
  return { lifetime: end, reported: made.reported!, expires_at: made.expiresAt!, known_until: Math.min(end, made.reported!) + lifetime * 1000, request_known_until: made.expiresAt! + validity * 1000 };
}

interface VisitAt {
  readonly lifetime: number;
  readonly validity: number;
  readonly at: number;
  readonly now: number;
  readonly story: string;
  readonly tokenFirst: boolean;
  readonly usedEarly: UsedEarly;
  /** How the second request's token was presented when it was made, if it was. */
  readonly readBeforePaid: UsedEarly;
  readonly retrieved: Created;
  readonly fulfilled: Created;
}

/**
 * What became of a token before its moment, where that decides what it may answer.
 * `tls`: retrieved over TLS at the instant it was made. `plaintext`: presented over
 * plaintext then. `paid`: unused, its request fulfilled since.
 */
type Before = 'tls' | 'plaintext' | 'paid';

const BEFORE: Readonly<Record<Before, string>> = {
  tls: 'the token retrieved at the instant it was made, presented again',
  plaintext: 'the token presented over plaintext at the instant it was made, presented again',
  paid: 'the token of a request fulfilled since (or refused as expired), never retrieved before, presented after the fulfilment',
};

/**
 * A token presented over TLS at `now`, after what `before` says became of it.
 * Retrieved over TLS: never served again (TOK-ONCE-1); refused
 * TOKEN_CONSUMED, or TOKEN_EXPIRED once its lifetime is over too (PROFILE.md §10
 * does not order the two). Presented over plaintext: the token SHOULD have
 * been invalidated (TOK-TLS-002 judges that), and §10 names no code for a token
 * invalidated so, so it is refused TOKEN_CONSUMED or TOKEN_EXPIRED, or, still
 * valid, served as an unused one is until its lifetime ends. Unused, its
 * request fulfilled: §10 makes a fulfilment invalidate nothing, and says
 * nothing of a token the payee stops serving once it is paid, so the same.
 * Either way it is known until a lifetime after it expired, TOKEN_UNKNOWN
 * allowed from then on only (a payee that counts that time from the
 * presentation, or forgets a paid request's token, forgets it early).
 */
function usedTokenDefect(token: HttpResult, now: number, anchors: Readonly<Record<Anchor, number>>, story: string, before: Before): PropertyFailure | undefined {
  const via = before === 'tls' ? 'tls' : 'plaintext';
  const when = `${story}: ${BEFORE[before]}`;
  if (token.status === 200 && (via === 'tls' || now >= tokenEnd(anchors))) {
    return via === 'tls'
      ? { expected: { problem: 'TOKEN_CONSUMED' }, actual: { status: 200 }, message: `${when}, served again`, requirements: ['TOK-ONCE-1'] }
      : { expected: { problem: ['TOKEN_CONSUMED', 'TOKEN_EXPIRED'] }, actual: { status: 200 }, message: `${when}, served ${now - tokenEnd(anchors)} ms after it expired (its lifetime, or the token_expires_at the payee reported, whichever came first)`, requirements: ['TOK-EXP-1'] };
  }
  if (token.status === 200) return undefined;
  const codes = ['TOKEN_CONSUMED', ...(via === 'plaintext' || now >= tokenEnd(anchors) ? ['TOKEN_EXPIRED'] : []), ...(now >= anchors.known_until ? ['TOKEN_UNKNOWN'] : [])];
  if (codes.some((code) => refusedWith(token, code) === undefined)) return undefined;
  return { expected: { problem: codes }, actual: refusedWith(token, codes[0]!), message: `${when} ${now - anchors.known_until < 0 ? `${anchors.known_until - now} ms before` : `${now - anchors.known_until} ms after`} the end of the time it must be known (a token lifetime after it expired)`, requirements: ['PRF-TOK-1'] };
}

/**
 * The token, unused until its moment: refused from the end of its configured
 * lifetime on, or from the earlier token_expires_at the payee reported (a
 * lifetime after it expired, possibly as a token the payee forgot), and over
 * plaintext as every token is there; served while that end,
 * the payee's own token_expires_at and the request's expires_at are all ahead
 * (between them, either answer is the payee's choice).
 */
async function unusedTokenDefect(ctx: ScenarioContext, v: VisitAt, token: HttpResult, anchors: Readonly<Record<Anchor, number>>): Promise<PropertyFailure | undefined> {
  const { lifetime, now, story } = v;
  if (now >= tokenEnd(anchors)) {
    if (token.status === 200) {
      const ended = anchors.reported < anchors.lifetime ? `after the token_expires_at the payee reported (${anchors.lifetime - anchors.reported} ms before its ${lifetime} s lifetime ends)` : `after its ${lifetime} s lifetime ended`;
      return { expected: { problem: 'TOKEN_EXPIRED' }, actual: { status: 200 }, message: `${story}: the token served ${now - tokenEnd(anchors)} ms ${ended}`, requirements: ['TOK-EXP-1'] };
    }
    const forgettable = now >= anchors.known_until;
    const wrong = refusedWith(token, 'TOKEN_EXPIRED');
    if (wrong !== undefined && !(forgettable && refusedWith(token, 'TOKEN_UNKNOWN') === undefined)) {
      return { expected: { problem: forgettable ? ['TOKEN_EXPIRED', 'TOKEN_UNKNOWN'] : 'TOKEN_EXPIRED' }, actual: wrong, message: `${story}: the expired token's refusal`, requirements: ['PRF-TOK-1'] };
    }
    return plaintextRefusals(ctx, [[v.retrieved.token, `${story}: the expired token`]]);
  }
  if (now < Math.min(anchors.lifetime, anchors.reported, anchors.expires_at) && token.status !== 200) {
    return { expected: 200, actual: { status: token.status, body: token.body }, message: `${story}: the token refused before its lifetime, its token_expires_at and its request's expires_at`, requirements: ['TOK-GET-1'] };
  }
  return undefined;
}

/** How a token is presented early where the payee can take it so: over plaintext only where it listens on plaintext. */
const reachable = (ctx: ScenarioContext, how: UsedEarly): UsedEarly => (how === 'plaintext' && ctx.http('payee').plaintextBaseUrl === undefined ? false : how);

/**
 * A token presented at the instant its request was made: over TLS it is served (its rule is TOK-GET-1); over
 * plaintext it is refused 403 TLS_REQUIRED (the token may go, PROFILE.md §10; its request stays, §12).
 */
async function presentedEarly(ctx: ScenarioContext, token: string, how: UsedEarly, at: number): Promise<PropertyFailure | undefined> {
  const when = `a token ${how === 'tls' ? 'retrieved' : 'presented'} at the instant its request was made, ${formatTimestamp(at, 'cpr')}`;
  if (how === 'plaintext') return plaintextRefusals(ctx, [[token, when]]);
  if (how === false) return undefined;
  const first = await send(ctx, 'payee', { method: 'GET', path: `/cpr/${token}` });
  return first.status === 200 ? undefined : { expected: 200, actual: { status: first.status, body: first.body }, message: when, requirements: ['TOK-GET-1'] };
}

/** One pair at its moment: the first request's token retrieved, the second request fulfilled, in the order drawn. */
async function judgeVisit(ctx: ScenarioContext, v: VisitAt): Promise<PropertyFailure | undefined> {
  const { lifetime, validity, now, story } = v;
  const anchors = anchorsOf(v.at, lifetime, validity, v.retrieved);
  const retrieve = () => send(ctx, 'payee', { method: 'GET', path: `/cpr/${v.retrieved.token}` });
  const fulfil = () => send(ctx, 'payee', jsonRequest('POST', `/_control/payee/requests/${encodeURIComponent(v.fulfilled.requestId)}/fulfil`, {}));
  const got = v.tokenFirst ? await retrieve() : undefined;
  const done = await fulfil();
  const token = got ?? (await retrieve());
  const tokenDefect = v.usedEarly ? usedTokenDefect(token, now, anchors, story, v.usedEarly) : await unusedTokenDefect(ctx, v, token, anchors);
  if (tokenDefect) return tokenDefect;
  // The other request's token, after the fulfilment (or its refusal): a fulfilment forgets no token (PROFILE.md §10).
  // Beside it, an id the payee never issued, at the same moment: the second request's with its last hex digit changed,
  // or a fresh one. Unknown: 404 NOT_FOUND (PROFILE.md §12), never a known request's refusal.
  const neverIssued = v.tokenFirst ? `${v.fulfilled.requestId.slice(0, -1)}${v.fulfilled.requestId.endsWith('0') ? '1' : '0'}` : randomUUID();
  const fulfilUnknown = () => send(ctx, 'payee', jsonRequest('POST', `/_control/payee/requests/${neverIssued}/fulfil`, {}));
  const [paidToken, unknown] = await Promise.all([
    send(ctx, 'payee', { method: 'GET', path: `/cpr/${v.fulfilled.token}` }),
    fulfilUnknown(),
  ]);
  const paidDefect = usedTokenDefect(paidToken, now, anchorsOf(v.at, lifetime, validity, v.fulfilled), `${story}; the second request's token`, v.readBeforePaid === false ? 'paid' : v.readBeforePaid);
  if (paidDefect) return paidDefect;
  const notFound = refusedWith(unknown, 'NOT_FOUND');
  const unknownWhat = `${neverIssued}, an id the payee never issued (${v.tokenFirst ? "the second request's with its last digit changed" : 'a fresh one'})`;
  if (notFound !== undefined) return { expected: { status: 404, problem: 'NOT_FOUND' }, actual: notFound, message: `${story}: fulfilling ${unknownWhat}`, requirements: ['PRF-CTL-1'] };
  const notFoundAgain = refusedWith(await fulfilUnknown(), 'NOT_FOUND');
  if (notFoundAgain !== undefined) return { expected: { status: 404, problem: 'NOT_FOUND' }, actual: notFoundAgain, message: `${story}: fulfilling ${unknownWhat} a second time, right after it was refused NOT_FOUND`, requirements: ['PRF-CTL-1'] };
  // The other request: fulfilled before its own expires_at, refused REQUEST_EXPIRED at or after it (or, a validity
  // period after it, forgotten).
  const expiresAt = v.fulfilled.expiresAt!;
  if (now < expiresAt) {
    // Refused as consumed, never fulfilled before: the first fulfilment is 200 (PROFILE.md §12), and a request is consumed by its fulfilment alone (a read of it, say, consumes nothing).
    const consumed = refusedWith(done, 'REQUEST_CONSUMED') === undefined;
    if (done.status !== 200) return { expected: 200, actual: { status: done.status, body: done.body }, message: `${story}: fulfilling the second request ${expiresAt - now} ms before its expires_at${consumed ? ', its first fulfilment' : ''}`, requirements: consumed ? ['PRF-CTL-1', 'DRV-SINGLE-1'] : ['PRF-CTL-1'] };
    // Fulfilled, it stays consumed whatever was done with its token since (presented above, and served where it was unused).
    const again = refusedWith(await fulfil(), 'REQUEST_CONSUMED');
    if (again !== undefined) return { expected: { status: 409, problem: 'REQUEST_CONSUMED' }, actual: again, message: `${story}: fulfilling the second request a second time, after its token was presented`, requirements: ['PRF-CTL-1', 'DRV-SINGLE-1'] };
    return undefined;
  }
  const forgettable = now >= expiresAt + validity * 1000;
  const wrong = refusedWith(done, 'REQUEST_EXPIRED');
  if (wrong !== undefined && !(forgettable && refusedWith(done, 'NOT_FOUND') === undefined)) {
    return { expected: { problem: forgettable ? ['REQUEST_EXPIRED', 'NOT_FOUND'] : 'REQUEST_EXPIRED' }, actual: wrong, message: `${story}: fulfilling the second request ${now - expiresAt} ms after its expires_at`, requirements: ['PRF-CTL-1'] };
  }
  return undefined;
}

export const PAYEE_LIFETIMES = define<Case>({
  id: 'PROP-PAYEE-013',
  title: 'a request and its retrieval token each live their own lifetime: the token refused TOKEN_EXPIRED from its end on, the request fulfilled until its expires_at, at moments drawn from the payee\'s own instants',
  requirements: ['TOK-EXP-1', 'TOK-GET-1', 'TOK-ONCE-1', 'PRF-TOK-1', 'PRF-CTL-1', 'CPR-TIME-1', 'DRV-SINGLE-1'],
  level: 'MUST',
  role: 'payee',
  sections: ['§2.1', '§5.1.1', 'PROFILE §10', 'PROFILE §12'],
  needs: ['provision', 'clock', 'fulfil'],
  // It moves the payee's clock through test control.
  shares: 'clock',
  defaultRuns: 10,
  file: FILE,
  arbitrary: () => cases,
  async check(ctx, c): Promise<PropertyFailure | undefined> {
    const { tokenLifetimeSeconds: lifetime, validitySeconds: validity } = await payeeConfig(ctx);
    const floor = floors.get(ctx) ?? (await clockBefore(ctx, 'payee'));
    const at = (c.back ? c.seconds : Math.max(c.seconds, Math.floor(floor / 1000) + 1)) * 1000 + c.fraction;
    await setClock(ctx, 'payee', at);
    const pairs: { readonly visit: Visit; readonly retrieved: Created; readonly fulfilled: Created; readonly now: number }[] = [];
    // The pairs whose first token goes over plaintext are made first: a payee that sweeps its tokens in
    // the order it made them, stopping at the first it must keep, reaches a token only once every token
    // made before it may go, so one it stops knowing early is seen only when it is the oldest.
    for (const visit of [...c.visits].sort((a, b) => Number(a.usedEarly !== 'plaintext') - Number(b.usedEarly !== 'plaintext'))) {
      const retrieved = await create(ctx, visit.subs[0]);
      const fulfilled = await create(ctx, visit.subs[1]);
      for (const made of [retrieved, fulfilled]) {
        // Without both instants no moment can be placed: an unreadable one is the CPR's rule, or test control's.
        if (made.expiresAt === undefined || made.reported === undefined) {
          return { expected: 'expires_at and token_expires_at as PROFILE.md §1 timestamps', actual: made.written, message: `a request created with the clock frozen at ${formatTimestamp(at, 'cpr')}`, requirements: made.expiresAt === undefined ? ['CPR-TIME-1'] : ['PRF-CTL-1'] };
        }
      }
      // Over plaintext only where the payee listens on it.
      const usedEarly = reachable(ctx, visit.usedEarly);
      const readBeforePaid = reachable(ctx, visit.readBeforePaid);
      // The first request's token used at once, at the instant it was made (a used token at its moment); the second's read
      // before it is paid, as a paying application reads it (its request still fulfilled until its expires_at).
      const early = (await presentedEarly(ctx, retrieved.token, usedEarly, at)) ?? (await presentedEarly(ctx, fulfilled.token, readBeforePaid, at));
      if (early) return early;
      pairs.push({ visit: { ...visit, usedEarly, readBeforePaid }, retrieved, fulfilled, now: Math.max(at, momentAt(visit.moment, anchorsOf(at, lifetime, validity, retrieved))) });
    }
    pairs.sort((a, b) => a.now - b.now);
    // A case set back leaves the next one to start after every moment before it all the same.
    floors.set(ctx, Math.max(floor, pairs.at(-1)!.now));
    const created = `${pairs.length * 2} requests created with the clock frozen at ${formatTimestamp(at, 'cpr')}${at < floor ? ` (set back from ${formatTimestamp(floor, 'cpr')})` : ''} (token lifetime ${lifetime} s, validity ${validity} s)`;
    for (const [i, { visit, retrieved, fulfilled, now }] of pairs.entries()) {
      await setClock(ctx, 'payee', now);
      const story = `${created}; pair ${i + 1} of ${pairs.length} (the first wrote ${JSON.stringify(retrieved.written)}, the second ${JSON.stringify(fulfilled.written)}${visit.usedEarly === 'tls' ? "; the first's token retrieved once when made" : visit.usedEarly === 'plaintext' ? "; the first's token presented over plaintext when made" : ''}${visit.readBeforePaid === 'tls' ? "; the second's token retrieved when made, before it is fulfilled" : visit.readBeforePaid === 'plaintext' ? "; the second's token presented over plaintext when made, before it is fulfilled" : ''}) with the clock set ${describeMoment(visit.moment)}, to ${formatTimestamp(now, 'cpr')}, ${visit.tokenFirst ? 'the token retrieved first' : 'the request fulfilled first'}`;
      const failure = await judgeVisit(ctx, { lifetime, validity, at, now, story, tokenFirst: visit.tokenFirst, usedEarly: visit.usedEarly, readBeforePaid: visit.readBeforePaid, retrieved, fulfilled });
      if (failure) return failure;
    }
    // A request made where the last pair left the clock, fulfilled with the clock set back before its creation:
    // only its expires_at bounds a fulfilment (PROFILE.md §12), no creation instant.
    const last = pairs.at(-1)!.now;
    const made = await create(ctx, c.visits[0]!.subs[1]);
    await setClock(ctx, 'payee', last - c.setBackMs);
    const paid = await send(ctx, 'payee', jsonRequest('POST', `/_control/payee/requests/${encodeURIComponent(made.requestId)}/fulfil`, {}));
    if (paid.status === 200) return undefined;
    return { expected: 200, actual: { status: paid.status, body: paid.body }, message: `${created}; then a request made at ${formatTimestamp(last, 'cpr')} and fulfilled with the clock set back ${c.setBackMs} ms before its creation (PROFILE.md §12: only expires_at bounds a fulfilment)`, requirements: ['PRF-CTL-1'] };
  },
  teardown: (ctx) => restoreClock(ctx, 'payee'),
});
