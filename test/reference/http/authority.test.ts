import { describe, expect, it } from 'vitest';
import { withOwnAuthority } from '../../../reference/http/authority.ts';
import type { RefRequest } from '../../../reference/http/types.ts';

const request = (authority: string): RefRequest => ({ method: 'GET', path: '/', query: new URLSearchParams(), headers: { host: authority }, body: new Uint8Array(), authority, secure: true });

describe('withOwnAuthority', () => {
  const handler = withOwnAuthority('127.0.0.1:8443', ['localhost', '127.0.0.1', '[::1]'], (r) => ({ status: 200, body: r.authority }));

  it.each(['127.0.0.1:8443', 'localhost:8443', 'LocalHost:8443', '[::1]:8443', 'localhost:8444', '127.0.0.1'])('keeps a Host that names the server, on any port (a front server of its own may listen there): %s', async (host) => {
    expect((await handler(request(host))).body).toBe(host);
  });

  it.each(['evil.example:8443', '[2001:db8::7]:8443', 'localhost.:8443', '127.0.0.2:8443', ''])('judges a Host naming another host (%j) as a request to the server itself', async (host) => {
    expect((await handler(request(host))).body).toBe('127.0.0.1:8443');
  });

});
