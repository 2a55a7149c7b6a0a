// signatures.json: signing inputs and Ed25519 signatures of every message type
// (PROFILE.md §2.2) with the published test keys, and signatures a strict
// verifier (§2.3) must reject: another message type's tag, a tampered member,
// the wrong key, S >= L, a non-canonical R, a small-order key, and signatures
// whose base64url is not the one strict encoding.
import { forgeTorsionSignature, L, le32, leInt, P } from '../../crypto/ed25519-forge.ts';
import { encodeB64url } from '../../../profile/b64url.ts';
import { signBytes } from '../../../profile/ed25519.ts';
import { canonicalJson } from '../../../profile/jcs.ts';
import { SIGNING_TAGS, type MessageType } from '../../../profile/signing.ts';
import { publicJwk } from '../../../profile/jwk.ts';
import type { DraftCase, DraftFile, JsonObject } from '../model.ts';
import { key, keyHeaderLines, type TestKey } from '../keys.ts';
import { asJson, draftCase, hexOf } from './draft.ts';
import { buildChain, cashPack, confirmation, lockRequest, redemptionRequest, EUR, USDC } from './messages.ts';

const TYPES = Object.keys(SIGNING_TAGS) as MessageType[];

function input(type: MessageType | string, object: JsonObject, separator = '\n'): Buffer {
  const tag = (SIGNING_TAGS as Record<string, string>)[type] ?? type;
  return Buffer.from(`${tag}${separator}${canonicalJson(object)}`, 'utf8');
}

function unsigned(message: object): JsonObject {
  const { signature: _s, ...rest } = asJson(message);
  return rest;
}

interface Signed {
  readonly name: string;
  readonly comment: string;
  readonly type: MessageType;
  readonly object: JsonObject;
  readonly signer: TestKey;
}

function messages(): Signed[] {
  const chain2 = buildChain('signatures depth 2', 2);
  const chain5 = buildChain('signatures depth 5', 5);
  const pack2 = cashPack(chain2);
  const redemption = redemptionRequest(chain2);
  return [
    { name: 'lock-request', comment: 'a Lock Request signed by the Principal', type: 'lock-request', object: unsigned(lockRequest({ label: 'signatures', amount: '2500', asset: EUR })), signer: key(1) },
    { name: 'lock-request-stablecoin', comment: 'a Lock Request for 10^24 units of a stablecoin', type: 'lock-request', object: unsigned(lockRequest({ label: 'signatures stablecoin', amount: '1000000000000000000000000', asset: USDC })), signer: key(1) },
    { name: 'cash-pack-depth-0', comment: 'a freshly issued cash-pack signed by the operator', type: 'cash-pack', object: unsigned(cashPack(buildChain('signatures depth 0', 0))), signer: key(5) },
    { name: 'cash-pack-depth-2', comment: 'a cash-pack whose signed bytes include two nested Renewal Entries with their own signatures', type: 'cash-pack', object: unsigned(pack2), signer: key(5) },
    { name: 'cash-pack-depth-5', comment: 'a cash-pack after five renewals', type: 'cash-pack', object: unsigned(cashPack(chain5)), signer: key(5) },
    { name: 'renewal-entry-1', comment: 'the first Renewal Entry, signed by the initial bearer', type: 'renewal-entry', object: unsigned(chain2.entries[0]!), signer: chain2.bearers[0]! },
    { name: 'renewal-entry-2', comment: 'the second Renewal Entry, signed by the second bearer', type: 'renewal-entry', object: unsigned(chain2.entries[1]!), signer: chain2.bearers[1]! },
    { name: 'redemption-request', comment: 'a Redemption Request signed by the current bearer', type: 'redemption-request', object: unsigned(redemption), signer: chain2.bearers[2]! },
    { name: 'redemption-confirmation', comment: 'a Redemption Confirmation signed by the operator', type: 'redemption-confirmation', object: unsigned(confirmation(chain2, pack2, redemption)), signer: key(5) },
  ];
}

