// Messages with exactly one corruption (corruptions.ts), with the Operator state
// the expected answer assumes (`priorIds` recorded, `prior` messages accepted
// first; the pack is the Operator's own, ACTIVE, and the Principal registered with
// enough balance).
import fc from 'fast-check';
import { resolve, type CashpackConstraints } from './constraints.ts';
import { CORRUPTION_KINDS, CORRUPTION_STATUS, CORRUPTIONS, type CashpackCase, type CashpackMessageKind, type CorruptedMessage, type CorruptionEntry, type CorruptionKind } from './corruptions.ts';
import { validLockRequest } from './lock-request.ts';
import { packSetup, type PackSetup } from './packs.ts';
import { redeemCase, renewCase, renewDepths } from './renew-redeem.ts';

const MESSAGE_KINDS: readonly CashpackMessageKind[] = ['lock-request', 'renew-request', 'redeem-request'];

export interface CorruptedMessageConstraints extends CashpackConstraints {
  /** Only these corruptions. @defaultValue every corruption */
  readonly corruptions?: readonly CorruptionKind[];
  /** Only these message kinds. @defaultValue every kind the corruptions apply to */
  readonly kinds?: readonly CashpackMessageKind[];
}

function subset<T extends string>(fn: string, name: string, value: readonly T[] | undefined, all: readonly T[]): readonly T[] {
  if (value === undefined) return all;
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => !all.includes(v))) {
    throw new RangeError(`${fn}: constraints.${name} must be a non-empty subset of ${all.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Messages with exactly one corruption (see the header). Throws RangeError at construction for a bad constraint. */
export function corruptedMessage(constraints: CorruptedMessageConstraints = {}): fc.Arbitrary<CorruptedMessage> {
  const fn = 'corruptedMessage';
  const r = resolve(fn, constraints);
  const wanted = subset(fn, 'corruptions', constraints.corruptions, CORRUPTION_KINDS);
  let kinds = subset(fn, 'kinds', constraints.kinds, MESSAGE_KINDS);
  const max = BigInt(r.policy.max_amount);
  const possible = (c: CorruptionEntry) => c.corruption !== 'amount-over-limit' || max < 10n ** 78n - 1n;
  if (r.policy.max_chain_depth < 1) kinds = kinds.filter((k) => k !== 'renew-request');
  const pairs = CORRUPTIONS.filter((c) => wanted.includes(c.corruption) && possible(c)).flatMap((c) => c.kinds.filter((k) => kinds.includes(k)).map((k) => [c, k] as const));
  if (pairs.length === 0) throw new RangeError(`${fn}: constraints.corruptions and constraints.kinds leave nothing to generate with this policy`);

  const lock = validLockRequest(constraints);
  const renewSetups = r.policy.max_chain_depth >= 1 ? packSetup(r, renewDepths(fn, r)) : undefined;
  const redeemSetups = packSetup(r, { min: 0, max: r.maxPrior });
  return fc.constantFrom(...pairs).chain(([c, kind]) => {
    const bases: fc.Arbitrary<{ base: CashpackCase; setup?: PackSetup }> =
      kind === 'lock-request'
        ? lock.map((base) => ({ base }))
        : (kind === 'renew-request' ? renewSetups! : redeemSetups).map((setup) => ({ setup, base: kind === 'renew-request' ? renewCase(setup, r) : redeemCase(setup, r) }));
    return bases.chain(({ base, setup }) =>
      c.apply(base, setup, r).map((o): CorruptedMessage => {
        const prior = o.prior ?? [];
        const basePrior = base.kind === 'lock-request' ? [] : base.priorIds;
        return {
          kind,
          corruption: c.corruption,
          variant: o.variant,
          description: o.description,
          expected: { code: c.code, status: CORRUPTION_STATUS[c.code] },
          message: o.message,
          base,
          prior,
          priorIds: [...basePrior, ...prior.map((p) => p.request_id)],
        };
      }),
    );
  });
}
