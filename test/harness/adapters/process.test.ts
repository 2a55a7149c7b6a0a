import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnProcessRole } from '../../../harness/adapters/process.ts';
import { TransportError, type PayingAppRole } from '../../../harness/adapters/types.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/process-paying-app.mjs', import.meta.url));
const NODE = process.execPath;

// Small children for the ways a process can misbehave (CommonJS, run with node -e).
const PRELUDE = `
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('close', () => process.exit(0));
`;
const READY = `send({ ready: true, protocol: 'cpr-conformance-adapter/1', roles: ['paying-app', 'payee'] });`;
const child = (body: string) => [NODE, '-e', PRELUDE + body];

/** Whether a process with this pid exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const CHILDREN = {
  reversed: child(`${READY}
    const held = [];
    lines.on('line', (l) => {
      held.push(JSON.parse(l));
      if (held.length === 2) for (const r of held.reverse()) send({ id: r.id, result: { ok: true, notices: [r.params.input.text] } });
    });`),
  crashes: child(`${READY}
    lines.on('line', () => { process.stderr.write('fatal: out of cheese\\n'); process.exit(3); });`),
  silent: child(`${READY} lines.on('line', () => {});`),
  garbage: child(`${READY} lines.on('line', () => process.stdout.write('hello, I am not JSON\\n'));`),
  neverReady: child(`process.stderr.write('warming up\\n');`),
  wrongProtocol: child(`send({ ready: true, protocol: 'something/2', roles: ['paying-app'] });`),
  payeeOnly: child(`send({ ready: true, protocol: 'cpr-conformance-adapter/1', roles: ['payee'] });`),
  errors: child(`${READY} lines.on('line', (l) => send({ id: JSON.parse(l).id, error: { code: 'UNAVAILABLE', message: 'not here' } }));`),
  throws: child(`${READY} lines.on('line', (l) => send({ id: JSON.parse(l).id, error: { code: 'TypeError', message: 'cannot read properties of undefined' } }));`),
  echoHttp: child(`send({ ready: true, protocol: 'cpr-conformance-adapter/1', roles: ['payee'], authority: 'payee.test:443' });
    lines.on('line', (l) => {
      const { id, params } = JSON.parse(l);
      send({ id, result: { status: 207, headers: { 'X-Echo': params.method + ' ' + params.path + ' ' + params.headers.host + ' ' + process.env.CPR_CONFORMANCE_ROLE + ' ' + process.env.CPR_CONFORMANCE_SETTINGS }, body_base64: params.body_base64 } });
    });`),
  stubborn: child(`require('node:fs').writeFileSync(JSON.parse(process.env.CPR_CONFORMANCE_SETTINGS).pid_file, String(process.pid)); ${READY} process.on('SIGTERM', () => {}); lines.removeAllListeners('close'); setInterval(() => {}, 1000);`),
  /** Writes its pid where the settings say, then behaves. */
  polite: child(`require('node:fs').writeFileSync(JSON.parse(process.env.CPR_CONFORMANCE_SETTINGS).pid_file, String(process.pid)); ${READY}`),
};

