// The embedded reference on a thread of its own: it serves over loopback as any
// target, a start that cannot succeed is HARNESS_REFERENCE_START_FAILED with the
// thread's reason, and its thread never keeps a process alive: not after close,
// not when the harness forgets to close it, not after Ctrl-C. (An uncaught
// exception ends the process, and its threads with it, whatever they hold.)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { validCpr } from '../../../generators/index.ts';
import { HarnessError } from '../../../harness/errors.ts';
import { bootReferenceThread, earlyReferenceUrl, startReferenceThread } from '../../../harness/target/reference-thread.ts';
import { embeddedTarget } from '../../../harness/target/target.ts';
import type { ModulePayingAppImplementation } from '../../../harness/adapters/module.ts';
import { createRole as createReferenceRole } from '../../../reference/adapter.ts';
import { sharedClockReader } from '../../../reference/clock.ts';
import { cli } from '../hostile/support.ts';

vi.setConfig({ testTimeout: 60_000 });

const dir = mkdtempSync(join(tmpdir(), 'cpr-reference-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const THREAD = pathToFileURL(join(import.meta.dirname, '../../../harness/target/reference-thread.ts')).href;

/** Whether a TCP connection to the URL's port is accepted. */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Runs a script (an ES module in TypeScript) in a Node process of its own, with tsx; its exit code and output. */
function script(name: string, body: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, `import { get } from 'node:https';\nimport { startReferenceThread } from ${JSON.stringify(THREAD)};\n${body}\n`);
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: join(import.meta.dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // Far beyond any start: only a thread that holds the process alive reaches it.
  const kill = setTimeout(() => child.kill('SIGKILL'), 50_000);
  return new Promise((resolve) => child.once('close', (status) => (clearTimeout(kill), resolve({ status, stdout, stderr }))));
}

/** POST `body` to the reference's `path` over TLS, trusting its CA: the status, the answer and its `now`. */
async function fetchJson(reference: { readonly url: string; readonly ca: string }, path: string, body: object): Promise<{ status: number; now: string; body: Record<string, unknown> }> {
  const agent = new Agent({ connect: { ca: reference.ca } });
  try {
    const answer = await request(`${reference.url}${path}`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await answer.body.json()) as Record<string, unknown>;
    return { status: answer.statusCode, now: json['now'] as string, body: json };
  } finally {
    await agent.close();
  }
}

describe('the embedded reference on its own thread', () => {
  it('serves every role over loopback from another thread, and close stops its listeners', async () => {
    const target = await embeddedTarget();
    const answer = await target.operator!.send({ method: 'GET', path: '/.well-known/cashpack-policy.json', headers: {}, body: new Uint8Array() });
    expect(answer.status).toBe(200);
    const url = target.config.payee!.adapter === 'http' ? target.config.payee!.baseUrl : '';
    expect(await accepts(url)).toBe(true);
    await target.close();
    expect(await accepts(url)).toBe(false);
  });

  it("shares its one clock with this thread: a move over test control is read here at once, frozen or running", async () => {
    const reference = await startReferenceThread({ port: 0 });
    try {
      const now = sharedClockReader(reference.clock);
      const move = async (body: object) => {
        const answer = await fetchJson(reference, '/_control/clock', body);
        expect(answer.status).toBe(200);
        return Date.parse(answer.now);
      };
      const frozen = await move({ freeze: true, set: '2020-01-01T00:00:00Z' });
      expect(now()).toBe(frozen);
      expect(now()).toBe(Date.parse('2020-01-01T00:00:00Z'));
      await move({ advance_seconds: 90 });
      expect(now()).toBe(Date.parse('2020-01-01T00:01:30Z'));
      await move({ freeze: false });
      const read = now();
      // Running again, from the instant it was frozen at, on this process's real time.
      expect(read).toBeGreaterThanOrEqual(Date.parse('2020-01-01T00:01:30Z'));
      expect(read).toBeLessThan(Date.parse('2020-01-01T00:01:30Z') + 30_000);
    } finally {
      await reference.close();
    }
  });

  it('starts twins in its thread, two at once: each on ports and a clock of its own, with its own paying application, all closed with it', async () => {
    const target = await embeddedTarget({ reference: { mutant: 'op-status-open' } });
    try {
      const twins = await Promise.all([target.twin!(), target.twin!()]);
      const urls = [target, ...twins].map((t) => (t.config.operator?.adapter === 'http' ? t.config.operator.baseUrl : ''));
      expect(new Set(urls).size).toBe(3);
      const clock = async (t: typeof target, body?: object) => {
        const answer = await t.operator!.send({ method: body ? 'POST' : 'GET', path: '/_control/clock', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(body ? JSON.stringify(body) : '') });
        return JSON.parse(new TextDecoder().decode(answer.body)) as { now: string; frozen: boolean };
      };
      expect(await clock(twins[0]!, { freeze: true, set: '2020-01-01T00:00:00Z' })).toEqual({ now: '2020-01-01T00:00:00Z', frozen: true });
      expect((await clock(twins[1]!)).frozen).toBe(false);
      expect((await clock(target)).frozen).toBe(false);
      // Each paying application reads its own reference's clock: the frozen twin's sees 2020.
      const [cpr] = fc.sample(validCpr({ now: Date.parse('2020-01-01T00:00:00Z') }), { seed: 1, numRuns: 1 });
      const answers = await Promise.all([target, twins[0]!].map((t) => t.payingApp!.read({ kind: 'json', text: JSON.stringify(cpr) })));
      expect(answers.map((a) => (a as { ok: boolean }).ok)).toEqual([false, true]);
      // Started with the reference's options: its mutant too.
      expect(twins.every((t) => t.config.payingApp?.settings['mutant'] === 'op-status-open')).toBe(true);
    } finally {
      await target.close();
    }
    expect(await accepts(target.config.operator?.adapter === 'http' ? target.config.operator.baseUrl : '')).toBe(false);
  });

  it('starts from a thread booted ahead, with the options of the start, and closes twice as once', async () => {
    bootReferenceThread();
    bootReferenceThread();
    const reference = await startReferenceThread({ port: 0, plaintextPort: null, mutant: 'op-status-open' });
    expect(reference.mutant).toBe('op-status-open');
    expect(reference.plaintextUrl).toBeUndefined();
    expect(reference.threadId).toBeGreaterThan(0);
    await Promise.all([reference.close(), reference.close()]);
    expect(await accepts(reference.url)).toBe(false);
  });

  it('starts a reference as soon as a thread booted with options has loaded: a start with those options takes it, one with others gets its own', async () => {
    bootReferenceThread({ port: 0, plaintextPort: null, mutant: 'op-status-open' });
    // Started before anyone asked: its listener accepts before the start is called.
    const early = { url: (await earlyReferenceUrl())! };
    expect(early.url).toMatch(/^https:/);
    expect(await accepts(early.url)).toBe(true);
    const same = await startReferenceThread({ port: 0, plaintextPort: null, mutant: 'op-status-open' });
    try {
      expect(same.url).toBe(early.url);
      expect(same.mutant).toBe('op-status-open');
    } finally {
      await same.close();
    }
    bootReferenceThread({ port: 0, plaintextPort: null, mutant: 'op-status-open' });
    const other = await startReferenceThread({ port: 0, plaintextPort: null });
    try {
      expect(other.mutant).toBeUndefined();
      expect(await accepts(other.url)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('reports an early start that failed when the start with its options is asked for, and starts afresh with other options', async () => {
    bootReferenceThread({ port: 0, plaintextPort: null, mutant: 'no-such-mutant' });
    await expect(startReferenceThread({ port: 0, plaintextPort: null, mutant: 'no-such-mutant' })).rejects.toMatchObject({ code: 'HARNESS_REFERENCE_START_FAILED', message: expect.stringMatching(/no-such-mutant/) });
    bootReferenceThread({ port: 0, plaintextPort: null, mutant: 'no-such-mutant' });
    const fine = await startReferenceThread({ port: 0, plaintextPort: null });
    try {
      expect(await accepts(fine.url)).toBe(true);
    } finally {
      await fine.close();
    }
  });

  it('serves the reference paying application from its thread, answering as the module in this thread does', async () => {
    const reference = await startReferenceThread({ port: 0, plaintextPort: null });
    try {
      const settings = { clock_shared: reference.clock, allowed_hosts: [new URL(reference.url).host] };
      const there = await reference.openPayingApp({ role: 'paying-app', settings, ca: reference.ca });
      const here = createReferenceRole({ role: 'paying-app', settings, ca: reference.ca }) as ModulePayingAppImplementation;
      const created = await fetchJson(reference, '/_control/payee/requests', { sub_interface: 'IBAN', amount: '5' });
      expect(created.status).toBe(201);
      const inputs = [
        { kind: 'object', value: created.body['cpr'] },
        { kind: 'uri', uri: created.body['inline_uri'] as string },
        { kind: 'json', text: '{"cpr_version":"CPR-0"}' },
      ] as const;
      for (const input of inputs) expect(await there.read(input)).toEqual(await here.read(input));
      expect(await there.read(inputs[0])).toMatchObject({ ok: true, cpr: { value: { amount: '5' } } });
      expect(await there.read(inputs[2])).toMatchObject({ ok: false, code: 'CPR_VERSION_UNSUPPORTED' });
      await there.close?.();
      await here.close?.();
      // A closed application answers nothing: the call is refused with the thread's reason.
      await expect(there.read(inputs[2])).rejects.toThrow(/no paying application \d+ is open in this thread/);
    } finally {
      await reference.close();
    }
  });

  it('a closed reference leaves its thread, loaded, to the next start, which may switch another mutant on', async () => {
    const first = await startReferenceThread({ port: 0, plaintextPort: null, mutant: 'op-status-open' });
    await first.close();
    const second = await startReferenceThread({ port: 0, plaintextPort: null });
    try {
      expect(second.threadId).toBe(first.threadId);
      expect(second.mutant).toBeUndefined();
      expect(second.url).not.toBe(first.url);
      expect(await accepts(second.url)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it.each([
    ['an unknown mutant', { mutant: 'no-such-mutant' }, /did not start: unknown mutant "no-such-mutant"/],
    ['a policy that is no policy', { policy: { max_body_bytes: 0 } }, /did not start: invalid operator policy: \/max_body_bytes/],
  ])('a start refused for %s is HARNESS_REFERENCE_START_FAILED with the reason', async (_, reference, reason) => {
    const error = await embeddedTarget({ reference }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('HARNESS_REFERENCE_START_FAILED');
    expect((error as HarnessError).message).toMatch(reason);
  });

  it('a thread that gives no word within the start deadline is HARNESS_REFERENCE_START_FAILED, and is ended', async () => {
    // No thread loads its modules and starts the reference in a millisecond.
    const error = await startReferenceThread({ port: 0, plaintextPort: null }, 1).catch((e: unknown) => e);
    expect((error as HarnessError).code).toBe('HARNESS_REFERENCE_START_FAILED');
    expect((error as HarnessError).message).toMatch(/no word from its thread within 1 ms/);
  });
});

describe('its thread never keeps a process alive', () => {
  it('when the harness never closes it: the process ends once its own work is done', async () => {
    // One request without keep-alive, so that nothing of this process's own holds it open.
    const r = await script(
      'forgotten',
      `const reference = await startReferenceThread({ port: 0, plaintextPort: null });
const status = await new Promise((resolve, reject) => get(new URL('/.well-known/cashpack-policy.json', reference.url), { ca: reference.ca, agent: false }, (res) => (res.resume(), resolve(res.statusCode))).once('error', reject));
console.log('answered', status);`,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('answered 200');
    expect(r.status).toBe(0);
  });

  it('but a call to its paying application holds the process until it is answered, then lets it end', async () => {
    const r = await script(
      'app-call',
      `const reference = await startReferenceThread({ port: 0, plaintextPort: null });
const app = await reference.openPayingApp({ role: 'paying-app', settings: { clock_shared: reference.clock }, ca: reference.ca });
console.log('read', JSON.stringify(await app.read({ kind: 'json', text: '{"cpr_version":"CPR-0"}' })));`,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('read {"ok":false,"code":"CPR_VERSION_UNSUPPORTED"');
    expect(r.status).toBe(0);
  });

  it('when a run against it is interrupted with SIGINT', async () => {
    const report = join(dir, 'interrupted');
    let signalled = false;
    const r = await cli(['run', '--report-dir', report], {
      onSpawn: (child, output) => {
        const poll = setInterval(() => {
          // Once the tests are under way against the reference (the run's header is out), interrupt it.
          if (!output.stdout().includes('against embedded reference')) return;
          clearInterval(poll);
          signalled = true;
          child.kill('SIGINT');
        }, 50);
        child.once('close', () => clearInterval(poll));
      },
    });
    expect(signalled).toBe(true);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/interrupted/);
  });
});
