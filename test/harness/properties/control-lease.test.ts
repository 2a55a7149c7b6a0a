// PROP-CTL-001, the test-control lease in its classes: it holds against the
// reference whether the lease is free (the property acquires, checks and
// releases one of its own) or held by this run (it renews the run's lease, never
// releases it, and the run keeps it); it fails against a lease that counts its
// holder in UTF-16 units and against one matched by a prefix of its id, either way.
import { describe, expect, it } from 'vitest';
import { CONTROL_LEASE } from '../../../harness/properties/field-classes/control-lease.ts';
import { executeProperty } from '../../../harness/properties/execute.ts';
import { holdLease } from '../../../harness/runner/lease.ts';
import { scenarioTarget } from '../../../harness/runner/scenario-target.ts';
import { embeddedTarget, type Target } from '../../../harness/target/target.ts';

const options = { seed: 20261126, runs: 4, levelOf: () => 'PROFILE' as const, rerun: () => '' };

async function withTarget<T>(mutant: string | undefined, held: boolean, use: (target: Target) => Promise<T>): Promise<T> {
  const opened = await embeddedTarget(mutant !== undefined ? { reference: { mutant } } : {});
  const target = held ? await holdLease(opened, { holder: 'control-lease.test' }) : opened;
  try {
    return await use(target);
  } finally {
    await target.close();
  }
}

const lease = async (target: Target) => (await target.operator!.send({ method: 'GET', path: '/_control/lease' })).body;
const text = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body)) as { held: boolean; holder?: string };

describe('PROP-CTL-001 (the test-control lease)', () => {
  it.each<[string, boolean, 'passed' | 'failed']>([
    ['the reference', false, 'passed'],
    ['the reference', true, 'passed'],
    ['ctl-lease-holder-utf16-length', false, 'failed'],
    ['ctl-lease-holder-utf16-length', true, 'failed'],
    ['ctl-lease-id-prefix-match', false, 'failed'],
    ['ctl-lease-id-prefix-match', true, 'failed'],
  ])('against %s (the lease held by the run: %s): %s, the lease left as it was found', async (mutant, held, status) => {
    await withTarget(mutant === 'the reference' ? undefined : mutant, held, async (target) => {
      const result = await executeProperty(CONTROL_LEASE, scenarioTarget(target), options);
      expect(result.status, result.reason).toBe(status);
      if (status === 'failed') expect(result.checks.filter((c) => !c.passed).map((c) => c.requirement)).toContain('PRF-CTL-1');
      else expect(text(await lease(target))).toMatchObject(held ? { held: true, holder: 'control-lease.test' } : { held: false });
    });
  });
});
