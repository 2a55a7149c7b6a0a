// The package's signature: a detached JWS (RFC 7515 Appendix F), EdDSA (RFC 8037),
// over manifest.json's bytes, with the public key in its protected header.
import { decodeB64url, decodeB64urlFixed, encodeB64url } from '../../profile/b64url.ts';
import { verifyStrict } from '../../profile/ed25519.ts';
import { canonicalBytes } from '../../profile/jcs.ts';
import { publicJwk, readJwk } from '../../profile/jwk.ts';
import { HarnessError } from '../errors.ts';
import { utf8 } from './bytes.ts';
import type { SigningKey } from './keys.ts';
import { ed } from '../crypto/noble.ts';

/** RFC 7515 Appendix F: the compact serialization with the payload left out. */
export function detachedJws(payload: Uint8Array, key: SigningKey): string {
  const header = encodeB64url(canonicalBytes({ alg: 'EdDSA', jwk: publicJwk(key.publicKey), kid: key.kid }));
  const signature = ed.sign(utf8(`${header}.${encodeB64url(payload)}`), key.seed);
  return `${header}..${encodeB64url(signature)}`;
}

/** Verifies a detached JWS over `payload` with the key its header carries (strict Ed25519); the signer's kid. */
export function verifyDetachedJws(jws: string, payload: Uint8Array): string {
  const bad = (why: string) => new HarnessError('PACKAGE_SIGNATURE_INVALID', `signature.jws does not verify: ${why}`);
  const parts = jws.split('.');
  if (parts.length !== 3 || parts[1] !== '') throw bad('it is not a detached JWS in compact form (header..signature)');
  const [encodedHeader, , encodedSignature] = parts as [string, string, string];
  const headerBytes = decodeB64url(encodedHeader);
  if (headerBytes === undefined) throw bad('the protected header is not strict base64url');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(headerBytes));
  } catch {
    throw bad('the protected header is not JSON');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw bad('the protected header is not a JSON object');
  const h = header as Record<string, unknown>;
  const extra = Object.keys(h).filter((k) => !['alg', 'jwk', 'kid'].includes(k));
  if (extra.length > 0) throw bad(`the protected header has member(s) a package never uses: ${extra.join(', ')}`);
  if (h['alg'] !== 'EdDSA') throw bad(`alg is ${JSON.stringify(h['alg'])}, not "EdDSA"`);
  const jwk = readJwk(h['jwk']);
  if (!jwk.ok) throw bad(`the header's jwk: ${jwk.reason}`);
  if (h['kid'] !== jwk.kid) throw bad("the header's kid is not the thumbprint of its jwk");
  const signature = decodeB64urlFixed(encodedSignature, 64);
  if (signature === undefined) throw bad('the signature is not the strict base64url of 64 bytes');
  if (!verifyStrict(jwk.publicKey, utf8(`${encodedHeader}.${encodeB64url(payload)}`), signature)) {
    throw bad(`the signature of key ${jwk.kid} does not match manifest.json: the manifest or the signature was changed after signing`);
  }
  return jwk.kid;
}
