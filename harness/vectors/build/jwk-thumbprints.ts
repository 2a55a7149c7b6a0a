// jwk-thumbprints.json: Ed25519 OKP JWKs (RFC 8037) with their RFC 7638
// thumbprints, the profile's kid (PROFILE.md §2.1), including RFC 8037 A.3; and
// JWKs the profile calls malformed. Thumbprints are computed here from RFC 7638
// directly, not with profile/jwk.ts.
import { createHash } from 'node:crypto';
import type { DraftCase, DraftFile, JsonObject } from '../model.ts';
import { TEST_KEYS, key, keyHeaderLines } from '../keys.ts';
import { draftCase } from './draft.ts';

/** RFC 7638 §3.2: the required members of an OKP key, in lexicographic order, no white space. */
function thumbprintInput(x: string, crv = 'Ed25519'): string {
  return `{"crv":"${crv}","kty":"OKP","x":"${x}"}`;
}

function thumbprint(x: string): string {
  return createHash('sha256').update(thumbprintInput(x), 'utf8').digest('base64url');
}

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');

/** RFC 8037 Appendix A.3: the thumbprint of the A.2 public key, as printed in the RFC. */
const RFC8037_X = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
const RFC8037_THUMBPRINT = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';

function validCase(k: string, comment: string, flags: string[], jwk: JsonObject, x: string): DraftCase {
  return draftCase(k, comment, flags, 'valid', ['PRF-JWK-1'], { jwk, thumbprint_input: thumbprintInput(x), thumbprint: thumbprint(x) });
}

