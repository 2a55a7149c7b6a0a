// Each misbehaving fixture as the http adapter meets it: no answer at all is a
// TransportError with a code (never a hang: the deadline holds), any answer is
// a response, and a body is never read past the cap.
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import { TransportError } from '../../../harness/adapters/types.ts';
import { HUGE_BODY_BYTES, startHostile, type Behaviour, type HostileServer } from '../../fixtures/hostile/servers.ts';

const servers: HostileServer[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

const CAP = 1024 * 1024;

async function exchange(behaviour: Behaviour) {
  const server = await startHostile(behaviour);
  servers.push(server);
  const role = createHttpRole({ baseUrl: server.url, timeoutMs: 800, maxBodyBytes: CAP });
  try {
    const response = await role.send({ method: 'GET', path: '/.well-known/cashpack-pubkey.json' });
    return { server, response };
  } catch (error) {
    return { server, error };
  } finally {
    await role.close();
  }
}

describe('the http adapter against misbehaving servers', () => {
  it.each<[Behaviour, TransportError['code']]>([
    ['silent', 'TIMEOUT'],
    ['trickle', 'TIMEOUT'],
    ['reset', 'RESET'],
  ])('%s: a %s TransportError, on the adapter\'s own deadline when the server stalls', async (behaviour, code) => {
    const { error } = await exchange(behaviour);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe(code);
    if (code === 'TIMEOUT') expect((error as TransportError).message).toMatch(/within 800 ms/);
  });

  it.each<Behaviour>(['endless-body', 'huge-body'])('%s: the body cut at the cap, the rest never read', async (behaviour) => {
    const before = process.memoryUsage().arrayBuffers;
    const { server, response } = await exchange(behaviour);
    expect(response?.status).toBe(200);
    expect(response?.truncated).toBe(true);
    expect(response?.body.length).toBe(CAP);
    // What the server could hand its socket is the cap plus the kernel's buffers, not 100 MB.
    expect(server.stats.largestResponse).toBeLessThan(HUGE_BODY_BYTES / 5);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });

  it.each<[Behaviour, number]>([
    ['invalid-json', 200],
    ['wrong-content-type', 400],
    ['redirect-loop', 302],
    ['redirect-away', 302],
    ['server-errors', 502],
    ['injection', 400],
  ])('%s: an answer (%i), returned as it is: nothing followed', async (behaviour, status) => {
    const { response, server } = await exchange(behaviour);
    expect(response?.status).toBe(status);
    expect(server.stats.requests).toBe(1);
  });
});
