// The ways to switch a mutant on from outside the reference: startReference's
// `mutant` option (serve --mutant) and the module adapter's `settings.mutant`,
// for suite and fuzzer mutants alike. A fuzzer mutant (catcher 'fuzzer': a part
// written again in reference/faults/) differs from the correct reference where
// its description says, seen here with one direct request per role (the fuzz
// campaign tests prove the fuzzer finds each one).
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLockRequest, createSigningKey, type CashPack, type LockRequest } from '../../../profile/cashpack/index.ts';
import { createRole } from '../../../reference/adapter.ts';
import type { RefRequest, RefResponse } from '../../../reference/http/types.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';

interface AppRole {
  read(input: unknown): Promise<{ ok: boolean; code?: string; violations?: { requirement: string }[] }>;
  close(): Promise<void>;
}

const CPR = {
  cpr_version: 'CPR-1.0',
  request_id: '4e1f7a2c-9b3d-4c5e-8f6a-0b1c2d3e4f50',
  created_at: '2030-01-01T00:00:00Z',
  expires_at: '2099-01-01T00:00:00Z',
  payee: { rail_address: { iban: 'DE89370400440532013000' } },
  value: { amount: '1250', asset: { type: 'fiat', code: 'EUR' } },
  beneficiary_name: 'Beispiel Buchhandlung GmbH',
};
const CPR_2 = { ...CPR, cpr_version: 'CPR-2.0' };

describe('startReference({ mutant })', () => {
  let correct: RunningReference;
  let mutant: RunningReference;
  beforeAll(async () => {
    [correct, mutant] = await Promise.all([startReference(), startReference({ mutant: 'payee-serves-plaintext' })]);
  });
  afterAll(async () => {
    await Promise.all([correct?.close(), mutant?.close()]);
  });

  it('rejects an unknown mutant name before it listens', async () => {
    await expect(startReference({ mutant: 'no-such-mutant' })).rejects.toThrow(/unknown mutant "no-such-mutant"/);
  });

  it('reports the mutant it runs, and none for the correct reference', () => {
    expect(mutant.mutant).toBe('payee-serves-plaintext');
    expect(correct.mutant).toBeUndefined();
  });

  it('switches the fault on in the running payee: a CPR over plaintext', async () => {
    const statusOver = async (ref: RunningReference) => {
      const { token } = await ref.payee.createRequest({ sub_interface: 'IBAN', amount: '1250' });
      const response = await request(`${ref.plaintextUrl}/cpr/${token}`);
      await response.body.dump();
      return response.statusCode;
    };
    expect(await statusOver(correct)).toBe(403);
    expect(await statusOver(mutant)).toBe(200);
  });
});

describe("the module adapter's settings.mutant", () => {
  it('rejects an unknown mutant name', () => {
    expect(() => createRole({ role: 'paying-app', settings: { mutant: 'no-such-mutant' } })).toThrow(/unknown mutant/);
    expect(() => createRole({ role: 'paying-app', settings: { mutant: 7 } })).toThrow(TypeError);
  });

  it('switches the fault on in the role it creates', async () => {
    const correct = createRole({ role: 'paying-app', settings: {} }) as AppRole;
    const mutant = createRole({ role: 'paying-app', settings: { mutant: 'app-version-unchecked' } }) as AppRole;
    try {
      expect(await correct.read({ kind: 'object', value: CPR_2 })).toMatchObject({ ok: false, code: 'CPR_VERSION_UNSUPPORTED' });
      expect(await mutant.read({ kind: 'object', value: CPR_2 })).toMatchObject({ ok: true });
    } finally {
      await Promise.all([correct.close(), mutant.close()]);
    }
  });
});

/** A request to one of the reference's handlers, in process, as its server hands it over. */
function requestOf(method: string, path: string, body?: unknown): RefRequest {
  return { method, path, query: new URLSearchParams(), headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? new Uint8Array() : new TextEncoder().encode(JSON.stringify(body)), authority: 'reference.test', secure: true };
}

/** The correct reference and one with `mutant` on, both started with startReference. */
function startPair(mutant: string): { correct: RunningReference; faulty: RunningReference } {
  const pair = {} as { correct: RunningReference; faulty: RunningReference };
  beforeAll(async () => {
    [pair.correct, pair.faulty] = await Promise.all([startReference({ plaintextPort: null, freezeClock: true }), startReference({ plaintextPort: null, freezeClock: true, mutant })]);
  });
  afterAll(async () => {
    await Promise.all([pair.correct?.close(), pair.faulty?.close()]);
  });
  return pair;
}

