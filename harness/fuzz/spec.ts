// The fuzzer's commands as data: a CommandSpec is plain JSON, so a crash file
// can carry it and `replay` can run it again. Choices that depend on the state
// (which pack, which amount, how far to move the clock) stay symbolic here and
// are resolved when the command runs (choices.ts).

/**
 * An amount (PROFILE.md §1, §5 issue steps 7 and 9): small; at the policy's and
 * the balance's bounds; a share of max_amount; or `delta` (−2..2) from a bound:
 * max_amount, the available balance, 2^53 (where binary floating point stops
 * being exact), 2^64 (where 64-bit integers end) or the largest amount there is
 * (78 nines). Kept between 1 and the largest amount.
 */
export type AmountChoice =
  | { readonly small: number }
  | 'available'
  | 'available+1'
  | 'max'
  | 'max+1'
  | { readonly permille: number }
  | { readonly near: AmountBound; readonly delta: number };
export type AmountBound = 'max' | 'available' | '2^53' | '2^64' | 'largest';
/** The asset of a Lock Request: one of the policy's (by index, modulo their number), or one it does not list. The Principal's own when absent. */
export type AssetChoice = { readonly policy: number } | 'unlisted';
/** A lifetime near the policy's bounds (issue step 8); `typical` is one hour, kept within them. */
export type ExpiryChoice = 'typical' | 'min' | 'min-1' | 'max' | 'max+1' | { readonly permille: number };
/**
 * How far the clock moves: seconds; to just before or at a pack's expiry; to
 * the last second an id must still be remembered (PROFILE.md §6: twice the
 * window after the message, by index among those sent, was received); past the
 * freshness window; past every expiry.
 */
export type AdvanceChoice = { readonly seconds: number } | { readonly toExpiryOf: number; readonly delta: -1 | 0 } | { readonly toRetentionOf: number } | 'window+1' | 'past-max-expiry';
/** Who signs a renewal or redemption: the current bearer, or the one before it (a key that never held the pack on a fresh pack). */
export type Holder = 'bearer' | 'previous-bearer';
/**
 * Which signed version of a pack a renewal or redemption presents: the last the
 * Operator returned, the first, or the n-th (modulo the versions there are).
 * The Operator judges everything but authenticity on its stored state
 * (PROFILE.md §5), so an earlier genuine version changes nothing.
 */
export type Presented = 'known' | 'first' | { readonly version: number };
/**
 * A presented version with one member changed (PROFILE.md §5 step 2): left with
 * the Operator's signature, which no longer verifies, or re-signed with a key
 * that is not the Operator's. The chain_digest is kept, so a verification cached
 * by digest is told from one made each time.
 */
export interface Tamper {
  readonly member: TamperedMember;
  readonly how: 'unsigned' | 'resigned';
}
export const TAMPERED_MEMBERS = ['amount', 'expiry', 'issued_at', 'current_bearer_pk', 'asset', 'pack_id', 'signature'] as const;
export type TamperedMember = (typeof TAMPERED_MEMBERS)[number];
/** The redeemer's HTTP identity (PROFILE.md §5 redeem step 9). */
export type Identity = 'identified' | 'unsigned' | 'low-level' | 'other-redeemer' | 'unregistered';
/** Who reads a status (PROFILE.md §5 status). */
export type Caller = 'principal' | 'stranger' | 'redeemer' | 'outsider' | 'unsigned';
export type InterleaveOp = 'redeem' | 'renew' | 'cancel' | 'status';
/**
 * When a signed message says it was created (PROFILE.md §6): at the Operator's
 * now when absent; anywhere in the freshness window, as a share of it (-1000 a
 * whole window early, 1000 a whole window late); or a second outside it. Rules
 * that must read the Operator's clock are told from ones reading created_at only
 * when the two differ.
 */
