// The one engine (harness/runner/plan.ts): its rules, whoever calls it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TransportError, type HttpRole, type WireRequest, type WireResponse } from '../../harness/adapters/types.ts';
import { PROPERTIES } from '../../harness/properties/catalogue.ts';
import type { PropertyDefinition } from '../../harness/properties/types.ts';
import type { TestResult } from '../../harness/report/model.ts';
import { lanesOf, partitionPlan, planOf, runPlan, shardOf, startOrder, testId, type PlanTest } from '../../harness/runner/plan.ts';
import { loadTimings, TIMINGS_FILE } from '../../harness/runner/timings.ts';
import type { ScenarioTarget } from '../../harness/scenarios/context.ts';
import { loadSuites, parseSuite } from '../../harness/scenarios/load.ts';

/** A payee whose answer to each request the test decides. */
function payee(answer: (request: WireRequest) => Promise<WireResponse>): HttpRole {
  return { kind: 'http', description: 'http://payee.test', authority: 'payee.test', baseUrl: 'http://payee.test', tls: 'none', send: answer, close: async () => undefined };
}

function target(role: HttpRole): ScenarioTarget {
  return { httpRole: (r) => (r === 'payee' ? role : undefined), payingApp: undefined, capabilities: () => new Set(), adapterKind: (r) => (r === 'payee' ? 'http' : undefined), credential: () => undefined };
}

