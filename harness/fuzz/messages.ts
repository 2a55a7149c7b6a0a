// Builds the signed requests a command sends (PROFILE.md §4) together with the
// message as the model reads it, so that what is predicted is exactly what is sent.
import { buildLockRequest, buildRedemption, buildRenewal, type AssetDescriptor, type CashPack, type LockRequest, type RedemptionRequest, type RenewalEntry } from '../../profile/cashpack/index.ts';
import type { WireRequest } from '../adapters/types.ts';
import { jsonRequest } from './client.ts';
import { assetKey, type IssueMessage, type RedeemMessage, type RenewMessage, type StatusQuery } from './model.ts';
import type { World } from './world.ts';
import { flipped } from '../../generators/cashpack/corruptions.ts';

export interface Built<M, W> {
  readonly message: M;
  readonly request: WireRequest;
  /** The signed message as it went on the wire. */
  readonly wire: W;
}

export const ISSUE_PATH = '/v1/cashpack/issue';
export const RENEW_PATH = '/v1/cashpack/renew';
export const REDEEM_PATH = '/v1/cashpack/redeem';

interface IssueInput {
  /** Key name of the signer of the Lock Request (the Principal, or a key nobody registered). */
  readonly signer: string;
  readonly bearer: string;
  readonly amount: bigint;
  readonly expiryMs: number;
  readonly id?: string;
  /** created_at, when not the Operator's now (PROFILE.md §6: anywhere within the window is fresh). */
  readonly createdMs?: number;
  /** The asset, when not the Principal's own. */
  readonly asset?: AssetDescriptor;
  /** A signature that does not verify: the first bit flipped (PROFILE.md §5 issue step 2). */
  readonly flip?: boolean;
}

export function buildIssue(w: World, nowMs: number, input: IssueInput): Built<IssueMessage, LockRequest> {
  const createdMs = input.createdMs ?? nowMs;
  const asset = input.asset ?? w.principalAsset;
  const signed = buildLockRequest({
    principal: w.key(input.signer),
    ...(input.id !== undefined ? { request_id: input.id } : {}),
    amount: input.amount,
    asset,
    initialBearer: w.jwk(input.bearer),
    requested_expiry: input.expiryMs,
    created_at: createdMs,
  });
  const lock = input.flip ? { ...signed, signature: flipped(signed.signature) } : signed;
  return {
    wire: lock,
    request: jsonRequest('POST', ISSUE_PATH, lock),
    message: {
      kind: 'issue',
      id: lock.request_id,
      principalKid: lock.principal_pk.kid,
      signatureValid: !input.flip,
      amount: input.amount,
      asset: assetKey(asset),
      initialBearer: lock.initial_bearer_pk.x,
      expiryMs: input.expiryMs,
      createdMs,
    },
  };
}

interface RenewInput {
  /** The signed version of the pack presented. */
  readonly pack: CashPack;
  readonly bearer: string;
  readonly newBearer: string;
  readonly prevDigest: string;
  readonly id?: string;
  readonly createdMs?: number;
  /** The presented version does not verify under the Operator's key (tampered, or signed by another key). */
  readonly tampered?: boolean;
  /** The entry's signature does not verify (renew step 4). */
  readonly flip?: boolean;
}

export function buildRenew(w: World, nowMs: number, input: RenewInput): Built<RenewMessage, RenewalEntry> {
  const createdMs = input.createdMs ?? nowMs;
  const signed = buildRenewal({
    bearer: w.key(input.bearer),
    pack: input.pack,
    new_bearer: w.jwk(input.newBearer),
    prev_chain_digest: input.prevDigest,
    ...(input.id !== undefined ? { renewal_id: input.id } : {}),
    created_at: createdMs,
  });
  const renewal = input.flip ? { ...signed, signature: flipped(signed.signature) } : signed;
  return {
    wire: renewal,
    request: { method: 'POST', path: RENEW_PATH, headers: { 'content-type': 'application/json' }, body: presentation(input.pack, 'renewal', renewal) },
    message: {
      kind: 'renew',
      id: renewal.renewal_id,
      packId: input.pack.pack_id,
      packAuthentic: !input.tampered,
      signatureValid: !input.flip,
      createdMs,
      bearer: renewal.bearer_pk.x,
      prevDigest: input.prevDigest,
      newBearer: renewal.new_bearer_pk.x,
      signature: renewal.signature,
    },
  };
}

