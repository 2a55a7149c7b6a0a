// The cash-pack messages of PROFILE.md §4 (fields named by spec §2.7) as readonly
// types. They are type aliases, not interfaces, so that they are assignable to
// Record<string, unknown> for signing (profile/signing.ts).
import type { OkpJwk } from '../jwk.ts';

/** Spec §2.3, PROFILE.md §4.1. */
export type AssetType = 'fiat' | 'stablecoin' | 'crypto' | 'tokenized';

export type AssetDescriptor = {
  readonly type: AssetType;
  readonly code: string;
  readonly chain_id?: string;
};

/** Spec §3.2. */
const PACK_STATUSES = ['ACTIVE', 'REDEEMED', 'EXPIRED', 'CANCELLED'] as const;
export type PackStatusValue = (typeof PACK_STATUSES)[number];

/** PROFILE.md §4.2: body of POST /v1/cashpack/issue, signed by the Principal. */
export type LockRequest = {
  readonly request_id: string;
  readonly principal_pk: OkpJwk;
  readonly amount: string;
  readonly asset: AssetDescriptor;
  readonly initial_bearer_pk: OkpJwk;
  readonly requested_expiry: string;
  readonly created_at: string;
  readonly signature: string;
};

/** PROFILE.md §4.4: signed by the current bearer. */
export type RenewalEntry = {
  readonly renewal_id: string;
  readonly pack_id: string;
  readonly prev_chain_digest: string;
  readonly bearer_pk: OkpJwk;
  readonly new_bearer_pk: OkpJwk;
  readonly created_at: string;
  readonly signature: string;
};

/** PROFILE.md §4.3: signed by the Operator. */
export type CashPack = {
  readonly pack_id: string;
  readonly amount: string;
  readonly asset: AssetDescriptor;
  readonly issued_at: string;
  readonly expiry: string;
  readonly initial_bearer_pk: OkpJwk;
  readonly current_bearer_pk: OkpJwk;
  readonly renewal_chain: readonly RenewalEntry[];
  readonly chain_digest: string;
  readonly operator_kid: string;
  readonly signature: string;
};

/** PROFILE.md §4.4: body of POST /v1/cashpack/renew. */
export type RenewRequest = {
  readonly cash_pack: CashPack;
  readonly renewal: RenewalEntry;
};

/** PROFILE.md §4.5: signed by the current bearer. */
export type RedemptionRequest = {
  readonly redemption_id: string;
  readonly pack_id: string;
  readonly bearer_pk: OkpJwk;
  readonly redeemer_kid: string;
  readonly created_at: string;
  readonly signature: string;
};

/** PROFILE.md §4.5: body of POST /v1/cashpack/redeem. */
export type RedeemRequest = {
  readonly cash_pack: CashPack;
  readonly redemption: RedemptionRequest;
};

/** PROFILE.md §4.6: signed by the Operator. */
export type RedemptionConfirmation = {
  readonly pack_id: string;
  readonly redemption_id: string;
  readonly redeemer_kid: string;
  readonly amount: string;
  readonly asset: AssetDescriptor;
  readonly chain_digest: string;
  readonly redeemed_at: string;
  readonly operator_kid: string;
  readonly signature: string;
};

/** PROFILE.md §4.7. */
export type PackStatus = {
  readonly pack_id: string;
  readonly status: PackStatusValue;
  readonly amount: string;
  readonly asset: AssetDescriptor;
  readonly expiry: string;
  readonly chain_depth: number;
  readonly chain_digest: string;
  readonly updated_at: string;
};

/** PROFILE.md §4.8: /.well-known/cashpack-policy.json. */
export type PolicyDocument = {
  readonly profile: string;
  readonly operator_kid: string;
  readonly assets: readonly AssetDescriptor[];
  readonly max_amount: string;
  readonly max_chain_depth: number;
  readonly expiry_min_seconds: number;
  readonly expiry_max_seconds: number;
  readonly required_identity_level: number;
  readonly request_window_seconds: number;
  readonly max_body_bytes: number;
};

/** PROFILE.md §4.8: /.well-known/cashpack-pubkey.json, a JWK set with exactly one key. */
export type PubkeyDocument = {
  readonly keys: readonly [OkpJwk & { readonly use: 'sig'; readonly alg: 'EdDSA' }];
};

/** PROFILE.md §11. */
type ProblemDocument = {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: string;
  readonly detail?: string;
};

/** Every message kind that has a schema, with its type. */
export type MessageTypes = {
  readonly jwk: OkpJwk;
  readonly asset: AssetDescriptor;
  readonly 'lock-request': LockRequest;
  readonly 'cash-pack': CashPack;
  readonly 'renewal-entry': RenewalEntry;
  readonly 'renew-request': RenewRequest;
  readonly 'redemption-request': RedemptionRequest;
  readonly 'redeem-request': RedeemRequest;
  readonly 'redemption-confirmation': RedemptionConfirmation;
  readonly status: PackStatus;
  readonly policy: PolicyDocument;
  readonly pubkey: PubkeyDocument;
  readonly problem: ProblemDocument;
};

export type MessageKind = keyof MessageTypes;
