// POST /v1/cashpack/redeem: PROFILE.md §5 redeem steps 8–10 (spec §1.2, §5.2, §7.1
// BEARER_MISMATCH, REDEEMER_NOT_IDENTIFIED). Steps 1–7 are shared with renew.
import { describe, expect, it } from 'vitest';
import { createSigningKey, validateMessage, verifyConfirmation, type RedemptionConfirmation } from '../../../profile/cashpack/index.ts';
import { signRequest } from '../../../profile/index.ts';
import { AUTHORITY, createFixture, expectProblem, provisionRedeemer } from './fixture.ts';

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('redeem', () => {
  it('returns a signed Redemption Confirmation, marks the pack REDEEMED and releases the funds (spec §1.2)', async () => {
    const f = createFixture({ balance: '1000' });
    const { pack, bearer } = await f.issuePack({ amount: '400' });
    const redemption = f.redemption(pack, bearer);
    const reply = await f.redeem(pack, redemption);
    expect(reply.status).toBe(200);
    const confirmation = reply.body as RedemptionConfirmation;
    expect(validateMessage('redemption-confirmation', confirmation)).toEqual({ ok: true });
    expect(verifyConfirmation(confirmation, f.operator.publicKey)).toBe(true);
    expect(confirmation).toMatchObject({
      pack_id: pack.pack_id,
      redemption_id: redemption.redemption_id,
      redeemer_kid: f.redeemer.jwk.kid,
      amount: '400',
      asset: pack.asset,
      chain_digest: pack.chain_digest,
      redeemed_at: '2026-01-01T00:00:00Z',
      operator_kid: f.operator.jwk.kid,
    });
    expect((await f.status(pack.pack_id)).body.status).toBe('REDEEMED');
    expect(f.balance()).toMatchObject({ available: '600', locked: '0', held: '0' });
    expect(f.redeemed()).toBe('400');
  });

  it('redeems a renewed pack by its last bearer, confirming the final digest', async () => {
    const f = createFixture();
    const first = await f.issuePack();
    const last = await f.renewPack(first.pack, first.bearer);
    const reply = await f.redeem(last.pack, f.redemption(last.pack, last.bearer));
    expect(reply.status).toBe(200);
    expect(reply.body.chain_digest).toBe(last.pack.chain_digest);
  });

  describe('BEARER_MISMATCH (spec §5.2, §7.1)', () => {
    it('refuses a stranger', async () => {
      const f = createFixture();
      const { pack } = await f.issuePack();
      expectProblem(await f.redeem(pack, f.redemption(pack, createSigningKey())), 'BEARER_MISMATCH');
    });

    it('refuses the previous bearer after a renewal', async () => {
      const f = createFixture();
      const first = await f.issuePack();
      const second = await f.renewPack(first.pack, first.bearer);
      expectProblem(await f.redeem(second.pack, f.redemption(second.pack, first.bearer)), 'BEARER_MISMATCH');
      expect(f.redeemed()).toBe('0');
    });

    it('checks the bearer before the redeemer identity (step 8 before 9)', async () => {
      const f = createFixture();
      const { pack } = await f.issuePack();
      expectProblem(await f.redeem(pack, f.redemption(pack, createSigningKey()), { signer: null }), 'BEARER_MISMATCH');
    });
  });

  describe('REDEEMER_NOT_IDENTIFIED (spec §5.2, §7.1; PROFILE.md §5 redeem step 9)', () => {
    type Setup = (f: ReturnType<typeof createFixture>) => { kid?: string; signer: ReturnType<typeof createSigningKey> | null; signedAt?: number };
    const cases: [name: string, setup: Setup, detail: RegExp][] = [
      ['no HTTP Message Signature', () => ({ signer: null }), /no HTTP message signature/],
      ['a signature by a key that is not a registered redeemer', () => ({ signer: createSigningKey() }), /unknown keyid/],
      ['a registered redeemer whose level is below required_identity_level', (f) => {
        const low = provisionRedeemer(f, 1);
        return { kid: low.jwk.kid, signer: low };
      }, /identity level 1 is below 2/],
      ['a signature by another redeemer than redeemer_kid', (f) => ({ signer: provisionRedeemer(f, 3) }), /not redeemer_kid/],
      ['a signature created outside the request window', (f) => ({ signer: f.redeemer, signedAt: f.clock.nowSeconds() - 301 }), /outside the request window/],
      ['a Principal key, which is not a redeemer', (f) => ({ kid: f.principal.jwk.kid, signer: f.principal }), /unknown keyid/],
    ];

    it.each(cases)('%s', async (_name, setup, detail) => {
      const f = createFixture();
      const { pack, bearer } = await f.issuePack();
      const { kid, signer, signedAt } = setup(f);
      const redemption = f.redemption(pack, bearer, kid ? { redeemer_kid: kid } : {});
      const reply = await f.redeem(pack, redemption, { signer, ...(signedAt !== undefined ? { signedAt } : {}) });
      expectProblem(reply, 'REDEEMER_NOT_IDENTIFIED');
      expect(reply.body.detail).toMatch(detail);
      expect((await f.status(pack.pack_id)).body.status).toBe('ACTIVE');
      expect(f.balance()).toMatchObject({ locked: '100' });
    });

    it('refuses a signature made over another body (it covers content-digest)', async () => {
      const f = createFixture();
      const { pack, bearer } = await f.issuePack();
      const signed = encode({ cash_pack: pack, redemption: f.redemption(pack, bearer) });
      const sent = encode({ cash_pack: pack, redemption: f.redemption(pack, bearer) });
      const headers = signRequest(
        { method: 'POST', authority: AUTHORITY, path: '/v1/cashpack/redeem', body: signed },
        { secretKey: f.redeemer.secretKey, kid: f.redeemer.jwk.kid },
        f.clock.nowSeconds(),
      );
      const reply = await f.send('POST', '/v1/cashpack/redeem', { raw: sent, headers: { ...headers, 'content-type': 'application/json' } });
      expectProblem(reply, 'REDEEMER_NOT_IDENTIFIED');
      expect(reply.body.detail).toMatch(/Content-Digest/);
    });

    it('accepts a redeemer exactly at the required level, and a signature at the edge of the window', async () => {
      const f = createFixture({ redeemerLevel: 2 });
      const { pack, bearer } = await f.issuePack();
      const reply = await f.redeem(pack, f.redemption(pack, bearer), { signedAt: f.clock.nowSeconds() - 300 });
      expect(reply.status).toBe(200);
    });
  });
});
