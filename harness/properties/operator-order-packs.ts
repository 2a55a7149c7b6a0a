// PROP-OP-020: renew's and redeem's checks in the profile's order, broken one,
// two or three at a time (PROFILE.md §5 renew steps 2 to 10, redeem steps 2 to
// 9), as PROP-OP-019 breaks issue's. Each case sends a renewal or a redemption
// breaking a generated set of the steps, each from a class of its own: the
// presented pack's signature flipped; the message's signature flipped or by
// another key than the bearer it names; created_at on either side of the
// window; an id recorded before; a pack already redeemed; a bearer that is
// not the current one (the previous bearer or a stranger, signing as itself);
// a prev_chain_digest of the version before the last renewal, the current one
// with letters in other case (base64url is case-sensitive), of random bytes
// or of zero bytes; a pack at max_chain_depth; a redemption whose HTTP signature is by a
// key no redeemer has, by a stranger under the redeemer's keyid, or by the
// redeemer's own key with its kid spelled with letters in another case (a kid
// is its exact base64url text, PROFILE.md §2.1) as the keyid, as the
// redeemer_kid the bearer signed, or as both, or by the redeemer's own key,
// valid but labelled otherwise than cpp (PROFILE.md §2.4). Step 3 (an
// unknown pack_id) is never broken alone: a pack the Operator does not know
// cannot carry its signature. One case in two that breaks step 2 presents the
// pack, and names it in the message, under a pack_id the Operator never
// issued, its genuine signature then over another pack's bytes: steps 2 and 3
// broken, INVALID_SIGNATURE first (an Operator that looks the pack up before
// it verifies the pack's signature answers NOT_FOUND). Each step is the first broken one as often as any
// other. The message is built on the pack as it stands or, two cases in
// three, on the copy its previous bearer holds, as it stood before its last
// renewal (genuine too: the Operator's stored state decides, PROFILE.md §5),
// so that a check read from the presented pack shows. It
// wants the first broken step's code and status, and the id recorded exactly
// when both signatures and freshness passed (§6): a valid message with the
// same id on an ACTIVE pack next is DUPLICATE_ID exactly then, and granted
// otherwise, which also shows that the refusal left that pack as it was.
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { buildRedemption, buildRenewal, createSigningKey, type CashPack, type SigningKey } from '../../profile/cashpack/index.ts';
import { encodeB64url } from '../../profile/b64url.ts';
import { PROBLEM_STATUS } from '../../profile/problems.ts';
import { flipped, recased } from '../../generators/cashpack/corruptions.ts';
import { signatureLabel, type ClassValue } from '../../generators/classes/index.ts';
import type { Policy } from '../scenarios/actions/index.ts';
import { StepError, type HttpResult, type ScenarioContext } from '../scenarios/context.ts';
import { jsonRequest, send } from '../scenarios/http.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { restoreClock } from './field-classes/clock.ts';
import { brokenSteps, misansweredRules, stale, staleCreatedAt, type Stale } from './field-classes/check-order.ts';
import { answerOf, issuePack, operatorNow, operatorSetup, policyOnItsClock, redeemRequest, renewal, renewedPack, type OperatorSetup } from './field-classes/operator-setup.ts';

const FILE = 'harness/properties/operator-order-packs.ts';

type Kind = 'renew' | 'redeem';

