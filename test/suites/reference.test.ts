import { describe, expect, it, vi } from 'vitest';

// One whole conformance run (shared with the other files of the worker that need it): its duration follows the machine's load.
vi.setConfig({ testTimeout: 240_000 });
import { assess } from '../../harness/report/aggregate.ts';
import { PROPERTIES } from '../../harness/properties/catalogue.ts';
import { suiteCatalogue } from '../../harness/runner/catalogue.ts';
import { loadSuites } from '../../harness/scenarios/load.ts';
import { loadRegistry, ROLES } from '../../profile/registry.ts';
import { referenceResults } from '../support/reference-run.ts';

// The reference is the suite's first customer: it must pass every scenario and
// property, with every requirement of the registry observed passing. (The
// command line's own run of it, exit 0 and all, is test/package.test.ts's and
// test/examples.test.ts's.)
describe('the embedded reference against the whole suite', () => {
  it('is conformant with every test passed and every requirement passed', async () => {
    const tests = [...(await referenceResults())];
    const scenarios = loadSuites().flatMap((s) => s.scenarios);
    expect(tests.length).toBe(scenarios.length + PROPERTIES.length);
    const notPassed = tests.filter((t) => t.status !== 'passed').map((t) => `${t.id} ${t.status}: ${t.reason ?? ''}`);
    expect(notPassed, notPassed.join('\n')).toEqual([]);
    const whole = assess(loadRegistry(), tests, [], { strict: false, catalogue: suiteCatalogue(scenarios, PROPERTIES), scopeRoles: [...ROLES] });
    const requirements = whole.requirements.filter((q) => q.status !== 'passed').map((q) => `${q.id} ${q.status}`);
    expect(requirements, requirements.join('\n')).toEqual([]);
    expect(whole.verdict).toBe('conformant');

    // An implementation of one role is judged by that role's tests alone (run
    // --role R): each role's deciding requirements are all judged by its own
    // tests, so a one-role implementation can be certified.
    for (const role of ROLES) {
      const catalogue = suiteCatalogue(scenarios.filter((s) => s.role === role), PROPERTIES.filter((p) => p.role === role));
      const alone = assess(loadRegistry(), tests.filter((t) => t.role === role), [], { strict: false, catalogue, scopeRoles: [role] });
      const open = alone.requirements.filter((q) => q.deciding && q.status !== 'passed').map((q) => `${q.id} ${q.status}`);
      expect(open, `${role} alone`).toEqual([]);
      expect(alone.verdict, `${role} alone`).toBe('conformant');
    }
  });
});
