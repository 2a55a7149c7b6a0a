// Shared set-up for the Operator tests: an Operator on a frozen clock with a
// provisioned Principal, redeemer and staff key, and helpers that send real signed
// messages to `operator.handler` in process.
import { expect } from 'vitest';
import { PROBLEM_CONTENT_TYPE, PROBLEM_STATUS, signRequestAs, type ProblemCode, type SignatureLayout } from '../../../profile/index.ts';
import {
  buildLockRequest,
  buildRedemption,
  buildRenewal,
  createSigningKey,
  validateMessage,
  type AssetDescriptor,
  type CashPack,
  type LockRequest,
  type LockRequestInput,
  type RedemptionInput,
  type RedemptionRequest,
  type RenewalEntry,
  type RenewalInput,
  type SigningKey,
} from '../../../profile/cashpack/index.ts';
import { Clock } from '../../../reference/clock.ts';
import type { RefRequest } from '../../../reference/http/types.ts';
import type { Faults } from '../../../reference/mutants.ts';
import { createOperator, type Operator, type Policy, type PrincipalBalance } from '../../../reference/operator/index.ts';

/** 2026-01-01T00:00:00Z: the frozen instant every test starts at. */
export const T0 = Date.UTC(2026, 0, 1);
export const EUR: AssetDescriptor = { type: 'fiat', code: 'EUR' };
export const AUTHORITY = 'operator.test';
export const HOUR_MS = 3_600_000;

/** A response as a client sees it: the body went through JSON, as on the wire. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  // Test code reads arbitrary members of responses; `any` keeps that terse.
  readonly body: any;
}

export interface SendOptions {
  /** A JSON value, sent as application/json. */
  readonly json?: unknown;
  /** Raw bytes or text, sent as is. */
  readonly raw?: Uint8Array | string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Adds an HTTP Message Signature by this key (PROFILE.md §2.4). */
  readonly signer?: SigningKey;
  /** The layout of the HTTP Message Signature (the profile's unless given). */
  readonly layout?: SignatureLayout;
  /** `created` of that signature, in seconds; defaults to the clock. */
  readonly signedAt?: number;
  /** The request's query (without the `?`), left out of @path as RFC 9421 §2.2.6 says. */
  readonly query?: string;
}

export interface FixtureOptions {
  readonly policy?: Partial<Policy>;
  /** The Principal's available balance; defaults to the maximum amount. */
  readonly balance?: string;
  readonly redeemerLevel?: number;
  readonly signingSeed?: Uint8Array;
  readonly idSeed?: Uint8Array;
  /** A mutant's fault (reference/mutants.ts); requests then go through `operator.serve`. */
  readonly faults?: Faults;
}

export interface Fixture {
  readonly clock: Clock;
  readonly operator: Operator;
  readonly principal: SigningKey;
  readonly redeemer: SigningKey;
  readonly staff: SigningKey;
  send(method: string, path: string, options?: SendOptions): Promise<Reply>;
  lockRequest(overrides?: Partial<LockRequestInput>): LockRequest;
  issue(lock?: LockRequest): Promise<Reply>;
  /** Issues a pack to a fresh bearer key and asserts success. */
  issuePack(overrides?: Partial<LockRequestInput>): Promise<{ readonly pack: CashPack; readonly bearer: SigningKey }>;
  renewal(pack: CashPack, bearer: SigningKey, overrides?: Partial<RenewalInput>): { readonly entry: RenewalEntry; readonly next: SigningKey };
  renew(pack: CashPack, entry: RenewalEntry, options?: SendOptions): Promise<Reply>;
  /** Renews to a fresh key and asserts success. */
  renewPack(pack: CashPack, bearer: SigningKey): Promise<{ readonly pack: CashPack; readonly bearer: SigningKey }>;
  redemption(pack: CashPack, bearer: SigningKey, overrides?: Partial<RedemptionInput>): RedemptionRequest;
  /** Sends a redemption signed by the fixture's redeemer unless `signer` is given (or null for none). */
  redeem(pack: CashPack, redemption: RedemptionRequest, options?: { readonly signer?: SigningKey | null; readonly signedAt?: number; readonly layout?: SignatureLayout }): Promise<Reply>;
  /** Reads a status, signed by the Principal unless `signer` is given (or null for none). */
  status(packId: string, signer?: SigningKey | null): Promise<Reply>;
  balance(kid?: string): PrincipalBalance;
  redeemed(kid?: string): string;
}

