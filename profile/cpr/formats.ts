// Field formats of PROFILE.md §7.3 and §7.4 as data: each format is a predicate
// and the phrase a violation message uses ("must be <expected>"). A member's
// format is read twice (PROFILE.md §7, "Field defects"): `meaning` is what the
// spec's words for the member allow (an EVM address, 16 bytes, an IBAN), the
// format itself the one form the profile writes it in. A value without the
// meaning breaks the spec's rule; one with it, written otherwise, only the
// profile's.
import { isValidBIC, isValidIBAN } from 'ibantools';
import { isUuid } from '../uuid.ts';
import { isEvmAddress } from './evm.ts';

export interface Format {
  readonly expected: string;
  test(value: unknown): boolean;
}

/** A format with the spec's reading of the member: every value `test` accepts, `meaning.test` accepts too. */
export interface FieldFormat extends Format {
  readonly meaning: Format;
}

/** PROFILE.md §1: "characters" are Unicode code points. */
export function codePoints(text: string): number {
  return [...text].length;
}

export function text(min: number, max: number): Format {
  const expected = min === 0 ? `a string of at most ${max} code points` : `a string of ${min} to ${max} code points`;
  return { expected, test: (v) => typeof v === 'string' && codePoints(v) >= min && codePoints(v) <= max };
}

export function matching(pattern: RegExp, expected: string): Format {
  return { expected, test: (v) => typeof v === 'string' && pattern.test(v) };
}

function both(a: Format, test: (v: string) => boolean, expected: string): Format {
  return { expected, test: (v) => a.test(v) && test(v as string) };
}

/** The profile's written form `written` of a member whose spec meaning is `meaning`. */
function reading(meaning: Format, written: Format): FieldFormat {
  return { ...written, meaning };
}

/** What the spec asks of a member it types String and gives no further meaning. */
const STRING: Format = { expected: 'a string', test: (v) => typeof v === 'string' };
const NON_EMPTY: Format = { expected: 'a non-empty string', test: (v) => typeof v === 'string' && v.length > 0 };

/** EIP-155 chain id as a decimal string (PROFILE.md §7.3). */
const EVM_CHAIN_ID = matching(/^[1-9][0-9]{0,19}$/, 'a decimal EVM chain id (EIP-155)');

/** A decimal EVM chain id or a CAIP-2 chain id (PROFILE.md §7.3); the spec asks for a string. */
export const CHAIN_ID: FieldFormat = reading(NON_EMPTY, {
  expected: 'a decimal EVM chain id or a CAIP-2 chain id (namespace:reference)',
  test: (v) => EVM_CHAIN_ID.test(v) || (typeof v === 'string' && /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(v)),
});
/** The on-chain chain_id: "EVM chain ID or equivalent" (spec §2.5), written in decimal (PROFILE.md §7.4). */
export const ON_CHAIN_CHAIN_ID: FieldFormat = reading(NON_EMPTY, EVM_CHAIN_ID);

export const FIAT_CODE: FieldFormat = reading(
  matching(/^[A-Za-z]{3}$/, 'an ISO 4217 alphabetic code (three letters)'),
  matching(/^[A-Z]{3}$/, 'an ISO 4217 alphabetic code written in three upper-case letters'),
);
export const TOKEN_CODE: FieldFormat = reading(
  { expected: 'a token symbol or contract reference (a non-empty string)', test: NON_EMPTY.test },
  matching(/^[\x21-\x7e]{1,64}$/, 'a token symbol or contract reference of 1 to 64 printable ASCII characters without spaces'),
);

/** 20 bytes as 40 hex digits, in either case, with or without a 0x prefix: what "EVM address" means. */
export const EVM_ADDRESS: FieldFormat = reading(
  matching(/^(0[xX])?[0-9a-fA-F]{40}$/, 'an EVM address (20 bytes as 40 hex digits)'),
  { expected: 'an EVM address written 0x + 40 hex digits, with a valid EIP-55 checksum when mixed case', test: isEvmAddress },
);
export const UUID_16_BYTES: FieldFormat = reading(
  {
    expected: '16 bytes (32 hex digits, or a UUID)',
    test: (v) => typeof v === 'string' && (/^(0[xX])?[0-9a-fA-F]{32}$/.test(v) || /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v)),
  },
  { expected: '16 bytes written as a canonical lower-case UUID', test: isUuid },
);
export const DOMAIN_SEPARATOR: FieldFormat = reading(
  matching(/^(0[xX])?[0-9a-fA-F]{64}$/, 'an EIP-712 domain separator (32 bytes as 64 hex digits)'),
  matching(/^0x[0-9a-fA-F]{64}$/, '32 bytes written 0x + 64 hex digits'),
);

/** ISO 13616 paper format (groups spaced) and lower case read as the IBAN they spell. */
const ibanOf = (v: string): string => v.replaceAll(' ', '').toUpperCase();
// Electronic format first (ISO 13616: no spaces, upper case), then the
// country's length and the mod 97-10 check digits.
export const IBAN: FieldFormat = reading(
  { expected: 'a valid IBAN (its country length and mod 97-10 check digits, ISO 13616)', test: (v) => typeof v === 'string' && isValidIBAN(ibanOf(v)) },
  both(
    matching(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/, ''),
    (v) => isValidIBAN(v),
    'an IBAN in electronic format (no spaces, upper case) with its country length and valid check digits (ISO 13616)',
  ),
);
// ibantools accepts lower case; the profile's pattern does not.
const BIC_PATTERN = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const isBic = (v: string): boolean => BIC_PATTERN.test(v) && isValidBIC(v);
export const BIC: FieldFormat = reading(
  { expected: 'an ISO 9362 BIC with a valid country code', test: (v) => typeof v === 'string' && isBic(v.toUpperCase()) },
  { expected: 'an ISO 9362 BIC written in upper case, with a valid country code', test: (v) => typeof v === 'string' && isBic(v) },
);

export const NAME: FieldFormat = reading(STRING, text(1, 140));
/** Spec §2.5: "max 140 characters"; the profile writes it no other way. */
export const REMITTANCE: FieldFormat = reading(text(0, 140), text(0, 140));
export const MAX35_TEXT: FieldFormat = reading(STRING, matching(/^[\x20-\x7e]{1,35}$/, '1 to 35 printable ASCII characters (ISO 20022 Max35Text)'));
export const PURPOSE_CODE: FieldFormat = reading(
  matching(/^[A-Za-z0-9]{4}$/, 'an ISO 20022 purpose code (four letters or digits)'),
  matching(/^[A-Z0-9]{4}$/, 'an ISO 20022 purpose code written in four upper-case letters or digits'),
);
export const OPEN_LIST_CODE: FieldFormat = reading(STRING, matching(/^[A-Z][A-Z0-9_]{0,31}$/, 'an upper-case code matching ^[A-Z][A-Z0-9_]{0,31}$'));
