// refusalOf: a paying application's refusal of a valid CPR is charged by
// difference, each candidate read again through the same application.
import { describe, expect, it } from 'vitest';
import type { AppResult, CprInput, PayingAppRole } from '../../../harness/adapters/types.ts';
import { refusalOf } from '../../../harness/properties/support.ts';
import { ScenarioContext, type ScenarioTarget } from '../../../harness/scenarios/context.ts';
import type { Scenario } from '../../../harness/scenarios/types.ts';

const CPR = {
  cpr_version: 'CPR-1.0',
  request_id: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
  created_at: '2026-01-01T00:00:00Z',
  expires_at: '2099-01-01T00:00:00Z',
  payee: { rail_address: { key_type: 'TAX_NUMBER', key_value: '12345678901' } },
  value: { amount: '3590', asset: { type: 'fiat', code: 'BRL' } },
  extensions: { 'com.example.table': 4 },
};

/** A context whose paying application refuses what `refuses` says, and counts its reads. */
function withApp(refuses: (doc: Record<string, any>) => boolean): { ctx: ScenarioContext; reads: () => number } {
  let reads = 0;
  const app: PayingAppRole = {
    kind: 'module',
    description: 'an application that refuses some valid CPRs',
    async read(input: CprInput): Promise<AppResult> {
      reads++;
      const doc = (input as { value: Record<string, any> }).value;
      return refuses(doc) ? { ok: false, code: 'CPR_INVALID', message: 'refused' } : ({ ok: true, cpr: doc, notices: [] } as unknown as AppResult);
    },
    derive: async () => ({ ok: false, code: 'CPR_INVALID', message: 'refused' }),
    close: async () => {},
  };
  const target = { payingApp: app, httpRole: () => undefined, capabilities: () => new Set(), adapterKind: () => 'module', credential: () => undefined } as unknown as ScenarioTarget;
  const scenario = { id: 'PROP-TEST-001', role: 'paying-app', requirements: ['DRV-VALID-1'] } as unknown as Scenario;
  return { ctx: new ScenarioContext(target, scenario, () => 'MUST'), reads: () => reads };
}

describe('refusalOf', () => {
  it('charges CPR-EXT-1 when the CPR is read without its extensions', async () => {
    const { ctx } = withApp((doc) => doc.extensions !== undefined);
    expect(await refusalOf(ctx, CPR, [])).toEqual(['CPR-EXT-1']);
  });

  it('charges SUB-OPEN-1 when an open-list code of the spec examples is read', async () => {
    const { ctx } = withApp((doc) => doc.payee.rail_address.key_type !== 'CPF');
    expect(await refusalOf(ctx, CPR, [])).toEqual(['SUB-OPEN-1']);
  });

  it('charges DRV-VALID-1 when no difference is read, and what the property added when the CPR alone is', async () => {
    expect(await refusalOf(withApp(() => true).ctx, CPR, ['DRV-OPEN-1'])).toEqual(['DRV-VALID-1']);
    const alone = withApp(() => false);
    expect(await refusalOf(alone.ctx, CPR, ['DRV-OPEN-1'])).toEqual(['DRV-OPEN-1']);
    expect(alone.reads()).toBe(1);
  });
});
