// jcs.json: RFC 8785 canonical JSON of the profile's messages and of the edge
// values canonicalization gets wrong (member order by UTF-16 code units, string
// escapes, numbers, no Unicode normalization), plus texts the profile refuses
// before canonicalizing because they are not I-JSON (PROFILE.md §1).
import { canonicalJson } from '../../../profile/jcs.ts';
import { sampleOne, draftCase, hexOf, asJson } from './draft.ts';
import { buildChain, cashPack, confirmation, lockRequest, redemptionRequest, EUR, USDC, at, vectorUuid } from './messages.ts';
import { key } from '../keys.ts';
import { validCpr } from '../../../generators/cpr.ts';
import { SUB_INTERFACES } from '../../../profile/cpr/index.ts';
import type { DraftCase, DraftFile } from '../model.ts';

/** A non-canonical rendering: members in reverse order, indented, optionally every non-ASCII character escaped. */
function scrambled(value: unknown, escapeNonAscii: boolean): string {
  const reverse = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(reverse) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverse(x)])) : v;
  const text = JSON.stringify(reverse(value), null, 2);
  return escapeNonAscii ? text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

function valid(key: string, comment: string, flags: string[], requirements: string[], input: string): DraftCase {
  const canonical = canonicalJson(JSON.parse(input));
  return draftCase(key, comment, flags, 'valid', requirements, { input, canonical, canonical_hex: hexOf(canonical) });
}

function messageCases(): DraftCase[] {
  const chain0 = buildChain('jcs depth 0', 0);
  const chain2 = buildChain('jcs depth 2', 2);
  const pack0 = cashPack(chain0);
  const pack2 = cashPack(chain2, '1000000000000000000000000', USDC);
  const redemption = redemptionRequest(chain2);
  const messages: [string, string, unknown][] = [
    ['lock-request', 'a signed Lock Request (PROFILE.md §4.2)', lockRequest({ label: 'jcs', amount: '2500', asset: EUR })],
    ['lock-request-stablecoin', 'a Lock Request for a stablecoin with chain_id', lockRequest({ label: 'jcs stablecoin', amount: '1000000000000000000000000', asset: USDC })],
    ['cash-pack-depth-0', 'a freshly issued cash-pack: empty renewal_chain (PROFILE.md §4.3)', pack0],
    ['cash-pack-depth-2', 'a cash-pack with two nested signed Renewal Entries', pack2],
    ['renewal-entry', 'a signed Renewal Entry (PROFILE.md §4.4)', chain2.entries[0]],
    ['renew-request', 'a renew request body: cash_pack and renewal (PROFILE.md §4.4)', { cash_pack: pack0, renewal: buildChain('jcs depth 0', 1).entries[0] }],
    ['redemption-request', 'a signed Redemption Request (PROFILE.md §4.5)', redemption],
    ['redemption-confirmation', 'a signed Redemption Confirmation (PROFILE.md §4.6)', confirmation(chain2, pack2, redemption)],
    [
      'status',
      'a status response with an integer chain_depth (PROFILE.md §4.7)',
      { pack_id: chain2.pack_id, status: 'ACTIVE', amount: '2500', asset: EUR, expiry: at(86_400), chain_depth: 2, chain_digest: pack2.chain_digest, updated_at: at(120) },
    ],
    [
      'policy',
      'an Operator Policy Document: the integers the profile uses (PROFILE.md §4.8)',
      {
        profile: 'CPP-PROFILE-1.0',
        operator_kid: key(5).jwk.kid,
        assets: [EUR, USDC],
        max_amount: '1000000',
        max_chain_depth: 8,
        expiry_min_seconds: 60,
        expiry_max_seconds: 2_592_000,
        required_identity_level: 2,
        request_window_seconds: 300,
        max_body_bytes: 65_536,
      },
    ],
    ['pubkey', 'a pubkey document: a JWK set of one key (PROFILE.md §4.8)', { keys: [{ ...key(5).jwk, use: 'sig', alg: 'EdDSA' }] }],
    [
      'problem',
      'an RFC 9457 problem document (PROFILE.md §11)',
      { type: 'https://cpr-conformance.dev/problems/DUPLICATE_ID', title: 'duplicate id', status: 409, code: 'DUPLICATE_ID', detail: `request_id ${vectorUuid('lock jcs')} has been seen before` },
    ],
  ];
  const cases = messages.map(([name, comment, value]) =>
    valid(`message:${name}`, comment, ['ProfileMessage'], ['PRF-SIG-1'], scrambled(asJson(value), false)),
  );
  // CPRs from the generator: any code points in memos and names, so both renderings matter.
  for (const sub of SUB_INTERFACES) {
    const cpr = sampleOne(validCpr({ subInterface: sub, maxExtensionKeys: 2 }), `jcs cpr ${sub}`);
    cases.push(valid(`message:cpr:${sub}`, `a valid ${sub} CPR, members reversed and indented`, ['ProfileMessage', 'Cpr'], ['PRF-SIG-1'], scrambled(cpr, false)));
    cases.push(
      valid(`message:cpr:${sub}:escaped`, `the same ${sub} CPR with every non-ASCII character written as a \\u escape`, ['ProfileMessage', 'Cpr', 'StringEscaping'], ['PRF-SIG-1'], scrambled(cpr, true)),
    );
  }
  return cases;
}

