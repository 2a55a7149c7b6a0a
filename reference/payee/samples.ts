// Realistic rail data for each sub-interface (spec §2.5, PROFILE.md §7.4): the
// reference payee's own accounts. Every value passes the profile's formats.
import type { AssetDescriptor, RailAddress, RailField, SubInterface } from '../../profile/cpr/index.ts';

interface RailSample {
  readonly asset: AssetDescriptor;
  readonly displayName: string;
  /** payee.rail_address, mirrored at the top level as the spec's samples do (spec §2.5). */
  readonly address: RailAddress;
  /** Top-level non-address fields; `reference` is a per-request value (32 hex digits). */
  other(reference: string, memo: string | undefined): { readonly [F in RailField]?: string };
}

export const RAIL_SAMPLES: Readonly<Record<SubInterface, RailSample>> = {
  ON_CHAIN: {
    asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' },
    displayName: 'Example Coffee Roasters',
    // EIP-55 test vectors (checksummed, mixed case).
    address: {
      chain_id: '1',
      receiver_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      contract_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    },
    // Stryker disable next-line ObjectLiteral: optional rail members (PROFILE.md §7.4): a request without them is as conformant
    other: (reference) => ({
      domain_separator: '0x06c37168a7db5138defc7866392bb87a741f9b3d104deb5094588ce041cae335',
      // A 16-byte reconciliation reference written as a UUID (PROFILE.md §7.4).
      order_reference: `${reference.slice(0, 8)}-${reference.slice(8, 12)}-${reference.slice(12, 16)}-${reference.slice(16, 20)}-${reference.slice(20, 32)}`,
    }),
  },
  IBAN: {
    asset: { type: 'fiat', code: 'EUR' },
    displayName: 'Beispiel Buchhandlung GmbH',
    address: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
    other: (reference, memo) => ({
      beneficiary_name: 'Beispiel Buchhandlung GmbH',
      // Stryker disable next-line ConditionalExpression,ObjectLiteral: remittance_info is optional (PROFILE.md §7.4); the memo is the request's own member either way
      ...(memo !== undefined ? { remittance_info: memo } : {}),
      end_to_end_id: reference,
      purpose_code: 'GDDS',
    }),
  },
  ACCOUNT: {
    asset: { type: 'fiat', code: 'USD' },
    displayName: 'Example Hardware LLC',
    address: { account_number: '000123456789', routing_code: '021000021', routing_code_type: 'ABA', bank_name: 'JPMorgan Chase Bank, N.A.' },
    other: (reference, memo) => ({
      beneficiary_name: 'Example Hardware LLC',
      // Stryker disable next-line ConditionalExpression,ObjectLiteral: remittance_info is optional (PROFILE.md §7.4); the memo is the request's own member either way
      ...(memo !== undefined ? { remittance_info: memo } : {}),
      end_to_end_id: reference,
    }),
  },
  INSTANT_KEY: {
    asset: { type: 'fiat', code: 'BRL' },
    displayName: 'Exemplo Padaria Ltda',
    address: { key_type: 'EVP', key_value: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906' },
    // Stryker disable next-line ObjectLiteral,MethodExpression: optional rail members, and a txid of 1..140 code points either way (PROFILE.md §7.4)
    other: (reference) => ({ beneficiary_name: 'Exemplo Padaria Ltda', txid: reference.slice(0, 25) }),
  },
};