/** The steps a case can break, with the code each answers and the rule it is; step 9 of redeem is identity, of renew the digest. */
const STEPS = {
  2: { code: 'INVALID_SIGNATURE', rule: 'CPP-SIG-1', kinds: ['renew', 'redeem'] },
  4: { code: 'INVALID_SIGNATURE', rule: 'CPP-SIG-1', kinds: ['renew', 'redeem'] },
  5: { code: 'STALE_REQUEST', rule: 'PRF-FRESH-1', kinds: ['renew', 'redeem'] },
  6: { code: 'DUPLICATE_ID', rule: 'CPP-RPL-1', kinds: ['renew', 'redeem'] },
  7: { code: 'INSTRUMENT_NOT_ACTIVE', rule: 'CPP-ACT-1', kinds: ['renew', 'redeem'] },
  8: { code: 'BEARER_MISMATCH', rule: 'CPP-BRR-1', kinds: ['renew', 'redeem'] },
  9: { code: 'CHAIN_DIGEST_MISMATCH', rule: 'CPP-CHN-2', kinds: ['renew'] },
  10: { code: 'CHAIN_DEPTH_EXCEEDED', rule: 'CPP-DEPTH-1', kinds: ['renew'] },
} as const;
type Step = keyof typeof STEPS | 'identity';
const IDENTITY = { code: 'REDEEMER_NOT_IDENTIFIED', rule: 'CPP-IDN-1' } as const;
/** Step 9 of redeem (identity) sorts where renew's 9 does. */
const orderOf = (step: Step): number => (step === 'identity' ? 9 : step);
const infoOf = (step: Step) => (step === 'identity' ? IDENTITY : STEPS[step]);

/** How a step of renew or redeem is ordered, answered and charged (check-order.ts misansweredRules). */
const RULES_OF_STEPS = { orderOf, codeOf: (step: Step) => infoOf(step).code, ruleOf: (step: Step) => infoOf(step).rule };

/** The id is recorded at step 6, once steps 2 to 5 have passed (PROFILE.md §6). */
const RECORDED_AT = 6;

/** Past this max_chain_depth the property does not walk a pack to its end: step 10 is left to CPP-DEPTH-001. */
const DEEPEST_WALKED = 16;

/**
 * Whether a pack can be walked to max_chain_depth here: at most DEEPEST_WALKED
 * renewals, and the deepest renewal's body within max_body_bytes (a generous
 * bound of what a pack and an entry take: a deeper one would be PAYLOAD_TOO_LARGE
 * on the way, CPP-DEPTH-001's to judge).
 */
const walkable = (policy: Policy) => policy.max_chain_depth <= DEEPEST_WALKED && 1500 + 600 * (policy.max_chain_depth + 1) <= policy.max_body_bytes;


interface Case {
  readonly kind: Kind;
  /** Drawn from the kind's steps; sorted by the profile's order. */
  readonly broken: readonly Step[];
  readonly signature: 'flipped' | 'other-key';
  /** Where step 2 is broken: the pack's signature flipped, or the pack under a pack_id the Operator never issued (step 3 broken too). */
  readonly packSignature: 'flipped' | 'unknown-pack-id';
  readonly stale: Stale;
  /**
   * The copy of the pack the message is built on: the current one, or (where the
   * pack was renewed) the one before its last renewal, genuine too (PROFILE.md §5:
   * the stored state decides), as its previous bearer holds it: presented, with
   * that bearer for step 8 and that version's digest for step 9. On the current
   * copy, step 8's bearer is a stranger and step 9's digest random or zero bytes.
   */
  readonly copy: 'current' | 'stale';
  readonly digest: 'zero' | 'random' | 'recased';
  /** Which letters of the current digest (or, for a recased identity, the redeemer's kid) change case. */
  readonly recase: number;
  /**
   * Redeem step 9's caller: a key no redeemer has, naming itself; a stranger's
   * signature under the registered redeemer's keyid; or the redeemer's own
   * key with its kid in other letters where `recasedIn` says: the keyid, the
   * redeemer_kid, or both; or the redeemer's own valid signature labelled
   * otherwise than `cpp`.
   */
  readonly identity: 'unregistered' | 'other-signer' | 'recased' | 'relabelled';
  readonly recasedIn: 'keyid' | 'redeemer_kid' | 'both';
  readonly label: ClassValue<string>;
}

const stepsOf = (kind: Kind): Step[] => [...(Object.keys(STEPS).map(Number) as (keyof typeof STEPS)[]).filter((s) => (STEPS[s].kinds as readonly Kind[]).includes(kind)), ...(kind === 'redeem' ? (['identity'] as const) : [])];

