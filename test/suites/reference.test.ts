import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

// One whole conformance run: its duration follows the machine's load.
vi.setConfig({ testTimeout: 240_000 });
import { readReport } from '../../harness/report/index.ts';
import { assess } from '../../harness/report/aggregate.ts';
import { PROPERTIES } from '../../harness/properties/catalogue.ts';
import { suiteCatalogue } from '../../harness/runner/catalogue.ts';
import { loadSuites } from '../../harness/scenarios/load.ts';
import { loadRegistry, ROLES } from '../../profile/registry.ts';

// The reference is the suite's first customer: it must pass every scenario and
// property, with every requirement of the registry observed passing.
describe('the embedded reference against the whole suite', () => {
  it('is conformant with every test passed and every requirement passed', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cpr-reference-')), 'report');
    const bin = fileURLToPath(new URL('../../bin/cpr-conformance.js', import.meta.url));
    const r = spawnSync(process.execPath, [bin, 'run', '--report-dir', dir], { encoding: 'utf8', timeout: 220_000, env: { ...process.env, CI: 'true' } });
    const report = readReport(join(dir, 'report.json'));
    const notPassed = report.tests.filter((t) => t.status !== 'passed').map((t) => `${t.id} ${t.status}: ${t.reason ?? ''}`);
    expect(notPassed, notPassed.join('\n')).toEqual([]);
    const requirements = report.requirements.filter((q) => q.status !== 'passed').map((q) => `${q.id} ${q.status}`);
    expect(requirements, requirements.join('\n')).toEqual([]);
    expect(report.verdict).toBe('conformant');
    expect(r.status).toBe(0);

    // An implementation of one role is judged by that role's tests alone (run
    // --role R): each role's deciding requirements are all judged by its own
    // tests, so a one-role implementation can be certified.
    const scenarios = loadSuites().flatMap((s) => s.scenarios);
    for (const role of ROLES) {
      const catalogue = suiteCatalogue(scenarios.filter((s) => s.role === role), PROPERTIES.filter((p) => p.role === role));
      const alone = assess(loadRegistry(), report.tests.filter((t) => t.role === role), [], { strict: false, catalogue, scopeRoles: [role] });
      const open = alone.requirements.filter((q) => q.deciding && q.status !== 'passed').map((q) => `${q.id} ${q.status}`);
      expect(open, `${role} alone`).toEqual([]);
      expect(alone.verdict, `${role} alone`).toBe('conformant');
    }
  });
});
