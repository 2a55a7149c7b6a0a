// The harness's retrieval stub: what it answers for each kind of exhibit, and
// what it records of the requests that name an exhibit's token.
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPV6_LOOPBACK } from '../../../generators/index.ts';
import { RetrievalStub } from '../../../harness/stub/retrieval-stub.ts';
import { createPayingApp } from '../../../reference/paying-app/index.ts';

const body = new TextEncoder().encode(JSON.stringify({ hello: 'world' }));
const json = { 'content-type': 'application/json' };

describe('the retrieval stub', () => {
  let stub: RetrievalStub;
  let agent: Agent;
  beforeAll(async () => {
    stub = await RetrievalStub.start();
    agent = new Agent({ connect: { ca: stub.ca } });
  });
  afterAll(async () => {
    await agent.close();
    await stub.close();
  });

  const get = async (url: string) => {
    const response = await request(url, { dispatcher: agent });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  };

  it('serves an exhibit at <base path>/cpr/<token> over TLS verified with its own CA, and records the retrieval', async () => {
    const served = stub.serve({ body, headers: json }, { basePath: '/shops/acme%20gmbh' });
    expect(served.uri).toBe(`std-cpr://${served.token}?endpoint=${encodeURIComponent(served.endpoint)}`);
    const answer = await get(served.url);
    expect(answer).toMatchObject({ status: 200, text: '{"hello":"world"}' });
    expect(answer.headers['content-length']).toBe(String(body.length));
    expect(stub.seen(served.id)).toEqual([{ method: 'GET', path: `/shops/acme%20gmbh/cpr/${served.token}`, secure: true, where: 'retrieval' }]);
  });

  // Where the machine has no IPv6 loopback (some containers), the stub says so and refuses such an endpoint.
  it.each(IPV6_LOOPBACK)('serves an endpoint naming it by the IPv6 literal %s on its ::1 twin, its certificate naming ::1, when the machine has an IPv6 loopback', async (host) => {
    if (!stub.ipv6) {
      expect(() => stub.serve({ body, headers: json }, { basePath: '', host })).toThrow(/no listener on ::1/);
      return;
    }
    const served = stub.serve({ body, headers: json, redirect: 302, redirectTo: 'plaintext' }, { basePath: '/pay', host });
    expect(served.endpoint).toMatch(new RegExp(`^https://${host.replace(/[[\]]/g, '\\$&')}:\\d+/pay$`));
    expect(stub.hosts).toContain(new URL(served.endpoint).host);
    const first = await get(served.url);
    expect(first.status).toBe(302);
    // The plaintext twin on ::1 answers a token with nothing but the record that it arrived in the clear.
    expect(new URL(String(first.headers.location)).hostname).toBe('[::1]');
    expect((await get(String(first.headers.location))).status).toBe(404);
    expect(stub.seen(served.id).map((s) => [s.where, s.secure])).toEqual([['retrieval', true], ['redirect-target', false]]);
  });

  it('sends a chunked body without Content-Length, slowly when asked', async () => {
    const served = stub.serve({ body, headers: json, chunked: true, chunkDelayMs: 5 }, { basePath: '' });
    const answer = await get(served.url);
    expect(answer.text).toBe('{"hello":"world"}');
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.headers['transfer-encoding']).toBe('chunked');
  });

  it('answers a redirect, and records a client that follows it at the redirect target', async () => {
    const served = stub.serve({ body, headers: json, redirect: 302 }, { basePath: '/pay' });
    const first = await get(served.url);
    expect(first.status).toBe(302);
    const followed = await get(String(first.headers.location));
    expect(followed).toMatchObject({ status: 200, text: '{"hello":"world"}' });
    expect(stub.seen(served.id).map((s) => s.where)).toEqual(['retrieval', 'redirect-target']);
  });

  it.each([
    ['other-host', 'redirect-target', true],
    ['plaintext', 'redirect-target', false],
    ['itself', 'redirect-target', true],
  ] as const)('points a redirect %s, and records a client that follows it (%s, over TLS: %s)', async (to, where, secure) => {
    const served = stub.serve({ body, headers: json, redirect: 301, redirectTo: to }, { basePath: '/pay/acme%20gmbh' });
    const first = await get(served.url);
    expect(first.status).toBe(301);
    const location = new URL(String(first.headers.location));
    expect(location.protocol).toBe(secure ? 'https:' : 'http:');
    if (to === 'other-host') expect(location.hostname).toBe('localhost');
    await get(location.href).catch(() => undefined);
    expect(stub.seen(served.id).map((s) => [s.where, s.secure])).toEqual([['retrieval', true], [where, secure]]);
  });

  it('answers a redirect without Location', async () => {
    const served = stub.serve({ body, headers: json, redirect: 303, redirectTo: 'none' }, { basePath: '' });
    const first = await get(served.url);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBeUndefined();
  });

  it('cuts a truncated body off halfway', async () => {
    const served = stub.serve({ body, headers: json, truncate: true }, { basePath: '' });
    await expect(get(served.url)).rejects.toThrow();
  });

  it('records a token sent to a wrong path, or over plaintext, and serves nothing there', async () => {
    const served = stub.serve({ body, headers: json }, { basePath: '/shop' });
    expect((await get(`${served.endpoint.replace('/shop', '')}/cpr/${served.token}`)).status).toBe(404);
    const clear = stub.serve({ body, headers: json }, { basePath: '', plaintext: true });
    expect(clear.endpoint).toMatch(/^http:\/\//);
    expect((await get(clear.url)).status).toBe(404);
    expect(stub.seen(served.id)).toEqual([expect.objectContaining({ where: 'elsewhere', secure: true })]);
    expect(stub.seen(clear.id)).toEqual([expect.objectContaining({ where: 'retrieval', secure: false })]);
  });

  it('is what a paying application told to trust it retrieves from: the reference reads a served CPR and refuses a redirect', async () => {
    const app = createPayingApp({ ca: stub.ca });
    const redirected = stub.serve({ body, headers: json, redirect: 307 }, { basePath: '' });
    expect(await app.read({ kind: 'uri', uri: redirected.uri })).toMatchObject({ ok: false, code: 'RETRIEVAL_FAILED' });
    expect(stub.seen(redirected.id).map((s) => s.where)).toEqual(['retrieval']);
  });

  it('refuses an exhibit it cannot serve as asked', () => {
    expect(() => stub.serve({ body, chunkDelayMs: 10_000 }, { basePath: '' })).toThrow(RangeError);
    expect(() => stub.serve({ body, redirect: 200 }, { basePath: '' })).toThrow(RangeError);
    expect(() => stub.serve({ body }, { basePath: 'shop/' })).toThrow(RangeError);
  });
});
