// Rail-field building blocks (generators/parts/rails.ts): the values that validCpr
// relies on are valid by the same library the validator uses.
import fc from 'fast-check';
import { isValidBIC, isValidIBAN } from 'ibantools';
import { describe, expect, it } from 'vitest';
import { IBAN_COUNTRY_CODES, bic, caip2ChainId, evmAddress, iban, ibanCheckDigits } from '../../../generators/parts/rails.ts';
import { isEvmAddress } from '../../../profile/cpr/index.ts';

const RUNS = { seed: 20260106, numRuns: 300 };

describe('rail building blocks', () => {
  it('compute ISO 7064 mod 97-10 check digits (known IBANs)', () => {
    expect(ibanCheckDigits('DE', '370400440532013000')).toBe('89');
    expect(ibanCheckDigits('GB', 'WEST12345698765432')).toBe('82');
    expect(ibanCheckDigits('FR', '20041010050500013M02606')).toBe('14');
    expect(ibanCheckDigits('NL', 'ABNA0417164300')).toBe('91');
  });

  it('generate IBANs that ibantools accepts, for every listed country', () => {
    fc.assert(fc.property(iban, (v) => void expect(isValidIBAN(v), v).toBe(true)), RUNS);
    const countries = new Set(fc.sample(iban, { seed: 1, numRuns: 200 }).map((v) => v.slice(0, 2)));
    expect([...countries].sort()).toEqual([...IBAN_COUNTRY_CODES].sort());
  });

  it('generate BICs, EVM addresses and CAIP-2 ids in the profile formats', () => {
    fc.assert(fc.property(bic, (v) => void expect(isValidBIC(v) && /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(v), v).toBe(true)), RUNS);
    fc.assert(fc.property(evmAddress, (v) => void expect(isEvmAddress(v), v).toBe(true)), RUNS);
    fc.assert(fc.property(caip2ChainId, (v) => void expect(v).toMatch(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/)), RUNS);
  });
});
