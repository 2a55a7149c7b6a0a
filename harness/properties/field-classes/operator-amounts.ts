// PROP-OP-013: amounts and balances are computed exactly (PROFILE.md §1, §5
// issue steps 7 and 9, §12): a Principal provisioned with a balance beyond
// 2^53 reads it back digit for digit; a Lock Request at, one below and one
// above the Operator's own max_amount, and at and one above the Principal's
// balance, is answered as the profile orders the two limits; amounts beyond
// 2^53 are compared exactly; what is locked leaves the available balance to
// the unit. A balance not written as the profile writes amounts is refused, or
// at least never read back in another form.
import fc from 'fast-check';
import { isBalance } from '../../../profile/amount.ts';
import { buildLockRequest, createSigningKey, type SigningKey } from '../../../profile/cashpack/index.ts';
import { amountVariant, type ClassValue } from '../../../generators/classes/index.ts';
import type { ScenarioContext } from '../../scenarios/context.ts';
import { jsonRequest, send } from '../../scenarios/http.ts';
import { define } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { answerOf, balanceOf, lifetimeSeconds, operatorNow, operatorSetup, provisionPrincipal, type OperatorSetup } from './operator-setup.ts';
import { restoreClock } from './clock.ts';

const FILE = 'harness/properties/field-classes/operator-amounts.ts';

interface AmountCase {
  readonly balance: ClassValue<unknown>;
  /** Drawn around the Operator's max_amount at check time. */
  readonly boundSeed: number;
  readonly large: ClassValue<unknown>;
  readonly malformed: ClassValue<unknown>;
  /** The second Principal's balance, a fraction of max_amount (per mille, at least 1 unit). */
  readonly smallPerMille: number;
}

const COVERS: Coverage[] = [
  { field: 'control:principal/balance', class: 'amount.large' },
  { field: 'control:principal/balance', class: 'amount.non-canonical' },
  { field: 'lock-request/amount', class: 'amount.large' },
  { field: 'lock-request/amount', class: 'amount.bound' },
];

const cases: fc.Arbitrary<AmountCase> = fc.record({
  balance: amountVariant({ class: 'amount.large' }),
  boundSeed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  large: amountVariant({ class: 'amount.large' }),
  malformed: amountVariant({ class: 'amount.non-canonical' }).filter((v) => v.value !== '0'),
  smallPerMille: fc.integer({ min: 1, max: 1000 }),
});

