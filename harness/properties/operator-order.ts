// PROP-OP-019: issue's checks in the profile's order, broken one, two or three
// at a time (PROFILE.md §5 issue steps 2 to 9). Each case breaks a generated
// set of the steps (each the first broken one as often as any other), each from a class of its own (a flipped signature or one
// by another key; an unregistered Principal; created_at on either side of the
// window; a request_id recorded before; an unlisted asset or a listed code
// under another type or chain; an amount over max_amount, beyond 2^53 too; a
// requested expiry under the minimum or over the maximum; a Principal with
// nothing available), and wants the code of the first broken step, with its
// status. A refusal changes nothing (the Principal's balance, where it can be
// read) except the id: it is recorded once the signature, the Principal and
// freshness have passed (§6), so a valid Lock Request sent next with the same
// request_id is DUPLICATE_ID exactly then, and granted otherwise. PRF-ORDER-001
// sets a few pairs side by side; this draws every pair and triple.
import fc from 'fast-check';
import { buildLockRequest, createSigningKey, type AssetDescriptor, type LockRequest, type SigningKey } from '../../profile/cashpack/index.ts';
import { PROBLEM_STATUS } from '../../profile/problems.ts';
import { recodedAssets, unlistedAsset } from '../../generators/cashpack/assets.ts';
import { flipped } from '../../generators/cashpack/corruptions.ts';
import type { Policy } from '../scenarios/actions/index.ts';
import { StepError, type ScenarioContext } from '../scenarios/context.ts';
import { jsonRequest, send } from '../scenarios/http.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { restoreClock } from './field-classes/clock.ts';
import { brokenSteps, LAST_MS, MARGIN_S, misansweredRules, stale, staleCreatedAt, type Stale } from './field-classes/check-order.ts';
import { answerOf, balanceOf, lifetimeSeconds, MOST_PER_PACK, operatorNow, policyOnItsClock, provisionPrincipal } from './field-classes/operator-setup.ts';

const FILE = 'harness/properties/operator-order.ts';

/** The steps of issue a case can break (PROFILE.md §5), with the code each answers and the rule it is. */
const STEPS = {
  2: { code: 'INVALID_SIGNATURE', rule: 'CPP-SIG-1' },
  3: { code: 'PRINCIPAL_UNKNOWN', rule: 'CPP-PRN-1' },
  4: { code: 'STALE_REQUEST', rule: 'PRF-FRESH-1' },
  5: { code: 'DUPLICATE_ID', rule: 'CPP-RPL-1' },
  6: { code: 'ASSET_NOT_SUPPORTED', rule: 'PRF-ERR-1' },
  7: { code: 'AMOUNT_EXCEEDS_LIMIT', rule: 'CPP-LIM-1' },
  8: { code: 'EXPIRY_INVALID', rule: 'CPP-EXP-1' },
  9: { code: 'INSUFFICIENT_BALANCE', rule: 'CPP-BAL-1' },
} as const;
type Step = keyof typeof STEPS;
const STEP_NUMBERS = Object.keys(STEPS).map(Number) as Step[];

/** How a step of issue is ordered, answered and charged (check-order.ts misansweredRules). */
const RULES_OF_STEPS = { orderOf: (step: Step) => step, codeOf: (step: Step) => STEPS[step].code, ruleOf: (step: Step) => STEPS[step].rule };

/** The id is recorded at step 5, once steps 2 to 4 have passed (PROFILE.md §6). */
const RECORDED_AT: Step = 5;

interface Broken {
  readonly broken: readonly Step[];
  readonly signature: 'flipped' | 'other-key';
  /** Seconds beyond the freshness window (and a margin for a running clock), before or after the clock. */
  readonly stale: Stale;
  readonly asset: { readonly recoded: boolean; readonly pick: number };
  /** How far over max_amount. */
  readonly over: bigint;
  /** A valid amount, this fraction of 2^16 of the way from 1 to max_amount. */
  readonly amountAt: number;
  readonly expiry: { readonly side: 'short' | 'long'; readonly by: number };
  /** Whether the Principal's balance is read around the refusal (where the Operator offers balance reads). */
  readonly balanceRead: boolean;
}

const broken: fc.Arbitrary<Broken> = fc.record({
  broken: brokenSteps(STEP_NUMBERS, (step) => step),
  signature: fc.constantFrom('flipped' as const, 'other-key' as const),
  stale,
  asset: fc.record({ recoded: fc.boolean(), pick: fc.nat() }),
  over: fc.oneof(fc.constant(1n), fc.bigInt({ min: 2n, max: 1000n }), fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n })),
  amountAt: fc.integer({ min: 0, max: 0xffff }),
  expiry: fc.record({ side: fc.constantFrom('short' as const, 'long' as const), by: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 86_400 })) }),
  balanceRead: fc.boolean(),
});