const ok = async (): Promise<WireResponse> => ({ status: 200, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{}'), truncated: false, durationMs: 1 });
const never = () => new Promise<WireResponse>(() => undefined);

/** n scenarios, each one GET expecting 200, named T-001... */
function scenarios(n: number, path = (i: number) => `/t/${i}`) {
  const body = Array.from({ length: n }, (_, i) => `  - id: TOK-GET-9${String(i).padStart(2, '0')}\n    title: t${i}\n    requirements: [TOK-GET-1]\n    level: MUST\n    steps:\n      - do: http\n        method: GET\n        path: ${path(i)}\n        expect: [{ status: 200 }]\n`).join('');
  return parseSuite(`suite: probe\ntitle: probe\nsections: ["§5.1"]\nrole: payee\nscenarios:\n${body}`, 'suites/cpr/probe.yaml').scenarios;
}

const options = { seed: 1, rerunBase: 'run' } as const;

describe('runPlan', () => {
  it('runs every test once, in order, handing each result on as it ends', async () => {
    const seen: string[] = [];
    const { results, interrupted } = await runPlan(planOf(scenarios(4), []), target(payee(ok)), { ...options, onResult: (r) => seen.push(r.id) });
    expect(results.map((r) => [r.id, r.status])).toEqual([0, 1, 2, 3].map((i) => [`TOK-GET-90${i}`, 'passed']));
    expect(seen).toEqual(results.map((r) => r.id));
    expect(interrupted).toBe(false);
  });

  it('reports a test past its time limit as HARNESS_DEADLINE_EXCEEDED and goes on', async () => {
    const role = payee((request) => (request.path === '/t/0' ? never() : ok()));
    const { results } = await runPlan(planOf(scenarios(2), []), target(role), { ...options, limits: { testTimeLimitMs: 50 } });
    expect(results.map((r) => [r.status, r.error_code])).toEqual([
      ['error', 'HARNESS_DEADLINE_EXCEEDED'],
      ['passed', undefined],
    ]);
  });

  it('starts no test after a result stopWhen takes; the tests never started have no result', async () => {
    const role = payee(async (request) => (request.path === '/t/1' ? { ...(await ok()), status: 500 } : ok()));
    const started: string[] = [];
    const counting: HttpRole = { ...role, send: (request) => (started.push(request.path), role.send(request)) };
    const { results, interrupted } = await runPlan(planOf(scenarios(4), []), target(counting), { ...options, stopWhen: (r) => r.status === 'failed' });
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['TOK-GET-900', 'passed'],
      ['TOK-GET-901', 'failed'],
    ]);
    expect(started).toEqual(['/t/0', '/t/1']);
    expect(interrupted).toBe(false);
  });

  it('cuts off a role after N consecutive transport failures: its later tests are reported, not run', async () => {
    let sent = 0;
    const role = payee(async () => {
      sent++;
      throw new TransportError('REFUSED', 'connect ECONNREFUSED');
    });
    const { results } = await runPlan(planOf(scenarios(6), []), target(role), { ...options, limits: { unreachableAfter: 2 } });
    expect(sent).toBe(2);
    expect(results.map((r) => r.error_code)).toEqual(Array(6).fill('HARNESS_TARGET_UNREACHABLE'));
    expect(results.slice(2).every((r) => r.not_run === true && /^the payee at http:\/\/payee\.test stopped answering/.test(r.reason ?? ''))).toBe(true);
    // The two that ran and failed were started: not marked not run.
    expect(results.slice(0, 2).map((r) => r.not_run)).toEqual([undefined, undefined]);
  });

  it('stops a test still running when the run\'s time is up, and starts no other', async () => {
    const { results } = await runPlan(planOf(scenarios(2), []), target(payee(never)), { ...options, limits: { deadlineAt: Date.now() + 50 } });
    expect(results[0]).toMatchObject({ status: 'error', error_code: 'HARNESS_DEADLINE_EXCEEDED', reason: expect.stringMatching(/^stopped: the run's time limit passed at .* while the scenario ran$/) });
    expect(results[0]!.not_run).toBeUndefined();
    expect(results[1]).toMatchObject({ error_code: 'HARNESS_DEADLINE_EXCEEDED', not_run: true, reason: expect.stringMatching(/^the run's time limit passed at /) });
  });

  it('starts no test past the deadline', async () => {
    const { results } = await runPlan(planOf(scenarios(3), []), target(payee(ok)), { ...options, limits: { deadlineAt: Date.now() - 1 } });
    expect(results.map((r) => r.error_code)).toEqual(Array(3).fill('HARNESS_DEADLINE_EXCEEDED'));
  });

  describe('interrupted', () => {
    /** A signal that fires when the test asks. */
    function signal() {
      let fire!: () => void;
      const state = { fired: false, signalled: new Promise<void>((resolve) => (fire = resolve)) };
      return { state, fire: () => ((state.fired = true), fire()) };
    }

    it('starts no test after the signal, and keeps a test in flight that passes within the grace', async () => {
      const { state, fire } = signal();
      const role = payee(async (request) => {
        if (request.path === '/t/1') {
          fire();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return ok();
      });
      const { results, interrupted } = await runPlan(planOf(scenarios(4), []), target(role), { ...options, interrupts: state, interruptGraceMs: 1000 });
      expect(interrupted).toBe(true);
      expect(results.map((r) => [r.id, r.status])).toEqual([
        ['TOK-GET-900', 'passed'],
        ['TOK-GET-901', 'passed'],
      ]);
    });

    it('leaves out a test in flight that ends failed or in error after the signal: cut off, not judged', async () => {
      for (const ending of [async () => ({ ...(await ok()), status: 500 }), async () => Promise.reject(new TransportError('CLOSED', 'the client is closed'))]) {
        const { state, fire } = signal();
        const role = payee(async (request) => {
          if (request.path === '/t/1') {
            fire();
            return ending();
          }
          return ok();
        });
        const { results } = await runPlan(planOf(scenarios(3), []), target(role), { ...options, interrupts: state, interruptGraceMs: 1000 });
        expect(results.map((r: TestResult) => r.id)).toEqual(['TOK-GET-900']);
      }
    });

    it('abandons a test in flight that does not end within the grace', async () => {
      const { state, fire } = signal();
      const role = payee((request) => {
        if (request.path === '/t/1') {
          fire();
          return never();
        }
        return ok();
      });
      const { results } = await runPlan(planOf(scenarios(3), []), target(role), { ...options, interrupts: state, interruptGraceMs: 20 });
      expect(results.map((r) => r.id)).toEqual(['TOK-GET-900']);
    });
  });
});

describe('startOrder', () => {
  const plan = planOf(scenarios(6), []);
  const ids = (order: number[]) => order.map((index) => testId(plan[index]!));

  it('starts the tests that run alone first, in plan order, then the others longest first, ties in plan order', () => {
    const alone = [false, true, false, false, true, false];
    const timings = new Map([['TOK-GET-900', 10], ['TOK-GET-901', 500], ['TOK-GET-902', 30], ['TOK-GET-903', 30], ['TOK-GET-904', 1], ['TOK-GET-905', 70]]);
    expect(ids(startOrder(plan, alone, timings))).toEqual(['TOK-GET-901', 'TOK-GET-904', 'TOK-GET-905', 'TOK-GET-902', 'TOK-GET-903', 'TOK-GET-900']);
  });

  it('counts a test the timings do not know at their median, and keeps plan order without timings', () => {
    const none = plan.map(() => false);
    // Known: 10, 20, 40 (median 20); the three unknown ones tie with TOK-GET-901 and keep plan order among them.
    const timings = new Map([['TOK-GET-901', 20], ['TOK-GET-903', 40], ['TOK-GET-905', 10]]);
    expect(ids(startOrder(plan, none, timings))).toEqual(['TOK-GET-903', 'TOK-GET-900', 'TOK-GET-901', 'TOK-GET-902', 'TOK-GET-904', 'TOK-GET-905']);
    expect(startOrder(plan, none)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('is a permutation of the plan for any flags and timings', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), fc.array(fc.option(fc.nat(1000), { nil: undefined }), { minLength: 6, maxLength: 6 }), (alone, ms) => {
        const timings = new Map(plan.flatMap((test, i) => (ms[i] === undefined ? [] : [[testId(test), ms[i]!] as const])));
        const order = startOrder(plan, alone, timings);
        expect([...order].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
        const firstShared = order.findIndex((index) => !alone[index]);
        expect(order.slice(0, firstShared === -1 ? order.length : firstShared).every((index) => alone[index])).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('runPlan --concurrency', () => {
  /** A payee that holds each GET /t/i until the test lets it go, logging what happens in order. */
  function gated() {
    const log: string[] = [];
    const waiting = new Map<string, () => void>();
    let arrived: () => void = () => undefined;
    const role = payee(async (request) => {
      if (request.path === '/_control/clock') {
        log.push(`${request.method} clock`);
        return { ...(await ok()), body: new TextEncoder().encode(JSON.stringify({ now: new Date().toISOString(), frozen: false })) };
      }
      if (request.path === '/free') return ok();
      log.push(`start ${request.path}`);
      await new Promise<void>((resolve) => {
        waiting.set(request.path, resolve);
        arrived();
      });
      log.push(`end ${request.path}`);
      return ok();
    });
    /** Resolves once `path` is being held. */
    const held = async (path: string) => {
      while (!waiting.has(path)) await new Promise<void>((resolve) => (arrived = resolve));
    };
    const release = (path: string) => {
      waiting.get(path)!();
      waiting.delete(path);
    };
    return { role, log, held, release, waiting };
  }

  it('runs up to N tests at once, and hands results on in plan order whatever order they end in', async () => {
    const gate = gated();
    const seen: string[] = [];
    const running = runPlan(planOf(scenarios(4), []), target(gate.role), { ...options, concurrency: 3, onResult: (r) => seen.push(r.id) });
    for (const i of [0, 1, 2]) await gate.held(`/t/${i}`);
    expect(gate.waiting.has('/t/3')).toBe(false);
    gate.release('/t/2');
    gate.release('/t/1');
    await gate.held('/t/3');
    expect(seen).toEqual([]);
    gate.release('/t/3');
    gate.release('/t/0');
    const { results } = await running;
    expect(results.map((r) => [r.id, r.status])).toEqual([0, 1, 2, 3].map((i) => [`TOK-GET-90${i}`, 'passed']));
    expect(seen).toEqual(results.map((r) => r.id));
  });

  it('runs a test that moves the clock alone, before the others: no test starts until it ends; results stay in plan order', async () => {
    const clocked = parseSuite(
      'suite: probe\ntitle: probe\nsections: ["§5.1"]\nrole: payee\nscenarios:\n  - id: TOK-GET-960\n    title: t\n    requirements: [TOK-GET-1]\n    level: MUST\n    needs: [clock]\n    steps:\n      - do: clock\n        advance: 0\n      - do: http\n        method: GET\n        path: /free\n        expect: [{ status: 200 }]\n',
      'suites/cpr/probe.yaml',
    ).scenarios;
    const [a, b, c, d] = scenarios(4);
    const gate = gated();
    const seen: string[] = [];
    const withClock: ScenarioTarget = { ...target(gate.role), capabilities: () => new Set(['clock'] as const) };
    const running = runPlan(planOf([a!, b!, ...clocked, c!, d!], []), withClock, { ...options, concurrency: 4, onResult: (r) => seen.push(r.id) });
    for (const i of [0, 1, 2, 3]) await gate.held(`/t/${i}`);
    // The clocked test ran first, with nothing beside it; then the four others at once.
    const firstStart = gate.log.findIndex((e) => e.startsWith('start '));
    expect(gate.log.slice(0, firstStart)).toContain('POST clock');
    expect(gate.log.slice(firstStart).filter((e) => e.includes('clock'))).toEqual([]);
    for (const i of [3, 2, 1, 0]) gate.release(`/t/${i}`);
    const { results } = await running;
    expect(results.map((r) => [r.id, r.status])).toEqual(['TOK-GET-900', 'TOK-GET-901', 'TOK-GET-960', 'TOK-GET-902', 'TOK-GET-903'].map((id) => [id, 'passed']));
    expect(seen).toEqual(results.map((r) => r.id));
  });

  /** n scenarios that each move the clock then GET /c/i (TOK-GET-95x): they run alone, or on a twin. */
  function clockedScenarios(n: number) {
    const body = Array.from({ length: n }, (_, i) => `  - id: TOK-GET-95${i}\n    title: c${i}\n    requirements: [TOK-GET-1]\n    level: MUST\n    needs: [clock]\n    steps:\n      - do: clock\n        advance: 0\n      - do: http\n        method: GET\n        path: /c/${i}\n        expect: [{ status: 200 }]\n`).join('');
    return parseSuite(`suite: probe\ntitle: probe\nsections: ["§5.1"]\nrole: payee\nscenarios:\n${body}`, 'suites/cpr/probe.yaml').scenarios;
  }

  it('runs the tests that move the clock on twins of the target, one at a time on each, beside the others and never over the concurrency; results stay in plan order', async () => {
    const gate = gated();
    const twinGates = [gated(), gated()];
    const opened: number[] = [];
    const withClock = (role: HttpRole): ScenarioTarget => ({ ...target(role), capabilities: () => new Set(['clock'] as const) });
    const twin = async () => withClock(twinGates[opened.push(opened.length) - 1]!.role);
    const seen: string[] = [];
    const plan = planOf([...scenarios(2), ...clockedScenarios(3)], []);
    const running = runPlan(plan, withClock(gate.role), { ...options, concurrency: 3, twin, onResult: (r) => seen.push(r.id) });
    // Two lanes (3 clocked tests), each on its own twin, and one slot beside them.
    await twinGates[0]!.held('/c/0');
    await twinGates[1]!.held('/c/1');
    await gate.held('/t/0');
    expect(opened).toEqual([0, 1]);
    expect(gate.waiting.has('/t/1')).toBe(false);
    expect(gate.log).not.toContain('POST clock');
    // A lane runs its tests one after another: /c/2, dealt to the first lane, waits for /c/0.
    expect([...twinGates[0]!.waiting.keys(), ...twinGates[1]!.waiting.keys()]).toEqual(['/c/0', '/c/1']);
    twinGates[0]!.release('/c/0');
    await twinGates[0]!.held('/c/2');
    expect(twinGates[0]!.log.filter((e) => e === 'POST clock')).toEqual(['POST clock', 'POST clock']);
    expect(gate.waiting.has('/t/1')).toBe(false);
    // The lane done frees its slot for the test beside.
    twinGates[1]!.release('/c/1');
    await gate.held('/t/1');
    twinGates[0]!.release('/c/2');
    gate.release('/t/0');
    gate.release('/t/1');
    const { results } = await running;
    expect(results.map((r) => [r.id, r.status])).toEqual(['TOK-GET-900', 'TOK-GET-901', 'TOK-GET-950', 'TOK-GET-951', 'TOK-GET-952'].map((id) => [id, 'passed']));
    expect(seen).toEqual(results.map((r) => r.id));
  });

  it('runs the tests that move the clock alone on the target, before the others, when a twin does not open', async () => {
    const gate = gated();
    const withClock: ScenarioTarget = { ...target(gate.role), capabilities: () => new Set(['clock'] as const) };
    const plan = planOf([...scenarios(2), ...clockedScenarios(2)], []);
    const running = runPlan(plan, withClock, { ...options, concurrency: 4, twin: () => Promise.reject(new Error('no twin')) });
    await gate.held('/c/0');
    expect(gate.waiting.size).toBe(1);
    gate.release('/c/0');
    await gate.held('/c/1');
    expect(gate.waiting.size).toBe(1);
    gate.release('/c/1');
    await gate.held('/t/0');
    await gate.held('/t/1');
    gate.release('/t/0');
    gate.release('/t/1');
    const { results } = await running;
    expect(results.every((r) => r.status === 'passed')).toBe(true);
    expect(gate.log.filter((e) => e.startsWith('start '))).toEqual(['start /c/0', 'start /c/1', 'start /t/0', 'start /t/1']);
  });

  it('holds back the tests after one left running past its limit that moves the clock, until it ends', async () => {
    const gate = gated();
    const withClock: ScenarioTarget = { ...target(gate.role), capabilities: () => new Set(['clock'] as const) };
    const running = runPlan(planOf([...clockedScenarios(1), ...scenarios(1)], []), withClock, { ...options, concurrency: 2, limits: { testTimeLimitMs: 50, leftRunningGraceMs: 60_000 } });
    await gate.held('/c/0');
    // Well past its 50 ms: reported, and still sending; the next test waits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([...gate.waiting.keys()]).toEqual(['/c/0']);
    gate.release('/c/0');
    await gate.held('/t/0');
    gate.release('/t/0');
    const { results } = await running;
    expect(results.map((r) => [r.id, r.status, r.error_code])).toEqual([
      ['TOK-GET-950', 'error', 'HARNESS_DEADLINE_EXCEEDED'],
      ['TOK-GET-900', 'passed', undefined],
    ]);
    expect(gate.log.filter((e) => /^(start|end) /.test(e))).toEqual(['start /c/0', 'end /c/0', 'start /t/0', 'end /t/0']);
  });

  it('past the grace, reports the tests after it as not run, naming it; one that moves nothing shared holds none back', async () => {
    const gate = gated();
    const withClock: ScenarioTarget = { ...target(gate.role), capabilities: () => new Set(['clock'] as const) };
    const limits = { testTimeLimitMs: 50, leftRunningGraceMs: 100 };
    const { results } = await runPlan(planOf([...clockedScenarios(1), ...scenarios(2)], []), withClock, { ...options, limits });
    expect(results[0]).toMatchObject({ status: 'error', error_code: 'HARNESS_DEADLINE_EXCEEDED', reason: 'stopped: the scenario ran longer than 50 ms' });
    expect(results[0]!.not_run).toBeUndefined();
    for (const result of results.slice(1)) {
      expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_DEADLINE_EXCEEDED', not_run: true });
      expect(result.reason).toMatch(/^TOK-GET-950 outran its time limit and still ran 100 ms later; step .* \(clock\) moves the target's clock, so no test starts while it may still do so$/);
    }
    expect(gate.log.filter((e) => e.startsWith('start '))).toEqual(['start /c/0']);
    // Left running without moving anything shared: the next test starts at once.
    const other = gated();
    const next = runPlan(planOf(scenarios(2), []), target(other.role), { ...options, limits });
    await other.held('/t/1');
    other.release('/t/1');
    expect((await next).results.map((r) => r.status)).toEqual(['error', 'passed']);
  });

  it('opens no twin one test at a time: every test runs alone on the target, in plan order', async () => {
    const role = payee(async (request) => (request.path === '/_control/clock' ? { ...(await ok()), body: new TextEncoder().encode(JSON.stringify({ now: new Date().toISOString(), frozen: false })) } : ok()));
    const withClock: ScenarioTarget = { ...target(role), capabilities: () => new Set(['clock'] as const) };
    let twins = 0;
    const { results } = await runPlan(planOf([...clockedScenarios(2), ...scenarios(1)], []), withClock, { ...options, concurrency: 1, twin: async () => (twins++, withClock) });
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed', 'passed']);
    expect(twins).toBe(0);
  });

  it('starts the longest tests first by their measured time, and hands results on in plan order', async () => {
    const gate = gated();
    const seen: string[] = [];
    const timings = new Map([['TOK-GET-900', 5], ['TOK-GET-901', 5], ['TOK-GET-902', 90], ['TOK-GET-903', 40]]);
    const running = runPlan(planOf(scenarios(4), []), target(gate.role), { ...options, concurrency: 2, timings, onResult: (r) => seen.push(r.id) });
    await gate.held('/t/2');
    await gate.held('/t/3');
    expect(gate.log.filter((e) => e.startsWith('start '))).toEqual(['start /t/2', 'start /t/3']);
    gate.release('/t/2');
    gate.release('/t/3');
    await gate.held('/t/0');
    await gate.held('/t/1');
    expect(seen).toEqual([]);
    gate.release('/t/1');
    gate.release('/t/0');
    const { results } = await running;
    expect(results.map((r) => r.id)).toEqual(['TOK-GET-900', 'TOK-GET-901', 'TOK-GET-902', 'TOK-GET-903']);
    expect(seen).toEqual(results.map((r) => r.id));
  });

  it('stops a test that moves shared state without declaring it, unsent, as a harness error: never judged', async () => {
    let moves = 0;
    const undeclared: PropertyDefinition<number> = {
      id: 'PROP-TEST-902', title: 'moves the clock undeclared', requirements: ['TOK-GET-1'], level: 'MUST', role: 'payee', sections: ['§5.1'], needs: [], defaultRuns: 1,
      arbitrary: () => fc.constant(0),
      check: async (ctx) => {
        await ctx.http('payee').send({ method: 'POST', path: '/_control/clock', headers: { 'content-type': 'application/json' }, body: '{"advance_seconds":0}' });
        return undefined;
      },
    };
    const role = payee(async (request) => (request.path === '/_control/clock' && moves++, ok()));
    const plan = planOf(scenarios(1), [undeclared as PropertyDefinition]);
    const { results } = await runPlan(plan, target(role), { ...options, concurrency: 2 });
    expect(results[1]).toMatchObject({ status: 'error', error_code: 'HARNESS_UNDECLARED_SHARED_STATE' });
    expect(moves).toBe(0);
    // Declared, it runs alone and sends it.
    const declared = { ...undeclared, shares: 'clock' } as PropertyDefinition;
    const again = await runPlan(planOf(scenarios(1), [declared]), target(role), { ...options, concurrency: 2 });
    expect(again.results[1]).toMatchObject({ status: 'passed' });
    expect(moves).toBe(1);
  });

  it('starts no test after an interrupt; the tests in flight end as one would alone: kept when they pass within the grace, else left out', async () => {
    let fire!: () => void;
    const state = { fired: false, signalled: new Promise<void>((resolve) => (fire = resolve)) };
    const gate = gated();
    const seen: string[] = [];
    const running = runPlan(planOf(scenarios(6), []), target(gate.role), { ...options, concurrency: 3, interrupts: state, interruptGraceMs: 5_000, onResult: (r) => seen.push(r.id) });
    for (const i of [0, 1, 2]) await gate.held(`/t/${i}`);
    state.fired = true;
    fire();
    for (const i of [2, 0, 1]) gate.release(`/t/${i}`);
    const { results, interrupted } = await running;
    expect(interrupted).toBe(true);
    expect(results.map((r) => r.id)).toEqual(['TOK-GET-900', 'TOK-GET-901', 'TOK-GET-902']);
    expect(seen).toEqual(['TOK-GET-900', 'TOK-GET-901', 'TOK-GET-902']);
    expect(gate.log.some((e) => /\/t\/[345]/.test(e))).toBe(false);
  });

  it('leaves out a test in flight at an interrupt that then fails, and keeps the passing ones after it', async () => {
    let fire!: () => void;
    const state = { fired: false, signalled: new Promise<void>((resolve) => (fire = resolve)) };
    const role = payee(async (request) => {
      if (request.path === '/t/0') {
        await new Promise((resolve) => setTimeout(resolve, 30));
        state.fired = true;
        fire();
        return { ...(await ok()), status: 500 };
      }
      await new Promise((resolve) => setTimeout(resolve, 60));
      return ok();
    });
    const { results } = await runPlan(planOf(scenarios(4), []), target(role), { ...options, concurrency: 2, interrupts: state, interruptGraceMs: 5_000 });
    expect(results.map((r) => [r.id, r.status])).toEqual([['TOK-GET-901', 'passed']]);
  });

  it('stops every test in flight when the run\'s time is up, and starts no other', async () => {
    const { results } = await runPlan(planOf(scenarios(5), []), target(payee(never)), { ...options, concurrency: 3, limits: { deadlineAt: Date.now() + 50 } });
    expect(results.slice(0, 3).map((r) => [r.error_code, r.reason?.startsWith('stopped: ')])).toEqual(Array(3).fill(['HARNESS_DEADLINE_EXCEEDED', true]));
    expect(results.slice(0, 3).map((r) => r.not_run)).toEqual(Array(3).fill(undefined));
    expect(results.slice(3).map((r) => [r.error_code, r.not_run])).toEqual(Array(2).fill(['HARNESS_DEADLINE_EXCEEDED', true]));
  });

  it('refuses a concurrency that is not an integer from 1 to 64', async () => {
    for (const concurrency of [0, 65, 1.5]) await expect(runPlan([], target(payee(ok)), { ...options, concurrency })).rejects.toThrow(/concurrency is an integer from 1 to 64/);
  });
});

describe('runPlan --repeat', () => {
  /** A payee that answers each request with the next status of the list, round and round. */
  function turns(statuses: readonly (number | 'refused')[]) {
    let n = 0;
    return payee(async () => {
      const status = statuses[n++ % statuses.length]!;
      if (status === 'refused') throw new TransportError('REFUSED', 'connect ECONNREFUSED');
      return { ...(await ok()), status };
    });
  }

  it('labels a test that passes every run stable-pass, keeping the first run as its result', async () => {
    const { results } = await runPlan(planOf(scenarios(1), []), target(turns([200])), { ...options, repeat: 3 });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'passed', repeat: { runs: 3, passed: 3, failed: 0, errors: 0, stability: 'stable-pass' } });
    expect(results[0]!.reason).toBeUndefined();
  });

  it('labels a test that passes some runs flaky: failed, never a pass, with the first failing run as evidence', async () => {
    const { results } = await runPlan(planOf(scenarios(1), []), target(turns([200, 503])), { ...options, repeat: 4 });
    const [test] = results;
    expect(test).toMatchObject({ status: 'failed', repeat: { runs: 4, passed: 2, failed: 2, errors: 0, stability: 'flaky' } });
    expect(test!.reason).toMatch(/^flaky: passed 2 of 4; run 2 failed: /);
    expect(test!.checks.find((c) => !c.passed)).toMatchObject({ check: 'status', expected: 200, actual: 503 });
    expect(test!.transcript.map((e) => e.response?.status)).toEqual([503]);
    expect(test!.rerun).toBe('run --only TOK-GET-900 --repeat 4');
  });

  it('counts only the runs that ran: a repetition that turns out not applicable ends the repeats, uncounted', async () => {
    // The step's precondition holds on the first run (200) and not on the second (503).
    const [scenario] = parseSuite(
      'suite: probe\ntitle: probe\nsections: ["§5.1"]\nrole: payee\nscenarios:\n  - id: TOK-GET-950\n    title: t\n    requirements: [TOK-GET-1]\n    level: MUST\n    steps:\n      - do: http\n        method: GET\n        path: /t\n        expect:\n          - assume: { value: "${res.status}", to: 200, basis: spec, reason: "the probe answers" }\n          - status: 200\n',
      'suites/cpr/probe.yaml',
    ).scenarios;
    const { results } = await runPlan(planOf([scenario!], []), target(turns([200, 503])), { ...options, repeat: 4 });
    expect(results[0]).toMatchObject({ status: 'passed', repeat: { runs: 1, requested: 4, passed: 1, failed: 0, errors: 0, stability: 'stable-pass' } });
  });

  it('makes a flaky test an error when its other runs were errors, and stable-fail when no run passed', async () => {
    const flaky = await runPlan(planOf(scenarios(1), []), target(turns([200, 'refused'])), { ...options, repeat: 2, limits: { unreachableAfter: 0 } });
    expect(flaky.results[0]).toMatchObject({ status: 'error', error_code: 'HARNESS_TARGET_UNREACHABLE', repeat: { passed: 1, errors: 1, stability: 'flaky' }, reason: expect.stringMatching(/^flaky: passed 1 of 2; run 2 ended in error: /) });
    const failing = await runPlan(planOf(scenarios(1), []), target(turns([503, 'refused'])), { ...options, repeat: 2, limits: { unreachableAfter: 0 } });
    expect(failing.results[0]).toMatchObject({ status: 'failed', repeat: { passed: 0, failed: 1, errors: 1, stability: 'stable-fail' } });
    expect(failing.results[0]!.reason).not.toMatch(/flaky/);
  });

  it('runs a property with seed + k in its k-th run, so each run explores other cases', async () => {
    const firsts: number[] = [];
    let cases = 0;
    const property: PropertyDefinition<number> = {
      id: 'PROP-TEST-901', title: 'seeds', requirements: ['TOK-GET-1'], level: 'MUST', role: 'payee', sections: ['§5.1'], needs: [], defaultRuns: 2,
      arbitrary: () => fc.integer(),
      check: async (_ctx, value) => {
        if (cases++ % 2 === 0) firsts.push(value);
        return undefined;
      },
    };
    const { results } = await runPlan(planOf([], [property as PropertyDefinition]), target(turns([200])), { ...options, seed: 40, repeat: 3 });
    expect(results[0]).toMatchObject({ status: 'passed', seed: 40, repeat: { runs: 3, stability: 'stable-pass' } });
    expect(new Set(firsts).size).toBe(3);
    // The same seeds one run at a time explore the same cases: a failing run's --seed reproduces it.
    const again: number[] = [];
    for (const seed of [40, 41, 42]) await fc.check(fc.property(fc.integer(), (v) => (again.push(v), true)), { seed, numRuns: 1 });
    expect(firsts).toEqual(again);
  });

  it('runs a skipped test once, unlabelled', async () => {
    const [skipped] = parseSuite('suite: probe\ntitle: probe\nsections: ["§5.1"]\nrole: payee\nscenarios:\n  - id: TOK-GET-950\n    title: t\n    requirements: [TOK-GET-1]\n    level: MUST\n    needs: [provision]\n    steps:\n      - do: http\n        method: GET\n        path: /\n        expect: [{ status: 200 }]\n', 'suites/cpr/probe.yaml').scenarios;
    let sent = 0;
    const { results } = await runPlan(planOf([skipped!], []), target(payee(async () => (sent++, ok()))), { ...options, repeat: 5 });
    expect(results[0]).toMatchObject({ status: 'skipped' });
    expect(results[0]!.repeat).toBeUndefined();
    expect(sent).toBe(0);
  });
});

describe('lanesOf', () => {
  it('deals the tests into at most n lanes, longest first, each to the lane that ends first', () => {
    const estimate = [50, 10, 40, 30, 20, 5];
    expect(lanesOf([0, 1, 2, 3, 4, 5], estimate, 2)).toEqual([[0, 4, 1], [2, 3, 5]]);
    expect(lanesOf([1, 5], estimate, 3)).toEqual([[1], [5]]);
    expect(lanesOf([], estimate, 2)).toEqual([]);
  });

  it('puts every test in exactly one lane, and no lane ends later than the shortest one plus the longest test', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), (ms, n) => {
        const indices = ms.map((_, i) => i);
        const lanes = lanesOf(indices, ms, n);
        expect(lanes.flat().sort((a, b) => a - b)).toEqual(indices);
        expect(lanes.length).toBe(Math.min(n, ms.length));
        const loads = lanes.map((lane) => lane.reduce((sum, i) => sum + ms[i]!, 0));
        if (loads.length > 0) expect(Math.max(...loads)).toBeLessThanOrEqual(Math.min(...loads) + Math.max(...ms));
      }),
      { numRuns: 200 },
    );
  });
});

describe('shardOf', () => {
  const plan = planOf(scenarios(7), []);

  it('splits a plan into n disjoint shards that cover it, with counts at most one apart when nothing is timed', () => {
    const shards = [1, 2, 3].map((i) => shardOf(plan, `${i}/3`));
    expect(shards.flat().map(testId).sort()).toEqual(plan.map(testId).sort());
    expect(shards.map((s) => s.length)).toEqual([3, 2, 2]);
  });

  it('is the whole plan without --shard', () => {
    expect(shardOf(plan, undefined)).toHaveLength(7);
  });

  it('balances by time, longest first, and keeps plan order within a shard', () => {
    // 900 goes alone; 500 and 400 open the others, 300 joins 400, 200 joins 500, the two 100s one each (ties to the lower shard).
    const ms = new Map([900, 500, 400, 300, 200, 100, 100].map((t, i) => [`TOK-GET-90${i}`, t]));
    const { shards, estimatedMs } = partitionPlan(plan, 3, ms);
    expect(shards.map((s) => s.map(testId))).toEqual([['TOK-GET-900'], ['TOK-GET-901', 'TOK-GET-904', 'TOK-GET-905'], ['TOK-GET-902', 'TOK-GET-903', 'TOK-GET-906']]);
    expect(estimatedMs).toEqual([900, 800, 800]);
  });

  it('spreads tests that take no measurable time by count', () => {
    const ms = new Map(plan.map((t) => [testId(t), 0]));
    expect(partitionPlan(plan, 3, ms).shards.map((s) => s.length)).toEqual([3, 2, 2]);
  });

  it('counts a test the timings do not know as their median', () => {
    const ms = new Map([['TOK-GET-900', 10], ['TOK-GET-901', 30], ['TOK-GET-902', 1000]]);
    const partition = partitionPlan(plan, 2, ms);
    expect(partition).toMatchObject({ unknown: 4, unknownMs: 30 });
    expect(partition.estimatedMs.reduce((a, b) => a + b)).toBe(10 + 30 + 1000 + 4 * 30);
  });

  it('gives the same partition whatever the order of the plan (ties broken by ID)', () => {
    const ms = new Map(plan.map((t, i) => [testId(t), i % 2 === 0 ? 5 : 7]));
    const sets = (p: readonly PlanTest[]) => partitionPlan(p, 3, ms).shards.map((s) => s.map(testId).sort());
    expect(sets([...plan].reverse())).toEqual(sets(plan));
  });
});

describe('shards of the whole suite by the committed timings (suites/timings.json)', () => {
  const whole = planOf(loadSuites().flatMap((s) => s.scenarios), PROPERTIES);
  const timings = loadTimings();

  it('comes from the committed table, which knows nearly every test of the suite (the rest count as the median)', () => {
    expect(timings.source).toBe('suites/timings.json');
    expect(TIMINGS_FILE.endsWith('suites/timings.json')).toBe(true);
    const unknown = whole.filter((t) => !timings.ms.has(testId(t))).map(testId);
    if (unknown.length > 0) console.log(`not in suites/timings.json (regenerate it with: cpr-conformance run --repeat 5 --write-timings suites/timings.json): ${unknown.join(', ')}`);
    expect(unknown.length).toBeLessThan(whole.length / 10);
  });

  it.each([2, 3, 4, 6])('puts every test in exactly one of %i shards, the same way every time, none longer than 5 percent over the mean or its one longest test', (n) => {
    const partition = partitionPlan(whole, n, timings.ms);
    const ids = partition.shards.flat().map(testId);
    expect(ids).toHaveLength(whole.length);
    expect(new Set(ids)).toEqual(new Set(whole.map(testId)));
    expect(partitionPlan(whole, n, timings.ms).shards.map((s) => s.map(testId))).toEqual(partition.shards.map((s) => s.map(testId)));
    for (let i = 1; i <= n; i++) expect(shardOf(whole, `${i}/${n}`, timings.ms).map(testId)).toEqual(partition.shards[i - 1]!.map(testId));
    // Every n-th test (the split before timings) for comparison: equal counts, unequal time.
    const every = Array.from({ length: n }, (_, k) => whole.filter((_, i) => i % n === k).reduce((sum, t) => sum + (timings.ms.get(testId(t)) ?? 0), 0));
    const ratio = (ms: readonly number[]) => Math.max(...ms) / Math.min(...ms);
    console.log(`${n} shards: balanced ${partition.estimatedMs.join('/')} ms (max/min ${ratio(partition.estimatedMs).toFixed(3)}); every n-th ${every.join('/')} ms (max/min ${ratio(every).toFixed(3)})`);
    // No partition can do better than the mean, nor than the one test that takes longest.
    const mean = partition.estimatedMs.reduce((a, b) => a + b) / n;
    const longest = Math.max(...whole.map((t) => timings.ms.get(testId(t)) ?? partition.unknownMs));
    expect(Math.max(...partition.estimatedMs)).toBeLessThanOrEqual(Math.max(longest, 1.05 * mean));
  });
});
