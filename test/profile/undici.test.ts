// profile/undici.ts: the parts of undici the sources use, without undici's
// entry module. The same classes as undici's own, and request() answering as
// undici's own request() does, for the same arguments, over real loopback HTTP.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, buildConnector, request } from '../../profile/undici.ts';

let server: Server;
let origin: string;

beforeAll(async () => {
  // Echoes what it was asked: method, path and body.
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString('utf8') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Call = Parameters<typeof undici.request>;

/** What a request() answers (status, echoed request, or the error it threw), JSON-comparable. */
async function outcome(fn: typeof undici.request, ...args: Call): Promise<unknown> {
  try {
    const response = await fn(...args);
    return { status: response.statusCode, type: response.headers['content-type'], echo: await response.body.json() };
  } catch (error) {
    return { thrown: (error as Error).name, message: (error as Error).message };
  }
}

describe('profile/undici.ts', () => {
  it("exports undici's own Agent and connector", () => {
    expect(Agent).toBe(undici.Agent);
    expect(buildConnector).toBe(undici.buildConnector);
  });

  it("answers as undici's own request() for the same arguments", async () => {
    const agent = new Agent();
    try {
      const calls: Call[] = [
        [`${origin}/cpr/abc?x=1&y=%20`, { dispatcher: agent }],
        [new URL(`${origin}/a/b`), { dispatcher: agent, method: 'DELETE' }],
        // undici's types leave out `path`, which its request() reads all the same.
        [origin, { dispatcher: agent, path: 'no-slash?q=1' } as never],
        [origin, { dispatcher: agent, path: '/from-path' } as never],
        // A path in both: refused (opts.path goes with an origin only).
        [`${origin}/ignored`, { dispatcher: agent, path: '/from-path' } as never],
        [`${origin}/put-by-default`, { dispatcher: agent, body: 'a body' }],
        [`${origin}/posted`, { dispatcher: agent, method: 'POST', body: '{"a":1}' }],
        // The global dispatcher when none is given.
        [`${origin}/global`],
        // Refused before anything is sent.
        ['', { dispatcher: agent }],
        [`${origin}/x`, 'not options' as never],
        [`${origin}/x`, { dispatcher: agent, path: 42 } as never],
        [`${origin}/x`, { agent } as never],
      ];
      for (const call of calls) expect(await outcome(request, ...call), JSON.stringify(call[1] ?? null)).toEqual(await outcome(undici.request, ...call));
      expect(await outcome(request, `${origin}/put-by-default`, { dispatcher: agent, body: 'a body' })).toMatchObject({ echo: { method: 'PUT', body: 'a body' } });
      expect(await outcome(request, '', { dispatcher: agent })).toEqual({ thrown: 'InvalidArgumentError', message: 'invalid url' });
    } finally {
      await agent.close();
    }
  });

  it("answers as undici's own request() for generated URLs, paths and options", async () => {
    const agent = new Agent();
    // Path text across its classes: unreserved, reserved and percent-encoded characters, non-ASCII, a query, a fragment, none.
    const pathText = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '/', '?', '#', '&', '=', '%', '%20', '%2F', 'é', '€', '😀', ' ', '.', '..', '~'), maxLength: 12 });
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            path: fc.oneof(pathText, pathText.map((p) => `/${p}`)),
            asOption: fc.boolean(),
            asUrl: fc.boolean(),
            method: fc.constantFrom(undefined, 'GET', 'POST', 'DELETE', 'PATCH'),
            body: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
          }),
          async ({ path, asOption, asUrl, method, body }) => {
            const base = asOption ? origin : `${origin}/${path}`;
            const url = asUrl ? (() => { try { return new URL(base); } catch { return base; } })() : base;
            const opts = { dispatcher: agent, ...(asOption ? { path } : {}), ...(method !== undefined ? { method } : {}), ...(body !== undefined ? { body } : {}) } as never;
            expect(await outcome(request, url, opts)).toEqual(await outcome(undici.request, url, opts));
          },
        ),
        { seed: 7, numRuns: 60 },
      );
    } finally {
      await agent.close();
    }
  });

  it('is where every source takes undici from', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const direct = ['harness', 'profile', 'reference', 'generators', 'bin']
      .flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => join(root, dir, file)))
      .filter((file) => /\.(ts|js|mjs|cjs)$/.test(file) && !file.endsWith('.d.ts'))
      .filter((file) => /from 'undici'|require\('undici'\)|import\('undici'\)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(direct).toEqual(['profile/undici.ts']);
  });
});
