import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_ID } from '../../profile/version.ts';
import { startReference, type RunningReference } from '../../reference/start.ts';
import { ipv6Loopback } from '../support/ipv6.ts';

describe('the reference on loopback', () => {
  let ref: RunningReference;
  let agent: Agent;
  const get = (path: string, headers: Record<string, string> = {}) => request(ref.url + path, { dispatcher: agent, headers });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(ref.url + path, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    ref = await startReference({ controlToken: 'sesame' });
    agent = new Agent({ connect: { ca: ref.tls.ca } });
  });
  afterAll(async () => {
    await agent.close();
    await ref.close();
  });

  it('serves every role on one HTTPS origin whose CA the caller trusts', async () => {
    for (const path of ['/.well-known/cashpack-policy.json', '/.well-known/cashpack-pubkey.json']) {
      const res = await get(path);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      await res.body.json();
    }
  });

  it('refuses a client that does not trust the generated CA', async () => {
    await expect(request(`${ref.url}/.well-known/cashpack-policy.json`)).rejects.toThrow();
  });

  it('answers unknown paths with a NOT_FOUND problem', async () => {
    const res = await get('/nothing/here');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(((await res.body.json()) as { code: string }).code).toBe('NOT_FOUND');
  });

  it('guards the test-control interface with its bearer token', async () => {
    const without = await get('/_control/capabilities');
    expect(without.statusCode).toBe(401);
    await without.body.dump();
    const withToken = await get('/_control/capabilities', { authorization: 'Bearer sesame' });
    expect(await withToken.body.json()).toEqual({ profile: PROFILE_ID, capabilities: ['provision', 'clock', 'cancel', 'balance', 'fulfil', 'lease'] });
  });

  it('freezes, sets and advances the one clock through test control', async () => {
    const auth = { authorization: 'Bearer sesame' };
    const frozen = (await (await post('/_control/clock', { freeze: true, set: '2030-01-01T00:00:00Z' }, auth)).body.json()) as { now: string; frozen: boolean };
    expect(frozen).toEqual({ now: '2030-01-01T00:00:00Z', frozen: true });
    const advanced = (await (await post('/_control/clock', { advance_seconds: 61 }, auth)).body.json()) as { now: string };
    expect(advanced.now).toBe('2030-01-01T00:01:01Z');
    expect(ref.clock.now()).toBe(Date.UTC(2030, 0, 1, 0, 1, 1));
    for (const bad of [{ advance_seconds: -1 }, { set: 'yesterday' }, { freeze: 'yes' }, { rewind: 1 }]) {
      const res = await post('/_control/clock', bad, auth);
      expect(res.statusCode).toBe(400);
      expect(((await res.body.json()) as { code: string }).code).toBe('MALFORMED_REQUEST');
    }
    await (await post('/_control/clock', { freeze: false }, auth)).body.dump();
  });

  it('never serves a CPR over its plaintext listener, and burns the exposed token', async () => {
    const created = (await (await post('/_control/payee/requests', { sub_interface: 'INSTANT_KEY' }, { authorization: 'Bearer sesame' })).body.json()) as { token: string };
    const plain = await request(`${ref.plaintextUrl}/cpr/${created.token}`);
    expect(plain.statusCode).toBe(403);
    expect(((await plain.body.json()) as { code: string }).code).toBe('TLS_REQUIRED');
    const other = await request(`${ref.plaintextUrl}/.well-known/cashpack-policy.json`);
    expect(other.statusCode).toBe(403);
    await other.body.dump();
    const secure = await get(`/cpr/${created.token}`);
    expect(secure.statusCode).toBe(410);
    await secure.body.dump();
  });
});

