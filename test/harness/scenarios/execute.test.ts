import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import type { HttpRole } from '../../../harness/adapters/types.ts';
import type { NamedKey, ScenarioTarget } from '../../../harness/scenarios/context.ts';
import { createSigningKey } from '../../../profile/cashpack/index.ts';
import { executeScenario, scenarioRequirements } from '../../../harness/scenarios/execute.ts';
import { cprRulesOf } from '../../../harness/cpr-charges.ts';
import type { CheckResult } from '../../../harness/report/model.ts';
import { FUNCTIONS } from '../../../harness/scenarios/template.ts';
import { CHECK_IMPLEMENTATIONS } from '../../../harness/scenarios/checks.ts';
import { ACTION_IMPLEMENTATIONS } from '../../../harness/scenarios/actions/index.ts';
import { assess } from '../../../harness/report/aggregate.ts';
import { loadRegistry } from '../../../profile/registry.ts';
import { parseSuite } from '../../../harness/scenarios/load.ts';
import { findRequirement } from '../../../profile/registry.ts';
import type { Capability } from '../../../profile/control.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';

const ALL: Capability[] = ['provision', 'clock', 'cancel', 'balance', 'fulfil'];

function target(role: HttpRole | undefined, capabilities: Capability[] = ALL, principal?: NamedKey): ScenarioTarget {
  return {
    credential: (of) => (of === 'principal' ? principal : undefined),
    httpRole: () => role,
    payingApp: undefined,
    capabilities: (r) => (r === 'paying-app' ? new Set() : new Set(capabilities)),
    adapterKind: (r) => (r === 'paying-app' ? undefined : role?.kind),
  };
}

function scenario(body: string, role = 'payee') {
  const suite = parseSuite(`suite: probe\ntitle: probe\nsections: ["§5.1"]\nrole: ${role}\nscenarios:\n${body}`, 'suites/cpr/probe.yaml');
  return suite.scenarios[0]!;
}

const options = { levelOf: (id: string) => findRequirement(id)?.level ?? 'MUST', rerun: (id: string) => `npx cpr-conformance run --only ${id}` } as const;

/** A scenario that creates an IBAN request and retrieves it, once with `first` as its checks when given, then with `expectation`. */
const RETRIEVAL = (head: { readonly id: string; readonly title: string; readonly requirement: string; readonly first?: string }, expectation: string) => {
  const get = (expect: string) => `      - do: http
        method: GET
        path: /cpr/\${req.token}
        expect:${expect}
`;
  return `  - id: ${head.id}
    title: ${head.title}
    requirements: [${head.requirement}]
    level: MUST
    needs: [provision]
    steps:
      - do: create-request
        with: { sub_interface: IBAN }
        as: req
${head.first !== undefined ? get(` ${head.first}`) : ''}${get(`\n${expectation}`)}`;
};

const SECOND_GET = (expectation: string) => RETRIEVAL({ id: 'TOK-ONCE-901', title: 'a second retrieval is refused', requirement: 'TOK-ONCE-1', first: '[{ status: 200 }]' }, expectation);

/** An Operator scenario: alice (1 000 units) issues bob a pack of 10 (`issued`, a setup step), with rita a redeemer at level 3 and carol a key; then `steps`. */
const BOBS_PACK = (head: { readonly id: string; readonly title: string; readonly requirements: string }, steps: string) => `  - id: ${head.id}
    title: ${head.title}
    requirements: ${head.requirements}
    level: MUST
    needs: [provision]
    steps:
      - do: provision-principal
        key: alice
        balance: "1000"
      - do: provision-redeemer
        key: rita
        identity_level: 3
      - do: keygen
        names: [bob, carol]
      - do: issue
        setup: true
        principal: alice
        bearer: bob
        amount: "10"
        as: issued
        expect: [{ status: 200 }]
${steps}`;

