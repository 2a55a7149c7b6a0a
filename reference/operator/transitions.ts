// Funds and status transitions (spec §1.2, §3.2): "locked on issue; released on
// redemption; returned to the Principal on expiry; held pending instruction on
// cancellation". REDEEMED, EXPIRED and CANCELLED are terminal.
import type { AssetDescriptor } from '../../profile/cashpack/index.ts';
import { assetKey, type OperatorState, type PackRecord, type PrincipalAccount, type RedeemerAccount } from './state.ts';

type Ending =
  | { readonly status: 'REDEEMED'; readonly redeemer: RedeemerAccount }
  | { readonly status: 'EXPIRED' }
  | { readonly status: 'CANCELLED' };

type EndingOf<S extends Ending['status']> = Extract<Ending, { readonly status: S }>;

/** Where the locked amount goes when a pack ends (spec §1.2). */
const RELEASE_FUNDS: { readonly [S in Ending['status']]: (principal: PrincipalAccount, amount: bigint, ending: EndingOf<S>, record: PackRecord, state: OperatorState) => void } = {
  // Mutant op-redeemer-credited-in-first-asset: a redeemer's account kept in one settlement asset, the policy's first.
  REDEEMED: (_principal, amount, ending, record, state) => credit(ending.redeemer, state.settlementAsset ?? record.pack.asset, amount),
  EXPIRED: (principal, amount, _ending, _record, state) => {
    if (state.faults.has('op-expiry-funds-kept')) principal.locked += amount; // mutant: the amount stays locked
    else principal.available += amount;
  },
  CANCELLED: (principal, amount, _ending, _record, state) => {
    if (state.faults.has('op-cancel-releases-funds')) principal.available += amount; // mutant: released, not held
    else principal.held += amount;
  },
};

/** Spec §1.2 "locked on issue": a new ACTIVE pack. The caller has checked available ≥ amount (PROFILE.md §5 issue step 9). */
export function openPack(state: OperatorState, principal: PrincipalAccount, record: PackRecord): void {
  // Stryker disable next-line ConditionalExpression: an invariant of the caller (issue.ts opens only a new ACTIVE record), never false in the reference
  if (record.status !== 'ACTIVE') throw new Error('a pack is issued ACTIVE');
  if (!state.faults.has('op-issue-locks-nothing')) principal.available -= record.amount; // mutant: available untouched
  principal.locked += record.amount;
  principal.activePacks.add(record.pack.pack_id);
  state.packs.set(record.pack.pack_id, record);
}

/** Ends an ACTIVE pack and moves its funds once. Ending a terminal pack is a defect of the caller. */
export function endPack(state: OperatorState, record: PackRecord, ending: Ending, atMs: number): void {
  // Stryker disable next-line ConditionalExpression: an invariant of the callers (each ends a pack it found ACTIVE in the same synchronous step), never false in the reference
  if (record.status !== 'ACTIVE') throw new Error(`pack ${record.pack.pack_id} is ${record.status}: terminal states never change`);
  const principal = state.principals.get(record.principalKid)!;
  principal.locked -= record.amount;
  principal.activePacks.delete(record.pack.pack_id);
  (RELEASE_FUNDS[ending.status] as (p: PrincipalAccount, a: bigint, e: Ending, r: PackRecord, s: OperatorState) => void)(principal, record.amount, ending, record, state);
  record.status = ending.status;
  record.updatedAtMs = atMs;
  // Mutant op-status-open-to-redeemer: the redeemer a pack was released to is remembered as a party to it (status.ts lets it read).
  // Stryker disable next-line all: only the op-status-open-to-redeemer fault remembers the redeemer
  if (state.faults.has('op-status-open-to-redeemer') && ending.status === 'REDEEMED') record.redeemerKid = ending.redeemer.kid;
}

/** Released funds reach the redeemer's account in that asset. */
export function credit(redeemer: RedeemerAccount, asset: AssetDescriptor, amount: bigint): void {
  const key = assetKey(asset);
  const account = redeemer.credits.get(key) ?? { asset, available: 0n };
  account.available += amount;
  redeemer.credits.set(key, account);
}