describe('reference options', () => {
  it('can run without test control', async () => {
    const ref = await startReference({ controlEnabled: false, plaintextPort: null });
    const agent = new Agent({ connect: { ca: ref.tls.ca } });
    try {
      expect(ref.plaintextUrl).toBeUndefined();
      const res = await request(`${ref.url}/_control/capabilities`, { dispatcher: agent });
      expect(res.statusCode).toBe(404);
      expect(((await res.body.json()) as { code: string }).code).toBe('CONTROL_DISABLED');
    } finally {
      await agent.close();
      await ref.close();
    }
  });

  it('derives the Operator key from a seed: one seed, one key; another seed, another key', async () => {
    const kid = async (seed: string) => {
      const ref = await startReference({ seed, plaintextPort: null });
      try {
        return ref.operator.jwk.kid;
      } finally {
        await ref.close();
      }
    };
    const a = await kid('bench-1');
    expect(await kid('bench-1')).toBe(a);
    expect(await kid('bench-2')).not.toBe(a);
  });

  it('rejects an invalid policy before opening any port', async () => {
    await expect(startReference({ policy: { max_chain_depth: -1 } })).rejects.toThrow(/invalid operator policy/);
  });
});

const hasIpv6 = await ipv6Loopback();

describe(`the reference under a base path${hasIpv6 ? ', on the IPv6 loopback' : ' (on 127.0.0.1: this machine has no IPv6 loopback)'}`, () => {
  const BASE_PATH = '/pay/acme(eu)';
  let ref: RunningReference;
  let agent: Agent;
  /** A path under the origin, the base path not added. */
  const at = (path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}) =>
    request(new URL(ref.url).origin + path, {
      dispatcher: agent,
      method: init.method ?? 'GET',
      ...(init.body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) } : {}),
    });

  beforeAll(async () => {
    ref = await startReference({ ...(hasIpv6 ? { host: '::1' } : {}), basePath: BASE_PATH });
    agent = new Agent({ connect: { ca: ref.tls.ca } });
  });
  afterAll(async () => {
    await agent.close();
    await ref.close();
  });

  it('has a base URL with the base path, on a certificate that names the address', async () => {
    expect(ref.url).toMatch(new RegExp(`^https://${hasIpv6 ? '\\[::1\\]' : '127\\.0\\.0\\.1'}:\\d+/pay/acme\\(eu\\)$`));
    expect(ref.plaintextUrl).toMatch(/^http:\/\/.*\/pay\/acme\(eu\)$/);
    const res = await at(`${BASE_PATH}/.well-known/cashpack-policy.json`);
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });

  it('advertises that base URL, serves every role under it, and nothing at the root', async () => {
    const config = (await (await at(`${BASE_PATH}/_control/payee/config`)).body.json()) as { base_url: string; plaintext_base_url: string };
    expect(config.base_url).toBe(ref.url);
    expect(config.plaintext_base_url).toBe(ref.plaintextUrl);
    const created = (await (await at(`${BASE_PATH}/_control/payee/requests`, { method: 'POST', body: { sub_interface: 'IBAN', amount: '1250' } })).body.json()) as { token: string; qr_uri: string };
    expect(created.qr_uri).toBe(`std-cpr://${created.token}?endpoint=${encodeURIComponent(ref.url)}`);
    for (const path of [`/cpr/${created.token}`, '/_control/capabilities', '/.well-known/cashpack-policy.json', '/pay/acme%28eu%29/_control/capabilities']) {
      const res = await at(path);
      expect(res.statusCode, path).toBe(404);
      expect(((await res.body.json()) as { detail: string }).detail, path).toContain('served under /pay/acme(eu)');
    }
    const retrieved = await at(`${BASE_PATH}/cpr/${created.token}`);
    expect(retrieved.statusCode).toBe(200);
    await retrieved.body.dump();
  });

  it('takes a request path that is the same URI in another spelling (RFC 3986 §6.2.2)', async () => {
    const res = await at('/p%61y/acme(eu)/_control/capabilities');
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });

  it.each(['shops', '/shops/', '/a?b=1', '/a#b', '/a b'])('refuses the base path %j before opening any port', async (basePath) => {
    await expect(startReference({ basePath })).rejects.toThrow(TypeError);
  });
});