const cases: fc.Arbitrary<Case> = fc.constantFrom<Kind>('renew', 'redeem').chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    broken: brokenSteps(stepsOf(kind), orderOf),
    signature: fc.constantFrom('flipped' as const, 'other-key' as const),
    packSignature: fc.constantFrom('flipped' as const, 'unknown-pack-id' as const),
    stale,
    copy: fc.oneof({ weight: 1, arbitrary: fc.constant('current' as const) }, { weight: 2, arbitrary: fc.constant('stale' as const) }),
    digest: fc.constantFrom('zero' as const, 'random' as const, 'recased' as const),
    recase: fc.nat(),
    identity: fc.constantFrom('unregistered' as const, 'other-signer' as const, 'recased' as const, 'relabelled' as const),
    recasedIn: fc.constantFrom('keyid' as const, 'redeemer_kid' as const, 'both' as const),
    label: signatureLabel(),
  }),
);

/** A pack and its current bearer, with the version before its last renewal and that version's bearer, where it was renewed. */
interface Held {
  readonly pack: CashPack;
  readonly bearer: SigningKey;
  readonly older?: { readonly pack: CashPack; readonly bearer: SigningKey };
}

/** What the property's cases share in one run: an ACTIVE pack (replaced once redeemed or near its depth), one redeemed, one at max_chain_depth, and ids recorded. */
interface State {
  readonly setup: OperatorSetup;
  active: Held | undefined;
  readonly redeemed: Held;
  deep: Held | undefined;
  readonly recorded: string[];
}

const states = new WeakMap<ScenarioContext, Promise<State>>();

async function renewed(ctx: ScenarioContext, held: Held, now: number, what: string): Promise<Held> {
  const next = createSigningKey();
  const answer = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: held.pack, renewal: renewal(held.pack, held.bearer, now, next) }));
  if (answer.status !== 200) throw StepError.setupFailed('CPP-RNW-1', `setting up: ${what}: the Operator did not renew a pack (HTTP ${answer.status}: ${answer.text.slice(0, 200)}); its own scenarios judge renew`);
  return { pack: renewedPack(answer, next, `setting up: ${what}`, held.pack), bearer: next, older: { pack: held.pack, bearer: held.bearer } };
}

function stateOf(ctx: ScenarioContext): Promise<State> {
  let made = states.get(ctx);
  if (!made) {
    made = (async () => {
      const setup = await operatorSetup(ctx);
      const now = await operatorNow(ctx);
      // A pack redeemed once (its Lock Request's and its redemption's ids are recorded: step 6's).
      const bearer = createSigningKey();
      const pack = await issuePack(ctx, setup, bearer, now);
      const redemption = buildRedemption({ bearer, pack, redeemer_kid: setup.redeemer.jwk.kid, created_at: now });
      const answer = await send(ctx, 'operator', redeemRequest(ctx, JSON.stringify({ cash_pack: pack, redemption }), setup.redeemer, Math.floor(now / 1000)));
      if (answer.status !== 200) throw StepError.setupFailed('CPP-RED-1', `setting up: the Operator did not redeem a pack (HTTP ${answer.status}: ${answer.text.slice(0, 200)}); its own scenarios judge redeem`);
      // The ACTIVE pack: the setup's renewed once more, so that a version before its last renewal is at hand (a fresh one where that is its depth).
      const setupPack = { pack: setup.pack, bearer: setup.bearer };
      const active = setup.pack.renewal_chain.length < setup.policy.max_chain_depth ? await renewed(ctx, setupPack, now, 'a renewal of the pack the cases present') : undefined;
      return { setup, active, redeemed: { pack, bearer }, deep: undefined, recorded: [redemption.redemption_id] };
    })();
    states.set(ctx, made);
  }
  return made;
}

/**
 * An ACTIVE pack with room for one more renewal: a fresh one once the last was
 * redeemed or has no room, renewed once where the policy leaves room for two,
 * so that a copy from before its last renewal is at hand.
 */
async function activeOf(ctx: ScenarioContext, state: State, now: number): Promise<Held> {
  const { active } = state;
  const depth = state.setup.policy.max_chain_depth;
  if (active !== undefined && active.pack.renewal_chain.length < depth) return active;
  const bearer = createSigningKey();
  const issued: Held = { pack: await issuePack(ctx, state.setup, bearer, now), bearer };
  state.active = depth >= 2 ? await renewed(ctx, issued, now, 'a renewal of a fresh pack the cases present') : issued;
  return state.active;
}

