// Field formats of PROFILE.md §7.3 and §7.4 as data: each format is a predicate
// and the phrase a violation message uses ("must be <expected>").
import { isValidBIC, isValidIBAN } from 'ibantools';
import { isUuid } from '../uuid.ts';
import { isEvmAddress } from './evm.ts';

export interface Format {
  readonly expected: string;
  test(value: unknown): boolean;
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

/** EIP-155 chain id as a decimal string (PROFILE.md §7.3). */
export const EVM_CHAIN_ID = matching(/^[1-9][0-9]{0,19}$/, 'a decimal EVM chain id (EIP-155)');

/** A decimal EVM chain id or a CAIP-2 chain id (PROFILE.md §7.3). */
export const CHAIN_ID: Format = {
  expected: 'a decimal EVM chain id or a CAIP-2 chain id (namespace:reference)',
  test: (v) => EVM_CHAIN_ID.test(v) || (typeof v === 'string' && /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(v)),
};

export const FIAT_CODE = matching(/^[A-Z]{3}$/, 'an ISO 4217 alphabetic code (three upper-case letters)');
export const TOKEN_CODE = matching(/^[\x21-\x7e]{1,64}$/, 'a token symbol or contract reference of 1 to 64 printable ASCII characters without spaces');

export const EVM_ADDRESS: Format = { expected: 'an EVM address (0x + 40 hex digits, valid EIP-55 checksum when mixed case)', test: isEvmAddress };
export const UUID_16_BYTES: Format = { expected: '16 bytes written as a canonical lower-case UUID', test: isUuid };
export const DOMAIN_SEPARATOR = matching(/^0x[0-9a-fA-F]{64}$/, '32 bytes as 0x + 64 hex digits');

// Electronic format first (ISO 13616: no spaces, upper case), then the
// country's length and the mod 97-10 check digits.
export const IBAN = both(
  matching(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/, ''),
  (v) => isValidIBAN(v),
  'an IBAN in electronic format with its country length and valid check digits (ISO 13616)',
);
// ibantools accepts lower case; the profile's pattern does not.
export const BIC = both(
  matching(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, ''),
  (v) => isValidBIC(v),
  'an ISO 9362 BIC with a valid country code',
);

export const NAME = text(1, 140);
export const REMITTANCE = text(0, 140);
export const MAX35_TEXT = matching(/^[\x20-\x7e]{1,35}$/, '1 to 35 printable ASCII characters (ISO 20022 Max35Text)');
export const PURPOSE_CODE = matching(/^[A-Z0-9]{4}$/, 'an ISO 20022 purpose code (four upper-case letters or digits)');
export const OPEN_LIST_CODE = matching(/^[A-Z][A-Z0-9_]{0,31}$/, 'an upper-case code matching ^[A-Z][A-Z0-9_]{0,31}$');
