// The fuzzer's client: with races off, the requests of one lane go out one at
// a time, in the order they were made; other lanes and races on are untouched.
import { describe, expect, it } from 'vitest';
import { TransportError, type HttpRole, type WireRequest, type WireResponse } from '../../../harness/adapters/types.ts';
import { FuzzClient, type Races } from '../../../harness/fuzz/client.ts';

/** A role whose answers come only when the test releases them, recording what is in flight. */
function heldRole() {
  const waiting: { path: string; answer: (fail?: boolean) => void }[] = [];
  const sent: string[] = [];
  let inFlight = 0;
  let most = 0;
  const role: HttpRole = {
    kind: 'http',
    description: 'held',
    authority: 'held.test',
    tls: 'none',
    send(request: WireRequest): Promise<WireResponse> {
      sent.push(request.path);
      most = Math.max(most, ++inFlight);
      return new Promise((resolve, reject) => {
        waiting.push({
          path: request.path,
          answer: (fail) => {
            inFlight -= 1;
            if (fail) reject(new TransportError('RESET', 'reset'));
            else resolve({ status: 200, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{}'), truncated: false, durationMs: 0 });
          },
        });
      });
    },
    close: async () => {},
  };
  /** Answers the oldest request still waiting, once the client had its turn to send more. */
  const answerNext = async (fail = false) => {
    await new Promise((r) => setImmediate(r));
    waiting.shift()!.answer(fail);
  };
  return { role, sent, waiting, answerNext, most: () => most };
}

const burst = (client: FuzzClient, lane: number | undefined, ...paths: string[]) => paths.map((path) => client.send({ method: 'GET', path }, [], lane));

describe('FuzzClient races', () => {
  it.each<[Races, number]>([
    ['on', 3],
    ['off', 1],
  ])('with races %s, a burst of three in one lane has at most %d in flight', async (races, most) => {
    const held = heldRole();
    const client = new FuzzClient(held.role, undefined, races);
    const replies = burst(client, 0, '/a', '/b', '/c');
    for (let i = 0; i < 3; i++) await held.answerNext();
    await Promise.all(replies);
    expect(held.sent).toEqual(['/a', '/b', '/c']);
    expect(held.most()).toBe(most);
    expect(client.ops).toBe(3);
  });

  it('with races off, lanes still send side by side', async () => {
    const held = heldRole();
    const client = new FuzzClient(held.role, undefined, 'off');
    const replies = [...burst(client, 0, '/a0', '/b0'), ...burst(client, 1, '/a1', '/b1'), ...burst(client, undefined, '/clock')];
    await new Promise((r) => setImmediate(r));
    expect(held.waiting.map((w) => w.path)).toEqual(['/a0', '/a1', '/clock']);
    for (let i = 0; i < 5; i++) await held.answerNext();
    await Promise.all(replies);
    expect(held.sent).toEqual(['/a0', '/a1', '/clock', '/b0', '/b1']);
  });

  it('with races off, a request that fails reaches its caller and the next one still goes out', async () => {
    const held = heldRole();
    const client = new FuzzClient(held.role, undefined, 'off');
    const [first, second] = burst(client, 0, '/fails', '/next');
    const failed = expect(first).rejects.toBeInstanceOf(TransportError);
    await held.answerNext(true);
    await failed;
    await held.answerNext();
    await expect(second).resolves.toMatchObject({ status: 200 });
    expect(held.sent).toEqual(['/fails', '/next']);
  });

  it('records each request through the tap when it goes out, so the requests of a burst with races off form a group each', async () => {
    const held = heldRole();
    const tapped: string[] = [];
    const client = new FuzzClient(held.role, (request) => void tapped.push(request.path), 'off');
    const replies = burst(client, 0, '/a', '/b');
    await new Promise((r) => setImmediate(r));
    expect(tapped).toEqual(['/a']);
    await held.answerNext();
    await held.answerNext();
    await Promise.all(replies);
    expect(tapped).toEqual(['/a', '/b']);
  });
});
