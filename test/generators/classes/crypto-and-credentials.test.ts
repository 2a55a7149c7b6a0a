// signatureMalleation and weakKey (applied by harness/crypto/ed25519-malleate.ts),
// signatureLabel, tokenAlteration, payerDataVariant, untrustedHeaders and boundaryOffset.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundaryOffset } from '../../../generators/classes/boundary.ts';
import { payerDataVariant } from '../../../generators/classes/payer-data.ts';
import { signatureLabel } from '../../../generators/classes/signature-label.ts';
import { signatureMalleation } from '../../../generators/classes/signature.ts';
import { bentSigningInput, signingInputBend } from '../../../generators/classes/signing-input.ts';
import { MESSAGE_TYPES, signObject, verifyObject } from '../../../profile/signing.ts';
import { encodeB64url } from '../../../profile/b64url.ts';
import { alterToken, tokenAlteration } from '../../../generators/classes/token.ts';
import { foreignHost, hostChoice, untrustedHeaders } from '../../../generators/classes/untrusted-headers.ts';
import { mixedOrderKey, weakKey } from '../../../generators/classes/weak-key.ts';
import { forgeUnderSmallOrderKey, malleate, mixedOrderSigner } from '../../../harness/crypto/ed25519-malleate.ts';
import { findPayerMembers } from '../../../profile/cpr/index.ts';
import { generateKeyPair, isAcceptablePointEncoding, signBytes, verifyStrict } from '../../../profile/ed25519.ts';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

ed.hashes.sha512 = sha512;

describe('signatureMalleation', () => {
  const key = generateKeyPair(new Uint8Array(32).fill(3));
  const message = new TextEncoder().encode('a signed message');
  const good = signBytes(message, key.secretKey);

  it('bends a good signature into one the strict rule refuses, S + k·L still 32 bytes', () => {
    for (const m of fc.sample(signatureMalleation(), { seed: 17, numRuns: 60 })) {
      const bent = malleate(good, m.value, message, key);
      expect(bent).toHaveLength(64);
      expect(verifyStrict(key.publicKey, message, bent), m.note).toBe(false);
    }
  });

  it('an R of mixed order meets only the cofactored equation, which noble checks under ZIP 215', () => {
    const mixed = fc.sample(signatureMalleation(), { seed: 21, numRuns: 200 }).filter((m) => m.value.kind === 'r-mixed-order');
    expect(new Set(mixed.map((m) => m.value.torsion)).size).toBe(7);
    for (const m of mixed) {
      const bent = malleate(good, m.value, message, key);
      expect(ed.Point.fromBytes(bent.subarray(0, 32)).isTorsionFree(), m.note).toBe(false);
      expect(verifyStrict(key.publicKey, message, bent), m.note).toBe(false);
      expect(ed.verify(bent, message, key.publicKey, { zip215: true }), m.note).toBe(true);
    }
  });

  it('without the key, S + k·L only', () => {
    expect(new Set(fc.sample(signatureMalleation({ withKey: false }), { seed: 18, numRuns: 40 }).map((m) => m.value.kind))).toEqual(new Set(['s-plus-l']));
  });
});