const EDGE: readonly [string, string, string[], string][] = [
  ['order:ascii', 'members sorted by name', ['MemberOrder'], '{"b":1,"a":2,"c":{"z":true,"y":false}}'],
  [
    'order:utf16',
    'members sorted by UTF-16 code units, not code points: the surrogate pair of U+1F600 sorts before U+FB01',
    ['MemberOrder'],
    '{"\\ufb01":8,"\\ud83d\\ude00":7,"\\u20ac":6,"\\u00e9":5,"\\u0080":4,"a":3,"_":2,"A":1}',
  ],
  ['order:prefix', 'a name sorts after its own prefix', ['MemberOrder'], '{"ab":1,"a":2,"":3,"abc":4}'],
  ['order:nested-arrays', 'objects inside arrays are sorted; array order is kept', ['MemberOrder'], '[{"b":1,"a":2},[3,2,1],{"d":[{"f":1,"e":2}]}]'],
  [
    'escape:controls',
    'control characters: the two-character escapes where JSON has one, otherwise \\u00XX in lower-case hex; DEL and U+0080 stay literal',
    ['StringEscaping'],
    '"\\u0000\\u0001\\u001F\\b\\t\\n\\u000b\\f\\r\\"\\\\\\/\\u007f\\u0080"',
  ],
  ['escape:unnecessary', 'escapes that are not needed are written as the characters themselves', ['StringEscaping'], '"\\u0041\\u00e9\\ud83d\\ude00\\u2028\\u2029"'],
  ['escape:non-ascii-literal', 'non-ASCII stays UTF-8, never escaped', ['StringEscaping'], '"\u20ac \u00df \ud834\udd1e \u0301"'],
  ['unicode:no-normalization', 'no Unicode normalization: "\\u00e9" and "e\\u0301" are different member names, sorted by code unit', ['NoNormalization', 'MemberOrder'], '{"\\u00e9":1,"e\\u0301":2}'],
  ['unicode:bom-inside-string', 'U+FEFF inside a string is an ordinary character', ['StringEscaping'], '{"a":"\\ufeffx"}'],
  ['number:integers', 'the integers the profile uses (policy values, chain_depth, status)', ['NumberSerialization'], '[0, 8, 60, 300, 409, 65536, 2592000]'],
  ['number:forms', 'numbers written another way: -0, 1.0, 1e3, 1E+2 and 0.50', ['NumberSerialization'], '[-0, 1.0, 1e3, 1E+2, 0.50]'],
  ['number:limits', 'the largest exact integer, exponent thresholds and small fractions (ECMAScript Number-to-String)', ['NumberSerialization'], '[9007199254740991, 1e21, 999999999999999999999, 1e-7, 0.000001, 123.456, -1.5e-10]'],
  ['number:amount-is-a-string', 'a 78-digit amount is a string (PROFILE.md §1) and passes through untouched', ['NumberSerialization'], '{"amount":"100000000000000000000000000000000000000000000000000000000000000000000000000000"}'],
  ['whitespace:literals', 'white space between tokens is dropped; literals and empty containers kept', ['Whitespace'], ' [ true ,\n\tfalse , null , { } , [ ] , "" ] '],
  ['depth:32', 'nesting depth exactly 32, the I-JSON limit of the profile', ['Depth'], `${'['.repeat(31)}{"a":1}${']'.repeat(31)}`],
];

