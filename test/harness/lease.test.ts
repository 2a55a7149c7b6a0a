// Holding a target's test-control lease (harness/runner/lease.ts): acquired
// when offered, carried on test-control requests, renewed on a timer,
// released once; a busy target is HARNESS_TARGET_BUSY naming the holder, or
// waited for within a bound; a target that answers oddly is run without one.
// Roles here are in-process: the reference's control handler behind a role.
import { describe, expect, it } from 'vitest';
import type { HttpRole, WireRequest } from '../../harness/adapters/types.ts';
import { HarnessError } from '../../harness/errors.ts';
import { leaseHolder, leaseRoles } from '../../harness/runner/lease.ts';
import { Clock } from '../../reference/clock.ts';
import { createControlHandler } from '../../reference/control.ts';
import { serializeResponse } from '../../reference/http/respond.ts';
import type { Handler } from '../../reference/http/types.ts';

/** A role answering through `handler`, recording each request it sends. */
function roleOver(handler: Handler, name = 'https://impl.test'): HttpRole & { readonly sent: WireRequest[] } {
  const sent: WireRequest[] = [];
  return {
    kind: 'module',
    description: name,
    authority: 'impl.test',
    baseUrl: name,
    tls: 'in-process',
    sent,
    async send(request) {
      sent.push(request);
      const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      const body = typeof request.body === 'string' ? new TextEncoder().encode(request.body) : (request.body ?? new Uint8Array());
      const url = new URL(request.path, 'https://impl.test');
      const response = serializeResponse(await handler({ method: request.method, path: url.pathname, query: url.searchParams, headers, body, authority: 'impl.test', secure: true }), request.method);
      return { status: response.status, headers: response.headers, body: response.body, truncated: false, durationMs: 0 };
    },
    close: async () => undefined,
  };
}

/** One implementation: its clock (with the lease on it) and its control handler. */
function implementation() {
  const clock = new Clock();
  return { clock, handler: createControlHandler(clock) };
}

const freeze = (role: HttpRole) => role.send({ method: 'POST', path: '/_control/clock', headers: { 'content-type': 'application/json' }, body: '{"freeze":true}' });
const offers = () => true;

