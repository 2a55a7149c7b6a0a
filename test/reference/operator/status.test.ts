// GET /v1/cashpack/{pack_id}/status (spec §3.2, §4.2, §5.2; PROFILE.md §2.4, §4.7,
// §5 status): only the issuing Principal and the Operator (staff keys) read it;
// 401, then 403, then 404.
import { describe, expect, it } from 'vitest';
import { newUuid, signRequest } from '../../../profile/index.ts';
import { createSigningKey, validateMessage, type SigningKey } from '../../../profile/cashpack/index.ts';
import { AUTHORITY, createFixture, expectProblem, provisionPrincipal, type Fixture } from './fixture.ts';

describe('status', () => {
  it('answers the issuing Principal with the status document of PROFILE.md §4.7', async () => {
    const f = createFixture();
    const { pack } = await f.issuePack();
    const reply = await f.status(pack.pack_id);
    expect(reply.status).toBe(200);
    expect(validateMessage('status', reply.body)).toEqual({ ok: true });
    expect(reply.body).toEqual({
      pack_id: pack.pack_id,
      status: 'ACTIVE',
      amount: pack.amount,
      asset: pack.asset,
      expiry: pack.expiry,
      chain_depth: 0,
      chain_digest: pack.chain_digest,
      updated_at: pack.issued_at,
    });
  });

  it('follows renewals: chain_depth and chain_digest are current', async () => {
    const f = createFixture();
    const first = await f.issuePack();
    f.clock.advance(5);
    const second = await f.renewPack(first.pack, first.bearer);
    expect((await f.status(first.pack.pack_id)).body).toMatchObject({
      chain_depth: 1,
      chain_digest: second.pack.chain_digest,
      updated_at: '2026-01-01T00:00:05Z',
    });
  });

  describe('access (spec §4.2, §5.2)', () => {
    type Who = (f: Fixture, bearer: SigningKey) => SigningKey | null;
    const cases: [name: string, who: Who, status: number][] = [
      ['the issuing Principal', (f) => f.principal, 200],
      ['the Operator (a staff key)', (f) => f.staff, 200],
      ['anonymous (no signature)', () => null, 401],
      ['the bearer\'s key (not a registered account)', (_f, bearer) => bearer, 401],
      ['an unregistered key', () => createSigningKey(), 401],
      ['another Principal', (f) => provisionPrincipal(f, '100'), 403],
      ['a redeemer', (f) => f.redeemer, 403],
    ];

    it.each(cases)('%s → %i', async (_name, who, status) => {
      const f = createFixture();
      const { pack, bearer } = await f.issuePack();
      const reply = await f.status(pack.pack_id, who(f, bearer));
      if (status === 200) expect(reply.body.status).toBe('ACTIVE');
      else expectProblem(reply, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
    });
  });

  it('answers 404 for an unknown pack only after authentication', async () => {
    const f = createFixture();
    const unknown = newUuid();
    expectProblem(await f.status(unknown, f.staff), 'NOT_FOUND');
    expectProblem(await f.status(unknown, null), 'UNAUTHENTICATED');
    expectProblem(await f.status('not-a-uuid', f.staff), 'NOT_FOUND');
  });

  it('answers 403 to a Principal for a pack that does not exist: it is not that pack\'s issuer', async () => {
    const f = createFixture();
    expectProblem(await f.status(newUuid(), f.principal), 'FORBIDDEN');
  });

  it.each([
    ['301 s old', -301, 'UNAUTHENTICATED'],
    ['300 s old', -300, undefined],
    ['301 s ahead', 301, 'UNAUTHENTICATED'],
  ] as const)('a signature created %s', async (_name, offset, code) => {
    const f = createFixture();
    const { pack } = await f.issuePack();
    const reply = await f.send('GET', `/v1/cashpack/${pack.pack_id}/status`, { signer: f.principal, signedAt: f.clock.nowSeconds() + offset });
    if (code) expectProblem(reply, code);
    else expect(reply.status).toBe(200);
  });

  it('refuses a signature made for another pack\'s path', async () => {
    const f = createFixture();
    const a = await f.issuePack();
    const b = await f.issuePack();
    const headers = signRequest(
      { method: 'GET', authority: AUTHORITY, path: `/v1/cashpack/${a.pack.pack_id}/status` },
      { secretKey: f.principal.secretKey, kid: f.principal.jwk.kid },
      f.clock.nowSeconds(),
    );
    expectProblem(await f.send('GET', `/v1/cashpack/${b.pack.pack_id}/status`, { headers: { ...headers } }), 'UNAUTHENTICATED');
  });
});
