// PROP-OP-015: a status response's updated_at is the Operator's clock at the
// pack's last state change (PROFILE.md §4.7): its issue, each renewal, its
// redemption or cancellation, and for EXPIRED the expiry instant, however late
// the Operator notices it (§5.1). Reads and refused requests leave it as it
// was. Each case is a generated sequence on one pack under the Operator's
// frozen clock: clock moves of any size (one to three of the target's request
// windows, a second either side, among them) and to either side of the expiry
// instant, renewals granted and refused (by a key that is not the bearer, past
// max_chain_depth, of a pack that has ended), renewals in a row up to the
// policy's max_chain_depth and one past it (at most 16 a step, every third
// handed back to a key that held the pack before, and never one whose body
// max_body_bytes would refuse), redemptions (none whose body it would refuse), cancellations, each step followed or
// not by a read; then a last move and, two cases in three, a redemption or a
// cancellation (whatever became of the pack before), and one read at the end;
// each step's messages are dated anywhere in the freshness window, behind or
// ahead of the clock (PROFILE.md §6): updated_at is the clock's all the same;
// every read is judged whole against
// what the sequence predicts: status and updated_at, and the pack's id,
// amount, asset, expiry, chain_depth and chain_digest (§4.7) at whatever depth
// and in whatever status the pack is. The pack's amount is one of its classes,
// from the target's own max_amount: one unit, half of it, all of it, 2^53 + 1
// when the maximum allows it, and one drawn anywhere up to it (or anywhere above
// 2^53); it is issued at any second of the minute, and its expiry must be the
// one asked for (CPP-ISS-1). Every key a message names is written with its
// JWK's members in a generated order: the same key, whatever order it was
// registered in (PROFILE.md §2.1). Each read is made by a reader drawn among
// everyone around the pack: its issuing Principal or an Operator (staff) key,
// both judged whole; the redeemer the sequence's redemptions name (before and
// after it redeems) or another Principal, 403 FORBIDDEN; a key that held the
// pack, registered nowhere, 401 UNAUTHENTICATED (PROFILE.md §5 status); each
// refused read is followed by the Principal's, and at the end each of them
// reads, in a generated order.
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { formatTimestamp } from '../../profile/time.ts';
import { createSigningKey, type CashPack, type SigningKey } from '../../profile/cashpack/index.ts';
import { validateMessage } from '../../profile/cashpack/schemas.ts';
import { StepError, type HttpResult, type ScenarioContext } from '../scenarios/context.ts';
import { jsonRequest, send } from '../scenarios/http.ts';
import { buildCancel } from '../fuzz/messages.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { restoreClock, setClock } from './field-classes/clock.ts';
import { answerOf, inMemberOrder, issuePack, JWK_MEMBERS, lifetimeSeconds, MOST_PER_PACK, operatorNow, operatorSetup, redeemRequest, redemption, renewal, renewedPack, statusRequest, type OperatorSetup } from './field-classes/operator-setup.ts';

const FILE = 'harness/properties/operator-updated-at.ts';

/** What a step does to the pack after the clock moves. */
type Action =
  | 'none'
  | 'renew'
  /** A renewal signed by a key that is not the current bearer: refused whatever the pack's state. */
  | 'renew-foreign'
  /** Renewals by the bearer up to max_chain_depth and one past it: at most MOST_IN_A_ROW, none whose body max_body_bytes would refuse. */
  | 'renew-to-limit'
  | 'redeem'
  | 'cancel';

/**
 * How far the clock moves first (never backwards): seconds on, one to three of
 * the target's request windows on (a second either side: messages and entries
 * made before then are out of the window), or to the pack's expiry instant
 * plus an offset.
 */
type Move = { readonly by: number } | { readonly windows: 1 | 2 | 3; readonly plus: -1 | 0 | 1 } | { readonly toExpiry: number };

/** Who reads the pack's status (PROFILE.md §5 status: the issuing Principal and staff only). */
type Reader = 'principal' | 'staff' | 'redeemer' | 'other-principal' | 'holder';