describe('leaseRoles', () => {
  it('acquires once per implementation, puts the lease on test-control requests, and releases it once', async () => {
    const impl = implementation();
    const role = roleOver(impl.handler);
    const held = await leaseRoles({ payee: role, operator: role }, offers, { holder: 'run A' });
    expect(held.ids.payee).toBe(held.ids.operator);
    expect(held.roles.payee).toBe(held.roles.operator);
    expect(impl.clock.lease.current()).toMatchObject({ holder: 'run A', id: held.ids.payee });
    // The held roles move the clock; another client cannot.
    expect((await freeze(held.roles.operator!)).status).toBe(200);
    expect(role.sent.at(-1)!.headers).toMatchObject({ 'control-lease': held.ids.payee });
    expect((await freeze(role)).status).toBe(409);
    await Promise.all([held.release(), held.release()]);
    expect(impl.clock.lease.current()).toBeUndefined();
    expect(role.sent.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('shares one lease between two roles of one implementation (two pools to one origin)', async () => {
    const impl = implementation();
    const held = await leaseRoles({ payee: roleOver(impl.handler), operator: roleOver(impl.handler) }, offers, { holder: 'run A' });
    expect(held.ids.payee).toBeDefined();
    expect(held.ids.operator).toBe(held.ids.payee);
    await held.release();
    expect(impl.clock.lease.current()).toBeUndefined();
  });

  it('holds one lease per implementation when payee and operator are two', async () => {
    const [a, b] = [implementation(), implementation()];
    const held = await leaseRoles({ payee: roleOver(a.handler, 'https://a.test'), operator: roleOver(b.handler, 'https://b.test') }, offers, { holder: 'run A' });
    expect(held.ids.payee).not.toBe(held.ids.operator);
    expect([a.clock.lease.current()?.id, b.clock.lease.current()?.id]).toEqual([held.ids.payee, held.ids.operator]);
    await held.release();
    expect([a.clock.lease.current(), b.clock.lease.current()]).toEqual([undefined, undefined]);
  });

  it('leaves a role alone that does not offer the lease', async () => {
    const impl = implementation();
    const role = roleOver(impl.handler);
    const held = await leaseRoles({ operator: role }, () => false, { holder: 'run A' });
    expect(held.roles.operator).toBe(role);
    expect(role.sent).toEqual([]);
  });

  it('fails a busy target at once with HARNESS_TARGET_BUSY naming the holder and when its lease ends', async () => {
    const impl = implementation();
    impl.clock.lease.acquire('cpr-conformance run (pid 1 on ci-7)', 30);
    const error = await leaseRoles({ operator: roleOver(impl.handler) }, offers, { holder: 'run B' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({ code: 'HARNESS_TARGET_BUSY', message: expect.stringMatching(/^the test control of https:\/\/impl\.test is leased to "cpr-conformance run \(pid 1 on ci-7\)" until \d{4}-\d\d-\d\dT[\d:.]+Z$/) });
    expect((error as HarnessError).hint).toMatch(/--lease-wait/);
  });

  it('waits for a busy target when told to, and gets the lease once the holder releases it', async () => {
    const impl = implementation();
    const other = impl.clock.lease.acquire('run A', 30);
    const said: string[] = [];
    const role = roleOver(impl.handler);
    // The holder lets go as soon as the waiting command has been refused once.
    const released = new Promise<void>((resolve) => {
      const send = role.send.bind(role);
      role.send = async (request) => {
        const answer = await send(request);
        if (answer.status === 409 && other.ok) {
          impl.clock.lease.release(other.lease.id);
          resolve();
        }
        return answer;
      };
    });
    const held = await leaseRoles({ operator: role }, offers, { holder: 'run B', waitSeconds: 600, say: (line) => said.push(line), timing: { pollEveryMs: 1 } });
    await released;
    expect(impl.clock.lease.current()?.holder).toBe('run B');
    expect(said).toEqual([expect.stringMatching(/^the test control of https:\/\/impl\.test is leased to "run A" until .*: waiting up to 600 s for it \(--lease-wait\)$/)]);
    await held.release();
  });

  it('bounds a wait by the number of polls it allows, then fails as busy, saying it waited', async () => {
    const impl = implementation();
    impl.clock.lease.acquire('run A', 3600);
    const role = roleOver(impl.handler);
    const error = await leaseRoles({ operator: role }, offers, { holder: 'run B', waitSeconds: 1, timing: { pollEveryMs: 250 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HARNESS_TARGET_BUSY', message: expect.stringContaining('(waited 1 s)') });
    // One second at four polls a second: at most five attempts, however the machine is loaded.
    expect(role.sent.filter((r) => r.path === '/_control/lease').length).toBeLessThanOrEqual(5);
  });

  it('stops waiting at an interrupt', async () => {
    const impl = implementation();
    impl.clock.lease.acquire('run A', 3600);
    const stop = new AbortController();
    const waiting = leaseRoles({ operator: roleOver(impl.handler) }, offers, { holder: 'run B', waitSeconds: 86_400, signal: stop.signal, say: () => stop.abort() });
    await expect(waiting).rejects.toMatchObject({ code: 'HARNESS_TARGET_BUSY', message: expect.stringContaining('then was interrupted') });
  });

  it('renews on its timer, and says so when the lease was lost', async () => {
    const impl = implementation();
    const role = roleOver(impl.handler);
    const said: string[] = [];
    let lost!: () => void;
    const told = new Promise<void>((resolve) => (lost = resolve));
    const held = await leaseRoles({ operator: role }, offers, {
      holder: 'run A',
      timing: { renewEveryMs: 5 },
      say: (line) => {
        said.push(line);
        lost();
      },
    });
    const id = held.ids.operator!;
    // Renewed: a renewal reached the target.
    await until(() => role.sent.some((r) => r.method === 'POST' && r.path === `/_control/lease/${id}`));
    // Taken away (it expired, and another client took it): the next renewal finds out.
    impl.clock.lease.release(id);
    impl.clock.lease.acquire('run B', 30);
    await told;
    expect(said[0]).toMatch(/^the test-control lease on https:\/\/impl\.test was lost \(now held by "run B" until .*\); clock moves the harness did not make are still noticed$/);
    await held.release();
    expect(impl.clock.lease.current()?.holder).toBe('run B');
  });

  it('runs without a lease, saying so, when the target lists the capability but does not grant one', async () => {
    const role = roleOver(() => ({ status: 500, headers: { 'content-type': 'application/problem+json' }, body: { code: 'INTERNAL_ERROR' } }));
    const said: string[] = [];
    const held = await leaseRoles({ operator: role }, offers, { holder: 'run A', say: (line) => said.push(line) });
    expect(held.ids).toEqual({});
    expect(held.roles.operator).toBe(role);
    expect(said).toEqual(['the operator lists the lease capability, but POST /_control/lease answered 500 INTERNAL_ERROR: running without a lease; clock moves the harness did not make are still noticed']);
  });

  it('names the holder by command, process and host', () => {
    expect(leaseHolder('fuzz')).toMatch(new RegExp(`^cpr-conformance fuzz \\(pid ${process.pid} on .+\\)$`));
  });
});

/** Resolves once `condition` holds, checking at every turn of the event loop (no time bound: the test's own limit applies). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}
