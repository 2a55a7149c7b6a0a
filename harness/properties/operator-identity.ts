// PROP-OP-018: a redeemer's identity level decides each redemption as it stands
// when the redemption arrives (PROFILE.md §5 redeem step 9), through any
// sequence of provisionings (§12 "Provisioning again": its level becomes the
// new one; the funds released to it stay), whoever else the redeemer's key is:
// three keys are provisioned as redeemers alike, a fresh one, the issuing
// Principal's own and the one every pack is issued to (its holder, redeeming
// to itself), and each redemption is made by one of them, drawn (no role
// besides a redeemer's lifts the level rule: PROFILE.md §5 step 9 names none). The
// redeemers are provisioned at a generated level 0 to 3, then, two to six times, provisioned again or not (at
// a generated level: up, down, the same, twice in a row) and a redemption sent
// or not; the last step always redeems. A redemption is granted exactly when
// the level in force is at least the policy's required_identity_level and, as
// one redemption in four does not, it names the redeemer's kid exactly (not
// with letters in another case: PROFILE.md §2.1), else refused
// REDEEMER_NOT_IDENTIFIED; a refused pack stays ACTIVE (a failed
// request changes nothing, §5) and is the one the next redemption presents;
// each granted redemption's Redemption Confirmation names that pack and that
// request's redemption_id and redeemer_kid, and the pack's amount and asset
// (§4.6: the funds released), however much the redeemer was credited before,
// carries the pack's final digest and verifies under the Operator's key.
// Where the Operator offers balance reads, the redeemer's available balance is
// then the sum of the packs it was granted, however often it was provisioned
// since, in the packs' asset: the Principal holds, and its packs lock, any of
// the policy's assets, not only the first, and a read that names another asset
// shows none of it; the read itself is test control's (PROFILE.md §12: 200 with
// { asset, available }, "0" for a redeemer credited nothing). A level read only when raised, only at the first identification or
// only from the first provisioning, and credits dropped or kept by a
// provisioning, each show in some sequence.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { createSigningKey, verifyConfirmation, type CashPack, type RedemptionConfirmation, type SigningKey } from '../../profile/cashpack/index.ts';
import { balancePath, IDENTITY_LEVELS } from '../../profile/control.ts';
import { canonicalJson } from '../../profile/jcs.ts';
import { recased } from '../../generators/cashpack/corruptions.ts';
import { PROBLEM_STATUS } from '../../profile/problems.ts';
import { operatorKey, type Policy } from '../scenarios/actions/index.ts';
import type { ScenarioContext } from '../scenarios/context.ts';
import { jsonRequest, send } from '../scenarios/http.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { restoreClock } from './field-classes/clock.ts';
import { answerOf, control, issuePack, operatorNow, policyOnItsClock, provisionPrincipal, redeemRequest, redemption } from './field-classes/operator-setup.ts';

const FILE = 'harness/properties/operator-identity.ts';

/** Whose key redeems: a key only a redeemer's, the issuing Principal's, or the packs' holder's (the bearer redeeming to itself). */
const REDEEMERS = ['fresh', 'principal', 'holder'] as const;
type Redeemer = (typeof REDEEMERS)[number];

interface Step {
  /** The level the redeemers are provisioned again at before this step's redemption; none: not provisioned again. */
  readonly level: number | undefined;
  readonly redeem: boolean;
  /** Which of the three redeemers makes this step's redemption. */
  readonly by: Redeemer;
  /** The redemption names the redeemer's kid with letters in another case (which, corruptions.ts recased): no redeemer, whatever the level. */
  readonly recase: number | undefined;
}

interface Case {
  /** Which of the policy's assets (modulo their number). */
  readonly asset: number;
  readonly initial: number;
  readonly steps: readonly Step[];
}

const level = fc.integer({ min: IDENTITY_LEVELS.min, max: IDENTITY_LEVELS.max });

