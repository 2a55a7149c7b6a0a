// The reference's test-control lease (PROFILE.md §12, lease): one client at a
// time moves the shared clock; everything else stays open; the lease runs on
// real time and ends by itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textVariant } from '../../generators/classes/text.ts';
import { LEASE } from '../../profile/control.ts';
import { createRole } from '../../reference/adapter.ts';
import { Clock } from '../../reference/clock.ts';
import { createControlHandler } from '../../reference/control.ts';
import type { RefResponse } from '../../reference/http/types.ts';

const T0 = Date.UTC(2030, 0, 1);

/** The control handler over a clock whose real time the test moves. */
function control(options: { lease?: boolean } = {}) {
  let real = T0;
  const clock = new Clock(() => real);
  const handler = createControlHandler(clock, options);
  const send = async (method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<RefResponse & { body: Record<string, unknown> }> => {
    const body = json === undefined ? new Uint8Array() : new TextEncoder().encode(JSON.stringify(json));
    const response = await handler({ method, path, query: new URLSearchParams(), headers: { ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body, authority: 'x', secure: true });
    return response as RefResponse & { body: Record<string, unknown> };
  };
  return { clock, send, pass: (ms: number) => void (real += ms) };
}

const acquire = (c: ReturnType<typeof control>, holder = 'run A', ttl = 30) => c.send('POST', '/_control/lease', { holder, ttl_seconds: ttl });
const freeze = (c: ReturnType<typeof control>, lease?: string) => c.send('POST', '/_control/clock', { freeze: true }, lease === undefined ? {} : { 'control-lease': lease });

describe('the test-control lease', () => {
  it('is offered, and acquiring it names the holder and when it ends, on real time', async () => {
    const c = control();
    expect((await c.send('GET', '/_control/capabilities')).body.capabilities).toContain('lease');
    expect((await c.send('GET', '/_control/lease')).body).toEqual({ held: false });
    const granted = await acquire(c);
    expect(granted.status).toBe(201);
    expect(granted.body).toEqual({ lease_id: expect.stringMatching(/^[0-9a-f]{32}$/), holder: 'run A', expires_at: '2030-01-01T00:00:30Z' });
    expect((await c.send('GET', '/_control/lease')).body).toEqual({ held: true, holder: 'run A', expires_at: '2030-01-01T00:00:30Z' });
  });

  it('counts the holder in code points (PROFILE.md §1), not UTF-16 units, and names it as written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('text.length', 'text.non-ascii', 'text.normalisation') as fc.Arbitrary<'text.length'>, fc.nat(), async (cls, seed) => {
        const holder = fc.sample(textVariant({ class: cls, min: 1, max: LEASE.holderMaxLength }), { seed, numRuns: 1 })[0]!;
        const granted = await acquire(control(), holder.value);
        expect(granted.status, holder.note).toBe(holder.withinBounds ? 201 : 400);
        if (holder.withinBounds) expect(granted.body.holder).toBe(holder.value);
      }),
      { seed: 22, numRuns: 40 },
    );
  });

  it('refuses a second holder with 409 CONTROL_BUSY naming the first and when its lease ends', async () => {
    const c = control();
    await acquire(c);
    const refused = await acquire(c, 'run B');
    expect(refused.status).toBe(409);
    expect(refused.headers?.['content-type']).toBe('application/problem+json');
    expect(refused.body).toMatchObject({ code: 'CONTROL_BUSY', status: 409, holder: 'run A', expires_at: '2030-01-01T00:00:30Z' });
  });

  it('lets only the holder move the clock, and leaves reads open to everyone', async () => {
    const c = control();
    const id = (await acquire(c)).body.lease_id as string;
    for (const header of [undefined, 'f'.repeat(32)]) expect((await freeze(c, header)).body).toMatchObject({ code: 'CONTROL_BUSY', holder: 'run A' });
    expect(c.clock.state().frozen).toBe(false);
    expect((await c.send('GET', '/_control/clock')).status).toBe(200);
    expect(await freeze(c, id)).toMatchObject({ status: 200, body: { frozen: true } });
  });

  it('renews from now, and ends by itself on real time, not on the test clock its holder moves', async () => {
    const c = control();
    const id = (await acquire(c, 'run A', 10)).body.lease_id as string;
    await c.send('POST', '/_control/clock', { freeze: true, advance_seconds: 86_400 }, { 'control-lease': id });
    expect((await c.send('GET', '/_control/lease')).body.held).toBe(true);
    c.pass(8_000);
    expect(await c.send('POST', `/_control/lease/${id}`, { ttl_seconds: 10 })).toMatchObject({ status: 200, body: { lease_id: id, holder: 'run A', expires_at: '2030-01-01T00:00:18Z' } });
    c.pass(10_000);
    expect((await c.send('GET', '/_control/lease')).body).toEqual({ held: false });
    expect((await freeze(c)).status).toBe(200);
    expect((await c.send('POST', `/_control/lease/${id}`, { ttl_seconds: 10 })).body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await acquire(c, 'run B')).status).toBe(201);
    expect((await c.send('POST', `/_control/lease/${id}`, { ttl_seconds: 10 })).body).toMatchObject({ code: 'CONTROL_BUSY', holder: 'run B' });
  });

  it('is released with DELETE, once', async () => {
    const c = control();
    const id = (await acquire(c)).body.lease_id as string;
    expect((await c.send('DELETE', `/_control/lease/${id}`)).status).toBe(204);
    expect((await c.send('DELETE', `/_control/lease/${id}`)).body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await freeze(c)).status).toBe(200);
    expect((await acquire(c, 'run B')).status).toBe(201);
  });

  it.each([
    ['no holder', { ttl_seconds: 30 }],
    ['an empty holder', { holder: '', ttl_seconds: 30 }],
    ['a holder of 201 characters', { holder: 'h'.repeat(201), ttl_seconds: 30 }],
    ['a TTL of 0', { holder: 'a', ttl_seconds: 0 }],
    ['a TTL of 3601 s', { holder: 'a', ttl_seconds: 3601 }],
    ['a fractional TTL', { holder: 'a', ttl_seconds: 1.5 }],
    ['an unknown member', { holder: 'a', ttl_seconds: 30, exclusive: true }],
    ['not an object', ['a', 30]],
  ])('refuses to acquire with %s (400 MALFORMED_REQUEST)', async (_name, body) => {
    const c = control();
    expect((await c.send('POST', '/_control/lease', body)).body).toMatchObject({ code: 'MALFORMED_REQUEST' });
    expect((await c.send('GET', '/_control/lease')).body).toEqual({ held: false });
  });

  it('is absent when switched off: not listed, no routes, and the clock open to all', async () => {
    const c = control({ lease: false });
    expect((await c.send('GET', '/_control/capabilities')).body.capabilities).not.toContain('lease');
    expect((await acquire(c)).body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await freeze(c)).status).toBe(200);
  });

  it('is one per world in the module adapter: the payee and operator roles share it, as they share the clock', async () => {
    const settings = { instance: 'lease-test' };
    const [payee, operator] = (['payee', 'operator'] as const).map((role) => createRole({ role, settings }) as { handle(r: unknown): Promise<{ status: number; body: Uint8Array }>; close(): void });
    const post = (role: typeof payee, path: string, json: unknown, headers: Record<string, string> = {}) =>
      role!.handle({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: new TextEncoder().encode(JSON.stringify(json)) });
    try {
      const granted = await post(payee, '/_control/lease', { holder: 'payee side', ttl_seconds: 30 });
      expect(granted.status).toBe(201);
      expect((await post(operator, '/_control/clock', { freeze: true })).status).toBe(409);
      const id = (JSON.parse(new TextDecoder().decode(granted.body)) as { lease_id: string }).lease_id;
      expect((await post(operator, '/_control/clock', { freeze: false }, { 'control-lease': id })).status).toBe(200);
    } finally {
      payee!.close();
      operator!.close();
    }
  });
});

describe('the clock control', () => {
  it('answers a frozen clock let run with the instant it runs on from, though real time moves while it answers', async () => {
    let real = T0 + 250;
    // Each read of real time is a millisecond later: the answer must not depend on how many reads it takes.
    const clock = new Clock(() => (real += 1));
    const handler = createControlHandler(clock);
    const post = async (json: unknown) => (await handler({ method: 'POST', path: '/_control/clock', query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(json)), authority: 'x', secure: true })) as RefResponse & { body: Record<string, unknown> };
    expect((await post({ freeze: true, set: '2030-01-01T00:00:07Z' })).body).toEqual({ now: '2030-01-01T00:00:07Z', frozen: true });
    expect((await post({ freeze: false })).body).toEqual({ now: '2030-01-01T00:00:07Z', frozen: false });
    // Running, it moves on from there.
    expect(clock.now()).toBeGreaterThan(Date.UTC(2030, 0, 1, 0, 0, 7));
    expect((await post({ freeze: false })).body.now).not.toBe('2030-01-01T00:00:07Z');
  });
});
