// Client-side builders and checks of profile/cashpack/messages.ts (PROFILE.md §2–§4).
import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { decodeB64urlFixed, digestText, genesisDigest, signObject, signingInput, verifyObject } from '../../../profile/index.ts';
import {
  buildLockRequest,
  buildRedemption,
  buildRenewal,
  createSigningKey,
  operatorKeyOf,
  recomputeChainDigest,
  validateMessage,
  verifyCashPack,
  verifyConfirmation,
  type CashPack,
  type RedemptionConfirmation,
  type SigningKey,
} from '../../../profile/cashpack/index.ts';

ed.hashes.sha512 = sha512;

const T = Date.UTC(2026, 0, 1);
const EUR = { type: 'fiat', code: 'EUR' } as const;
const operator = createSigningKey();

/** A pack as an Operator would sign it, built here without one. */
function issuedPack(initial: SigningKey): CashPack {
  const pack_id = crypto.randomUUID();
  return signObject(
    'cash-pack',
    {
      pack_id,
      amount: '100',
      asset: EUR,
      issued_at: '2026-01-01T00:00:00Z',
      expiry: '2026-01-01T01:00:00Z',
      initial_bearer_pk: initial.jwk,
      current_bearer_pk: initial.jwk,
      renewal_chain: [] as CashPack['renewal_chain'],
      chain_digest: digestText(genesisDigest(pack_id, initial.publicKey)),
      operator_kid: operator.jwk.kid,
    },
    operator.secretKey,
  );
}

/** Applies a renewal the way PROFILE.md §3 says, with a hand-written SHA-256. */
function applyRenewal(pack: CashPack, bearer: SigningKey): { pack: CashPack; bearer: SigningKey } {
  const next = createSigningKey();
  const entry = buildRenewal({ bearer, pack, new_bearer: next.jwk, created_at: T });
  const digest = createHash('sha256')
    .update(Buffer.from('CPP-PROFILE-1.0/chain-renewal\n', 'ascii'))
    .update(Buffer.from(pack.chain_digest, 'base64url'))
    .update(Buffer.from(entry.renewal_id.replaceAll('-', ''), 'hex'))
    .update(next.publicKey)
    .update(Buffer.from(entry.signature, 'base64url'))
    .digest('base64url');
  const { signature: _s, ...rest } = pack;
  const renewed = signObject('cash-pack', { ...rest, current_bearer_pk: next.jwk, renewal_chain: [...pack.renewal_chain, entry], chain_digest: digest }, operator.secretKey);
  return { pack: renewed, bearer: next };
}

describe('builders', () => {
  it('buildLockRequest signs with the lock-request tag under the Principal key (PROFILE.md §2.2, §4.2)', () => {
    const principal = createSigningKey();
    const lock = buildLockRequest({ principal, amount: 5n, asset: EUR, initialBearer: createSigningKey().jwk, requested_expiry: T + 60_500, created_at: '2026-01-01T00:00:00Z' });
    expect(validateMessage('lock-request', lock)).toEqual({ ok: true });
    expect(lock).toMatchObject({ amount: '5', principal_pk: principal.jwk, requested_expiry: '2026-01-01T00:01:00Z', created_at: '2026-01-01T00:00:00Z' });
    expect(verifyObject('lock-request', lock, principal.publicKey)).toBe(true);
    expect(verifyObject('renewal-entry', lock, principal.publicKey)).toBe(false);
  });

  it('buildRenewal defaults pack_id and prev_chain_digest to the pack\'s and signs with the renewal-entry tag', () => {
    const bearer = createSigningKey();
    const pack = issuedPack(bearer);
    const next = createSigningKey();
    const entry = buildRenewal({ bearer, pack, new_bearer: next.jwk, created_at: T });
    expect(validateMessage('renewal-entry', entry)).toEqual({ ok: true });
    expect(entry).toMatchObject({ pack_id: pack.pack_id, prev_chain_digest: pack.chain_digest, bearer_pk: bearer.jwk, new_bearer_pk: next.jwk });
    expect(verifyObject('renewal-entry', entry, bearer.publicKey)).toBe(true);
    const overridden = buildRenewal({ bearer, pack, new_bearer: next.jwk, created_at: T, renewal_id: pack.pack_id, prev_chain_digest: 'A'.repeat(43) });
    expect(overridden).toMatchObject({ renewal_id: pack.pack_id, prev_chain_digest: 'A'.repeat(43) });
  });

  it('buildRedemption signs with the redemption-request tag', () => {
    const bearer = createSigningKey();
    const pack = issuedPack(bearer);
    const redeemer = createSigningKey();
    const redemption = buildRedemption({ bearer, pack, redeemer_kid: redeemer.jwk.kid, created_at: T });
    expect(validateMessage('redemption-request', redemption)).toEqual({ ok: true });
    expect(verifyObject('redemption-request', redemption, bearer.publicKey)).toBe(true);
  });

  it('gives every message a fresh id', () => {
    const bearer = createSigningKey();
    const pack = issuedPack(bearer);
    const ids = Array.from({ length: 3 }, () => buildRedemption({ bearer, pack, redeemer_kid: bearer.jwk.kid, created_at: T }).redemption_id);
    expect(new Set(ids).size).toBe(3);
  });

  it('signatures verify under @noble/ed25519, an independent implementation', () => {
    const principal = createSigningKey();
    const lock = buildLockRequest({ principal, amount: '1', asset: EUR, initialBearer: principal.jwk, requested_expiry: T, created_at: T });
    expect(ed.verify(decodeB64urlFixed(lock.signature, 64)!, signingInput('lock-request', lock), principal.publicKey)).toBe(true);
  });
});

