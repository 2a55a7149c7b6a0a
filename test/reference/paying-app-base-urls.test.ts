// The reference paying application resolves a token URI under every legal base
// URL (PROFILE.md §8.1): a loopback host in any spelling (localhost, 127.0.0.1,
// ::1 compressed or in full), and a base path with sub-delimiters, ":" and "@",
// percent-encoded UTF-8 and spaces. A real TLS server sees the request go to
// <base path>/cpr/<token>, the same URI as the base URL gives.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalBaseUrl } from '../../generators/index.ts';
import { buildQrUri, sameUri, type Cpr } from '../../profile/cpr/index.ts';
import { Clock } from '../../reference/clock.ts';
import { createPayee } from '../../reference/payee/index.ts';
import { createPayingApp } from '../../reference/paying-app/index.ts';
import { createTlsMaterial } from '../../reference/tls.ts';
import { ipv6Loopback } from '../support/ipv6.ts';

let server: Server;
let port: number;
let ca: string;
let cpr: Cpr;
const seen: string[] = [];
const hasIpv6 = await ipv6Loopback();

beforeAll(async () => {
  const tls = await createTlsMaterial();
  ca = tls.ca;
  cpr = (await createPayee({ clock: new Clock(), baseUrl: 'https://payee.test' }).createRequest({ sub_interface: 'IBAN', amount: '1250' })).cpr;
  server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(cpr));
  });
  // One port for both loopback addresses where the machine has IPv6 (a dual-stack socket).
  await new Promise<void>((resolve) => server.listen(0, hasIpv6 ? '::' : '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe(`the reference paying application under legal base URLs${hasIpv6 ? '' : ' (IPv4 only: this machine has no IPv6 loopback)'}`, () => {
  it('retrieves from <base URL>/cpr/<token> and accepts the request', async () => {
    const app = createPayingApp({ ca });
    const token = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });
    await fc.assert(
      fc.asyncProperty(legalBaseUrl({ hosts: 'loopback', ipv6: hasIpv6, port }), token, async (b, t) => {
        seen.length = 0;
        const result = await app.read({ kind: 'uri', uri: buildQrUri(t, b.url) });
        expect(result, b.url).toMatchObject({ ok: true, cpr });
        expect(seen).toHaveLength(1);
        expect(sameUri(`https://h${seen[0]}`, `https://h${b.path}/cpr/${t}`), `${b.url}: ${seen[0]}`).toBe(true);
      }),
      { seed: 20261125, numRuns: 40 },
    );
  }, 60_000);
});
