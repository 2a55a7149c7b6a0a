// No server-side request forgery through a CPR URI: the paying application the
// harness drives (the reference, embedded or named in a target file) follows a
// QR or deep-link endpoint only to the target's own hosts. A payee whose URIs
// name another host gets RETRIEVAL_FAILED, and that host sees no connection at
// all; --allow-host widens the list.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../harness/cli/main.ts';
import { embeddedTarget } from '../../../harness/target/target.ts';
import { createPayingApp } from '../../../reference/paying-app/index.ts';
import { checkAllowedHosts, hostAllowed } from '../../../reference/paying-app/hosts.ts';
import { createTlsMaterial } from '../../../reference/tls.ts';
import { startCounter, startHostile, type HostileServer } from '../../fixtures/hostile/servers.ts';
import { cliHere, REFERENCE_ADAPTER, report, workDir } from './support.ts';

vi.setConfig({ testTimeout: 90_000 });

const work = workDir('ssrf');
let elsewhere: HostileServer;
let payee: HostileServer;
let file: string;

beforeAll(async () => {
  // The other host: TLS on 127.0.0.2 (another loopback address), counting connections.
  elsewhere = await startCounter({ tls: await createTlsMaterial() });
  payee = await startHostile('qr-elsewhere', { elsewhere: elsewhere.url });
  file = join(work, 'target.yaml');
  writeFileSync(
    file,
    ['name: qr elsewhere', 'payee:', '  adapter: http', `  base_url: ${payee.url}`, '  capabilities: [provision]', 'paying_app:', '  adapter: module', `  module: ${REFERENCE_ADAPTER}`, ''].join('\n'),
  );
});

afterAll(async () => {
  await payee?.close();
  await elsewhere?.close();
});

const selection = ['--only', 'DLV-RESOLVE-001', '--only', 'DLV-DEEP-001', '--only', 'DLV-SUPPORT-002', '--no-properties'];

