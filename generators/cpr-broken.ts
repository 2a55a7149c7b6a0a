// brokenCpr: CPRs that are valid except for exactly one rule (spec §2, PROFILE.md
// §7). Each value starts from validCpr and applies one mutation from
// CPR_MUTATIONS; `rule` is the registry ID validateCpr reports for it, so a paying
// application must reject the result with CPR_INVALID (CPR_VERSION_UNSUPPORTED
// for CPR-VER-1) listing that requirement, and validateCpr reports no other rule
// unless the mutation's `alsoBreaks` says so (no entry needs it today).
//
// Not in the table: the validity-window half of CPR-TIME-2 (expires_at more than
// the payee's window after created_at) is a payee-side rule that validateCpr
// checks only when given validitySeconds, and an unlisted rail_hint string is a
// notice, not a violation (PROFILE.md §8.3); neither breaks a CPR for a paying app.
import fc from 'fast-check';
import {
  RAIL_FIELDS,
  SUB_INTERFACES,
  SUB_INTERFACE_FIELDS,
  addressFields,
  isEvmAddress,
  otherFields,
  toChecksumAddress,
  type Cpr,
  type SubInterface,
} from '../profile/cpr/index.ts';
import { resolveCprConstraints, validCpr, type ValidCprConstraints } from './cpr.ts';
import * as R from './parts/rails.ts';
import { exactCodePoints } from './parts/text.ts';

// Mutations poke at arbitrary members of a copy; `any` keeps them terse.
type Doc = Record<string, any>;

/** What one mutation produced: the broken document, where, and how (for reports). */
export interface MutationResult {
  readonly cpr: unknown;
  /** JSON pointer (RFC 6901) of the member changed; '' for the whole document. */
  readonly path: string;
  readonly description: string;
}

export interface CprMutation {
  /** Stable id of the mutation ("missing:cpr_version"); never its position. */
  readonly name: string;
  /** The registry ID validateCpr reports for the broken rule. */
  readonly rule: string;
  /** Other rules the mutation necessarily breaks too (none today). */
  readonly alsoBreaks: readonly string[];
  /** Sub-interfaces it applies to. */
  readonly subInterfaces: readonly SubInterface[];
  /** The mutation, applied to a copy of a valid CPR of `sub`. */
  readonly mutate: (cpr: Cpr, sub: SubInterface) => fc.Arbitrary<MutationResult>;
}

export interface BrokenCpr extends MutationResult {
  readonly rule: string;
  readonly alsoBreaks: readonly string[];
  readonly mutation: string;
  readonly subInterface: SubInterface;
}

export interface BrokenCprConstraints extends ValidCprConstraints {
  /** Only mutations that break one of these registry IDs. @defaultValue every rule of CPR_MUTATIONS */
  readonly rules?: readonly string[];
  /** Only these mutations, by name. @defaultValue every mutation */
  readonly mutations?: readonly string[];
}

// ------------------------------------------------------------- helpers

const ALL = SUB_INTERFACES;
const OFF_CHAIN: readonly SubInterface[] = ['IBAN', 'ACCOUNT', 'INSTANT_KEY'];

const clone = (cpr: Cpr): Doc => structuredClone(cpr) as Doc;
const show = (v: unknown): string => (typeof v === 'string' && [...v].length > 40 ? `${[...v].length} code points` : JSON.stringify(v));
const ptr = (...segments: string[]): string => segments.map((s) => '/' + s.replaceAll('~', '~0').replaceAll('/', '~1')).join('');

/** Sets `value` at a member path; `undefined` deletes. */
function put(doc: Doc, path: readonly string[], value: unknown): void {
  const parent = path.slice(0, -1).reduce<Doc>((o, k) => o[k] as Doc, doc);
  const key = path[path.length - 1] as string;
  if (value === undefined) delete parent[key];
  // A copy, so generated values never share a variant's object; defineProperty is safe for any key.
  else Object.defineProperty(parent, key, { value: structuredClone(value), enumerable: true, writable: true, configurable: true });
}

/** One change at one path, with each of `values` as a variant. */
function replace(path: readonly string[], values: readonly unknown[], what: string) {
  return (cpr: Cpr): fc.Arbitrary<MutationResult> =>
    fc.constantFrom(...values).map((value) => {
      const doc = clone(cpr);
      put(doc, path, value);
      return { cpr: doc, path: ptr(...path), description: `${what}: ${path.join('.')} = ${show(value)}` };
    });
}

function remove(path: readonly string[]) {
  return (cpr: Cpr): fc.Arbitrary<MutationResult> => {
    const doc = clone(cpr);
    put(doc, path, undefined);
    return fc.constant({ cpr: doc, path: ptr(...path), description: `${path.join('.')} removed` });
  };
}

/** An address field set in payee.rail_address and in its top-level copy, if there is one (so the copy still matches). */
function putAddress(doc: Doc, field: string, value: unknown): void {
  put(doc, ['payee', 'rail_address', field], value);
  if (Object.hasOwn(doc, field)) put(doc, [field], value);
}

function replaceAddress(fields: readonly string[], values: fc.Arbitrary<unknown> | readonly unknown[], what: string) {
  const arb = Array.isArray(values) ? fc.constantFrom(...(values as unknown[])) : (values as fc.Arbitrary<unknown>);
  return (cpr: Cpr): fc.Arbitrary<MutationResult> =>
    fc.tuple(fc.constantFrom(...fields), arb).map(([field, value]) => {
      const doc = clone(cpr);
      putAddress(doc, field, value);
      return { cpr: doc, path: ptr('payee', 'rail_address', field), description: `${what}: payee.rail_address.${field} = ${show(value)}` };
    });
}