interface RedeemInput {
  readonly pack: CashPack;
  readonly bearer: string;
  /** Key name of the redeemer named in redeemer_kid. */
  readonly redeemer: string;
  /** Key that signs at the HTTP layer, or false for none. */
  readonly identifyAs: string | false;
  readonly id?: string;
  readonly createdMs?: number;
  /** When the HTTP Message Signature says it was created, if not at the Operator's now. */
  readonly signedAtMs?: number;
  readonly tampered?: boolean;
  readonly flip?: boolean;
}

export function buildRedeem(w: World, nowMs: number, input: RedeemInput): Built<RedeemMessage, RedemptionRequest> {
  const signed = buildRedemption({
    bearer: w.key(input.bearer),
    pack: input.pack,
    redeemer_kid: w.kid(input.redeemer),
    ...(input.id !== undefined ? { redemption_id: input.id } : {}),
    created_at: input.createdMs ?? nowMs,
  });
  const redemption = input.flip ? { ...signed, signature: flipped(signed.signature) } : signed;
  const body = presentation(input.pack, 'redemption', redemption);
  const createdSeconds = Math.floor((input.signedAtMs ?? nowMs) / 1000);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (input.identifyAs !== false) Object.assign(headers, w.httpSignature('POST', REDEEM_PATH, new TextEncoder().encode(body), input.identifyAs, createdSeconds));
  return {
    wire: redemption,
    request: { method: 'POST', path: REDEEM_PATH, headers, body },
    message: {
      kind: 'redeem',
      id: redemption.redemption_id,
      packId: input.pack.pack_id,
      packAuthentic: !input.tampered,
      signatureValid: !input.flip,
      createdMs: input.createdMs ?? nowMs,
      bearer: redemption.bearer_pk.x,
      redeemerKid: redemption.redeemer_kid,
      identity: input.identifyAs === false ? { kind: 'none' } : { kind: 'signed', kid: w.kid(input.identifyAs), createdSeconds },
    },
  };
}

// A signed pack is presented at every renewal and redemption of its version (a
// burst presents it N times): its JSON text is made once per version.
const packTexts = new WeakMap<CashPack, string>();

/** JSON.stringify({ cash_pack: pack, [member]: message }), with the pack's text made once. */
export function presentation(pack: CashPack, member: 'renewal' | 'redemption', message: object): string {
  let text = packTexts.get(pack);
  if (text === undefined) packTexts.set(pack, (text = JSON.stringify(pack)));
  return `{"cash_pack":${text},${JSON.stringify(member)}:${JSON.stringify(message)}}`;
}

function statusPath(packId: string): string {
  return `/v1/cashpack/${encodeURIComponent(packId)}/status`;
}

/** GET status signed by a key (PROFILE.md §2.4), or unsigned; `signedAtMs` when the signature is not created at the Operator's now. */
export function buildStatus(w: World, nowMs: number, packId: string, signAs: string | false, signedAtMs = nowMs): { readonly request: WireRequest; readonly query: StatusQuery } {
  const path = statusPath(packId);
  const createdSeconds = Math.floor(signedAtMs / 1000);
  const headers = signAs === false ? {} : w.httpSignature('GET', path, undefined, signAs, createdSeconds);
  return {
    request: { method: 'GET', path, headers },
    query: { packId, caller: signAs === false ? { kind: 'none' } : { kind: 'signed', kid: w.kid(signAs), createdSeconds } },
  };
}

function cancelPath(packId: string): string {
  return `/_control/operator/packs/${encodeURIComponent(packId)}/cancel`;
}

export function buildCancel(packId: string): WireRequest {
  return jsonRequest('POST', cancelPath(packId), {});
}
