// The target file's secrets (the control token, the private keys) never appear in
// a report or on the terminal, even when the target echoes them back: every
// report file (allure-results included), stdout and stderr are searched for each
// secret in every form it could be written in.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateKeyPair } from '../../../profile/ed25519.ts';
import { createTlsMaterial } from '../../../reference/tls.ts';
import { startHostile, type HostileServer } from '../../fixtures/hostile/servers.ts';
import { cliHere, report, reportFiles, workDir } from './support.ts';

vi.setConfig({ testTimeout: 90_000 });

let echo: HostileServer | undefined;
afterAll(async () => echo?.close());

/** A private Ed25519 JWK file and every form its secret could be written in. */
function keyFile(dir: string, name: string): { file: string; forms: string[] } {
  const pair = generateKeyPair();
  const seed = Buffer.from(pair.secretKey);
  const jwk = { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(pair.publicKey).toString('base64url'), d: seed.toString('base64url') };
  const file = join(dir, `${name}.jwk.json`);
  writeFileSync(file, JSON.stringify(jwk));
  const base64 = seed.toString('base64');
  return { file, forms: [jwk.d, base64, base64.replace(/=+$/, ''), seed.toString('hex'), seed.toString('hex').toUpperCase()] };
}

describe('secrets of the target file', () => {
  it('appear in no report file and no output, though the target echoes the control token back', async () => {
    const dir = workDir('secrets');
    const tls = await createTlsMaterial();
    echo = await startHostile('echo', { tls });
    writeFileSync(join(dir, 'ca.pem'), tls.ca);
    const token = `tok-${randomBytes(18).toString('base64url')}`;
    const principal = keyFile(dir, 'principal');
    const staff = keyFile(dir, 'staff');
    const redeemer = keyFile(dir, 'redeemer');
    const role = (name: string, credentials: string[]) => [
      `${name}:`,
      '  adapter: http',
      `  base_url: ${echo!.url}`,
      '  tls: { ca_file: ca.pem }',
      `  control: { token: ${token} }`,
      ...credentials,
    ];
    const file = join(dir, 'target.yaml');
    writeFileSync(
      file,
      [
        'name: echoes credentials',
        ...role('payee', []),
        ...role('operator', [
          '  credentials:',
          `    principal: { private_key_file: ${principal.file} }`,
          `    staff: { private_key_file: ${staff.file} }`,
          `    redeemer: { private_key_file: ${redeemer.file}, identity_level: 2 }`,
        ]),
        '',
      ].join('\n'),
    );
    const out = join(dir, 'report');
    const r = await cliHere(['run', '--target', file, '--property-runs', '2', '--request-timeout', '3000', '--report-dir', out]);
    expect(r.status).toBe(1);

    // The token did go to the target, with TLS verified against the file's CA, and came back in its answers.
    expect(echo.stats.authorizations).toEqual(new Set([`Bearer ${token}`]));
    const written = report(out);
    expect(written.run.target.roles.operator?.tls).toBe('verified');
    expect(JSON.stringify(written)).toContain('[redacted]');

    const secrets = [token, ...principal.forms, ...staff.forms, ...redeemer.forms];
    const files = reportFiles(out);
    expect(files.map((f) => f.path).some((p) => p.includes('allure-results'))).toBe(true);
    for (const { path, text } of [...files, { path: 'stdout', text: r.stdout }, { path: 'stderr', text: r.stderr }]) {
      for (const secret of secrets) expect(text.includes(secret), `${path} holds a secret`).toBe(false);
    }
  });
});
