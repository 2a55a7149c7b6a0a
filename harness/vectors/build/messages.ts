// Deterministic profile messages for the vectors (PROFILE.md §2-§4): fixed ids,
// fixed instants and the published test keys, so every byte is reproducible. The
// chain digest is computed here from PROFILE.md §3 directly (not with
// profile/chain.ts), so the vectors check the profile code rather than echo it.
import { createHash } from 'node:crypto';
import { encodeB64url } from '../../../profile/b64url.ts';
import { signObject } from '../../../profile/signing.ts';
import { formatTimestamp } from '../../../profile/time.ts';
import type { CashPack, LockRequest, RedemptionConfirmation, RedemptionRequest, RenewalEntry } from '../../../profile/cashpack/index.ts';
import { key, type TestKey } from '../keys.ts';

/** 2026-01-01T00:00:00Z: every vector instant is this plus whole seconds. */
export const T0 = Date.UTC(2026, 0, 1);

export function at(seconds: number): string {
  return formatTimestamp(T0 + seconds * 1000, 'cashpack');
}

/** A version 4 UUID derived from a label (SHA-256, then the RFC 9562 version and variant bits). */
export function vectorUuid(label: string): string {
  const b = createHash('sha256').update(`cpr-conformance vector id ${label}`, 'utf8').digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const EUR = { type: 'fiat', code: 'EUR' } as const;
export const USDC = { type: 'stablecoin', code: 'USDC', chain_id: '1' } as const;

interface LockVariant {
  readonly label: string;
  readonly amount: string;
  readonly asset: CashPack['asset'];
}

export function lockRequest(v: LockVariant, signer: TestKey = key(1)): LockRequest {
  return signObject(
    'lock-request',
    {
      request_id: vectorUuid(`lock ${v.label}`),
      principal_pk: key(1).jwk,
      amount: v.amount,
      asset: v.asset,
      initial_bearer_pk: key(2).jwk,
      requested_expiry: at(86_400),
      created_at: at(0),
    },
    signer.seed,
  );
}

// ---- chain digest, PROFILE.md §3 ----

const GENESIS = Buffer.from('CPP-PROFILE-1.0/chain-genesis\n', 'ascii');
const RENEWAL = Buffer.from('CPP-PROFILE-1.0/chain-renewal\n', 'ascii');

export function uuid16(id: string): Buffer {
  return Buffer.from(id.replaceAll('-', ''), 'hex');
}

function sha256(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

export function genesis(packId: string, initialKey: Uint8Array): Buffer {
  return sha256(GENESIS, uuid16(packId), initialKey);
}

export function rolled(previous: Uint8Array, renewalId: string, newKey: Uint8Array, signature: Uint8Array): Buffer {
  return sha256(RENEWAL, previous, uuid16(renewalId), newKey, signature);
}

// ---- chains and packs ----

/** Bearers in turn: key 2 first, then 3, 4, 2, 3 ... */
const BEARER_CYCLE = [2, 3, 4] as const;

export interface Chain {
  readonly label: string;
  readonly pack_id: string;
  readonly bearers: readonly TestKey[];
  readonly entries: readonly RenewalEntry[];
  /** D0 .. Dn */
  readonly digests: readonly Buffer[];
}

export function buildChain(label: string, depth: number): Chain {
  const pack_id = vectorUuid(`pack ${label}`);
  const bearers: TestKey[] = [key(BEARER_CYCLE[0])];
  const entries: RenewalEntry[] = [];
  const digests: Buffer[] = [genesis(pack_id, bearers[0]!.publicKey)];
  for (let i = 0; i < depth; i++) {
    const bearer = bearers[i]!;
    const next = key(BEARER_CYCLE[(i + 1) % BEARER_CYCLE.length]!);
    const entry = signObject(
      'renewal-entry',
      {
        renewal_id: vectorUuid(`renewal ${label} ${i + 1}`),
        pack_id,
        prev_chain_digest: encodeB64url(digests[i]!),
        bearer_pk: bearer.jwk,
        new_bearer_pk: next.jwk,
        created_at: at(60 * (i + 1)),
      },
      bearer.seed,
    );
    entries.push(entry);
    bearers.push(next);
    digests.push(rolled(digests[i]!, entry.renewal_id, next.publicKey, Buffer.from(entry.signature, 'base64url')));
  }
  return { label, pack_id, bearers, entries, digests };
}

function currentBearer(chain: Chain): TestKey {
  return chain.bearers[chain.bearers.length - 1]!;
}

export function cashPack(chain: Chain, amount = '2500', asset: CashPack['asset'] = EUR): CashPack {
  return signObject(
    'cash-pack',
    {
      pack_id: chain.pack_id,
      amount,
      asset,
      issued_at: at(0),
      expiry: at(86_400),
      initial_bearer_pk: chain.bearers[0]!.jwk,
      current_bearer_pk: currentBearer(chain).jwk,
      renewal_chain: [...chain.entries],
      chain_digest: encodeB64url(chain.digests[chain.digests.length - 1]!),
      operator_kid: key(5).jwk.kid,
    },
    key(5).seed,
  );
}

export function redemptionRequest(chain: Chain): RedemptionRequest {
  const bearer = currentBearer(chain);
  return signObject(
    'redemption-request',
    {
      redemption_id: vectorUuid(`redemption ${chain.label}`),
      pack_id: chain.pack_id,
      bearer_pk: bearer.jwk,
      redeemer_kid: key(6).jwk.kid,
      created_at: at(3600),
    },
    bearer.seed,
  );
}

export function confirmation(chain: Chain, pack: CashPack, redemption: RedemptionRequest): RedemptionConfirmation {
  return signObject(
    'redemption-confirmation',
    {
      pack_id: pack.pack_id,
      redemption_id: redemption.redemption_id,
      redeemer_kid: redemption.redeemer_kid,
      amount: pack.amount,
      asset: pack.asset,
      chain_digest: pack.chain_digest,
      redeemed_at: at(3601),
      operator_kid: key(5).jwk.kid,
    },
    key(5).seed,
  );
}
