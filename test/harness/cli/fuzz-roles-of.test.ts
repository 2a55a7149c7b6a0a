// `cpr-conformance fuzz roles REPORT` (harness/cli/fuzz-roles-of.ts): the roles a
// run's target can be fuzzed in, from its report: those it has, narrowed by the
// run's --role selection, the HTTP roles only with the capabilities their
// fuzzers need; every other role named with why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../harness/cli/main.ts';
import { fuzzableRoles } from '../../../harness/cli/fuzz-roles-of.ts';
import type { Report } from '../../../harness/report/model.ts';
import { captured } from '../../support/captured.ts';

type Roles = Report['run']['target']['roles'];

const report = (roles: Roles, selected: Report['run']['selection']['roles'] = []) => ({ run: { target: { roles }, selection: { only: [], roles: selected } } }) as unknown as Pick<Report, 'run'>;
const http = (capabilities: string[]) => ({ adapter: 'http', tls: 'verified' as const, capabilities });
const ALL = ['provision', 'clock', 'cancel', 'balance', 'fulfil', 'lease'];

describe('fuzzableRoles', () => {
  it('takes every role the target has, the HTTP ones with the capabilities their fuzzers need', () => {
    expect(fuzzableRoles(report({ operator: http(ALL), payee: http(ALL), 'paying-app': { adapter: 'module', tls: 'in-process', capabilities: [] } })).roles).toEqual(['operator', 'payee', 'paying-app']);
  });

  it('leaves out, with why, a role the target lacks, one short of a capability, and one the run did not select', () => {
    const { roles, left } = fuzzableRoles(report({ operator: http(['provision', 'clock']), payee: http(['provision', 'clock']) }));
    expect(roles).toEqual(['payee']);
    expect(left).toEqual([
      { role: 'operator', why: 'it lacks the test-control capabilities balance, cancel' },
      { role: 'paying-app', why: 'the target has no such role' },
    ]);
    expect(fuzzableRoles(report({ operator: http(ALL), payee: http(ALL) }, ['payee'])).roles).toEqual(['payee']);
    expect(fuzzableRoles(report({ operator: http(ALL), payee: http(ALL) }, ['payee'])).left[0]).toEqual({ role: 'operator', why: 'the run did not select it (--role)' });
  });
});

describe('cpr-conformance fuzz roles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpr-fuzz-roles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses without one report, and with a report it cannot read, as a usage error', async () => {
    expect((await captured(() => main(['fuzz', 'roles']))).code).toBe(2);
    const missing = await captured(() => main(['fuzz', 'roles', join(dir, 'nothing.json')]));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/USAGE_ERROR: cannot read report/);
  });

  it('documents itself', async () => {
    const help = await captured(() => main(['fuzz', 'roles', '--help']));
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cpr-conformance fuzz roles REPORT/);
  });
});
