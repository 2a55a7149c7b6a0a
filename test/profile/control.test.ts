// The test-control vocabulary (PROFILE.md §12) has one owner, profile/control.ts:
// the reference answers with it and every schema and document that names it
// says the same.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CAPABILITIES, IDENTITY_LEVELS, isIdentityLevel, payeeRequestAllowed } from '../../profile/control.ts';
import { Clock } from '../../reference/clock.ts';
import { createControlHandler } from '../../reference/control.ts';
import policySchema from '../../profile/schemas/cashpack/policy.schema.json' with { type: 'json' };
import targetSchema from '../../harness/target/target.schema.json' with { type: 'json' };
import scenarioSchema from '../../suites/scenario.schema.json' with { type: 'json' };

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the test-control vocabulary', () => {
  it('is what the reference lists at GET /_control/capabilities', async () => {
    const handler = createControlHandler(new Clock(() => 0));
    const answer = await handler({ method: 'GET', path: '/_control/capabilities', query: new URLSearchParams(), headers: new Headers(), body: new Uint8Array(), authority: 'x', tls: false } as never);
    expect(answer.status).toBe(200);
    expect((answer.body as { capabilities: unknown }).capabilities).toEqual([...CAPABILITIES]);
  });

  it('is what the target-file schema accepts and tells the user', () => {
    const def = targetSchema.$defs.capabilities;
    expect(def.else.items.enum).toEqual([...CAPABILITIES]);
    const listed = CAPABILITIES.join(', ');
    expect(def['x-expected']).toContain(listed);
    expect(def.then['x-expected']).toContain(listed);
    expect(def.else.items['x-expected']).toContain(listed);
  });

  it('is what the scenario schema accepts under needs', () => {
    expect(scenarioSchema.$defs.capability.enum).toEqual([...CAPABILITIES]);
  });

  it('is what PROFILE.md §12 publishes', () => {
    expect(read('PROFILE.md')).toContain(`"capabilities": [${CAPABILITIES.map((c) => `"${c}"`).join(', ')}]`);
  });

  it('bounds identity levels as the policy schema and PROFILE.md do', () => {
    const level = policySchema.properties.required_identity_level;
    expect([level.minimum, level.maximum]).toEqual([IDENTITY_LEVELS.min, IDENTITY_LEVELS.max]);
    expect(read('PROFILE.md')).toContain(`"identity_level": ${IDENTITY_LEVELS.min}..${IDENTITY_LEVELS.max}`);
    expect([-1, 0, 3, 4, 1.5, '2'].map(isIdentityLevel)).toEqual([false, true, true, false, false, false]);
  });
});

describe('payeeRequestAllowed: what PROFILE.md §12 lets a payee be asked for', () => {
  it('takes extensions as an object only, and an optional member left out but never sent as null', () => {
    expect(payeeRequestAllowed({ sub_interface: 'IBAN', extensions: { 'com.example.a': 1 } })).toBe(true);
    for (const extensions of [null, [], 'x', 5]) expect(payeeRequestAllowed({ sub_interface: 'IBAN', extensions }), JSON.stringify(extensions)).toBe(false);
    for (const member of ['amount', 'memo', 'display_name', 'rail_hint', 'extensions']) expect(payeeRequestAllowed({ sub_interface: 'IBAN', [member]: null }), member).toBe(false);
  });
});