describe('signingInputBend', () => {
  const key = generateKeyPair(new Uint8Array(32).fill(5));
  const object = { request_id: '7c1e0f6a-2b4d-4e8f-9a1b-3c5d7e9f0a2b', amount: '10', memo: 'café' };

  it('signs, by the right key, bytes that are never PROFILE.md §2.2\'s own: the strict verifier refuses each, for every message type', () => {
    const bends = fc.sample(signingInputBend(), { seed: 23, numRuns: 300 });
    for (const type of MESSAGE_TYPES) {
      for (const b of bends) {
        const input = bentSigningInput(type, object, b.value);
        expect(input, b.note).toBeDefined();
        const signed = { ...object, signature: encodeB64url(signBytes(input!, key.secretKey)) };
        expect(verifyObject(type, signed, key.publicKey), `${type}: ${b.note}`).toBe(false);
      }
      // The signature over §2.2's own input verifies: the refusals above are the input's.
      expect(verifyObject(type, signObject(type, object, key.secretKey), key.publicKey)).toBe(true);
    }
    // Each kind of bend is drawn: the tag (another type's, a profile identifier's, letter case...), the separator, the object.
    const notes = new Set(bends.map((b) => b.note.replace(/ \(the \w+ other.*$| CPP-PROFILE-.*$/, '')));
    expect([...notes].filter((n) => /another message type|profile identifier|capitals|no separator|reverse order|signature member/.test(n)).length).toBeGreaterThanOrEqual(6);
  });

  it('gives no bend where the bytes would be §2.2\'s own: the members of a one-member object reversed', () => {
    const reversed = fc.sample(signingInputBend(), { seed: 29, numRuns: 300 }).find((b) => b.note.includes('reverse order'))!;
    expect(bentSigningInput('lock-request', { a: 1 }, reversed.value)).toBeUndefined();
  });
});

describe('signatureLabel', () => {
  it('draws labels other than cpp from every member, each a label a signature can carry', () => {
    const drawn = fc.sample(signatureLabel(), { seed: 23, numRuns: 400 });
    expect(drawn.every((l) => l.class === 'http.signature-label' && l.value !== 'cpp' && /^[A-Za-z*][A-Za-z0-9_.*-]*$/.test(l.value))).toBe(true);
    expect(new Set(drawn.map((l) => l.note))).toEqual(new Set(["a label of RFC 9421's examples", 'cpp with characters after it', 'cpp with letters before it', 'cpp cut short, or a wildcard', 'cpp in other letter case', 'a dictionary key drawn at random']));
    // cpp near misses: a verifier comparing by prefix, suffix or without case meets one.
    expect(drawn.some((l) => l.value.startsWith('cpp'))).toBe(true);
    expect(drawn.some((l) => l.value.endsWith('cpp'))).toBe(true);
    expect(drawn.some((l) => l.value.toLowerCase() === 'cpp')).toBe(true);
  });
});

describe('weakKey', () => {
  it('small-order and non-canonical encodings the strict rule refuses; a signature by nobody a cofactorless check without that refusal accepts', () => {
    const message = new TextEncoder().encode('signed by nobody');
    for (const k of fc.sample(weakKey(), { seed: 19, numRuns: 60 })) {
      if (k.value.kind === 'kid-mismatch') continue;
      expect(isAcceptablePointEncoding(k.value.encoding!), k.note).toBe(false);
      if (k.value.kind !== 'small-order') continue;
      const signature = forgeUnderSmallOrderKey(k.value.encoding!, k.value.order!, message);
      expect(verifyStrict(k.value.encoding!, message, signature)).toBe(false);
      // noble's non-strict (cofactorless, small order allowed) verification accepts it.
      expect(ed.verify(signature, message, k.value.encoding!, { zip215: true }), k.note).toBe(true);
    }
  });
});

describe('mixedOrderKey', () => {
  it('a key of mixed order whose signatures meet both equations: the strict rule accepts them, and refuses them under another message', () => {
    const message = new TextEncoder().encode('signed under a mixed-order key');
    const drawn = fc.sample(mixedOrderKey(), { seed: 22, numRuns: 40 });
    expect(new Set(drawn.map((k) => k.value.torsion.order))).toEqual(new Set([2, 4, 8]));
    for (const k of drawn) {
      const signer = mixedOrderSigner(k.value);
      expect(isAcceptablePointEncoding(signer.publicKey), k.note).toBe(true);
      expect(ed.Point.fromBytes(signer.publicKey).isTorsionFree(), k.note).toBe(false);
      const signature = signer.sign(message);
      expect(verifyStrict(signer.publicKey, message, signature), k.note).toBe(true);
      expect(ed.verify(signature, message, signer.publicKey, { zip215: true }), k.note).toBe(true);
      expect(verifyStrict(signer.publicKey, new TextEncoder().encode('another message'), signature), k.note).toBe(false);
    }
  });
});

describe('tokenAlteration', () => {
  it('never gives the token back', () => {
    const token = '0123456789abcdef0123456789abcdef';
    for (const a of fc.sample(tokenAlteration(), { seed: 20, numRuns: 100 })) expect(alterToken(token, a).value).not.toBe(token);
    expect(() => alterToken('short', { kind: 'twice' })).toThrow(RangeError);
  });
});

describe('payerDataVariant', () => {
  it('puts a payer-named member where its path says, at any depth', () => {
    for (const v of fc.sample(payerDataVariant(), { seed: 21, numRuns: 100 })) {
      expect(findPayerMembers({ extensions: v.value.extensions }).map((p) => p.path)).toContain(v.value.path);
    }
    expect(() => payerDataVariant({ maxDepth: 9 })).toThrow(RangeError);
  });
});

describe('foreignHost', () => {
  // What a Host names, by its parts as a URL parser reads them.
  const parts = (host: string) => {
    const url = new URL(`https://${host}`);
    return url.hostname.replace(/\.$/, '').toLowerCase();
  };

  it.each(['127.0.0.1:46053', 'localhost:8443', 'pay.example', '[::1]:9000'])('names another host when it says it does, and the same one (on any port, written otherwise) when not, against %s', (authority) => {
    const own = parts(authority);
    const forms = new Set<string>();
    for (const choice of fc.sample(hostChoice(), { seed: 24, numRuns: 200 })) {
      const h = foreignHost(authority, choice);
      forms.add(choice.form);
      expect(h.class).toBe('http.untrusted-headers');
      expect(h.value.host).not.toBe(authority);
      const seen = parts(h.value.host);
      if (h.value.foreign) expect(seen).not.toBe(own);
      else expect(seen).toBe(own);
    }
    expect(forms.size).toBe(5);
  });
});

describe('untrustedHeaders and boundaryOffset', () => {
  it('always claim a host; offsets sit at and around the instant', () => {
    for (const h of fc.sample(untrustedHeaders(), { seed: 22, numRuns: 50 })) expect(Object.values(h.value.headers).some((v) => v.includes(h.value.host))).toBe(true);
    expect(new Set(fc.sample(boundaryOffset({ tick: 's' }), { seed: 23, numRuns: 50 }).map((o) => o.value))).toEqual(new Set([0, 1000, -1000, 2000, -2000]));
    expect(() => boundaryOffset({ tick: 'ns' as never })).toThrow(RangeError);
  });
});
