// Rail-field building blocks (PROFILE.md §7.3, §7.4): IBANs with correct check
// digits, BICs, EVM addresses in every accepted case form, chain ids and codes.
// Internal: not re-exported from generators/index.ts.
import fc from 'fast-check';
import { matching } from './deferred.ts';
import { toChecksumAddress } from '../../profile/cpr/index.ts';

// ---------------------------------------------------------------- IBAN (ISO 13616)

type Part = readonly ['n' | 'a' | 'c', number];

/** BBAN structure of a few SEPA countries (ibantools countrySpecs); FR adds its RIB key. */
const IBAN_COUNTRIES: Readonly<Record<string, readonly Part[]>> = {
  DE: [['n', 18]],
  FR: [['n', 10], ['c', 11]], // + 2-digit RIB key, computed
  GB: [['a', 4], ['n', 14]],
  NL: [['a', 4], ['n', 10]],
  AT: [['n', 16]],
  CH: [['n', 5], ['c', 12]],
};
export const IBAN_COUNTRY_CODES = Object.keys(IBAN_COUNTRIES);

const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const CHARSETS = { n: DIGITS, a: LETTERS, c: DIGITS + LETTERS } as const;

function charsOf(set: string, n: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...set.split('')), minLength: n, maxLength: n });
}

/** Remainder mod 97 of a string of decimal digits of any length. */
function mod97(digits: string): number {
  let r = 0;
  for (const d of digits) r = (r * 10 + (d.charCodeAt(0) - 48)) % 97;
  return r;
}

/** ISO 7064 mod 97-10 check digits of an IBAN (letters count as 10..35). */
export function ibanCheckDigits(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return String(98 - mod97(numeric)).padStart(2, '0');
}

/** The French RIB key: the BBAN, letters folded to digits, is 0 mod 97. */
function ribKey(first21: string): string {
  const folded = first21.replace(/[A-Z]/g, (c) => String(((c.charCodeAt(0) - 65 + (c >= 'S' ? 1 : 0)) % 9) + 1));
  return String((97 - ((mod97(folded) * 100) % 97)) % 97).padStart(2, '0');
}

/** A valid IBAN in electronic format for one of IBAN_COUNTRY_CODES. */
export const iban: fc.Arbitrary<string> = fc.constantFrom(...IBAN_COUNTRY_CODES).chain((country) =>
  fc.tuple(...(IBAN_COUNTRIES[country] ?? []).map(([kind, n]) => charsOf(CHARSETS[kind], n))).map((parts) => {
    let bban = parts.join('');
    if (country === 'FR') bban += ribKey(bban);
    return `${country}${ibanCheckDigits(country, bban)}${bban}`;
  }),
);

// ---------------------------------------------------------------- BIC (ISO 9362)

const BIC_COUNTRIES = ['DE', 'FR', 'GB', 'NL', 'AT', 'CH', 'BE', 'ES', 'IT', 'US', 'BR', 'IN'];

export const bic: fc.Arbitrary<string> = fc
  .tuple(charsOf(LETTERS, 4), fc.constantFrom(...BIC_COUNTRIES), charsOf(LETTERS + DIGITS, 2), fc.option(charsOf(LETTERS + DIGITS, 3), { nil: undefined }))
  .map(([bank, country, location, branch]) => `${bank}${country}${location}${branch ?? ''}`);

// ---------------------------------------------------------------- EVM (EIP-55, EIP-155)

type AddressCase = 'lower' | 'checksum' | 'upper';

/** `0x` + 40 hex digits: all lower case, EIP-55 mixed case, or all upper case (PROFILE.md §7.4). */
export const evmAddress: fc.Arbitrary<string> = fc
  .tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.constantFrom<AddressCase>('checksum', 'lower', 'upper'))
  .map(([bytes, form]) => {
    const lower = `0x${Buffer.from(bytes).toString('hex')}`;
    return form === 'lower' ? lower : form === 'upper' ? `0x${lower.slice(2).toUpperCase()}` : toChecksumAddress(lower);
  });

/** EIP-155 chain id as a decimal string: well-known chains or any up to 20 digits. */
export const evmChainId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('1', '10', '56', '137', '8453', '42161', '11155111'),
  fc.bigInt({ min: 1n, max: 10n ** 20n - 1n }).map(String),
);

/** CAIP-2 chain id (namespace:reference), PROFILE.md §7.3. */
export const caip2ChainId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'bip122:000000000019d6689c085ae165831e93', 'cosmos:cosmoshub-4'),
  fc.tuple(matching(/^[-a-z0-9]{3,8}$/), matching(/^[-_a-zA-Z0-9]{1,32}$/)).map(([ns, ref]) => `${ns}:${ref}`),
);

/**
 * `0x` + 64 hex digits (an EIP-712 domain separator): its letters all in lower
 * case, all in upper case, or each in a drawn case (PROFILE.md §7.4: upper-case
 * hex digits are the profile's form too), so that a reader folding the case is seen.
 */
export const domainSeparator: fc.Arbitrary<string> = fc
  .tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom<AddressCase | 'mixed'>('lower', 'upper', 'mixed'), fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }))
  .map(([b, form, upper]) => {
    const hex = Buffer.from(b).toString('hex');
    const written = form === 'lower' ? hex : form === 'upper' ? hex.toUpperCase() : [...hex].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
    return `0x${written}`;
  });

// ---------------------------------------------------------------- codes

export const fiatCode: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('EUR', 'USD', 'GBP', 'CHF', 'BRL', 'INR', 'JPY') },
  { weight: 1, arbitrary: matching(/^[A-Z]{3}$/) },
);

/** Token symbol or contract reference: 1..64 printable ASCII without spaces. */
export const tokenCode: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('USDC', 'USDT', 'EURC', 'ETH', 'DAI', 'WBTC', 'BTC') },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 64 }) },
);

/** Open-list codes `^[A-Z][A-Z0-9_]{0,31}$` (routing_code_type, key_type). */
export function openListCode(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: matching(/^[A-Z][A-Z0-9_]{0,31}$/) });
}

/** ISO 20022 ExternalPurpose1Code. */
export const purposeCode: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('GDDS', 'SALA', 'SUPP', 'RENT', 'CHAR'),
  matching(/^[A-Z0-9]{4}$/),
);
