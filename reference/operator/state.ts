// The Operator's state (spec §1.2, §3.2): registered accounts, packs with their
// status, balances and the replay store. Only the endpoint, expiry and control
// modules change it, always synchronously (see router.ts on atomicity).
import { canonicalJson } from '../../profile/index.ts';
import type { AssetDescriptor, CashPack, PackStatusValue } from '../../profile/cashpack/index.ts';
import type { Faults } from '../mutants.ts';
import { ReplayStore } from './replay.ts';

/** An identified account holder whose funds are locked on issue (spec §1.2). */
export interface PrincipalAccount {
  readonly kid: string;
  readonly publicKey: Uint8Array;
  /** The account's one asset: in any other asset its available balance is zero. */
  asset: AssetDescriptor;
  available: bigint;
  locked: bigint;
  held: bigint;
  /** ACTIVE packs of this Principal, so that expiry on a balance read visits only these. */
  readonly activePacks: Set<string>;
}

/** An identified redeemer (spec §5.2) with its identity level (PROFILE.md §4.8). */
export interface RedeemerAccount {
  readonly kid: string;
  readonly publicKey: Uint8Array;
  identity_level: number;
  /** Released funds per asset (keyed by assetKey). */
  readonly credits: Map<string, { readonly asset: AssetDescriptor; available: bigint }>;
}

export interface PackRecord {
  /** The current signed pack, deeply frozen. */
  pack: CashPack;
  status: PackStatusValue;
  readonly principalKid: string;
  readonly amount: bigint;
  readonly expiryMs: number;
  updatedAtMs: number;
  /** Set only under the op-status-open-to-redeemer fault: the redeemer the pack was released to. */
  redeemerKid?: string;
}

export class OperatorState {
  readonly principals = new Map<string, PrincipalAccount>();
  readonly redeemers = new Map<string, RedeemerAccount>();
  /** Keys that act as the Operator for status reads (PROFILE.md §12). */
  readonly staff = new Map<string, Uint8Array>();
  readonly packs = new Map<string, PackRecord>();
  readonly replay: ReplayStore;
  /** Set only under the op-redeemer-credited-in-first-asset fault: the one asset redeemers are credited in. */
  settlementAsset: AssetDescriptor | undefined;

  /** @param faults the fault switched on, if any (reference/mutants.ts); the transitions consult it */
  constructor(requestWindowSeconds: number, readonly faults: Faults) {
    // PROFILE.md §6: ids are remembered for twice the freshness window.
    // Mutant op-replay-store-one-window: ids forgotten after one window, not two (PROFILE.md §6).
    this.replay = new ReplayStore((faults.has('op-replay-store-one-window') ? 1 : 2) * requestWindowSeconds * 1000, faults);
  }

  /** Any registered account key, for caller authentication (PROFILE.md §2.4). */
  accountKey(kid: string): Uint8Array | undefined {
    return this.principals.get(kid)?.publicKey ?? this.staff.get(kid) ?? this.redeemers.get(kid)?.publicKey;
  }
}

/** Two descriptors name the same asset exactly when their JCS forms are equal. */
export function assetKey(asset: AssetDescriptor): string {
  return canonicalJson(asset);
}