/** A top-level field (not an address field) set to each of the values. */
function replaceTop(fields: readonly string[], values: fc.Arbitrary<unknown> | readonly unknown[], what: string) {
  const arb = Array.isArray(values) ? fc.constantFrom(...(values as unknown[])) : (values as fc.Arbitrary<unknown>);
  return (cpr: Cpr): fc.Arbitrary<MutationResult> =>
    fc.tuple(fc.constantFrom(...fields), arb).map(([field, value]) => {
      const doc = clone(cpr);
      put(doc, [field], value);
      return { cpr: doc, path: ptr(field), description: `${what}: ${field} = ${show(value)}` };
    });
}

function entry(name: string, rule: string, subInterfaces: readonly SubInterface[], mutate: CprMutation['mutate']): CprMutation {
  return { name, rule, alsoBreaks: [], subInterfaces, mutate };
}

const tooLong = exactCodePoints(141);

/** A mixed-case address whose EIP-55 checksum is wrong: one letter's case flipped. */
const badChecksumAddress: fc.Arbitrary<string> = fc
  .tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat())
  .map(([bytes, pick]) => {
    const good = toChecksumAddress(`0x${Buffer.from(bytes).toString('hex')}`);
    const letters = [...good.slice(2)].flatMap((c, i) => (/[a-fA-F]/.test(c) ? [i + 2] : []));
    for (let k = 0; k < letters.length; k++) {
      const at = letters[(pick + k) % letters.length] as number;
      const c = good[at] as string;
      const flipped = good.slice(0, at) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + good.slice(at + 1);
      if (!isEvmAddress(flipped)) return flipped;
    }
    return '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'; // EIP-55 vector with its last letter's case flipped
  });

/** An EVM address in its EIP-55 form (mixed case). */
const evmAddress: fc.Arbitrary<string> = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => toChecksumAddress(`0x${Buffer.from(bytes).toString('hex')}`));

/** ISO 13616 paper format: groups of four, spaced. */
const paperFormat = (iban: string): string => iban.replace(/(.{4})(?!$)/g, '$1 ');

/** An ON_CHAIN request whose asset is a crypto asset without chain_id, so the on-chain chain_id can change alone. */
function onChainWithoutAssetChain(cpr: Cpr): Doc {
  const doc = clone(cpr);
  doc.value.asset = { type: 'crypto', code: doc.value.asset.code };
  return doc;
}

/** Another valid value for an address field (for a top-level copy that disagrees). */
const OTHER_VALUE: Readonly<Record<string, (v: string) => string>> = {
  chain_id: (v) => (v === '1' ? '137' : '1'),
  receiver_address: (v) => (v.toLowerCase() === '0x' + '11'.repeat(20) ? '0x' + '22'.repeat(20) : '0x' + '11'.repeat(20)),
  contract_address: (v) => (v.toLowerCase() === '0x' + '11'.repeat(20) ? '0x' + '22'.repeat(20) : '0x' + '11'.repeat(20)),
  iban: (v) => (v === 'DE89370400440532013000' ? 'GB82WEST12345698765432' : 'DE89370400440532013000'),
  bic: (v) => (v === 'COBADEFFXXX' ? 'DEUTDEFF' : 'COBADEFFXXX'),
  routing_code_type: (v) => (v === 'ABA' ? 'IFSC' : 'ABA'),
  key_type: (v) => (v === 'EVP' ? 'CPF' : 'EVP'),
};
const otherValue = (field: string, v: string): string => (OTHER_VALUE[field] ?? ((x: string) => (x === 'A' ? 'B' : 'A')))(v);

function timestampVariants(text: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?Z$/.exec(text);
  const [, y = '2026', mo = '01', d = '01', h = '00', mi = '00', s = '00'] = m ?? [];
  return [
    `${y}-${mo}-${d}t${h}:${mi}:${s}z`, // lower-case t and z
    `${y}-${mo}-${d}T${h}:${mi}:${s}+00:00`, // numeric zero offset
    `${y}-${mo}-${d} ${h}:${mi}:${s}Z`, // space separator
    `${y}-${mo}-${d}T${h}:${mi}:${s}.1234Z`, // four fraction digits
    `${y}-${mo}-${d}T${h}:${mi}:${s},5Z`, // comma fraction
    `${y}-${mo}-${d}T${h}:${mi}Z`, // no seconds
    `${y}${mo}${d}T${h}${mi}${s}Z`, // basic format
    `${y}-02-30T${h}:${mi}:${s}Z`, // a date that does not exist
    `${y}-${mo}-${d}T24:00:00Z`, // 24:00
    `${y}-${mo}-${d}T23:59:60Z`, // leap second
  ];
}

// ------------------------------------------------------------- the table

/** Address fields required by some sub-interface: adding one to rail_address could change which sub-interface it names. */
const REQUIRED_ADDRESS = new Set<string>(SUB_INTERFACES.flatMap((s) => SUB_INTERFACE_FIELDS[s].address.required));

function subRule(sub: SubInterface): string {
  return SUB_INTERFACE_FIELDS[sub].requirement;
}

/** One entry per sub-interface for a field rule whose registry ID is the sub-interface's. */
function perSub(
  field: string,
  subs: readonly SubInterface[],
  build: (sub: SubInterface) => CprMutation['mutate'],
  label = 'bad',
): CprMutation[] {
  return subs.map((sub) => entry(`${sub}:${field}:${label}`, subRule(sub), [sub], build(sub)));
}

