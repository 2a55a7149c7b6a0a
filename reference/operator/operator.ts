// The reference Operator (spec §1.2): issues, countersigns, renews and redeems
// cash-packs over the endpoints of spec §4.2 and §4.3, with the test-control
// interface of PROFILE.md §12.
import type { OkpJwk } from '../../profile/index.ts';
import type { AssetDescriptor, PackStatus, PolicyDocument, PubkeyDocument } from '../../profile/cashpack/index.ts';
import type { Clock } from '../clock.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import { failure, success, type OperatorContext, type Outcome } from './context.ts';
import { cancelPack, principalBalance, redeemerBalance, type Cancelled, type PrincipalBalance, type RedeemerBalance } from './control.ts';
import { createOperatorKeys, pubkeyDocument } from './keys.ts';
import { policyDocument, resolvePolicy, type Policy } from './policy.ts';
import {
  provisionPrincipal,
  provisionRedeemer,
  provisionStaff,
  type PrincipalProvision,
  type Provisioned,
  type RedeemerProvision,
  type StaffProvision,
} from './provision.ts';
import { handlesPath, route } from './router.ts';
import { OperatorState } from './state.ts';
import { readStatus } from './status.ts';

export interface OperatorOptions {
  /** The one shared clock (PROFILE.md §12). */
  readonly clock: Clock;
  /** Overrides of DEFAULT_POLICY; the result must be a valid Policy Document. */
  readonly policy?: Partial<Policy>;
  /** 32-byte seed of the signing key; random when absent. */
  readonly signingSeed?: Uint8Array;
  /** Serve /_control/operator/ (default true). */
  readonly control?: boolean;
}

export interface Operator {
  /** Synchronous: see router.ts on atomicity. */
  readonly handler: (request: RefRequest) => RefResponse;
  readonly policy: Policy;
  readonly publicKey: Uint8Array;
  readonly jwk: OkpJwk;
  /** True for the paths this Operator answers (a composite server delegates on it). */
  handles(path: string): boolean;
  policyDocument(): PolicyDocument;
  pubkeyDocument(): PubkeyDocument;
  provisionPrincipal(input: PrincipalProvision): Outcome<Provisioned>;
  provisionRedeemer(input: RedeemerProvision): Outcome<Provisioned>;
  provisionStaff(input: StaffProvision): Outcome<Provisioned>;
  cancel(packId: string): Outcome<Cancelled>;
  /** A Principal's balance, after applying expiry. */
  balance(kid: string): Outcome<PrincipalBalance>;
  redeemerBalance(kid: string, asset?: AssetDescriptor): Outcome<RedeemerBalance>;
  /** A pack's status without caller authentication, after applying expiry. */
  packStatus(packId: string): Outcome<PackStatus>;
  /** Ids currently remembered by the replay store (PROFILE.md §6: bounded). */
  replayStoreSize(): number;
}

export function createOperator(options: OperatorOptions): Operator {
  const keys = createOperatorKeys(options.signingSeed);
  const policy = resolvePolicy(options.policy, keys.jwk.kid);
  const ctx: OperatorContext = { clock: options.clock, policy, keys, state: new OperatorState(policy.request_window_seconds) };
  const routing = { control: options.control ?? true };
  return {
    handler: (request) => route(ctx, request, routing),
    policy,
    publicKey: keys.publicKey,
    jwk: keys.jwk,
    handles: handlesPath,
    policyDocument: () => policyDocument(policy, keys.jwk.kid),
    pubkeyDocument: () => pubkeyDocument(keys),
    provisionPrincipal: (input) => provisionPrincipal(ctx, input),
    provisionRedeemer: (input) => provisionRedeemer(ctx, input),
    provisionStaff: (input) => provisionStaff(ctx, input),
    cancel: (packId) => cancelPack(ctx, packId),
    balance: (kid) => principalBalance(ctx, kid),
    redeemerBalance: (kid, asset) => redeemerBalance(ctx, kid, asset),
    packStatus: (packId) => {
      const found = readStatus(ctx, packId);
      return found ? success(found) : failure('NOT_FOUND', 'unknown pack_id');
    },
    replayStoreSize: () => ctx.state.replay.size,
  };
}
