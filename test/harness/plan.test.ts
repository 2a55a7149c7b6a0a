// The one engine (harness/runner/plan.ts): its rules, whoever calls it.
import { describe, expect, it } from 'vitest';
import { TransportError, type HttpRole, type WireRequest, type WireResponse } from '../../harness/adapters/types.ts';
import type { TestResult } from '../../harness/report/model.ts';
import { planOf, runPlan, shardOf } from '../../harness/runner/plan.ts';
import type { ScenarioTarget } from '../../harness/scenarios/context.ts';
import { parseSuite } from '../../harness/scenarios/load.ts';

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

  it('cuts off a role after N consecutive transport failures: its later tests are reported, not run', async () => {
    let sent = 0;
    const role = payee(async () => {
      sent++;
      throw new TransportError('REFUSED', 'connect ECONNREFUSED');
    });
    const { results } = await runPlan(planOf(scenarios(6), []), target(role), { ...options, limits: { unreachableAfter: 2 } });
    expect(sent).toBe(2);
    expect(results.map((r) => r.error_code)).toEqual(Array(6).fill('HARNESS_TARGET_UNREACHABLE'));
    expect(results.slice(2).every((r) => /^not run: the payee at http:\/\/payee\.test stopped answering/.test(r.reason ?? ''))).toBe(true);
  });

  it('stops a test still running when the run\'s time is up, and starts no other', async () => {
    const { results } = await runPlan(planOf(scenarios(2), []), target(payee(never)), { ...options, limits: { deadlineAt: Date.now() + 50 } });
    expect(results[0]).toMatchObject({ status: 'error', error_code: 'HARNESS_DEADLINE_EXCEEDED', reason: expect.stringMatching(/^stopped: the run's time limit passed at .* while the scenario ran$/) });
    expect(results[1]).toMatchObject({ error_code: 'HARNESS_DEADLINE_EXCEEDED', reason: expect.stringMatching(/^not run: /) });
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

describe('shardOf', () => {
  const plan = planOf(scenarios(7), []);

  it('splits a plan into n disjoint shards that cover it, with counts at most one apart', () => {
    const shards = [1, 2, 3].map((i) => shardOf(plan, `${i}/3`));
    const id = (t: (typeof plan)[number]) => (t.kind === 'scenario' ? t.scenario.id : t.property.id);
    expect(shards.flat().map(id).sort()).toEqual(plan.map(id).sort());
    expect(shards.map((s) => s.length)).toEqual([3, 2, 2]);
  });

  it('is the whole plan without --shard', () => {
    expect(shardOf(plan, undefined)).toHaveLength(7);
  });
});
