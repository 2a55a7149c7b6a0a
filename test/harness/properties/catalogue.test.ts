import { describe, expect, it } from 'vitest';
import { appTarget } from '../../support/app-target.ts';
import type { AppResult, CprInput, DerivationContext, PayingAppRole } from '../../../harness/adapters/types.ts';
import { findProperty } from '../../../harness/properties/catalogue.ts';
import { executeProperty } from '../../../harness/properties/execute.ts';
import { createPayingApp } from '../../../reference/paying-app/index.ts';

// Each property must be able to fail: run against a paying app with one fault.
const reference = createPayingApp({ clock: () => Date.UTC(2030, 0, 1) });

function app(overrides: Partial<Pick<PayingAppRole, 'read' | 'derive'>>): PayingAppRole {
  return {
    kind: 'module',
    description: 'faulty paying app',
    read: (input: CprInput) => reference.read(input as never) as Promise<AppResult>,
    derive: async (cpr: unknown, context: DerivationContext) => reference.derive(cpr as never, context as never) as AppResult,
    close: async () => undefined,
    ...overrides,
  };
}

const run = (id: string, payingApp: PayingAppRole) =>
  executeProperty(findProperty(id)!, appTarget(payingApp), { seed: 1, runs: 40, levelOf: () => 'MUST', rerun: () => '' });

describe('the paying-application properties catch faults', () => {
  it('pass against the reference paying application', async () => {
    for (const id of ['PROP-APP-001', 'PROP-APP-002', 'PROP-APP-003', 'PROP-DRV-001', 'PROP-DLV-001']) {
      expect((await run(id, app({}))).status, id).toBe('passed');
    }
  });

  it('PROP-APP-002 catches an application that accepts anything', async () => {
    const lax = app({ read: async (input) => ({ ok: true, cpr: input.kind === 'object' ? input.value : undefined }) });
    expect((await run('PROP-APP-002', lax)).status).toBe('failed');
  });

  it('PROP-APP-003 catches a rejection for the wrong rule', async () => {
    const vague = app({ read: async () => ({ ok: false, code: 'CPR_INVALID', message: 'this request is not valid', violations: [{ requirement: 'CPR-MEMO-1' }] }) });
    const result = await run('PROP-APP-003', vague);
    expect(result.status).toBe('failed');
    expect((await run('PROP-APP-002', vague)).status).toBe('passed'); // still a rejection: the spec rule holds
  });

  it('PROP-DRV-001 catches an application that converts the amount', async () => {
    const converting = app({
      derive: async (cpr, context) => {
        const r = reference.derive(cpr as never, context as never) as AppResult;
        if (!r.ok) return r;
        const payment = r.payment as { value: { amount: string } };
        return { ...r, payment: { ...payment, value: { ...payment.value, amount: `${payment.value.amount}0` } } };
      },
    });
    expect((await run('PROP-DRV-001', converting)).status).toBe('failed');
  });

  it('PROP-APP-001 catches an application that rejects a valid CPR', async () => {
    const strict = app({ read: async () => ({ ok: false, code: 'CPR_INVALID', message: 'nothing is ever valid here' }) });
    expect((await run('PROP-APP-001', strict)).status).toBe('failed');
  });
});
