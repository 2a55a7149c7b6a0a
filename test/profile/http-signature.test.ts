import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../profile/ed25519.ts';
import { contentDigest, SIGNATURE_LAYOUTS, signRequest, signRequestAs, verifyRequest, verifyRequestLoosely, type Looseness, type SignatureLayout, type SignatureTarget } from '../../profile/http-signature.ts';
import { publicJwk } from '../../profile/jwk.ts';

const key = generateKeyPair();
const kid = publicJwk(key.publicKey).kid;
const now = 1_767_225_600;
const body = new TextEncoder().encode('{"a":1}');
const post: SignatureTarget = { method: 'POST', authority: '127.0.0.1:8443', path: '/v1/cashpack/redeem', body };
const get: SignatureTarget = { method: 'GET', authority: '127.0.0.1:8443', path: '/v1/cashpack/x/status' };
const lookupKey = (k: string) => (k === kid ? key.publicKey : undefined);
const check = (target: SignatureTarget, headers: Record<string, string>, at = now) =>
  verifyRequest(target, { headers, lookupKey, nowSeconds: at, windowSeconds: 300 });

describe('HTTP Message Signatures (RFC 9421, PROFILE.md §2.4)', () => {
  it('writes the profile form of Signature-Input', () => {
    const headers = signRequest(get, { secretKey: key.secretKey, kid }, now);
    expect(headers['signature-input']).toBe(`cpp=("@method" "@authority" "@path");created=${now};keyid="${kid}";alg="ed25519"`);
    expect(headers.signature).toMatch(/^cpp=:[A-Za-z0-9+/]{86}==:$/);
  });

  it('verifies a signed GET and a signed POST with its Content-Digest', () => {
    expect(check(get, { ...signRequest(get, { secretKey: key.secretKey, kid }, now) })).toEqual({ ok: true, kid });
    const headers = signRequest(post, { secretKey: key.secretKey, kid }, now);
    expect(headers['content-digest']).toBe(contentDigest(body));
    expect(check(post, { ...headers })).toEqual({ ok: true, kid });
  });

  const signed = { ...signRequest(post, { secretKey: key.secretKey, kid }, now) };
  it.each([
    ['no signature', post, {}, now],
    ['another path', { ...post, path: '/v1/cashpack/renew' }, signed, now],
    ['another authority', { ...post, authority: 'evil.example:443' }, signed, now],
    ['another method', { ...post, method: 'PUT' }, signed, now],
    ['a changed body', { ...post, body: new TextEncoder().encode('{"a":2}') }, signed, now],
    ['a digest that does not match', post, { ...signed, 'content-digest': contentDigest(new Uint8Array([1])) }, now],
    ['created too long ago', post, signed, now + 301],
    ['created in the future', post, signed, now - 301],
    ['an unknown key', post, { ...signRequest(post, { secretKey: generateKeyPair().secretKey, kid: 'unknown' }, now) }, now],
    ['a flipped signature byte', post, { ...signed, signature: signed.signature.replace(/:(.)/, (_m, c: string) => `:${c === 'A' ? 'B' : 'A'}`) }, now],
  ] as const)('rejects %s', (_name, target, headers, at) => {
    expect(check(target, headers as Record<string, string>, at).ok).toBe(false);
  });

  it('accepts created at either edge of the window', () => {
    expect(check(post, signed, now + 300).ok).toBe(true);
    expect(check(post, signed, now - 300).ok).toBe(true);
  });
});

describe('the profile form is exact (PROFILE.md §2.4): valid RFC 9421 signatures in another layout are refused', () => {
  const sign = (target: SignatureTarget, layout: SignatureLayout) => ({ ...signRequestAs(target, { secretKey: key.secretKey, kid }, now, layout) }) as Record<string, string>;
  const loosely = (target: SignatureTarget, headers: Record<string, string>, loose: Looseness) => verifyRequestLoosely(target, { headers, lookupKey, nowSeconds: now, windowSeconds: 300 }, loose);

  it('writes the profile layout exactly as signRequest does', () => {
    expect(sign(get, 'profile')['signature-input']).toBe(signRequest(get, { secretKey: key.secretKey, kid }, now)['signature-input']);
    expect(check(post, sign(post, 'profile'))).toEqual({ ok: true, kid });
  });

  // Each departure: the strict verifier refuses it, and only the verifier loose in that one way accepts it.
  it.each<[SignatureLayout, SignatureTarget, Looseness]>([
    ['without-authority', get, 'any-components'],
    ['extra-component', post, 'any-components'],
    ['extra-parameter', get, 'any-parameters'],
    ['reordered-parameters', post, 'any-parameters'],
    ['digest-of-other-bytes', post, 'digest-unchecked'],
    ['other-label', get, 'any-label'],
    ['other-label', post, 'any-label'],
  ])('%s: refused by the profile, accepted only when %s', (layout, target, loose) => {
    const headers = sign(target, layout);
    expect(check(target, headers).ok).toBe(false);
    for (const other of ['any-components', 'any-parameters', 'digest-unchecked', 'any-label'] as const) {
      expect(loosely(target, headers, other).ok, other).toBe(other === loose);
    }
    // Every loose verifier still accepts the profile form, and still refuses a forged signature.
    expect(loosely(target, sign(target, 'profile'), loose)).toEqual({ ok: true, kid });
    expect(loosely(target, { ...headers, signature: headers.signature!.replace(/:(.)/, (_m, c: string) => `:${c === 'A' ? 'B' : 'A'}`) }, loose).ok).toBe(false);
  });

  it('names every layout', () => {
    expect(SIGNATURE_LAYOUTS).toEqual(['profile', 'without-authority', 'extra-component', 'extra-parameter', 'reordered-parameters', 'digest-of-other-bytes', 'other-label']);
  });

  it('labels the other-label layout as asked, never cpp', () => {
    expect(sign(get, 'other-label')['signature-input']).toMatch(/^sig1=\(/);
    const relabelled = signRequestAs(get, { secretKey: key.secretKey, kid }, now, 'other-label', 'cpp2');
    expect([relabelled['signature-input'].slice(0, 5), relabelled.signature.slice(0, 5)]).toEqual(['cpp2=', 'cpp2=']);
    expect(() => signRequestAs(get, { secretKey: key.secretKey, kid }, now, 'other-label', 'cpp')).toThrow(RangeError);
  });
});
