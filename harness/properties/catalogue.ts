// The properties a run executes besides the scenarios (issue 5): each checks a
// rule over generated inputs, against any target, through the adapters.
import fc from 'fast-check';
import { findPayerMembers, validateCpr } from '../../profile/cpr/index.ts';
import { ACTION_IMPLEMENTATIONS } from '../scenarios/actions.ts';
import type { HttpResult } from '../scenarios/context.ts';
import { send } from '../scenarios/http.ts';
import type { PropertyDefinition } from './types.ts';

const define = <T>(def: PropertyDefinition<T>): PropertyDefinition => def as unknown as PropertyDefinition;

/** What a harness may ask a payee to put into a request (PROFILE.md §12), payer-free by construction. */
const requestInput = () =>
  fc.record(
    {
      sub_interface: fc.constantFrom('ON_CHAIN', 'IBAN', 'ACCOUNT', 'INSTANT_KEY'),
      amount: fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String),
      memo: fc.string({ unit: 'grapheme', maxLength: 40 }).filter((m) => [...m].length <= 140),
      extensions: fc.dictionary(fc.constantFrom('std:note', 'com.example.order', 'org.example.tag'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
    },
    { requiredKeys: ['sub_interface'] },
  );

export const PROPERTIES: readonly PropertyDefinition[] = [
  define({
    id: 'PROP-PAYEE-001',
    title: 'the payee never serves payer data and always serves a valid CPR, whatever it is asked to put in a request',
    requirements: ['CPR-PAYER-1', 'TOK-GET-1'],
    level: 'MUST',
    role: 'payee',
    sections: ['§4.7.1', '§4.8'],
    needs: ['provision'],
    defaultRuns: 25,
    arbitrary: requestInput,
    async check(ctx, input) {
      const created = (await ACTION_IMPLEMENTATIONS['create-request'](ctx, { with: input })) as { token: string };
      const served: HttpResult = await send(ctx, 'payee', { method: 'GET', path: `/cpr/${created.token}` });
      if (served.status !== 200) return { expected: 200, actual: served.status, message: 'the first retrieval must return the CPR' };
      const payer = findPayerMembers(served.body);
      if (payer.length > 0) return { expected: 'no payer members', actual: payer, message: 'the served CPR carries payer data' };
      const valid = validateCpr(served.body);
      if (!valid.ok) return { expected: 'a valid CPR', actual: valid.violations, message: 'the served CPR is not valid' };
      return undefined;
    },
  }),
];

export function findProperty(id: string): PropertyDefinition | undefined {
  return PROPERTIES.find((p) => p.id === id);
}
