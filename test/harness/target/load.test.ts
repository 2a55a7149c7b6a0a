import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../harness/errors.ts';
import { loadTargetFile } from '../../../harness/target/load.ts';
import { encodeB64url } from '../../../profile/b64url.ts';
import { generateKeyPair } from '../../../profile/ed25519.ts';

const dir = mkdtempSync(join(tmpdir(), 'cpr-target-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function targetFile(text: string): string {
  const file = join(dir, `target-${++counter}.yaml`);
  writeFileSync(file, text);
  return file;
}

function keyFile(name: string, tweak: (jwk: Record<string, string>) => void = () => undefined): string {
  const pair = generateKeyPair();
  const jwk: Record<string, string> = { kty: 'OKP', crv: 'Ed25519', x: encodeB64url(pair.publicKey), d: encodeB64url(pair.secretKey) };
  tweak(jwk);
  writeFileSync(join(dir, name), JSON.stringify(jwk));
  return name;
}

function loadError(file: string): HarnessError {
  try {
    loadTargetFile(file);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('CONFIG_INVALID');
    return error as HarnessError;
  }
  throw new Error('expected loadTargetFile to throw');
}

const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('loading a target file', () => {
  beforeAll(() => {
    mkdirSync(join(dir, 'keys'), { recursive: true });
    writeFileSync(join(dir, 'ca.pem'), CA_PEM);
    writeFileSync(join(dir, 'not-a-ca.pem'), 'hello');
    writeFileSync(join(dir, 'adapter.mjs'), 'export default () => ({ handle: () => ({ status: 200 }) });\n');
  });

  it('resolves relative paths against the file and reads CA, keys and the control token', () => {
    keyFile('keys/principal.json');
    keyFile('keys/redeemer.json');
    process.env['CPR_TEST_CONTROL_TOKEN'] = 'from-the-environment';
    const file = targetFile(`name: full
payee:
  adapter: http
  base_url: https://payee.test:8443
  plaintext_base_url: http://payee.test:8080
  tls: { ca_file: ./ca.pem }
  control: { token_env: CPR_TEST_CONTROL_TOKEN }
  capabilities: [provision, clock]
operator:
  adapter: module
  module: ./adapter.mjs
  settings: { instance: x }
  credentials:
    principal: { private_key_file: keys/principal.json }
    redeemer: { private_key_file: keys/redeemer.json, identity_level: 2 }
paying_app:
  adapter: process
  command: [node, ./app.mjs]
  tls: { ca_file: ca.pem }
`);
    const config = loadTargetFile(file);
    expect(config.name).toBe('full');
    expect(config.source).toBe(file);
    expect(config.payee).toMatchObject({
      adapter: 'http',
      baseUrl: 'https://payee.test:8443',
      plaintextBaseUrl: 'http://payee.test:8080',
      insecure: false,
      ca: CA_PEM,
      caFile: join(dir, 'ca.pem'),
      controlToken: 'from-the-environment',
      capabilities: ['provision', 'clock'],
    });
    expect(config.operator).toMatchObject({ adapter: 'module', module: join(dir, 'adapter.mjs'), settings: { instance: 'x' }, capabilities: 'auto' });
    expect(config.operator?.credentials.principal?.secretKey).toHaveLength(32);
    expect(config.operator?.credentials.redeemer?.identityLevel).toBe(2);
    expect(config.payingApp).toMatchObject({ adapter: 'process', command: ['node', './app.mjs'], cwd: dir, caFile: join(dir, 'ca.pem') });
  });

  it('names the target after the file when it has no name', () => {
    const file = targetFile('operator: { adapter: http, base_url: "http://127.0.0.1:1" }\n');
    expect(loadTargetFile(file).name).toBe(file.split('/').pop());
  });

  // Each mistake: the key path, the line, and what was expected.
  it.each([
    ['a wrong adapter name', 'operator:\n  adapter: htp\n  base_url: https://o.test\n', 'operator.adapter', 2, 'expected one of http, module, process, got "htp" (did you mean http?)'],
    ['insecure: false', 'operator:\n  adapter: http\n  base_url: https://o.test\n  tls:\n    insecure: false\n', 'operator.tls.insecure', 5, 'expected true (an explicit opt-in'],
    ['a missing base_url for http', 'name: x\npayee:\n  adapter: http\n', 'payee.base_url', 2, 'expected base_url, the role\'s absolute URL (adapter: http needs it), got nothing'],
    ['an unknown key', 'operator:\n  adapter: http\n  base_url: https://o.test\n  base_uri: https://o.test\n', 'operator.base_uri', 4, 'got an unknown key (did you mean base_url?)'],
    ['a bad capability name', 'payee:\n  adapter: http\n  base_url: https://p.test\n  capabilities:\n    - clock\n    - time-travel\n', 'payee.capabilities[1]', 6, 'expected one of provision, clock, cancel, balance, fulfil, lease, got "time-travel"'],
    ['a mistyped capability', 'payee:\n  adapter: http\n  base_url: https://p.test\n  capabilities: [provison]\n', 'payee.capabilities[0]', 4, 'got "provison" (did you mean provision?)'],
    ['capabilities that are neither auto nor a list', 'payee:\n  adapter: http\n  base_url: https://p.test\n  capabilities: manual\n', 'payee.capabilities', 4, 'expected "auto"'],
    ['an unreadable key file', 'operator:\n  adapter: http\n  base_url: https://o.test\n  credentials:\n    principal:\n      private_key_file: ./keys/missing.json\n', 'operator.credentials.principal.private_key_file', 6, 'ENOENT'],
    ['a CA file and insecure together', 'operator:\n  adapter: http\n  base_url: https://o.test\n  tls:\n    ca_file: ca.pem\n    insecure: true\n', 'operator.tls', 5, 'expected ca_file or insecure, not both'],
    ['a CA file without certificates', 'operator:\n  adapter: http\n  base_url: https://o.test\n  tls: { ca_file: not-a-ca.pem }\n', 'operator.tls.ca_file', 4, 'PEM file of CA certificates'],
    ['a base URL with a query', 'operator:\n  adapter: http\n  base_url: https://o.test/?x=1\n', 'operator.base_url', 3, 'an absolute http(s):// URL'],
    ['a module that does not exist', 'paying_app:\n  adapter: module\n  module: ./nowhere.mjs\n', 'paying_app.module', 3, 'which does not exist'],
    ['an http paying app', 'paying_app:\n  adapter: http\n', 'paying_app.adapter', 2, 'expected one of module, process'],
    ['a process without a command', 'payee:\n  adapter: process\n', 'payee.command', 1, 'expected command'],
    ['a base_url on a module adapter', 'payee:\n  adapter: module\n  module: adapter.mjs\n  base_url: https://p.test\n', 'payee.base_url', 4, 'belongs to adapter: http'],
    ['an unset token variable', 'payee:\n  adapter: http\n  base_url: https://p.test\n  control: { token_env: CPR_TEST_SURELY_UNSET }\n', 'payee.control.token_env', 4, 'CPR_TEST_SURELY_UNSET to be set'],
    ['an identity level out of range', `operator:\n  adapter: http\n  base_url: https://o.test\n  credentials:\n    redeemer:\n      private_key_file: ${keyFile('r.json')}\n      identity_level: 7\n`, 'operator.credentials.redeemer.identity_level', 7, 'expected an integer from 0 to 3, got 7'],
  ])('reports %s with the key path, the line and the expectation', (_label, text, path, line, expectation) => {
    const file = targetFile(text);
    const { message } = loadError(file);
    expect(message).toContain(file);
    const entry = message.split('\n').find((l) => l.trim().startsWith(`${path}:`));
    expect(entry, message).toBeDefined();
    expect(entry).toContain(expectation);
    expect(entry).toContain(`(line ${line})`);
  });

  it.each([
    ['x that is not the public key of d', (jwk: Record<string, string>) => (jwk['x'] = encodeB64url(generateKeyPair().publicKey)), 'x is not the public key of d'],
    ['a kid that is not the thumbprint', (jwk: Record<string, string>) => (jwk['kid'] = 'not-it'), 'thumbprint'],
    ['a key of another curve', (jwk: Record<string, string>) => (jwk['crv'] = 'X25519'), 'crv "Ed25519"'],
    ['no private part', (jwk: Record<string, string>) => delete jwk['d'], 'expected d'],
  ])('rejects a key file with %s, without quoting key material', (_label, tweak, expectation) => {
    let secret = '';
    const name = keyFile(`bad-${++counter}.json`, (jwk) => {
      tweak(jwk);
      secret = jwk['d'] ?? '';
    });
    const file = targetFile(`operator:\n  adapter: http\n  base_url: https://o.test\n  credentials:\n    staff: { private_key_file: ${name} }\n`);
    const { message } = loadError(file);
    expect(message).toContain('operator.credentials.staff.private_key_file');
    expect(message).toContain(expectation);
    if (secret !== '') expect(message).not.toContain(secret);
  });

  it('reports every problem at once, in line order', () => {
    const { message } = loadError(targetFile('payee:\n  adapter: htp\noperator:\n  adapter: http\n  tls: { insecure: false }\n'));
    const lines = message.split('\n').slice(1);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('payee.adapter');
    expect(lines[1]).toContain('operator.base_url');
    expect(lines[2]).toContain('operator.tls.insecure');
  });

  it('reports a YAML syntax error with its line and column', () => {
    const { message } = loadError(targetFile('payee:\n  adapter: http\n   base_url: [unclosed\n'));
    expect(message).toMatch(/not valid YAML/);
    expect(message).toMatch(/line \d+:\d+/);
  });

  it('reads control.token_env from the environment it is given, not the process\'s', () => {
    const file = targetFile('payee:\n  adapter: http\n  base_url: https://p.test\n  control: { token_env: CPR_TEST_GIVEN_ONLY }\n');
    expect(process.env['CPR_TEST_GIVEN_ONLY']).toBeUndefined();
    expect(loadTargetFile(file, { CPR_TEST_GIVEN_ONLY: 'given-token-0123' }).payee).toMatchObject({ controlToken: 'given-token-0123' });
    expect(() => loadTargetFile(file, {})).toThrow(/CPR_TEST_GIVEN_ONLY to be set/);
  });

  it('never echoes a control token of the wrong type', () => {
    const { message } = loadError(targetFile('payee:\n  adapter: http\n  base_url: https://p.test\n  control: { token: 123456789 }\n'));
    expect(message).toContain('payee.control.token');
    expect(message).not.toContain('123456789');
  });

  it('reports a file that cannot be read', () => {
    expect(loadError(join(dir, 'no-such-target.yaml')).message).toContain('cannot be read');
  });
});
