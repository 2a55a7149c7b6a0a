import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../harness/errors.ts';
import { loadTargetFile } from '../../../harness/target/load.ts';
import { embeddedTarget, openTarget, targetFromUrl, type Target } from '../../../harness/target/target.ts';
import { encodeB64url } from '../../../profile/b64url.ts';
import { generateKeyPair } from '../../../profile/ed25519.ts';
import { startReference } from '../../../reference/start.ts';
import { ipv6Loopback } from '../../support/ipv6.ts';

const ALL = ['balance', 'cancel', 'clock', 'fulfil', 'lease', 'provision'];
const REFERENCE_ADAPTER = fileURLToPath(new URL('../../../reference/adapter.ts', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../../fixtures/process-paying-app.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cpr-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A plaintext server answering every request with `status` and `body`, recording what it saw. */
async function recorder(status: number, body: string): Promise<{ url: string; seen: { path: string; headers: IncomingHttpHeaders }[]; server: Server }> {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('the runtime target', () => {
  const targets: Target[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(targets.splice(0).map((t) => t.close()));
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
  });

  it('keeps every secret out of the description', async () => {
    const keys = ['principal', 'redeemer', 'staff'].map((who) => {
      const pair = generateKeyPair();
      const jwk = { kty: 'OKP', crv: 'Ed25519', x: encodeB64url(pair.publicKey), d: encodeB64url(pair.secretKey) };
      writeFileSync(join(dir, `${who}.json`), JSON.stringify(jwk));
      return jwk;
    });
    process.env['CPR_TEST_REDACTION_TOKEN'] = 'env-secret-7f3a';
    const file = join(dir, 'secrets.yaml');
    writeFileSync(
      file,
      `name: secretive
payee:
  adapter: http
  base_url: http://127.0.0.1:1
  control: { token: file-secret-91bc }
  capabilities: [provision]
operator:
  adapter: http
  base_url: https://127.0.0.1:2
  tls: { insecure: true }
  control: { token_env: CPR_TEST_REDACTION_TOKEN }
  capabilities: []
  credentials:
    principal: { private_key_file: principal.json }
    redeemer: { private_key_file: redeemer.json, identity_level: 1 }
    staff: { private_key_file: staff.json }
`,
    );
    const target = await openTarget(loadTargetFile(file));
    targets.push(target);
    expect(target.credentials.operator.principal?.jwk.x).toBe(keys[0]!.x);
    const text = JSON.stringify(target.description);
    for (const secret of ['file-secret-91bc', 'env-secret-7f3a', ...keys.flatMap((k) => [k.d, k.x])]) expect(text).not.toContain(secret);
    expect(target.description).toEqual({
      name: 'secretive',
      embedded: false,
      roles: {
        payee: { adapter: 'http', base_url: 'http://127.0.0.1:1', tls: 'none', capabilities: ['provision'] },
        operator: { adapter: 'http', base_url: 'https://127.0.0.1:2', tls: 'insecure', capabilities: [] },
      },
    });
  });

  it('sends the control token on control requests only', async () => {
    const server = await recorder(200, '{"capabilities":["clock","teleport"]}');
    servers.push(server.server);
    const target = await openTarget({
      name: 't',
      payee: { adapter: 'http', baseUrl: server.url, insecure: false, settings: {}, controlToken: 'sesame', capabilities: 'auto', credentials: {} },
    });
    targets.push(target);
    expect([...target.capabilities.payee]).toEqual(['clock']);
    await target.payee!.send({ method: 'GET', path: '/cpr/abc' });
    expect(server.seen.map((s) => [s.path, s.headers.authorization])).toEqual([
      ['/_control/capabilities', 'Bearer sesame'],
      ['/cpr/abc', undefined],
    ]);
  });

  it.each([
    [404, '{"code":"NOT_FOUND"}'],
    [401, '{"code":"UNAUTHENTICATED"}'],
    [200, 'not json'],
  ])('discovers no capabilities, without an error, from a %i answer', async (status, body) => {
    const server = await recorder(status, body);
    servers.push(server.server);
    const target = await openTarget({
      name: 't',
      operator: { adapter: 'http', baseUrl: server.url, insecure: false, settings: {}, capabilities: 'auto', credentials: {} },
    });
    targets.push(target);
    expect(target.capabilities.operator.size).toBe(0);
  });

  it('opens module and process roles from a target file', async () => {
    const file = join(dir, 'mixed.yaml');
    writeFileSync(
      file,
      `payee: { adapter: module, module: ${REFERENCE_ADAPTER}, settings: { instance: mixed } }
operator: { adapter: module, module: ${REFERENCE_ADAPTER}, settings: { instance: mixed }, capabilities: [clock] }
paying_app: { adapter: process, command: [${process.execPath}, ${FIXTURE}] }
`,
    );
    const target = await openTarget(loadTargetFile(file));
    targets.push(target);
    expect([...target.capabilities.payee].sort()).toEqual(ALL);
    expect([...target.capabilities.operator]).toEqual(['clock']);
    expect(target.description.roles).toEqual({
      payee: { adapter: 'module', tls: 'in-process', capabilities: ALL },
      operator: { adapter: 'module', tls: 'in-process', capabilities: ['clock'] },
      'paying-app': { adapter: 'process', tls: 'in-process', capabilities: [] },
    });
    expect(await target.payingApp!.read({ kind: 'json', text: '{"cpr_version":"CPR-0"}' })).toMatchObject({ ok: false, code: 'CPR_VERSION_UNSUPPORTED' });
  });

  it('reports a process role that does not start as unreachable', async () => {
    const error = await openTarget({ name: 't', payingApp: { adapter: 'process', command: ['/nonexistent/app'], cwd: dir, settings: {} } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('HARNESS_TARGET_UNREACHABLE');
  });

  describe('from a URL', () => {
    it('puts payee and operator on one http adapter, discovering capabilities and the plaintext URL', async () => {
      const ref = await startReference({ port: 0, plaintextPort: 0 });
      try {
        const target = await targetFromUrl(ref.url, { caFile: ref.caFile });
        targets.push(target);
        expect(target.payee).toBe(target.operator);
        expect(target.payee?.plaintextBaseUrl).toBe(ref.plaintextUrl);
        expect([...target.capabilities.operator].sort()).toEqual(ALL);
        expect(target.description.roles.payee).toEqual({ adapter: 'http', base_url: ref.url, tls: 'verified', capabilities: ALL });
        await target.close();
      } finally {
        await ref.close();
      }
    });

    it('takes a payee under a base path, on IPv6, with its plaintext URL under the same path', async () => {
      const ref = await startReference({ port: 0, plaintextPort: 0, ...((await ipv6Loopback()) ? { host: '::1' } : {}), basePath: '/shops/acme%20gmbh' });
      try {
        const target = await targetFromUrl(ref.url, { caFile: ref.caFile });
        targets.push(target);
        expect(target.payee?.baseUrl).toBe(ref.url);
        expect(target.payee?.plaintextBaseUrl).toBe(ref.plaintextUrl);
        expect(ref.plaintextUrl).toMatch(/\/shops\/acme%20gmbh$/);
        expect([...target.capabilities.payee].sort()).toEqual(ALL);
        await target.close();
      } finally {
        await ref.close();
      }
    });

    it.each([
      ['a URL that is not http(s)', 'ftp://x.test', {}],
      ['a URL with credentials', 'https://user:pw@x.test', {}],
      ['a CA file that does not exist', 'https://x.test', { caFile: join(dir, 'no-such-ca.pem') }],
      ['a CA together with insecure', 'https://x.test', { ca: 'PEM', insecure: true }],
    ])('rejects %s as a usage error', async (_label, url, options) => {
      await expect(targetFromUrl(url, options)).rejects.toMatchObject({ code: 'USAGE_ERROR' });
    });

    it.each([
      [404, '{}', undefined],
      [500, 'boom', /GET \/_control\/capabilities answered 500; treated as no test-control capabilities/],
      [401, '{}', /answered 401: the control token was refused or missing/],
      [200, '{"capabilities":"clock"}', /answered 200 without a JSON object whose "capabilities" is a list/],
      [200, 'not json', /answered 200 without a JSON object/],
    ])('after a capability discovery answered %i %j, has no capabilities and notes why unless it was a 404', async (status, body, note) => {
      const r = await recorder(status, body);
      servers.push(r.server);
      const target = await targetFromUrl(r.url);
      targets.push(target);
      expect([...target.capabilities.payee]).toEqual([]);
      const described = target.description.roles.payee?.capabilities_note;
      if (note === undefined) expect(described).toBeUndefined();
      else expect(described).toMatch(note);
      expect(target.description.roles.operator?.capabilities_note).toBe(described);
    });

    it('fails with HARNESS_TARGET_UNREACHABLE on the refused connection, not after a deadline, when nothing listens', async () => {
      const error = (await targetFromUrl('http://127.0.0.1:9').catch((e: unknown) => e)) as HarnessError;
      expect(error).toMatchObject({ code: 'HARNESS_TARGET_UNREACHABLE' });
      expect(error.message).toMatch(/^payee and operator at http:\/\/127\.0\.0\.1:9 did not answer: .*ECONNREFUSED/);
      expect(error.message).not.toMatch(/within \d+ ms/);
    });
  });

  it('starts the embedded reference, discovers all six capabilities, serves all three roles and closes', async () => {
    const target = await embeddedTarget();
    expect(target.embedded).toBe(true);
    expect([...target.capabilities.payee].sort()).toEqual(ALL);
    expect([...target.capabilities.operator].sort()).toEqual(ALL);
    expect(target.description.roles.operator).toMatchObject({ adapter: 'http', tls: 'verified' });
    expect(target.description.roles['paying-app']).toEqual({ adapter: 'module', tls: 'in-process', capabilities: [] });
    const created = await target.payee!.send({ method: 'POST', path: '/_control/payee/requests', headers: { 'content-type': 'application/json' }, body: '{"sub_interface":"IBAN","amount":"5"}' });
    expect(created.status).toBe(201);
    const { qr_uri } = JSON.parse(new TextDecoder().decode(created.body)) as { qr_uri: string };
    // The paying app retrieves the token over TLS, trusting the reference CA.
    expect(await target.payingApp!.read({ kind: 'uri', uri: qr_uri })).toMatchObject({ ok: true, cpr: { value: { amount: '5' } } });
    await target.close();
    await expect(target.operator!.send({ method: 'GET', path: '/.well-known/cashpack-policy.json', timeoutMs: 1000 })).rejects.toMatchObject({ name: 'TransportError' });
  });

  it('gives a config that reopens the embedded target elsewhere, its paying app on the reference clock', async () => {
    const embedded = await embeddedTarget();
    targets.push(embedded);
    const reopened = await openTarget(structuredClone(embedded.config));
    targets.push(reopened);
    expect(reopened.description.roles).toEqual({ ...embedded.description.roles, 'paying-app': { adapter: 'module', tls: 'in-process', capabilities: [] } });
    const created = await reopened.payee!.send({ method: 'POST', path: '/_control/payee/requests', headers: { 'content-type': 'application/json' }, body: '{"sub_interface":"IBAN","amount":"5"}' });
    const { cpr } = JSON.parse(new TextDecoder().decode(created.body)) as { cpr: unknown };
    expect(await reopened.payingApp!.read({ kind: 'object', value: cpr })).toMatchObject({ ok: true });
    const later = await reopened.operator!.send({ method: 'POST', path: '/_control/clock', headers: { 'content-type': 'application/json' }, body: '{"advance_seconds":86400}' });
    expect(later.status).toBe(200);
    expect(await reopened.payingApp!.read({ kind: 'object', value: cpr })).toMatchObject({ ok: false, code: 'CPR_EXPIRED' });
  });
});