interface Step {
  readonly move: Move;
  readonly action: Action;
  /** A status read after the action. */
  readonly read: boolean;
  /** Who makes it. */
  readonly reader: Reader;
  /**
   * Where in the freshness window the action's messages are dated: created_at
   * this share (-1 to 1) of request_window_seconds less one second from the
   * clock, before or after (PROFILE.md §6), while updated_at is the clock's.
   */
  readonly skew: number;
  /**
   * Whom a renewal hands the pack to: a fresh key (0), the bearer itself, or
   * a key that held it before (PROFILE.md §5 renew: no step refuses a
   * new_bearer_pk for having been one; the spec's disposable keys are the
   * holder's practice, not a rule the Operator enforces).
   */
  readonly handTo: 'fresh' | 'self' | 'earlier';
}

const move: fc.Arbitrary<Move> = fc.oneof(
  { arbitrary: fc.constant({ by: 0 }), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 5 }).map((by) => ({ by })), weight: 2 },
  { arbitrary: fc.integer({ min: 6, max: 900 }).map((by) => ({ by })), weight: 2 },
  { arbitrary: fc.record({ windows: fc.constantFrom<1 | 2 | 3>(1, 2, 3), plus: fc.constantFrom<-1 | 0 | 1>(-1, 0, 1) }), weight: 2 },
  { arbitrary: fc.constantFrom(-1, 0, 1, 2, 60).map((toExpiry) => ({ toExpiry })), weight: 1 },
);

/** A fresh key two renewals in three; else the bearer itself, or a key that held the pack before. */
const handTo = fc.constantFrom<Step['handTo']>('fresh', 'fresh', 'fresh', 'fresh', 'self', 'earlier');

const skew: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.constant(0), weight: 2 },
  { arbitrary: fc.constantFrom(-1, 1), weight: 1 },
  { arbitrary: fc.integer({ min: -0x10000, max: 0x10000 }).map((n) => n / 0x10000), weight: 2 },
);

const READERS: readonly Reader[] = ['principal', 'staff', 'redeemer', 'other-principal', 'holder'];
const reader = fc.constantFrom<Reader>('principal', 'principal', 'staff', 'redeemer', 'redeemer', 'other-principal', 'holder');

const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.constant('none' as const), weight: 2 },
  { arbitrary: fc.constant('renew' as const), weight: 3 },
  { arbitrary: fc.constant('renew-foreign' as const), weight: 3 },
  { arbitrary: fc.constant('renew-to-limit' as const), weight: 2 },
  { arbitrary: fc.constant('redeem' as const), weight: 1 },
  { arbitrary: fc.constant('cancel' as const), weight: 1 },
);

/** Most renewals one renew-to-limit step sends: a chain of any max_chain_depth is reached in a few steps, none takes long. */
const MOST_IN_A_ROW = 16;

/** The pack's amount, as a class of the target's max_amount (amountOf). */
type AmountClass = 'one' | 'half' | 'max' | 'beyond-2^53' | 'any' | 'any-beyond-2^53';

interface Case {
  /** The member orders the keys' JWKs are written in, one message after another (the same key presented in another order than it was registered in). */
  readonly orders: readonly (readonly (typeof JWK_MEMBERS)[number][])[];
  readonly amount: AmountClass;
  /** Where in its range an `any` class falls: a fraction of 2^64. */
  readonly at: bigint;
  /** The second of the minute the pack is issued at; its expiry falls that many seconds, plus the lifetime's, into a minute. */
  readonly second: number;
  readonly steps: readonly Step[];
  /** The last step: a move and nothing, a redemption or a cancellation (the state changes that end a pack), then the last read. */
  readonly end: Step;
  /** Who reads the pack at the end: every reader, in this order. */
  readonly endReaders: readonly Reader[];
}

const cases: fc.Arbitrary<Case> = fc.record({
  orders: fc.array(fc.shuffledSubarray([...JWK_MEMBERS], { minLength: JWK_MEMBERS.length, maxLength: JWK_MEMBERS.length }), { minLength: 1, maxLength: 3 }),
  amount: fc.constantFrom<AmountClass>('one', 'half', 'max', 'beyond-2^53', 'any', 'any-beyond-2^53'),
  at: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  second: fc.integer({ min: 0, max: 59 }),
  steps: fc.array(fc.record({ move, action, read: fc.boolean(), reader, skew, handTo }), { minLength: 1, maxLength: 8 }),
  end: fc.record({ move, action: fc.constantFrom<Action>('none', 'redeem', 'cancel'), read: fc.constant(false), reader, skew, handTo: fc.constant('fresh' as const) }),
  endReaders: fc.shuffledSubarray([...READERS], { minLength: READERS.length, maxLength: READERS.length }),
});

