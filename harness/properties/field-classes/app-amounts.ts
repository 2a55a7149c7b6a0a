// PROP-APP-013: the payer's amount on the derivation path (spec §4.6.3-4,
// §4.7.5; PROFILE.md §1 "computed exactly"): for a request with an amount,
// only that amount is paid, and an offer one unit either side of it, or any
// other amount beyond 2^53, is refused; an open request pays the payer's
// amount exactly, however large; an amount not in the profile's form is never
// paid. Half the cases derive with a conversion in the context (another asset,
// half of those sharing the requested asset's code on another chain or of
// another type; another amount; a rate of every decimal class): disclosed in
// the Payment's context as given, and never replacing the value (§4.6.2,
// §4.7.5; PROFILE.md §9), so the amounts paid and refused are the same. Each
// refused offer is also derived with a supported_rails that leaves out the
// request's hinted rail: the rail is selected before the value is built (§4.5,
// steps in order), so it is RAIL_UNSUPPORTED, never the amount's code.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { recodedAssets } from '../../../generators/cashpack/assets.ts';
import type { AssetDescriptor } from '../../../profile/cashpack/types.ts';
import { isRailHint, RAIL_HINTS } from '../../../profile/cpr/fields.ts';
import { validCpr } from '../../../generators/index.ts';
import { amountVariant, type ClassValue } from '../../../generators/classes/index.ts';
import { CONTEXT, crashed, define, derive, firstFailure, FUTURE, refusalOf, REFUSAL_RULES } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';

const FILE = 'harness/properties/field-classes/app-amounts.ts';

type Doc = Record<string, unknown>;

interface Offer {
  readonly class: 'amount.large' | 'amount.non-canonical' | 'amount.bound';
  readonly requested: string | undefined;
  readonly offered: ClassValue<unknown>;
}

interface AmountCase {
  readonly fixed: Doc;
  readonly open: Doc;
  readonly offers: readonly Offer[];
  /** What the payer spends when the application converts (DerivationContext.conversion), or none. */
  readonly conversion: { readonly asset: Doc; readonly amount: string; readonly rate: string } | null;
}

/**
 * A conversion into another asset, or none: one of another code, or (half the
 * time, where there is one) one that shares the requested asset's code but is
 * another asset, of another type or on another chain (assets are compared
 * whole: a conversion into it is still a conversion to disclose).
 */
const conversionFrom = (requested: Doc) => {
  const recoded = recodedAssets([requested as unknown as AssetDescriptor]) as unknown as Doc[];
  const others = fc.constantFrom<Doc>({ type: 'fiat', code: 'USD' }, { type: 'stablecoin', code: 'USDC', chain_id: '1' }, { type: 'crypto', code: 'BTC' });
  return fc.option(
    fc.record({
      asset: recoded.length > 0 ? fc.oneof(others, fc.constantFrom(...recoded)) : others,
      amount: fc.bigInt({ min: 1n, max: 10n ** 40n }).map(String),
      rate: decimalRate,
    }),
    { nil: null },
  );
};

/**
 * A rate as the Payment schema writes one (`^(0|[1-9][0-9]*)(\.[0-9]+)?$`), in
 * every class a number type loses: a whole number, a fraction with zeros
 * before its digits (down to 10^-12) and after them, and more significant
 * digits than a double holds (up to 24 before the point and 20 after), and
 * one at par (1, 1.0, 1.00, ...) a case in five. It is disclosed as given, never as
 * a number read back.
 */
