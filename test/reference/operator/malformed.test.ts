// Step 1 of every POST endpoint (PROFILE.md §1, §4, §5): 413, 415, and 400
// MALFORMED_REQUEST for anything that is not I-JSON or not the message's schema.
import { describe, expect, it } from 'vitest';
import { canonicalJson, signObject } from '../../../profile/index.ts';
import { createSigningKey } from '../../../profile/cashpack/index.ts';
import { createFixture, expectProblem, type Fixture } from './fixture.ts';

type Mutate = (lock: Record<string, unknown>) => unknown;

/** A valid Lock Request with one defect, re-signed so that only the defect is wrong. */
const LOCK_DEFECTS: [name: string, mutate: Mutate][] = [
  ['an unknown member', (l) => ({ ...l, memo: 'hi' })],
  ['a missing member', ({ asset: _asset, ...l }) => l],
  ['amount as a JSON number', (l) => ({ ...l, amount: 100 })],
  ['amount with a leading zero', (l) => ({ ...l, amount: '0100' })],
  ['amount zero', (l) => ({ ...l, amount: '0' })],
  ['amount with a fraction', (l) => ({ ...l, amount: '1.5' })],
  ['request_id in upper case', (l) => ({ ...l, request_id: (l.request_id as string).toUpperCase() })],
  ['request_id that is not a UUID', (l) => ({ ...l, request_id: 'abc' })],
  ['created_at with a fraction of a second', (l) => ({ ...l, created_at: '2026-01-01T00:00:00.000Z' })],
  ['created_at with an offset instead of Z', (l) => ({ ...l, created_at: '2026-01-01T01:00:00+01:00' })],
  ['requested_expiry on a day that does not exist', (l) => ({ ...l, requested_expiry: '2026-02-30T00:00:00Z' })],
  ['requested_expiry in a leap second', (l) => ({ ...l, requested_expiry: '2026-06-30T23:59:60Z' })],
  ['a JWK whose kid is not its thumbprint', (l) => ({ ...l, initial_bearer_pk: { ...(l.initial_bearer_pk as object), kid: createSigningKey().jwk.kid } })],
  ['a JWK with a private member d', (l) => ({ ...l, initial_bearer_pk: { ...(l.initial_bearer_pk as object), d: 'AAAA' } })],
  ['a JWK of another curve', (l) => ({ ...l, initial_bearer_pk: { ...(l.initial_bearer_pk as object), crv: 'X25519' } })],
  ['a JWK x with padding', (l) => ({ ...l, initial_bearer_pk: { ...(l.initial_bearer_pk as object), x: `${(l.initial_bearer_pk as { x: string }).x}=` } })],
  ['an asset without a code', (l) => ({ ...l, asset: { type: 'fiat' } })],
  ['an asset of an unknown type', (l) => ({ ...l, asset: { type: 'cash', code: 'EUR' } })],
  ['an array instead of an object', () => []],
  ['null', () => null],
];

describe('MALFORMED_REQUEST', () => {
  it.each(LOCK_DEFECTS)('issue: refuses a Lock Request with %s', async (_name, mutate) => {
    const f = createFixture();
    const lock = f.lockRequest();
    const { signature: _signature, ...unsigned } = lock as unknown as Record<string, unknown>;
    const broken = mutate(unsigned);
    const body = typeof broken === 'object' && broken !== null && !Array.isArray(broken)
      ? signObject('lock-request', broken as Record<string, unknown>, f.principal.secretKey)
      : broken;
    expectProblem(await f.issue(body as never), 'MALFORMED_REQUEST');
    expect(f.balance()).toMatchObject({ locked: '0' });
  });

  it.each([
    ['a signature with padding', (s: string) => `${s}==`],
    ['a signature with a standard-base64 character', (s: string) => `+${s.slice(1)}`],
    // The last of 86 characters carries 2 bits: only A, Q, g and w leave the other 4 zero.
    ['a signature with non-zero unused bits', (s: string) => s.slice(0, -1) + ({ A: 'B', Q: 'R', g: 'h', w: 'x' } as Record<string, string>)[s.at(-1)!]],
    ['a signature of 63 bytes', (s: string) => s.slice(0, 84)],
  ])('issue: refuses %s (strict base64url, PROFILE.md §1)', async (_name, change) => {
    const f = createFixture();
    const lock = f.lockRequest();
    const signature = change(lock.signature);
    expect(signature).not.toBe(lock.signature);
    expectProblem(await f.issue({ ...lock, signature }), 'MALFORMED_REQUEST');
  });

  it.each([
    ['not JSON', '{"request_id": '],
    ['a duplicate member name', '{"a":1,"a":2}'],
    ['a lone surrogate', '{"a":"\\ud800"}'],
    ['a byte order mark', '\ufeff{}'],
    ['an empty body', ''],
    ['nesting deeper than 32', `${'['.repeat(40)}${']'.repeat(40)}`],
  ])('refuses %s on every POST endpoint', async (_name, raw) => {
    const f = createFixture();
    for (const path of ['/v1/cashpack/issue', '/v1/cashpack/renew', '/v1/cashpack/redeem', '/_control/operator/principals']) {
      expectProblem(await f.send('POST', path, { raw, headers: { 'content-type': 'application/json' } }), 'MALFORMED_REQUEST');
    }
  });

  it('refuses a duplicate member inside an otherwise valid Lock Request', async () => {
    const f = createFixture();
    const lock = f.lockRequest();
    const text = canonicalJson(lock).replace('{', `{"amount":"1",`);
    expectProblem(await f.send('POST', '/v1/cashpack/issue', { raw: text, headers: { 'content-type': 'application/json' } }), 'MALFORMED_REQUEST');
  });

  it.each([
    ['renew', (f: Fixture, pack: never, bearer: never) => f.renew(pack, f.renewal(pack, bearer, { pack_id: crypto.randomUUID() }).entry)],
    ['redeem', (f: Fixture, pack: never, bearer: never) => f.redeem(pack, f.redemption(pack, bearer, { pack_id: crypto.randomUUID() }))],
  ])('%s: refuses a message naming another pack_id than the cash-pack', async (_name, attempt) => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    expectProblem(await attempt(f, pack as never, bearer as never), 'MALFORMED_REQUEST');
  });

  it('renew: refuses a cash-pack with an unknown member', async () => {
    const f = createFixture();
    const { pack, bearer } = await f.issuePack();
    expectProblem(await f.renew({ ...pack, note: 'x' } as never, f.renewal(pack, bearer).entry), 'MALFORMED_REQUEST');
  });
});

describe('media type and size', () => {
  it.each([
    ['no Content-Type', {}],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/jsonx', { 'content-type': 'application/jsonx' }],
  ])('answers 415 for %s', async (_name, headers) => {
    const f = createFixture();
    const reply = await f.send('POST', '/v1/cashpack/issue', { raw: JSON.stringify(f.lockRequest()), headers });
    expectProblem(reply, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts application/json with a charset parameter', async () => {
    const f = createFixture();
    const reply = await f.send('POST', '/v1/cashpack/issue', { raw: JSON.stringify(f.lockRequest()), headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(reply.status).toBe(200);
  });

  it('answers 413 above max_body_bytes, in process as over HTTP', async () => {
    const f = createFixture({ policy: { max_body_bytes: 1024 } });
    const reply = await f.send('POST', '/v1/cashpack/issue', { raw: ' '.repeat(1025), headers: { 'content-type': 'application/json' } });
    expectProblem(reply, 'PAYLOAD_TOO_LARGE');
  });
});