/**
 * An amount of the class, within max_amount (2^53 + 1 is max_amount itself
 * where the maximum is lower) and within what the setup's Principal holds;
 * `any` falls `at` / 2^64 of the way from 1 to that maximum, `any-beyond-2^53`
 * as far from 2^53 + 1 (digits no double holds, short of the maximum).
 */
function amountOf(amountClass: AmountClass, at: bigint, maxAmount: string): string {
  const max = BigInt(maxAmount) < MOST_PER_PACK ? BigInt(maxAmount) : MOST_PER_PACK;
  const beyond = 2n ** 53n + 1n;
  const within = (low: bigint) => (low >= max ? max : low + (((max - low) * at) >> 64n));
  const value = { one: 1n, half: max / 2n > 0n ? max / 2n : 1n, max, 'beyond-2^53': beyond <= max ? beyond : max, any: within(1n), 'any-beyond-2^53': within(beyond) }[amountClass];
  return value.toString();
}

/** What the sequence predicts of the pack (PROFILE.md §4.7, §5.1). */
interface Predicted {
  status: 'ACTIVE' | 'REDEEMED' | 'EXPIRED' | 'CANCELLED';
  updatedAtMs: number;
  depth: number;
}

const stamp = (ms: number) => formatTimestamp(ms, 'cashpack');

