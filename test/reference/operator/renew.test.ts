// POST /v1/cashpack/renew: PROFILE.md §5 renew steps 2–11 (spec §1.2, §5.2, §7.1
// BEARER_MISMATCH, CHAIN_DIGEST_MISMATCH, CHAIN_DEPTH_EXCEEDED).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeB64url } from '../../../profile/index.ts';
import { createSigningKey, recomputeChainDigest, validateMessage, verifyCashPack } from '../../../profile/cashpack/index.ts';
import { createFixture, expectProblem } from './fixture.ts';

describe('renew', () => {
  it('hands the pack to new_bearer_pk: entry appended, digest rolled, re-signed (spec §1.2)', async () => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    const { entry, next } = f.renewal(pack, bearer);
    const reply = await f.renew(pack, entry);
    expect(reply.status).toBe(200);
    expect(validateMessage('cash-pack', reply.body)).toEqual({ ok: true });
    expect(verifyCashPack(reply.body, f.operator.publicKey)).toBe(true);
    expect(reply.body.current_bearer_pk).toEqual(next.jwk);
    expect(reply.body.initial_bearer_pk).toEqual(bearer.jwk);
    expect(reply.body.renewal_chain).toEqual([entry]);
    expect(reply.body.chain_digest).not.toBe(pack.chain_digest);
    expect(reply.body.chain_digest).toBe(recomputeChainDigest(reply.body));
    expect(reply.body).toMatchObject({ pack_id: pack.pack_id, amount: pack.amount, expiry: pack.expiry, issued_at: pack.issued_at });
  });

  it('needs no caller identity: an intermediate bearer is anonymous (spec §1.2, §5.2)', async () => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    const { entry } = f.renewal(pack, bearer);
    const reply = await f.renew(pack, entry); // no HTTP Message Signature
    expect(reply.status).toBe(200);
  });

  it('lets the new bearer renew again, and the funds stay locked', async () => {
    const f = createFixture({ balance: '100' });
    let held = await f.issuePack();
    for (let i = 0; i < 3; i++) held = await f.renewPack(held.pack, held.bearer);
    expect(held.pack.renewal_chain).toHaveLength(3);
    expect(f.balance()).toMatchObject({ available: '0', locked: '100' });
  });

  it('uses the stored state: an older, authentic copy of the pack still names it', async () => {
    const f = createFixture();
    const first = await f.issuePack();
    const second = await f.renewPack(first.pack, first.bearer);
    // The holder presents the pack as issued, with an entry against the current state.
    const { entry } = f.renewal(second.pack, second.bearer);
    const reply = await f.renew(first.pack, entry);
    expect(reply.status).toBe(200);
    expect(reply.body.renewal_chain).toHaveLength(2);
  });

  it('answers 404 NOT_FOUND for an authentic pack the Operator does not hold', async () => {
    // Same signing key, separate state: the pack verifies here but is unknown.
    const seed = randomBytes(32);
    const issuer = createFixture({ signingSeed: seed });
    const f = createFixture({ signingSeed: seed });
    const { pack, bearer } = await issuer.issuePack();
    const { entry } = f.renewal(pack, bearer);
    expectProblem(await f.renew(pack, entry), 'NOT_FOUND');
  });

  describe('BEARER_MISMATCH (spec §5.2, §7.1): the submitting key is not current_bearer_pk', () => {
    it('refuses a stranger', async () => {
      const f = createFixture();
      const { pack } = await f.issuePack();
      const { entry } = f.renewal(pack, createSigningKey());
      expectProblem(await f.renew(pack, entry), 'BEARER_MISMATCH');
    });

    it('refuses the previous bearer after a renewal', async () => {
      const f = createFixture();
      const first = await f.issuePack();
      const second = await f.renewPack(first.pack, first.bearer);
      const { entry } = f.renewal(second.pack, first.bearer);
      expectProblem(await f.renew(second.pack, entry), 'BEARER_MISMATCH');
    });

    it('checks the bearer before the digest: old bearer with a stale digest → BEARER_MISMATCH', async () => {
      const f = createFixture();
      const first = await f.issuePack();
      await f.renewPack(first.pack, first.bearer);
      const { entry } = f.renewal(first.pack, first.bearer); // prev_chain_digest = D0, now stale
      expectProblem(await f.renew(first.pack, entry), 'BEARER_MISMATCH');
    });
  });

  describe('CHAIN_DIGEST_MISMATCH (spec §7.1): prev_chain_digest ≠ current chain_digest', () => {
    it('refuses a stale digest from the current bearer', async () => {
      const f = createFixture();
      const first = await f.issuePack();
      const second = await f.renewPack(first.pack, first.bearer);
      const { entry } = f.renewal(second.pack, second.bearer, { prev_chain_digest: first.pack.chain_digest });
      expectProblem(await f.renew(second.pack, entry), 'CHAIN_DIGEST_MISMATCH');
    });

    it('refuses a forged digest', async () => {
      const f = createFixture();
      const { pack, bearer } = await f.issuePack();
      const { entry } = f.renewal(pack, bearer, { prev_chain_digest: encodeB64url(randomBytes(32)) });
      expectProblem(await f.renew(pack, entry), 'CHAIN_DIGEST_MISMATCH');
    });
  });

  describe('CHAIN_DEPTH_EXCEEDED (spec §7.1, §8): renewal_chain has reached max_chain_depth', () => {
    it.each([0, 2, 8])('allows max_chain_depth = %i renewals and refuses one more', async (depth) => {
      const f = createFixture({ policy: { max_chain_depth: depth } });
      let held = await f.issuePack();
      for (let i = 0; i < depth; i++) held = await f.renewPack(held.pack, held.bearer);
      expect(held.pack.renewal_chain).toHaveLength(depth);
      const { entry } = f.renewal(held.pack, held.bearer);
      expectProblem(await f.renew(held.pack, entry), 'CHAIN_DEPTH_EXCEEDED');
      // The pack can still be redeemed at full depth.
      expect((await f.redeem(held.pack, f.redemption(held.pack, held.bearer))).status).toBe(200);
    });
  });
});
