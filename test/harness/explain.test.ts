import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonReport } from '../../harness/report/json.ts';
import type { TestResult } from '../../harness/report/model.ts';
import { cliHere } from './hostile/support.ts';
import { buildReport, fixtureTests } from './report/fixture.ts';
import { PROBLEM_STATUS, SPEC_ERROR_CODES } from '../../profile/problems.ts';
import { loadSuites } from '../../harness/scenarios/load.ts';

const base = fixtureTests()[0]!;
const tests: TestResult[] = [
  ...fixtureTests(),
  { ...base, id: 'CPP-LIM-002', role: 'operator', requirements: ['CPP-LIM-1'], status: 'not-applicable', basis: 'policy', reason: 'step 2: the target\'s max_amount is the largest amount PROFILE.md §1 allows', checks: [] },
  {
    ...base,
    id: 'CPP-RED-001',
    role: 'operator',
    requirements: ['CPP-RED-1', 'PRF-SIG-1'],
    status: 'failed',
    checks: [{ check: 'status', requirement: 'CPP-RED-1', level: 'MUST', passed: false, step: '4', expected: 200, actual: 403, message: 'HTTP status 403' }],
    not_evaluated: [{ check: 'signature_valid', requirement: 'PRF-SIG-1', step: '4', after: 'status (CPP-RED-1)' }],
    transcript: [
      {
        step: '4',
        role: 'operator',
        request: { method: 'POST', url: 'https://op.example/v1/cashpack/redeem', headers: {} },
        response: { status: 403, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ code: 'BEARER_MISMATCH', detail: 'signed by a stranger' }) },
        duration_ms: 2,
      },
    ],
  },
];

describe('explain ID --report', () => {
  const file = writeJsonReport(mkdtempSync(join(tmpdir(), 'cpr-explain-')), buildReport({ tests }));

  it('says on what basis a requirement is not applicable, and that it is no gap', async () => {
    const r = await cliHere(['explain', 'CPP-LIM-1', '--report', file]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/CPP-LIM-1: not-applicable \(by the target's published policy: no gap in coverage\)/);
    expect(r.stdout).toMatch(/CPP-LIM-002 {2}not-applicable \(policy\): step 2: the target's max_amount is the largest amount/);
  });

  it("shows a failed test's checks and what the target answered", async () => {
    const r = await cliHere(['explain', 'CPP-RED-001', '--report', file]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('  failed checks, and what the target answered:\n    status (CPP-RED-1) at step 4: HTTP status 403\n      answer: POST /v1/cashpack/redeem answered 403, problem BEARER_MISMATCH: signed by a stranger\n');
  });

  it('names the checks that were not evaluated, and after which answer', async () => {
    const r = await cliHere(['explain', 'PRF-SIG-1', '--report', file]);
    expect(r.stdout).toMatch(/PRF-SIG-1: not-reached/);
    expect(r.stdout).toMatch(/not evaluated: signature_valid at step 4, after status \(CPP-RED-1\) saw another answer/);
  });
});

describe("explain CODE for the spec's protocol error codes", () => {
  const scenarios = loadSuites().flatMap((suite) => suite.scenarios);

  it.each(SPEC_ERROR_CODES)('explains %s: when, its HTTP status, and the requirements whose checks expect it', async (code) => {
    const r = await cliHere(['explain', code]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${code} {2}\\(a protocol error code of spec §7\\.1, answered by an Operator\\)\\n {2}when: \\S`));
    expect(r.stdout).toContain(`  HTTP status: ${PROBLEM_STATUS[code]}, `);
    // Every scenario that checks for the code is named under a requirement.
    const expecting = scenarios.filter((s) => JSON.stringify(s.steps).includes(`"${code}"`)).map((s) => s.id);
    expect(expecting.length).toBeGreaterThan(0);
    const named = [...r.stdout.matchAll(/^ {6}in (.+)$/gm)].flatMap((m) => m[1]!.split(', '));
    expect(named.length).toBeGreaterThan(0);
    for (const id of named) expect(expecting).toContain(id);
  });
});