async function judgeCase(ctx: ScenarioContext, setup: OperatorSetup, { orders, amount: amountClass, at, second, steps, end, endReaders }: Case): Promise<PropertyFailure | undefined> {
  const ops = [...steps, end];
  const { policy, principal, redeemer } = setup;
  // The clock forward to the next instant at the case's second of the minute (never back: ids recorded stay in the past).
  const clockAt = Math.floor((await operatorNow(ctx)) / 1000) * 1000;
  let now = clockAt + ((((second * 1000 - (clockAt % 60_000)) % 60_000) + 60_000) % 60_000);
  await setClock(ctx, 'operator', now);
  let bearer: SigningKey = createSigningKey();
  // Every key that has held the pack, the first bearer first.
  const holders: SigningKey[] = [bearer];
  let handTo: Step['handTo'] = 'fresh';
  const amount = amountOf(amountClass, at, policy.max_amount);
  // Each key a message names is written in the next of the case's member orders.
  let written = 0;
  const ordered = (key: SigningKey) => inMemberOrder(key, orders[written++ % orders.length]!);
  let pack: CashPack = await issuePack(ctx, setup, ordered(bearer), now, { amount });
  const expiryMs = now + lifetimeSeconds(policy) * 1000;
  // Every later prediction counts from the expiry asked for: a pack issued with another fails its issue's rule.
  if (pack.expiry !== stamp(expiryMs)) return { expected: stamp(expiryMs), actual: pack.expiry ?? null, message: `a pack issued at ${stamp(now)} (second ${second} of the minute): its expiry, asked for as requested_expiry`, requirements: ['CPP-ISS-1'] };
  const cancels = ctx.target.capabilities('operator').has('cancel');
  const state: Predicted = { status: 'ACTIVE', updatedAtMs: now, depth: 0 };
  const done: string[] = [`issued (amount ${amount})`];
  /** Whether the pack's next renewal would be over max_body_bytes. */
  let outgrown = false;
  const moveTo = async (ms: number) => {
    if (ms <= now) return;
    now = ms;
    await setClock(ctx, 'operator', now);
    // §5.1: expired at the expiry instant, whenever it is noticed.
    if (state.status === 'ACTIVE' && now >= expiryMs) Object.assign(state, { status: 'EXPIRED', updatedAtMs: expiryMs });
  };
  // An operation answered otherwise than its own rule says leaves nothing to predict: a failed setup of that rule, not of updated_at.
  const unexpected = (answer: HttpResult, expected: unknown, what: string, requirement: string): never => {
    throw StepError.setupFailed(requirement, `${done.join(', ')}; then ${what} answered ${JSON.stringify({ status: answer.status, code: answerOf(answer) })} where ${JSON.stringify(expected)} was due (${requirement}), so updated_at cannot be predicted`);
  };

  // The readers besides the Principal and the redeemer, provisioned when first drawn.
  const others: Partial<Record<'staff' | 'other-principal', SigningKey>> = {};
  const keyOf = async (who: 'staff' | 'other-principal'): Promise<SigningKey> => {
    const known = others[who];
    if (known) return known;
    const key = createSigningKey();
    const answer = await send(ctx, 'operator', jsonRequest('POST', who === 'staff' ? '/_control/operator/staff' : '/_control/operator/principals', who === 'staff' ? { public_key: key.jwk } : { public_key: key.jwk, asset: setup.asset, balance: '0' }));
    if (answer.status !== 201) throw StepError.setupFailed('PRF-CTL-1', `setting up: provisioning ${who === 'staff' ? 'an Operator (staff) key' : 'another Principal'} answered ${JSON.stringify({ status: answer.status, code: answerOf(answer) })}, not 201`);
    others[who] = key;
    return key;
  };
  const whoReads: Record<Reader, string> = { principal: 'the issuing Principal', staff: 'an Operator (staff) key', redeemer: 'the redeemer the redemptions name', 'other-principal': 'another Principal', holder: 'a key that held the pack, registered nowhere' };

  /** A read by `who`: a refusal for those the status is not for (then the Principal's read), else judged whole. */
  const read = async (who: Reader = 'principal'): Promise<PropertyFailure | undefined> => {
    if (who === 'redeemer' || who === 'other-principal' || who === 'holder') {
      const key = who === 'redeemer' ? redeemer : who === 'holder' ? holders[holders.length - 1]! : await keyOf('other-principal');
      const refusal = await send(ctx, 'operator', statusRequest(ctx, pack.pack_id, key, Math.floor(now / 1000)));
      const [status, code] = who === 'holder' ? [401, 'UNAUTHENTICATED'] : [403, 'FORBIDDEN'];
      if (refusal.status !== status || answerOf(refusal) !== code) return { expected: { status, code }, actual: { status: refusal.status, code: answerOf(refusal) }, message: `${done.join(', ')}; then a status read by ${whoReads[who]} (PROFILE.md §5 status: the issuing Principal and the Operator's staff only)`, requirements: ['CPP-STS-1', 'PRF-AUTH-1'] };
      done.push(`a read by ${whoReads[who]}: refused`);
      return read('principal');
    }
    const signer = who === 'staff' ? await keyOf('staff') : principal;
    const answer = await send(ctx, 'operator', statusRequest(ctx, pack.pack_id, signer, Math.floor(now / 1000)));
    if (answer.status !== 200) return { expected: 200, actual: { status: answer.status, code: answerOf(answer) }, message: `${done.join(', ')}; then a status read by ${whoReads[who]}`, requirements: ['CPP-STS-1'] };
    const body = answer.body as Record<string, unknown>;
    // A closed object with exactly §4.7's members, at every depth and status the story reaches.
    const shape = validateMessage('status', body);
    if (!shape.ok) return { expected: 'a status response with exactly the members of PROFILE.md §4.7', actual: { errors: shape.errors.slice(0, 3), body }, message: `${done.join(', ')}; then a status read by ${whoReads[who]} (the pack at depth ${state.depth}, ${state.status})`, requirements: ['PRF-MSG-1'] };
    if (body.status !== state.status) return { expected: state.status, actual: body.status ?? null, message: `${done.join(', ')}; then the status read's status`, requirements: ['CPP-STS-1'] };
    // The rest of §4.7, from the pack as the Operator last returned it.
    const members = { pack_id: pack.pack_id, amount: pack.amount, asset: pack.asset, expiry: pack.expiry, chain_depth: state.depth, chain_digest: pack.chain_digest };
    for (const [name, expected] of Object.entries(members)) {
      if (!isDeepStrictEqual(body[name], expected)) return { expected, actual: body[name] ?? null, message: `${done.join(', ')}; then the status read's ${name} (PROFILE.md §4.7, the pack at depth ${state.depth}, ${state.status})`, requirements: ['CPP-STS-1'] };
    }
    if (body.updated_at !== stamp(state.updatedAtMs)) {
      return { expected: stamp(state.updatedAtMs), actual: body.updated_at ?? null, message: `${done.join(', ')}; then the status read's updated_at (the pack's last state change, PROFILE.md §4.7)`, requirements: ['PRF-STS-1'] };
    }
    done.push('read');
    return undefined;
  };

  /** When the step's messages say they were made, and how the story says so. */
  let signedAt = now;
  let dated = '';
  for (const step of ops) {
    if (!('toExpiry' in step.move)) {
      const by = 'by' in step.move ? step.move.by : step.move.windows * policy.request_window_seconds + step.move.plus;
      await moveTo(now + by * 1000);
      if (by > 0) done.push(`the clock ${by} s on`);
    } else {
      await moveTo(expiryMs + step.move.toExpiry * 1000);
      done.push(`the clock to the expiry instant ${step.move.toExpiry < 0 ? '' : '+'}${step.move.toExpiry} s`);
    }
    // Fresh at any second of the window short of its ends (whose instant a fraction of the clock would blur).
    const skewSeconds = Math.round(step.skew * Math.max(policy.request_window_seconds - 1, 0));
    signedAt = now + skewSeconds * 1000;
    dated = skewSeconds === 0 ? '' : `, created_at ${Math.abs(skewSeconds)} s ${skewSeconds < 0 ? 'behind' : 'ahead of'} the clock`;
    handTo = step.handTo;
    const failure = await act(step.action);
    if (failure) return failure;
    if (step.read) {
      const seen = await read(step.reader);
      if (seen) return seen;
    }
  }
  // At the end, everyone around the pack reads it, in the case's order.
  for (const who of endReaders) {
    const seen = await read(who);
    if (seen) return seen;
  }
  return undefined;

  async function act(kind: Action): Promise<PropertyFailure | undefined> {
    switch (kind) {
      case 'none':
        return undefined;
      case 'renew-to-limit': {
        // Up to max_chain_depth and one past it (refused CHAIN_DEPTH_EXCEEDED), the step's hand-over each time: a chain
        // handed back and forth between two keys, or to its bearer itself, is as deep as its length (PROFILE.md §5 renew step 10).
        // Every third renewal of the row hands the pack back to a key that held it before, whatever the step drew.
        const drawn = handTo;
        try {
          for (let more = Math.min(policy.max_chain_depth - state.depth + 1, MOST_IN_A_ROW), n = 1; more > 0 && state.status === 'ACTIVE' && !outgrown; more--, n++) {
            handTo = n % 3 === 0 ? 'earlier' : drawn;
            const failure = await act('renew');
            if (failure) return failure;
          }
        } finally {
          handTo = drawn;
        }
        return undefined;
      }
      case 'renew':
      case 'renew-foreign': {
        const foreign = kind === 'renew-foreign';
        // The first key that held the pack before the bearer, when there is one, for a hand-back.
        const earlier = holders.find((key) => key !== bearer);
        const next = handTo === 'self' ? bearer : handTo === 'earlier' && earlier !== undefined ? earlier : createSigningKey();
        const handedTo = next === bearer ? ', back to the bearer itself' : holders.includes(next) ? ', back to a key that held it before' : '';
        const request = jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: pack, renewal: renewal(pack, ordered(foreign ? createSigningKey() : bearer), signedAt, ordered(next)) });
        const granted = !foreign && state.status === 'ACTIVE' && state.depth < policy.max_chain_depth;
        // A chain its renewals outgrow before max_chain_depth (the body limit is the target's to choose): the next one is not sent, nor a refused one as large (its 413 says nothing of updated_at).
        const size = Buffer.byteLength(request.body ?? '');
        if (size > policy.max_body_bytes) {
          if (granted) outgrown = true;
          done.push(`no ${foreign ? 'renewal signed by another key' : 'renewal'} at depth ${state.depth}: its ${size}-byte body is over max_body_bytes ${policy.max_body_bytes}`);
          return undefined;
        }
        const answer = await send(ctx, 'operator', request);
        const what = `${foreign ? 'a renewal signed by a key that is not the bearer' : `a renewal by the bearer at depth ${state.depth} (max_chain_depth ${policy.max_chain_depth}) of a ${state.status} pack`}${handedTo}${dated}`;
        // The rule of the answer that was due: a granted renewal, or the refusal of a foreign key, a pack no longer ACTIVE, a chain at its depth.
        const rule = granted ? 'CPP-RNW-1' : foreign ? 'CPP-BRR-1' : state.status !== 'ACTIVE' ? 'CPP-ACT-1' : 'CPP-DEPTH-1';
        if ((answer.status === 200) !== granted) unexpected(answer, granted ? 200 : 'a refusal', what, rule);
        if (granted) {
          [pack, bearer] = [renewedPack(answer, next, `${done.join(', ')}; then ${what}`, pack), next];
          if (!holders.includes(next)) holders.push(next);
          Object.assign(state, { updatedAtMs: now, depth: state.depth + 1 });
        }
        done.push(`${what}: ${granted ? 'granted' : 'refused'}`);
        return undefined;
      }
      case 'redeem': {
        const text = JSON.stringify({ cash_pack: pack, redemption: redemption(pack, ordered(bearer), redeemer, signedAt) });
        // A pack its renewals made larger than the body limit allows is not presented (whatever the answer, 413 says nothing of updated_at).
        const size = Buffer.byteLength(text);
        if (size > policy.max_body_bytes) {
          done.push(`no redemption at depth ${state.depth}: its ${size}-byte body is over max_body_bytes ${policy.max_body_bytes}`);
          return undefined;
        }
        const answer = await send(ctx, 'operator', redeemRequest(ctx, text, redeemer, Math.floor(now / 1000)));
        const granted = state.status === 'ACTIVE';
        if ((answer.status === 200) !== granted) unexpected(answer, granted ? 200 : 'a refusal', `a redemption by the bearer of a ${state.status} pack`, granted ? 'CPP-RED-1' : 'CPP-ACT-1');
        if (granted) Object.assign(state, { status: 'REDEEMED', updatedAtMs: now });
        done.push(`a redemption${dated}: ${granted ? 'granted' : 'refused'}`);
        return undefined;
      }
      case 'cancel': {
        // Without the optional capability the sequence goes on without it.
        if (!cancels) return undefined;
        const answer = await send(ctx, 'operator', buildCancel(pack.pack_id));
        const granted = state.status === 'ACTIVE';
        if ((answer.status === 200) !== granted) unexpected(answer, granted ? 200 : 'a refusal', `a cancellation of a ${state.status} pack`, 'PRF-CTL-1');
        if (granted) Object.assign(state, { status: 'CANCELLED', updatedAtMs: now });
        done.push(`a cancellation: ${granted ? 'granted' : 'refused'}`);
        return undefined;
      }
    }
  }
}

export const OPERATOR_UPDATED_AT = define<Case>({
  id: 'PROP-OP-015',
  title: "a status read at any depth and in any status answers as predicted: updated_at the Operator's clock at the pack's last state change (the expiry instant for EXPIRED), and every other member of the status response, whatever reads, refusals and clock moves come between",
  // Only what every case judges: the pack's issue as asked, and its reads; the operations between them are judged by their own scenarios.
  requirements: ['PRF-STS-1', 'CPP-STS-1', 'CPP-ISS-1', 'PRF-MSG-1', 'PRF-AUTH-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §4.7', 'PROFILE §5', 'PROFILE §5.1', '§3.2'],
  needs: ['provision', 'clock'],
  // It moves the Operator's clock between operations on one pack: nothing else may run beside it.
  shares: 'clock',
  defaultRuns: 10,
  file: FILE,
  arbitrary: () => cases,
  async check(ctx, ops) {
    return judgeCase(ctx, await operatorSetup(ctx), ops);
  },
  teardown: (ctx) => restoreClock(ctx, 'operator'),
});