export function createFixture(options: FixtureOptions = {}): Fixture {
  const clock = new Clock();
  clock.freeze(T0);
  const operator = createOperator({
    clock,
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.signingSeed ? { signingSeed: options.signingSeed } : {}),
    ...(options.idSeed ? { idSeed: options.idSeed } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
  });
  const principal = createSigningKey();
  const redeemer = createSigningKey();
  const staff = createSigningKey();
  mustProvision(operator.provisionPrincipal({ public_key: principal.jwk, asset: EUR, balance: options.balance ?? operator.policy.max_amount }));
  mustProvision(operator.provisionRedeemer({ public_key: redeemer.jwk, identity_level: options.redeemerLevel ?? 2 }));
  mustProvision(operator.provisionStaff({ public_key: staff.jwk }));

  const send = async (method: string, path: string, opts: SendOptions = {}): Promise<Reply> => {
    const body = opts.json !== undefined ? encode(JSON.stringify(opts.json)) : typeof opts.raw === 'string' ? encode(opts.raw) : (opts.raw ?? new Uint8Array());
    const headers: Record<string, string> = {};
    if (opts.json !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, opts.headers);
    if (opts.signer) {
      const target = { method, authority: AUTHORITY, path, ...(body.length > 0 ? { body } : {}) };
      Object.assign(headers, signRequestAs(target, { secretKey: opts.signer.secretKey, kid: opts.signer.jwk.kid }, opts.signedAt ?? clock.nowSeconds(), opts.layout ?? 'profile'));
    }
    const request: RefRequest = { method, path, query: new URLSearchParams(opts.query ?? ''), headers, body, authority: AUTHORITY, secure: true };
    const response = await operator.serve(request);
    const text = response.body === undefined ? undefined : JSON.stringify(response.body);
    return { status: response.status, headers: { ...response.headers }, body: text === undefined ? undefined : JSON.parse(text) };
  };

  const fixture: Fixture = {
    clock,
    operator,
    principal,
    redeemer,
    staff,
    send,
    lockRequest: (overrides = {}) =>
      buildLockRequest({
        principal,
        amount: '100',
        asset: EUR,
        initialBearer: createSigningKey().jwk,
        requested_expiry: clock.now() + HOUR_MS,
        created_at: clock.now(),
        ...overrides,
      }),
    issue: (lock = fixture.lockRequest()) => send('POST', '/v1/cashpack/issue', { json: lock }),
    async issuePack(overrides = {}) {
      const bearer = createSigningKey();
      const reply = await fixture.issue(fixture.lockRequest({ initialBearer: bearer.jwk, ...overrides }));
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return { pack: reply.body as CashPack, bearer };
    },
    renewal(pack, bearer, overrides = {}) {
      const next = createSigningKey();
      return { entry: buildRenewal({ bearer, pack, new_bearer: next.jwk, created_at: clock.now(), ...overrides }), next };
    },
    renew: (pack, entry, opts = {}) => send('POST', '/v1/cashpack/renew', { ...opts, json: { cash_pack: pack, renewal: entry } }),
    async renewPack(pack, bearer) {
      const { entry, next } = fixture.renewal(pack, bearer);
      const reply = await fixture.renew(pack, entry);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return { pack: reply.body as CashPack, bearer: next };
    },
    redemption: (pack, bearer, overrides = {}) =>
      buildRedemption({ bearer, pack, redeemer_kid: redeemer.jwk.kid, created_at: clock.now(), ...overrides }),
    redeem: (pack, redemption, opts = {}) => {
      const signer = opts.signer === undefined ? redeemer : opts.signer;
      return send('POST', '/v1/cashpack/redeem', {
        json: { cash_pack: pack, redemption },
        ...(signer ? { signer } : {}),
        ...(opts.signedAt !== undefined ? { signedAt: opts.signedAt } : {}),
        ...(opts.layout !== undefined ? { layout: opts.layout } : {}),
      });
    },
    status: (packId, signer) => {
      const key = signer === undefined ? principal : signer;
      return send('GET', `/v1/cashpack/${packId}/status`, key ? { signer: key } : {});
    },
    balance: (kid = principal.jwk.kid) => {
      const outcome = operator.balance(kid);
      if (!outcome.ok) throw new Error(outcome.problem.detail);
      return outcome.value;
    },
    redeemed: (kid = redeemer.jwk.kid) => {
      const outcome = operator.redeemerBalance(kid);
      if (!outcome.ok) throw new Error(outcome.problem.detail);
      return outcome.value.available;
    },
  };
  return fixture;
}

/** Asserts a problem response with this code, its profile status and a valid problem body (PROFILE.md §11). */
export function expectProblem(reply: Reply, code: ProblemCode): void {
  expect({ code: reply.body?.code, status: reply.status }, JSON.stringify(reply.body)).toEqual({ code, status: PROBLEM_STATUS[code] });
  expect(reply.headers['content-type']).toBe(PROBLEM_CONTENT_TYPE);
  expect(validateMessage('problem', reply.body)).toEqual({ ok: true });
}

/** A Principal other than the fixture's, provisioned with a balance. */
export function provisionPrincipal(fixture: Fixture, balance: string): SigningKey {
  const key = createSigningKey();
  mustProvision(fixture.operator.provisionPrincipal({ public_key: key.jwk, asset: EUR, balance }));
  return key;
}

/** A redeemer other than the fixture's, at this identity level. */
export function provisionRedeemer(fixture: Fixture, identityLevel: number): SigningKey {
  const key = createSigningKey();
  mustProvision(fixture.operator.provisionRedeemer({ public_key: key.jwk, identity_level: identityLevel }));
  return key;
}

function mustProvision(outcome: { readonly ok: boolean; readonly problem?: { readonly detail: string } }): void {
  if (!outcome.ok) throw new Error(`provisioning failed: ${outcome.problem?.detail}`);
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