describe('recomputeChainDigest (PROFILE.md §3)', () => {
  it.each([0, 1, 2, 8])('matches a hand-written SHA-256 chain at depth %i', (depth) => {
    const initial = createSigningKey();
    let held = { pack: issuedPack(initial), bearer: initial };
    const genesis = createHash('sha256')
      .update(Buffer.from('CPP-PROFILE-1.0/chain-genesis\n', 'ascii'))
      .update(Buffer.from(held.pack.pack_id.replaceAll('-', ''), 'hex'))
      .update(held.bearer.publicKey)
      .digest('base64url');
    expect(held.pack.chain_digest).toBe(genesis);
    for (let i = 0; i < depth; i++) held = applyRenewal(held.pack, held.bearer);
    expect(recomputeChainDigest(held.pack)).toBe(held.pack.chain_digest);
  });

  it('throws a TypeError on an undecodable entry', () => {
    const bearer = createSigningKey();
    const { pack } = applyRenewal(issuedPack(bearer), bearer);
    const broken = { ...pack, renewal_chain: [{ ...pack.renewal_chain[0]!, signature: 'short' }] };
    expect(() => recomputeChainDigest(broken)).toThrow(TypeError);
  });
});

describe('verifyCashPack and verifyConfirmation', () => {
  it('accept the Operator key as raw bytes or as a JWK, and refuse any other key or tampering', () => {
    const pack = issuedPack(createSigningKey());
    expect(verifyCashPack(pack, operator.publicKey)).toBe(true);
    expect(verifyCashPack(pack, operator.jwk)).toBe(true);
    expect(verifyCashPack(pack, createSigningKey().jwk)).toBe(false);
    expect(verifyCashPack({ ...pack, amount: '101' }, operator.publicKey)).toBe(false);
    expect(verifyCashPack(pack, { ...operator.jwk, kid: 'wrong' })).toBe(false);
  });

  it('tell a confirmation from a pack (domain separation)', () => {
    const pack = issuedPack(createSigningKey());
    const confirmation: RedemptionConfirmation = signObject(
      'redemption-confirmation',
      {
        pack_id: pack.pack_id,
        redemption_id: crypto.randomUUID(),
        redeemer_kid: operator.jwk.kid,
        amount: pack.amount,
        asset: pack.asset,
        chain_digest: pack.chain_digest,
        redeemed_at: '2026-01-01T00:00:00Z',
        operator_kid: operator.jwk.kid,
      },
      operator.secretKey,
    );
    expect(verifyConfirmation(confirmation, operator.publicKey)).toBe(true);
    expect(verifyCashPack(confirmation as unknown as CashPack, operator.publicKey)).toBe(false);
  });

  it('operatorKeyOf reads the key of a pubkey document', () => {
    expect(operatorKeyOf({ keys: [{ ...operator.jwk, use: 'sig', alg: 'EdDSA' }] })).toEqual(operator.publicKey);
    expect(operatorKeyOf({ keys: [{ ...operator.jwk, kid: 'x', use: 'sig', alg: 'EdDSA' }] })).toBeUndefined();
  });
});
