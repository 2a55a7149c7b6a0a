// PROP-PAYEE-014: every request a payee creates gets a request_id of its own
// (spec §4.7.3, CPR-ID-1) and a token of its own (PROFILE.md §10: at least 128
// random bits), however the creations come: with the payee's clock frozen,
// each case creates one to four batches of one to four requests, a batch's
// requests released together and the batches one after another, each batch
// at one of three instants the property keeps (its first, a millisecond and a
// second later), so that the clock stands still, moves on and comes back to
// an instant it created requests at before; each request either the same as a template
// (sub-interface, amount, memo) or varied in any of them. No id and no token
// may repeat within the property's cases, nor an id repeat one the payee gave
// any other creation of the run (every test's, runner/guard.ts): an id made
// from the instant and the input, a counter read and written back around a
// store's round trip, a counter kept per sub-interface or per instant, a
// token derived from the request, each repeats in some of these sequences.
import fc from 'fast-check';
import { SUB_INTERFACES } from '../../profile/cpr/fields.ts';
import { control } from '../scenarios/actions/index.ts';
import type { ScenarioContext } from '../scenarios/context.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { clockBefore, restoreClock, setClock } from './field-classes/clock.ts';

const FILE = 'harness/properties/payee-ids.ts';

/** What a request asks for: the template's, or with any of its members changed. */
interface Ask {
  readonly sub: (typeof SUB_INTERFACES)[number] | undefined;
  readonly amount: string | null | undefined;
  readonly memo: string | null | undefined;
}

/** A batch: its requests, and the instant they are created at, milliseconds after the property's first. */
interface Batch {
  readonly asks: readonly Ask[];
  readonly shiftMs: (typeof SHIFTS)[number];
}

type Case = readonly Batch[];

const SHIFTS = [0, 1, 1000] as const;

const TEMPLATE = { sub_interface: 'INSTANT_KEY', amount: '1250', memo: 'same instant' } as const;

/** undefined: the template's value; null: the member left out. */
const ask: fc.Arbitrary<Ask> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ sub: undefined, amount: undefined, memo: undefined }) },
  fc.record({
    sub: fc.option(fc.constantFrom(...SUB_INTERFACES), { nil: undefined }),
    amount: fc.constantFrom(undefined, null, '1', '1250', '12345678901234567890123'),
    memo: fc.constantFrom(undefined, null, 'same instant', 'another memo', 'Ünïcödé memo'),
  }),
);

const cases: fc.Arbitrary<Case> = fc.array(fc.record({ asks: fc.array(ask, { minLength: 1, maxLength: 4 }), shiftMs: fc.constantFrom(...SHIFTS) }), { minLength: 1, maxLength: 4 });

function bodyOf(a: Ask): Record<string, string> {
  const body: Record<string, string> = { sub_interface: a.sub ?? TEMPLATE.sub_interface };
  const amount = a.amount === undefined ? TEMPLATE.amount : a.amount;
  const memo = a.memo === undefined ? TEMPLATE.memo : a.memo;
  if (amount !== null) body['amount'] = amount;
  if (memo !== null) body['memo'] = memo;
  return body;
}

/** Every request_id and token the property's cases were given, with the request that got it. */
const seen = new WeakMap<ScenarioContext, { ids: Map<string, string>; tokens: Map<string, string> }>();

async function judgeCase(ctx: ScenarioContext, c: Case): Promise<PropertyFailure | undefined> {
  const at = await clockBefore(ctx, 'payee');
  let given = seen.get(ctx);
  if (!given) seen.set(ctx, (given = { ids: new Map(), tokens: new Map() }));
  const story = `the clock frozen at ${new Date(at).toISOString()}, a millisecond or a second after it, ${given.ids.size} requests created before this case; this case's batches ${c.map((b) => `${b.asks.length} at +${b.shiftMs} ms`).join(', ')}`;
  for (const [b, batch] of c.entries()) {
    await setClock(ctx, 'payee', at + batch.shiftMs);
    const bodies = batch.asks.map(bodyOf);
    const answers = (await Promise.all(bodies.map((body) => control(ctx, 'payee', 'POST', '/_control/payee/requests', body)))) as { request_id?: unknown; cpr?: { request_id?: unknown }; token?: unknown }[];
    for (const [i, answer] of answers.entries()) {
      const what = `request ${i + 1} of batch ${b + 1} (${JSON.stringify(bodies[i])})`;
      const id = answer.cpr?.request_id ?? answer.request_id;
      if (typeof id === 'string') {
        const before = given.ids.get(id);
        if (before !== undefined) return { expected: 'a request_id of its own', actual: { request_id: id, also_given_to: before }, message: `${story}: ${what}`, requirements: ['CPR-ID-1'] };
        // Any creation of the run, by any test: globally unique (spec §4.7.3).
        const inRun = ctx.target.createdRequests?.get(id);
        if (inRun !== undefined && inRun.times > 1) return { expected: 'a request_id of its own', actual: { request_id: id, also_given_to: `a request created earlier in this run with ${inRun.first}` }, message: `${story}: ${what}`, requirements: ['CPR-ID-1'] };
        given.ids.set(id, what);
      }
      if (typeof answer.token === 'string') {
        const before = given.tokens.get(answer.token);
        if (before !== undefined) return { expected: 'a token of its own', actual: { token: answer.token, also_given_to: before }, message: `${story}: ${what}`, requirements: ['PRF-TOK-1'] };
        given.tokens.set(answer.token, what);
      }
    }
  }
  return undefined;
}

export const PAYEE_IDS = define<Case>({
  id: 'PROP-PAYEE-014',
  title: 'the payee gives every request its own request_id and token, created in generated batches released together at instants the clock leaves and comes back to, the same request or varied',
  requirements: ['CPR-ID-1', 'PRF-TOK-1', 'PRF-CTL-1'],
  level: 'MUST',
  role: 'payee',
  sections: ['§4.7.3', 'PROFILE §10', 'PROFILE §12'],
  needs: ['provision', 'clock'],
  // It freezes the payee's clock.
  shares: 'clock',
  defaultRuns: 5,
  file: FILE,
  arbitrary: () => cases,
  check: judgeCase,
  teardown: (ctx) => restoreClock(ctx, 'payee'),
});
