// The reference Operator (spec §1.2): issues, countersigns, renews and redeems
// cash-packs over the endpoints of spec §4.2 and §4.3, with the test-control
// interface of PROFILE.md §12.
import { newUuid, seededUuid, type OkpJwk } from '../../profile/index.ts';
import type { AssetDescriptor, PackStatus, PolicyDocument, PubkeyDocument } from '../../profile/cashpack/index.ts';
import type { Clock } from '../clock.ts';
import type { Handler, RefRequest, RefResponse } from '../http/types.ts';
import { NO_FAULTS, type Faults } from '../mutants.ts';
import { failure, success, type OperatorContext, type Attempt } from './context.ts';
import { cancelPack, principalBalance, redeemerBalance, type Cancelled, type PrincipalBalance, type RedeemerBalance } from './control.ts';
import { createOperatorKeys, pubkeyDocument } from './keys.ts';
import { DEFAULT_POLICY, policyDocument, resolvePolicy, type Policy } from './policy.ts';
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
import { redeemNonAtomic } from './redeem.ts';
import { issueNonAtomic } from './issue.ts';
import { readStatus } from './status.ts';
import { faultyOperator, OPERATOR_FAULTS } from '../faults/operator.ts';

export interface OperatorOptions {
  /** The one shared clock (PROFILE.md §12). */
  readonly clock: Clock;
  /** Overrides of DEFAULT_POLICY; the result must be a valid Policy Document. */
  readonly policy?: Partial<Policy>;
  /** 32-byte seed of the signing key; random when absent. */
  readonly signingSeed?: Uint8Array;
  /**
   * Pack ids derived from this seed and the signed Lock Request (seededUuid)
   * instead of random: the same requests get the same answers, in any order. The
   * signature, not request_id alone: a request_id the Operator has forgotten
   * (PROFILE.md §6) may come back in a new Lock Request, which needs a new id.
   */
  readonly idSeed?: Uint8Array;
  /** Serve /_control/operator/ (default true). */
  readonly control?: boolean;
  /** A fault to switch on (reference/mutants.ts); default NO_FAULTS, the correct Operator. */
  readonly faults?: Faults;
}

export interface Operator {
  /** Synchronous: see router.ts on atomicity. */
  readonly handler: (request: RefRequest) => RefResponse;
  /**
   * What a server calls: `handler` itself, except under the mutants
   * op-redeem-non-atomic and op-issue-non-atomic, whose redemptions or issues
   * answer asynchronously, and the Operator's fuzzer mutants (reference/faults/).
   */
  readonly serve: Handler;
  readonly policy: Policy;
  readonly publicKey: Uint8Array;
  readonly jwk: OkpJwk;
  /** True for the paths this Operator answers (a composite server delegates on it). */
  handles(path: string): boolean;
  policyDocument(): PolicyDocument;
  pubkeyDocument(): PubkeyDocument;
  provisionPrincipal(input: PrincipalProvision): Attempt<Provisioned>;
  provisionRedeemer(input: RedeemerProvision): Attempt<Provisioned>;
  provisionStaff(input: StaffProvision): Attempt<Provisioned>;
  cancel(packId: string): Attempt<Cancelled>;
  /** A Principal's balance, after applying expiry. */
  balance(kid: string): Attempt<PrincipalBalance>;
  redeemerBalance(kid: string, asset?: AssetDescriptor): Attempt<RedeemerBalance>;
  /** A pack's status without caller authentication, after applying expiry. */
  packStatus(packId: string): Attempt<PackStatus>;
  /** Ids currently remembered by the replay store (PROFILE.md §6: bounded). */
  replayStoreSize(): number;
  /** How much the Operator holds: accounts and packs are kept for good, the replay store is bounded. */
  stateSize(): StateSize;
}

export interface StateSize {
  readonly principals: number;
  readonly redeemers: number;
  readonly packs: number;
  readonly replay: number;
}

/** The namespace of the op-pack-id-from-request-id fault's pack ids. */
// Stryker disable next-line StringLiteral: only the op-pack-id-from-request-id fault names pack ids in it
const PACK_ID_NAMESPACE = new TextEncoder().encode('pack');

export function createOperator(options: OperatorOptions): Operator {
  const keys = createOperatorKeys(options.signingSeed);
  const policy = resolvePolicy(options.policy, keys.jwk.kid);
  const faults = options.faults ?? NO_FAULTS;
  const idSeed = options.idSeed;
  // Mutant op-replay-retention-fixed: the replay store sized from the default window, whatever the policy publishes.
  // Stryker disable next-line all: only the op-replay-retention-fixed fault reads the default window
  const window = faults.has('op-replay-retention-fixed') ? DEFAULT_POLICY.request_window_seconds : policy.request_window_seconds;
  const ctx: OperatorContext = {
    clock: options.clock,
    policy,
    keys,
    state: new OperatorState(window, faults),
    faults,
    // Mutant op-pack-id-from-request-id: the pack id a name-based UUID of the request_id alone, so a request_id used again once forgotten issues a pack under the first one's id.
    // Stryker disable next-line all: only the op-pack-id-from-request-id fault names a pack after its request_id
    newPackId: faults.has('op-pack-id-from-request-id') ? (lock) => seededUuid(PACK_ID_NAMESPACE, lock.request_id) : idSeed ? (lock) => seededUuid(idSeed, `${lock.request_id}\n${lock.signature}`) : () => newUuid(),
  };
  // Stryker disable next-line all: only the op-redeemer-credited-in-first-asset fault sets it
  if (faults.has('op-redeemer-credited-in-first-asset')) ctx.state.settlementAsset = policy.assets[0];
  const routing = { control: options.control ?? true };
  const routed = (request: RefRequest) => route(ctx, request, routing);
  // Mutant op-duplicate-id-status-400: a hand-written status table that gets DUPLICATE_ID wrong.
  const handler = faults.has('op-duplicate-id-status-400') ? (request: RefRequest) => duplicateIdAs400(routed(request)) : routed;
  return {
    handler,
    // Mutants op-redeem-non-atomic and op-issue-non-atomic: redemptions, or issues, leave the synchronous path.
    // The Operator's fuzzer mutants: endpoints written again with one mistake (reference/faults/operator.ts).
    serve:
      faults.hasAny(OPERATOR_FAULTS) ? faultyOperator(ctx, handler)
      : faults.has('op-redeem-non-atomic') ? (request) => (isPost(request, '/v1/cashpack/redeem') ? redeemNonAtomic(ctx, request) : handler(request))
      : faults.has('op-issue-non-atomic') ? (request) => (isPost(request, '/v1/cashpack/issue') ? issueNonAtomic(ctx, request) : handler(request))
      : handler,
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
    stateSize: () => ({ principals: ctx.state.principals.size, redeemers: ctx.state.redeemers.size, packs: ctx.state.packs.size, replay: ctx.state.replay.size }),
  };
}

// Stryker disable all: only the op-duplicate-id-status-400 fault calls this function, and only the non-atomic faults the next
function duplicateIdAs400(response: RefResponse): RefResponse {
  const body = response.body as { code?: unknown } | undefined;
  return body?.code === 'DUPLICATE_ID' ? { ...response, status: 400, body: { ...body, status: 400 } } : response;
}

function isPost(request: RefRequest, path: string): boolean {
  return request.method === 'POST' && request.path === path;
}
// Stryker restore all
