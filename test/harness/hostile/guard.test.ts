// The run guard (harness/runner/guard.ts): after N consecutive requests with no
// answer at all a role is unreachable: later requests fail at once and its tests
// are not run; any answer closes the count; the other roles go on; past the
// run's deadline no test starts.
import { describe, expect, it } from 'vitest';
import { TransportError, type HttpRole, type WireRequest, type WireResponse } from '../../../harness/adapters/types.ts';
import { RunGuard } from '../../../harness/runner/guard.ts';
import { StepError, type ScenarioTarget } from '../../../harness/scenarios/context.ts';

type Script = (request: WireRequest) => WireResponse | TransportError;

function role(baseUrl: string, script: Script, kind: HttpRole['kind'] = 'http'): HttpRole & { sent: number } {
  const r = {
    sent: 0,
    kind,
    description: baseUrl,
    authority: new URL(baseUrl).host,
    baseUrl,
    tls: 'none' as const,
    async send(request: WireRequest) {
      r.sent += 1;
      const outcome = script(request);
      if (outcome instanceof TransportError) throw outcome;
      return outcome;
    },
    close: async () => undefined,
  };
  return r;
}

const ok = (): WireResponse => ({ status: 503, headers: {}, body: new Uint8Array(), truncated: false, durationMs: 1 });
const timeout = () => new TransportError('TIMEOUT', 'no complete response within 10 ms');

function target(payee: HttpRole, operator: HttpRole = payee): ScenarioTarget {
  return {
    httpRole: (name) => (name === 'payee' ? payee : operator),
    payingApp: undefined,
    capabilities: () => new Set(),
    adapterKind: (name) => (name === 'paying-app' ? undefined : 'http'),
    credential: () => undefined,
  };
}

async function outcome(r: HttpRole, request: WireRequest = { method: 'GET', path: '/x' }): Promise<string> {
  try {
    return `answered ${(await r.send(request)).status}`;
  } catch (error) {
    if (error instanceof StepError) return `refused ${error.code}`;
    if (error instanceof TransportError) return `transport ${error.code}`;
    throw error;
  }
}