/** Two Lock Requests a case, each breaking its own steps. */
type Case = readonly Broken[];
const cases: fc.Arbitrary<Case> = fc.array(broken, { minLength: 2, maxLength: 2 });


interface Parties {
  /** Funded beyond any case: the valid Lock Requests' Principal. */
  readonly rich: SigningKey;
  /** Provisioned with nothing available: step 9's. */
  readonly poor: SigningKey;
  /** Request ids an earlier answer showed recorded. */
  readonly recorded: string[];
}

const parties = new WeakMap<ScenarioContext, Promise<Parties>>();

function partiesOf(ctx: ScenarioContext, policy: Policy): Promise<Parties> {
  let made = parties.get(ctx);
  if (!made) {
    made = (async () => {
      const rich = createSigningKey();
      const poor = createSigningKey();
      await provisionPrincipal(ctx, rich, `1${'0'.repeat(60)}`, policy);
      await provisionPrincipal(ctx, poor, '0', policy);
      return { rich, poor, recorded: [] };
    })();
    parties.set(ctx, made);
  }
  return made;
}

/** The largest amount PROFILE.md §1 lets a message carry (78 digits): past it, a Lock Request is malformed, not over the limit. */
const LARGEST_AMOUNT = 10n ** 78n - 1n;

async function judgeBroken(ctx: ScenarioContext, policy: Policy, drawn: Broken): Promise<PropertyFailure | undefined> {
  const { rich, poor, recorded } = await partiesOf(ctx, policy);
  const now = await operatorNow(ctx);
  const maxAmount = BigInt(policy.max_amount);
  const window = policy.request_window_seconds;
  // A step the target's own values leave no room to break, with a message that is still well-formed, is left out.
  const over = maxAmount + drawn.over > LARGEST_AMOUNT ? LARGEST_AMOUNT - maxAmount : drawn.over;
  const staleAt = staleCreatedAt(now, window, drawn.stale);
  const recoded = recodedAssets(policy.assets as AssetDescriptor[]);
  const otherAsset = drawn.asset.recoded && recoded.length > 0 ? recoded[drawn.asset.pick % recoded.length]! : (unlistedAsset(policy.assets as AssetDescriptor[]) ?? recoded[drawn.asset.pick % Math.max(1, recoded.length)]);
  const breakable = (step: Step) => (step === 7 ? over > 0n : step === 4 ? staleAt !== undefined : step === 6 ? otherAsset !== undefined : true);
  const c = { ...drawn, broken: drawn.broken.filter(breakable), over };
  if (c.broken.length === 0) return undefined;
  const breaks = (step: Step) => c.broken.includes(step);
  const valid = (principal: SigningKey, requestId?: string): LockRequest =>
    buildLockRequest({
      principal,
      ...(requestId !== undefined ? { request_id: requestId } : {}),
      amount: validAmount(maxAmount, c.amountAt),
      asset: policy.assets[0] as AssetDescriptor,
      initialBearer: createSigningKey().jwk,
      requested_expiry: now + lifetimeSeconds(policy) * 1000,
      created_at: now,
    });

  // An id recorded before, for step 5: one a valid Lock Request just had granted, when no earlier case left one.
  if (breaks(5) && recorded.length === 0) {
    const lock = valid(rich);
    const answer = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lock));
    if (answer.status !== 200) throw StepError.setupFailed('CPP-ISS-1', `setting up: the Operator did not issue a pack to a funded Principal (HTTP ${answer.status}: ${answer.text.slice(0, 200)}); its own scenarios judge issue`);
    recorded.push(lock.request_id);
  }

  const principal = breaks(3) ? createSigningKey() : breaks(9) ? poor : rich;
  const signer = breaks(2) && c.signature === 'other-key' ? { jwk: principal.jwk, secretKey: createSigningKey().secretKey } : principal;
  const lock = buildLockRequest({
    principal: signer,
    ...(breaks(5) ? { request_id: recorded[c.amountAt % recorded.length]! } : {}),
    amount: breaks(7) ? maxAmount + c.over : validAmount(maxAmount, c.amountAt),
    asset: breaks(6) ? otherAsset! : (policy.assets[0] as AssetDescriptor),
    initialBearer: createSigningKey().jwk,
    requested_expiry: breaks(8) ? invalidExpiry(now, policy, c.expiry) : now + lifetimeSeconds(policy) * 1000,
    created_at: breaks(4) ? staleAt! : now,
  });
  const sent = breaks(2) && c.signature === 'flipped' ? { ...lock, signature: flipped(lock.signature) } : lock;
  const first = c.broken[0]!;
  const expected = STEPS[first].code;
  const story = `a Lock Request breaking issue step${c.broken.length > 1 ? 's' : ''} ${c.broken.map((s) => `${s} (${STEPS[s].code})`).join(', ')}${breaks(2) ? `, its signature ${c.signature === 'flipped' ? 'flipped' : "by another key"}` : ''}`;
  const before = !c.balanceRead || principal !== signer || breaks(3) || !ctx.target.capabilities('operator').has('balance') ? undefined : await balanceOf(ctx, principal);

  const answer = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', sent));
  const seen = answerOf(answer);
  const wrong = misansweredRules(seen, answer.status, { code: expected, status: PROBLEM_STATUS[expected] }, c.broken, STEP_NUMBERS, RULES_OF_STEPS);
  if (wrong.length > 0) return { expected: { status: PROBLEM_STATUS[expected], problem: expected }, actual: { status: answer.status, body: answer.body }, message: story, requirements: wrong };

  // A refusal changes nothing but the id it records (PROFILE.md §5, §6).
  if (before !== undefined) {
    const after = await balanceOf(ctx, principal);
    if (after.available !== before.available || after.locked !== before.locked) {
      return { expected: { available: before.available, locked: before.locked }, actual: after, message: `${story}, refused ${expected}: the Principal's balance after it`, requirements: ['PRF-ORDER-1'] };
    }
  }
  const isRecorded = first >= RECORDED_AT || breaks(5);
  const resend = valid(rich, sent.request_id);
  const again = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', resend));
  const againSeen = answerOf(again);
  if (againSeen !== (isRecorded ? 'DUPLICATE_ID' : 200)) {
    return {
      expected: isRecorded ? { status: PROBLEM_STATUS.DUPLICATE_ID, problem: 'DUPLICATE_ID' } : 200,
      actual: { status: again.status, body: again.body },
      message: `${story}, refused ${expected}; then a valid Lock Request with its request_id (${isRecorded ? 'recorded: the signature, the Principal and freshness had passed' : 'not recorded: refused before step 5'})`,
      requirements: ['PRF-RPL-1'],
    };
  }
  if (againSeen === 200) recorded.push(resend.request_id);
  return undefined;
}