const CPR = {
  cpr_version: 'CPR-1.0',
  request_id: '0190a1b2-0000-4000-8000-000000000001',
  created_at: '2030-01-01T00:00:00Z',
  expires_at: '2030-01-01T00:15:00Z',
  payee: { display_name: 'Shop', rail_address: { iban: 'DE89370400440532013000' } },
  value: { amount: '1250', asset: { type: 'FIAT', code: 'EUR' } },
};
const CONTEXT = { payer: { id: 'payer-1' }, rail: 'SEPA', authorization: { token: 't' }, now: '2030-01-01T00:05:00Z' };

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe('the process adapter', () => {
  const opened: { close(): Promise<void> }[] = [];
  const app = async (command: readonly string[], options: { timeoutMs?: number; startTimeoutMs?: number } = {}): Promise<PayingAppRole> => {
    const role = await spawnProcessRole(command, { role: 'paying-app', ...options });
    opened.push(role);
    return role;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((r) => r.close()));
  });

  describe('with the worked example', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpr-process-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('completes the ready handshake', async () => {
      const role = await app([NODE, FIXTURE]);
      expect(role.kind).toBe('process');
      expect(role.description).toContain('process-paying-app.mjs');
    });

    it('reads a CPR from JSON, a file and an inline URI', async () => {
      const role = await app([NODE, FIXTURE]);
      const file = join(dir, 'cpr.json');
      writeFileSync(file, JSON.stringify({ ...CPR, expires_at: '2999-01-01T00:00:00Z' }));
      const fresh = { ...CPR, expires_at: '2999-01-01T00:00:00Z' };
      expect(await role.read({ kind: 'json', text: JSON.stringify(fresh) })).toEqual({ ok: true, cpr: fresh, notices: [] });
      expect(await role.read({ kind: 'file', path: file })).toMatchObject({ ok: true, cpr: fresh });
      const inline = `std-cpr://inline/${Buffer.from(JSON.stringify(fresh)).toString('base64url')}`;
      expect(await role.read({ kind: 'uri', uri: inline })).toMatchObject({ ok: true, cpr: fresh });
    });

    it.each([
      ['an unsupported version', { ...CPR, cpr_version: 'CPR-2.0' }, 'CPR_VERSION_UNSUPPORTED'],
      ['a request_id that is not a UUID', { ...CPR, request_id: 'r-1' }, 'CPR_INVALID'],
      ['an expired request', { ...CPR, expires_at: '2020-01-01T00:00:00Z' }, 'CPR_EXPIRED'],
    ])('rejects %s when reading', async (_label, cpr, code) => {
      const role = await app([NODE, FIXTURE]);
      expect(await role.read({ kind: 'object', value: cpr })).toMatchObject({ ok: false, code });
    });

    it('derives a Payment at the context clock', async () => {
      const role = await app([NODE, FIXTURE]);
      const result = await role.derive(CPR, CONTEXT);
      expect(result).toMatchObject({
        ok: true,
        payment: {
          state: 'CREATED',
          payer: CONTEXT.payer,
          payee: CPR.payee,
          value: CPR.value,
          authorization: CONTEXT.authorization,
          context: { rail: 'SEPA', request_id: CPR.request_id },
        },
      });
      expect(await role.derive(CPR, { ...CONTEXT, now: '2030-01-01T00:15:00Z' })).toMatchObject({ ok: false, code: 'CPR_EXPIRED' });
    });

    it('matches many concurrent answers to their calls', async () => {
      const role = await app([NODE, FIXTURE]);
      const versions = Array.from({ length: 20 }, (_, i) => `CPR-${i}.9`);
      const results = await Promise.all(versions.map((v) => role.read({ kind: 'object', value: { ...CPR, cpr_version: v } })));
      results.forEach((r, i) => expect(r).toMatchObject({ ok: false, message: expect.stringContaining(versions[i]!) as unknown }));
    });

    it('exits when closed', async () => {
      const role = await spawnProcessRole([NODE, FIXTURE], { role: 'paying-app' });
      await role.close();
      expect(await codeOf(role.read({ kind: 'json', text: '{}' }))).toMatchObject({ code: 'CLOSED' });
    });
  });

  it('pairs answers that come out of order with their calls', async () => {
    const role = await app(CHILDREN.reversed);
    const [first, second] = await Promise.all([role.read({ kind: 'json', text: 'first' }), role.read({ kind: 'json', text: 'second' })]);
    expect(first).toEqual({ ok: true, notices: ['first'] });
    expect(second).toEqual({ ok: true, notices: ['second'] });
  });

  it('fails calls in flight with CLOSED, the exit code and the stderr tail when the child crashes', async () => {
    const role = await app(CHILDREN.crashes);
    const error = await codeOf(role.read({ kind: 'json', text: '{}' }));
    expect(error.code).toBe('CLOSED');
    expect(error.message).toContain('exit code 3');
    expect(error.message).toContain('out of cheese');
    expect((await codeOf(role.derive({}, CONTEXT))).code).toBe('CLOSED');
  });

  it('times a call out with TIMEOUT, on its own deadline, when the child never answers', async () => {
    const role = await app(CHILDREN.silent, { timeoutMs: 150 });
    const error = await codeOf(role.read({ kind: 'json', text: '{}' }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/within 150 ms$/);
  });

  it('fails with PROTOCOL when the child prints something that is not JSON', async () => {
    const role = await app(CHILDREN.garbage);
    const error = await codeOf(role.read({ kind: 'json', text: '{}' }));
    expect(error.code).toBe('PROTOCOL');
    expect(error.message).toContain('not JSON');
  });

  it('passes an error answer on with its code', async () => {
    const role = await app(CHILDREN.errors);
    const error = await codeOf(role.read({ kind: 'json', text: '{}' }));
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.message).toContain('not here');
  });

  it('reports an error answer with a code of its own as CRASHED: the implementation failed on the call', async () => {
    const role = await app(CHILDREN.throws);
    const error = await codeOf(role.read({ kind: 'json', text: '{}' }));
    expect(error.code).toBe('CRASHED');
    expect(error.message).toContain('TypeError: cannot read properties of undefined');
  });

  it('gives up at startTimeoutMs on a child that never says ready', async () => {
    const error = await codeOf(spawnProcessRole(CHILDREN.neverReady, { role: 'paying-app', startTimeoutMs: 300 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('no ready line within 300 ms');
    expect(error.message).toContain('warming up');
  });

  it.each([
    ['speaks another protocol', CHILDREN.wrongProtocol, 'PROTOCOL'],
    ['does not offer the role', CHILDREN.payeeOnly, 'PROTOCOL'],
    ['cannot be started', ['/nonexistent/program'], 'UNAVAILABLE'],
  ])('fails to start a child that %s', async (_label, command, code) => {
    expect((await codeOf(spawnProcessRole(command, { role: 'paying-app', startTimeoutMs: 2000 }))).code).toBe(code);
  });

  it('carries HTTP exchanges for an HTTP role, with the role and settings in the environment', async () => {
    const role = await spawnProcessRole(CHILDREN.echoHttp, { role: 'payee', settings: { mode: 'x' } });
    opened.push(role);
    expect(role).toMatchObject({ kind: 'process', authority: 'payee.test:443', tls: 'in-process' });
    const response = await role.send({ method: 'POST', path: '/cpr/abc', body: 'hello' });
    expect(response.status).toBe(207);
    expect(response.headers['x-echo']).toBe('POST /cpr/abc payee.test:443 payee {"mode":"x"}');
    expect(new TextDecoder().decode(response.body)).toBe('hello');
    expect((await codeOf(role.send({ method: 'GET', path: '/', transport: 'plaintext' }))).code).toBe('UNAVAILABLE');
  });

  const pids = mkdtempSync(join(tmpdir(), 'cpr-process-pids-'));
  afterAll(() => rmSync(pids, { recursive: true, force: true }));

  it.each([
    ['exits by itself at the end of its input', 'polite'],
    ['ignores the end of its input and SIGTERM, and is killed', 'stubborn'],
  ] as const)('leaves no process behind when closed: a child that %s', async (_label, kind) => {
    const pidFile = join(pids, `${kind}.pid`);
    const role = await spawnProcessRole(CHILDREN[kind], { role: 'paying-app', settings: { pid_file: pidFile } });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    await role.close();
    expect(alive(pid)).toBe(false);
  });
});