/** A pack at max_chain_depth, walked there once. */
async function deepOf(ctx: ScenarioContext, state: State, now: number): Promise<Held> {
  if (state.deep !== undefined) return state.deep;
  const bearer = createSigningKey();
  let held: Held = { pack: await issuePack(ctx, state.setup, bearer, now), bearer };
  for (let depth = 1; depth <= state.setup.policy.max_chain_depth; depth++) held = await renewed(ctx, held, now, `renewal ${depth} of a pack walked to max_chain_depth`);
  state.deep = held;
  return held;
}

/** Sends a renewal or redemption of `pack` (one the Operator's max_body_bytes would refuse ends the property, as any property's: properties/execute.ts). */
/** How a case breaking redeem step 9 signs and names its caller. */
function identityStory(drawn: Case, recasedKid: string, kid: string): string {
  if (drawn.identity === 'unregistered') return 'by a key no redeemer has';
  if (drawn.identity === 'other-signer') return "by a stranger under the redeemer's keyid";
  if (drawn.identity === 'relabelled') return `by the redeemer's key, valid but labelled ${JSON.stringify(drawn.label.value)}, ${drawn.label.note} (the label is cpp)`;
  const where = drawn.recasedIn === 'both' ? 'as its keyid and as the redeemer_kid' : drawn.recasedIn === 'keyid' ? 'as its keyid, the exact kid as the redeemer_kid' : 'as the redeemer_kid, under its exact kid';
  return `by the redeemer's key, its kid ${kid} written ${recasedKid} ${where}`;
}

function send2(ctx: ScenarioContext, kind: Kind, pack: CashPack, message: Record<string, unknown>, signer: SigningKey, now: number, label?: string): Promise<HttpResult> {
  if (kind === 'renew') return send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: pack, renewal: message }));
  return send(ctx, 'operator', redeemRequest(ctx, JSON.stringify({ cash_pack: pack, redemption: message }), signer, Math.floor(now / 1000), {}, label));
}