/** A valid amount, `at` / 2^16 of the way from 1 to max_amount (at most MOST_PER_PACK: the funded Principal's balance is a thousand of them). */
function validAmount(maxAmount: bigint, at: number): bigint {
  const most = maxAmount < MOST_PER_PACK ? maxAmount : MOST_PER_PACK;
  return 1n + ((most - 1n) * BigInt(at)) / 0xffffn;
}

/** A requested expiry under expiry_min_seconds or over expiry_max_seconds, by a margin and `by` seconds; the short side when the long one is past what a timestamp can write. */
function invalidExpiry(now: number, policy: Policy, expiry: Broken['expiry']): number {
  const long = now + (policy.expiry_max_seconds + MARGIN_S + expiry.by) * 1000;
  return expiry.side === 'long' && long <= LAST_MS ? long : now + (policy.expiry_min_seconds - MARGIN_S - expiry.by) * 1000;
}

async function judgeCase(ctx: ScenarioContext, policy: Policy, c: Case): Promise<PropertyFailure | undefined> {
  for (const one of c) {
    const failure = await judgeBroken(ctx, policy, one);
    if (failure) return failure;
  }
  return undefined;
}

export const OPERATOR_ORDER = define<Case>({
  id: 'PROP-OP-019',
  title: "issue's checks broken one, two or three at a time, each from a class of its own, are answered with the first's code, change nothing, and record the id exactly when signature, Principal and freshness passed",
  requirements: ['PRF-ORDER-1', 'PRF-RPL-1', 'PRF-ERR-1', 'CPP-SIG-1', 'CPP-PRN-1', 'PRF-FRESH-1', 'CPP-RPL-1', 'CPP-LIM-1', 'CPP-EXP-1', 'CPP-BAL-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['§7.1', 'PROFILE §5', 'PROFILE §6', 'PROFILE §11'],
  needs: ['provision'],
  // Messages are dated on a frozen clock under a tight policy.
  shares: 'clock-if-tight-policy',
  defaultRuns: 25,
  file: FILE,
  arbitrary: () => cases,
  // Where max_amount is the largest amount there is, no well-formed Lock Request lies above it (step 7 is left out).
  vacuousUnder: ({ policy }) => (policy !== undefined && BigInt(policy.max_amount) >= LARGEST_AMOUNT ? ['CPP-LIM-1'] : []),
  check: async (ctx, c) => judgeCase(ctx, await policyOnItsClock(ctx), c),
  teardown: (ctx) => restoreClock(ctx, 'operator'),
});
