// validCpr: valid Canonical Payment Requests of every sub-interface (spec §2.1-§2.5,
// PROFILE.md §7). Every value passes validateCpr (with and without the
// validity window) and is not expired at `now`.
//
// What varies:
// - sub-interface (ON_CHAIN, IBAN, ACCOUNT, INSTANT_KEY) and, for each, every
//   optional field present or absent; address fields sometimes mirrored at the
//   top level, always equal to payee.rail_address (PROFILE.md §7.4);
// - open and fixed amounts (1 to 78 digits), fiat / stablecoin / crypto /
//   tokenized assets with decimal or CAIP-2 chain ids (equal to the on-chain
//   chain_id for ON_CHAIN requests);
// - rail_hint: ON_CHAIN for ON_CHAIN; otherwise absent, OPEN or a hint whose
//   usual sub-interface is this one (RAIL_HINT_SUB_INTERFACE), and one time in
//   four any other listed off-chain hint (advisory, PROFILE.md §7.4: an IBAN
//   request hinted PIX is still an IBAN request);
// - memo, display_name and the other texts: any code points, including astral
//   characters, combining marks and controls, up to and at their limits;
// - extensions: `std:` and reverse-domain keys, and keys of neither form (allowed:
//   PROFILE.md §7.1 says SHOULD), with arbitrary JSON values (strings
//   that look like dates, numbers or other types among them), never
//   a payer-named member (PROFILE.md §7.5);
// - EVM addresses lower case, upper case or EIP-55; IBANs with correct check
//   digits (DE, FR with its RIB key, GB, NL, AT, CH); BICs; UUID references;
// - timestamps with and without a 1-3 digit fraction; created_at at or before
//   `now`, expires_at after `now` and at most `validitySeconds` after created_at.
import fc from 'fast-check';
import { deferred, matching } from './parts/deferred.ts';
import { BUILT_IN_NAMES } from './parts/built-in-names.ts';
import { lookalikeValue } from './classes/lookalike.ts';
import {
  RAIL_HINTS,
  RAIL_HINT_SUB_INTERFACE,
  SUB_INTERFACES,
  isPayerMemberName,
  isSubInterface,
  type Cpr,
  type RailHint,
  type SubInterface,
} from '../profile/cpr/index.ts';
import { formatTimestamp } from '../profile/time.ts';
import * as R from './parts/rails.ts';
import { codePointText, printableAscii } from './parts/text.ts';

export type AmountKind = 'fixed' | 'open' | 'any';

/** 2026-01-01T00:00:00Z: the default generation instant, so values depend only on the seed. */
export const DEFAULT_NOW = Date.UTC(2026, 0, 1);
/** Latest accepted `now`: four-digit years only (PROFILE.md §1). */
const MAX_NOW = Date.UTC(9999, 0, 1);
/** Spec §2.1, §8: memo length limit in code points. */
export const MEMO_LIMIT = 140;

export interface ValidCprConstraints {
  /** Generate only this sub-interface. @defaultValue every sub-interface, equally likely */
  readonly subInterface?: SubInterface;
  /** 'fixed' (value.amount present), 'open' (absent) or 'any'. @defaultValue 'any' */
  readonly amount?: AmountKind;
  /**
   * The generation instant in ms since the epoch: created_at ≤ now < expires_at.
   * An integer between 0 and 9999-01-01. @defaultValue DEFAULT_NOW (2026-01-01T00:00:00Z)
   */
  readonly now?: number;
  /** The payee's validity window: expires_at − created_at ≤ this. An integer ≥ 1. @defaultValue 900 */
  readonly validitySeconds?: number;
  /** Longest memo in code points, an integer 0..140. @defaultValue 140 */
  readonly maxMemoCodePoints?: number;
  /** Most keys in `extensions`, an integer 0..16 (0: never an extensions member). @defaultValue 3 */
  readonly maxExtensionKeys?: number;
  /**
   * 'any': each optional member present or absent; 'all': every optional member
   * of the sub-interface present (memo, display_name and the rail's optional
   * fields), for checks that follow every member into a derived value. @defaultValue 'any'
   */
  readonly optionalFields?: 'any' | 'all';
}

