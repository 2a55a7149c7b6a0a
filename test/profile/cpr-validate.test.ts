import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { findRequirement } from '../../profile/registry.ts';
import { describe, expect, it } from 'vitest';
import {
  RAIL_HINTS,
  SUB_INTERFACE_FIELDS,
  isEvmAddress,
  toChecksumAddress,
  unknownRailHint,
  validateCpr,
  type SubInterface,
} from '../../profile/cpr/index.ts';

type Doc = Record<string, any>;

const RECEIVER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const CONTRACT = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const BASE = {
  cpr_version: 'CPR-1.0',
  request_id: '5f0c6b8e-2a4d-4c1e-9b7a-3d2e1f0a9c8b',
  created_at: '2026-03-01T12:00:00Z',
  expires_at: '2026-03-01T12:15:00.250Z',
};

// One valid CPR per sub-interface, with the top-level mirrors the spec's samples carry.
const VALID: Readonly<Record<SubInterface, Doc>> = {
  ON_CHAIN: {
    ...BASE,
    payee: { display_name: 'Example Coffee Roasters', rail_address: { chain_id: '1', receiver_address: RECEIVER, contract_address: CONTRACT } },
    value: { amount: '2500000', asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' } },
    memo: 'Two flat whites',
    rail_hint: 'ON_CHAIN',
    chain_id: '1',
    receiver_address: RECEIVER,
    contract_address: CONTRACT,
    domain_separator: '0x' + 'ab'.repeat(32),
    order_reference: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
    acquirer_id: '00000000-0000-0000-0000-000000000000',
  },
  IBAN: {
    ...BASE,
    payee: { display_name: 'Beispiel GmbH', rail_address: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } },
    value: { amount: '1999', asset: { type: 'fiat', code: 'EUR' } },
    rail_hint: 'SEPA_CT',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    beneficiary_name: 'Beispiel GmbH',
    remittance_info: 'Invoice 2026-0042',
    end_to_end_id: 'E2E-2026-0042',
    purpose_code: 'GDDS',
    extensions: { 'std:invoice': { number: '2026-0042' } },
  },
  ACCOUNT: {
    ...BASE,
    payee: { rail_address: { account_number: '000123456789', routing_code: '021000021', routing_code_type: 'ABA', bank_name: 'JPMorgan Chase Bank, N.A.' } },
    value: { amount: '4200', asset: { type: 'fiat', code: 'USD' } },
    rail_hint: 'ACH',
    account_number: '000123456789',
    routing_code: '021000021',
    routing_code_type: 'ABA',
    beneficiary_name: 'Example Hardware LLC',
    end_to_end_id: 'INV-77',
  },
  INSTANT_KEY: {
    ...BASE,
    payee: { display_name: 'Exemplo Padaria', rail_address: { key_type: 'EVP', key_value: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906' } },
    value: { asset: { type: 'fiat', code: 'BRL' } },
    rail_hint: 'PIX',
    key_type: 'EVP',
    key_value: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
    txid: 'PEDIDO42',
  },
};

const SUBS = Object.keys(VALID) as SubInterface[];

function variant(sub: SubInterface, change: (doc: Doc) => void): Doc {
  const doc = structuredClone(VALID[sub]);
  change(doc);
  return doc;
}

/** Sets an address field in rail_address and in its top-level mirror. */
const address = (field: string, value: unknown) => (doc: Doc) => {
  doc.payee.rail_address[field] = value;
  doc[field] = value;
};

const SMILE = '😀'; // outside the BMP: one code point, two UTF-16 units

const requirementsOf = (doc: unknown, validitySeconds?: number) => {
  const result = validateCpr(doc, validitySeconds === undefined ? {} : { validitySeconds });
  return result.ok ? [] : [...new Set(result.violations.map((v) => v.requirement))];
};

// [what, base, change, requirement, schema can express it too]
type Row = readonly [string, SubInterface, (doc: Doc) => void, string, boolean?];
const VALIDATOR_ONLY = false;

const MUTATIONS: readonly Row[] = [
  // CPR-VER-1
  ['cpr_version CPR-2.0', 'IBAN', (d) => (d.cpr_version = 'CPR-2.0'), 'CPR-VER-1'],
  ['cpr_version missing', 'IBAN', (d) => delete d.cpr_version, 'CPR-VER-1'],
  // CPR-ID-1
  ['request_id not a UUID', 'IBAN', (d) => (d.request_id = 'req-42'), 'CPR-ID-1'],
  ['request_id upper case', 'IBAN', (d) => (d.request_id = d.request_id.toUpperCase()), 'CPR-ID-1'],
  ['request_id missing', 'ACCOUNT', (d) => delete d.request_id, 'CPR-ID-1'],
  // CPR-TIME-1 / PRF-TIME-1
  ['created_at missing', 'IBAN', (d) => delete d.created_at, 'CPR-TIME-1'],
  ['expires_at missing', 'ON_CHAIN', (d) => delete d.expires_at, 'CPR-TIME-1'],
  ['created_at a number', 'IBAN', (d) => (d.created_at = 1772366400), 'CPR-TIME-1'],
  ['created_at with a +02:00 offset', 'IBAN', (d) => (d.created_at = '2026-03-01T14:00:00+02:00'), 'CPR-TIME-1'],
  ['expires_at free text', 'IBAN', (d) => (d.expires_at = 'in fifteen minutes'), 'CPR-TIME-1'],
  ['created_at lower-case t and z', 'IBAN', (d) => (d.created_at = '2026-03-01t12:00:00z'), 'PRF-TIME-1'],
  ['created_at with 4 fraction digits', 'IBAN', (d) => (d.created_at = '2026-03-01T12:00:00.1234Z'), 'PRF-TIME-1'],
  ['created_at with +00:00', 'IBAN', (d) => (d.created_at = '2026-03-01T12:00:00+00:00'), 'PRF-TIME-1'],
  ['created_at on 30 February', 'IBAN', (d) => (d.created_at = '2026-02-30T12:00:00Z'), 'PRF-TIME-1', VALIDATOR_ONLY],
  ['expires_at at 24:00', 'IBAN', (d) => (d.expires_at = '2026-03-01T24:00:00Z'), 'PRF-TIME-1'],
  // CPR-TIME-2
  ['expires_at equal to created_at', 'IBAN', (d) => (d.expires_at = d.created_at), 'CPR-TIME-2', VALIDATOR_ONLY],
  ['expires_at before created_at', 'IBAN', (d) => (d.expires_at = '2026-03-01T11:59:59.999Z'), 'CPR-TIME-2', VALIDATOR_ONLY],
  // CPR-PAYEE-1
  ['payee missing', 'IBAN', (d) => delete d.payee, 'CPR-PAYEE-1'],
  ['payee a string', 'IBAN', (d) => (d.payee = 'Beispiel GmbH'), 'CPR-PAYEE-1'],
  ['rail_address missing', 'ACCOUNT', (d) => delete d.payee.rail_address, 'CPR-PAYEE-1'],
  ['rail_address empty', 'IBAN', (d) => (d.payee.rail_address = {}), 'CPR-PAYEE-1'],
  ['rail_address without a required address field', 'IBAN', (d) => delete d.payee.rail_address.iban, 'CPR-PAYEE-1'],
  ['display_name empty', 'IBAN', (d) => (d.payee.display_name = ''), 'CPR-PAYEE-1'],
  ['display_name of 141 code points', 'IBAN', (d) => (d.payee.display_name = 'x'.repeat(141)), 'CPR-PAYEE-1'],
  // CPR-VAL-1
  ['value missing', 'IBAN', (d) => delete d.value, 'CPR-VAL-1'],
  ['asset missing', 'IBAN', (d) => delete d.value.asset, 'CPR-VAL-1'],
  ['asset type unknown', 'IBAN', (d) => (d.value.asset.type = 'cash'), 'CPR-VAL-1'],
  ['asset code missing', 'IBAN', (d) => delete d.value.asset.code, 'CPR-VAL-1'],
  ['stablecoin without chain_id', 'ON_CHAIN', (d) => delete d.value.asset.chain_id, 'CPR-VAL-1'],
  ['tokenized without chain_id', 'ON_CHAIN', (d) => ((d.value.asset.type = 'tokenized'), delete d.value.asset.chain_id), 'CPR-VAL-1'],
  // Field defects (PROFILE.md §7.4): asset code (CPR-VAL-3 / PRF-ASSET-1) and chain_id (CPR-VAL-1 / PRF-ASSET-1)
  ['fiat code of four letters', 'IBAN', (d) => (d.value.asset.code = 'EURO'), 'CPR-VAL-3'],
  ['fiat code with a digit', 'IBAN', (d) => (d.value.asset.code = 'E1R'), 'CPR-VAL-3'],
  ['fiat code a number', 'IBAN', (d) => (d.value.asset.code = 978), 'CPR-VAL-3'],
  ['token code empty', 'ON_CHAIN', (d) => (d.value.asset.code = ''), 'CPR-VAL-3'],
  ['token code a number', 'ON_CHAIN', (d) => (d.value.asset.code = 42), 'CPR-VAL-3'],
  ['fiat code lower case', 'IBAN', (d) => (d.value.asset.code = 'eur'), 'PRF-ASSET-1'],
  ['fiat code mixed case', 'IBAN', (d) => (d.value.asset.code = 'Eur'), 'PRF-ASSET-1'],
  ['token code with a space', 'ON_CHAIN', (d) => (d.value.asset.code = 'US DC'), 'PRF-ASSET-1'],
  ['token code of 65 characters', 'ON_CHAIN', (d) => (d.value.asset.code = 'T'.repeat(65)), 'PRF-ASSET-1'],
  ['token code not ASCII', 'ON_CHAIN', (d) => (d.value.asset.code = 'ÜSDC'), 'PRF-ASSET-1'],
  ['asset chain_id empty', 'IBAN', (d) => (d.value.asset.chain_id = ''), 'CPR-VAL-1'],
  ['asset chain_id a number', 'IBAN', (d) => (d.value.asset.chain_id = 1), 'CPR-VAL-1'],
  ['asset chain_id neither decimal nor CAIP-2', 'IBAN', (d) => (d.value.asset.chain_id = 'Main Net'), 'PRF-ASSET-1'],
  ['asset chain_id 0x1', 'IBAN', (d) => (d.value.asset.chain_id = '0x1'), 'PRF-ASSET-1'],
  // CPR-VAL-2 / PRF-AMT-1 (more in the amount table)
  ['amount as a JSON number', 'IBAN', (d) => (d.value.amount = 1999), 'PRF-AMT-1'],
  ['amount with a fraction', 'IBAN', (d) => (d.value.amount = '19.99'), 'CPR-VAL-2'],
  // CPR-MEMO-1
  ['memo of 141 code points', 'ON_CHAIN', (d) => (d.memo = 'm'.repeat(141)), 'CPR-MEMO-1'],
  ['memo a number', 'ON_CHAIN', (d) => (d.memo = 42), 'CPR-MEMO-1'],
  // CPR-RAIL-1, CPR-EXT-1
  ['rail_hint a number', 'IBAN', (d) => (d.rail_hint = 7), 'CPR-RAIL-1'],
  ['extensions an array', 'IBAN', (d) => (d.extensions = []), 'CPR-EXT-1'],
  ['extensions a string', 'IBAN', (d) => (d.extensions = 'none'), 'CPR-EXT-1'],
  // CPR-PAYER-1, anywhere
  ['top-level payer', 'IBAN', (d) => (d.payer = { name: 'Alice' }), 'CPR-PAYER-1'],
  ['top-level payer_id', 'IBAN', (d) => (d.payer_id = 'alice'), 'CPR-PAYER-1'],
  ['top-level authorization', 'ON_CHAIN', (d) => (d.authorization = 'sig'), 'CPR-PAYER-1'],
  ['top-level settlement', 'ACCOUNT', (d) => (d.settlement = {}), 'CPR-PAYER-1'],
  ['payee.payer_name', 'IBAN', (d) => (d.payee.payer_name = 'Alice'), 'CPR-PAYER-1'],
  ['rail_address.payer_account', 'IBAN', (d) => (d.payee.rail_address.payer_account = 'x'), 'CPR-PAYER-1'],
  ['value.payer_amount', 'IBAN', (d) => (d.value.payer_amount = '5'), 'CPR-PAYER-1'],
  ['extensions.payer', 'IBAN', (d) => (d.extensions.payer = 'alice'), 'CPR-PAYER-1'],
  ['payer_ member nested in an extension', 'IBAN', (d) => (d.extensions['com.example.crm'] = { customer: { payer_email: 'a@example.com' } }), 'CPR-PAYER-1'],
  ['settlement inside an extension array', 'IBAN', (d) => (d.extensions['com.example.list'] = [{ settlement: 'T+1' }]), 'CPR-PAYER-1'],
  // SUB-CHAIN-1 and the ON_CHAIN field defects (PROFILE.md §7.4): SUB-CHAIN-1 / SUB-CHAIN-3 / PRF-EVM-1 / PRF-FIELD-1
  ['receiver_address too short', 'ON_CHAIN', address('receiver_address', RECEIVER.slice(0, 41)), 'SUB-CHAIN-1'],
  ['receiver_address of 41 hex digits', 'ON_CHAIN', address('receiver_address', RECEIVER + 'a'), 'SUB-CHAIN-1'],
  ['receiver_address with a letter that is no hex digit', 'ON_CHAIN', address('receiver_address', RECEIVER.slice(0, -1) + 'g'), 'SUB-CHAIN-1'],
  ['receiver_address a name', 'ON_CHAIN', address('receiver_address', 'vitalik.eth'), 'SUB-CHAIN-1'],
  ['receiver_address a number', 'ON_CHAIN', address('receiver_address', 42), 'SUB-CHAIN-1'],
  ['receiver_address with a bad EIP-55 checksum', 'ON_CHAIN', address('receiver_address', RECEIVER.replace('aA', 'Aa')), 'PRF-EVM-1', VALIDATOR_ONLY],
  ['receiver_address without 0x', 'ON_CHAIN', address('receiver_address', RECEIVER.slice(2).toLowerCase()), 'PRF-EVM-1'],
  ['receiver_address with 0X', 'ON_CHAIN', address('receiver_address', '0X' + RECEIVER.slice(2).toLowerCase()), 'PRF-EVM-1'],
  ['contract_address of 39 hex digits', 'ON_CHAIN', address('contract_address', CONTRACT.slice(0, 41)), 'SUB-CHAIN-3'],
  ['contract_address a number', 'ON_CHAIN', address('contract_address', 7), 'SUB-CHAIN-3'],
  ['contract_address without 0x', 'ON_CHAIN', address('contract_address', CONTRACT.slice(2)), 'PRF-EVM-1'],
  ['contract_address with a bad EIP-55 checksum', 'ON_CHAIN', address('contract_address', '0xF' + CONTRACT.slice(3)), 'PRF-EVM-1', VALIDATOR_ONLY],
  ['on-chain chain_id empty', 'ON_CHAIN', (d) => (address('chain_id', '')(d), delete d.value.asset.chain_id, (d.value.asset.type = 'crypto')), 'SUB-CHAIN-1'],
  ['on-chain chain_id a number', 'ON_CHAIN', (d) => (address('chain_id', 1)(d), delete d.value.asset.chain_id, (d.value.asset.type = 'crypto')), 'SUB-CHAIN-1'],
  ['on-chain chain_id in CAIP-2 form', 'ON_CHAIN', (d) => (address('chain_id', 'eip155:1')(d), (d.value.asset.chain_id = 'eip155:1')), 'PRF-EVM-1'],
  ['on-chain chain_id in hex', 'ON_CHAIN', (d) => (address('chain_id', '0x1')(d), delete d.value.asset.chain_id, (d.value.asset.type = 'crypto')), 'PRF-EVM-1'],
  ['domain_separator of 2 bytes', 'ON_CHAIN', (d) => (d.domain_separator = '0x1234'), 'SUB-CHAIN-3'],
  ['domain_separator not hex', 'ON_CHAIN', (d) => (d.domain_separator = '0x' + 'zz'.repeat(32)), 'SUB-CHAIN-3'],
  ['domain_separator a number', 'ON_CHAIN', (d) => (d.domain_separator = 42), 'SUB-CHAIN-3'],
  ['domain_separator without 0x', 'ON_CHAIN', (d) => (d.domain_separator = 'ab'.repeat(32)), 'PRF-FIELD-1'],
  ['domain_separator with 0X', 'ON_CHAIN', (d) => (d.domain_separator = '0X' + 'ab'.repeat(32)), 'PRF-FIELD-1'],
  ['order_reference not 16 bytes', 'ON_CHAIN', (d) => (d.order_reference = 'ORDER-42'), 'SUB-CHAIN-1'],
  ['order_reference of 15 bytes as a UUID', 'ON_CHAIN', (d) => (d.order_reference = d.order_reference.slice(0, -2)), 'SUB-CHAIN-1'],
  ['order_reference in braces', 'ON_CHAIN', (d) => (d.order_reference = `{${d.order_reference}}`), 'SUB-CHAIN-1'],
  ['acquirer_id a number', 'ON_CHAIN', (d) => (d.acquirer_id = 0), 'SUB-CHAIN-1'],
  ['order_reference as upper-case UUID', 'ON_CHAIN', (d) => (d.order_reference = d.order_reference.toUpperCase()), 'PRF-FIELD-1'],
  ['order_reference without hyphens', 'ON_CHAIN', (d) => (d.order_reference = d.order_reference.replaceAll('-', '')), 'PRF-FIELD-1'],
  ['acquirer_id as 32 hex digits', 'ON_CHAIN', (d) => (d.acquirer_id = '0'.repeat(32)), 'PRF-FIELD-1'],
  ['acquirer_id as 0x and 32 hex digits', 'ON_CHAIN', (d) => (d.acquirer_id = '0x' + '0'.repeat(32)), 'PRF-FIELD-1'],
  ['ON_CHAIN request without rail_hint', 'ON_CHAIN', (d) => delete d.rail_hint, 'SUB-CHAIN-1'],
  ['ON_CHAIN request with rail_hint SEPA_CT', 'ON_CHAIN', (d) => (d.rail_hint = 'SEPA_CT'), 'SUB-CHAIN-1'],
  ['rail_hint ON_CHAIN on an IBAN request', 'IBAN', (d) => (d.rail_hint = 'ON_CHAIN'), 'SUB-CHAIN-1'],
  // SUB-IBAN-1 and the IBAN field defects: SUB-IBAN-1 / SUB-IBAN-2 / PRF-IBAN-1 / PRF-FIELD-1
  ['iban with a bad check digit', 'IBAN', address('iban', 'DE88370400440532013000'), 'SUB-IBAN-1', VALIDATOR_ONLY],
  ['iban one digit short for DE', 'IBAN', address('iban', 'DE8937040044053201300'), 'SUB-IBAN-1', VALIDATOR_ONLY],
  ['iban with a bad check digit, spaced', 'IBAN', address('iban', 'DE88 3704 0044 0532 0130 00'), 'SUB-IBAN-1'],
  ['iban a number', 'IBAN', address('iban', 89370400440532013000), 'SUB-IBAN-1'],
  ['iban with spaces', 'IBAN', address('iban', 'DE89 3704 0044 0532 0130 00'), 'PRF-IBAN-1'],
  ['iban lower case', 'IBAN', address('iban', 'de89370400440532013000'), 'PRF-IBAN-1'],
  ['bic with an unknown country', 'IBAN', address('bic', 'COBAXXFFXXX'), 'SUB-IBAN-1', VALIDATOR_ONLY],
  ['bic of 10 characters', 'IBAN', address('bic', 'COBADEFFXX'), 'SUB-IBAN-1'],
  ['bic lower case with an unknown country', 'IBAN', address('bic', 'cobaxxffxxx'), 'SUB-IBAN-1'],
  ['bic lower case', 'IBAN', address('bic', 'cobadeffxxx'), 'PRF-IBAN-1'],
  ['bic mixed case', 'IBAN', address('bic', 'CobaDEFF'), 'PRF-IBAN-1'],
  ['beneficiary_name missing', 'IBAN', (d) => delete d.beneficiary_name, 'SUB-IBAN-1'],
  ['beneficiary_name a number', 'IBAN', (d) => (d.beneficiary_name = 7), 'SUB-IBAN-1'],
  ['beneficiary_name empty', 'IBAN', (d) => (d.beneficiary_name = ''), 'PRF-FIELD-1'],
  ['beneficiary_name of 141 code points', 'IBAN', (d) => (d.beneficiary_name = 'b'.repeat(141)), 'PRF-FIELD-1'],
  ['remittance_info of 141 code points', 'IBAN', (d) => (d.remittance_info = 'r'.repeat(141)), 'SUB-IBAN-1'],
  ['remittance_info a number', 'IBAN', (d) => (d.remittance_info = 42), 'SUB-IBAN-1'],
  ['end_to_end_id a number', 'IBAN', (d) => (d.end_to_end_id = 42), 'SUB-IBAN-1'],
  ['end_to_end_id of 36 characters', 'IBAN', (d) => (d.end_to_end_id = 'E'.repeat(36)), 'PRF-FIELD-1'],
  ['end_to_end_id not ASCII', 'IBAN', (d) => (d.end_to_end_id = 'Rechnung-Ä42'), 'PRF-FIELD-1'],
  ['purpose_code of 5 letters', 'IBAN', (d) => (d.purpose_code = 'GOODS'), 'SUB-IBAN-2'],
  ['purpose_code of 3 letters', 'IBAN', (d) => (d.purpose_code = 'GDD'), 'SUB-IBAN-2'],
  ['purpose_code a number', 'IBAN', (d) => (d.purpose_code = 1234), 'SUB-IBAN-2'],
  ['purpose_code lower case', 'IBAN', (d) => (d.purpose_code = 'gdds'), 'PRF-FIELD-1'],
  // SUB-ACCT-1 / PRF-FIELD-1
  ['account beneficiary_name missing', 'ACCOUNT', (d) => delete d.beneficiary_name, 'SUB-ACCT-1'],
  ['account_number a number', 'ACCOUNT', address('account_number', 123456789), 'SUB-ACCT-1'],
  ['routing_code_type a number', 'ACCOUNT', address('routing_code_type', 1), 'SUB-ACCT-1'],
  ['account remittance_info of 141 code points', 'ACCOUNT', (d) => (d.remittance_info = SMILE.repeat(141)), 'SUB-ACCT-1'],
  ['account end_to_end_id null', 'ACCOUNT', (d) => (d.end_to_end_id = null), 'SUB-ACCT-1'],
  ['account_number empty', 'ACCOUNT', address('account_number', ''), 'PRF-FIELD-1'],
  ['bank_name of 141 code points', 'ACCOUNT', (d) => (d.payee.rail_address.bank_name = 'b'.repeat(141)), 'PRF-FIELD-1'],
  ['routing_code_type lower case', 'ACCOUNT', address('routing_code_type', 'aba'), 'PRF-FIELD-1'],
  // SUB-KEY-1 / PRF-FIELD-1
  ['key_value a number', 'INSTANT_KEY', address('key_value', 5511999999999), 'SUB-KEY-1'],
  ['key_type null', 'INSTANT_KEY', address('key_type', null), 'SUB-KEY-1'],
  ['instant-key beneficiary_name a number', 'INSTANT_KEY', (d) => (d.beneficiary_name = 7), 'SUB-KEY-1'],
  ['key_type lower case', 'INSTANT_KEY', address('key_type', 'evp'), 'PRF-FIELD-1'],
  ['key_value empty', 'INSTANT_KEY', address('key_value', ''), 'PRF-FIELD-1'],
  ['txid of 141 code points', 'INSTANT_KEY', (d) => (d.txid = 't'.repeat(141)), 'PRF-FIELD-1'],
  // PRF-CPR-1: closed objects
  ['unknown top-level member', 'IBAN', (d) => (d.note = 'hi'), 'PRF-CPR-1'],
  ['another sub-interface field at the top level', 'ON_CHAIN', (d) => (d.iban = 'DE89370400440532013000'), 'PRF-CPR-1'],
  ['unknown payee member', 'IBAN', (d) => (d.payee.logo = 'x'), 'PRF-CPR-1'],
  ['unknown value member', 'IBAN', (d) => (d.value.currency = 'EUR'), 'PRF-CPR-1'],
  ['unknown asset member', 'IBAN', (d) => (d.value.asset.decimals = 2), 'PRF-CPR-1'],
  // PRF-RAIL-1
  ['IBAN fields in an ON_CHAIN rail_address', 'ON_CHAIN', (d) => Object.assign(d.payee.rail_address, { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' }), 'PRF-RAIL-1'],
  ['a non-address field in rail_address', 'IBAN', (d) => (d.payee.rail_address.beneficiary_name = 'Beispiel GmbH'), 'PRF-RAIL-1'],
  ['an unknown field in rail_address', 'INSTANT_KEY', (d) => (d.payee.rail_address.nickname = 'shop'), 'PRF-RAIL-1'],
  ['top-level iban differs from rail_address', 'IBAN', (d) => (d.iban = 'GB82WEST12345698765432'), 'PRF-RAIL-1', VALIDATOR_ONLY],
  ['top-level bic without one in rail_address', 'IBAN', (d) => delete d.payee.rail_address.bic, 'PRF-RAIL-1', VALIDATOR_ONLY],
  ['asset chain_id differs from the on-chain chain_id', 'ON_CHAIN', (d) => (d.value.asset.chain_id = '137'), 'PRF-RAIL-1', VALIDATOR_ONLY],
];

// Valid variations: each must pass, with these notices.
const ACCEPTED: ReadonlyArray<readonly [string, SubInterface, (doc: Doc) => void]> = [
  ['memo of exactly 140 code points, astral included', 'ON_CHAIN', (d) => (d.memo = SMILE.repeat(140))],
  ['remittance_info of exactly 140 code points', 'IBAN', (d) => (d.remittance_info = SMILE.repeat(140))],
  ['an open amount', 'IBAN', (d) => delete d.value.amount],
  ['amount of 78 digits', 'IBAN', (d) => (d.value.amount = '9'.repeat(78))],
  ['no top-level mirrors', 'IBAN', (d) => (delete d.iban, delete d.bic)],
  ['an all-lower-case EVM address', 'ON_CHAIN', address('receiver_address', RECEIVER.toLowerCase())],
  ['an all-upper-case EVM address', 'ON_CHAIN', address('receiver_address', '0x' + RECEIVER.slice(2).toUpperCase())],
  ['a domain_separator in upper-case hex digits', 'ON_CHAIN', (d) => (d.domain_separator = '0x' + 'AB'.repeat(32))],
  ['a purpose_code of letters and digits', 'IBAN', (d) => (d.purpose_code = 'CBF1')],
  ['no acquirer_id, domain_separator or contract_address', 'ON_CHAIN', (d) => (delete d.acquirer_id, delete d.domain_separator, delete d.contract_address, delete d.payee.rail_address.contract_address)],
  ['crypto without chain_id', 'ON_CHAIN', (d) => ((d.value.asset.type = 'crypto'), (d.value.asset.code = 'ETH'), delete d.value.asset.chain_id)],
  ['a CAIP-2 chain_id on a fiat asset', 'IBAN', (d) => (d.value.asset.chain_id = 'eip155:1')],
  ['no display_name', 'INSTANT_KEY', (d) => delete d.payee.display_name],
  ['rail_hint OPEN', 'IBAN', (d) => (d.rail_hint = 'OPEN')],
  ['rail_hint SWIFT on an IBAN request', 'IBAN', (d) => (d.rail_hint = 'SWIFT')],
  ['no rail_hint on an account request', 'ACCOUNT', (d) => delete d.rail_hint],
  ['a key_type outside the examples', 'INSTANT_KEY', address('key_type', 'NATIONAL_ID')],
  ['a routing_code_type outside the examples', 'ACCOUNT', address('routing_code_type', 'CLABE')],
  ['a 8-character BIC', 'IBAN', address('bic', 'COBADEFF')],
  ['std: and reverse-domain extension keys', 'IBAN', (d) => (d.extensions = { 'std:loyalty': 1, 'com.example.pos.terminal': { id: 'T1' } })],
  ['expires_at a millisecond after created_at', 'IBAN', (d) => (d.expires_at = '2026-03-01T12:00:00.001Z')],
];

describe('validateCpr', () => {
  it.each(SUBS)('accepts a valid %s request with no notices', (sub) => {
    const result = validateCpr(VALID[sub]);
    expect(result).toEqual({ ok: true, cpr: VALID[sub], subInterface: sub, notices: [] });
  });

  it.each(MUTATIONS.map(([what, sub, change, req]) => [what, sub, change, req] as const))(
    'rejects %s (%s) under exactly its requirement',
    (_what, sub, change, requirement) => {
      expect(requirementsOf(variant(sub, change))).toEqual([requirement]);
    },
  );

  it.each(ACCEPTED)('accepts %s (%s)', (_what, sub, change) => {
    const result = validateCpr(variant(sub, change));
    expect(result.ok ? [] : result.violations).toEqual([]);
  });

  it('points each violation at the member at fault', () => {
    const result = validateCpr(variant('IBAN', (d) => ((d.payee.rail_address.iban = 'DE88370400440532013000'), (d.extensions['a/b~c'] = { payer: 1 }))));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.violations.map((v) => [v.requirement, v.path])).toEqual([
      ['CPR-PAYER-1', '/extensions/a~1b~0c/payer'],
      ['SUB-IBAN-1', '/payee/rail_address/iban'],
      ['PRF-RAIL-1', '/iban'],
    ]);
  });

  it('reports every violation, not only the first', () => {
    const doc = variant('ACCOUNT', (d) => {
      d.cpr_version = 'CPR-0.9';
      d.memo = 'x'.repeat(200);
      d.value.amount = '-5';
      d.payer_ref = 'p';
      d.routing_code_type = 'ABA ';
    });
    expect(requirementsOf(doc).sort()).toEqual(['CPR-MEMO-1', 'CPR-PAYER-1', 'CPR-VAL-2', 'CPR-VER-1', 'PRF-RAIL-1'].sort());
  });

  it('names one rule per member for a field defect: the spec\'s when the value lacks its meaning, else the profile\'s (PROFILE.md §7.4)', () => {
    const violations = (doc: Doc) => {
      const result = validateCpr(doc);
      return result.ok ? [] : result.violations.map((v) => [v.requirement, v.path]);
    };
    expect(violations(variant('ON_CHAIN', address('receiver_address', RECEIVER.replace('aA', 'Aa'))))).toEqual([['PRF-EVM-1', '/payee/rail_address/receiver_address']]);
    expect(violations(variant('ON_CHAIN', address('receiver_address', 'Z' + RECEIVER.slice(1))))).toEqual([['SUB-CHAIN-1', '/payee/rail_address/receiver_address']]);
    expect(violations(variant('IBAN', (d) => ((d.purpose_code = 'gdd'), (d.value.asset.code = 'eur'))))).toEqual([
      ['PRF-ASSET-1', '/value/asset/code'],
      ['SUB-IBAN-2', '/purpose_code'],
    ]);
  });

  it('reports only requirement IDs the registry defines', () => {
    const ids = new Set([...MUTATIONS.map((row) => row[3]), 'CPR-VAL-2', 'PRF-AMT-1', 'PRF-TIME-1', 'PRF-JSON-1', 'CPR-ID-2']);
    for (const sub of SUBS) ids.add(SUB_INTERFACE_FIELDS[sub].requirement);
    for (const id of ids) expect(findRequirement(id), id).toBeDefined();
  });

  it('is a single PRF-CPR-1 violation for something that is not an object', () => {
    for (const doc of [null, 'CPR-1.0', 42, [VALID.IBAN]]) {
      expect(validateCpr(doc)).toEqual({ ok: false, violations: [{ requirement: 'PRF-CPR-1', path: '', message: 'a CPR is a JSON object' }] });
    }
  });

  it('checks each required field of every sub-interface', () => {
    for (const sub of SUBS) {
      const { address: a, other } = SUB_INTERFACE_FIELDS[sub];
      for (const field of other.required) expect(requirementsOf(variant(sub, (d) => delete d[field]))).toEqual([SUB_INTERFACE_FIELDS[sub].requirement]);
      // Without a required address field, the rail_address names no sub-interface at all.
      for (const field of a.required) expect(requirementsOf(variant(sub, (d) => delete d.payee.rail_address[field]))).toEqual(['CPR-PAYEE-1']);
    }
    for (const field of ['cpr_version', 'request_id', 'created_at', 'expires_at', 'payee', 'value']) {
      expect(requirementsOf(variant('IBAN', (d) => delete d[field]))).toHaveLength(1);
    }
  });
});

describe('memo length in code points (PROFILE.md §1)', () => {
  it.each([
    ['140 ASCII', 'a'.repeat(140), true],
    ['141 ASCII', 'a'.repeat(141), false],
    ['140 astral characters (280 UTF-16 units)', SMILE.repeat(140), true],
    ['141 astral characters', SMILE.repeat(141), false],
    ['139 ASCII and one astral', 'a'.repeat(139) + SMILE, true],
    ['empty', '', true],
  ])('%s: valid %s', (_what, memo, ok) => {
    expect(requirementsOf(variant('IBAN', (d) => (d.memo = memo)))).toEqual(ok ? [] : ['CPR-MEMO-1']);
  });
});

describe('amount grammar', () => {
  // The spec wants a whole amount of the smallest unit (CPR-VAL-2); the profile one written form (PRF-AMT-1).
  it.each([
    ['1', undefined],
    ['100', undefined],
    ['0', 'PRF-AMT-1'],
    ['01', 'PRF-AMT-1'],
    ['1e3', 'PRF-AMT-1'],
    [100, 'PRF-AMT-1'],
    ['9'.repeat(79), 'PRF-AMT-1'],
    ['-1', 'CPR-VAL-2'],
    ['1.5', 'CPR-VAL-2'],
    [1.5, 'CPR-VAL-2'],
    [' 1', 'CPR-VAL-2'],
    ['', 'CPR-VAL-2'],
    ['ten', 'CPR-VAL-2'],
    [null, 'CPR-VAL-2'],
    [true, 'CPR-VAL-2'],
    // Decided on the digits, exactly (PROFILE.md §1, amount defects), never through a double:
    ['1e400', 'PRF-AMT-1'],
    ['1.00000000000000000001', 'CPR-VAL-2'],
    ['10000000000000000000000.5', 'CPR-VAL-2'],
    ['1.0000000000000000000', 'PRF-AMT-1'],
    ['12.5e1', 'PRF-AMT-1'],
    ['1250e-1', 'PRF-AMT-1'],
    ['1255e-1', 'CPR-VAL-2'],
    ['-0', 'PRF-AMT-1'],
    ['-0.0e5', 'PRF-AMT-1'],
    ['-1e400', 'CPR-VAL-2'],
    ['+5', 'PRF-AMT-1'],
    ['.5e1', 'PRF-AMT-1'],
    ['5.', 'PRF-AMT-1'],
    ['.', 'CPR-VAL-2'],
    ['e5', 'CPR-VAL-2'],
    ['1e', 'CPR-VAL-2'],
    ['0x10', 'CPR-VAL-2'],
    ['1_000', 'CPR-VAL-2'],
  ] as const)('amount %j breaks %s', (amount, requirement) => {
    expect(requirementsOf(variant('IBAN', (d) => (d.value.amount = amount)))).toEqual(requirement ? [requirement] : []);
  });
});

describe('validity window (CPR-TIME-2)', () => {
  it.each([
    [900, []],
    [901, []],
    [899, ['CPR-TIME-2']],
  ] as const)('a window of %i s gives %j for a request valid 900.25 s', (seconds, expected) => {
    const doc = variant('IBAN', (d) => (d.expires_at = '2026-03-01T12:15:00Z'));
    expect(requirementsOf(doc, seconds)).toEqual(expected);
  });

  it('accepts any window when none is configured', () => {
    expect(requirementsOf(variant('IBAN', (d) => (d.expires_at = '2027-03-01T12:00:00Z')))).toEqual([]);
  });
});

describe('rail_hint', () => {
  it('reads an unknown rail_hint string as valid, with a notice', () => {
    const result = validateCpr(variant('IBAN', (d) => (d.rail_hint = 'FEDNOW')));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.notices).toHaveLength(1);
    expect(result.notices[0]).toContain('FEDNOW');
  });

  it('exposes the payee-side check separately', () => {
    expect(unknownRailHint(variant('IBAN', (d) => (d.rail_hint = 'FEDNOW')))).toMatchObject({ requirement: 'CPR-RAIL-1', path: '/rail_hint' });
    for (const hint of RAIL_HINTS) expect(unknownRailHint({ rail_hint: hint })).toBeUndefined();
    expect(unknownRailHint({})).toBeUndefined();
  });
});

describe('advisory notices', () => {
  it('notes extension keys that are neither std: nor reverse-domain, and ignores their content', () => {
    const result = validateCpr(variant('IBAN', (d) => (d.extensions = { loyalty: { points: 3 }, 'std:x': null })));
    expect(result.ok).toBe(true);
    expect(result.ok && result.notices).toEqual([expect.stringContaining('"loyalty"')]);
  });

  it('notes a request_id that is not UUIDv4 (CPR-ID-2 is a SHOULD)', () => {
    const result = validateCpr(variant('IBAN', (d) => (d.request_id = '5f0c6b8e-2a4d-1c1e-9b7a-3d2e1f0a9c8b')));
    expect(result.ok && result.notices).toEqual([expect.stringContaining('CPR-ID-2')]);
  });
});

describe('EIP-55', () => {
  // Vectors from EIP-55.
  const VECTORS = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each(VECTORS)('checksums %s', (vector) => {
    expect(toChecksumAddress(vector.toLowerCase())).toBe(vector);
    expect(isEvmAddress(vector)).toBe(true);
  });

  it('rejects a mixed-case address with one letter flipped, and malformed ones', () => {
    expect(isEvmAddress(VECTORS[0]!.replace('aA', 'AA'))).toBe(false);
    for (const bad of ['0x' + 'g'.repeat(40), '0X' + 'a'.repeat(40), 'a'.repeat(42), '0x' + 'a'.repeat(39), 42]) {
      expect(isEvmAddress(bad)).toBe(false);
    }
    expect(() => toChecksumAddress('0x12')).toThrow(TypeError);
  });
});

describe('profile/schemas/cpr.schema.json agrees with validateCpr', () => {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true });
  const schema = JSON.parse(readFileSync(new URL('../../profile/schemas/cpr.schema.json', import.meta.url), 'utf8'));
  const check = ajv.compile(schema);

  it('has the profile $id', () => {
    expect(schema.$id).toBe('https://cpr-conformance.dev/schemas/cpr.schema.json');
  });

  it.each(SUBS)('accepts the valid %s request', (sub) => {
    expect(check(VALID[sub]), JSON.stringify(check.errors)).toBe(true);
  });

  it.each(ACCEPTED)('accepts %s (%s)', (_what, sub, change) => {
    expect(check(variant(sub, change)), JSON.stringify(check.errors)).toBe(true);
  });

  it.each(MUTATIONS.filter((row) => row[4] !== false).map(([what, sub, change]) => [what, sub, change] as const))(
    'rejects %s (%s)',
    (_what, sub, change) => {
      expect(check(variant(sub, change))).toBe(false);
    },
  );
});