function validCases(): DraftCase[] {
  if (thumbprint(RFC8037_X) !== RFC8037_THUMBPRINT) throw new Error('RFC 8037 A.3 thumbprint mismatch: the thumbprint code is wrong');
  const cases = [
    validCase('valid:rfc8037-a3', 'RFC 8037 A.3: the thumbprint of the A.2 key (the RFC 8032 §7.1 TEST 1 public key), as the RFC prints it', ['RfcExample'], { kty: 'OKP', crv: 'Ed25519', x: RFC8037_X, kid: RFC8037_THUMBPRINT }, RFC8037_X),
  ];
  const rfc8032: [string, string][] = [
    ['test-2', '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c'],
    ['test-3', 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025'],
    ['test-1024', '278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e'],
    ['test-sha-abc', 'ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf'],
  ];
  for (const [name, hex] of rfc8032) {
    const x = b64(hex);
    cases.push(validCase(`valid:rfc8032-${name}`, `the RFC 8032 §7.1 ${name.toUpperCase()} public key`, ['RfcExample'], { kty: 'OKP', crv: 'Ed25519', x, kid: thumbprint(x) }, x));
  }
  for (const k of TEST_KEYS) {
    cases.push(validCase(`valid:${k.name}`, `the published ${k.name}`, ['PublishedKey'], { ...k.jwk }, k.jwk.x));
  }
  const k1 = key(1).jwk;
  cases.push(validCase('valid:member-order', 'the same key with its members in another order: a JWK is an object, member order carries no meaning', ['MemberOrder'], { kid: k1.kid, x: k1.x, crv: 'Ed25519', kty: 'OKP' }, k1.x));
  return cases;
}

function invalid(k: string, comment: string, flags: string[], jwk: JsonObject): DraftCase {
  return draftCase(`invalid:${k}`, comment, flags, 'invalid', ['PRF-JWK-1'], { jwk });
}

function invalidCases(): DraftCase[] {
  const k1 = key(1).jwk;
  const k2 = key(2).jwk;
  const okp = (x: string, extra: JsonObject = {}): JsonObject => ({ kty: 'OKP', crv: 'Ed25519', x, kid: thumbprint(x), ...extra });
  const raw = Buffer.from(k1.x, 'base64url');
  const withAlphabet = TEST_KEYS.map((t) => t.jwk.x).find((x) => /[-_]/.test(x)) ?? k1.x;
  const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const unusedBits = k1.x.slice(0, -1) + B64URL[B64URL.indexOf(k1.x.slice(-1)) | 1];
  return [
    invalid('kid-of-another-key', 'kid is the thumbprint of test-key-2, not of this key', ['KidNotThumbprint'], { ...k1, kid: k2.kid }),
    invalid('kid-with-white-space', 'kid hashed over the members with white space: {"crv": "Ed25519", ...}', ['KidNotThumbprint'], { ...k1, kid: createHash('sha256').update(`{"crv": "Ed25519", "kty": "OKP", "x": "${k1.x}"}`).digest('base64url') }),
    invalid('kid-member-order', 'kid hashed over the members in the order kty, crv, x instead of lexicographic order', ['KidNotThumbprint'], { ...k1, kid: createHash('sha256').update(`{"kty":"OKP","crv":"Ed25519","x":"${k1.x}"}`).digest('base64url') }),
    invalid('kid-hex', 'kid is the thumbprint in hex instead of base64url', ['KidNotThumbprint'], { ...k1, kid: createHash('sha256').update(thumbprintInput(k1.x)).digest('hex') }),
    invalid('kid-padded', 'kid is the thumbprint with "=" padding', ['KidNotThumbprint'], { ...k1, kid: `${k1.kid}=` }),
    invalid('kid-missing', 'no kid member', ['MissingMember'], { kty: 'OKP', crv: 'Ed25519', x: k1.x }),
    invalid('x-missing', 'no x member', ['MissingMember'], { kty: 'OKP', crv: 'Ed25519', kid: k1.kid }),
    invalid('private-d', 'a private JWK: it carries d (the seed of test-key-1)', ['ExtraMember', 'PrivateKey'], { ...k1, d: Buffer.from(key(1).seed).toString('base64url') }),
    invalid('use-and-alg', '"use" and "alg" members: allowed only in the pubkey document (PROFILE.md §4.8), not in a message', ['ExtraMember'], { ...k1, use: 'sig', alg: 'EdDSA' }),
    invalid('crv-x25519', 'crv X25519: a key-agreement key, not a signing key', ['WrongCurve'], { kty: 'OKP', crv: 'X25519', x: k1.x, kid: createHash('sha256').update(thumbprintInput(k1.x, 'X25519')).digest('base64url') }),
    invalid('crv-ed448', 'crv Ed448', ['WrongCurve'], { kty: 'OKP', crv: 'Ed448', x: k1.x, kid: k1.kid }),
    invalid('kty-ec', 'kty EC with crv Ed25519', ['WrongKeyType'], { kty: 'EC', crv: 'Ed25519', x: k1.x, kid: k1.kid }),
    invalid('kty-lower-case', 'kty "okp": member values are case-sensitive', ['WrongKeyType'], { kty: 'okp', crv: 'Ed25519', x: k1.x, kid: k1.kid }),
    invalid('x-padded', 'x with "=" padding (kid computed over that text)', ['NonStrictX'], okp(`${k1.x}=`)),
    invalid('x-standard-alphabet', 'x in the standard base64 alphabet ("+" and "/")', ['NonStrictX'], okp(withAlphabet.replaceAll('-', '+').replaceAll('_', '/'))),
    invalid('x-unused-bits', 'x with a non-zero unused bit in its last character: a lenient decoder yields the same 32 bytes', ['NonStrictX'], okp(unusedBits)),
    invalid('x-31-bytes', 'x of 31 bytes', ['NonStrictX'], okp(raw.subarray(0, 31).toString('base64url'))),
    invalid('x-33-bytes', 'x of 33 bytes', ['NonStrictX'], okp(Buffer.concat([raw, Buffer.from([0])]).toString('base64url'))),
    invalid('x-hex', 'x written in hex', ['NonStrictX'], okp(raw.toString('hex'))),
    invalid('x-white-space', 'x with a line break in the middle', ['NonStrictX'], okp(`${k1.x.slice(0, 20)}\n${k1.x.slice(20)}`)),
  ];
}

export function buildJwkThumbprints(): DraftFile {
  return {
    kind: 'jwk-thumbprints',
    algorithm: 'RFC 7638 JWK thumbprint (SHA-256) of Ed25519 OKP keys (RFC 8037)',
    header: [
      'Public keys as the profile writes them (PROFILE.md §2.1): { "kty": "OKP", "crv": "Ed25519", "x": <strict base64url of 32 bytes>, "kid": <RFC 7638 thumbprint> }, exactly these members.',
      'valid: `jwk` must be accepted; the UTF-8 bytes of `thumbprint_input` ({"crv":"Ed25519","kty":"OKP","x":"<x>"}) hashed with SHA-256 and written as base64url without padding give `thumbprint`, which equals the key\'s kid.',
      'invalid: `jwk` is malformed under the profile and must be rejected (400 MALFORMED_REQUEST in a request body). Where a case is about x, its kid is the thumbprint of that x text, so only the x rule catches it.',
      ...keyHeaderLines(),
    ],
    notes: {
      RfcExample: 'A key from RFC 8037 or RFC 8032; RFC 8037 A.3 also gives the expected thumbprint.',
      PublishedKey: 'One of the published test keys of these vectors.',
      MemberOrder: 'The members appear in another order; the thumbprint input always uses lexicographic order.',
      KidNotThumbprint: 'kid is not the RFC 7638 thumbprint of the key (PROFILE.md §2.1).',
      MissingMember: 'A required member is missing.',
      ExtraMember: 'A member other than kty, crv, x and kid.',
      PrivateKey: 'The JWK carries private key material.',
      WrongCurve: 'crv is not Ed25519.',
      WrongKeyType: 'kty is not exactly "OKP".',
      NonStrictX: 'x is not the strict base64url of exactly 32 bytes (PROFILE.md §1).',
    },
    groups: [
      { members: { type: 'JwkThumbprintTest', comment: 'keys and their thumbprints' }, tests: validCases() },
      { members: { type: 'JwkThumbprintTest', comment: 'malformed keys' }, tests: invalidCases() },
    ],
  };
}