const decimalRate = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 24n }).map(String)),
        fc.option(fc.tuple(fc.nat({ max: 12 }), fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.nat({ max: 3 })), { nil: undefined }),
      )
      .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${'0'.repeat(fraction[0])}${fraction[1]}${'0'.repeat(fraction[2])}`))
      .filter((rate) => rate !== '0'),
  },
  // At par, with any number of zeros after the point (none, or no point): a conversion all the same, disclosed as every other.
  { weight: 1, arbitrary: fc.option(fc.nat({ max: 20 }), { nil: undefined }).map((zeros) => (zeros === undefined ? '1' : `1.${'0'.repeat(zeros + 1)}`)) },
);

const COVERS: Coverage[] = [
  ...(['amount.large', 'amount.non-canonical', 'amount.bound'] as const).map((cls) => ({ field: 'derivation-context/payer_amount', class: cls })),
];

const withAmount = (cpr: Doc, amount: string | undefined): Doc => ({ ...cpr, value: { ...(cpr.value as Doc), ...(amount === undefined ? {} : { amount }) } });

const cases: fc.Arbitrary<AmountCase> = fc
  .tuple(
    validCpr({ now: FUTURE, amount: 'open', maxExtensionKeys: 0 }).map((c) => c as unknown as Doc),
    amountVariant({ class: 'amount.large' }),
    amountVariant({ class: 'amount.large' }),
    amountVariant({ class: 'amount.non-canonical' }),
  )
  .chain(([cpr, requested, other, malformed]) =>
    fc.tuple(amountVariant({ class: 'amount.bound', bound: BigInt(requested.value as string) }), conversionFrom((cpr.value as Doc).asset as Doc)).map(([bound, converted]) => {
      const fixed = withAmount(cpr, requested.value as string);
      const offers: Offer[] = [
        { class: 'amount.bound', requested: requested.value as string, offered: bound },
        { class: 'amount.large', requested: requested.value as string, offered: other },
        { class: 'amount.large', requested: undefined, offered: other },
        { class: 'amount.non-canonical', requested: requested.value as string, offered: malformed },
        { class: 'amount.non-canonical', requested: undefined, offered: malformed },
      ];
      return { fixed, open: cpr, offers, conversion: converted };
    }),
  );

/**
 * A refused offer to a request whose hinted rail the context's supported_rails
 * leaves out: the rail is selected before the value is built (spec §4.5, steps
 * in order: 2 before 4), so the refusal is RAIL_UNSUPPORTED, as PROP-APP-012
 * wants for that rail alone, never the amount's code.
 */
async function railFirst(ctx: Parameters<typeof derive>[0], cpr: Doc, context: Doc, where: string): Promise<PropertyFailure | undefined> {
  const hint = cpr.rail_hint;
  if (!isRailHint(hint) || hint === 'OPEN') return undefined;
  const rails = RAIL_HINTS.filter((r) => r !== hint && r !== 'OPEN');
  const result = await derive(ctx, cpr, { ...context, supported_rails: rails } as never);
  if (!crashed(result) && !result.ok && result.code === 'RAIL_UNSUPPORTED') return undefined;
  const seen = crashed(result) ? { crashed: result.message } : result.ok ? 'a Payment' : { code: result.code };
  return { expected: { rejected: 'RAIL_UNSUPPORTED' }, actual: seen, message: `${where}, derived with supported_rails ${JSON.stringify(rails)}, its hinted rail ${hint} left out: the rail is selected before the value is built (spec §4.5)`, requirements: ['DRV-RAIL-1'] };
}

export const APP_AMOUNTS = define<AmountCase>({
  id: 'PROP-APP-013',
  title: "the payer's amount is taken exactly: the requested amount only, never one unit either side or any other beyond 2^53; an open amount carried as given; a malformed one never paid",
  requirements: ['DRV-PARTIAL-1', 'DRV-VALUE-1', 'DRV-OPEN-1', 'DRV-CONV-1', 'DRV-RAIL-1'],
  charges: () => REFUSAL_RULES,
  level: 'MUST',
  role: 'paying-app',
  sections: ['§4.6.3', '§4.6.4', '§4.7.5', 'PROFILE §1'],
  needs: [],
  defaultRuns: 20,
  caseWeight: 2,
  file: FILE,
  covers: COVERS,
  arbitrary: () => cases,
  async check(ctx, c) {
    return firstFailure(ctx, c.offers, 5, async (offer): Promise<PropertyFailure | undefined> => {
      const cpr = offer.requested === undefined ? c.open : c.fixed;
      const result = await derive(ctx, cpr, { ...CONTEXT, payer_amount: offer.offered.value as string, ...(c.conversion === null ? {} : { conversion: c.conversion }) });
      const canonical = typeof offer.offered.value === 'string' && /^[1-9][0-9]{0,77}$/.test(offer.offered.value);
      // Paid exactly when the offer is an amount and, for a fixed request, the requested one.
      const paid = canonical && (offer.requested === undefined || offer.offered.value === offer.requested);
      const amount = !crashed(result) && result.ok ? ((result.payment as Doc | undefined)?.value as Doc | undefined)?.amount : undefined;
      const where = `${offer.requested === undefined ? 'an open request' : `a request for ${offer.requested}`}, the payer offering ${JSON.stringify(offer.offered.value)} (${offer.offered.note})${c.conversion === null ? '' : `, converted to ${c.conversion.amount} ${JSON.stringify(c.conversion.asset)} at the rate ${c.conversion.rate}`}`;
      if (paid && amount === offer.offered.value) {
        // The conversion is disclosed as the application's own context: what the payer spends, never in place of the value (PROFILE.md §9).
        const disclosed = !crashed(result) && result.ok ? ((result.payment as Doc | undefined)?.context as Doc | undefined)?.conversion : undefined;
        if (c.conversion === null || isDeepStrictEqual(disclosed, { ...c.conversion, disclosed: true })) return undefined;
        return { expected: { context: { conversion: { ...c.conversion, disclosed: true } } }, actual: { context: { conversion: disclosed ?? null } }, message: `${where}: the conversion in the Payment's context`, requirements: ['DRV-CONV-1'] };
      }
      if (!paid && !crashed(result) && !result.ok) return railFirst(ctx, cpr, { ...CONTEXT, payer_amount: offer.offered.value as string }, where);
      return {
        expected: paid ? { amount: offer.offered.value } : 'refused',
        actual: crashed(result) ? { crashed: result.message } : result.ok ? { amount } : { code: result.code, message: result.message },
        message: where,
        // A payment refused: when the request itself is refused, that is a refusal of a valid CPR.
        requirements: paid && !crashed(result) && !result.ok ? await refusalOf(ctx, cpr, offer.requested === undefined ? ['DRV-OPEN-1'] : ['DRV-VALUE-1']) : offer.requested === undefined ? ['DRV-OPEN-1'] : paid ? ['DRV-VALUE-1'] : ['DRV-PARTIAL-1', 'DRV-VALUE-1'],
      };
    });
  },
});