function signatureCase(
  k: string,
  comment: string,
  flags: string[],
  result: 'valid' | 'invalid',
  requirements: string[],
  type: MessageType,
  object: JsonObject,
  jwk: JsonObject,
  signature: string,
): DraftCase {
  return draftCase(k, comment, flags, result, requirements, {
    message_type: type,
    object,
    signing_input_hex: hexOf(input(type, object)),
    public_key_jwk: jwk,
    signature,
  });
}

const sign = (bytes: Uint8Array, signer: TestKey) => signBytes(bytes, signer.seed);

function jwkOf(raw: Uint8Array): JsonObject {
  return asJson(publicJwk(raw));
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function validCases(list: readonly Signed[]): DraftCase[] {
  return list.map((m) =>
    signatureCase(`valid:${m.name}`, m.comment, ['Valid'], 'valid', ['PRF-SIG-1', 'PRF-SIG-2'], m.type, m.object, asJson(m.signer.jwk), encodeB64url(sign(input(m.type, m.object), m.signer))),
  );
}

function invalidCases(list: readonly Signed[]): DraftCase[] {
  const cases: DraftCase[] = [];
  const byName = (n: string) => list.find((m) => m.name === n)!;
  const sigOf = (m: Signed) => sign(input(m.type, m.object), m.signer);

  // Domain separation: each type's object signed under the next type's tag.
  TYPES.forEach((type, i) => {
    const m = list.find((x) => x.type === type)!;
    const other = TYPES[(i + 1) % TYPES.length]!;
    cases.push(
      signatureCase(`invalid:domain:${type}-signed-as-${other}`, `a ${type} signed under the ${other} tag (${SIGNING_TAGS[other]})`, ['DomainSeparation'], 'invalid', ['PRF-SIG-1'], type, m.object, asJson(m.signer.jwk), encodeB64url(sign(input(other, m.object), m.signer))),
    );
  });
  const lock = byName('lock-request');
  const lockJwk = asJson(lock.signer.jwk);
  cases.push(
    signatureCase('invalid:domain:no-tag', 'the signature covers JCS(object) alone, without tag and 0x0A', ['DomainSeparation'], 'invalid', ['PRF-SIG-1'], lock.type, lock.object, lockJwk, encodeB64url(sign(Buffer.from(canonicalJson(lock.object), 'utf8'), lock.signer))),
    signatureCase('invalid:domain:space-separator', 'the signature covers tag || 0x20 || JCS(object): the separator is 0x0A', ['DomainSeparation'], 'invalid', ['PRF-SIG-1'], lock.type, lock.object, lockJwk, encodeB64url(sign(input(lock.type, lock.object, ' '), lock.signer))),
    signatureCase('invalid:encoding:not-canonical', 'the signature covers the object as JSON.stringify writes it (insertion order), not its JCS form', ['NotCanonicalJson'], 'invalid', ['PRF-SIG-1'], lock.type, lock.object, lockJwk, encodeB64url(sign(Buffer.from(`${SIGNING_TAGS['lock-request']}\n${JSON.stringify(lock.object)}`, 'utf8'), lock.signer))),
    signatureCase('invalid:encoding:signature-member-signed', 'the signer left an empty "signature" member in the signed bytes; the signed object never contains "signature"', ['NotCanonicalJson'], 'invalid', ['PRF-SIG-1'], lock.type, lock.object, lockJwk, encodeB64url(sign(input(lock.type, { ...lock.object, signature: '' }), lock.signer))),
  );

  // Tampering after signing.
  const lockSig = encodeB64url(sigOf(lock));
  cases.push(signatureCase('invalid:tampered:amount', 'amount changed from "2500" to "25000" after signing', ['TamperedMember'], 'invalid', ['PRF-SIG-1', 'CPP-SIG-1'], lock.type, { ...lock.object, amount: '25000' }, lockJwk, lockSig));
  const pack = byName('cash-pack-depth-2');
  const tamperedPack = structuredClone(pack.object) as { renewal_chain: JsonObject[] } & JsonObject;
  tamperedPack.renewal_chain[1]!.created_at = '2026-01-01T00:02:01Z';
  cases.push(
    signatureCase('invalid:tampered:nested-entry', 'a nested Renewal Entry\'s created_at changed inside a signed cash-pack: nested objects are part of the outer signed bytes', ['TamperedMember'], 'invalid', ['PRF-SIG-1'], pack.type, tamperedPack, asJson(pack.signer.jwk), encodeB64url(sigOf(pack))),
  );
  const renewal = byName('renewal-entry-1');
  cases.push(
    signatureCase('invalid:tampered:new-bearer', 'new_bearer_pk replaced after signing: a thief redirecting the renewal', ['TamperedMember'], 'invalid', ['PRF-SIG-1', 'CPP-SIG-1'], renewal.type, { ...renewal.object, new_bearer_pk: asJson(key(1).jwk) }, asJson(renewal.signer.jwk), encodeB64url(sigOf(renewal))),
  );

  // Wrong key.
  cases.push(signatureCase('invalid:wrong-key', 'a valid signature by test-key-1 presented under test-key-4', ['WrongKey'], 'invalid', ['PRF-SIG-2', 'CPP-SIG-1'], lock.type, lock.object, asJson(key(4).jwk), lockSig));

  // S >= L: the malleable twin of a valid signature.
  const sig = sigOf(lock);
  const s = leInt(sig.subarray(32));
  cases.push(
    signatureCase('invalid:s-plus-l', 'S replaced by S + L: the same point equation holds, so a verifier that reduces S mod L accepts this second signature', ['SignatureMalleability'], 'invalid', ['PRF-SIG-2'], lock.type, lock.object, lockJwk, encodeB64url(Buffer.concat([sig.subarray(0, 32), le32(s + L)]))),
    signatureCase('invalid:s-equals-l', 'S = L exactly', ['SignatureMalleability'], 'invalid', ['PRF-SIG-2'], lock.type, lock.object, lockJwk, encodeB64url(Buffer.concat([sig.subarray(0, 32), le32(L)]))),
  );

  // Small-order R: the identity, written canonically, and S = k·a mod L, so that
  // [S]B − [k]A is the identity: accepted by a verifier without the small-order check on R.
  cases.push(
    signatureCase('invalid:small-order-r', 'R is the identity point (canonical) and S = k·a under a real key, so [S]B − [k]A equals R: a verifier that checks A but not R for small order (OpenSSL alone, say) accepts it', ['SmallOrderR'], 'invalid', ['PRF-SIG-2'], lock.type, lock.object, lockJwk, encodeB64url(forgeTorsionSignature(lock.signer.seed, lock.signer.publicKey, input(lock.type, lock.object), 'small-order'))),
  );

  // Non-canonical R: the identity written with y = p + 1, and S = k·a mod L, so that
  // [S]B − [k]A is the identity: accepted by a verifier that reduces R and compares points.
  const forged = forgeTorsionSignature(lock.signer.seed, lock.signer.publicKey, input(lock.type, lock.object), 'non-canonical');
  cases.push(
    signatureCase('invalid:non-canonical-r', 'R is the identity point written non-canonically (y = p + 1) and S = k·a, so [S]B − [k]A equals R once R is reduced: a ZIP 215 verifier (lenient encodings, no small-order check) accepts it', ['NonCanonicalR', 'SmallOrderR'], 'invalid', ['PRF-SIG-2'], lock.type, lock.object, lockJwk, encodeB64url(forged)),
  );

  // Small-order public key: A = R = identity and S = 0 verify every message cofactorless.
  const identity = le32(1n);
  cases.push(
    signatureCase('invalid:small-order-key', 'A and R are the identity point and S = 0: [0]B − [k]A = R holds for every message, so a verifier without the small-order check (ZIP 215, say) accepts a signature nobody made', ['SmallOrderPublicKey', 'SmallOrderR'], 'invalid', ['PRF-SIG-2'], lock.type, lock.object, jwkOf(identity), encodeB64url(Buffer.concat([identity, Buffer.alloc(32)]))),
  );
  const order2 = le32(P - 1n);
  cases.push(
    signatureCase('invalid:order-2-key', 'A is the point of order 2 (y = -1) with R = identity and S = 0: also accepted by a ZIP 215 verifier', ['SmallOrderPublicKey', 'SmallOrderR'], 'invalid', ['PRF-SIG-2'], lock.type, lock.object, jwkOf(order2), encodeB64url(Buffer.concat([identity, Buffer.alloc(32)]))),
  );

  // Base64url that is not the one strict encoding of the (valid) signature bytes.
  const lastIndex = B64URL.indexOf(lockSig.slice(-1));
  cases.push(
    signatureCase('invalid:b64:padding', 'the valid signature with "==" padding', ['NonStrictBase64url'], 'invalid', ['PRF-B64-1'], lock.type, lock.object, lockJwk, `${lockSig}==`),
    signatureCase('invalid:b64:unused-bits', 'the valid signature with a non-zero unused bit in the last character: a lenient decoder yields the same 64 bytes', ['NonStrictBase64url'], 'invalid', ['PRF-B64-1'], lock.type, lock.object, lockJwk, lockSig.slice(0, -1) + B64URL[lastIndex | 1]),
    signatureCase('invalid:b64:truncated', 'a signature of 63 bytes (the last byte dropped)', ['NonStrictBase64url'], 'invalid', ['PRF-B64-1', 'PRF-SIG-2'], lock.type, lock.object, lockJwk, encodeB64url(sig.subarray(0, 63))),
  );
  const withAlphabet = list.map((m) => ({ m, sig: encodeB64url(sigOf(m)) })).find((x) => /[-_]/.test(x.sig));
  if (withAlphabet) {
    cases.push(
      signatureCase('invalid:b64:standard-alphabet', 'a valid signature written in the standard base64 alphabet ("+" and "/" for "-" and "_")', ['NonStrictBase64url'], 'invalid', ['PRF-B64-1'], withAlphabet.m.type, withAlphabet.m.object, asJson(withAlphabet.m.signer.jwk), withAlphabet.sig.replaceAll('-', '+').replaceAll('_', '/')),
    );
  }
  return cases;
}

export function buildSignatures(): DraftFile {
  const list = messages();
  return {
    kind: 'signatures',
    algorithm: 'Ed25519 (RFC 8032) with the strict verification rule of PROFILE.md §2.3',
    header: [
      'Signed profile messages (PROFILE.md §2.2): signing_input = ASCII(tag) || 0x0A || JCS(object without "signature"), with one tag per message type (SIGNING_TAGS: CPP-PROFILE-1.0/<message_type>).',
      'For each case: build the signing input from `message_type` and `object` (which has no "signature" member) and compare it with `signing_input_hex`; decode `signature` as strict base64url (PROFILE.md §1) to 64 bytes; read the key from `public_key_jwk` (its x); verify with the strict rule of PROFILE.md §2.3. The verdict must equal `result`: a decoding failure counts as invalid.',
      'Signers of valid cases are the published test keys below; Ed25519 signing is deterministic, so a signer implementation must reproduce each valid `signature` byte for byte.',
      ...keyHeaderLines(),
    ],
    notes: {
      Valid: 'A correct signature by the key named in the message (principal_pk, bearer_pk or the operator key).',
      DomainSeparation: 'The signature was made over another message type\'s signing input (another tag, no tag or another separator): a signature for one message type never verifies as another (PROFILE.md §2.2).',
      NotCanonicalJson: 'The signer did not sign JCS(object without signature): the verifier recomputes the canonical bytes and must not verify what was sent.',
      TamperedMember: 'A member changed after signing.',
      WrongKey: 'A genuine signature, verified under a key that did not make it.',
      SignatureMalleability: 'S >= L (PROFILE.md §2.3 step 1): rejected so that each message has one valid signature per key.',
      NonCanonicalR: 'R is not a canonical point encoding (y >= p): rejected at PROFILE.md §2.3 step 2.',
      SmallOrderR: 'R has small order (its order divides 8): rejected at PROFILE.md §2.3 step 2.',
      SmallOrderPublicKey: 'The public key has small order: such a key verifies signatures nobody made; rejected at PROFILE.md §2.3 step 2.',
      NonStrictBase64url: 'The signature text is not the one strict base64url encoding of 64 bytes (PROFILE.md §1): padding, unused bits set, another alphabet or another length.',
    },
    groups: [
      { members: { type: 'SignatureTest', comment: 'valid signatures' }, tests: validCases(list) },
      { members: { type: 'SignatureTest', comment: 'signatures a strict verifier rejects' }, tests: invalidCases(list) },
    ],
  };
}