export type ResolvedCprConstraints = Required<Omit<ValidCprConstraints, 'subInterface'>> & { readonly subInterface?: SubInterface };

const OPTIONAL_FIELDS = ['any', 'all'] as const;

const AMOUNT_KINDS: readonly AmountKind[] = ['fixed', 'open', 'any'];

function integerIn(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`constraints.${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** Applies the defaults and throws RangeError naming the first bad option. */
export function resolveCprConstraints(constraints: ValidCprConstraints = {}): ResolvedCprConstraints {
  const { subInterface, amount = 'any', now = DEFAULT_NOW, validitySeconds = 900, maxMemoCodePoints = MEMO_LIMIT, maxExtensionKeys = 3, optionalFields = 'any' } = constraints;
  if (!OPTIONAL_FIELDS.includes(optionalFields)) throw new RangeError(`constraints.optionalFields must be one of ${OPTIONAL_FIELDS.join(', ')}, got ${String(optionalFields)}`);
  if (subInterface !== undefined && !isSubInterface(subInterface)) {
    throw new RangeError(`constraints.subInterface must be one of ${SUB_INTERFACES.join(', ')}, got ${String(subInterface)}`);
  }
  if (!AMOUNT_KINDS.includes(amount)) throw new RangeError(`constraints.amount must be one of ${AMOUNT_KINDS.join(', ')}, got ${String(amount)}`);
  integerIn('validitySeconds', validitySeconds, 1, 10 * 365 * 86_400);
  integerIn('now', now, validitySeconds * 1000, MAX_NOW);
  integerIn('maxMemoCodePoints', maxMemoCodePoints, 0, MEMO_LIMIT);
  integerIn('maxExtensionKeys', maxExtensionKeys, 0, 16);
  return { ...(subInterface !== undefined ? { subInterface } : {}), amount, now, validitySeconds, maxMemoCodePoints, maxExtensionKeys, optionalFields };
}

type Doc = Record<string, unknown>;
type Fields = Record<string, string | undefined>;

type Maybe = <T>(arb: fc.Arbitrary<T>) => fc.Arbitrary<T | undefined>;
const optional: Maybe = (arb) => fc.option(arb, { nil: undefined, freq: 2 });
const always: Maybe = (arb) => arb;
const name = codePointText(1, 140);
const defined = (fields: Fields): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));

// ------------------------------------------------------------- time (PROFILE.md §1)

/**
 * RFC 3339 UTC with the instant's fraction written in `digits` digits where
 * that many say it exactly (PROFILE.md §1: none, or 1 to 3): a whole second as
 * `:05Z`, `:05.0Z`, `:05.00Z` or `:05.000Z`, half a second as `.5Z`, `.50Z` or
 * `.500Z`; the fewest that do when `digits` is fewer.
 */
function timestamp(ms: number, digits: number): string {
  const text = formatTimestamp(ms, 'cpr').replace(/\.\d+Z$/, 'Z');
  const fraction = String(((ms % 1000) + 1000) % 1000).padStart(3, '0');
  const least = fraction === '000' ? 0 : fraction.replace(/0+$/, '').length;
  const n = Math.max(least, Math.min(3, digits));
  return n === 0 ? text : text.replace(/Z$/, `.${fraction.slice(0, n)}Z`);
}

function times(now: number, validitySeconds: number): fc.Arbitrary<{ created_at: string; expires_at: string }> {
  const windowMs = validitySeconds * 1000;
  const wholeSeconds = fc.integer({ min: 0, max: Math.floor(validitySeconds / 2) }).chain((back) =>
    fc.integer({ min: back + 1, max: validitySeconds }).map((life) => {
      const created = Math.floor(now / 1000) * 1000 - back * 1000;
      return [created, created + life * 1000] as const;
    }),
  );
  const millis = fc.integer({ min: 0, max: Math.floor(windowMs / 2) }).chain((back) =>
    fc.integer({ min: back + 1, max: windowMs }).map((life) => [now - back, now - back + life] as const),
  );
  // Instants at a tenth or a hundredth of a second too, so that fractions of one and two digits are written.
  const rounded = fc.tuple(millis, fc.constantFrom(10, 100)).map(([[created, expires], unit]) => {
    const up = (t: number) => Math.ceil(t / unit) * unit;
    const at = Math.min(up(created), now);
    return [at, Math.max(up(expires), at + unit)] as const;
  }).filter(([created, expires]) => expires > now && expires - created <= windowMs);
  const digits = fc.nat({ max: 3 });
  return fc.tuple(fc.oneof(wholeSeconds, millis, rounded), digits, digits).map(([[created, expires], createdDigits, expiresDigits]) => ({
    created_at: timestamp(created, createdDigits),
    expires_at: timestamp(expires, expiresDigits),
  }));
}

// ------------------------------------------------------------- value (spec §2.3)

const amountArb = fc.oneof(
  { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 10n ** 9n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 10n ** 78n - 1n }) },
).map(String);

function amountFor(kind: AmountKind): fc.Arbitrary<string | undefined> {
  if (kind === 'fixed') return amountArb;
  if (kind === 'open') return fc.constant(undefined);
  return fc.option(amountArb, { nil: undefined, freq: 3 });
}

const anyChainId = fc.oneof(R.evmChainId, R.caip2ChainId);

/** Any valid asset; for other than ON_CHAIN requests (the value and the rail are independent, spec §2.3). */
const offChainAsset: fc.Arbitrary<Doc> = fc.oneof(
  { weight: 6, arbitrary: R.fiatCode.map((code) => ({ type: 'fiat', code })) },
  { weight: 1, arbitrary: fc.tuple(R.fiatCode, anyChainId).map(([code, chain_id]) => ({ type: 'fiat', code, chain_id })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('stablecoin', 'tokenized'), R.tokenCode, anyChainId).map(([type, code, chain_id]) => ({ type, code, chain_id })) },
  { weight: 1, arbitrary: fc.tuple(R.tokenCode, optional(anyChainId)).map(([code, chain_id]) => ({ type: 'crypto', code, ...(chain_id ? { chain_id } : {}) })) },
);

/** ON_CHAIN: a token on the request's chain (PROFILE.md §7.4: the two chain ids agree). */
function onChainAsset(chainId: string): fc.Arbitrary<Doc> {
  return fc.oneof(
    fc.tuple(fc.constantFrom('stablecoin', 'tokenized'), R.tokenCode).map(([type, code]) => ({ type, code, chain_id: chainId })),
    fc.tuple(R.tokenCode, fc.boolean()).map(([code, withChain]) => ({ type: 'crypto', code, ...(withChain ? { chain_id: chainId } : {}) })),
  );
}

// ------------------------------------------------------------- sub-interfaces (spec §2.5, PROFILE.md §7.4)

interface RailPart {
  readonly address: Record<string, string>;
  readonly other: Record<string, string>;
  readonly asset: Doc;
}

const remittance = codePointText(0, 140);
const endToEnd = printableAscii(1, 35);

/** The rail members of each sub-interface, its optional ones present as `maybe` decides. */
const railParts = (optional: Maybe): Readonly<Record<SubInterface, fc.Arbitrary<RailPart>>> => ({
  ON_CHAIN: fc
    .record({
      chain_id: R.evmChainId,
      receiver_address: R.evmAddress,
      contract_address: optional(R.evmAddress),
      domain_separator: optional(R.domainSeparator),
      order_reference: optional(fc.uuid()),
      acquirer_id: optional(fc.oneof(fc.uuid(), fc.constant('00000000-0000-0000-0000-000000000000'))),
    })
    .chain(({ chain_id, receiver_address, contract_address, ...other }) =>
      onChainAsset(chain_id).map((asset) => ({ address: defined({ chain_id, receiver_address, contract_address }), other: defined(other), asset })),
    ),
  IBAN: fc
    .record({
      iban: R.iban,
      bic: optional(R.bic),
      beneficiary_name: name,
      remittance_info: optional(remittance),
      end_to_end_id: optional(endToEnd),
      purpose_code: optional(R.purposeCode),
      asset: offChainAsset,
    })
    .map(({ iban, bic, asset, ...other }) => ({ address: defined({ iban, bic }), other: defined(other), asset })),
  ACCOUNT: fc
    .record({
      account_number: fc.oneof(matching(/^[0-9]{4,17}$/), name),
      routing_code: optional(fc.oneof(matching(/^[0-9]{9}$/), name)),
      routing_code_type: optional(R.openListCode(['ABA', 'SORT_CODE', 'IFSC', 'BSB', 'CLABE'])),
      bank_name: optional(name),
      beneficiary_name: name,
      remittance_info: optional(remittance),
      end_to_end_id: optional(endToEnd),
      asset: offChainAsset,
    })
    .map(({ account_number, routing_code, routing_code_type, bank_name, asset, ...other }) => ({
      address: defined({ account_number, routing_code, routing_code_type, bank_name }),
      other: defined(other),
      asset,
    })),
  INSTANT_KEY: fc
    .record({
      key_type: R.openListCode(['EVP', 'CPF', 'CNPJ', 'EMAIL', 'PHONE', 'VPA']),
      key_value: fc.oneof(fc.uuid(), fc.emailAddress().filter((e) => e.length <= 140), name),
      beneficiary_name: optional(name),
      txid: optional(fc.oneof(matching(/^[A-Za-z0-9]{1,35}$/), name)),
      asset: offChainAsset,
    })
    .map(({ key_type, key_value, asset, ...other }) => ({ address: { key_type, key_value }, other: defined(other), asset })),
});

/** The rail members of each sub-interface, with any or all optional ones: each set built on its first use. */
const RAIL_PARTS: Partial<Record<'any' | 'all', Readonly<Record<SubInterface, fc.Arbitrary<RailPart>>>>> = {};
const railPartsOf = (optionalFields: 'any' | 'all') => (RAIL_PARTS[optionalFields] ??= railParts(optionalFields === 'all' ? always : optional));

/** rail_hint values compatible with a sub-interface: absent, OPEN, or a rail it usually travels on. */
export function compatibleRailHints(sub: SubInterface): readonly RailHint[] {
  if (sub === 'ON_CHAIN') return ['ON_CHAIN'];
  return RAIL_HINTS.filter((hint) => hint === 'OPEN' || RAIL_HINT_SUB_INTERFACE[hint] === sub);
}

/** rail_hint values a request of a sub-interface may carry: for the off-chain ones every listed hint but ON_CHAIN (SUB-CHAIN-1), advisory whatever rail it names. */
export function allowedRailHints(sub: SubInterface): readonly RailHint[] {
  return sub === 'ON_CHAIN' ? ['ON_CHAIN'] : RAIL_HINTS.filter((hint) => hint !== 'ON_CHAIN');
}

function railHint(sub: SubInterface): fc.Arbitrary<RailHint | undefined> {
  if (sub === 'ON_CHAIN') return fc.constant('ON_CHAIN');
  const hint = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...compatibleRailHints(sub)) }, { weight: 1, arbitrary: fc.constantFrom(...allowedRailHints(sub)) });
  return fc.option(hint, { nil: undefined, freq: 4 });
}

// ------------------------------------------------------------- extensions (spec §9, PROFILE.md §7.5)

// Keys SHOULD be `std:` or reverse-domain (PROFILE.md §7.1): a key of neither form is allowed too, and carried as any other.
const extensionKey = fc.oneof(
  printableAscii(1, 24).map((k) => `std:${k}`),
  matching(/^[A-Za-z_$][A-Za-z0-9_$-]{0,15}$/).filter((k) => !isPayerMemberName(k)),
  fc
    .tuple(
      fc.constantFrom('com', 'org', 'io', 'dev', 'net', 'eu'),
      fc.array(matching(/^[a-z0-9][a-z0-9-]{0,12}$/), { minLength: 1, maxLength: 3 }),
      matching(/^[A-Za-z0-9_-]{1,16}$/),
    )
    .map(([tld, labels, key]) => [tld, ...labels, key].join('.')),
);

/** Renames payer-named members (PROFILE.md §7.5) and normalises -0, which JSON cannot carry. */
function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [isPayerMemberName(k) ? `x-${k}` : k, scrub(v)]));
  }
  return Object.is(value, -0) ? 0 : value;
}

function extensions(maxKeys: number, maybe: Maybe): fc.Arbitrary<Doc | undefined> {
  return maxKeys === 0 ? fc.constant(undefined) : maybe(cprExtensions(maxKeys));
}

/** An object with one member named from `names` (an own member, as JSON.parse makes it), alone or in an array. */
const namedMember = (names: fc.Arbitrary<string>): fc.Arbitrary<unknown> =>
  fc.tuple(names, fc.jsonValue({ maxDepth: 1, stringUnit: 'grapheme' }), fc.boolean()).map(([name, inner, listed]) => {
    const member = Object.fromEntries([[name, scrub(inner)]]);
    return listed ? [member] : member;
  });

/** An object with one member of a built-in name (half of them `__proto__`), alone or in an array. */
const builtInNamed = namedMember(fc.oneof(fc.constant('__proto__'), fc.constantFrom(...BUILT_IN_NAMES)));

/**
 * A member name near a payer name that is none (PROFILE.md §7.5 names exactly
 * `payer`, `authorization`, `settlement` and `payer_`…): one of them in another
 * letter case (`Payer`, `AUTHORIZATION`, `Payer_Ref`), or a neighbour (`payers`,
 * `payer-id`, `authorisation`, fullwidth `ｐａｙｅｒ`). A reader that folds case or
 * matches loosely refuses a valid CPR on it.
 */
const payerNearName: fc.Arbitrary<string> = fc
  .oneof(
    fc
      .tuple(fc.constantFrom('payer', 'authorization', 'settlement', 'payer_ref', 'payer_id'), fc.array(fc.boolean(), { minLength: 13, maxLength: 13 }))
      .map(([name, upper]) => [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''))
      .map((name) => (isPayerMemberName(name) ? `${name[0]!.toUpperCase()}${name.slice(1)}` : name)),
    fc.constantFrom('payers', 'payerid', 'payer-id', 'payer.ref', 'payee_payer', 'authorisation', 'authorizations', 'settlements', '_payer', 'payer ', 'ｐａｙｅｒ'),
  )
  .filter((name) => !isPayerMemberName(name));

/** An object with one member of a name near a payer name, alone or in an array. */
const payerNearNamed = namedMember(payerNearName);

/** Values a filter by truthiness or by emptiness drops: carried as any other (spec §2.1, PROFILE.md §7.1). */
const emptyValue = fc.constantFrom<unknown>(false, 0, '', null, [], {});

const byJsonText = (a: unknown, b: unknown): number => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * Values whose shape a copy can lose, carried as given all the same (spec
 * §2.1, PROFILE.md §7.1): an empty object or array as the value of a member
 * or an element of an array, with up to two objects and arrays around it (a
 * copy that drops what holds nothing shows); an array of two to four distinct
 * elements in the reverse of their JSON text's order (a copy that sorts them
 * shows); an array holding one element twice (a copy through a set shows).
 */
const emptyDeepDown: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom<unknown>([], {}), fc.boolean(), fc.array(fc.tuple(fc.boolean(), fc.stringMatching(/^[a-z]{1,4}$/)), { maxLength: 2 }))
  .map(([empty, listed, around]) => around.reduceRight<unknown>((inner, [inArray, name]) => (inArray ? [inner] : Object.fromEntries([[name, inner]])), listed ? ['x', empty] : { x: empty }));
const outOfOrder: fc.Arbitrary<unknown> = fc.uniqueArray(fc.jsonValue({ maxDepth: 1 }).map(scrub), { minLength: 2, maxLength: 4, selector: (v) => JSON.stringify(v) }).map((values) => [...values].sort(byJsonText).reverse());
const repeated: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 1 }).map(scrub).map((v) => [v, structuredClone(v)]);
/** An integer past what 32 bits hold, up to 2^53 - 1 either sign (I-JSON's exact range): a copy through an INTEGER column wraps it. */
const wideInteger: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 32, -(2 ** 32), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
  fc.maxSafeInteger().filter((n) => Math.abs(n) > 2 ** 31 - 1),
);

/**
 * Extensions of six keys, one value of each shape a copy can lose: an empty
 * object or array deep down, an array out of order, an array with a repeat,
 * an object with a member of a built-in name (`__proto__` half the time: a
 * copy by assignment loses it), one with a member named near a payer name,
 * and an integer past 32 bits.
 */
export const shapedExtensions: fc.Arbitrary<Doc> = fc
  .tuple(fc.uniqueArray(extensionKey, { minLength: 6, maxLength: 6 }), emptyDeepDown, outOfOrder, repeated, builtInNamed, payerNearNamed, wideInteger)
  .map(([keys, ...values]) => Object.fromEntries(keys.map((key, i) => [key, values[i]])));

/**
 * An `extensions` member as validCpr writes one: up to `maxKeys` (≥ 1) `std:` and
 * reverse-domain keys, any JSON values (one in four an object with a member of
 * a built-in name, one in eight an object with a member named near a payer name,
 * one in eight strings that look like dates, numbers or other types' words:
 * parts/lookalike.ts, one in eight false, 0, "", null, [] or {}), none payer-named.
 */
export function cprExtensions(maxKeys: number): fc.Arbitrary<Doc> {
  const value = fc.oneof({ weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'grapheme' }).map(scrub) }, { weight: 2, arbitrary: builtInNamed }, { weight: 1, arbitrary: payerNearNamed }, { weight: 1, arbitrary: lookalikeValue }, { weight: 1, arbitrary: emptyValue });
  return fc.dictionary(extensionKey, value, { maxKeys, noNullPrototype: true });
}

// ------------------------------------------------------------- the request

function mirrorSome(address: Record<string, string>): fc.Arbitrary<Record<string, string>> {
  const fields = Object.keys(address);
  return fc.subarray(fields).map((picked) => Object.fromEntries(picked.map((f) => [f, address[f] as string])));
}

function forSubInterface(sub: SubInterface, c: ResolvedCprConstraints): fc.Arbitrary<Cpr> {
  const maybe = c.optionalFields === 'all' ? always : optional;
  return fc
    .record({
      request_id: fc.oneof({ weight: 4, arbitrary: fc.uuid({ version: 4 }) }, { weight: 1, arbitrary: fc.uuid() }),
      times: times(c.now, c.validitySeconds),
      display_name: maybe(name),
      rail: railPartsOf(c.optionalFields)[sub],
      amount: amountFor(c.amount),
      memo: c.maxMemoCodePoints === 0 ? fc.constant(undefined) : maybe(codePointText(0, c.maxMemoCodePoints)),
      rail_hint: railHint(sub),
      extensions: extensions(c.maxExtensionKeys, maybe),
    })
    .chain((parts) => mirrorSome(parts.rail.address).map((mirrors) => ({ ...parts, mirrors })))
    .map(({ request_id, times: t, display_name, rail, amount, memo, rail_hint, extensions: ext, mirrors }) => {
      const doc: Doc = {
        cpr_version: 'CPR-1.0',
        request_id,
        created_at: t.created_at,
        expires_at: t.expires_at,
        payee: { ...(display_name !== undefined ? { display_name } : {}), rail_address: rail.address },
        value: { ...(amount !== undefined ? { amount } : {}), asset: rail.asset },
        ...(memo !== undefined ? { memo } : {}),
        ...(rail_hint !== undefined ? { rail_hint } : {}),
        ...mirrors,
        ...rail.other,
        ...(ext !== undefined ? { extensions: ext } : {}),
      };
      return doc as unknown as Cpr;
    });
}

/** Valid CPRs (see the header). Throws RangeError at construction for a bad constraint. */
export function validCpr(constraints: ValidCprConstraints = {}): fc.Arbitrary<Cpr> {
  const c = resolveCprConstraints(constraints);
  // Built on the first draw (parts/deferred.ts): many callers declare theirs at module level.
  if (c.subInterface !== undefined) return deferred(() => forSubInterface(c.subInterface!, c));
  return deferred(() => fc.oneof(...SUB_INTERFACES.map((sub) => forSubInterface(sub, c))));
}
