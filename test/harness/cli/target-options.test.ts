// Bad input to the target options is a one-line usage error with a hint, found
// before anything runs; a certificate the harness does not trust is said as
// such, never as an unreachable target; a control token can come from the
// environment with a URL target.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cliHere, report, served, workDir } from '../hostile/support.ts';

vi.setConfig({ testTimeout: 120_000 });
const work = workDir('target-options');

describe('bad input to run', () => {
  const readOnly = join(work, 'read-only');
  mkdirSync(readOnly);
  writeFileSync(join(work, 'a-file'), '');
  chmodSync(readOnly, 0o500);
  const root = process.getuid?.() === 0;

  it.each<[string, string[], RegExp]>([
    ['a report folder inside a file', ['--report-dir', join(work, 'a-file', 'out')], /^cpr-conformance: USAGE_ERROR: --report-dir \S+a-file\/out cannot be written \(E\w+\)\n {2}hint: give a folder you can write to/],
    ['a report folder under /proc', ['--report-dir', '/proc/self/reports'], /^cpr-conformance: USAGE_ERROR: --report-dir \/proc\/self\/reports is under \/proc: not a place for reports\n/],
    ['a report folder under /sys', ['--report-dir', '/sys/kernel/x'], /^cpr-conformance: USAGE_ERROR: --report-dir \/sys\/kernel\/x is under \/sys: not a place for reports\n/],
    ['a token variable that is not set', ['--target', 'https://127.0.0.1:9', '--control-token-env', 'CPR_NO_SUCH_VARIABLE'], /USAGE_ERROR: --control-token-env CPR_NO_SUCH_VARIABLE: the environment variable CPR_NO_SUCH_VARIABLE is not set, or empty/],
    ['a token variable with a target file', ['--target', 'x.yaml', '--control-token-env', 'HOME'], /USAGE_ERROR: --control-token-env goes with --target URL; a target file names the variable itself/],
    ['--ready without --start', ['--target', 'https://127.0.0.1:9', '--ready', 'https://127.0.0.1:9/'], /USAGE_ERROR: --ready goes with --start "COMMAND"/],
    ['--start without a target', ['--start', 'true'], /USAGE_ERROR: --start starts the implementation under test: give its --target too/],
    ['a URL of another scheme', ['--target', 'ftp://127.0.0.1/x'], /^cpr-conformance: USAGE_ERROR: --target ftp:\/\/127\.0\.0\.1\/x: a target URL is http or https, not ftp\n/],
    ['host:port without a scheme', ['--target', '127.0.0.1:8443'], /^cpr-conformance: USAGE_ERROR: --target 127\.0\.0\.1:8443 is neither a target file nor a URL \(did you mean https:\/\/127\.0\.0\.1:8443\?\)\n/],
  ])('%s is a usage error (exit 2) before anything runs', async (_name, args, message) => {
    const r = await cliHere(['run', ...args]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(2);
    expect(r.stdout).toBe('');
  });

  // selftest and bench check their folder before they start, or they would fail after minutes of work (compare: compare.test.ts).
  it.each<[string, string[]]>([
    ['selftest', ['selftest', '--mutant', 'payee-timestamp-offset', '--report-dir']],
    ['bench', ['bench', '--quick', '--out']],
  ])('%s with a folder that is a file is a usage error (exit 2) before anything runs', async (_name, args) => {
    const r = await cliHere([...args, join(work, 'a-file')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^cpr-conformance: USAGE_ERROR: --(report-dir|out) \S+a-file cannot be written \(EEXIST\)\n {2}hint: give a folder you can write to/);
    expect(r.stdout).toBe('');
  });

  it('a plaintext target is told to use https before anything is sent', async () => {
    const r = await cliHere(['run', '--target', 'http://127.0.0.1:9', '--no-properties', '--only', 'CPP-ISS-001', '--report-dir', join(work, 'plaintext')]);
    expect(r.stdout.split('\n')[0]).toBe('warning: --target http://127.0.0.1:9 is plaintext http: use https (the spec serves every role over TLS), e.g. --target https://127.0.0.1:9 --ca FILE');
    expect(r.status).toBe(2); // nothing listens there
  });

  it.skipIf(root)('a report folder without write permission is a usage error (root can write anywhere)', async () => {
    const r = await cliHere(['run', '--report-dir', join(readOnly, 'out')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/USAGE_ERROR: --report-dir \S+ cannot be written \(EACCES\)/);
  });
});

describe('a target whose certificate the harness does not trust', () => {
  const target = served();
  const other = served();

  it('is HARNESS_TLS_UNTRUSTED, never "unreachable": every test an error saying so, exit 2', async () => {
    const [{ url }, { ca_file: wrongCa }] = await Promise.all([target, other]);
    const out = join(work, 'tls');
    const r = await cliHere(['run', '--target', url, '--ca', wrongCa, '--only', 'CPP-ISS-001', '--no-properties', '--report-dir', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/HARNESS_TLS_UNTRUSTED: payee and operator at https:\/\/127\.0\.0\.1:\d+ answered, but its TLS certificate is not trusted: .*\((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|DEPTH_ZERO_SELF_SIGNED_CERT)\)/);
    expect(r.stderr).toMatch(/hint: give the CA that issued the certificate: --ca FILE/);
    expect(r.stderr).not.toContain('UNREACHABLE');
    const json = report(out);
    expect(json.verdict).toBe('error');
    expect(json.errors.map((e) => e.code)).toEqual(['HARNESS_TLS_UNTRUSTED']);
    expect(json.tests.every((t) => t.status === 'error' && t.error_code === 'HARNESS_TLS_UNTRUSTED')).toBe(true);
  });
});

describe('--control-token-env with a URL target', () => {
  const target = served('--control-token', 'sesame-0123456789');

  it('without it, the note on the refused token names the option that gives one', async () => {
    const { url, ca_file } = await target;
    const r = await cliHere(['run', '--target', url, '--ca', ca_file, '--only', 'CPP-ISS-001', '--no-properties', '--report-dir', join(work, 'no-token')]);
    expect(r.stdout).toMatch(/warning: payee and operator: GET \/_control\/capabilities answered 401: the control token was refused or missing \(give it with --control-token-env NAME for a --target URL/);
  });

  it('with it, test control works, and the token is in no report', async () => {
    const { url, ca_file } = await target;
    const out = join(work, 'token');
    const r = await cliHere(['run', '--target', url, '--ca', ca_file, '--control-token-env', 'CPR_TEST_TOKEN', '--only', 'CPP-ISS-001', '--no-properties', '--report-dir', out], { env: { CPR_TEST_TOKEN: 'sesame-0123456789' } });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^PASS CPP-ISS-001 /m);
    const json = report(out);
    expect(json.run.target.roles.operator?.capabilities).toContain('provision');
    expect(JSON.stringify(json)).not.toContain('sesame-0123456789');
    expect(json.tests[0]!.rerun).toContain('--control-token-env CPR_TEST_TOKEN');
  });
});
