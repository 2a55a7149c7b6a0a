// The fuzzer's commands as data: a CommandSpec is plain JSON, so a crash file
// can carry it and `replay` can run it again. Choices that depend on the state
// (which pack, which amount, how far to move the clock) stay symbolic here and
// are resolved when the command runs (choices.ts).

/** An amount near the policy's and the balance's bounds (PROFILE.md §5 issue steps 7 and 9). */
export type AmountChoice = { readonly small: number } | 'available' | 'available+1' | 'max' | 'max+1';
/** A lifetime near the policy's bounds (issue step 8); `typical` is one hour, kept within them. */
export type ExpiryChoice = 'typical' | 'min' | 'min-1' | 'max' | 'max+1' | { readonly permille: number };
/** How far the clock moves: seconds, to just before or at a pack's expiry, past the freshness window, past every expiry. */
export type AdvanceChoice = { readonly seconds: number } | { readonly toExpiryOf: number; readonly delta: -1 | 0 } | 'window+1' | 'past-max-expiry';
/** Who signs a renewal or redemption: the current bearer, or the one before it (a key that never held the pack on a fresh pack). */
export type Holder = 'bearer' | 'previous-bearer';
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

export type CommandSpec =
  | { readonly kind: 'issue'; readonly amount: AmountChoice; readonly expiry: ExpiryChoice; readonly signer: 'principal' | 'outsider'; readonly dated?: DatingChoice }
  | { readonly kind: 'renew'; readonly pack: number; readonly by: Holder; readonly digest: 'current' | 'stale'; readonly present: 'known' | 'first'; readonly reuseId?: number; readonly dated?: DatingChoice }
  | { readonly kind: 'renew-to-limit'; readonly pack: number }
  | { readonly kind: 'redeem'; readonly pack: number; readonly by: Holder; readonly identity: Identity; readonly reuseId?: number; readonly dated?: DatingChoice }
  | { readonly kind: 'status'; readonly pack: number | 'unknown'; readonly caller: Caller }
  | { readonly kind: 'advance'; readonly by: AdvanceChoice }
  | { readonly kind: 'cancel'; readonly pack: number | 'unknown' }
  | { readonly kind: 'replay'; readonly message: number }
  | { readonly kind: 'burst'; readonly pack: number; readonly op: 'redeem' | 'renew' | 'issue'; readonly copies: number }
  | { readonly kind: 'interleave'; readonly pack: number; readonly ops: readonly InterleaveOp[]; readonly order?: readonly number[] };

export type CommandKind = CommandSpec['kind'];
export const COMMAND_KINDS: readonly CommandKind[] = ['issue', 'renew', 'renew-to-limit', 'redeem', 'status', 'advance', 'cancel', 'replay', 'burst', 'interleave'];

/** Readable form, as fast-check prints a counterexample and the crash file lists it (any role's command: its kind, then its choices). */
export function describe(spec: { readonly kind: string }): string {
  const { kind, ...rest } = spec;
  const args = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return `${kind}(${args.join(', ')})`;
}