export type DatingChoice = { readonly permille: number } | 'stale-before' | 'stale-after';
/** An account provisioned again (PROFILE.md §12), and what changes: a Principal's available balance, a redeemer's identity level. */
type Reprovision = { readonly account: 'principal'; readonly balance: 'zero' | 'same' | BalanceLike } | { readonly account: 'redeemer' | 'redeemer2'; readonly level: number };
/** A balance as a run's setup chooses one (world.ts BalanceChoice). */
export type BalanceLike = 'twice-max' | 'max' | 'small' | { readonly digits: number };
/** One request of a mixed concurrent group (mix), built against the state before the group. */
export type MixOp =
  | { readonly op: 'issue'; readonly amount: AmountChoice }
  | { readonly op: 'renew'; readonly pack: number; readonly by: Holder }
  | { readonly op: 'redeem'; readonly pack: number; readonly by: Holder; readonly redeemer: 'redeemer' | 'redeemer2' }
  | { readonly op: 'cancel'; readonly pack: number }
  | { readonly op: 'status'; readonly pack: number };
/** Endpoints whose checks a breach breaks several of at once (ENDPOINT_RULES in model.ts). */
export type BreachEndpoint = 'issue' | 'renew' | 'redeem' | 'status';
/** The order of the lifetimes of packs issued together: the last issued expires first, the first does, or a shuffle. */
export type LifetimeOrder = 'descending' | 'ascending' | { readonly shuffle: number };

/**
 * `unread`: no balance is read after the command (PROFILE.md §12: reads change
 * nothing, so what the command did must show whether or not anyone looks).
 */
type Observed = { readonly unread?: true };

export type CommandSpec = Observed &
  (
    | { readonly kind: 'issue'; readonly amount: AmountChoice; readonly expiry: ExpiryChoice; readonly signer: 'principal' | 'outsider'; readonly asset?: AssetChoice; readonly dated?: DatingChoice }
    | { readonly kind: 'renew'; readonly pack: number; readonly by: Holder; readonly digest: 'current' | 'stale'; readonly present: Presented; readonly tamper?: Tamper; readonly reuseId?: number; readonly dated?: DatingChoice }
    | { readonly kind: 'renew-to-limit'; readonly pack: number }
    | { readonly kind: 'redeem'; readonly pack: number; readonly by: Holder; readonly identity: Identity; readonly present?: Presented; readonly tamper?: Tamper; readonly reuseId?: number; readonly dated?: DatingChoice; readonly signedAt?: DatingChoice }
    | { readonly kind: 'status'; readonly pack: number | 'unknown'; readonly caller: Caller; readonly signedAt?: DatingChoice }
    | { readonly kind: 'advance'; readonly by: AdvanceChoice }
    | { readonly kind: 'cancel'; readonly pack: number | 'unknown' }
    | { readonly kind: 'replay'; readonly message: number }
    | { readonly kind: 'burst'; readonly pack: number; readonly op: 'redeem' | 'renew' | 'issue'; readonly copies: number }
    | { readonly kind: 'interleave'; readonly pack: number; readonly ops: readonly InterleaveOp[]; readonly order?: readonly number[] }
    | { readonly kind: 'mix'; readonly ops: readonly MixOp[] }
    | { readonly kind: 'breach'; readonly endpoint: BreachEndpoint; readonly rules: readonly number[]; readonly pack: number }
    | ({ readonly kind: 'reprovision' } & Reprovision)
    | { readonly kind: 'observe' }
    | { readonly kind: 'issue-many'; readonly count: number; readonly lifetimes: LifetimeOrder }
    | { readonly kind: 'flood'; readonly count: number }
  );

export type CommandKind = CommandSpec['kind'];
export const COMMAND_KINDS: readonly CommandKind[] = ['issue', 'renew', 'renew-to-limit', 'redeem', 'status', 'advance', 'cancel', 'replay', 'burst', 'interleave', 'mix', 'breach', 'reprovision', 'observe', 'issue-many', 'flood'];

/** Readable form, as fast-check prints a counterexample and the crash file lists it (any role's command: its kind, then its choices). */
export function describe(spec: { readonly kind: string }): string {
  const { kind, ...rest } = spec;
  const args = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return `${kind}(${args.join(', ')})`;
}