const cases: fc.Arbitrary<Case> = fc.record({
  // Which of the policy's assets the Principal holds and its packs lock (taken modulo their number): any of them, not only the first.
  asset: fc.nat(),
  initial: level,
  steps: fc
    .array(fc.record({ level: fc.option(level, { nil: undefined, freq: 3 }), redeem: fc.boolean(), by: fc.constantFrom(...REDEEMERS), recase: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat() }) }), { minLength: 2, maxLength: 6 })
    // The last step always redeems: every sequence ends judged on the level it left.
    .map((steps) => steps.map((s, i) => (i === steps.length - 1 ? { ...s, redeem: true } : s))),
});

/** Where the redeemer's level came from: its first provisioning (the identity rule's) or a provisioning again (test control's). */
const chargedFor = (reprovisioned: boolean): string[] => (reprovisioned ? ['PRF-CTL-1'] : ['PRF-IDN-1', 'CPP-IDN-1']);

async function judgeCase(ctx: ScenarioContext, policy: Policy, c: Case): Promise<PropertyFailure | undefined> {
  const required = policy.required_identity_level;
  const maxAmount = BigInt(policy.max_amount);
  // One pack per step at most, of 1, 2, 3... units (within max_amount): a credit shows which packs it counts.
  const amountOf = (i: number) => (BigInt(i + 1) < maxAmount ? BigInt(i + 1) : maxAmount);
  const principal = createSigningKey();
  // A unit more than the steps' packs: a pack of 1 to tell apart, on a failure, a level judged by the key's other role.
  const funds = c.steps.reduce((sum, _, i) => sum + amountOf(i), 1n);
  const asset = policy.assets[c.asset % policy.assets.length]!;
  await provisionPrincipal(ctx, principal, funds.toString(), policy, asset);
  const holder = createSigningKey();
  const keys: Record<Redeemer, SigningKey> = { fresh: createSigningKey(), principal, holder };
  for (const who of REDEEMERS) await control(ctx, jsonRequest('POST', '/_control/operator/redeemers', { public_key: keys[who].jwk, identity_level: c.initial }));
  const now = await operatorNow(ctx);

  const story = [`three redeemers provisioned at identity level ${c.initial} (required_identity_level ${required}): a fresh key, the issuing Principal's and the key every pack is issued to`];
  let inForce = c.initial;
  let reprovisioned = false;
  let creditedSinceProvisioning = false;
  /** Reprovisioned after it was credited: a lost credit is then test control's rule ("the funds released to it stay"). */
  let creditThenProvisioned = false;
  const credited: Record<Redeemer, bigint> = { fresh: 0n, principal: 0n, holder: 0n };
  let issued = 0;
  /** The pack the next redemption presents: one that was refused stays ACTIVE and comes back. */
  let pending: { pack: CashPack; bearer: SigningKey; amount: bigint; refused: boolean } | undefined;

  for (const step of c.steps) {
    if (step.level !== undefined) {
      story.push(`the three provisioned again at level ${step.level}`);
      for (const who of REDEEMERS) {
        const answer = await send(ctx, 'operator', jsonRequest('POST', '/_control/operator/redeemers', { public_key: keys[who].jwk, identity_level: step.level }));
        if (answer.status === null || answer.status < 200 || answer.status > 299) {
          return { expected: 'a 2xx answer', actual: { status: answer.status, body: answer.body }, message: `${story.join(', then ')} (the ${who} key's)`, requirements: ['PRF-CTL-1'] };
        }
      }
      inForce = step.level;
      reprovisioned = true;
      creditThenProvisioned ||= creditedSinceProvisioning;
      creditedSinceProvisioning = false;
    }
    if (!step.redeem) continue;
    if (!pending) {
      const bearer = holder;
      const amount = amountOf(issued++);
      pending = { pack: await issuePack(ctx, { principal, policy }, bearer, now, { amount: amount.toString(), asset }), bearer, amount, refused: false };
    }
    // Signed by the redeemer under its exact kid; the redeemer_kid the bearer signs is, sometimes, that kid in other letters.
    const redeemer = keys[step.by];
    const named = step.recase === undefined ? redeemer : { ...redeemer, jwk: { ...redeemer.jwk, kid: recased(redeemer.jwk.kid, step.recase) } };
    const asked = redemption(pending.pack, pending.bearer, named, now);
    const text = JSON.stringify({ cash_pack: pending.pack, redemption: asked });
    const answer = await send(ctx, 'operator', redeemRequest(ctx, text, redeemer, Math.floor(now / 1000)));
    const granted = inForce >= required && step.recase === undefined;
    const expected = granted ? 200 : 'REDEEMER_NOT_IDENTIFIED';
    const seen = answerOf(answer);
    story.push(`a redemption by the ${step.by === 'fresh' ? 'fresh redeemer' : step.by === 'principal' ? "issuing Principal's key" : "packs' holder itself"} of ${pending.refused ? 'the pack refused before' : `a fresh pack of ${pending.amount}`} at level ${inForce}${step.recase === undefined ? '' : `, naming as redeemer_kid ${named.jwk.kid}, the redeemer's kid ${redeemer.jwk.kid} with letters in another case (PROFILE.md §2.1, §5 redeem step 9)`}`);
    if (seen !== expected) {
      // A pack refused before and now not ACTIVE: the refusal changed it (PROFILE.md §5: a failed request changes nothing).
      const refusalChangedIt = pending.refused && seen === 'INSTRUMENT_NOT_ACTIVE';
      // A key that is also the Principal's or the holder's, judged otherwise than the fresh redeemer is at the same level: the level rule
      // decided by another role, the identity rule's whatever provisioning set the level. Told apart by a pack of 1 the fresh key redeems now.
      const byRole = !refusalChangedIt && step.by !== 'fresh' && step.recase === undefined && (await freshJudged(ctx, { principal, policy, asset, holder, fresh: keys.fresh, now })) === expected;
      return {
        expected: granted ? 200 : { status: PROBLEM_STATUS.REDEEMER_NOT_IDENTIFIED, problem: 'REDEEMER_NOT_IDENTIFIED' },
        actual: { status: answer.status, body: answer.body },
        message: `${story.join(', then ')}${byRole ? ` (the fresh redeemer, at the same level, then redeemed a pack of 1 ${granted ? 'granted' : 'refused'}, as due)` : ''}`,
        requirements: refusalChangedIt ? ['PRF-ORDER-1'] : byRole ? ['CPP-IDN-1', 'PRF-IDN-1'] : step.recase !== undefined && inForce >= required ? ['CPP-IDN-1'] : chargedFor(reprovisioned),
      };
    }
    if (granted) {
      // The Redemption Confirmation describes this redemption (PROFILE.md §4.6): its ids from this request, the pack's
      // own funds, not what the redeemer was credited before.
      const confirmation = answer.body as Record<string, unknown> | undefined;
      const released = { pack_id: pending.pack.pack_id, redemption_id: asked.redemption_id, redeemer_kid: asked.redeemer_kid, amount: pending.pack.amount, asset: pending.pack.asset };
      const stated = Object.fromEntries(Object.keys(released).map((name) => [name, confirmation?.[name]]));
      if (!isDeepStrictEqual(stated, released)) return { expected: released, actual: stated, message: `${story.join(', then ')}: the Redemption Confirmation's ids (from the request) and amount and asset (the funds released)`, requirements: ['CPP-RED-1'] };
      // The pack was never renewed: its final digest is the one it was issued with.
      if (confirmation?.['chain_digest'] !== pending.pack.chain_digest) return { expected: pending.pack.chain_digest, actual: confirmation?.['chain_digest'] ?? null, message: `${story.join(', then ')}: the Redemption Confirmation's chain_digest (the pack's final digest)`, requirements: ['CPP-CHN-1'] };
      if (!verifyConfirmation(confirmation as unknown as RedemptionConfirmation, await operatorKey(ctx))) return { expected: "a signature valid under the Operator's well-known key", actual: 'does not verify', message: `${story.join(', then ')}: the Redemption Confirmation's signature`, requirements: ['CPP-RED-1'] };
      credited[step.by] += pending.amount;
      creditedSinceProvisioning = true;
      pending = undefined;
    } else pending.refused = true;
  }

  if (!ctx.target.capabilities('operator').has('balance')) return undefined;
  for (const who of REDEEMERS) {
    const failure = await balanceDefect(ctx, keys[who], asset, credited[who], `${story.join(', then ')}: the ${who === 'fresh' ? 'fresh redeemer' : who === 'principal' ? "issuing Principal's key" : "packs' holder"}'s balance as a redeemer`, creditThenProvisioned);
    if (failure) return failure;
  }
  return undefined;
}

/** How the Operator answers the fresh redeemer's redemption of a new pack of 1 issued to the holder: 200 or the problem's code. */
async function freshJudged(ctx: ScenarioContext, parties: { principal: SigningKey; policy: Policy; asset: Policy['assets'][number]; holder: SigningKey; fresh: SigningKey; now: number }): Promise<unknown> {
  const { principal, policy, asset, holder, fresh, now } = parties;
  const pack = await issuePack(ctx, { principal, policy }, holder, now, { amount: '1', asset });
  const text = JSON.stringify({ cash_pack: pack, redemption: redemption(pack, holder, fresh, now) });
  return answerOf(await send(ctx, 'operator', redeemRequest(ctx, text, fresh, Math.floor(now / 1000))));
}

/** A redeemer's balance other than `credited` in the packs' `asset` (none in another), read through test control. */
async function balanceDefect(ctx: ScenarioContext, redeemer: SigningKey, asset: unknown, credited: bigint, what: string, creditThenProvisioned: boolean): Promise<PropertyFailure | undefined> {
  // A redeemer's balance is { asset, available }, "0" allowed (PROFILE.md §12): one never credited too, whatever its story.
  const answer = await send(ctx, 'operator', { method: 'GET', path: balancePath('redeemer', redeemer.jwk.kid) });
  if (answer.status !== 200) return { expected: { status: 200, available: credited.toString() }, actual: { status: answer.status, body: answer.body ?? answer.text.slice(0, 300) }, message: `${what} (PROFILE.md §12: { asset, available }, "0" allowed)${credited === 0n ? ', a redeemer credited nothing yet' : ''}`, requirements: ['PRF-CTL-1'] };
  const read = answer.body as Record<string, unknown> | undefined;
  // The read names one asset (PROFILE.md §12): the packs' own holds what was released, any other asset none of it.
  const inPackAsset = canonicalJson(read?.['asset'] ?? null) === canonicalJson(asset);
  const due = inPackAsset ? credited.toString() : '0';
  if (read?.['available'] === due) return undefined;
  return {
    expected: { asset: inPackAsset ? asset : read?.['asset'], available: due },
    actual: read ?? null,
    message: what,
    // Funds in another asset than the packs' were credited so by a redemption (a provisioning names no asset); a credit lost in the packs' own asset after a provisioning is test control's.
    requirements: creditThenProvisioned && inPackAsset ? ['PRF-CTL-1'] : ['CPP-RED-1'],
  };
}

export const OPERATOR_IDENTITY = define<Case>({
  id: 'PROP-OP-018',
  title: "a redeemer's identity level decides each redemption as it stands, through any sequence of provisionings up, down and the same, whether its key is also the issuing Principal's or the pack's holder's; a refused pack stays ACTIVE; the funds released to each redeemer stay",
  requirements: ['PRF-IDN-1', 'CPP-IDN-1', 'PRF-CTL-1', 'PRF-ORDER-1', 'CPP-RED-1', 'CPP-CHN-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['§5.2', '§7.1', 'PROFILE §5', 'PROFILE §12'],
  needs: ['provision'],
  // Messages are dated on a frozen clock under a tight policy.
  shares: 'clock-if-tight-policy',
  defaultRuns: 8,
  file: FILE,
  arbitrary: () => cases,
  check: async (ctx, c) => judgeCase(ctx, await policyOnItsClock(ctx), c),
  teardown: (ctx) => restoreClock(ctx, 'operator'),
});
