// The ways to switch a mutant on from outside the reference: startReference's
// `mutant` option (serve --mutant) and the module adapter's `settings.mutant`.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../reference/adapter.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';

interface AppRole {
  read(input: unknown): Promise<{ ok: boolean; code?: string }>;
  close(): Promise<void>;
}

const CPR_2 = {
  cpr_version: 'CPR-2.0',
  request_id: '4e1f7a2c-9b3d-4c5e-8f6a-0b1c2d3e4f50',
  created_at: '2030-01-01T00:00:00Z',
  expires_at: '2099-01-01T00:00:00Z',
  payee: { rail_address: { iban: 'DE89370400440532013000' } },
  value: { amount: '1250', asset: { type: 'fiat', code: 'EUR' } },
  beneficiary_name: 'Beispiel Buchhandlung GmbH',
};

describe('startReference({ mutant })', () => {
  let correct: RunningReference;
  let mutant: RunningReference;
  beforeAll(async () => {
    [correct, mutant] = await Promise.all([startReference(), startReference({ mutant: 'payee-serves-plaintext' })]);
  });
  afterAll(async () => {
    await Promise.all([correct?.close(), mutant?.close()]);
  });

  it('rejects an unknown mutant name before it listens', async () => {
    await expect(startReference({ mutant: 'no-such-mutant' })).rejects.toThrow(/unknown mutant "no-such-mutant"/);
  });

  it('reports the mutant it runs, and none for the correct reference', () => {
    expect(mutant.mutant).toBe('payee-serves-plaintext');
    expect(correct.mutant).toBeUndefined();
  });

  it('switches the fault on in the running payee: a CPR over plaintext', async () => {
    const statusOver = async (ref: RunningReference) => {
      const { token } = await ref.payee.createRequest({ sub_interface: 'IBAN', amount: '1250' });
      const response = await request(`${ref.plaintextUrl}/cpr/${token}`);
      await response.body.dump();
      return response.statusCode;
    };
    expect(await statusOver(correct)).toBe(403);
    expect(await statusOver(mutant)).toBe(200);
  });
});

describe("the module adapter's settings.mutant", () => {
  it('rejects an unknown mutant name', () => {
    expect(() => createRole({ role: 'paying-app', settings: { mutant: 'no-such-mutant' } })).toThrow(/unknown mutant/);
    expect(() => createRole({ role: 'paying-app', settings: { mutant: 7 } })).toThrow(TypeError);
  });

  it('switches the fault on in the role it creates', async () => {
    const correct = createRole({ role: 'paying-app', settings: {} }) as AppRole;
    const mutant = createRole({ role: 'paying-app', settings: { mutant: 'app-version-unchecked' } }) as AppRole;
    try {
      expect(await correct.read({ kind: 'object', value: CPR_2 })).toMatchObject({ ok: false, code: 'CPR_VERSION_UNSUPPORTED' });
      expect(await mutant.read({ kind: 'object', value: CPR_2 })).toMatchObject({ ok: true });
    } finally {
      await Promise.all([correct.close(), mutant.close()]);
    }
  });
});
