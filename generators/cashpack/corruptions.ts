// The corruptions of a valid message, each with the spec error code an Operator
// answers with PROFILE.md §5's check order, given the policy and the Operator state
// the case describes. Each keeps the message schema-valid.
import fc from 'fast-check';
import { decodeB64urlFixed, encodeB64url } from '../../profile/b64url.ts';
import { digestText, genesisDigest } from '../../profile/chain.ts';
import { signObject } from '../../profile/signing.ts';
import { buildLockRequest, buildRedemption, buildRenewal, type LockRequest, type RedeemRequest, type RenewRequest, type SigningKey } from '../../profile/cashpack/index.ts';
import type { Resolved } from './constraints.ts';
import { lockCase, validExpiry, type LockRequestCase } from './lock-request.ts';
import { chainIds, type PackSetup } from './packs.ts';
import type { RedeemCase, RenewCase } from './renew-redeem.ts';
import { amountUpTo, stamp } from './values.ts';

export type CashpackMessageKind = 'lock-request' | 'renew-request' | 'redeem-request';

export type CorruptionKind =
  | 'flipped-signature-byte'
  | 'wrong-signing-key'
  | 'reused-id'
  | 'stale-digest'
  | 'not-current-bearer'
  | 'expiry-out-of-range'
  | 'amount-over-limit';

export type CorruptionCode =
  | 'INVALID_SIGNATURE'
  | 'CHAIN_DIGEST_MISMATCH'
  | 'DUPLICATE_ID'
  | 'EXPIRY_INVALID'
  | 'AMOUNT_EXCEEDS_LIMIT'
  | 'BEARER_MISMATCH';

/** PROFILE.md §11 statuses of the codes a corruption can expect. */
export const CORRUPTION_STATUS: Readonly<Record<CorruptionCode, number>> = {
  INVALID_SIGNATURE: 400,
  CHAIN_DIGEST_MISMATCH: 409,
  DUPLICATE_ID: 409,
  EXPIRY_INVALID: 422,
  AMOUNT_EXCEEDS_LIMIT: 422,
  BEARER_MISMATCH: 403,
};

export type CashpackCase = LockRequestCase | RenewCase | RedeemCase;

export interface CorruptedMessage {
  readonly kind: CashpackMessageKind;
  readonly corruption: CorruptionKind;
  /** Which form of the corruption ("cash_pack signature", "previous bearer" ...). */
  readonly variant: string;
  readonly description: string;
  readonly expected: { readonly code: CorruptionCode; readonly status: number };
  /** The corrupted body; still a schema-valid message of its kind. */
  readonly message: LockRequest | RenewRequest | RedeemRequest;
  /** The valid case it was derived from (keys, policy, now, the ids recorded). */
  readonly base: CashpackCase;
  /** Valid Lock Requests an Operator must have accepted before this message (their ids are then recorded). */
  readonly prior: readonly LockRequest[];
  /** Every id the Operator has recorded before this message (base.priorIds plus the prior messages' ids). */
  readonly priorIds: readonly string[];
}

type Corruption = { readonly message: CorruptedMessage['message']; readonly variant: string; readonly description: string; readonly prior?: readonly LockRequest[] };

export interface CorruptionEntry {
  readonly corruption: CorruptionKind;
  readonly code: CorruptionCode;
  readonly kinds: readonly CashpackMessageKind[];
  readonly apply: (base: CashpackCase, s: PackSetup | undefined, r: Resolved) => fc.Arbitrary<Corruption>;
}

