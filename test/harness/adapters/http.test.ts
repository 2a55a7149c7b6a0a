import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import { TransportError, type HttpRole } from '../../../harness/adapters/types.ts';
import { listen, type Listening } from '../../../reference/http/server.ts';
import { createTlsMaterial, type TlsMaterial } from '../../../reference/tls.ts';

interface Plain {
  readonly url: string;
  readonly server: Server;
  connections: number;
  close(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Plain> {
  const server = createServer(handler);
  const state = { connections: 0 };
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

async function freePort(): Promise<number> {
  const probe = await serve(() => undefined);
  const port = Number(new URL(probe.url).port);
  await probe.close();
  return port;
}

async function transportCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return (error as TransportError).code;
}

describe('the http adapter', () => {
  const opened: { close(): Promise<void> }[] = [];
  const track = <T extends { close(): Promise<void> }>(x: T): T => (opened.push(x), x);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((x) => x.close()));
  });

  it('reuses one keep-alive connection for sequential requests', async () => {
    const server = track(await serve((_req, res) => res.end('ok')));
    const role = track(createHttpRole({ baseUrl: server.url }));
    for (let i = 0; i < 5; i++) {
      const response = await role.send({ method: 'GET', path: `/n/${i}` });
      expect(response.status).toBe(200);
      expect(new TextDecoder().decode(response.body)).toBe('ok');
    }
    expect(server.connections).toBe(1);
  });

