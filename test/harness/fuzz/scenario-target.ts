// What the fuzz tests share: the embedded reference with a scratch folder,
// opened before a file's tests and closed after, the reference with a mutant
// switched on, and the target a regression scenario runs against (an Operator
// with every test-control capability).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createHttpRole } from '../../../harness/adapters/http.ts';
import type { HttpRole } from '../../../harness/adapters/types.ts';
import type { ScenarioTarget } from '../../../harness/scenarios/context.ts';
import type { Capability } from '../../../profile/control.ts';
import { findRequirement } from '../../../profile/registry.ts';
import type { MutantName } from '../../../reference/mutants.ts';
import type { Policy } from '../../../reference/operator/policy.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';

const ALL: Capability[] = ['provision', 'clock', 'cancel', 'balance', 'fulfil'];

export function scenarioTarget(role: HttpRole): ScenarioTarget {
  return {
    credential: () => undefined,
    httpRole: () => role,
    payingApp: undefined,
    capabilities: (r) => (r === 'paying-app' ? new Set() : new Set(ALL)),
    adapterKind: (r) => (r === 'paying-app' ? undefined : role.kind),
  };
}

export const scenarioOptions = { levelOf: (id: string) => findRequirement(id)?.level ?? 'MUST', rerun: (id: string) => `rerun ${id}` } as const;

export interface ReferenceUnderTest {
  /** A scratch folder, removed after the tests. */
  readonly dir: string;
  readonly reference: RunningReference;
  readonly role: HttpRole;
}

/** The embedded reference and a scratch folder for the tests of the calling describe block (set once its beforeAll ran). */
export function useReference(prefix: string): ReferenceUnderTest {
  const under = {} as { dir: string; reference: RunningReference; role: HttpRole };
  beforeAll(async () => {
    under.dir = mkdtempSync(join(tmpdir(), prefix));
    under.reference = await startReference({ port: 0, plaintextPort: null });
    under.role = createHttpRole({ baseUrl: under.reference.url, ca: under.reference.tls.ca });
  });
  afterAll(async () => {
    await under.role.close();
    await under.reference.close();
    rmSync(under.dir, { recursive: true, force: true });
  });
  return under;
}

export interface MutantUnderTest {
  readonly reference: RunningReference;
  /** An HTTP role that trusts the reference's CA. */
  readonly role: HttpRole;
  close(): Promise<void>;
}

/** The reference with `mutant` switched on (reference/mutants.ts), over TLS only, and a role that trusts it. */
export async function startMutant(mutant: MutantName, policy: Partial<Policy> = {}): Promise<MutantUnderTest> {
  const reference = await startReference({ port: 0, plaintextPort: null, mutant, policy });
  const role = createHttpRole({ baseUrl: reference.url, ca: reference.tls.ca });
  return {
    reference,
    role,
    close: async () => {
      await role.close();
      await reference.close();
    },
  };
}
