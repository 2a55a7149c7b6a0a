// The reference under sustained fuzzing: no 5xx, no crash, and the stores that
// remember what it has seen (replay ids, retrieval tokens, payee requests) stay
// bounded: each entry expires, and the store holds at most what arrived within
// its retention, however long the load goes on.
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import type { HttpRole } from '../../../harness/adapters/types.ts';
import { runCampaign } from '../../../harness/fuzz/index.ts';
import { Clock } from '../../../reference/clock.ts';
import { NO_FAULTS } from '../../../reference/mutants.ts';
import { ReplayStore } from '../../../reference/operator/replay.ts';
import { createPayee } from '../../../reference/payee/index.ts';
import { RequestStore } from '../../../reference/payee/requests.ts';
import { TokenStore } from '../../../reference/payee/tokens.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';
import { createFixture } from '../../reference/operator/fixture.ts';

vi.setConfig({ testTimeout: 60_000 });

describe('the reference under a sustained fuzzing campaign', () => {
  let reference: RunningReference;
  let role: HttpRole;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    reference = await startReference({ port: 0, plaintextPort: 0 });
    const http = createHttpRole({ baseUrl: reference.url, ca: reference.tls.ca });
    // Every answer the campaign gets, counted by status.
    role = { ...http, send: async (request) => {
      const response = await http.send(request);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      return response;
    } };
  });

  afterAll(async () => {
    await role?.close();
    await reference?.close();
  });

  it('answers every operation without a 5xx, matches the model, and keeps answering', async () => {
    const result = await runCampaign({ operator: role, seed: 20261121, budget: { kind: 'time', ms: 5000 }, outDir: mkdtempSync(join(tmpdir(), 'cpr-sustained-')), targetName: 'reference' });
    expect(result.failure).toBeUndefined();
    expect(result.ops).toBeGreaterThan(300);
    const serverErrors = [...statuses].filter(([status]) => status >= 500);
    expect(serverErrors).toEqual([]);
    expect((await role.send({ method: 'GET', path: '/.well-known/cashpack-policy.json' })).status).toBe(200);
    // Every id the campaign used is within the store's reach, never more than it sent.
    expect(reference.operator.replayStoreSize()).toBeLessThanOrEqual(result.ops);
  });
});

describe('stores bounded under many operations', () => {
  it('the Operator forgets replay ids after twice the request window, whatever the load', async () => {
    // 10 s window: ids are kept 20 s. Ten issues a second for 200 s: 2 000 ids seen, at most ~200 held.
    const f = createFixture({ policy: { request_window_seconds: 10 }, balance: '1000000' });
    let largest = 0;
    for (let second = 0; second < 200; second++) {
      for (let i = 0; i < 10; i++) expect((await f.issue(f.lockRequest({ amount: '1' }))).status).toBe(200);
      largest = Math.max(largest, f.operator.replayStoreSize());
      f.clock.advance(1);
    }
    expect(largest).toBeLessThanOrEqual(10 * 21);
    expect(largest).toBeGreaterThanOrEqual(10 * 20);
  });

  it.each<[string, number]>([
    ['steady load', 50],
    ['a burst', 5000],
  ])('the replay store holds only the retention window under %s', (_name, perSecond) => {
    const store = new ReplayStore(120_000);
    let largest = 0;
    let id = 0;
    for (let second = 0; second < 600; second++) {
      for (let i = 0; i < (second === 300 ? perSecond : 50); i++) expect(store.seenBefore(`id-${id++}`, second * 1000)).toBe(false);
      largest = Math.max(largest, store.size);
    }
    expect(largest).toBeLessThanOrEqual(50 * 121 + perSecond);
    store.seenBefore('late', 600_000 + 121_000);
    expect(store.size).toBe(1);
  });

  it('the replay store remembers every id recorded less than twice the window ago and forgets every older one, whatever way the clock moves', () => {
    const retention = 600_000;
    // Ids (some used again) at instants that go forward and back, by up to three retentions at once.
    const steps = fc.array(fc.record({ id: fc.integer({ min: 0, max: 40 }), move: fc.integer({ min: -3 * retention, max: 3 * retention }) }), { minLength: 1, maxLength: 200 });
    fc.assert(
      fc.property(steps, (moves) => {
        const store = new ReplayStore(retention);
        const recorded = new Map<string, number>();
        let now = 10 * retention;
        for (const { id, move } of moves) {
          now += move;
          // Forgotten exactly when recorded more than the retention before the clock; kept otherwise, an instant after the clock's included.
          for (const [known, at] of recorded) if (now - at > retention) recorded.delete(known);
          const key = `id-${id}`;
          expect(store.seenBefore(key, now)).toBe(recorded.has(key));
          if (!recorded.has(key)) recorded.set(key, now);
          expect(store.size).toBe(recorded.size);
        }
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('the token store forgets tokens after their lifetime and retention, used or not', () => {
    const lifetime = 300_000;
    const store = new TokenStore(lifetime, lifetime, NO_FAULTS);
    const cpr = {} as Parameters<TokenStore['issue']>[0];
    let largest = 0;
    for (let second = 0; second < 3600; second++) {
      for (let i = 0; i < 20; i++) {
        const { token } = store.issue(cpr, second * 1000);
        if (i % 2 === 0) store.take(token, second * 1000);
      }
      largest = Math.max(largest, store.size);
    }
    expect(largest).toBeLessThanOrEqual(20 * 601);
    store.peek('0'.repeat(32), 3600_000 + 2 * lifetime);
    expect(store.size).toBe(0);
  });

  it('the payee\'s request store forgets requests after their validity and retention', () => {
    const validity = 900_000;
    const store = new RequestStore(validity, NO_FAULTS);
    let largest = 0;
    for (let second = 0; second < 7200; second++) {
      for (let i = 0; i < 5; i++) store.register(`r-${second}-${i}`, second * 1000 + validity, second * 1000);
      largest = Math.max(largest, store.size);
    }
    expect(largest).toBeLessThanOrEqual(5 * 1801);
  });

  it('the payee keeps only live tokens and requests while it creates many', async () => {
    const clock = new Clock();
    clock.freeze(Date.UTC(2026, 0, 1));
    const payee = createPayee({ clock, baseUrl: 'https://payee.test', tokenLifetimeSeconds: 60, requestValiditySeconds: 120 });
    let largest = { tokens: 0, requests: 0 };
    for (let minute = 0; minute < 30; minute++) {
      for (let i = 0; i < 5; i++) await payee.createRequest({ sub_interface: 'IBAN', amount: '100' });
      const s = payee.stats();
      largest = { tokens: Math.max(largest.tokens, s.tokens), requests: Math.max(largest.requests, s.requests) };
      clock.advance(60);
    }
    // 150 created; tokens live 60 s + 60 s retained, requests 120 s + 120 s.
    expect(largest.tokens).toBeLessThanOrEqual(5 * 3);
    expect(largest.requests).toBeLessThanOrEqual(5 * 5);
  });
});
