// Client-side cash-pack messages (PROFILE.md §2–§4): what a Principal, a bearer or
// a harness builds and checks. The Operator's side lives in reference/operator/.
import { decodeB64urlFixed } from '../b64url.ts';
import { chainDigests, digestText, type ChainLink } from '../chain.ts';
import { generateKeyPair } from '../ed25519.ts';
import { publicJwk, readJwk, type OkpJwk } from '../jwk.ts';
import { signObject, verifyObject } from '../signing.ts';
import { formatTimestamp } from '../time.ts';
import { newUuid } from '../uuid.ts';
import type {
  AssetDescriptor,
  CashPack,
  LockRequest,
  PubkeyDocument,
  RedemptionConfirmation,
  RedemptionRequest,
  RenewalEntry,
} from './types.ts';

/** An Ed25519 key pair with its profile JWK (PROFILE.md §2.1). */
export type SigningKey = {
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly jwk: OkpJwk;
};

/** What a builder needs to sign: the secret key and the JWK it names. */
type Signer = Pick<SigningKey, 'secretKey' | 'jwk'>;

/** A cash-pack timestamp (text) or milliseconds since the epoch (truncated to whole seconds). */
type TimeInput = string | number;

export function createSigningKey(seed?: Uint8Array): SigningKey {
  const pair = generateKeyPair(seed);
  return { ...pair, jwk: publicJwk(pair.publicKey) };
}

function stamp(time: TimeInput): string {
  return typeof time === 'string' ? time : formatTimestamp(time, 'cashpack');
}

export interface LockRequestInput {
  readonly principal: Signer;
  readonly request_id?: string;
  readonly amount: string | bigint;
  readonly asset: AssetDescriptor;
  readonly initialBearer: OkpJwk;
  readonly requested_expiry: TimeInput;
  readonly created_at: TimeInput;
}

/** PROFILE.md §4.2: a Lock Request signed by the Principal (tag lock-request). */
export function buildLockRequest(input: LockRequestInput): LockRequest {
  const unsigned = {
    request_id: input.request_id ?? newUuid(),
    principal_pk: input.principal.jwk,
    amount: String(input.amount),
    asset: input.asset,
    initial_bearer_pk: input.initialBearer,
    requested_expiry: stamp(input.requested_expiry),
    created_at: stamp(input.created_at),
  };
  return signObject('lock-request', unsigned, input.principal.secretKey);
}

export interface RenewalInput {
  readonly bearer: Signer;
  readonly pack: CashPack;
  readonly new_bearer: OkpJwk;
  readonly renewal_id?: string;
  /** Defaults to the pack's `chain_digest`. */
  readonly prev_chain_digest?: string;
  /** Defaults to the pack's `pack_id`. */
  readonly pack_id?: string;
  readonly created_at: TimeInput;
}

/** PROFILE.md §4.4: a Renewal Entry signed by the current bearer (tag renewal-entry). */
export function buildRenewal(input: RenewalInput): RenewalEntry {
  const unsigned = {
    renewal_id: input.renewal_id ?? newUuid(),
    pack_id: input.pack_id ?? input.pack.pack_id,
    prev_chain_digest: input.prev_chain_digest ?? input.pack.chain_digest,
    bearer_pk: input.bearer.jwk,
    new_bearer_pk: input.new_bearer,
    created_at: stamp(input.created_at),
  };
  return signObject('renewal-entry', unsigned, input.bearer.secretKey);
}

export interface RedemptionInput {
  readonly bearer: Signer;
  readonly pack: CashPack;
  readonly redeemer_kid: string;
  readonly redemption_id?: string;
  /** Defaults to the pack's `pack_id`. */
  readonly pack_id?: string;
  readonly created_at: TimeInput;
}

/** PROFILE.md §4.5: a Redemption Request signed by the current bearer (tag redemption-request). */
export function buildRedemption(input: RedemptionInput): RedemptionRequest {
  const unsigned = {
    redemption_id: input.redemption_id ?? newUuid(),
    pack_id: input.pack_id ?? input.pack.pack_id,
    bearer_pk: input.bearer.jwk,
    redeemer_kid: input.redeemer_kid,
    created_at: stamp(input.created_at),
  };
  return signObject('redemption-request', unsigned, input.bearer.secretKey);
}

/**
 * PROFILE.md §3: the chain digest recomputed from `pack_id`, `initial_bearer_pk`
 * and `renewal_chain` alone. Throws TypeError when a field cannot be decoded.
 */
export function recomputeChainDigest(pack: Pick<CashPack, 'pack_id' | 'initial_bearer_pk' | 'renewal_chain'>): string {
  const links: ChainLink[] = pack.renewal_chain.map((entry, i) => ({
    renewal_id: entry.renewal_id,
    new_bearer_key: keyBytes(entry.new_bearer_pk, `renewal_chain[${i}].new_bearer_pk`),
    signature: bytes(decodeB64urlFixed(entry.signature, 64), `renewal_chain[${i}].signature`),
  }));
  return digestText(chainDigests(pack.pack_id, keyBytes(pack.initial_bearer_pk, 'initial_bearer_pk'), links).at(-1)!);
}

/** PROFILE.md §2.2–2.3: the Operator's signature over the cash-pack (tag cash-pack). */
export function verifyCashPack(pack: CashPack, operatorKey: Uint8Array | OkpJwk): boolean {
  const key = rawKey(operatorKey);
  return key !== undefined && verifyObject('cash-pack', pack, key);
}

/** PROFILE.md §2.2–2.3: the Operator's signature over a Redemption Confirmation (tag redemption-confirmation). */
export function verifyConfirmation(confirmation: RedemptionConfirmation, operatorKey: Uint8Array | OkpJwk): boolean {
  const key = rawKey(operatorKey);
  return key !== undefined && verifyObject('redemption-confirmation', confirmation, key);
}

/** The raw key of a pubkey document (PROFILE.md §4.8), or undefined when it is not one. */
export function operatorKeyOf(document: PubkeyDocument): Uint8Array | undefined {
  const key = readJwk(document.keys[0], ['use', 'alg']);
  return key.ok ? key.publicKey : undefined;
}

function rawKey(key: Uint8Array | OkpJwk): Uint8Array | undefined {
  if (key instanceof Uint8Array) return key;
  const jwk = readJwk(key);
  return jwk.ok ? jwk.publicKey : undefined;
}

function keyBytes(jwk: OkpJwk, where: string): Uint8Array {
  return bytes(decodeB64urlFixed(jwk.x, 32), `${where}.x`);
}

function bytes(value: Uint8Array | undefined, where: string): Uint8Array {
  if (!value) throw new TypeError(`${where} is not strict base64url of the expected length`);
  return value;
}
