// Clock moves the harness did not make (harness/scenarios/clock-watch.ts): a
// scenario whose clock another client moved is a harness error whatever its
// checks said, and a scenario left alone is judged as ever. The target is the
// reference in-process, without its lease; "another client" is a request
// slipped in before one of the scenario's own.
import { describe, expect, it } from 'vitest';
import { interceptSend } from '../../../harness/adapters/intercept.ts';
import { moduleRole, type CreateRole } from '../../../harness/adapters/module.ts';
import type { HttpRole, WireRequest } from '../../../harness/adapters/types.ts';
import { readBeforeClockMoves } from '../../../harness/scenarios/clock-watch.ts';
import type { ScenarioTarget } from '../../../harness/scenarios/context.ts';
import { executeScenario } from '../../../harness/scenarios/execute.ts';
import { parseSuite } from '../../../harness/scenarios/load.ts';
import type { Capability } from '../../../profile/control.ts';
import { findRequirement } from '../../../profile/registry.ts';
import { createRole } from '../../../reference/adapter.ts';

let instances = 0;

/** The reference's operator, in a world of its own, with another client that moves its clock before the request `before` picks. */
async function operator(before: (request: WireRequest) => boolean, move: Record<string, unknown> = { advance_seconds: 3600 }): Promise<HttpRole> {
  const role = (await moduleRole(createRole as CreateRole, { role: 'operator', description: 'reference/adapter.ts', settings: { lease: false, instance: `clock-watch-${instances++}` } })) as HttpRole;
  let moved = false;
  return interceptSend(role, async (request) => {
    if (!moved && before(request)) {
      moved = true;
      await role.send({ method: 'POST', path: '/_control/clock', headers: { 'content-type': 'application/json' }, body: JSON.stringify(move) });
    }
    return role.send(request);
  });
}

const CAPABILITIES: Capability[] = ['provision', 'clock', 'cancel', 'balance'];

/** As runner/scenario-target.ts presents a target without a lease: the clock read before each of the harness's own moves. */
function target(role: HttpRole, capabilities: Capability[] = CAPABILITIES): ScenarioTarget {
  const watched = capabilities.includes('lease') ? role : readBeforeClockMoves(role);
  return {
    httpRole: (r) => (r === 'operator' ? watched : undefined),
    payingApp: undefined,
    capabilities: (r) => (r === 'operator' ? new Set(capabilities) : new Set()),
    adapterKind: (r) => (r === 'operator' ? role.kind : undefined),
    credential: () => undefined,
  };
}

function scenario(steps: string) {
  const suite = parseSuite(`suite: probe\ntitle: probe\nsections: ["PROFILE §12"]\nrole: operator\nscenarios:\n  - id: PRF-CTL-901\n    title: probe\n    requirements: [PRF-CTL-1]\n    level: PROFILE\n    needs: [clock]\n    steps:\n${steps}`, 'suites/cashpack/probe.yaml');
  return suite.scenarios[0]!;
}

const options = { levelOf: (id: string) => findRequirement(id)?.level ?? 'MUST', rerun: (id: string) => `npx cpr-conformance run --only ${id}` } as const;

/** Freeze, then a read of the scenario's own: where another client's move slips in. */
const FREEZE_AND_READ = `      - do: clock
        freeze: true
        as: t0
      - do: http
        method: GET
        path: /.well-known/cashpack-pubkey.json
        expect: [{ status: 200 }]
`;

/** ... then advance by 7 and check it: checks that depend on the clock alone. */
const FROZEN_ADVANCE = `${FREEZE_AND_READ}      - do: clock
        advance: 7
        expect:
          - equals: { value: "\${res.now}", to: "\${t0.now + 7}" }
`;

/** ... then set the clock: the set would hide a move made before it. */
const FROZEN_SET = `${FREEZE_AND_READ}      - do: clock
        set: "2031-01-01T00:00:00Z"
        expect:
          - equals: { value: "\${res.text}", to: "2031-01-01T00:00:00Z" }
`;

/** No move of its own: the clock runs as it was found. */
const RUNNING = `      - do: http
        method: GET
        path: /.well-known/cashpack-pubkey.json
        expect: [{ status: 200 }]
`;

/** The scenario's own read (the harness reads the policy before the first step). */
const keyRead = (r: WireRequest) => r.path === '/.well-known/cashpack-pubkey.json';
const isClockMove = (r: WireRequest) => r.method === 'POST' && r.path === '/_control/clock';

describe('a scenario whose clock another client moved', () => {
  it('is judged as ever when nobody did', async () => {
    for (const steps of [FROZEN_ADVANCE, FROZEN_SET, RUNNING]) {
      const result = await executeScenario(scenario(steps), target(await operator(() => false)), options);
      expect(result.status, result.reason).toBe('passed');
    }
  });

  it('is a harness error, not the failure its check saw, when a frozen clock was advanced under it', async () => {
    const result = await executeScenario(scenario(FROZEN_ADVANCE), target(await operator(keyRead)), options);
    expect(result.status).toBe('error');
    expect(result.error_code).toBe('HARNESS_CLOCK_MOVED');
    expect(result.reason).toMatch(/^the operator's clock moved under the scenario without the harness moving it \(before step 3 \(POST \/_control\/clock \{"advance_seconds":7\}\) it read .*, where the harness had it frozen at .*\): another client of its test control\? Its checks charge nothing; what the scenario saw: failed: step 3/);
    // What it saw stays in the report.
    expect(result.checks.filter((c) => !c.passed).map((c) => c.check)).toEqual(['equals']);
  });

  it('is seen before a set that would hide the move', async () => {
    const result = await executeScenario(scenario(FROZEN_SET), target(await operator(keyRead)), options);
    expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_CLOCK_MOVED' });
    expect(result.reason).toMatch(/before step 3 \(POST \/_control\/clock \{"set":"2031-01-01T00:00:00Z"\}\)/);
  });

  it('is seen in the answer to the scenario\'s own move when it came just before it', async () => {
    // The move slips in between the reading before step 3 and step 3 itself.
    let moves = 0;
    const result = await executeScenario(scenario(FROZEN_ADVANCE), target(await operator((r) => isClockMove(r) && ++moves === 2)), options);
    expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_CLOCK_MOVED' });
    expect(result.reason).toMatch(/at step 3 \(POST \/_control\/clock \{"advance_seconds":7\}\) it read/);
  });

  it('is seen at the end when a running clock jumped, or was frozen, under it', async () => {
    for (const move of [{ advance_seconds: 3600 }, { freeze: true, set: '2020-01-01T00:00:00Z' }]) {
      const result = await executeScenario(scenario(RUNNING), target(await operator(keyRead, move)), options);
      expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_CLOCK_MOVED' });
      expect(result.reason).toMatch(/\(at the end of the scenario it (read|was frozen at)/);
    }
  });

  it('takes the answers to its own moves as they come from a target with a lease, which keeps others out', async () => {
    // Trusted: a wrong answer to its own move is the target's failure (PRF-CTL-1), not a move by someone else.
    let moves = 0;
    const result = await executeScenario(scenario(FROZEN_ADVANCE), target(await operator((r) => isClockMove(r) && ++moves === 2), [...CAPABILITIES, 'lease']), options);
    expect(result.status).toBe('failed');
    expect(result.error_code).toBeUndefined();
  });
});
