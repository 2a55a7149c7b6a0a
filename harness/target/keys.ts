// Private key files of a target (credentials.*.private_key_file): an Ed25519 OKP
// JWK with `d` (RFC 8037). The public half is recomputed from `d` and must equal
// `x`, so a key file that does not hold the key it claims is caught at load time.
import { readFileSync, statSync } from 'node:fs';
import { decodeB64urlFixed, encodeB64url } from '../../profile/b64url.ts';
import { generateKeyPair } from '../../profile/ed25519.ts';
import { jwkThumbprint, publicJwk } from '../../profile/jwk.ts';
import type { KeyCredential } from './config.ts';

const MAX_KEY_FILE_BYTES = 64 * 1024;

type KeyFileResult = { readonly ok: true; readonly key: KeyCredential } | { readonly ok: false; readonly reason: string };

/** Reads and checks one key file; the reason never quotes key material. */
export function readKeyFile(path: string): KeyFileResult {
  let text: string;
  try {
    if (statSync(path).size > MAX_KEY_FILE_BYTES) return { ok: false, reason: `${path} is larger than ${MAX_KEY_FILE_BYTES} bytes: not a JWK` };
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, reason: `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let jwk: unknown;
  try {
    jwk = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${path} is not JSON: expected an Ed25519 JWK with "d"` };
  }
  return checkPrivateJwk(jwk, path);
}

function checkPrivateJwk(value: unknown, path: string): KeyFileResult {
  const bad = (what: string): KeyFileResult => ({ ok: false, reason: `${path}: ${what}` });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('expected a JWK object');
  const jwk = value as Record<string, unknown>;
  if (jwk['kty'] !== 'OKP') return bad('expected kty "OKP"');
  if (jwk['crv'] !== 'Ed25519') return bad('expected crv "Ed25519"');
  const seed = decodeB64urlFixed(jwk['d'], 32);
  if (!seed) return bad('expected d, the strict base64url of the 32-byte private key');
  const claimed = decodeB64urlFixed(jwk['x'], 32);
  if (!claimed) return bad('expected x, the strict base64url of the 32-byte public key');
  const pair = generateKeyPair(seed);
  if (encodeB64url(pair.publicKey) !== jwk['x']) return bad('x is not the public key of d: the file does not hold the key it claims');
  if (jwk['kid'] !== undefined && jwk['kid'] !== jwkThumbprint(jwk['x'] as string)) return bad('kid, when present, must be the RFC 7638 thumbprint of the key');
  return { ok: true, key: { secretKey: pair.secretKey, publicKey: pair.publicKey, jwk: publicJwk(pair.publicKey) } };
}