const INVALID: readonly [string, string, string[], string][] = [
  ['lone-high-surrogate', 'a lone high surrogate escape is not I-JSON and has no UTF-8 form', ['LoneSurrogate'], '{"memo":"\\ud800"}'],
  ['lone-low-surrogate', 'a lone low surrogate escape', ['LoneSurrogate'], '["\\udc00x"]'],
  ['reversed-surrogates', 'a low surrogate followed by a high one is two lone surrogates', ['LoneSurrogate'], '"\\ude00\\ud83d"'],
  ['duplicate-member', 'duplicate member names (I-JSON, RFC 7493 §2.3)', ['DuplicateMember'], '{"amount":"1","amount":"2"}'],
  ['duplicate-after-unescaping', 'names that are equal once escapes are read', ['DuplicateMember'], '{"a":1,"\\u0061":2}'],
  ['number-out-of-range', 'a number outside IEEE 754 double range (I-JSON, RFC 7493 §2.2)', ['NumberOutOfRange'], '{"n":1e400}'],
  ['depth-33', 'nesting depth 33, one over the profile limit', ['Depth'], `${'['.repeat(32)}{"a":1}${']'.repeat(32)}`],
  ['byte-order-mark', 'a byte order mark before the value (PROFILE.md §1: UTF-8 without BOM)', ['ByteOrderMark'], '\ufeff{"a":1}'],
];

export function buildJcs(): DraftFile {
  return {
    kind: 'jcs',
    algorithm: 'RFC 8785 JSON Canonicalization Scheme',
    header: [
      'Canonical JSON (RFC 8785 JCS) as PROFILE.md §2.2 signs it: the canonical text of profile messages and of edge values.',
      'For each valid case: parse `input` (JSON text) as I-JSON, canonicalize the value, and compare the UTF-8 bytes with `canonical_hex` (`canonical` is the same text). Any difference is a failure.',
      'For each invalid case: `input` is not I-JSON (PROFILE.md §1); a profile implementation must refuse it (parse error or canonicalization error) rather than produce bytes to sign.',
      'Inputs are deliberately not canonical: members reversed, white space added, optional escapes used.',
    ],
    notes: {
      ProfileMessage: 'A message of the profile as it is signed (PROFILE.md §4) or served (§7).',
      Cpr: 'A CPR from the seeded generator: arbitrary code points, astral characters and controls in its texts.',
      MemberOrder: 'Member names are sorted by their UTF-16 code units (RFC 8785 §3.2.3), recursively; arrays keep their order.',
      StringEscaping: 'Strings are written with the minimal JSON escapes of RFC 8785 §3.2.2.2 and everything else as UTF-8.',
      NoNormalization: 'JCS does not normalize Unicode: canonically equivalent strings stay different.',
      NumberSerialization: 'Numbers are written as ECMAScript Number.prototype.toString writes them (RFC 8785 §3.2.2.3).',
      Whitespace: 'Insignificant white space is removed.',
      Depth: 'The profile reads JSON nested at most 32 deep (PROFILE.md §1).',
      LoneSurrogate: 'A lone surrogate escape: not I-JSON, and not representable in UTF-8, so it cannot be canonicalized.',
      DuplicateMember: 'Duplicate member names: not I-JSON; a parser that keeps the last one would sign something the sender did not see.',
      NumberOutOfRange: 'A number that does not fit an IEEE 754 double: not I-JSON.',
      ByteOrderMark: 'JSON text with a byte order mark: the profile requires UTF-8 without BOM.',
    },
    groups: [
      { members: { type: 'JcsTest', comment: 'profile messages' }, tests: messageCases() },
      { members: { type: 'JcsTest', comment: 'edge values' }, tests: EDGE.map(([k, comment, flags, input]) => valid(`edge:${k}`, comment, flags, ['PRF-SIG-1'], input)) },
      {
        members: { type: 'JcsTest', comment: 'not I-JSON: must be refused' },
        tests: INVALID.map(([k, comment, flags, input]) => draftCase(`invalid:${k}`, comment, flags, 'invalid', ['PRF-JSON-1', 'PRF-SIG-1'], { input })),
      },
    ],
  };
}
