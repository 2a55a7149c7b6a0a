// The run of several worlds (harness/fuzz/lanes.ts): commands wait only for
// their own lane, a barrier waits for every lane, and of several failures the
// earliest command in list order is the one reported, whatever finished first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import type { HttpRole } from '../../../harness/adapters/types.ts';
import { openContext } from '../../../harness/fuzz/campaign.ts';
import { Run } from '../../../harness/fuzz/lanes.ts';
import type { FuzzContext } from '../../../harness/fuzz/world.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a run of several worlds', () => {
  let reference: RunningReference;
  let role: HttpRole;
  let context: FuzzContext;
  beforeAll(async () => {
    reference = await startReference({ port: 0, plaintextPort: null });
    role = createHttpRole({ baseUrl: reference.url, ca: reference.tls.ca });
    context = await openContext(role);
  });
  afterAll(async () => {
    await role.close();
    await reference.close();
  });

  const open = async (lanes: number) => (await Run.open(context, Array.from({ length: lanes }, () => ({ balance: 'max' as const })), () => false)).real;

  it('opens one world per setup, each with its own accounts', async () => {
    const run = await open(3);
    expect(run.worlds.map((w) => w.lane)).toEqual([0, 1, 2]);
    expect(new Set(run.worlds.map((w) => w.kid('principal'))).size).toBe(3);
  });

  it('runs each lane in order and the lanes side by side', async () => {
    const run = await open(2);
    const seen: string[] = [];
    void run.enqueue(0, async () => {
      await pause(30);
      seen.push('0a');
    });
    void run.enqueue(0, async () => void seen.push('0b'));
    void run.enqueue(1, async () => void seen.push('1a'));
    await run.settle();
    expect(seen).toEqual(['1a', '0a', '0b']);
  });

  it('reports the earliest failed command in list order, not the first to fail', async () => {
    const run = await open(2);
    void run.enqueue(1, async () => {
      await pause(30);
      throw new Error('command 0 (lane 1)');
    });
    void run.enqueue(0, async () => {
      throw new Error('command 1 (lane 0)');
    });
    await expect(run.settle()).rejects.toThrow('command 0 (lane 1)');
    expect(run.failingWorld().lane).toBe(1);
  });

  it('skips the commands after a failure and holds a barrier until every lane is idle', async () => {
    const run = await open(2);
    const seen: string[] = [];
    void run.enqueue(0, async () => {
      await pause(20);
      seen.push('slow');
    });
    await run.barrier(1, async () => void seen.push('barrier'));
    expect(seen).toEqual(['slow', 'barrier']);
    void run.enqueue(1, async () => {
      throw new Error('failed');
    });
    void run.enqueue(1, async () => void seen.push('after the failure'));
    await expect(run.settle()).rejects.toThrow('failed');
    expect(seen).toEqual(['slow', 'barrier']);
  });
});
