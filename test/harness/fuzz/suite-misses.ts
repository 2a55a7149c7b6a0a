// What the suite's own scenarios and properties of the payee and paying-app
// roles make of each fault of faulty-payee.ts and faulty-app.ts: the measure
// behind "faults nobody pointed to" (harness/fuzz/README.md). Not a test (it
// asserts nothing about the suite, which may learn to catch them); run it with
//
//   npx tsx test/harness/fuzz/suite-misses.ts
//
// It prints, for the reference and for each fault, how many tests ran and
// which of them failed or ended in error.
import { PROPERTIES } from '../../../harness/properties/catalogue.ts';
import { executeProperty } from '../../../harness/properties/execute.ts';
import { scenarioTarget } from '../../../harness/runner/scenario-target.ts';
import type { ScenarioTarget } from '../../../harness/scenarios/context.ts';
import { executeScenario } from '../../../harness/scenarios/execute.ts';
import { loadSuites } from '../../../harness/scenarios/load.ts';
import { RetrievalStub } from '../../../harness/stub/retrieval-stub.ts';
import { embeddedTarget } from '../../../harness/target/target.ts';
import { findRequirement } from '../../../profile/registry.ts';
import { APP_FAULTS, faultyApp } from './faulty-app.ts';
import { faultyPayee, PAYEE_FAULTS } from './faulty-payee.ts';

async function suiteAgainst(role: 'payee' | 'paying-app', target: ScenarioTarget): Promise<{ readonly tests: number; readonly failed: string[] }> {
  const failed: string[] = [];
  let tests = 0;
  for (const scenario of loadSuites().flatMap((s) => s.scenarios).filter((s) => s.role === role)) {
    tests++;
    const result = await executeScenario(scenario, target, { levelOf: (id) => findRequirement(id)?.level ?? scenario.level, rerun: () => '' });
    if (result.status === 'failed' || result.status === 'error') failed.push(`${scenario.id} ${result.status}`);
  }
  for (const property of PROPERTIES.filter((p) => p.role === role)) {
    tests++;
    const result = await executeProperty(property, target, { seed: 1, levelOf: (id) => findRequirement(id)?.level ?? 'MUST', rerun: () => '' });
    if (result.status === 'failed' || result.status === 'error') failed.push(`${property.id} ${result.status}`);
  }
  return { tests, failed };
}

async function main(): Promise<void> {
  const stub = await RetrievalStub.start();
  const target = await embeddedTarget({ stub });
  try {
    const base = scenarioTarget(target);
    const line = (what: string, r: { tests: number; failed: string[] }) => console.log(`${what}: ${r.tests} tests, ${r.failed.length === 0 ? 'none failed (missed)' : `failed: ${r.failed.join(', ')}`}`);
    for (const role of ['payee', 'paying-app'] as const) line(`reference ${role}`, await suiteAgainst(role, base));
    for (const fault of PAYEE_FAULTS) {
      const payee = faultyPayee(target.payee!, fault);
      line(`payee ${fault}`, await suiteAgainst('payee', { ...base, httpRole: (role) => (role === 'payee' ? payee : base.httpRole(role)) }));
    }
    for (const fault of APP_FAULTS) line(`paying-app ${fault}`, await suiteAgainst('paying-app', { ...base, payingApp: faultyApp(target.payingApp!, fault, stub.ca) }));
  } finally {
    await target.close();
    await stub.close();
  }
}

void main();