/** A base64url signature with the first bit of its first byte flipped (as the scenario's tamper flip_signature does). */
export function flipped(signature: string): string {
  const bytes = Buffer.from(signature, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  return bytes.toString('base64url');
}

/**
 * `text` (base64url) with the letter case of one to three of its letters
 * changed, which `pick` chooses: another value, as base64url is case-sensitive
 * (a digest compared as hex text would be taken). The last character, whose
 * unused bits must be zero, is kept, so the text stays canonical. Without a
 * letter before it, a bit flipped.
 */
export function recased(text: string, pick: number): string {
  const letters = [...text.slice(0, -1)].flatMap((ch, i) => (/[A-Za-z]/.test(ch) ? [i] : []));
  if (letters.length === 0) return flipped(text);
  const chars = [...text];
  const count = 1 + (pick % Math.min(3, letters.length));
  // Distinct letters: one changed twice would be changed back.
  const start = Math.floor(pick / 3) % letters.length;
  for (let k = 0; k < count; k++) {
    const i = letters[(start + k) % letters.length]!;
    const ch = chars[i]!;
    chars[i] = ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
  }
  return chars.join('');
}

function flip(signature: string, byte: number, bit: number): string {
  const raw = decodeB64urlFixed(signature, 64)!.slice();
  raw[byte] = raw[byte]! ^ (1 << bit);
  return encodeB64url(raw);
}

const bodyMember = (kind: CashpackMessageKind): 'renewal' | 'redemption' => (kind === 'renew-request' ? 'renewal' : 'redemption');

/** A renew or redeem body by `bearer` (signing) naming `named` as bearer_pk, with overrides. */
function bearerMessage(base: RenewCase | RedeemCase, s: PackSetup, opts: { signer: SigningKey; named?: SigningKey; id?: string; prev?: string }): RenewRequest | RedeemRequest {
  const named = opts.named ?? opts.signer;
  const signer = { secretKey: opts.signer.secretKey, jwk: named.jwk };
  if (base.kind === 'renew-request') {
    const renewal = buildRenewal({
      bearer: signer,
      pack: s.pack,
      new_bearer: s.next.jwk,
      renewal_id: opts.id ?? s.messageId,
      created_at: s.created_at,
      ...(opts.prev !== undefined ? { prev_chain_digest: opts.prev } : {}),
    });
    return { cash_pack: s.pack, renewal };
  }
  const redemption = buildRedemption({ bearer: signer, pack: s.pack, redeemer_kid: s.next.jwk.kid, redemption_id: opts.id ?? s.messageId, created_at: s.created_at });
  return { cash_pack: s.pack, redemption };
}

export const CORRUPTIONS: readonly CorruptionEntry[] = [
  {
    corruption: 'flipped-signature-byte',
    code: 'INVALID_SIGNATURE',
    kinds: ['lock-request', 'renew-request', 'redeem-request'],
    apply: (base) =>
      fc.tuple(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 7 }), fc.boolean()).map(([byte, bit, onPack]): Corruption => {
        const where = `byte ${byte} bit ${bit}`;
        if (base.kind === 'lock-request') {
          return { message: { ...base.message, signature: flip(base.message.signature, byte, bit) }, variant: 'lock request signature', description: `Lock Request signature with ${where} flipped` };
        }
        const member = bodyMember(base.kind);
        if (onPack) {
          const cash_pack = { ...base.message.cash_pack, signature: flip(base.message.cash_pack.signature, byte, bit) };
          return { message: { ...base.message, cash_pack } as RenewRequest | RedeemRequest, variant: 'cash_pack signature', description: `the Operator's cash-pack signature with ${where} flipped` };
        }
        const inner = (base.message as Record<string, unknown>)[member] as { signature: string };
        const message = { ...base.message, [member]: { ...inner, signature: flip(inner.signature, byte, bit) } } as RenewRequest | RedeemRequest;
        return { message, variant: `${member} signature`, description: `the bearer's ${member} signature with ${where} flipped` };
      }),
  },
  {
    corruption: 'wrong-signing-key',
    code: 'INVALID_SIGNATURE',
    kinds: ['lock-request', 'renew-request', 'redeem-request'],
    apply: (base, s) =>
      fc.boolean().map((onPack): Corruption => {
        if (base.kind === 'lock-request') {
          const message = signObject('lock-request', { ...base.message }, base.initialBearer.secretKey);
          return { message, variant: 'lock request', description: 'Lock Request naming principal_pk but signed by another key (the initial bearer)' };
        }
        if (onPack) {
          const cash_pack = signObject('cash-pack', { ...base.message.cash_pack }, s!.stranger().secretKey);
          return { message: { ...base.message, cash_pack } as RenewRequest | RedeemRequest, variant: 'cash_pack', description: 'a cash-pack signed by a key that is not the Operator\'s' };
        }
        const message = bearerMessage(base, s!, { signer: s!.stranger(), named: base.bearer });
        return { message, variant: bodyMember(base.kind), description: `${bodyMember(base.kind)} naming the current bearer as bearer_pk but signed by another key` };
      }),
  },
  {
    corruption: 'reused-id',
    code: 'DUPLICATE_ID',
    kinds: ['lock-request', 'renew-request', 'redeem-request'],
    apply: (base, s, r) => {
      if (base.kind === 'lock-request') {
        // An earlier, different Lock Request by the same Principal with the same request_id.
        return lockCase(r, validExpiry(r), amountUpTo(BigInt(r.policy.max_amount))).map((other): Corruption => {
          const prior = buildLockRequest({
            principal: base.principal,
            request_id: base.message.request_id,
            amount: other.message.amount,
            asset: other.message.asset,
            initialBearer: other.initialBearer.jwk,
            requested_expiry: other.message.requested_expiry,
            created_at: other.message.created_at,
          });
          return { message: base.message, prior: [prior], variant: 'request_id of an earlier Lock Request', description: 'request_id already used by an earlier Lock Request' };
        });
      }
      const chain = chainIds(s!.pack);
      return fc.nat().map((pick): Corruption => {
        const member = bodyMember(base.kind);
        if (chain.length > 0) {
          const id = chain[pick % chain.length]!;
          return { message: bearerMessage(base, s!, { signer: base.bearer, id }), variant: 'renewal_id from the chain', description: `${member} id ${id} already used by a renewal in the pack's chain (shared id namespace)` };
        }
        // Depth 0: reuse the request_id of the Lock Request that issued the pack (shared id namespace, PROFILE.md §6).
        const lock = buildLockRequest({
          principal: s!.principal(),
          request_id: s!.spareId,
          amount: s!.pack.amount,
          asset: s!.pack.asset,
          initialBearer: s!.bearers[0]!.jwk,
          requested_expiry: s!.pack.expiry,
          created_at: s!.pack.issued_at,
        });
        return {
          message: bearerMessage(base, s!, { signer: base.bearer, id: s!.spareId }),
          prior: [lock],
          variant: 'request_id of the issuing Lock Request',
          description: `${member} id equal to the request_id of the Lock Request that issued the pack (shared id namespace)`,
        };
      });
    },
  },
  {
    corruption: 'stale-digest',
    code: 'CHAIN_DIGEST_MISMATCH',
    kinds: ['renew-request'],
    apply: (base, s) =>
      fc.tuple(fc.nat(), fc.uint8Array({ minLength: 32, maxLength: 32 })).map(([pick, random]): Corruption => {
        const earlier = s!.digests.slice(0, -1);
        const choice = pick % (earlier.length + 3);
        const current = s!.pack.chain_digest;
        const [prev, variant] =
          choice < earlier.length
            ? [earlier[choice]!, `D${choice}, an earlier digest of the chain`]
            : choice === earlier.length
              ? [digestText(genesisDigest(s!.spareId, s!.bearers[0]!.publicKey)), 'the genesis digest of another pack']
              : choice === earlier.length + 1
                ? [recased(current, Math.floor(pick / (earlier.length + 3))), 'the chain_digest with letters in other case']
                : [encodeB64url(random), 'random 32 bytes'];
        const stale = prev === current ? encodeB64url(random.map((b) => b ^ 0xff)) : prev;
        return { message: bearerMessage(base as RenewCase, s!, { signer: (base as RenewCase).bearer, prev: stale }), variant, description: `prev_chain_digest is ${variant}, not the pack's chain_digest` };
      }),
  },
  {
    corruption: 'not-current-bearer',
    code: 'BEARER_MISMATCH',
    kinds: ['renew-request', 'redeem-request'],
    apply: (base, s) =>
      fc.nat().map((pick): Corruption => {
        const previous = s!.bearers.slice(0, -1);
        const choice = pick % (previous.length + 1);
        const signer = choice < previous.length ? previous[choice]! : s!.stranger();
        const variant = choice < previous.length ? `bearer ${choice}, a previous bearer` : 'a key that never held the pack';
        return { message: bearerMessage(base as RenewCase | RedeemCase, s!, { signer }), variant, description: `${bodyMember(base.kind)} validly signed by ${variant}, not the current bearer` };
      }),
  },
  {
    corruption: 'expiry-out-of-range',
    code: 'EXPIRY_INVALID',
    kinds: ['lock-request'],
    apply: (base, _s, r) => {
      const { expiry_min_seconds: min, expiry_max_seconds: max } = r.policy;
      const early = fc.integer({ min: min - 1 - r.skew - 86_400, max: min - 1 - r.skew });
      const late = fc.integer({ min: max + 1 + r.skew, max: max + 1 + r.skew + 30 * 86_400 });
      return fc.oneof(early, late).map((e): Corruption => {
        const b = base as LockRequestCase;
        const message = buildLockRequest({
          principal: b.principal,
          request_id: b.message.request_id,
          amount: b.message.amount,
          asset: b.message.asset,
          initialBearer: b.initialBearer.jwk,
          requested_expiry: stamp(r.now + e * 1000),
          created_at: b.message.created_at,
        });
        return { message, variant: e < min ? 'too soon' : 'too late', description: `requested_expiry ${e} s from now, outside [${min}, ${max}]` };
      });
    },
  },
  {
    corruption: 'amount-over-limit',
    code: 'AMOUNT_EXCEEDS_LIMIT',
    kinds: ['lock-request'],
    apply: (base, _s, r) => {
      const max = BigInt(r.policy.max_amount);
      return fc.oneof(fc.constant(max + 1n), fc.bigInt({ min: max + 1n, max: 10n ** 78n - 1n })).map((amount): Corruption => {
        const b = base as LockRequestCase;
        const message = buildLockRequest({
          principal: b.principal,
          request_id: b.message.request_id,
          amount,
          asset: b.message.asset,
          initialBearer: b.initialBearer.jwk,
          requested_expiry: b.message.requested_expiry,
          created_at: b.message.created_at,
        });
        return { message, variant: amount === max + 1n ? 'max_amount + 1' : 'far above', description: `amount ${amount} above max_amount ${r.policy.max_amount}` };
      });
    },
  },
];

export const CORRUPTION_KINDS: readonly CorruptionKind[] = CORRUPTIONS.map((c) => c.corruption);