describe('op-replay-store-off, started with startReference({ mutant })', () => {
  const refs = startPair('op-replay-store-off');

  /** A provisioned Principal's Lock Request, sent twice: the two status codes. */
  async function twice(ref: RunningReference): Promise<number[]> {
    const principal = createSigningKey();
    expect(ref.operator.provisionPrincipal({ public_key: principal.jwk, asset: { type: 'fiat', code: 'EUR' }, balance: '1000' }).ok).toBe(true);
    const now = ref.clock.now();
    const lock: LockRequest = buildLockRequest({ principal, amount: '100', asset: { type: 'fiat', code: 'EUR' }, initialBearer: createSigningKey().jwk, requested_expiry: now + 3_600_000, created_at: now });
    const statuses: number[] = [];
    for (const _ of [1, 2]) statuses.push((await ref.operator.serve(requestOf('POST', '/v1/cashpack/issue', lock))).status);
    return statuses;
  }

  it('issues a pack again for a Lock Request it has seen, where the reference answers DUPLICATE_ID', async () => {
    expect(await twice(refs.correct)).toEqual([200, 409]);
    expect(await twice(refs.faulty)).toEqual([200, 200]);
  });
});

describe('op-pack-expiry-late, started with startReference({ mutant })', () => {
  const refs = startPair('op-pack-expiry-late');

  async function expiryOf(ref: RunningReference): Promise<{ requested: string; returned: string }> {
    const principal = createSigningKey();
    ref.operator.provisionPrincipal({ public_key: principal.jwk, asset: { type: 'fiat', code: 'EUR' }, balance: '1000' });
    const now = ref.clock.now();
    const lock = buildLockRequest({ principal, amount: '100', asset: { type: 'fiat', code: 'EUR' }, initialBearer: createSigningKey().jwk, requested_expiry: now + 3_600_000, created_at: now });
    const answer = await ref.operator.serve(requestOf('POST', '/v1/cashpack/issue', lock));
    expect(answer.status).toBe(200);
    return { requested: lock.requested_expiry, returned: (answer.body as CashPack).expiry };
  }

  it('returns a pack whose expiry is a second later than requested', async () => {
    const correct = await expiryOf(refs.correct);
    expect(correct.returned).toBe(correct.requested);
    const faulty = await expiryOf(refs.faulty);
    expect(Date.parse(faulty.returned) - Date.parse(faulty.requested)).toBe(1000);
  });
});

describe('payee fuzzer mutants, started with startReference({ mutant })', () => {
  const caseInsensitive = startPair('payee-token-case-insensitive');
  const cacheable = startPair('payee-refusal-cacheable');

  const get = (ref: RunningReference, path: string): Promise<RefResponse> => Promise.resolve(ref.payee.handler(requestOf('GET', path)));

  it('payee-token-case-insensitive: the upper-case spelling of a token serves the CPR', async () => {
    const statusOf = async (ref: RunningReference) => {
      const { token } = await ref.payee.createRequest({ sub_interface: 'IBAN', amount: '1250' });
      expect(token).not.toBe(token.toUpperCase());
      return (await get(ref, `/cpr/${token.toUpperCase()}`)).status;
    };
    expect(await statusOf(caseInsensitive.correct)).toBe(404);
    expect(await statusOf(caseInsensitive.faulty)).toBe(200);
  });

  it('payee-refusal-cacheable: a refused retrieval goes out without no-store, a served one with it', async () => {
    const cacheControl = async (ref: RunningReference, path: string) => (await get(ref, path)).headers?.['cache-control'];
    expect(await cacheControl(cacheable.correct, '/cpr/0123456789abcdef')).toBe('no-store');
    expect(await cacheControl(cacheable.faulty, '/cpr/0123456789abcdef')).not.toMatch(/no-store/);
    const { token } = await cacheable.faulty.payee.createRequest({ sub_interface: 'IBAN', amount: '1250' });
    expect(await cacheControl(cacheable.faulty, `/cpr/${token}`)).toBe('no-store');
  });
});

describe("paying-app fuzzer mutants, through the module adapter's settings.mutant", () => {
  it.each([
    ['app-bom-stripped', { kind: 'json', text: `\uFEFF${JSON.stringify(CPR)}` }, 'PRF-JSON-1'],
    ['app-nanosecond-fraction-accepted', { kind: 'object', value: { ...CPR, created_at: '2030-01-01T00:00:00.1234567Z' } }, 'PRF-TIME-1'],
    ['app-payer-depth-limited', { kind: 'object', value: { ...CPR, extensions: { 'com.example.x': { a: { b: { c: { payer: { name: 'P' } } } } } } } }, 'CPR-PAYER-1'],
  ])('%s reads what the reference refuses', async (mutant, input, requirement) => {
    const correct = createRole({ role: 'paying-app', settings: {} }) as AppRole;
    const faulty = createRole({ role: 'paying-app', settings: { mutant } }) as AppRole;
    try {
      const refused = await correct.read(input);
      expect(refused).toMatchObject({ ok: false, code: 'CPR_INVALID' });
      expect(refused.violations?.map((v) => v.requirement)).toContain(requirement);
      expect(await faulty.read(input)).toMatchObject({ ok: true });
      // What the fault leaves alone still reads as the reference reads it.
      expect(await faulty.read({ kind: 'object', value: CPR })).toMatchObject({ ok: true });
      expect(await faulty.read({ kind: 'object', value: { ...CPR, cpr_version: 'CPR-2.0' } })).toMatchObject({ ok: false, code: 'CPR_VERSION_UNSUPPORTED' });
    } finally {
      await Promise.all([correct.close(), faulty.close()]);
    }
  });
});
