// ACTIVE packs as an Operator issues and renews them: signed by a generated
// Operator key, with 0..N renewals in the chain, each signed by the then current
// bearer, the chain digest rolled as in PROFILE.md §3.
import fc from 'fast-check';
import { digestText, genesisDigest } from '../../profile/chain.ts';
import { signObject } from '../../profile/signing.ts';
import { buildRenewal, recomputeChainDigest, type CashPack, type RenewalEntry, type SigningKey } from '../../profile/cashpack/index.ts';
import type { Resolved } from './constraints.ts';
import { keyFromSeed, lazyKey, seeds } from './keys.ts';
import { amountUpTo, freshCreatedAt, ids, stamp } from './values.ts';

/** An ACTIVE pack issued by `operator` with `depth` renewals, and what built it. */
export interface PackSetup {
  readonly operator: SigningKey;
  /** The Principal that locked the funds (made on first use). */
  readonly principal: () => SigningKey;
  /** Bearers in order: initial, then each renewal's new bearer; the last is current. */
  readonly bearers: readonly SigningKey[];
  readonly pack: CashPack;
  /** D0 .. D(depth). */
  readonly digests: readonly string[];
  /** A key distinct from every other (new bearer or redeemer). */
  readonly next: SigningKey;
  /** Another distinct key, for corruptions (made on first use). */
  readonly stranger: () => SigningKey;
  readonly messageId: string;
  readonly spareId: string;
  readonly created_at: string;
}

/** Issues and renews like an Operator would (PROFILE.md §3, §4.3, §5 issue and renew). */
function buildPack(
  operator: SigningKey,
  bearers: readonly SigningKey[],
  base: Omit<CashPack, 'initial_bearer_pk' | 'current_bearer_pk' | 'renewal_chain' | 'chain_digest' | 'operator_kid' | 'signature'>,
  renewalIds: readonly string[],
  renewedAt: readonly string[],
): { pack: CashPack; digests: string[] } {
  const initial = bearers[0]!;
  let pack: CashPack = signObject(
    'cash-pack',
    {
      ...base,
      initial_bearer_pk: initial.jwk,
      current_bearer_pk: initial.jwk,
      renewal_chain: [] as RenewalEntry[],
      chain_digest: digestText(genesisDigest(base.pack_id, initial.publicKey)),
      operator_kid: operator.jwk.kid,
    },
    operator.secretKey,
  );
  const digests = [pack.chain_digest];
  renewalIds.forEach((renewal_id, i) => {
    const entry = buildRenewal({ bearer: bearers[i]!, pack, new_bearer: bearers[i + 1]!.jwk, renewal_id, created_at: renewedAt[i]! });
    const renewal_chain = [...pack.renewal_chain, entry];
    const chain_digest = recomputeChainDigest({ pack_id: pack.pack_id, initial_bearer_pk: pack.initial_bearer_pk, renewal_chain });
    digests.push(chain_digest);
    pack = signObject('cash-pack', { ...pack, current_bearer_pk: bearers[i + 1]!.jwk, renewal_chain, chain_digest }, operator.secretKey);
  });
  return { pack, digests };
}

export function packSetup(r: Resolved, depths: { min: number; max: number }): fc.Arbitrary<PackSetup> {
  return fc.integer(depths).chain((depth) =>
    fc
      .record({
        k: seeds(depth + 5),
        id: ids(depth + 3),
        amount: amountUpTo(BigInt(r.policy.max_amount)),
        asset: fc.constantFrom(...r.policy.assets),
        // Seconds until expiry (after `now`, so ACTIVE) and the pack's total lifetime.
        remaining: fc.integer({ min: Math.min(1 + r.skew, r.policy.expiry_max_seconds), max: r.policy.expiry_max_seconds }),
        lifetimeExtra: fc.nat({ max: r.policy.expiry_max_seconds }),
        created_at: freshCreatedAt(r),
      })
      .map(({ k, id, amount, asset, remaining, lifetimeExtra, created_at }) => {
        const [operatorSeed, principalSeed, nextSeed, strangerSeed, ...bearerSeeds] = k as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, ...Uint8Array[]];
        const [operator, next, bearers] = [keyFromSeed(operatorSeed), keyFromSeed(nextSeed), bearerSeeds.map(keyFromSeed)];
        const [principal, stranger] = [lazyKey(principalSeed), lazyKey(strangerSeed)];
        const [pack_id, messageId, spareId, ...renewalIds] = id as [string, string, string, ...string[]];
        const lifetime = Math.max(r.policy.expiry_min_seconds, Math.min(r.policy.expiry_max_seconds, remaining + lifetimeExtra));
        const expiryMs = r.now + remaining * 1000;
        const issuedMs = Math.min(r.now, expiryMs - lifetime * 1000);
        const step = Math.floor((r.now - issuedMs) / 1000 / (depth + 1));
        const renewedAt = renewalIds.map((_, i) => stamp(issuedMs + (i + 1) * step * 1000));
        const base = { pack_id, amount, asset, issued_at: stamp(issuedMs), expiry: stamp(expiryMs) };
        const { pack, digests } = buildPack(operator, bearers, base, renewalIds, renewedAt);
        return { operator, principal, bearers, pack, digests, next, stranger, messageId, spareId, created_at };
      }),
  );
}

export const chainIds = (pack: CashPack): string[] => pack.renewal_chain.map((e) => e.renewal_id);