describe('the circuit breaker', () => {
  it('opens after N consecutive transport failures: later requests fail at once, unsent, and tests are not run', async () => {
    const inner = role('http://127.0.0.1:1', timeout);
    const guard = new RunGuard({ unreachableAfter: 3 });
    const guarded = guard.guard(target(inner));
    const payee = guarded.httpRole('payee')!;
    expect(guard.blocked(guarded, 'payee')).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(await outcome(payee)).toBe('transport TIMEOUT');
    expect(await outcome(payee)).toBe('refused HARNESS_TARGET_UNREACHABLE');
    expect(inner.sent).toBe(3);
    expect(guard.blocked(guarded, 'payee')).toEqual({
      code: 'HARNESS_TARGET_UNREACHABLE',
      reason: 'the payee at http://127.0.0.1:1 stopped answering (3 consecutive transport failures; the last: TIMEOUT: no complete response within 10 ms)',
    });
    // The operator behind the same URL is the same place: unreachable too.
    expect(guard.blocked(guarded, 'operator')?.code).toBe('HARNESS_TARGET_UNREACHABLE');
  });

  it('counts only consecutive failures: any HTTP answer, a 5xx included, starts the count again', async () => {
    let n = 0;
    const inner = role('http://127.0.0.1:2', () => (++n % 3 === 0 ? ok() : timeout()));
    const guard = new RunGuard({ unreachableAfter: 3 });
    const payee = guard.guard(target(inner)).httpRole('payee')!;
    for (let i = 0; i < 30; i++) await outcome(payee);
    expect(inner.sent).toBe(30);
  });

  it('keeps testing a role elsewhere when one role stops answering', async () => {
    const guard = new RunGuard({ unreachableAfter: 2 });
    const dead = role('http://127.0.0.1:3', timeout);
    const alive = role('http://127.0.0.1:4', ok);
    const guarded = guard.guard(target(dead, alive));
    for (let i = 0; i < 2; i++) await outcome(guarded.httpRole('payee')!);
    expect(guard.blocked(guarded, 'payee')?.code).toBe('HARNESS_TARGET_UNREACHABLE');
    expect(guard.blocked(guarded, 'operator')).toBeUndefined();
    expect(await outcome(guarded.httpRole('operator')!)).toBe('answered 503');
  });

  it('leaves plaintext probes alone: unanswered by design, they neither count nor are refused', async () => {
    const inner = role('http://127.0.0.1:5', timeout);
    const guard = new RunGuard({ unreachableAfter: 1 });
    const payee = guard.guard(target(inner)).httpRole('payee')!;
    for (let i = 0; i < 5; i++) expect(await outcome(payee, { method: 'GET', path: '/cpr/x', transport: 'plaintext' })).toBe('transport TIMEOUT');
    expect(await outcome(payee)).toBe('transport TIMEOUT');
    expect(await outcome(payee, { method: 'GET', path: '/cpr/x', transport: 'plaintext' })).toBe('transport TIMEOUT');
    expect(await outcome(payee)).toBe('refused HARNESS_TARGET_UNREACHABLE');
  });

  it('does not count an in-process module that threw (CRASHED): that is its answer', async () => {
    const inner = role('http://127.0.0.1:6', () => new TransportError('CRASHED', 'handle() threw'), 'module');
    const guard = new RunGuard({ unreachableAfter: 1 });
    const payee = guard.guard(target(inner)).httpRole('payee')!;
    for (let i = 0; i < 3; i++) expect(await outcome(payee)).toBe('transport CRASHED');
  });

  it('counts a broken adapter contract (PROTOCOL) of a module or a child: a session that speaks garbage is gone', async () => {
    const inner = role('http://127.0.0.1:9', () => new TransportError('PROTOCOL', 'a line on stdout is not JSON'), 'process');
    const guard = new RunGuard({ unreachableAfter: 2 });
    const payee = guard.guard(target(inner)).httpRole('payee')!;
    expect(await outcome(payee)).toBe('transport PROTOCOL');
    expect(await outcome(payee)).toBe('transport PROTOCOL');
    expect(await outcome(payee)).toBe('refused HARNESS_TARGET_UNREACHABLE');
  });

  it('never opens with --unreachable-after 0', async () => {
    const inner = role('http://127.0.0.1:7', timeout);
    const guard = new RunGuard({ unreachableAfter: 0 });
    const payee = guard.guard(target(inner)).httpRole('payee')!;
    for (let i = 0; i < 20; i++) expect(await outcome(payee)).toBe('transport TIMEOUT');
  });
});

describe('the run deadline', () => {
  it('starts no test once it has passed', () => {
    const guard = new RunGuard({ unreachableAfter: 3, deadlineAt: Date.now() - 1 });
    expect(guard.blocked(target(role('http://127.0.0.1:8', ok)), 'operator')).toMatchObject({ code: 'HARNESS_DEADLINE_EXCEEDED', reason: expect.stringMatching(/^the run's time limit passed at /) });
    expect(new RunGuard({ unreachableAfter: 3, deadlineAt: Date.now() + 60_000 }).blocked(target(role('http://127.0.0.1:8', ok)), 'operator')).toBeUndefined();
  });
});

describe("the run's record of created requests", () => {
  it('is one for every target the guard wraps (a twin too), and none is shared between runs', () => {
    const guard = new RunGuard({ unreachableAfter: 3 });
    const first = guard.guard(target(role('http://127.0.0.1:1', ok)));
    const twin = guard.guard(target(role('http://127.0.0.1:2', ok)));
    expect(first.createdRequests).toBeInstanceOf(Map);
    expect(twin.createdRequests).toBe(first.createdRequests);
    expect(new RunGuard({ unreachableAfter: 3 }).guard(target(role('http://127.0.0.1:1', ok))).createdRequests).not.toBe(first.createdRequests);
  });
});