describe('a payee whose QR and deep-link endpoint is another host', () => {
  it('is not followed by the harness\'s paying application: a harness error naming the host and --allow-host, and the other host sees nothing', async () => {
    const dir = join(work, 'denied');
    const r = await cliHere(['run', '--target', file, ...selection, '--report-dir', dir]);
    // The harness's own guard refused: nothing was observed, so nothing failed (exit 2, never 1).
    expect(r.status).toBe(2);
    const out = report(dir);
    const other = `${elsewhere.host}:${elsewhere.port}`;
    expect(out.tests).toHaveLength(3);
    expect(out.tests.map((t) => [t.status, t.error_code])).toEqual(Array(3).fill(['error', 'HARNESS_HOST_NOT_ALLOWED']));
    expect(out.requirements.filter((q) => q.status === 'failed')).toEqual([]);
    for (const t of out.tests) expect(t.reason).toContain(`is on ${other}, not one of the target's own hosts (${new URL(payee.url).host})`);
    // Said once, before any test, from the base URL the payee advertises; and once in report.json.
    const said = `HARNESS_HOST_NOT_ALLOWED: the payee advertises its base URL as ${elsewhere.url}`;
    expect(r.stderr.split(said)).toHaveLength(2);
    expect(r.stderr).toContain(`--allow-host ${other}`);
    expect(out.errors).toEqual([{ code: 'HARNESS_HOST_NOT_ALLOWED', message: expect.stringContaining(`3 test(s) stopped at a delivery URI the harness's paying application does not follow: the payee advertises its base URL as ${elsewhere.url}`) }]);
    // Each scenario creates a request the harness retrieves itself (its CPR valid, so the payee is not at fault), then the one the application reads.
    expect(payee.stats.paths.filter((p) => p === 'POST /_control/payee/requests')).toHaveLength(6);
    expect(elsewhere.stats.connections).toBe(0);
  });

  it('--allow-host HOST lets it go there', async () => {
    const dir = join(work, 'allowed');
    const before = elsewhere.stats.connections;
    const r = await cliHere(['run', '--target', file, ...selection, '--allow-host', `${elsewhere.host}:${elsewhere.port}`, '--report-dir', dir]);
    expect(r.status).toBe(1);
    expect(elsewhere.stats.connections).toBeGreaterThan(before);
    // It got there and could not verify the other host's certificate: a real trust decision still.
    const seen = JSON.stringify(report(dir).tests.flatMap((t) => t.checks.map((c) => c.actual)));
    expect(seen).not.toContain('is not a host this application may contact');
    expect(r.stdout).toMatch(/rerun: npx cpr-conformance run --target \S+ --allow-host 127\.0\.0\.\d:\d+ --only/);
  });

  it.each<[string[], RegExp]>([
    [['--target', 'https://127.0.0.1:9', '--allow-host', 'example.com'], /USAGE_ERROR: --allow-host widens what the reference paying application may contact; a --target URL has no paying application/],
    [['--allow-host', 'https://example.com/x'], /USAGE_ERROR: --allow-host: "https:\/\/example\.com\/x" is not "host" or "host:port"/],
  ])('refuses run %j (exit 2)', async (args, message) => {
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
    try {
      expect(await main(['run', ...args])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(stderr).toMatch(message);
  });
});

describe('the reference paying application\'s allow-list', () => {
  it('checks the host before connecting, with the port when one is given', async () => {
    const app = createPayingApp({ allowedHosts: ['127.0.0.1:8443'] });
    const uri = `std-cpr://${'cd'.repeat(16)}?endpoint=${encodeURIComponent(elsewhere.url)}`;
    const before = elsewhere.stats.connections;
    const result = await app.read({ kind: 'uri', uri });
    expect(result).toMatchObject({ ok: false, code: 'RETRIEVAL_FAILED' });
    expect(result.ok ? '' : result.message).toMatch(/is not a host this application may contact \(allowed: 127\.0\.0\.1:8443\)/);
    expect(elsewhere.stats.connections).toBe(before);
  });

  it.each<[string, string[], boolean]>([
    ['https://127.0.0.1:8443/cpr/x', ['127.0.0.1:8443'], true],
    ['https://127.0.0.1:8444/cpr/x', ['127.0.0.1:8443'], false],
    ['https://127.0.0.1:8444/cpr/x', ['127.0.0.1'], true],
    ['https://payee.example/cpr/x', ['payee.example:443'], true],
    ['https://PAYEE.example/cpr/x', ['payee.example'], true],
    ['https://payee.example.evil/cpr/x', ['payee.example'], false],
    ['https://[::1]:8443/cpr/x', ['[::1]:8443'], true],
    ['https://[::1]:8443/cpr/x', ['[0:0:0:0:0:0:0:1]:8443'], true],
    ['https://[::1]:8443/cpr/x', ['[::2]'], false],
    ['https://127.0.0.2:8443/cpr/x', [], false],
  ])('%s against %j: %s', (url, allowed, expected) => {
    expect(hostAllowed(new URL(url), checkAllowedHosts(allowed))).toBe(expected);
  });

  it('refuses a malformed allow-list at construction', () => {
    expect(() => createPayingApp({ allowedHosts: ['https://x.example'] })).toThrow(TypeError);
    expect(() => createPayingApp({ allowedHosts: ['x.example:99999'] })).toThrow(TypeError);
  });

  it('is set by the embedded target to the reference\'s own host, widened by allowHosts and the harness\'s retrieval stub', async () => {
    const target = await embeddedTarget({ allowHosts: ['127.0.0.2:9443'] });
    try {
      const host = new URL(target.config.payee!.adapter === 'http' ? target.config.payee!.baseUrl : '').host;
      expect(target.stub?.hosts).toEqual(expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|localhost):\d+$/)]));
      expect(target.config.payingApp?.settings['allowed_hosts']).toEqual([host, '127.0.0.2:9443', ...target.stub!.hosts]);
    } finally {
      await target.close();
    }
  });
});
