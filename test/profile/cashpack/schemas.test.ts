// The cash-pack schemas and the rules beyond them (PROFILE.md §1, §2.1, §4, §11).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROBLEM_STATUS, SPEC_ERROR_CODES, problem, signObject } from '../../../profile/index.ts';
import {
  MESSAGE_KINDS,
  SCHEMA_ID_BASE,
  buildLockRequest,
  buildRedemption,
  buildRenewal,
  createSigningKey,
  validateMessage,
  type CashPack,
  type MessageKind,
} from '../../../profile/cashpack/index.ts';

const principal = createSigningKey();
const bearer = createSigningKey();
const operator = createSigningKey();
const T = Date.UTC(2026, 0, 1);
const EUR = { type: 'fiat', code: 'EUR' } as const;

const lock = buildLockRequest({ principal, amount: '100', asset: EUR, initialBearer: bearer.jwk, requested_expiry: T + 3_600_000, created_at: T });
const pack: CashPack = signObject(
  'cash-pack',
  {
    pack_id: '0b8f5c8e-3f1a-4c2b-9d7e-1a2b3c4d5e6f',
    amount: '100',
    asset: EUR,
    issued_at: '2026-01-01T00:00:00Z',
    expiry: '2026-01-01T01:00:00Z',
    initial_bearer_pk: bearer.jwk,
    current_bearer_pk: bearer.jwk,
    renewal_chain: [] as CashPack['renewal_chain'],
    chain_digest: 'A'.repeat(43),
    operator_kid: operator.jwk.kid,
  },
  operator.secretKey,
);
const renewal = buildRenewal({ bearer, pack, new_bearer: createSigningKey().jwk, created_at: T });
const redemption = buildRedemption({ bearer, pack, redeemer_kid: createSigningKey().jwk.kid, created_at: T });

const VALID: Record<MessageKind, unknown> = {
  jwk: bearer.jwk,
  asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' },
  'lock-request': lock,
  'cash-pack': { ...pack, renewal_chain: [renewal] },
  'renewal-entry': renewal,
  'renew-request': { cash_pack: pack, renewal },
  'redemption-request': redemption,
  'redeem-request': { cash_pack: pack, redemption },
  'redemption-confirmation': {
    pack_id: pack.pack_id,
    redemption_id: redemption.redemption_id,
    redeemer_kid: redemption.redeemer_kid,
    amount: '100',
    asset: EUR,
    chain_digest: pack.chain_digest,
    redeemed_at: '2026-01-01T00:00:10Z',
    operator_kid: operator.jwk.kid,
    signature: pack.signature,
  },
  status: {
    pack_id: pack.pack_id,
    status: 'EXPIRED',
    amount: '100',
    asset: EUR,
    expiry: pack.expiry,
    chain_depth: 0,
    chain_digest: pack.chain_digest,
    updated_at: pack.expiry,
  },
  policy: {
    profile: 'CPP-PROFILE-1.0',
    operator_kid: operator.jwk.kid,
    assets: [EUR],
    max_amount: '1000000',
    max_chain_depth: 8,
    expiry_min_seconds: 60,
    expiry_max_seconds: 2_592_000,
    required_identity_level: 2,
    request_window_seconds: 300,
    max_body_bytes: 65_536,
  },
  pubkey: { keys: [{ ...operator.jwk, use: 'sig', alg: 'EdDSA' }] },
  problem: { ...problem('DUPLICATE_ID', 'seen'), instance: '/v1/cashpack/issue' },
};