describe('executing a scenario', () => {
  let ref: RunningReference;
  let http: HttpRole;
  beforeAll(async () => {
    ref = await startReference({ port: 0, plaintextPort: 0 });
    http = createHttpRole({ baseUrl: ref.url, ca: ref.tls.ca });
  });
  afterAll(async () => {
    await http.close();
    await ref.close();
  });

  it('passes when every check passes, with the spec code and the profile status checked apart', async () => {
    const result = await executeScenario(scenario(SECOND_GET('          - status: 4xx\n          - problem: TOKEN_CONSUMED\n            requirement: PRF-TOK-1')), target(http), options);
    expect(result.status).toBe('passed');
    expect(result.checks.map((c) => [c.check, c.requirement, c.passed])).toEqual([
      ['status', 'TOK-ONCE-1', true],
      ['status', 'TOK-ONCE-1', true],
      ['problem', 'PRF-TOK-1', true],
      ['problem_form', 'PRF-ERR-1', true],
    ]);
    expect(result.transcript.map((e) => e.response?.status)).toEqual([201, 200, 410]);
    expect(result.rerun).toBe('npx cpr-conformance run --only TOK-ONCE-901');
  });

  it('fails a wrong expectation with expected vs. actual, the step and its line', async () => {
    const result = await executeScenario(scenario(SECOND_GET('          - status: 200')), target(http), options);
    expect(result.status).toBe('failed');
    const failed = result.checks.find((c) => !c.passed)!;
    expect(failed).toMatchObject({ check: 'status', requirement: 'TOK-ONCE-1', level: 'MUST', expected: 200, actual: 410, step: '3' });
    // The check, the reason and the transcript name the step alike (1-based).
    expect(result.transcript.at(-1)?.step).toBe('3');
    expect(result.reason).toMatch(/^step 3 \(http, line 19\): status \(TOK-ONCE-1\): expected 200, got 410/);
  });

  it('skips, naming the capability, when the target lacks test control', async () => {
    const result = await executeScenario(scenario(SECOND_GET('          - status: 4xx')), target(http, []), options);
    expect(result).toMatchObject({ status: 'skipped', missing_capabilities: ['provision'] });
    expect(result.reason).toMatch(/missing test-control capability: provision/);
    expect(result.transcript).toHaveLength(0);
  });

  it('is not applicable when the target has no such role', async () => {
    const result = await executeScenario(scenario(SECOND_GET('          - status: 4xx')), target(undefined), options);
    expect(result).toMatchObject({ status: 'not-applicable', reason: 'the target has no payee role' });
  });

  it('is not applicable, for the spec\'s reason, when the target has no such role; skipped when its adapter cannot carry the test', async () => {
    expect(await executeScenario(scenario(SECOND_GET('          - status: 4xx')), target(undefined), options)).toMatchObject({ status: 'not-applicable', basis: 'spec' });
    const s = scenario(SECOND_GET('          - status: 4xx').replace('    needs: [provision]\n', '    needs: [provision]\n    adapters: [module]\n'));
    // The rule applies to the target; only this adapter cannot exercise it: not exercised, never "not applicable".
    expect(await executeScenario(s, target(http), options)).toMatchObject({ status: 'skipped', reason: 'needs a module adapter for the payee; the target uses http' });
  });

  it('reports a pattern made from a template that does not compile as the scenario\'s defect, not the target\'s', async () => {
    const s = scenario(`  - id: TOK-GET-901\n    title: t\n    requirements: [TOK-GET-1]\n    level: MUST\n    steps:\n      - do: let\n        values: { p: "(" }\n      - do: http\n        method: GET\n        path: /.well-known/cashpack-policy.json\n        expect:\n          - status: 200\n          - matches: { value: "\${res.body.profile}", pattern: "\${p}" }\n`);
    const result = await executeScenario(s, target(http), options);
    expect(result).toMatchObject({ status: 'error', error_code: 'SCENARIO_INVALID' });
    expect(result.reason).toMatch(/matches: the pattern \/\(\/ does not compile/);
    expect(result.checks.filter((c) => !c.passed)).toEqual([]);
  });

  it('reports a parameter whose template renders to the wrong type as the scenario\'s defect, naming it, before anything is sent', async () => {
    const s = scenario(`  - id: TOK-GET-902\n    title: t\n    requirements: [TOK-GET-1]\n    level: MUST\n    steps:\n      - do: let\n        values: { where: { not: a path } }\n      - do: http\n        method: GET\n        path: "\${where}"\n        expect:\n          - status: 200\n`);
    const result = await executeScenario(s, target(http), options);
    expect(result).toMatchObject({ status: 'error', error_code: 'SCENARIO_INVALID' });
    expect(result.reason).toMatch(/http: path rendered to \{"not":"a path"\}, not a string/);
    expect(result.transcript).toHaveLength(0);
  });

  it('reports a failing test-control call as a harness error, not a conformance failure', async () => {
    const s = scenario(SECOND_GET('          - status: 4xx').replace('{ sub_interface: IBAN }', '{ sub_interface: TELEGRAPH }'));
    const result = await executeScenario(s, target(http), options);
    expect(result.status).toBe('error');
    expect(result.reason).toMatch(/test control POST \/_control\/payee\/requests answered 400/);
  });

  it("charges PRF-CTL-1 for a request the profile lets a payee serve that its test control refuses: a setup failure, the scenario's rule not exercised", async () => {
    // A payee whose test control refuses every request it is asked to create.
    const server = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: 'malformed', status: 400, code: 'MALFORMED_REQUEST' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const refusing = createHttpRole({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      const result = await executeScenario(scenario(SECOND_GET('          - status: 4xx')), target(refusing), options);
      expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_SETUP_FAILED' });
      expect(result.reason).toMatch(/^step 1 failed PRF-CTL-1: test control POST \/_control\/payee\/requests answered 400: .* \(a request the profile lets a payee serve\); TOK-ONCE-1 not exercised$/);
      expect(result.checks.map((c) => [c.check, c.requirement, c.passed, c.setup])).toEqual([['setup', 'PRF-CTL-1', false, true]]);
    } finally {
      await refusing.close();
      server.close();
    }
  });

  it('reports a target that does not answer as a harness error', async () => {
    const dead = createHttpRole({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
    try {
      const result = await executeScenario(scenario(SECOND_GET('          - status: 4xx')), target(dead), options);
      expect(result.status).toBe('error');
      expect(result.reason).toMatch(/the payee did not answer (GET \/_control\/clock|POST \/_control\/payee\/requests): REFUSED/);
    } finally {
      await dead.close();
    }
  });

  it('never passes a scenario that checked nothing', async () => {
    // The loader refuses a scenario without any expect; one whose checks never ran is caught at run time.
    expect(() => scenario(`  - id: TOK-ONCE-902\n    title: t\n    requirements: [TOK-ONCE-1]\n    level: MUST\n    steps:\n      - do: keygen\n        names: [a]\n`)).toThrow(/TOK-ONCE-902 checks nothing/);
  });

  it('attributes an unnamed check to every requirement no check names', async () => {
    const body = SECOND_GET('          - status: 4xx\n          - problem: TOKEN_CONSUMED\n            requirement: PRF-TOK-1').replace('[TOK-ONCE-1]', '[TOK-ONCE-1, TOK-GET-1, PRF-TOK-1]');
    const result = await executeScenario(scenario(body), target(http), options);
    expect(result.status).toBe('passed');
    const byRequirement = (id: string) => result.checks.filter((c) => c.requirement === id).map((c) => c.check);
    expect(byRequirement('TOK-ONCE-1')).toEqual(['status', 'status']);
    expect(byRequirement('TOK-GET-1')).toEqual(['status', 'status']);
    expect(byRequirement('PRF-TOK-1')).toEqual(['problem']);
  });

  it('releases a clock the scenario froze', async () => {
    const s = scenario(`  - id: TOK-EXP-901\n    title: t\n    requirements: [TOK-EXP-1]\n    level: MUST\n    needs: [clock]\n    steps:\n      - do: clock\n        freeze: true\n        expect: [{ equals: { value: "\${res.frozen}", to: true } }]\n`);
    expect((await executeScenario(s, target(http), options)).status).toBe('passed');
    expect(ref.clock.state().frozen).toBe(false);
  });

  it('uses a credential from the target file, and skips naming it when the file has none', async () => {
    const s = scenario(
      `  - id: CPP-STS-901\n    title: t\n    requirements: [CPP-STS-1]\n    level: MUST\n    steps:\n      - do: credential\n        key: alice\n        of: principal\n      - do: status\n        pack_id: 00000000-0000-4000-8000-000000000000\n        sign_as: alice\n        expect: [{ status: 401 }]\n`,
      'operator',
    );
    const principal = createSigningKey();
    const used = await executeScenario(s, target(http, [], principal), options);
    expect(used.status).toBe('passed');
    // The harness's own policy read comes first, tied to no step; step 2 is the signed status request.
    expect(used.transcript[0]!.step).toBeUndefined();
    expect(used.transcript.find((e) => e.step === '2')!.request.headers['signature-input']).toContain(principal.jwk.kid);
    const skipped = await executeScenario(s, target(http, []), options);
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'step 1: the target file gives no principal credential' });
  });

  it('binds let values as names, and makes a scenario whose precondition fails not applicable', async () => {
    const body = (to: string, basis = 'policy') =>
      `  - id: CPP-DEPTH-901\n    title: t\n    requirements: [CPP-DEPTH-1]\n    level: MUST\n    steps:\n      - do: policy\n        as: p\n        expect:\n          - assume: { value: "\${p.policy.max_chain_depth}", to: ${to}, basis: ${basis}, reason: the depth this test walks }\n      - do: let\n        values: { depth: "\${p.policy.max_chain_depth}" }\n        expect: [{ equals: { value: "\${depth}", to: 8 } }]\n`;
    const holds = await executeScenario(scenario(body('8'), 'operator'), target(http), options);
    expect(holds.status).toBe('passed');
    expect(holds.checks.map((c) => c.check)).toEqual(['equals']); // the precondition is not an observation
    const differs = await executeScenario(scenario(body('5'), 'operator'), target(http), options);
    expect(differs).toMatchObject({ status: 'not-applicable', basis: 'policy', checks: [] });
    expect(differs.reason).toMatch(/the depth this test walks \(expected 5, found 8\)/);
    // An input the harness could not build is no reason of the target's: not exercised.
    expect(await executeScenario(scenario(body('5', 'harness'), 'operator'), target(http), options)).toMatchObject({ status: 'skipped' });
  });

  it('fails, rather than errs, when a check reads a value the target did not give', async () => {
    // The reused token is refused, so there is no payee in the answer to read a member of.
    const body = SECOND_GET('          - equals: { value: "${res.body.payee.rail_address}", to: {} }');
    const result = await executeScenario(scenario(body), target(http), options);
    expect(result.status).toBe('failed');
    expect(result.checks.at(-1)).toMatchObject({ check: 'equals', passed: false, expected: 'an answer holding the values this step reads' });
    expect(result.checks.at(-1)!.actual).toMatch(/cannot read "rail_address" of undefined/);
  });

  describe('setup steps, outcome checks and what follows a failure', () => {
    const ISSUE = (setup: string, amount: string) => `  - id: CPP-RNW-901
    title: a renewal after an issue
    requirements: [CPP-RNW-1]
    level: MUST
    needs: [provision]
    steps:
      - do: provision-principal
        key: alice
        balance: "1000"
      - do: keygen
        names: [bob, carol]
      - do: issue
${setup}        principal: alice
        bearer: bob
        amount: "${amount}"
        as: issued
        expect: [{ status: 200 }]
      - do: renew
        pack: \${issued.body}
        bearer: bob
        new_bearer: carol
        expect: [{ status: 200 }]
`;

    it('charges a failed setup step to its own requirement: HARNESS_SETUP_FAILED, the requirement under test not exercised', async () => {
      // An amount above the balance: the issue the renewal needs is refused.
      const result = await executeScenario(scenario(ISSUE('        setup: true\n', '5000'), 'operator'), target(http), options);
      expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_SETUP_FAILED' });
      expect(result.reason).toMatch(/^setup step 3 \(issue, line \d+\) failed CPP-ISS-1: status \(CPP-ISS-1\): expected 200, got 422; CPP-RNW-1 not exercised/);
      expect(result.checks).toEqual([expect.objectContaining({ check: 'status', requirement: 'CPP-ISS-1', passed: false, setup: true })]);
      // The renewal was never sent.
      expect(result.transcript.some((e) => e.request.url.endsWith('/v1/cashpack/renew'))).toBe(false);
    });

    it('fails the requirement under test when the same step is not marked as setup', async () => {
      const result = await executeScenario(scenario(ISSUE('', '5000'), 'operator'), target(http), options);
      expect(result.status).toBe('failed');
      expect(result.checks.map((c) => [c.requirement, c.passed])).toEqual([['CPP-RNW-1', false]]);
      expect(result.reason).toMatch(/the scenario stopped after step 3: its outcome differed/);
    });

    it('passes through a setup step that worked, recording its check under its own requirement', async () => {
      const result = await executeScenario(scenario(ISSUE('        setup: true\n', '100'), 'operator'), target(http), options);
      expect(result.status).toBe('passed');
      expect(result.checks.map((c) => [c.check, c.requirement, c.passed, c.setup ?? false])).toEqual([
        ['status', 'CPP-ISS-1', true, true],
        ['status', 'CPP-RNW-1', true, false],
      ]);
    });

    it('goes on after a failed value check and reports the independent checks that follow', async () => {
      const body = SECOND_GET('          - status: 4xx\n          - header: { name: cache-control, equals: "max-age=60" }\n            requirement: PRF-TOK-1').replace(
        '        expect: [{ status: 200 }]\n',
        '        expect:\n          - status: 200\n          - header: { name: content-type, equals: "text/plain" }\n',
      );
      const result = await executeScenario(scenario(body), target(http), options);
      expect(result.status).toBe('failed');
      // Step 2's wrong header did not stop the scenario: step 3 ran and its checks are reported.
      expect(result.checks.map((c) => [c.check, c.step, c.passed])).toEqual([
        ['status', '2', true],
        ['header', '2', false],
        ['status', '3', true],
        ['header', '3', false],
      ]);
      expect(result.reason).toMatch(/^step 2 \(http, line \d+\): header \(TOK-ONCE-1\).*\(and 1 more failed check\)$/);
    });

    it('stops at a failed outcome check, and says later steps were not run', async () => {
      const body = SECOND_GET('          - status: 4xx').replace('        expect: [{ status: 200 }]\n', '        expect: [{ status: 201 }]\n');
      const result = await executeScenario(scenario(body), target(http), options);
      expect(result.status).toBe('failed');
      expect(result.checks).toHaveLength(1);
      expect(result.transcript).toHaveLength(2);
      expect(result.reason).toMatch(/the scenario stopped after step 2/);
    });

    it('does not stop for a profile status beside the right spec outcome', async () => {
      // The problem code is right; its profile status is checked apart and never ends the story.
      const body = SECOND_GET('          - status: 4xx\n          - problem: TOKEN_CONSUMED\n            requirement: PRF-TOK-1\n          - status: 404\n            requirement: PRF-TOK-1');
      const withThird = body.replace(/\n$/, '\n      - do: http\n        method: GET\n        path: /cpr/${req.token}\n        expect: [{ status: 4xx }]\n');
      const result = await executeScenario(scenario(withThird), target(http), options);
      expect(result.status).toBe('failed');
      expect(result.checks.at(-1)).toMatchObject({ check: 'status', step: '4', passed: true });
    });

    it('does not evaluate a step that reads what an earlier failed step did not produce', async () => {
      const body = SECOND_GET('          - status: 4xx').replace(
        '        path: /cpr/${req.token}\n        expect: [{ status: 200 }]\n',
        '        path: /cpr/${req.token}\n        as: first\n        expect:\n          - status: 200\n          - equals: { value: "${res.body.cpr_version}", to: CPR-2.0 }\n      - do: let\n        values: { gone: "${first.body.nothing.here}" }\n        expect: [{ equals: { value: "${gone}", to: 1 } }]\n',
      );
      const result = await executeScenario(scenario(body), target(http), options);
      expect(result.status).toBe('failed');
      expect(result.checks.filter((c) => !c.passed)).toHaveLength(1);
      expect(result.reason).toMatch(/step 3 was not evaluated: it reads a value an earlier failed step did not produce/);
    });

    it('names the member a failed comparison looked at, in the check and in the reason', async () => {
      const body = SECOND_GET('          - status: 4xx').replace(
        '        path: /cpr/${req.token}\n        expect: [{ status: 200 }]\n',
        '        path: /cpr/${req.token}\n        expect:\n          - status: 200\n          - equals: { value: "${res.body.request_id}", to: not-the-id }\n          - not_equals: { value: "${res.body.cpr_version}", to: CPR-1.0 }\n          - equals: { value: "${len(res.body.request_id)}", to: 1 }\n',
      );
      const result = await executeScenario(scenario(body), target(http), options);
      const failed = result.checks.filter((c) => !c.passed);
      expect(failed.map((c) => c.message)).toEqual([
        expect.stringMatching(/^request_id: expected "not-the-id", got "[0-9a-f-]{36}"$/),
        'cpr_version: expected anything but "CPR-1.0", got "CPR-1.0"',
        'len(res.body.request_id): expected 1, got 36',
      ]);
      expect(result.reason).toMatch(/step 2 \(http, line \d+\): equals request_id \(TOK-ONCE-1\): expected not-the-id, got [0-9a-f-]{36}/);
    });

    it('judges the status first and leaves the checks that presume another answer not evaluated, charging only the check that saw the difference', async () => {
      // The second retrieval is refused (410); the step claims a success and checks what a success would carry.
      const body = SECOND_GET(
        [
          '          - schema: cpr',
          '            requirement: CPR-VAL-1',
          '          - no_payer_data: true',
          '            requirement: CPR-PAYER-1',
          '          - content_type: application/json',
          '            requirement: TOK-GET-1',
          '          - status: 200',
        ].join('\n'),
      );
      const result = await executeScenario(scenario(body), target(http), options);
      expect(result.status).toBe('failed');
      expect(result.checks.filter((c) => !c.passed).map((c) => [c.check, c.requirement])).toEqual([['status', 'TOK-ONCE-1']]);
      expect(result.not_evaluated).toEqual([
        { check: 'content_type', requirement: 'TOK-GET-1', step: '3', after: 'status (TOK-ONCE-1)' },
        { check: 'schema', requirement: 'CPR-VAL-1', step: '3', after: 'status (TOK-ONCE-1)' },
        { check: 'no_payer_data', requirement: 'CPR-PAYER-1', step: '3', after: 'status (TOK-ONCE-1)' },
      ]);
    });

    it('judges the media type after the outcome: a body in another leaves the checks that read it not evaluated', async () => {
      // The retrieval answers 200 application/json; the step claims text/plain, so the body is not the document its schema check reads.
      const retrieval = RETRIEVAL({ id: 'TOK-GET-901', title: 'a retrieval', requirement: 'TOK-GET-1' }, ['          - schema: cpr', '            requirement: CPR-VAL-1', '          - content_type: text/plain', '          - status: 200'].join('\n'));
      const result = await executeScenario(scenario(retrieval), target(http), options);
      expect(result.status).toBe('failed');
      expect(result.checks.map((c) => [c.check, c.requirement, c.passed])).toEqual([
        ['status', 'TOK-GET-1', true],
        ['content_type', 'TOK-GET-1', false],
      ]);
      expect(result.not_evaluated).toEqual([{ check: 'schema', requirement: 'CPR-VAL-1', step: '2', after: 'content_type (TOK-GET-1)' }]);
    });

    it('judges every outcome check of the answer, each under its own requirement, and leaves the body unjudged after a wrong one', async () => {
      // A refusal where a success was claimed: the status and the code each judge the answer itself.
      const both = await executeScenario(scenario(SECOND_GET('          - status: 200\n          - problem: TOKEN_EXPIRED\n            requirement: PRF-TOK-1\n          - content_type: application/json\n            requirement: TOK-GET-1')), target(http), options);
      expect(both.checks.filter((c) => !c.passed).map((c) => [c.check, c.requirement])).toEqual([['status', 'TOK-ONCE-1'], ['problem', 'PRF-TOK-1']]);
      expect(both.not_evaluated?.map((n) => n.check)).toEqual(['content_type']);
    });

    it('judges the code beside the status: a wrong code leaves the body unjudged, a right code with another profile status does not', async () => {
      const wrongCode = await executeScenario(scenario(SECOND_GET('          - header: { name: cache-control, equals: "max-age=1" }\n            requirement: PRF-TOK-2\n          - problem: TOKEN_EXPIRED\n          - status: 4xx')), target(http), options);
      expect(wrongCode.checks.map((c) => [c.check, c.passed])).toEqual([['status', true], ['problem', false], ['problem_form', true], ['status', true]]);
      expect(wrongCode.not_evaluated?.map((n) => [n.check, n.after])).toEqual([['header', 'problem (TOK-ONCE-1)']]);
      // A profile status in a spec scenario never decides what the answer was.
      const otherStatus = await executeScenario(scenario(SECOND_GET('          - header: { name: cache-control, equals: "no-store" }\n            requirement: PRF-TOK-2\n          - status: 404\n            requirement: PRF-TOK-1\n          - problem: TOKEN_CONSUMED')), target(http), options);
      expect(otherStatus.not_evaluated).toBeUndefined();
      expect(otherStatus.checks.filter((c) => !c.passed).map((c) => c.requirement)).toEqual(['PRF-TOK-1']);
    });

    it('charges each violation of a served CPR to the rule it breaks, and keeps for the check only its own and the rules of another role', async () => {
      const served = (change: string) => `  - id: CPR-MEMO-901
    title: a CPR read for its memo
    requirements: [CPR-MEMO-1]
    level: MUST
    steps:
      - do: let
        values:
          cpr:
            cpr_version: CPR-1.0
            request_id: 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a
            created_at: "2026-01-01T00:00:00Z"
            expires_at: "2099-01-01T00:00:00Z"
            payee: { rail_address: { iban: DE89370400440532013000 } }
            value: { amount: "1250", asset: { type: fiat, code: EUR } }
            memo: Invoice 2026-0042
            beneficiary_name: Beispiel Buchhandlung GmbH
        as: base
      - do: tamper
        value: \${base.cpr}
        set: ${change}
        as: doc
        expect:
          - cpr_valid: true
            on: \${doc}
`;
      const run = async (change: string) => (await executeScenario(scenario(served(change)), target(http), options)).checks;
      const failed = (checks: readonly CheckResult[]) => checks.filter((c) => !c.passed).map((c) => c.requirement);
      // A valid CPR: the check's own requirement holds, and every payee rule the validator judged.
      const valid = await run('{ memo: Invoice 2026-0043 }');
      expect(valid.map((c) => [c.check, c.requirement, c.passed])).toEqual([['cpr_valid', 'CPR-MEMO-1', true], ...cprRulesOf('payee').filter((id) => id !== 'CPR-MEMO-1').map((id) => ['cpr_valid', id, true])]);
      expect(valid.map((c) => c.requirement)).not.toContain('CPR-VER-1');
      // A timestamp in local time and an unknown member: two rules the payee breaks, neither the memo's.
      const two = await run('{ created_at: "2026-01-01T02:00:00+02:00", surplus: 1 }');
      expect(failed(two)).toEqual(['CPR-TIME-1', 'PRF-CPR-1']);
      expect(two[0]).toMatchObject({ requirement: 'CPR-MEMO-1', passed: true });
      expect(two.find((c) => c.requirement === 'CPR-TIME-1')?.actual).toEqual([{ requirement: 'CPR-TIME-1', path: '/created_at', message: expect.any(String) }]);
      // Its own rule broken: charged to it. A rule of the paying application's (CPR-VER-1) stays with the check.
      expect(failed(await run(`{ memo: "${'x'.repeat(141)}" }`))).toEqual(['CPR-MEMO-1']);
      expect(failed(await run('{ cpr_version: CPR-2.0 }'))).toEqual(['CPR-MEMO-1']);
    });

    // Harness code that throws is the harness's defect in every layer: never charged to the target.
    describe('a fault injected into the harness', () => {
      const LEN_STEP = `  - id: TOK-GET-903\n    title: t\n    requirements: [TOK-GET-1]\n    level: MUST\n    steps:\n      - do: let\n        values: { n: "\${len('abc')}" }\n        expect: [{ equals: { value: "\${n}", to: 3 } }]\n`;
      type Table = Record<string, (...args: never[]) => unknown>;
      const fault = (table: Table, name: string, layer: string) =>
        vi.spyOn(table, name).mockImplementation(() => {
          throw new TypeError(`injected ${layer} fault`);
        });
      it.each<[string, () => { mockRestore(): void }]>([
        ['a template function', () => fault(FUNCTIONS as Table, 'len', 'template')],
        ['a check', () => fault(CHECK_IMPLEMENTATIONS as unknown as Table, 'equals', 'check')],
        ['an action', () => fault(ACTION_IMPLEMENTATIONS as unknown as Table, 'let', 'action')],
      ])('%s: HARNESS_INTERNAL with its stack, and an error verdict', async (_layer, inject) => {
        const spy = inject();
        let result: Awaited<ReturnType<typeof executeScenario>>;
        try {
          result = await executeScenario(scenario(LEN_STEP), target(http), options);
        } finally {
          spy.mockRestore();
        }
        expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_INTERNAL' });
        expect(result.reason).toMatch(/harness failure: TypeError: injected (template|check|action) fault\n\s+at /);
        expect(result.checks.filter((c) => !c.passed)).toEqual([]);
        const verdict = assess(loadRegistry(), [result], [], { strict: false, scopeRoles: ['payee'] });
        expect(verdict.verdict).toBe('error');
        expect(verdict.requirements.find((r) => r.id === 'TOK-GET-1')!.status).toBe('error');
        // The same scenario, unharmed, passes.
        expect((await executeScenario(scenario(LEN_STEP), target(http), options)).status).toBe('passed');
      });

      it('a template function given a value it declares it cannot take is the answer\'s problem, not the harness\'s', async () => {
        const result = await executeScenario(scenario(SECOND_GET('          - equals: { value: "${len(res.body.cpr_version)}", to: 7 }')), target(http), options);
        expect(result.status).toBe('failed');
        expect(result.checks.at(-1)!.actual).toMatch(/len\(\) cannot take undefined: len\(\) takes a string, an array or an object/);
      });
    });

    it('reports an exception of the harness itself as HARNESS_INTERNAL, never as a conformance failure', async () => {
      const broken: ScenarioTarget = { ...target(http), credential: () => { throw new TypeError('credential lookup is broken'); } };
      const s = scenario(`  - id: CPP-STS-903\n    title: t\n    requirements: [CPP-STS-1]\n    level: MUST\n    steps:\n      - do: credential\n        key: alice\n        of: principal\n        expect: [{ equals: { value: 1, to: 1 } }]\n`, 'operator');
      const result = await executeScenario(s, broken, options);
      expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_INTERNAL' });
      expect(result.reason).toMatch(/credential lookup is broken/);
      expect(result.checks).toEqual([]);
    });

    it('repeats steps with ${i}, templated key names and captures carried from one iteration to the next', async () => {
      const body = `  - id: CPP-RNW-902
    title: a chain of renewals written as a loop
    requirements: [CPP-RNW-1]
    level: MUST
    needs: [provision]
    steps:
      - do: provision-principal
        key: alice
        balance: "1000"
      - do: keygen
        names: [k0]
      - do: issue
        setup: true
        principal: alice
        bearer: k0
        amount: "10"
        as: last
        expect: [{ status: 200 }]
      - do: repeat
        times: 3
        steps:
          - do: keygen
            names: ["k\${i + 1}"]
          - do: renew
            pack: \${last.body}
            bearer: "k\${i}"
            new_bearer: "k\${i + 1}"
            as: last
            expect: [{ status: 200 }]
      - do: let
        values: { depth: "\${len(last.body.renewal_chain)}" }
        expect: [{ equals: { value: "\${depth}", to: 3 } }]
`;
      const result = await executeScenario(scenario(body, 'operator'), target(http), options);
      expect(result.status).toBe('passed');
      expect(result.transcript.filter((e) => e.request.url.endsWith('/v1/cashpack/renew'))).toHaveLength(3);
      const none = await executeScenario(scenario(body.replace('times: 3', 'times: 0').replace('to: 3', 'to: 0'), 'operator'), target(http), options);
      expect(none.status).toBe('passed');
    });
  });

  it('releases different operator requests together with parallel steps, and checks their answers with one_of', async () => {
    const body = (statuses: string) => `  - id: CPP-RACE-902
    title: a renewal and a redemption of one pack released together
    requirements: [CPP-RACE-1]
    level: MUST
    needs: [provision, balance, cancel]
    steps:
      - do: provision-principal
        key: alice
        balance: "1000"
      - do: provision-redeemer
        key: r
        identity_level: 3
      - do: keygen
        names: [k0, k1]
      - do: issue
        setup: true
        principal: alice
        bearer: k0
        amount: "10"
        as: p
        expect: [{ status: 200 }]
      - do: parallel
        steps:
          - { do: renew, pack: "\${p.body}", bearer: k0, new_bearer: k1 }
          - { do: redeem, pack: "\${p.body}", bearer: k0, redeemer: r }
          - { do: status, pack_id: "\${p.body.pack_id}", sign_as: alice }
          - { do: cancel, pack_id: "\${p.body.pack_id}" }
        as: both
        expect:
          - one_of: { value: "\${both.statuses}", in: ${statuses} }
          - equals: { value: "\${len(both.sent)}", to: 4 }
`;
    // Whichever of the three changes of state is taken first, the other two find the pack changed.
    const orders = '[[200, 403, 200, 200], [200, 409, 200, 200], [409, 200, 200, 409], [409, 409, 200, 200]]';
    const result = await executeScenario(scenario(body(orders), 'operator'), target(http), options);
    expect(result.reason).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(result.checks.find((c) => c.check === 'one_of')).toMatchObject({ passed: true });
    const wrong = await executeScenario(scenario(body('[[200, 200, 200, 200]]'), 'operator'), target(http), options);
    expect(wrong.status).toBe('failed');
    expect(() => scenario(body(orders).replace('needs: [provision, balance, cancel]', 'needs: [provision, balance]'), 'operator')).toThrow(/a parallel step that cancels needs the "cancel" capability/);
  });
});

/** The reference, with `mutant` switched on when given, served for the describe block that calls this (started before all its tests, closed after them). */
function servedReference(mutant?: string): { http(): HttpRole } {
  let ref: RunningReference | undefined;
  let http: HttpRole | undefined;
  beforeAll(async () => {
    ref = await startReference({ port: 0, plaintextPort: null, ...(mutant ? { mutant } : {}) });
    http = createHttpRole({ baseUrl: ref.url, ca: ref.tls.ca });
  });
  afterAll(async () => {
    await http?.close();
    await ref?.close();
  });
  return { http: () => http! };
}

describe('a renewal that does not hand the pack over', () => {
  // The Operator grants renewals but leaves current_bearer_pk as it was.
  const faulty = servedReference('op-renew-keeps-bearer');

  /** An issue, then `renewal` (steps sending carol's renewal of bob's pack), then a redemption by carol under CPP-RED-1. */
  const WALK = (renewal: string, requirements = '[CPP-RED-1]') =>
    BOBS_PACK(
      { id: 'CPP-RED-901', title: 'the new bearer redeems', requirements },
      `${renewal}      - do: redeem
        pack: \${issued.body}
        bearer: carol
        redeemer: rita
        expect: [{ status: 200 }]
`,
    );
  const RENEW = `      - do: renew
        pack: \${issued.body}
        bearer: bob
        new_bearer: carol
        expect:
          - status: 200
          - equals: { value: "\${len(res.body.renewal_chain)}", to: 1 }
`;

  it("charges CPP-RNW-1 alone, before the step's own checks, and stops: the redemption as the new bearer is never sent", async () => {
    const result = await executeScenario(scenario(WALK(RENEW), 'operator'), target(faulty.http()), options);
    expect(result.status).toBe('failed');
    expect(result.checks.filter((c) => !c.passed).map((c) => [c.check, c.requirement, c.step])).toEqual([['handover', 'CPP-RNW-1', '5']]);
    expect(result.not_evaluated?.map((n) => [n.check, n.requirement, n.after])).toEqual([
      ['status', 'CPP-RED-1', 'handover (CPP-RNW-1)'],
      ['equals', 'CPP-RED-1', 'handover (CPP-RNW-1)'],
    ]);
    expect(result.reason).toMatch(/^step 5 \(renew, line \d+\): handover \(CPP-RNW-1\): expected current_bearer_pk .*a renewal was granted without handing the pack over/);
    expect(result.transcript.some((e) => e.request.url.endsWith('/v1/cashpack/redeem'))).toBe(false);
    // Judged only the renewal: in the aggregate, CPP-RED-1 is not failed.
    const statuses = assess(loadRegistry(), [result], [], { strict: false, scopeRoles: ['operator'] }).requirements.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(statuses).toEqual(['CPP-RNW-1']);
  });

  it('leaves a renewal granted where its step wanted a refusal to the checks that wanted it', async () => {
    for (const refusal of ['status: 4xx', 'problem: BEARER_MISMATCH']) {
      const result = await executeScenario(scenario(WALK(RENEW.replace('          - status: 200\n', `          - ${refusal}\n`)), 'operator'), target(faulty.http()), options);
      expect(result.status).toBe('failed');
      expect(result.checks.some((c) => c.check === 'handover')).toBe(false);
      expect(result.checks.filter((c) => !c.passed).map((c) => c.requirement)).toContain('CPP-RED-1');
    }
  });

  it('ends a setup renewal as HARNESS_SETUP_FAILED under CPP-RNW-1', async () => {
    const result = await executeScenario(scenario(WALK(RENEW.replace('      - do: renew\n', '      - do: renew\n        setup: true\n')), 'operator'), target(faulty.http()), options);
    expect(result).toMatchObject({ status: 'error', error_code: 'HARNESS_SETUP_FAILED' });
    expect(result.checks.filter((c) => !c.passed)).toEqual([expect.objectContaining({ check: 'handover', requirement: 'CPP-RNW-1', setup: true })]);
    expect(result.reason).toMatch(/failed CPP-RNW-1: handover/);
  });

  it('judges renewals sent as raw JSON and released together: http, parallel copies and parallel steps', async () => {
    const entry = `      - do: renewal
        pack: \${issued.body}
        bearer: bob
        new_bearer: carol
        as: entry
`;
    const sent = [
      `${entry}      - do: http
        method: POST
        path: /v1/cashpack/renew
        json: { cash_pack: "\${issued.body}", renewal: "\${entry}" }
        expect: [{ status: 200 }]
`,
      `${entry}      - do: parallel
        method: POST
        path: /v1/cashpack/renew
        copies: 3
        json: { cash_pack: "\${issued.body}", renewal: "\${entry}" }
        expect: [{ exactly_one: { status: 200 } }]
`,
      `      - do: parallel
        of: { do: renew, pack: "\${issued.body}", bearer: bob, new_bearer: carol }
        copies: 3
        expect: [{ exactly_one: { status: 200 } }]
`,
      `      - do: parallel
        steps:
          - { do: renew, pack: "\${issued.body}", bearer: bob, new_bearer: carol }
          - { do: status, pack_id: "\${issued.body.pack_id}", sign_as: alice }
        expect: [{ equals: { value: "\${len(res.responses)}", to: 2 } }]
`,
    ];
    for (const renewal of sent) {
      const s = scenario(WALK(renewal), 'operator');
      // The scenario's own, the handover and kept members of its renewals, the grant of the pack it issues and its balance (guardFinding).
      expect(scenarioRequirements(s)).toEqual(['CPP-RED-1', 'CPP-RNW-1', 'PRF-MSG-1', 'CPP-ISS-1', 'CPP-BAL-1']);
      const result = await executeScenario(s, target(faulty.http()), options);
      expect(result.checks.filter((c) => !c.passed).map((c) => [c.check, c.requirement])).toEqual([['handover', 'CPP-RNW-1']]);
      expect(result.transcript.some((e) => e.request.url.endsWith('/v1/cashpack/redeem'))).toBe(false);
    }
  });
});

describe('a renewal that changes what it keeps of the pack', () => {
  // The Operator grants renewals but dates the pack again with its clock (issued_at is the issue's, PROFILE.md §4.3).
  const faulty = servedReference('op-renewal-restamps-issued-at');

  /** bob's pack renewed to carol `after` seconds after its issue, then redeemed by carol. */
  const LATER = (after: number) =>
    BOBS_PACK(
      { id: 'CPP-RED-902', title: 'the new bearer redeems a pack renewed later', requirements: '[CPP-RED-1]' },
      `      - do: clock
        freeze: true
      - do: clock
        advance: ${after}
      - do: renew
        pack: \${issued.body}
        bearer: bob
        new_bearer: carol
        as: renewed
        expect: [{ status: 200 }]
      - do: redeem
        pack: \${renewed.body}
        bearer: carol
        redeemer: rita
        expect: [{ status: 200 }]
`,
    ).replace('needs: [provision]', 'needs: [provision, clock]');

  it("charges PRF-MSG-1 alone for a renewed pack's new issued_at, and stops before the redemption", async () => {
    const result = await executeScenario(scenario(LATER(60), 'operator'), target(faulty.http()), options);
    expect(result.status).toBe('failed');
    expect(result.checks.filter((c) => !c.passed).map((c) => [c.check, c.requirement, c.step])).toEqual([['kept', 'PRF-MSG-1', '7']]);
    expect(result.reason).toMatch(/kept \(PRF-MSG-1\): the renewed pack's issued_at changed/);
    expect(result.transcript.some((e) => e.request.url.endsWith('/v1/cashpack/redeem'))).toBe(false);
    expect(scenarioRequirements(scenario(LATER(60), 'operator'))).toEqual(expect.arrayContaining(['CPP-RNW-1', 'PRF-MSG-1']));
  });

  it('finds nothing where the clock did not move: the same instant written again is the one issued', async () => {
    const result = await executeScenario(scenario(LATER(0), 'operator'), target(faulty.http()), options);
    expect(result.reason).toBeUndefined();
    expect(result.status).toBe('passed');
  });
});

describe("the pack's own bearer refused BEARER_MISMATCH", () => {
  // op-bearer-compared-as-json refuses the bearer whose JWK comes with its members in another order, as every renewal
  // and redemption the scenario actions build presents it; the reference refuses only the wrong key.
  const refs = { faulty: servedReference('op-bearer-compared-as-json'), reference: servedReference() };

  /** bob's pack issued by alice, then `steps`, under `requirement`. */
  const PACK = (steps: string, requirement = 'CPP-IDN-1') => BOBS_PACK({ id: 'CPP-IDN-901', title: 'probe', requirements: `[${requirement}]` }, steps);
  const run = (steps: string, on: 'faulty' | 'reference', requirement?: string) => executeScenario(scenario(PACK(steps, requirement), 'operator'), target(refs[on].http()), options);
  const failed = (result: { readonly checks: readonly CheckResult[] }) => result.checks.filter((c) => !c.passed).map((c) => [c.check, c.requirement]);

  it('is charged to the operation where the refusal due is one PROFILE.md §5 checks after the bearer, and stops the scenario', async () => {
    const unidentified = `      - do: redeem
        pack: \${issued.body}
        bearer: bob
        redeemer: rita
        identify_as: false
        expect:
          - status: 4xx
          - problem: REDEEMER_NOT_IDENTIFIED
`;
    const result = await run(unidentified, 'faulty');
    expect(failed(result)).toEqual([['bearer', 'CPP-RED-1']]);
    expect(result.reason).toMatch(/bearer \(CPP-RED-1\): the pack's current bearer refused BEARER_MISMATCH/);
    // The reference refuses it as the scenario expects.
    expect((await run(unidentified, 'reference')).status).toBe('passed');
  });

  it('is left to the scenario\'s own checks where the refusal due stands before the bearer', async () => {
    // A redeemed pack is INSTRUMENT_NOT_ACTIVE (step 7): a BEARER_MISMATCH there breaks the order, which CPP-ACT-1 judges.
    const result = await run(`      - do: redeem
        pack: \${issued.body}
        bearer: carol
        redeemer: rita
        expect: [{ status: 403 }]
      - do: renew
        pack: \${issued.body}
        bearer: bob
        new_bearer: carol
        expect:
          - status: 409
          - problem: INSTRUMENT_NOT_ACTIVE
`, 'faulty', 'CPP-ACT-1');
    expect(failed(result)).toEqual([['status', 'CPP-ACT-1'], ['problem', 'CPP-ACT-1']]);
  });

  it('is charged to the operation in a race nobody won, and in a renewal sent as raw JSON', async () => {
    const races = [
      `      - do: parallel
        of: { do: renew, pack: "\${issued.body}", bearer: bob, new_bearer: carol }
        copies: 3
        expect: [{ exactly_one: { status: 200 } }]
`,
      `      - do: parallel
        steps:
          - { do: renew, pack: "\${issued.body}", bearer: bob, new_bearer: carol }
          - { do: redeem, pack: "\${issued.body}", bearer: bob, redeemer: rita }
        expect: [{ exactly_one: { status: 200 } }]
`,
      `      - do: renewal
        pack: \${issued.body}
        bearer: bob
        new_bearer: carol
        as: entry
      - do: http
        method: POST
        path: /v1/cashpack/renew
        json: { cash_pack: "\${issued.body}", renewal: "\${entry}" }
        expect: [{ status: 200 }]
`,
    ];
    for (const steps of races) {
      // The first of the step's requests refused so: the renewal, in each.
      expect(failed(await run(steps, 'faulty', 'CPP-RACE-1'))).toEqual([['bearer', 'CPP-RNW-1']]);
      expect((await run(steps, 'reference', 'CPP-RACE-1')).status).toBe('passed');
    }
  });

  it('is never charged to the operation once a renewal the scenario saw granted handed the pack on: in the same race, or raw before', async () => {
    // The renewal wins and the redemption by bob then rightly meets carol's pack; or the pack is renewed raw, and bob's older
    // version is refused BEARER_MISMATCH before its digest (step 8 before 9): the scenario's own rule judges what it expected.
    const raced = await run(`      - do: parallel
        steps:
          - { do: renew, pack: "\${issued.body}", bearer: bob, new_bearer: carol }
          - { do: redeem, pack: "\${issued.body}", bearer: bob, redeemer: rita }
        as: both
        expect:
          - one_of: { value: "\${both.statuses}", in: [[200, 403], [409, 200]] }
`, 'reference', 'CPP-RACE-1');
    expect(raced.status).toBe('passed');
    const stale = await run(`      - do: renewal
        pack: \${issued.body}
        bearer: bob
        new_bearer: carol
        as: entry
      - do: http
        method: POST
        path: /v1/cashpack/renew
        json: { cash_pack: "\${issued.body}", renewal: "\${entry}" }
        expect: [{ status: 200 }]
      - do: renew
        pack: \${issued.body}
        bearer: bob
        new_bearer: bob
        expect:
          - problem: CHAIN_DIGEST_MISMATCH
`, 'reference', 'CPP-CHN-1');
    expect(failed(stale)).toEqual([['problem', 'CPP-CHN-1']]);
  });
});

describe('the problem check', () => {
  const answer = (status: number, body: unknown, contentType = 'application/problem+json') => ({ status, headers: { 'content-type': contentType }, body, text: JSON.stringify(body), bytes: new Uint8Array() });
  const judge = async (subject: unknown) => {
    const v = await CHECK_IMPLEMENTATIONS.problem(undefined as never, 'INSTRUMENT_NOT_ACTIVE', subject, 'INSTRUMENT_NOT_ACTIVE', ['CPP-ACT-1']);
    return { code: v.passed, form: v.extra?.map((x) => [x.requirement, x.passed, x.expected]) };
  };

  it('judges the code under its rule and the form of an error under PRF-ERR-1, by the code the answer carries', async () => {
    expect(await judge(answer(409, { code: 'INSTRUMENT_NOT_ACTIVE' }))).toEqual({ code: true, form: [['PRF-ERR-1', true, { content_type: 'application/problem+json', status: 409 }]] });
    // The right code as plain JSON, or with another status: only the profile's form is wrong.
    const form409 = { content_type: 'application/problem+json', status: 409 };
    expect(await judge(answer(409, { code: 'INSTRUMENT_NOT_ACTIVE' }, 'application/json'))).toEqual({ code: true, form: [['PRF-ERR-1', false, form409]] });
    expect(await judge(answer(400, { code: 'INSTRUMENT_NOT_ACTIVE' }))).toEqual({ code: true, form: [['PRF-ERR-1', false, form409]] });
    // Another code with its own status: a wrong code, not also a wrong status.
    expect(await judge(answer(422, { code: 'INSUFFICIENT_BALANCE' }))).toEqual({ code: false, form: [['PRF-ERR-1', true, { content_type: 'application/problem+json', status: 422 }]] });
    // No error at all (a renewal granted where a refusal was due): nothing of PRF-ERR-1 to judge.
    expect(await judge(answer(200, { pack_id: 'p' }, 'application/json'))).toEqual({ code: false, form: undefined });
  });
});

describe('scenarioRequirements', () => {
  const withProblem = (code: string) =>
    scenario(`  - id: CPP-BAL-901\n    title: t\n    requirements: [CPP-BAL-1]\n    level: MUST\n    steps:\n      - do: http\n        method: GET\n        path: /t\n        expect:\n          - problem: ${code}\n`, 'operator');

  it("names the requirement a check's extra can charge: a protocol code's status is PRF-ERR-1", () => {
    expect(scenarioRequirements(withProblem('INSUFFICIENT_BALANCE'))).toEqual(['CPP-BAL-1', 'PRF-ERR-1']);
    expect(scenarioRequirements(withProblem('NOT_A_PROFILE_CODE'))).toEqual(['CPP-BAL-1']);
  });
});