async function judgeCase(ctx: ScenarioContext, policy: Policy, drawn: Case): Promise<PropertyFailure | undefined> {
  const state = await stateOf(ctx);
  const { redeemer } = state.setup;
  const now = await operatorNow(ctx);
  const window = policy.request_window_seconds;
  const staleAt = staleCreatedAt(now, window, drawn.stale);
  // A step the target's own values leave no room to break is left out.
  const breakable = (step: Step) => (step === 5 ? staleAt !== undefined : step === 10 ? walkable(policy) : true);
  const broken = drawn.broken.filter(breakable);
  if (broken.length === 0) return undefined;
  const breaks = (step: Step) => broken.includes(step);
  const { kind } = drawn;

  // The pack: one redeemed for step 7, one at its depth for step 10, else the ACTIVE one.
  const held = breaks(7) ? state.redeemed : breaks(10) ? await deepOf(ctx, state, now) : await activeOf(ctx, state, now);
  const stale = drawn.copy === 'stale' ? held.older : undefined;
  const version = stale?.pack ?? held.pack;
  // Step 2: the pack's signature flipped, or the genuine one presented for a pack_id the Operator never issued (step 3 broken too), which the message names.
  const unknownId = breaks(2) && drawn.packSignature === 'unknown-pack-id' ? randomUUID() : undefined;
  const presented = unknownId !== undefined ? { ...version, pack_id: unknownId } : breaks(2) ? { ...version, signature: flipped(version.signature) } : version;
  const basis = unknownId !== undefined ? { ...held.pack, pack_id: unknownId } : held.pack;
  // The current bearer signs (the stored state decides, whatever version is presented); step 8's is another.
  const named = breaks(8) ? (stale?.bearer ?? createSigningKey()) : held.bearer;
  const signer = breaks(4) && drawn.signature === 'other-key' ? { jwk: named.jwk, secretKey: createSigningKey().secretKey } : named;
  const createdAt = breaks(5) ? staleAt! : now;
  // Redeem step 9: the HTTP signature by a key no redeemer has, naming itself as redeemer_kid, by a stranger under the redeemer's keyid, by the redeemer under its kid recased, or by the redeemer under another label (signed as the redeemer: identifiedBy stays the redeemer).
  const recasedKid = recased(redeemer.jwk.kid, drawn.recase);
  const recasedAs = (where: 'keyid' | 'redeemer_kid') => breaks('identity') && drawn.identity === 'recased' && drawn.recasedIn !== (where === 'keyid' ? 'redeemer_kid' : 'keyid');
  const identifiedBy = !breaks('identity') || drawn.identity === 'relabelled' ? redeemer : drawn.identity === 'unregistered' ? createSigningKey() : drawn.identity === 'recased' ? { ...redeemer, jwk: { ...redeemer.jwk, kid: recasedAs('keyid') ? recasedKid : redeemer.jwk.kid } } : { ...redeemer, secretKey: createSigningKey().secretKey };
  const namedKid = recasedAs('redeemer_kid') ? recasedKid : identifiedBy.jwk.kid;
  const id = breaks(6) ? state.recorded[state.recorded.length - 1]! : undefined;
  const wrongDigest = stale?.pack.chain_digest ?? (drawn.digest === 'recased' ? recased(held.pack.chain_digest, drawn.recase) : encodeB64url(drawn.digest === 'random' ? randomBytes(32) : new Uint8Array(32)));
  const built =
    kind === 'renew'
      ? buildRenewal({ bearer: signer, pack: basis, new_bearer: createSigningKey().jwk, created_at: createdAt, ...(id !== undefined ? { renewal_id: id } : {}), ...(breaks(9) ? { prev_chain_digest: wrongDigest } : {}) })
      : buildRedemption({ bearer: signer, pack: basis, redeemer_kid: namedKid, created_at: createdAt, ...(id !== undefined ? { redemption_id: id } : {}) });
  const message = breaks(4) && drawn.signature === 'flipped' ? { ...built, signature: flipped(built.signature) } : built;

  const first = broken[0]!;
  const expected = infoOf(first).code;
  const story = `a ${kind === 'renew' ? 'renewal' : 'redemption'} presenting ${version === held.pack ? 'the current version of' : 'the version before the last renewal of'} ${breaks(7) ? 'a redeemed' : breaks(10) ? 'a max_chain_depth deep' : 'an ACTIVE'} pack, breaking ${kind} step${broken.length > 1 ? 's' : ''} ${broken.map((s) => `${orderOf(s)} (${infoOf(s).code})`).join(', ')}${unknownId !== undefined ? `, presented and named under a pack_id the Operator never issued (${unknownId}: step 3, NOT_FOUND, broken too), its genuine signature over the pack's own` : ''}${breaks(8) ? `, named and signed by ${named === held.older?.bearer ? 'the previous bearer' : 'a stranger'}` : ''}${breaks('identity') ? `, its HTTP signature ${identityStory(drawn, recasedKid, redeemer.jwk.kid)}` : ''}${breaks(4) ? `, its signature ${drawn.signature === 'flipped' ? 'flipped' : "by another key than the bearer it names"}` : ''}${breaks(9) ? `, a prev_chain_digest of ${stale ? 'that version' : drawn.digest === 'random' ? 'random bytes' : drawn.digest === 'recased' ? 'the current digest with letters in other case' : 'zero bytes'}` : ''}`;
  const answer = await send2(ctx, kind, presented, message as unknown as Record<string, unknown>, identifiedBy, now, breaks('identity') && drawn.identity === 'relabelled' ? drawn.label.value : undefined);
  const seen = answerOf(answer);
  const wrong = misansweredRules(seen, answer.status, { code: expected, status: PROBLEM_STATUS[expected] }, broken, stepsOf(kind), RULES_OF_STEPS);
  if (wrong.length > 0) return { expected: { status: PROBLEM_STATUS[expected], problem: expected }, actual: { status: answer.status, body: answer.body }, message: story, requirements: wrong };

  // The id: recorded once both signatures and freshness passed. A valid message with it on the ACTIVE pack says which.
  const isRecorded = orderOf(first) >= RECORDED_AT || breaks(6);
  const target = await activeOf(ctx, state, now);
  const next = createSigningKey();
  const sentId = kind === 'renew' ? (message as { renewal_id: string }).renewal_id : (message as { redemption_id: string }).redemption_id;
  const valid =
    kind === 'renew'
      ? buildRenewal({ bearer: target.bearer, pack: target.pack, new_bearer: next.jwk, created_at: now, renewal_id: sentId })
      : buildRedemption({ bearer: target.bearer, pack: target.pack, redeemer_kid: redeemer.jwk.kid, created_at: now, redemption_id: sentId });
  const again = await send2(ctx, kind, target.pack, valid as unknown as Record<string, unknown>, redeemer, now);
  const againSeen = answerOf(again);
  // Not recorded, it goes through: granted, or, under a max_chain_depth of 0, refused at the depth (and recorded then).
  const through = kind === 'renew' && target.pack.renewal_chain.length >= policy.max_chain_depth ? 'CHAIN_DEPTH_EXCEEDED' : 200;
  if (againSeen !== (isRecorded ? 'DUPLICATE_ID' : through)) {
    // Refused for the pack's state: the refusal before changed it (PROFILE.md §5: a failed request changes nothing).
    const changed = target.pack === held.pack && ['INSTRUMENT_NOT_ACTIVE', 'BEARER_MISMATCH', 'CHAIN_DIGEST_MISMATCH'].includes(String(againSeen));
    return {
      expected: isRecorded ? { status: PROBLEM_STATUS.DUPLICATE_ID, problem: 'DUPLICATE_ID' } : through === 200 ? 200 : { status: PROBLEM_STATUS.CHAIN_DEPTH_EXCEEDED, problem: through },
      actual: { status: again.status, body: again.body },
      message: `${story}, refused ${expected}; then a valid ${kind === 'renew' ? 'renewal' : 'redemption'} of ${target.pack === held.pack ? 'that' : 'an ACTIVE'} pack with its id (${isRecorded ? 'recorded: both signatures and freshness had passed' : 'not recorded: refused before step 6'})`,
      requirements: changed ? ['PRF-ORDER-1'] : ['PRF-RPL-1'],
    };
  }
  if (againSeen === through) state.recorded.push(sentId);
  if (againSeen === 200) {
    state.active = kind === 'renew' ? { pack: renewedPack(again, next, 'a valid renewal with an id not recorded', target.pack), bearer: next, older: { pack: target.pack, bearer: target.bearer } } : undefined;
  }
  return undefined;
}