describe('cash-pack schemas', () => {
  it('has one schema file per message kind, each with its $id', () => {
    const files = readdirSync(new URL('../../../profile/schemas/cashpack/', import.meta.url)).filter((n) => n.endsWith('.schema.json'));
    expect(files.sort()).toEqual(['common', ...MESSAGE_KINDS].map((k) => `${k}.schema.json`).sort());
    for (const file of files) {
      const schema = JSON.parse(readFileSync(new URL(`../../../profile/schemas/cashpack/${file}`, import.meta.url), 'utf8')) as { $id: string; $schema: string };
      expect(schema.$id).toBe(`${SCHEMA_ID_BASE}${file}`);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    }
  });

  it.each(MESSAGE_KINDS)('accepts a valid %s', (kind) => {
    expect(validateMessage(kind, VALID[kind])).toEqual({ ok: true });
  });

  it.each(MESSAGE_KINDS.filter((k) => k !== 'problem'))('closes %s: an unknown member is invalid', (kind) => {
    const result = validateMessage(kind, { ...(VALID[kind] as object), unexpected: 1 });
    expect(result).toEqual({ ok: false, errors: ['/: unknown member "unexpected"'] });
  });

  type Case = [name: string, kind: MessageKind, value: unknown, error: RegExp];
  const jwk = bearer.jwk;
  const cases: Case[] = [
    ['a JWK whose kid is not its thumbprint', 'jwk', { ...jwk, kid: principal.jwk.kid }, /thumbprint/],
    ['a JWK with d', 'jwk', { ...jwk, d: 'AAAA' }, /unknown member "d"/],
    ['a JWK x of 31 bytes', 'jwk', { ...jwk, x: jwk.x.slice(0, 42) }, /\/x/],
    ['a JWK x with padding', 'jwk', { ...jwk, x: `${jwk.x}=` }, /\/x/],
    ['a fiat code in lower case', 'asset', { type: 'fiat', code: 'eur' }, /\/code/],
    ['a stablecoin without chain_id', 'asset', { type: 'stablecoin', code: 'USDC' }, /missing member "chain_id"/],
    ['a tokenized asset with a malformed chain_id', 'asset', { type: 'tokenized', code: 'T', chain_id: '01' }, /\/chain_id/],
    ['a crypto code with a space', 'asset', { type: 'crypto', code: 'B TC' }, /\/code/],
    ['an amount of zero', 'lock-request', { ...lock, amount: '0' }, /\/amount/],
    ['an amount of 79 digits', 'lock-request', { ...lock, amount: '1'.repeat(79) }, /\/amount/],
    ['an amount as a number', 'lock-request', { ...lock, amount: 100 }, /\/amount/],
    ['an upper-case UUID', 'lock-request', { ...lock, request_id: lock.request_id.toUpperCase() }, /\/request_id/],
    ['a timestamp with a fraction', 'lock-request', { ...lock, created_at: '2026-01-01T00:00:00.5Z' }, /\/created_at/],
    ['a timestamp with a lower-case z', 'lock-request', { ...lock, created_at: '2026-01-01T00:00:00z' }, /\/created_at/],
    ['February 30', 'lock-request', { ...lock, requested_expiry: '2026-02-30T00:00:00Z' }, /\/requested_expiry: must be a cash-pack timestamp/],
    ['a leap second', 'lock-request', { ...lock, requested_expiry: '2026-12-31T23:59:60Z' }, /\/requested_expiry/],
    ['24:00', 'lock-request', { ...lock, requested_expiry: '2026-01-01T24:00:00Z' }, /\/requested_expiry/],
    ['a signature with non-zero unused bits', 'lock-request', { ...lock, signature: `${lock.signature.slice(0, 85)}B` }, /\/signature/],
    ['a digest of 33 bytes', 'renewal-entry', { ...renewal, prev_chain_digest: 'A'.repeat(44) }, /\/prev_chain_digest/],
    ['a JWK with a bad kid nested in a renewal chain', 'cash-pack', { ...pack, renewal_chain: [{ ...renewal, bearer_pk: { ...jwk, kid: principal.jwk.kid } }] }, /\/renewal_chain\/0\/bearer_pk: kid/],
    ['a renewal for another pack', 'renew-request', { cash_pack: pack, renewal: { ...renewal, pack_id: lock.request_id } }, /\/renewal\/pack_id: must equal/],
    ['a redemption for another pack', 'redeem-request', { cash_pack: pack, redemption: { ...redemption, pack_id: lock.request_id } }, /\/redemption\/pack_id: must equal/],
    ['an unknown status', 'status', { ...(VALID.status as object), status: 'PENDING' }, /\/status/],
    ['a negative chain_depth', 'status', { ...(VALID.status as object), chain_depth: -1 }, /\/chain_depth/],
    ['a policy whose minimum expiry exceeds its maximum', 'policy', { ...(VALID.policy as object), expiry_min_seconds: 10, expiry_max_seconds: 9 }, /expiry_min_seconds/],
    ['a policy whose profile is no profile identifier (which one it is, is judged apart: profile_id)', 'policy', { ...(VALID.policy as object), profile: 'profile 2' }, /\/profile/],
    ['a policy with an identity level of 4', 'policy', { ...(VALID.policy as object), required_identity_level: 4 }, /\/required_identity_level/],
    ['a JWK set of two keys', 'pubkey', { keys: [(VALID.pubkey as { keys: unknown[] }).keys[0], (VALID.pubkey as { keys: unknown[] }).keys[0]] }, /\/keys/],
    ['a JWK set key without use', 'pubkey', { keys: [operator.jwk] }, /missing member "use"/],
    ['a problem whose status is not its code\'s', 'problem', { ...problem('DUPLICATE_ID', 'x'), status: 400 }, /\/status: must be 409/],
    ['a problem whose type is not its code\'s', 'problem', { ...problem('DUPLICATE_ID', 'x'), type: 'https://cpr-conformance.dev/problems/OTHER' }, /\/type/],
    ['a problem with an unknown code', 'problem', { ...problem('DUPLICATE_ID', 'x'), code: 'SOMETHING' }, /\/code/],
  ];

  it.each(cases)('rejects %s', (_name, kind, value, error) => {
    const result = validateMessage(kind, value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.join('\n')).toMatch(error);
  });

  it('rejects non-objects without throwing', () => {
    for (const kind of MESSAGE_KINDS) {
      for (const value of [null, 1, 'x', [], true, undefined]) expect(validateMessage(kind, value).ok).toBe(false);
    }
  });

  it('gives each of the ten codes of spec §7.1 a status', () => {
    expect(SPEC_ERROR_CODES).toHaveLength(10);
    for (const code of SPEC_ERROR_CODES) expect(PROBLEM_STATUS[code]).toBeGreaterThanOrEqual(400);
  });

  it('agrees with PROBLEM_STATUS for every profile code', () => {
    for (const code of Object.keys(PROBLEM_STATUS) as (keyof typeof PROBLEM_STATUS)[]) {
      expect(validateMessage('problem', problem(code, 'detail'))).toEqual({ ok: true });
    }
  });
});
