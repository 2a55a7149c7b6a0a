// The arbitraries that choose the payee fuzzer's commands (spec.ts). Requests
// of every sub-interface with every optional input present or absent (amounts
// up to 78 digits, around and beyond 2^53; memos and names of any code points
// up to their limits; extensions with any JSON, strings that look like dates or
// numbers among them), sized to the 2 048-byte inline
// bound; retrievals through every channel, with the token itself or strings
// near it, over TLS and plaintext, alone or concurrently; clock moves by whole
// seconds, by the payee's own lifetime and window, and to within a millisecond
// of every instant a request carries; fulfilments, alone and concurrently.
import fc from 'fast-check';
import { matching } from '../../../generators/parts/deferred.ts';
import { isPayerMemberName, SUB_INTERFACES, type SubInterface } from '../../../profile/cpr/index.ts';
import { compatibleRailHints } from '../../../generators/cpr.ts';
import { codePointText } from '../../../generators/parts/text.ts';
import { lookalikeValue } from '../../../generators/classes/index.ts';
import { asData } from '../literal.ts';
import { VIAS, type ClockMove, type PayeeCommand, type PayeeCommandKind, type PayeeSetup, type RequestInput, type TokenVariant } from './spec.ts';

const weighted = <T>(...entries: [fc.Arbitrary<T>, number][]) => fc.oneof(...entries.map(([arbitrary, weight]) => ({ arbitrary, weight })));
const requestIndex = fc.nat(7);
const sub = fc.constantFrom<SubInterface>(...SUB_INTERFACES);
const hexDigit = fc.constantFrom(...'0123456789abcdef');
const hexText = (max: number) => fc.string({ unit: hexDigit, minLength: 1, maxLength: max });

/** Amounts in the smallest unit: small, around 2^53 (where a double stops counting every integer), and up to 78 digits. */
const amount = weighted(
  [fc.bigInt({ min: 1n, max: 10n ** 6n }), 3],
  [fc.bigInt({ min: 2n ** 53n - 2n, max: 2n ** 64n }), 2],
  [fc.bigInt({ min: 10n ** 77n, max: 10n ** 78n - 1n }), 1],
).map(String);

/** Renames payer-named members (PROFILE.md §7.5: a payee never serves them) and writes -0 as 0, which JSON cannot carry. */
function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [isPayerMemberName(k) ? `x-${k}` : k, scrub(v)]));
  return Object.is(value, -0) ? 0 : value;
}

const extensions = fc.dictionary(matching(/^(std:[a-z]{1,8}|com\.example\.[a-z]{1,8})$/), fc.oneof({ weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2, stringUnit: 'grapheme' }).map(scrub) }, { weight: 1, arbitrary: lookalikeValue }), { minKeys: 1, maxKeys: 3, noNullPrototype: true });

const input: fc.Arbitrary<RequestInput> = sub.chain((s) =>
  fc.record(
    {
      sub_interface: fc.constant(s),
      amount,
      memo: codePointText(0, 140),
      rail_hint: fc.constantFrom(...compatibleRailHints(s)),
      display_name: codePointText(1, 140),
      extensions: extensions as fc.Arbitrary<Record<string, unknown>>,
    },
    { requiredKeys: ['sub_interface'] },
  ),
);

const variant: fc.Arbitrary<TokenVariant> = weighted<TokenVariant>(
  [fc.constant('exact'), 8],
  [fc.record({ truncate: fc.integer({ min: 1, max: 31 }) }), 1],
  [fc.record({ extend: hexText(3) }), 1],
  [fc.record({ prefix: hexText(3) }), 1],
  [fc.constant('upper-case'), 1],
  [fc.record({ percent: hexDigit, upperHex: fc.boolean() }), 1],
  [fc.constant('request-id'), 1],
);

const clockMove: fc.Arbitrary<ClockMove> = weighted<ClockMove>(
  [fc.record({ seconds: fc.integer({ min: 1, max: 120 }) }), 2],
  [fc.record({ to: fc.constantFrom('token-expiry' as const, 'request-expiry' as const), of: requestIndex, deltaMs: fc.constantFrom(-1000, -1, 0, 1) }), 4],
  [fc.constantFrom<ClockMove>('token-lifetime', 'request-validity'), 1],
);

/** One arbitrary per command kind, with its weight. */
export const PAYEE_COMMAND_ARBITRARIES: Readonly<Record<PayeeCommandKind, [fc.Arbitrary<PayeeCommand>, number]>> = {
  create: [input.map((i) => ({ kind: 'create' as const, input: i })), 4],
  'create-inline-limit': [fc.record({ kind: fc.constant('create-inline-limit' as const), sub, delta: fc.constantFrom(-1 as const, 0 as const, 1 as const) }), 1],
  retrieve: [
    fc
      .record({
        kind: fc.constant('retrieve' as const),
        request: weighted<number | 'unknown'>([requestIndex, 12], [fc.constant('unknown'), 1]),
        via: fc.constantFrom(...VIAS),
        variant,
        plaintext: weighted<true | undefined>([fc.constant(undefined), 9], [fc.constant(true as const), 1]),
      })
      .map(({ plaintext, ...spec }) => (plaintext ? { ...spec, plaintext } : spec)),
    8,
  ],
  burst: [fc.record({ kind: fc.constant('burst' as const), request: requestIndex, vias: fc.array(fc.constantFrom(...VIAS), { minLength: 2, maxLength: 6 }) }), 2],
  advance: [fc.record({ kind: fc.constant('advance' as const), by: clockMove }), 3],
  fulfil: [fc.record({ kind: fc.constant('fulfil' as const), request: weighted<number | 'unknown'>([requestIndex, 8], [fc.constant('unknown'), 1]) }), 2],
  'fulfil-burst': [fc.record({ kind: fc.constant('fulfil-burst' as const), request: requestIndex, copies: fc.integer({ min: 2, max: 6 }) }), 1],
};

/** A model run's commands. */
export function payeeCommands(maxCommands = 25): fc.Arbitrary<PayeeCommand[]> {
  return fc.array(weighted(...Object.values(PAYEE_COMMAND_ARBITRARIES)).map(asData), { minLength: 1, maxLength: maxCommands, size: 'max' });
}

/** Fresh state: the run's first instant a whole second, or 1, 500 or 999 ms past one. */
export const payeeSetup: fc.Arbitrary<PayeeSetup> = fc.record({ startMs: fc.constantFrom(0, 1, 500, 999) });
