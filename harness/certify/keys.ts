// The key a package is signed with: made fresh, read from a JWK file, written as one.
import { decodeB64urlFixed, encodeB64url } from '../../profile/b64url.ts';
import { generateKeyPair } from '../../profile/ed25519.ts';
import { jwkThumbprint, publicJwk } from '../../profile/jwk.ts';
import { HarnessError } from '../errors.ts';
import { ed } from '../crypto/noble.ts';

export interface SigningKey {
  /** The 32-byte seed (the JWK's d). */
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  /** RFC 7638 thumbprint of the public key. */
  readonly kid: string;
}

/** A fresh random signing key. */
export function freshSigningKey(): SigningKey {
  return signingKeyOf(generateKeyPair().secretKey);
}

function signingKeyOf(seed: Uint8Array): SigningKey {
  const publicKey = ed.getPublicKey(seed);
  return { seed: Uint8Array.from(seed), publicKey, kid: publicJwk(publicKey).kid };
}

/** The private JWK of a key, as --key reads it and as certify writes a generated one. */
export function privateJwk(key: SigningKey): Record<string, string> {
  const { kty, crv, x, kid } = publicJwk(key.publicKey);
  return { kty, crv, x, d: encodeB64url(key.seed), kid };
}

/** A signing key from a private OKP Ed25519 JWK (d and x; kid, when given, its thumbprint). Throws CONFIG_INVALID naming `file`. */
export function readSigningKey(text: string, file: string): SigningKey {
  const jwk = okpJwk(text, file);
  const seed = decodeB64urlFixed(jwk['d'], 32);
  if (seed === undefined) throw keyError(file, 'it has no private key: d must be the strict base64url of a 32-byte Ed25519 seed');
  const key = signingKeyOf(seed);
  if (jwk['x'] !== undefined && jwk['x'] !== encodeB64url(key.publicKey)) throw keyError(file, 'x is not the public key of d');
  if (jwk['kid'] !== undefined && jwk['kid'] !== key.kid) throw keyError(file, `kid is not the RFC 7638 thumbprint of the key (${key.kid})`);
  return key;
}

/** The kid (thumbprint) of a public OKP Ed25519 JWK (a private one serves too: only x is read). Throws CONFIG_INVALID naming `file`. */
export function readPublicKid(text: string, file: string): string {
  const jwk = okpJwk(text, file);
  if (decodeB64urlFixed(jwk['x'], 32) === undefined) throw keyError(file, 'x must be the strict base64url of a 32-byte Ed25519 public key');
  const kid = jwkThumbprint(jwk['x'] as string);
  if (jwk['kid'] !== undefined && jwk['kid'] !== kid) throw keyError(file, `kid is not the RFC 7638 thumbprint of the key (${kid})`);
  return kid;
}

function okpJwk(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw keyError(file, `it is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw keyError(file, 'a JWK is a JSON object');
  const jwk = value as Record<string, unknown>;
  if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519') throw keyError(file, 'kty must be "OKP" and crv "Ed25519"');
  if (jwk['alg'] !== undefined && jwk['alg'] !== 'EdDSA') throw keyError(file, 'alg, when given, must be "EdDSA"');
  return jwk;
}

function keyError(file: string, reason: string): HarnessError {
  return new HarnessError('CONFIG_INVALID', `the key file ${file} is not an Ed25519 JWK: ${reason}`, 'give an OKP JWK: {"kty":"OKP","crv":"Ed25519","x":"...","d":"..."} (certify writes one beside a package it signs with a generated key)');
}