  it('sends method, path, headers and body, and returns lower-case headers', async () => {
    const server = track(
      await serve((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.setHeader('X-Echo-Method', req.method ?? '');
          res.setHeader('X-Echo-Path', req.url ?? '');
          res.setHeader('X-Echo-Default', String(req.headers['x-default']));
          res.setHeader('X-Echo-Override', String(req.headers['x-override']));
          res.end(Buffer.concat(chunks));
        });
      }),
    );
    const role = track(createHttpRole({ baseUrl: `${server.url}/`, headers: { 'X-Default': 'd', 'X-Override': 'from-defaults' } }));
    const response = await role.send({ method: 'POST', path: '/v1/x?y=1', headers: { 'x-override': 'from-request' }, body: '{"a":1}' });
    expect(response.headers).toMatchObject({ 'x-echo-method': 'POST', 'x-echo-path': '/v1/x?y=1', 'x-echo-default': 'd', 'x-echo-override': 'from-request' });
    expect(new TextDecoder().decode(response.body)).toBe('{"a":1}');
    expect(response.truncated).toBe(false);
    expect(role.authority).toBe(new URL(server.url).host);
    expect(role.tls).toBe('none');
  });

  it('gives up with TIMEOUT at its deadline when the server never answers', async () => {
    const server = track(await serve(() => undefined));
    const role = track(createHttpRole({ baseUrl: server.url, timeoutMs: 200 }));
    const error = await role.send({ method: 'GET', path: '/silent' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/within 200 ms$/) });
  });

  it('honours a per-request deadline shorter than the default', async () => {
    const server = track(await serve(() => undefined));
    const role = track(createHttpRole({ baseUrl: server.url }));
    const error = await role.send({ method: 'GET', path: '/silent', timeoutMs: 150 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/within 150 ms$/) });
  });

  it('reports REFUSED when nothing listens', async () => {
    const role = track(createHttpRole({ baseUrl: `http://127.0.0.1:${await freePort()}` }));
    expect(await transportCode(role.send({ method: 'GET', path: '/' }))).toBe('REFUSED');
  });

  it('reports RESET when the server drops the connection', async () => {
    const server = track(await serve((req) => req.socket.destroy()));
    const role = track(createHttpRole({ baseUrl: server.url }));
    expect(await transportCode(role.send({ method: 'GET', path: '/' }))).toBe('RESET');
  });

  it('stops reading at the body cap and marks the response truncated', async () => {
    const total = 5 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    let finished = false;
    let clientGone = false;
    const server = track(
      await serve((_req, res) => {
        res.writeHead(200, { 'content-length': String(total) });
        res.on('close', () => (clientGone = true));
        const pump = () => {
          if (res.destroyed) return;
          if (sent >= total) return res.end(() => (finished = true));
          res.write(chunk);
          sent += chunk.length;
          setTimeout(pump, 5);
        };
        pump();
      }),
    );
    const role = track(createHttpRole({ baseUrl: server.url, maxBodyBytes: 64 * 1024 }));
    const response = await role.send({ method: 'GET', path: '/big' });
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(64 * 1024);
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(total);
    await expect.poll(() => clientGone).toBe(true);
  });

  it('keeps every answer\'s body its own, whatever the answers around it', async () => {
    // Sizes from empty to past what shares a buffer with other answers, enough of them to fill several.
    const sizes = Array.from({ length: 120 }, (_, i) => [0, 1, 7, 8, 9, 700, 4095, 4096, 4097, 9000][i % 10]! + (i % 3));
    const bodyOf = (i: number) => Buffer.alloc(sizes[i]!, 0x41 + (i % 26));
    const server = track(await serve((req, res) => res.end(bodyOf(Number(req.url!.slice(1))))));
    const role = track(createHttpRole({ baseUrl: server.url }));
    const responses = [];
    for (let start = 0; start < sizes.length; start += 8) responses.push(...(await Promise.all(sizes.slice(start, start + 8).map((_, k) => role.send({ method: 'GET', path: `/${start + k}` })))));
    responses.forEach((response, i) => expect(Buffer.from(response.body).equals(bodyOf(i))).toBe(true));
  });

  it('returns a redirect as it is, without following it', async () => {
    let followed = 0;
    const server = track(
      await serve((req, res) => {
        if (req.url === '/elsewhere') followed += 1;
        res.writeHead(req.url === '/start' ? 302 : 200, { location: '/elsewhere' });
        res.end();
      }),
    );
    const role = track(createHttpRole({ baseUrl: server.url }));
    const response = await role.send({ method: 'GET', path: '/start' });
    expect(response.status).toBe(302);
    expect(response.headers['location']).toBe('/elsewhere');
    expect(followed).toBe(0);
  });

  it('sends a chunked body without Content-Length, byte for byte', async () => {
    const server = track(
      await serve((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.setHeader('X-Echo-Length', String(req.headers['content-length']));
          res.setHeader('X-Echo-Encoding', String(req.headers['transfer-encoding']));
          res.end(Buffer.concat(chunks));
        });
      }),
    );
    const role = track(createHttpRole({ baseUrl: server.url }));
    const body = `{"memo":"é${' '.repeat(40_000)}"}`;
    const chunked = await role.send({ method: 'POST', path: '/', body, chunked: true });
    expect(chunked.headers).toMatchObject({ 'x-echo-length': 'undefined', 'x-echo-encoding': 'chunked' });
    expect(new TextDecoder().decode(chunked.body)).toBe(body);
    const whole = await role.send({ method: 'POST', path: '/', body });
    expect(whole.headers['x-echo-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('sends plaintext requests to the plaintext base URL, and refuses them when there is none', async () => {
    const server = track(await serve((_req, res) => res.end('plain')));
    const withPlain = track(createHttpRole({ baseUrl: 'https://127.0.0.1:1', plaintextBaseUrl: server.url }));
    const response = await withPlain.send({ method: 'GET', path: '/cpr/x', transport: 'plaintext' });
    expect(new TextDecoder().decode(response.body)).toBe('plain');
    const without = track(createHttpRole({ baseUrl: server.url }));
    expect(await transportCode(without.send({ method: 'GET', path: '/', transport: 'plaintext' }))).toBe('UNAVAILABLE');
  });

  it('probes the TLS port itself in plaintext when no plaintext listener is declared', async () => {
    const server = track(await serve((req, res) => res.end(`plain ${req.url}`)));
    const port = new URL(server.url).port;
    const tlsOnly = track(createHttpRole({ baseUrl: `https://127.0.0.1:${port}` }));
    const response = await tlsOnly.send({ method: 'GET', path: '/cpr/x', transport: 'plaintext' });
    expect(new TextDecoder().decode(response.body)).toBe('plain /cpr/x');
  });

  it.each([
    ['a relative base URL', { baseUrl: '/api' }],
    ['a base URL with a query', { baseUrl: 'https://x.test/?a=1' }],
    ['a CA together with insecure', { baseUrl: 'https://x.test', ca: 'PEM', insecure: true }],
    ['a zero body cap', { baseUrl: 'https://x.test', maxBodyBytes: 0 }],
  ])('throws at construction on %s', (_label, options) => {
    expect(() => createHttpRole(options)).toThrow();
  });

  describe('over TLS', () => {
    let tls: TlsMaterial;
    let other: TlsMaterial;
    let server: Listening;
    beforeAll(async () => {
      [tls, other] = await Promise.all([createTlsMaterial(), createTlsMaterial()]);
      server = await listen((request) => ({ status: 200, body: { hello: 'tls', host: request.authority } }), { tls });
    });
    afterAll(async () => {
      await server.close();
    });

    it('verifies the server against the given CA', async () => {
      const role = track(createHttpRole({ baseUrl: server.url, ca: tls.ca }));
      expect(role.tls).toBe('verified');
      const response = await role.send({ method: 'GET', path: '/' });
      expect(JSON.parse(new TextDecoder().decode(response.body))).toEqual({ hello: 'tls', host: new URL(server.url).host });
    });

    // undici takes the TLS server name from a Host header; the adapter keeps the base URL's, so a foreign Host reaches the target.
    it.each(['127.0.0.1', 'localhost'])('sends a Host naming another authority over TLS to %s, the certificate checked against the base URL', async (name) => {
      const role = track(createHttpRole({ baseUrl: `https://${name}:${new URL(server.url).port}`, ca: tls.ca }));
      for (const host of ['evil.example', 'evil.example:8443', '[2001:db8::7]:443', 'LOCALHOST.']) {
        const response = await role.send({ method: 'GET', path: '/', headers: { host } });
        expect(JSON.parse(new TextDecoder().decode(response.body))).toEqual({ hello: 'tls', host });
      }
      expect(await transportCode(track(createHttpRole({ baseUrl: `https://${name}:${new URL(server.url).port}`, ca: other.ca })).send({ method: 'GET', path: '/', headers: { host: 'evil.example' } }))).toBe('TLS');
    });

    it('reports TLS when the server is not signed by the trusted CA', async () => {
      const role: HttpRole = track(createHttpRole({ baseUrl: server.url, ca: other.ca }));
      expect(await transportCode(role.send({ method: 'GET', path: '/' }))).toBe('TLS');
    });

    it('reports TLS against the system trust store for a private CA', async () => {
      const role = track(createHttpRole({ baseUrl: server.url }));
      expect(await transportCode(role.send({ method: 'GET', path: '/' }))).toBe('TLS');
    });

    it('connects without verification only on the explicit insecure opt-in, and says so', async () => {
      const role = track(createHttpRole({ baseUrl: server.url, insecure: true }));
      expect(role.tls).toBe('insecure');
      expect((await role.send({ method: 'GET', path: '/' })).status).toBe(200);
    });
  });
});