const MUTATIONS: CprMutation[] = [
  // §2.1 base fields -------------------------------------------------------------
  entry('missing:cpr_version', 'CPR-VER-1', ALL, remove(['cpr_version'])),
  entry(
    'cpr_version:other-version',
    'CPR-VER-1',
    ALL,
    replace(['cpr_version'], ['CPR-1.1', 'CPR-2.0', 'cpr-1.0', 'CPR-1', '1.0', 'CPR-1.0.0', ' CPR-1.0', 'CPR-1.0\n', 1, 1.0, null, true], 'unsupported cpr_version'),
  ),
  entry('missing:request_id', 'CPR-ID-1', ALL, remove(['request_id'])),
  entry('request_id:not-canonical-uuid', 'CPR-ID-1', ALL, (cpr) =>
    fc.constantFrom<(id: string) => unknown>(
      (id) => id.toUpperCase(),
      (id) => id.replaceAll('-', ''),
      (id) => `{${id}}`,
      (id) => `urn:uuid:${id}`,
      (id) => id.slice(0, 35),
      (id) => `${id}0`,
      () => 'not-a-uuid',
      () => 42,
      () => null,
    ).map((f) => {
      const value = f(cpr.request_id);
      const doc = clone(cpr);
      doc.request_id = value;
      return { cpr: doc, path: '/request_id', description: `request_id not a canonical lower-case UUID: ${show(value)}` };
    }),
  ),
  entry('missing:created_at', 'CPR-TIME-1', ALL, remove(['created_at'])),
  entry('missing:expires_at', 'CPR-TIME-1', ALL, remove(['expires_at'])),
  entry(
    'timestamp:not-iso8601',
    'CPR-TIME-1',
    ALL,
    replaceTop(['created_at', 'expires_at'], ['tomorrow', '2026-01-01', '01/01/2026 10:00:00', '', 'T10:00:00Z', 1767225600000, null], 'not an ISO 8601 UTC timestamp'),
  ),
  entry('timestamp:other-iso8601-form', 'PRF-TIME-1', ALL, (cpr) =>
    fc.constantFrom('created_at', 'expires_at').chain((field) =>
      fc.constantFrom(...timestampVariants((cpr as Doc)[field] as string)).map((value) => {
        const doc = clone(cpr);
        doc[field] = value;
        return { cpr: doc, path: ptr(field), description: `${field} in an ISO 8601 form the profile does not accept: ${value}` };
      }),
    ),
  ),
  entry('expires_at:not-after-created_at', 'CPR-TIME-2', ALL, (cpr) =>
    fc.integer({ min: 0, max: 86_400_000 }).map((before) => {
      const doc = clone(cpr);
      const created = Date.parse(cpr.created_at);
      doc.expires_at = before === 0 ? cpr.created_at : new Date(created - before).toISOString();
      return { cpr: doc, path: '/expires_at', description: before === 0 ? 'expires_at equals created_at' : `expires_at ${before} ms before created_at` };
    }),
  ),
  entry('memo:too-long', 'CPR-MEMO-1', ALL, (cpr) =>
    fc.oneof(tooLong, exactCodePoints(142), fc.constant('😀'.repeat(141))).map((memo) => {
      const doc = clone(cpr);
      doc.memo = memo;
      return { cpr: doc, path: '/memo', description: `memo of ${[...memo].length} code points (limit 140)` };
    }),
  ),
  entry('memo:not-a-string', 'CPR-MEMO-1', ALL, replace(['memo'], [42, null, ['memo'], { text: 'memo' }, true], 'memo not a string')),
  // Only off-chain: an ON_CHAIN request without the string "ON_CHAIN" also breaks SUB-CHAIN-1.
  entry('rail_hint:not-a-string', 'CPR-RAIL-1', OFF_CHAIN, replace(['rail_hint'], [1, null, ['SEPA_CT'], { rail: 'ACH' }, true], 'rail_hint not a string')),
  entry('extensions:not-an-object', 'CPR-EXT-1', ALL, replace(['extensions'], [[], ['std:x'], 'std:invoice', 42, null, true], 'extensions not an object')),

  // §1.1, §2.6: no payer data ------------------------------------------------------
  entry('payer:top-level', 'CPR-PAYER-1', ALL, (cpr) =>
    fc
      .tuple(
        fc.constantFrom('payer', 'authorization', 'settlement', 'payer_name', 'payer_account', 'payer_id'),
        fc.constantFrom<unknown>('Jane Doe', { name: 'Jane Doe' }, { iban: 'DE89370400440532013000' }, 'Bearer abc', true, null, 0),
      )
      .map(([key, value]) => {
        const doc = clone(cpr);
        put(doc, [key], value);
        return { cpr: doc, path: ptr(key), description: `payer member ${key} at the top level` };
      }),
  ),
  entry('payer:in-extensions', 'CPR-PAYER-1', ALL, (cpr) =>
    fc
      .tuple(fc.constantFrom('payer', 'payer_email', 'authorization', 'settlement'), fc.constantFrom('direct', 'nested', 'in-array'), fc.constantFrom('com.example.checkout', 'com.example/checkout', 'com.example.check~out', 'com.example.a~1b/v2'))
      .map(([key, where, extKey]) => {
        const doc = clone(cpr);
        const ext: Doc = (doc.extensions as Doc | undefined) ?? {};
        doc.extensions = ext;
        const member = { [key]: 'Jane Doe' };
        if (where === 'direct') {
          put(ext, [key], { name: 'Jane Doe' });
          return { cpr: doc, path: ptr('extensions', key), description: `payer member ${key} as an extensions key` };
        }
        put(ext, [extKey], where === 'nested' ? { context: member } : { items: [member] });
        const path = where === 'nested' ? ptr('extensions', extKey, 'context', key) : ptr('extensions', extKey, 'items', '0', key);
        return { cpr: doc, path, description: `payer member ${key} inside extensions.${extKey}` };
      }),
  ),
  entry('payer:in-nested-object', 'CPR-PAYER-1', ALL, (cpr) =>
    fc
      .tuple(fc.constantFrom(['payee'], ['value'], ['value', 'asset'], ['payee', 'rail_address']), fc.constantFrom('payer', 'payer_name', 'authorization', 'settlement'))
      .map(([at, key]) => {
        const doc = clone(cpr);
        put(doc, [...at, key], 'Jane Doe');
        return { cpr: doc, path: ptr(...at, key), description: `payer member ${key} in ${at.join('.')}` };
      }),
  ),

  // PROFILE.md §7.1: closed objects -------------------------------------------------
  entry(
    'unknown-member:top-level',
    'PRF-CPR-1',
    ALL,
    // Names holding "/" or "~" too: their JSON Pointer escapes them (RFC 6901 §3, "~1" and "~0").
    replaceTop(['amount', 'currency', 'note', 'callback_url', 'signature', 'version', 'x-custom', 'payee_name', 'Memo', 'meta/v2', '~note', 'a~1b', 'x/~y'], ['x', 1, {}, null], 'unknown top-level member'),
  ),
  entry('unknown-member:nested', 'PRF-CPR-1', ALL, (cpr) =>
    fc.constantFrom(['payee', 'email'], ['value', 'currency'], ['value', 'asset', 'decimals'], ['value', 'minimum']).map((path) => {
      const doc = clone(cpr);
      put(doc, path, 'x');
      return { cpr: doc, path: ptr(...path), description: `unknown member ${path.join('.')}` };
    }),
  ),
  // A member whose name holds "/" or "~", at the top or inside an object: its violation's path escapes them (RFC 6901 §3).
  entry('unknown-member:name-with-slash-or-tilde', 'PRF-CPR-1', ALL, (cpr) =>
    fc.tuple(fc.constantFrom([], ['payee'], ['value'], ['value', 'asset']), fc.constantFrom('meta/v2', '~note', 'a~1b', 'x/~y', '/', '~')).map(([at, name]) => {
      const doc = clone(cpr);
      put(doc, [...at, name], 'x');
      return { cpr: doc, path: ptr(...at, name), description: `unknown member ${JSON.stringify(name)}${at.length > 0 ? ` in ${at.join('.')}` : ' at the top level'}` };
    }),
  ),
  entry('rail-field:other-sub-interface-at-top-level', 'PRF-CPR-1', ALL, (cpr, sub) => {
    const own = new Set<string>([...addressFields(sub), ...otherFields(sub)]);
    const foreign = RAIL_FIELDS.filter((f) => !own.has(f));
    return fc.constantFrom(...foreign).map((field) => {
      const doc = clone(cpr);
      put(doc, [field], 'ABCD');
      return { cpr: doc, path: ptr(field), description: `${field}, a field of another sub-interface, at the top level of a ${sub} request` };
    });
  }),
  entry('document:not-an-object', 'PRF-CPR-1', ALL, (cpr) =>
    fc.constantFrom<(d: Cpr) => unknown>((d) => [d], (d) => JSON.stringify(d), () => null, () => 42).map((f) => ({
      cpr: f(cpr),
      path: '',
      description: 'the document is not a JSON object',
    })),
  ),

  // §2.2 payee ----------------------------------------------------------------------
  entry('missing:payee', 'CPR-PAYEE-1', ALL, remove(['payee'])),
  entry('payee:not-an-object', 'CPR-PAYEE-1', ALL, replace(['payee'], ['Example Shop', [], null, 42], 'payee not an object')),
  entry('missing:payee.rail_address', 'CPR-PAYEE-1', ALL, remove(['payee', 'rail_address'])),
  entry('rail_address:not-an-object', 'CPR-PAYEE-1', ALL, replace(['payee', 'rail_address'], ['DE89370400440532013000', [], null], 'rail_address not an object')),
  entry('rail_address:names-no-sub-interface', 'CPR-PAYEE-1', ALL, (cpr, sub) =>
    fc.constantFrom(...SUB_INTERFACE_FIELDS[sub].address.required).map((field) => {
      const doc = clone(cpr);
      put(doc, ['payee', 'rail_address', field], undefined);
      put(doc, [field], undefined);
      return { cpr: doc, path: ptr('payee', 'rail_address', field), description: `required address field ${field} of ${sub} removed: rail_address names no sub-interface` };
    }),
  ),
  entry('display_name:bad', 'CPR-PAYEE-1', ALL, (cpr) =>
    fc.oneof(fc.constant<unknown>(''), tooLong, fc.constant<unknown>(42)).map((value) => {
      const doc = clone(cpr);
      put(doc, ['payee', 'display_name'], value);
      return { cpr: doc, path: '/payee/display_name', description: `display_name = ${show(value)} (1 to 140 code points)` };
    }),
  ),

  // §2.3 value and asset ------------------------------------------------------------
  entry('missing:value', 'CPR-VAL-1', ALL, remove(['value'])),
  entry('value:not-an-object', 'CPR-VAL-1', ALL, replace(['value'], ['100 EUR', [], null, 100], 'value not an object')),
  entry('missing:value.asset', 'CPR-VAL-1', ALL, remove(['value', 'asset'])),
  entry('asset:not-an-object', 'CPR-VAL-1', ALL, replace(['value', 'asset'], ['EUR', null, ['fiat', 'EUR']], 'value.asset not an object')),
  entry('asset.type:unknown', 'CPR-VAL-1', ALL, replace(['value', 'asset', 'type'], ['FIAT', 'token', 'cash', 'coin', '', 1, null], 'unknown asset type')),
  entry('missing:value.asset.type', 'CPR-VAL-1', ALL, remove(['value', 'asset', 'type'])),
  entry('missing:value.asset.code', 'CPR-VAL-1', ALL, remove(['value', 'asset', 'code'])),
  // PROFILE.md §7.4 "Field defects": a code without the spec's meaning breaks CPR-VAL-3, one written otherwise PRF-ASSET-1.
  entry('asset.code:not-a-code', 'CPR-VAL-3', ALL, (cpr) => {
    const fiat = cpr.value.asset.type === 'fiat';
    const values: unknown[] = fiat ? ['EURO', 'E1R', 'EU', '€', '', '978', 978, null] : ['', 42, null, true];
    return replace(['value', 'asset', 'code'], values, `not ${fiat ? 'an ISO 4217 code' : 'a token symbol or contract reference'}`)(cpr);
  }),
  entry('asset.code:non-profile-form', 'PRF-ASSET-1', ALL, (cpr) => {
    const fiat = cpr.value.asset.type === 'fiat';
    const code = cpr.value.asset.code as string;
    const values: unknown[] = fiat ? [code.toLowerCase(), code[0] + code.slice(1).toLowerCase()] : ['US DC', 'X'.repeat(65), 'ÜSDC', 'tab\tUSDC'];
    return replace(['value', 'asset', 'code'], values, `${fiat ? 'an ISO 4217 code' : 'a token code'} not written as the profile requires`)(cpr);
  }),
  entry('asset.chain_id:missing-for-chain-bound-type', 'CPR-VAL-1', ALL, (cpr) =>
    fc.constantFrom('stablecoin', 'tokenized').map((type) => {
      const doc = clone(cpr);
      doc.value.asset.type = type;
      delete doc.value.asset.chain_id;
      if (!/^[\x21-\x7e]{1,64}$/.test(doc.value.asset.code)) doc.value.asset.code = 'USDC';
      return { cpr: doc, path: '/value/asset/chain_id', description: `a ${type} asset without chain_id` };
    }),
  ),
  // On ON_CHAIN requests a different string chain_id also breaks PRF-RAIL-1 (the two must agree), so only non-strings there.
  entry('asset.chain_id:not-a-chain-id', 'CPR-VAL-1', ALL, (cpr, sub) =>
    replace(['value', 'asset', 'chain_id'], sub === 'ON_CHAIN' ? [1, null, true] : ['', 1, null, true], 'chain_id not a non-empty string')(cpr),
  ),
  entry('asset.chain_id:non-profile-form', 'PRF-ASSET-1', OFF_CHAIN, replace(['value', 'asset', 'chain_id'], ['0', '01', '0x1', 'eip155', 'Ethereum', 'EIP155:1', 'ab:1', ' 1'], 'chain_id neither decimal EIP-155 nor CAIP-2')),
  entry(
    'amount:not-an-amount',
    'CPR-VAL-2',
    ALL,
    replace(['value', 'amount'], ['ten', '-5', '1.5', '', '0x10', '1,000', '1 000', ' 5', '1.00000000000000000001', '1e-1', '-1e400', true, null, {}, [], -5, 1.5], 'not an amount'),
  ),
  entry(
    'amount:non-profile-form',
    'PRF-AMT-1',
    ALL,
    replace(['value', 'amount'], ['0', '007', '1e3', '1E6', '1e400', '+5', '1.0', '1.', '-0', '1250e-1', '1' + '0'.repeat(78), 100, 0], 'a whole amount not written as the profile requires'),
  ),

  // §2.5 sub-interfaces. PROFILE.md §7.4 "Field defects": a value without the spec's meaning breaks the
  // spec's rule (SUB-CHAIN-1, SUB-CHAIN-3, SUB-IBAN-1, SUB-IBAN-2, SUB-ACCT-1, SUB-KEY-1), one with it
  // written otherwise the profile's (PRF-EVM-1, PRF-IBAN-1, PRF-FIELD-1).

  // ON_CHAIN ----------------------------------------------------------------------------
  ...(['receiver_address', 'contract_address'] as const).map((field) =>
    entry(
      `ON_CHAIN:${field}:not-an-address`,
      field === 'receiver_address' ? 'SUB-CHAIN-1' : 'SUB-CHAIN-3',
      ['ON_CHAIN'],
      replaceAddress([field], ['0x' + 'a'.repeat(39), '0x' + 'b'.repeat(41), '0x' + 'g'.repeat(40), 'c'.repeat(39), 'vitalik.eth', '', 42, null], 'not 20 bytes of hex'),
    ),
  ),
  entry('ON_CHAIN:evm-address:bad-checksum', 'PRF-EVM-1', ['ON_CHAIN'], replaceAddress(['receiver_address', 'contract_address'], badChecksumAddress, 'mixed case with a wrong EIP-55 checksum')),
  entry('ON_CHAIN:evm-address:non-profile-form', 'PRF-EVM-1', ['ON_CHAIN'], (cpr) =>
    fc.tuple(fc.constantFrom('receiver_address', 'contract_address'), evmAddress).chain(([field, address]) =>
      fc.constantFrom(address.slice(2), address.slice(2).toLowerCase(), '0X' + address.slice(2).toLowerCase(), '0X' + address.slice(2).toUpperCase()).map((value) => {
        const doc = clone(cpr);
        putAddress(doc, field, value);
        return { cpr: doc, path: ptr('payee', 'rail_address', field), description: `20 bytes written without 0x or with 0X: payee.rail_address.${field} = ${show(value)}` };
      }),
    ),
  ),
  entry('ON_CHAIN:chain_id:empty', 'SUB-CHAIN-1', ['ON_CHAIN'], (cpr) =>
    fc.constantFrom<unknown>('', 1, null).map((value) => {
      const doc = onChainWithoutAssetChain(cpr);
      putAddress(doc, 'chain_id', value);
      return { cpr: doc, path: '/payee/rail_address/chain_id', description: `on-chain chain_id ${show(value)}, the asset a crypto asset without a chain_id` };
    }),
  ),
  entry('ON_CHAIN:chain_id:not-decimal', 'PRF-EVM-1', ['ON_CHAIN'], (cpr) =>
    fc.oneof(
      fc.constantFrom('eip155:1', 'eip155:137', 'cosmos:cosmoshub-4').map((value) => {
        // A CAIP-2 id is a valid asset chain_id but not an on-chain one; the asset copy follows so the two still agree.
        const doc = clone(cpr);
        putAddress(doc, 'chain_id', value);
        if (Object.hasOwn(doc.value.asset, 'chain_id')) doc.value.asset.chain_id = value;
        return { cpr: doc, path: '/payee/rail_address/chain_id', description: `on-chain chain_id ${value} is not a decimal EVM chain id` };
      }),
      fc.constantFrom('0x1', '01', '0', ' 1', 'mainnet').map((value) => {
        // Not an asset chain_id either: the asset becomes a crypto asset without one.
        const doc = onChainWithoutAssetChain(cpr);
        putAddress(doc, 'chain_id', value);
        return { cpr: doc, path: '/payee/rail_address/chain_id', description: `on-chain chain_id ${show(value)} is not a decimal EVM chain id` };
      }),
    ),
  ),
  entry(
    'ON_CHAIN:domain_separator:not-32-bytes',
    'SUB-CHAIN-3',
    ['ON_CHAIN'],
    replaceTop(['domain_separator'], ['0x' + 'ab'.repeat(31) + 'a', '0x' + 'ab'.repeat(20), '0x' + 'zz'.repeat(32), 'ab'.repeat(33), '', 42], 'not 32 bytes of hex'),
  ),
  entry(
    'ON_CHAIN:domain_separator:non-profile-form',
    'PRF-FIELD-1',
    ['ON_CHAIN'],
    replaceTop(['domain_separator'], ['ab'.repeat(32), 'AB'.repeat(32), '0X' + 'ab'.repeat(32)], '32 bytes written without 0x or with 0X'),
  ),
  entry(
    'ON_CHAIN:reference:not-16-bytes',
    'SUB-CHAIN-1',
    ['ON_CHAIN'],
    replaceTop(
      ['order_reference', 'acquirer_id'],
      ['{0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0}', 'urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1', '0f1e2d3c4b5a69788796a5b4c3d2e1f000', 'ORDER-42', '', 0, null],
      'not 16 bytes',
    ),
  ),
  entry(
    'ON_CHAIN:reference:non-profile-form',
    'PRF-FIELD-1',
    ['ON_CHAIN'],
    replaceTop(
      ['order_reference', 'acquirer_id'],
      ['0f1e2d3c4b5a69788796a5b4c3d2e1f0', '0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0', '0x0f1e2d3c4b5a69788796a5b4c3d2e1f0', '0X0F1E2D3C4B5A69788796A5B4C3D2E1F0'],
      '16 bytes not written as a canonical lower-case UUID',
    ),
  ),
  entry('ON_CHAIN:rail_hint:not-on-chain', 'SUB-CHAIN-1', ['ON_CHAIN'], (cpr) =>
    fc.constantFrom<string | undefined>(undefined, 'OPEN', 'SEPA_CT', 'on_chain', 'CRYPTO').map((hint) => {
      const doc = clone(cpr);
      put(doc, ['rail_hint'], hint);
      return { cpr: doc, path: '/rail_hint', description: hint === undefined ? 'ON_CHAIN request without rail_hint' : `ON_CHAIN request with rail_hint ${hint}` };
    }),
  ),
  entry('rail_hint:on-chain-for-off-chain', 'SUB-CHAIN-1', OFF_CHAIN, (cpr, sub) => {
    const doc = clone(cpr);
    doc.rail_hint = 'ON_CHAIN';
    return fc.constant({ cpr: doc, path: '/rail_hint', description: `rail_hint ON_CHAIN on a ${sub} request` });
  }),

  // IBAN --------------------------------------------------------------------------------
  entry('IBAN:iban:bad-check-digits', 'SUB-IBAN-1', ['IBAN'], (cpr) =>
    fc.tuple(fc.integer({ min: 1, max: 95 }), fc.boolean()).map(([shift, spaced]) => {
      const iban = cpr.payee.rail_address.iban as string;
      const digits = Number(iban.slice(2, 4));
      const bad = String(((digits - 2 + shift) % 97) + 2).padStart(2, '0'); // 02..98, never the original
      const value = iban.slice(0, 2) + bad + iban.slice(4);
      // Spaced too: the spec's reading removes the spaces, and the check digits still fail.
      const written = spaced ? paperFormat(value) : value;
      const doc = clone(cpr);
      putAddress(doc, 'iban', written);
      return { cpr: doc, path: '/payee/rail_address/iban', description: `IBAN check digits ${bad} instead of ${iban.slice(2, 4)}: ${written}` };
    }),
  ),
  entry('IBAN:iban:bad-bban-digit', 'SUB-IBAN-1', ['IBAN'], (cpr) =>
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 9 })).map(([pick, add]) => {
      // mod 97-10 detects every single-digit substitution.
      const iban = cpr.payee.rail_address.iban as string;
      const positions = [...iban].flatMap((c, i) => (i >= 4 && /\d/.test(c) ? [i] : []));
      const at = positions[pick % positions.length] as number;
      const digit = String((Number(iban[at]) + add) % 10);
      const doc = clone(cpr);
      putAddress(doc, 'iban', iban.slice(0, at) + digit + iban.slice(at + 1));
      return { cpr: doc, path: '/payee/rail_address/iban', description: `IBAN digit ${at} changed, check digits kept` };
    }),
  ),
  entry('IBAN:iban:not-an-iban', 'SUB-IBAN-1', ['IBAN'], (cpr) =>
    fc
      .constantFrom<(i: string) => unknown>(
        (i) => i.slice(0, -1),
        (i) => `${i}0`,
        (i) => `IBAN${i}`,
        (i) => i.replace(/(.{4})(?!$)/g, '$1-'),
        () => '',
        () => 12345,
        () => null,
      )
      .map((f) => {
        const value = f(cpr.payee.rail_address.iban as string);
        const doc = clone(cpr);
        putAddress(doc, 'iban', value);
        return { cpr: doc, path: '/payee/rail_address/iban', description: `not a valid IBAN: ${show(value)}` };
      }),
  ),
  entry('IBAN:iban:non-profile-form', 'PRF-IBAN-1', ['IBAN'], (cpr) =>
    fc
      .constantFrom<(i: string) => string>((i) => i.toLowerCase(), (i) => paperFormat(i), (i) => paperFormat(i).toLowerCase(), (i) => i.slice(0, 2).toLowerCase() + i.slice(2))
      .map((f) => {
        const value = f(cpr.payee.rail_address.iban as string);
        const doc = clone(cpr);
        putAddress(doc, 'iban', value);
        return { cpr: doc, path: '/payee/rail_address/iban', description: `a valid IBAN in paper format or lower case: ${show(value)}` };
      }),
  ),
  entry('IBAN:bic:not-a-bic', 'SUB-IBAN-1', ['IBAN'], replaceAddress(['bic'], ['COBADEF', 'COBAXXFFXXX', 'cobaxxffxxx', '1OBADEFF', 'COBADEFFXX', 'COBADEFF XXX', '', 42], 'not an ISO 9362 BIC')),
  entry('IBAN:bic:non-profile-form', 'PRF-IBAN-1', ['IBAN'], replaceAddress(['bic'], ['cobadeffxxx', 'CobaDEFF', 'deutdeff', 'Gbdvgb22'], 'a valid BIC not in upper case')),
  entry('IBAN:purpose_code:not-a-purpose-code', 'SUB-IBAN-2', ['IBAN'], replaceTop(['purpose_code'], ['GDD', 'GDDSX', 'GD S', 'GD-S', '', 42, null], 'not an ISO 20022 purpose code')),
  entry('IBAN:purpose_code:non-profile-form', 'PRF-FIELD-1', ['IBAN'], replaceTop(['purpose_code'], ['gdds', 'Gdds', 'cbf1'], 'a purpose code not in upper case')),
  ...perSub('end_to_end_id', ['IBAN', 'ACCOUNT'], () => replaceTop(['end_to_end_id'], [42, null, true], 'not a string'), 'not-a-string'),
  entry('end_to_end_id:non-profile-form', 'PRF-FIELD-1', ['IBAN', 'ACCOUNT'], replaceTop(['end_to_end_id'], ['', 'E'.repeat(36), 'naïve-ref', 'tab\there', '€'], 'not Max35Text')),
  ...perSub('remittance_info', ['IBAN', 'ACCOUNT'], () => replaceTop(['remittance_info'], tooLong, 'over 140 code points'), 'too-long'),
  ...perSub('beneficiary_name', ['IBAN', 'ACCOUNT'], () => remove(['beneficiary_name']), 'missing'),
  ...perSub('beneficiary_name', ['IBAN', 'ACCOUNT', 'INSTANT_KEY'], () => replaceTop(['beneficiary_name'], [7, null, ['Beispiel GmbH']], 'not a string'), 'not-a-string'),
  entry('beneficiary_name:non-profile-form', 'PRF-FIELD-1', ['IBAN', 'ACCOUNT', 'INSTANT_KEY'], replaceTop(['beneficiary_name'], fc.oneof(fc.constant<unknown>(''), tooLong), 'not 1..140 code points')),

  // ACCOUNT and INSTANT_KEY ---------------------------------------------------------------
  entry('ACCOUNT:address-field:not-a-string', 'SUB-ACCT-1', ['ACCOUNT'], replaceAddress(['account_number', 'routing_code', 'routing_code_type', 'bank_name'], [123456, null, true], 'not a string')),
  entry('ACCOUNT:account-text:non-profile-form', 'PRF-FIELD-1', ['ACCOUNT'], replaceAddress(['account_number', 'routing_code', 'bank_name'], fc.oneof(fc.constant<unknown>(''), tooLong), 'not 1..140 code points')),
  entry('ACCOUNT:routing_code_type:non-profile-form', 'PRF-FIELD-1', ['ACCOUNT'], replaceAddress(['routing_code_type'], ['aba', '1ABA', 'ABA-CODE', '', 'A'.repeat(33)], 'not an open-list code')),
  entry('INSTANT_KEY:address-field:not-a-string', 'SUB-KEY-1', ['INSTANT_KEY'], replaceAddress(['key_type', 'key_value'], [5511999999999, null, false], 'not a string')),
  entry('INSTANT_KEY:txid:not-a-string', 'SUB-KEY-1', ['INSTANT_KEY'], replaceTop(['txid'], [42, null], 'not a string')),
  entry('INSTANT_KEY:key_type:non-profile-form', 'PRF-FIELD-1', ['INSTANT_KEY'], replaceAddress(['key_type'], ['email', 'E-MAIL', '', '9X', 'A'.repeat(33)], 'not an open-list code')),
  entry('INSTANT_KEY:key-text:non-profile-form', 'PRF-FIELD-1', ['INSTANT_KEY'], (cpr) =>
    fc.oneof(replaceAddress(['key_value'], fc.oneof(fc.constant<unknown>(''), tooLong), 'not 1..140 code points')(cpr), replaceTop(['txid'], fc.oneof(fc.constant<unknown>(''), tooLong), 'not 1..140 code points')(cpr)),
  ),

  // PROFILE.md §7.4: rail_address is authoritative and closed (PRF-RAIL-1) -------------
  entry('mirror:mismatch', 'PRF-RAIL-1', ALL, (cpr) =>
    fc.constantFrom(...Object.keys(cpr.payee.rail_address)).map((field) => {
      const doc = clone(cpr);
      const value = otherValue(field, (cpr.payee.rail_address as Doc)[field] as string);
      doc[field] = value;
      return { cpr: doc, path: ptr(field), description: `top-level ${field} ${show(value)} differs from payee.rail_address.${field}` };
    }),
  ),
  entry('rail_address:foreign-field', 'PRF-RAIL-1', ALL, (cpr, sub) => {
    const own = new Set<string>(addressFields(sub));
    const foreign = [...RAIL_FIELDS.filter((f) => !own.has(f) && !REQUIRED_ADDRESS.has(f)), 'nickname'];
    return fc.constantFrom(...foreign).map((field) => {
      const doc = clone(cpr);
      put(doc, ['payee', 'rail_address', field], 'ABCD');
      return { cpr: doc, path: ptr('payee', 'rail_address', field), description: `${field} in payee.rail_address of a ${sub} request` };
    });
  }),
  entry('ON_CHAIN:asset.chain_id:differs', 'PRF-RAIL-1', ['ON_CHAIN'], (cpr) =>
    fc.oneof(R.evmChainId, R.caip2ChainId)
      .filter((id) => id !== cpr.payee.rail_address.chain_id)
      .map((id) => {
        const doc = clone(cpr);
        doc.value.asset.chain_id = id;
        return { cpr: doc, path: '/value/asset/chain_id', description: `value.asset.chain_id ${id} differs from the on-chain chain_id ${String(cpr.payee.rail_address.chain_id)}` };
      }),
  ),
  // The same value in another valid spelling, where PROFILE.md §7.4 wants the text equal: the chain as CAIP-2
  // (eip155:<n> for the rail's <n>), an address copy in the other letter case. A reader that compares them as
  // chains or as addresses, not as the text they are, takes them for equal.
  entry('ON_CHAIN:asset.chain_id:caip2-of-rail', 'PRF-RAIL-1', ['ON_CHAIN'], (cpr) => {
    const doc = clone(cpr);
    const id = `eip155:${String(cpr.payee.rail_address.chain_id)}`;
    doc.value.asset.chain_id = id;
    return fc.constant({ cpr: doc, path: '/value/asset/chain_id', description: `value.asset.chain_id ${id}: the on-chain chain_id ${String(cpr.payee.rail_address.chain_id)} written as CAIP-2` });
  }),
  entry('ON_CHAIN:address:copy-in-other-case', 'PRF-RAIL-1', ['ON_CHAIN'], (cpr) => {
    // Each EVM address the rail holds (receiver_address, and contract_address when present), its copy in lower or upper case, whichever differs.
    const fields = ['receiver_address', 'contract_address'].filter((f) => typeof (cpr.payee.rail_address as Doc)[f] === 'string');
    return fc.tuple(fc.constantFrom(...fields), fc.boolean()).map(([field, upper]) => {
      const doc = clone(cpr);
      const address = String((cpr.payee.rail_address as Doc)[field]);
      // An address of digits alone has no other letter case: it gets letters first.
      const lettered = /[a-fA-F]/.test(address.slice(2)) ? address : `0x${'a'.repeat(40)}`;
      putAddress(doc, field, lettered);
      const spellings = [`0x${lettered.slice(2).toLowerCase()}`, `0x${lettered.slice(2).toUpperCase()}`].filter((s) => s !== lettered);
      const copy = spellings[upper ? spellings.length - 1 : 0]!;
      doc[field] = copy;
      return { cpr: doc, path: ptr(field), description: `top-level ${field} ${copy}: payee.rail_address.${field} ${lettered} in another letter case` };
    });
  }),
];

