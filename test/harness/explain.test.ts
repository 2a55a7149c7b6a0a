import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonReport } from '../../harness/report/json.ts';
import type { TestResult } from '../../harness/report/model.ts';
import { cliHere } from './hostile/support.ts';
import { buildReport, fixtureTests } from './report/fixture.ts';

const base = fixtureTests()[0]!;
const tests: TestResult[] = [
  ...fixtureTests(),
  { ...base, id: 'CPP-LIM-002', role: 'operator', requirements: ['CPP-LIM-1'], status: 'not-applicable', basis: 'policy', reason: 'step 2: the target\'s max_amount is the largest amount PROFILE.md §1 allows', checks: [] },
  {
    ...base,
    id: 'CPP-RED-009',
    role: 'operator',
    requirements: ['CPP-RED-1', 'PRF-SIG-1'],
    status: 'failed',
    checks: [{ check: 'status', requirement: 'CPP-RED-1', level: 'MUST', passed: false, step: '4', expected: 200, actual: 403, message: 'HTTP status 403' }],
    not_evaluated: [{ check: 'signature_valid', requirement: 'PRF-SIG-1', step: '4', after: 'status (CPP-RED-1)' }],
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

  it('names the checks that were not evaluated, and after which answer', async () => {
    const r = await cliHere(['explain', 'PRF-SIG-1', '--report', file]);
    expect(r.stdout).toMatch(/PRF-SIG-1: not-reached/);
    expect(r.stdout).toMatch(/not evaluated: signature_valid at step 4, after status \(CPP-RED-1\) saw another answer/);
  });
});