export const OPERATOR_ORDER_PACKS = define<Case>({
  id: 'PROP-OP-020',
  title: "renew's and redeem's checks broken one, two or three at a time, each from a class of its own, are answered with the first's code and record the id exactly when both signatures and freshness passed",
  requirements: ['PRF-ORDER-1', 'PRF-RPL-1', 'PRF-ERR-1', 'CPP-SIG-1', 'PRF-FRESH-1', 'CPP-RPL-1', 'CPP-ACT-1', 'CPP-BRR-1', 'CPP-CHN-2', 'CPP-DEPTH-1', 'CPP-IDN-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['§7.1', 'PROFILE §5', 'PROFILE §6', 'PROFILE §11'],
  needs: ['provision'],
  // Messages are dated on a frozen clock under a tight policy.
  shares: 'clock-if-tight-policy',
  defaultRuns: 40,
  file: FILE,
  arbitrary: () => cases,
  // Where no pack is walked to its depth here, step 10 is left out (CPP-DEPTH-001 walks it).
  vacuousUnder: ({ policy }) => (policy !== undefined && !walkable(policy) ? ['CPP-DEPTH-1'] : []),
  check: async (ctx, c) => judgeCase(ctx, await policyOnItsClock(ctx), c),
  teardown: (ctx) => restoreClock(ctx, 'operator'),
});