/** The mutation table: every entry's name, rule and sub-interfaces. */
export const CPR_MUTATIONS: readonly CprMutation[] = Object.freeze(MUTATIONS);

/** "Valid except exactly one rule" CPRs (see the header). Throws RangeError at construction for a bad constraint. */
export function brokenCpr(constraints: BrokenCprConstraints = {}): fc.Arbitrary<BrokenCpr> {
  const { rules, mutations, ...validConstraints } = constraints;
  const base = resolveCprConstraints(validConstraints);
  const known = new Set(CPR_MUTATIONS.map((m) => m.rule));
  const names = new Set(CPR_MUTATIONS.map((m) => m.name));
  if (rules !== undefined) {
    if (!Array.isArray(rules) || rules.length === 0) throw new RangeError('constraints.rules must be a non-empty array of registry IDs');
    const unknown = rules.filter((r) => !known.has(r));
    if (unknown.length > 0) throw new RangeError(`constraints.rules: no mutation breaks ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  }
  if (mutations !== undefined) {
    if (!Array.isArray(mutations) || mutations.length === 0) throw new RangeError('constraints.mutations must be a non-empty array of mutation names');
    const unknown = mutations.filter((m) => !names.has(m));
    if (unknown.length > 0) throw new RangeError(`constraints.mutations: unknown mutation(s) ${unknown.join(', ')}`);
  }
  const table = CPR_MUTATIONS.filter(
    (m) =>
      (rules === undefined || rules.includes(m.rule)) &&
      (mutations === undefined || mutations.includes(m.name)) &&
      (base.subInterface === undefined || m.subInterfaces.includes(base.subInterface)),
  );
  if (table.length === 0) {
    throw new RangeError(`constraints.rules / constraints.mutations: no mutation applies to sub-interface ${String(base.subInterface)}`);
  }
  const valid = Object.fromEntries(SUB_INTERFACES.map((sub) => [sub, validCpr({ ...validConstraints, subInterface: sub })])) as Record<SubInterface, fc.Arbitrary<Cpr>>;
  return fc.constantFrom(...table).chain((m) => {
    const subs = base.subInterface === undefined ? m.subInterfaces : [base.subInterface];
    return fc.constantFrom(...subs).chain((sub) =>
      valid[sub].chain((cpr) =>
        m.mutate(cpr, sub).map((r): BrokenCpr => ({ ...r, rule: m.rule, alsoBreaks: m.alsoBreaks, mutation: m.name, subInterface: sub })),
      ),
    );
  });
}
