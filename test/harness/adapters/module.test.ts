import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadModuleRole } from '../../../harness/adapters/module.ts';
import { TransportError, type HttpRole, type WireResponse } from '../../../harness/adapters/types.ts';
import { HarnessError } from '../../../harness/errors.ts';

const REFERENCE = fileURLToPath(new URL('../../../reference/adapter.ts', import.meta.url));
const json = (response: WireResponse): Record<string, unknown> => JSON.parse(new TextDecoder().decode(response.body)) as Record<string, unknown>;

describe('the module adapter against reference/adapter.ts', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((r) => r.close()));
  });
  const http = async (role: 'payee' | 'operator', instance: string): Promise<HttpRole> => {
    const r = await loadModuleRole(REFERENCE, { role, settings: { instance } });
    opened.push(r);
    return r;
  };

  it('serves the operator policy document in-process', async () => {
    const operator = await http('operator', 'well-known');
    expect(operator).toMatchObject({ kind: 'module', tls: 'in-process', authority: 'module.invalid', description: REFERENCE });
    const response = await operator.send({ method: 'GET', path: '/.well-known/cashpack-policy.json' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(json(response)).toHaveProperty('operator_kid');
  });

  it('creates a payment request through test control and retrieves it once by its token', async () => {
    const payee = await http('payee', 'payee-flow');
    const created = await payee.send({
      method: 'POST',
      path: '/_control/payee/requests',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ sub_interface: 'IBAN', amount: '1250' }),
    });
    expect(created.status).toBe(201);
    const { token, request_id } = json(created) as { token: string; request_id: string };
    const first = await payee.send({ method: 'GET', path: `/cpr/${token}` });
    expect(first.status).toBe(200);
    expect(json(first)).toMatchObject({ cpr_version: 'CPR-1.0', request_id });
    expect((await payee.send({ method: 'GET', path: `/cpr/${token}` })).status).toBe(410);
  });

  it('keeps each role to its own paths', async () => {
    const payee = await http('payee', 'paths');
    const response = await payee.send({ method: 'GET', path: '/.well-known/cashpack-policy.json' });
    expect(response.status).toBe(404);
  });

  it('shares one clock between the payee and the operator of one instance', async () => {
    const payee = await http('payee', 'clock');
    const operator = await http('operator', 'clock');
    const set = await payee.send({ method: 'POST', path: '/_control/clock', headers: { 'content-type': 'application/json' }, body: '{"freeze":true,"set":"2030-01-01T00:00:00Z"}' });
    expect(set.status).toBe(200);
    expect(json(await operator.send({ method: 'GET', path: '/_control/clock' }))).toEqual({ now: '2030-01-01T00:00:00Z', frozen: true });
  });

  it('reads and derives with the reference paying application', async () => {
    const payee = await http('payee', 'app');
    const app = await loadModuleRole(REFERENCE, { role: 'paying-app', settings: { instance: 'app' } });
    opened.push(app);
    const created = json(await payee.send({ method: 'POST', path: '/_control/payee/requests', headers: { 'content-type': 'application/json' }, body: '{"sub_interface":"IBAN","amount":"1250"}' }));
    const read = await app.read({ kind: 'object', value: created['cpr'] });
    expect(read).toMatchObject({ ok: true, cpr: created['cpr'] });
    const context = { payer: { name: 'P' }, rail: 'SEPA', authorization: { ok: 1 } };
    const derived = await app.derive(created['cpr'], context);
    expect(derived).toMatchObject({ ok: true, payment: { state: 'CREATED', payer: { name: 'P' }, value: { amount: '1250' } } });
    const expired = await app.derive(created['cpr'], { ...context, now: '2999-01-01T00:00:00Z' });
    expect(expired).toMatchObject({ ok: false, code: 'CPR_EXPIRED' });
    expect(await app.read({ kind: 'json', text: '{"cpr_version":"CPR-9"}' })).toMatchObject({ ok: false, code: 'CPR_VERSION_UNSUPPORTED' });
  });

  it('has no plaintext transport', async () => {
    const payee = await http('payee', 'plain');
    await expect(payee.send({ method: 'GET', path: '/cpr/x', transport: 'plaintext' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('the module adapter with misbehaving modules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpr-module-'));
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((r) => r.close()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const moduleFile = (name: string, source: string) => {
    const file = join(dir, name);
    writeFileSync(file, source);
    return file;
  };
  const payeeFrom = async (name: string, handle: string, options: { timeoutMs?: number; maxBodyBytes?: number } = {}) => {
    const role = await loadModuleRole(moduleFile(name, `export default () => ({ handle: ${handle} });\n`), { role: 'payee', ...options });
    opened.push(role);
    return role;
  };

  it.each([
    ['no createRole export', 'no-export.mjs', 'export const x = 1;\n'],
    ['createRole returning no handle', 'no-handle.mjs', 'export function createRole() { return {}; }\n'],
    ['createRole that throws', 'throws.mjs', 'export function createRole() { throw new Error("boom"); }\n'],
    ['a syntax error', 'syntax.mjs', 'export default (\n'],
  ])('fails to load with CONFIG_INVALID on %s', async (_label, name, source) => {
    const error = await loadModuleRole(moduleFile(name, source), { role: 'payee' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('CONFIG_INVALID');
    expect((error as HarnessError).message).toContain(name);
  });

  it('fails with CONFIG_INVALID for a module that does not exist', async () => {
    await expect(loadModuleRole(join(dir, 'missing.mjs'), { role: 'payee' })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });

  it('serializes an object body as JSON and passes the request through', async () => {
    const payee = await payeeFrom('echo.mjs', '(r) => ({ status: 201, headers: { "X-Seen": r.method + " " + r.path + " " + r.headers.host + " " + new TextDecoder().decode(r.body) }, body: { ok: true } })');
    const response = await payee.send({ method: 'POST', path: '/p?q=1', body: 'hi' });
    expect(response.status).toBe(201);
    expect(response.headers).toMatchObject({ 'x-seen': 'POST /p?q=1 module.invalid hi', 'content-type': 'application/json' });
    expect(new TextDecoder().decode(response.body)).toBe('{"ok":true}');
  });

  it('caps the body and marks it truncated', async () => {
    const payee = await payeeFrom('big.mjs', '() => ({ status: 200, body: "x".repeat(100000) })', { maxBodyBytes: 1000 });
    const response = await payee.send({ method: 'GET', path: '/' });
    expect(response).toMatchObject({ truncated: true });
    expect(response.body.length).toBe(1000);
  });

  it.each([
    ['a handler that throws', 'throw.mjs', '() => { throw new Error("kaput"); }', 'CRASHED'],
    ['a response without a status', 'nostatus.mjs', '() => ({ body: "x" })', 'PROTOCOL'],
    ['a header that is not a string', 'badheader.mjs', '() => ({ status: 200, headers: { n: 1 } })', 'PROTOCOL'],
    ['a handler that never answers', 'hang.mjs', '() => new Promise(() => {})', 'TIMEOUT'],
  ])('reports %s as a TransportError', async (_label, name, handle, code) => {
    const payee = await payeeFrom(name, handle, { timeoutMs: 100 });
    const error = await payee.send({ method: 'GET', path: '/' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe(code);
  });

  it('rejects a paying-app result that is not an AppResult', async () => {
    const file = moduleFile('app.mjs', 'export const createRole = () => ({ read: () => ({ fine: true }), derive: () => ({ ok: false, code: "X", message: "m" }) });\n');
    const app = await loadModuleRole(file, { role: 'paying-app' });
    opened.push(app);
    await expect(app.read({ kind: 'json', text: '{}' })).rejects.toMatchObject({ code: 'PROTOCOL' });
    expect(await app.derive({}, { payer: null, rail: null, authorization: null })).toEqual({ ok: false, code: 'X', message: 'm' });
  });
});
