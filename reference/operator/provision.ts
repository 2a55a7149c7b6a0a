// Provisioning through the test-control interface (PROFILE.md §12): Principals
// (spec §1.2 identified account holders), redeemers with an identity level
// (PROFILE.md §4.8) and staff keys that act as the Operator for status reads.
import { isIdentityLevel } from '../../profile/control.ts';
import { isBalance, readJwk, type OkpJwk } from '../../profile/index.ts';
import { validateMessage, type AssetDescriptor } from '../../profile/cashpack/index.ts';
import { failure, success, type OperatorContext, type Attempt } from './context.ts';
import { assetKey } from './state.ts';
import { applyPrincipalExpiries } from './expiry.ts';

export interface PrincipalProvision {
  readonly public_key: OkpJwk;
  readonly asset: AssetDescriptor;
  /** An amount, or "0". */
  readonly balance: string;
}

export interface RedeemerProvision {
  readonly public_key: OkpJwk;
  /** 0 none, 1 contact verified, 2 identity document verified, 3 enhanced due diligence (PROFILE.md §4.8). */
  readonly identity_level: number;
}

export interface StaffProvision {
  readonly public_key: OkpJwk;
}

export interface Provisioned {
  readonly kid: string;
}

/** A member check returns what is wrong, or undefined. */
type MemberCheck = (value: unknown) => string | undefined;

const MEMBER_CHECKS = {
  public_key: (v) => {
    const jwk = readJwk(v);
    return jwk.ok ? undefined : jwk.reason;
  },
  asset: (v) => {
    const check = validateMessage('asset', v);
    return check.ok ? undefined : check.errors.join('; ');
  },
  balance: (v) => (isBalance(v) ? undefined : 'must be an amount or "0"'),
  identity_level: (v) => (isIdentityLevel(v) ? undefined : 'must be an integer 0..3'),
} satisfies Record<string, MemberCheck>;

type Member = keyof typeof MEMBER_CHECKS;

/** A closed object with exactly these members, each passing its check; else MALFORMED_REQUEST. */
function readMembers<T>(input: unknown, members: readonly Member[]): Attempt<T> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return failure('MALFORMED_REQUEST', 'the body must be a JSON object');
  const object = input as Record<string, unknown>;
  const problems = [
    ...Object.keys(object).filter((k) => !(members as readonly string[]).includes(k)).map((k) => `unknown member "${k}"`),
    ...members.flatMap((m) => {
      if (!Object.hasOwn(object, m)) return [`missing member "${m}"`];
      const wrong = MEMBER_CHECKS[m](object[m]);
      return wrong === undefined ? [] : [`${m}: ${wrong}`];
    }),
  ];
  return problems.length === 0 ? success(object as T) : failure('MALFORMED_REQUEST', problems.join('; '));
}

/**
 * POST /_control/operator/principals. Provisioning a known key again (PROFILE.md
 * §12) sets its available balance as the clock stands: the funds of packs that
 * expired before are back in it first (§5.1: as if at the expiry instant), then
 * replaced. Locked and held funds stay; the asset may change only while nothing
 * is locked or held.
 */
export function provisionPrincipal(ctx: OperatorContext, input: unknown): Attempt<Provisioned> {
  const read = readMembers<PrincipalProvision>(input, ['public_key', 'asset', 'balance']);
  if (!read.ok) return read;
  const { public_key, asset } = read.value;
  // Mutant ctl-principal-asset-held-to-policy: a Principal provisioned only in an asset the policy lists, where PROFILE.md §12 takes any AssetDescriptor.
  if (ctx.faults.has('ctl-principal-asset-held-to-policy') && !ctx.policy.assets.some((a) => assetKey(a) === assetKey(asset))) return failure('MALFORMED_REQUEST', 'the Operator offers no such asset');
  // Mutant op-balance-as-double: the balance read as a JavaScript number.
  const balance = ctx.faults.has('op-balance-as-double') ? BigInt(Number(read.value.balance)).toString() : read.value.balance;
  const known = ctx.state.principals.get(public_key.kid);
  if (known) {
    // Mutant ctl-reprovision-before-expiries: the account set first, the packs that expired since settled on top of it.
    const late = ctx.faults.has('ctl-reprovision-before-expiries');
    if (!late) applyPrincipalExpiries(ctx.state, known, ctx.clock.now());
    // Mutant ctl-reprovision-asset-change-ignores-held: the asset may change while funds are held, as long as nothing is locked.
    const bound = ctx.faults.has('ctl-reprovision-asset-change-ignores-held') ? known.locked : known.locked + known.held;
    if (assetKey(known.asset) !== assetKey(asset) && bound > 0n) {
      return failure('MALFORMED_REQUEST', 'the asset of a Principal with locked or held funds cannot change');
    }
    known.asset = structuredClone(asset);
    known.available = BigInt(balance);
    // Mutant ctl-reprovision-clears-held: provisioning again opens the account afresh, dropping the funds its cancelled packs hold.
    if (ctx.faults.has('ctl-reprovision-clears-held')) known.held = 0n;
    // Mutant ctl-reprovision-drops-running-packs: the account opened afresh forgets which of its packs run, so their expiries never bring funds back to it.
    if (ctx.faults.has('ctl-reprovision-drops-running-packs')) known.activePacks.clear();
    // Stryker disable next-line all: only the ctl-reprovision-before-expiries fault settles the expiries after the account is set
    if (late) applyPrincipalExpiries(ctx.state, known, ctx.clock.now());
  } else {
    ctx.state.principals.set(public_key.kid, {
      kid: public_key.kid,
      publicKey: keyBytes(public_key),
      asset: structuredClone(asset),
      available: BigInt(balance),
      locked: 0n,
      held: 0n,
      activePacks: new Set(),
    });
  }
  return success({ kid: public_key.kid });
}

/** POST /_control/operator/redeemers. Provisioning a known key again sets its identity level (PROFILE.md §12); its credits stay. */
export function provisionRedeemer(ctx: OperatorContext, input: unknown): Attempt<Provisioned> {
  const read = readMembers<RedeemerProvision>(input, ['public_key', 'identity_level']);
  if (!read.ok) return read;
  const { public_key, identity_level } = read.value;
  const known = ctx.state.redeemers.get(public_key.kid);
  // Mutant ctl-redeemer-level-kept: a redeemer provisioned again keeps the identity level it was first given.
  if (known) {
    known.identity_level = ctx.faults.has('ctl-redeemer-level-kept') ? known.identity_level : identity_level;
    // Mutant ctl-redeemer-credits-reset: provisioning a redeemer again opens its account afresh, dropping the funds released to it.
    if (ctx.faults.has('ctl-redeemer-credits-reset')) known.credits.clear();
  } else ctx.state.redeemers.set(public_key.kid, { kid: public_key.kid, publicKey: keyBytes(public_key), identity_level, credits: new Map() });
  return success({ kid: public_key.kid });
}

/** POST /_control/operator/staff: the key acts as the Operator for status reads. */
export function provisionStaff(ctx: OperatorContext, input: unknown): Attempt<Provisioned> {
  const read = readMembers<StaffProvision>(input, ['public_key']);
  if (!read.ok) return read;
  ctx.state.staff.set(read.value.public_key.kid, keyBytes(read.value.public_key));
  return success({ kid: read.value.public_key.kid });
}

function keyBytes(jwk: OkpJwk): Uint8Array {
  const read = readJwk(jwk);
  if (!read.ok) throw new TypeError(read.reason); // checked by readMembers
  return read.publicKey;
}
