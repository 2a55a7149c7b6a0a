// PROFILE.md §5 renew and redeem: checks run in order and the first failure
// answers, so a request breaking two rules gets one predictable code. Also the
// freshness window (PROFILE.md §6) on both sides for renew and redeem.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeB64url, newUuid, signObject } from '../../../profile/index.ts';
import { createSigningKey, type CashPack, type SigningKey } from '../../../profile/cashpack/index.ts';
import type { ProblemCode } from '../../../profile/index.ts';
import { createFixture, expectProblem, type Fixture, type Reply } from './fixture.ts';

type Scenario = (f: Fixture, pack: CashPack, bearer: SigningKey) => Promise<Reply>;
const stranger = createSigningKey();
const badSignature = <T extends Record<string, unknown>>(type: 'renewal-entry' | 'redemption-request', m: T) => signObject(type, m, stranger.secretKey);

describe('renew: check order', () => {
  const cases: [name: string, expected: ProblemCode, scenario: Scenario][] = [
    ['unknown pack (3) with a bad entry signature (4) → NOT_FOUND', 'NOT_FOUND', async (_f, _pack, bearer) => {
      const seed = randomBytes(32);
      const issuer = createFixture({ signingSeed: seed });
      const other = createFixture({ signingSeed: seed });
      const { pack } = await issuer.issuePack();
      return other.renew(pack, badSignature('renewal-entry', other.renewal(pack, bearer).entry));
    }],
    ['bad entry signature (4) and stale (5) → INVALID_SIGNATURE', 'INVALID_SIGNATURE', (f, pack, bearer) =>
      f.renew(pack, badSignature('renewal-entry', f.renewal(pack, bearer, { created_at: f.clock.now() - 3_600_000 }).entry))],
    ['stale (5) replay of a recorded id (6) → STALE_REQUEST', 'STALE_REQUEST', async (f, pack, bearer) => {
      const id = newUuid();
      await f.renew(pack, f.renewal(pack, stranger, { renewal_id: id }).entry); // recorded, BEARER_MISMATCH
      return f.renew(pack, f.renewal(pack, bearer, { renewal_id: id, created_at: f.clock.now() - 301_000 }).entry);
    }],
    ['not ACTIVE (7) and a stranger (8) → INSTRUMENT_NOT_ACTIVE', 'INSTRUMENT_NOT_ACTIVE', (f, pack) => {
      f.operator.cancel(pack.pack_id);
      return f.renew(pack, f.renewal(pack, stranger).entry);
    }],
    ['wrong digest (9) at the maximum depth (10) → CHAIN_DIGEST_MISMATCH', 'CHAIN_DIGEST_MISMATCH', async (f, pack, bearer) => {
      let held = { pack, bearer };
      for (let i = 0; i < f.operator.policy.max_chain_depth; i++) held = await f.renewPack(held.pack, held.bearer);
      return f.renew(held.pack, f.renewal(held.pack, held.bearer, { prev_chain_digest: encodeB64url(randomBytes(32)) }).entry);
    }],
  ];

  it.each(cases)('%s', async (_name, expected, scenario) => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    expectProblem(await scenario(f, pack, bearer), expected);
  });
});

describe('redeem: check order', () => {
  const cases: [name: string, expected: ProblemCode, scenario: Scenario][] = [
    ['bad redemption signature (4) and no redeemer identity (9) → INVALID_SIGNATURE', 'INVALID_SIGNATURE', (f, pack, bearer) =>
      f.redeem(pack, badSignature('redemption-request', f.redemption(pack, bearer)), { signer: null })],
    ['stale (5) and no redeemer identity (9) → STALE_REQUEST', 'STALE_REQUEST', (f, pack, bearer) =>
      f.redeem(pack, f.redemption(pack, bearer, { created_at: f.clock.now() + 301_000 }), { signer: null })],
    ['not ACTIVE (7) and a stranger (8) → INSTRUMENT_NOT_ACTIVE', 'INSTRUMENT_NOT_ACTIVE', (f, pack) => {
      f.clock.advance(3_600);
      return f.redeem(pack, f.redemption(pack, stranger));
    }],
    ['a redemption replayed (6) after the pack was redeemed (7) → DUPLICATE_ID', 'DUPLICATE_ID', async (f, pack, bearer) => {
      const redemption = f.redemption(pack, bearer);
      expect((await f.redeem(pack, redemption)).status).toBe(200);
      return f.redeem(pack, redemption);
    }],
  ];

  it.each(cases)('%s', async (_name, expected, scenario) => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    expectProblem(await scenario(f, pack, bearer), expected);
  });
});

describe('freshness of renewals and redemptions (PROFILE.md §6)', () => {
  const offsets: [offset: number, ok: boolean][] = [[-301, false], [-300, true], [300, true], [301, false]];
  const cases = offsets.flatMap(([offset, ok]) => (['renew', 'redeem'] as const).map((endpoint) => [endpoint, offset, ok] as const));

  it.each(cases)('%s with created_at %i s from now: accepted %s', async (endpoint, offset, ok) => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    const created_at = f.clock.now() + offset * 1000;
    const reply = endpoint === 'renew'
      ? await f.renew(pack, f.renewal(pack, bearer, { created_at }).entry)
      : await f.redeem(pack, f.redemption(pack, bearer, { created_at }));
    if (ok) expect(reply.status).toBe(200);
    else expectProblem(reply, 'STALE_REQUEST');
  });
});