async function judgeCase(ctx: ScenarioContext, setup: OperatorSetup, c: AmountCase): Promise<PropertyFailure | undefined> {
  const { policy } = setup;
  const max = BigInt(policy.max_amount);
  const now = await operatorNow(ctx);
  const lock = (principal: SigningKey, amount: string) =>
    send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', buildLockRequest({ principal, amount, asset: setup.asset as never, initialBearer: createSigningKey().jwk, requested_expiry: now + lifetimeSeconds(policy) * 1000, created_at: now })));

  // A balance beyond 2^53, read back exactly.
  const p = createSigningKey();
  const balance = BigInt(c.balance.value as string);
  await provisionPrincipal(ctx, p, balance.toString(), policy, setup.asset);
  const read = await balanceOf(ctx, p);
  if (read.available !== balance.toString()) return { expected: { available: balance.toString() }, actual: read, message: `a Principal provisioned with ${balance} (${c.balance.note})`, requirements: ['PRF-AMT-1', 'PRF-CTL-1'] };

  // Lock Requests at the Operator's max_amount and beyond 2^53, answered in the profile's order, locked to the unit.
  const bound = fc.sample(amountVariant({ class: 'amount.bound', bound: max }), { seed: c.boundSeed, numRuns: 1 })[0]!;
  let available = balance;
  let locked = 0n;
  for (const [amount, note] of [[BigInt(bound.value as string), bound.note], [BigInt(c.large.value as string), `${c.large.note}, max_amount ${max}`]] as const) {
    const expected = amount > max ? 'AMOUNT_EXCEEDS_LIMIT' : amount > available ? 'INSUFFICIENT_BALANCE' : 200;
    const answer = await lock(p, amount.toString());
    const seen = answerOf(answer);
    if (seen !== expected) {
      const limit = expected === 'AMOUNT_EXCEEDS_LIMIT' || seen === 'AMOUNT_EXCEEDS_LIMIT';
      return { expected, actual: { status: answer.status, body: answer.body }, message: `a Lock Request for ${amount} (${note}) from a balance of ${available}`, requirements: limit ? ['PRF-BOUND-1', 'PRF-AMT-1'] : ['CPP-BAL-1', 'PRF-BOUND-1', 'PRF-AMT-1'] };
    }
    if (expected === 200) [available, locked] = [available - amount, locked + amount];
  }
  const after = await balanceOf(ctx, p);
  if (after.available !== available.toString() || after.locked !== locked.toString()) {
    // An available balance untouched by what was granted: nothing was locked, whatever the amounts (CPP-FND-1); anything else may be an amount computed inexactly too.
    const untouched = locked > 0n && after.available === balance.toString();
    return { expected: { available: available.toString(), locked: locked.toString() }, actual: after, message: `the balance of ${balance} after locking what was issued`, requirements: untouched ? ['CPP-FND-1'] : ['CPP-FND-1', 'PRF-AMT-1'] };
  }

  // A balance at the limit of what it can lock: one unit more is refused, the whole of it is locked.
  const q = createSigningKey();
  const small = (max * BigInt(c.smallPerMille)) / 1000n || 1n;
  await provisionPrincipal(ctx, q, small.toString(), policy, setup.asset);
  for (const [amount, expected] of [[small + 1n, small + 1n > max ? 'AMOUNT_EXCEEDS_LIMIT' : 'INSUFFICIENT_BALANCE'], [small, 200]] as const) {
    const answer = await lock(q, amount.toString());
    if (answerOf(answer) !== expected) return { expected, actual: { status: answer.status, body: answer.body }, message: `a Lock Request for ${amount} from a balance of ${small}`, requirements: ['CPP-BAL-1', 'PRF-BOUND-1'] };
  }

  // A balance written otherwise than as an amount: refused, or read back as one.
  const r = createSigningKey();
  const provisioned = await send(ctx, 'operator', jsonRequest('POST', '/_control/operator/principals', { public_key: r.jwk, asset: policy.assets[0], balance: c.malformed.value }));
  if (provisioned.status !== null && provisioned.status >= 200 && provisioned.status < 300) {
    const back = await balanceOf(ctx, r);
    if (!isBalance(back.available)) return { expected: 'a refusal, or a balance read back as an amount', actual: back, message: `a Principal provisioned with the balance ${JSON.stringify(c.malformed.value)} (${c.malformed.note})`, requirements: ['PRF-AMT-1', 'PRF-CTL-1'] };
  }
  return undefined;
}

export const OPERATOR_AMOUNTS = define<AmountCase>({
  id: 'PROP-OP-013',
  title: "amounts and balances are exact beyond 2^53, and every Lock Request at and around the Operator's max_amount and the Principal's balance is answered as the profile orders the two limits",
  // Not CPP-LIM-1: where max_amount is the largest amount there is, nothing lies above it (its scenarios say so), and a property passes all its requirements alike.
  requirements: ['CPP-FND-1', 'CPP-BAL-1', 'PRF-AMT-1', 'PRF-BOUND-1', 'PRF-CTL-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §1', 'PROFILE §5', 'PROFILE §12', '§7.1', '§8'],
  needs: ['provision', 'balance'],
  // Its setup freezes the Operator's clock under a tight policy (operator-setup.ts).
  shares: 'clock-if-tight-policy',
  defaultRuns: 10,
  caseWeight: 2,
  file: FILE,
  // The clock, frozen by the setup under a tight policy, runs again.
  teardown: (ctx) => restoreClock(ctx, 'operator'),
  covers: COVERS,
  arbitrary: () => cases,
  async check(ctx, c) {
    return judgeCase(ctx, await operatorSetup(ctx), c);
  },
});
