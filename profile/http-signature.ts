// Caller authentication for identified parties: RFC 9421 HTTP Message Signatures
// with Ed25519, and RFC 9530 Content-Digest for bodies. PROFILE.md §2.4.
import { createHash } from 'node:crypto';
import { signBytes, verifyStrict } from './ed25519.ts';

export const SIGNATURE_LABEL = 'cpp';

export interface SignatureTarget {
  readonly method: string;
  /** Host and port as sent in the Host header, e.g. `127.0.0.1:8443`. */
  readonly authority: string;
  /** The request path without the query. */
  readonly path: string;
  readonly body?: Uint8Array;
}

export interface SignedHeaders {
  readonly 'signature-input': string;
  readonly signature: string;
  readonly 'content-digest'?: string;
}

export function contentDigest(body: Uint8Array): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

function components(hasBody: boolean): string[] {
  return hasBody ? ['@method', '@authority', '@path', 'content-digest'] : ['@method', '@authority', '@path'];
}

function signatureParams(covered: readonly string[], created: number, kid: string): string {
  return `(${covered.map((c) => `"${c}"`).join(' ')});created=${created};keyid="${kid}";alg="ed25519"`;
}

/** RFC 9421 §2.5 signature base. */
function signatureBase(target: SignatureTarget, digest: string | undefined, params: string): string {
  const lines = [
    `"@method": ${target.method.toUpperCase()}`,
    `"@authority": ${target.authority.toLowerCase()}`,
    `"@path": ${target.path}`,
  ];
  if (digest !== undefined) lines.push(`"content-digest": ${digest}`);
  lines.push(`"@signature-params": ${params}`);
  return lines.join('\n');
}

export function signRequest(target: SignatureTarget, key: { secretKey: Uint8Array; kid: string }, createdSeconds: number): SignedHeaders {
  const digest = target.body === undefined ? undefined : contentDigest(target.body);
  const params = signatureParams(components(digest !== undefined), createdSeconds, key.kid);
  const sig = signBytes(Buffer.from(signatureBase(target, digest, params), 'utf8'), key.secretKey);
  const headers = { 'signature-input': `${SIGNATURE_LABEL}=${params}`, signature: `${SIGNATURE_LABEL}=:${Buffer.from(sig).toString('base64')}:` };
  return digest === undefined ? headers : { ...headers, 'content-digest': digest };
}

export type SignatureCheck =
  | { readonly ok: true; readonly kid: string }
  | { readonly ok: false; readonly reason: string; readonly kid?: string };

export interface VerifyOptions {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly lookupKey: (kid: string) => Uint8Array | undefined;
  readonly nowSeconds: number;
  readonly windowSeconds: number;
}

const INPUT = /^cpp=\(((?:"[^"]+"(?: "[^"]+")*)?)\);created=(\d{1,12});keyid="([A-Za-z0-9_-]{1,128})";alg="ed25519"$/;
const SIGNATURE = /^cpp=:([A-Za-z0-9+/]{86}==):$/;

function header(headers: VerifyOptions['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : v;
}

/** Verifies a `cpp` HTTP Message Signature; the profile accepts exactly the form `signRequest` writes. */
export function verifyRequest(target: SignatureTarget, options: VerifyOptions): SignatureCheck {
  const input = header(options.headers, 'signature-input');
  const signature = header(options.headers, 'signature');
  if (input === undefined || signature === undefined) return { ok: false, reason: 'no HTTP message signature' };
  const m = INPUT.exec(input);
  const s = SIGNATURE.exec(signature);
  if (!m || !s) return { ok: false, reason: 'Signature-Input or Signature is not in the profile form' };
  const [, list, created, kid] = m as unknown as [string, string, string, string];
  const hasBody = target.body !== undefined && target.body.length > 0;
  const expected = components(hasBody).map((c) => `"${c}"`).join(' ');
  if (list !== expected) return { ok: false, reason: `covered components must be (${expected})`, kid };
  let digest: string | undefined;
  if (hasBody) {
    digest = header(options.headers, 'content-digest');
    if (digest !== contentDigest(target.body!)) return { ok: false, reason: 'Content-Digest missing or does not match the body', kid };
  }
  if (Math.abs(Number(created) - options.nowSeconds) > options.windowSeconds) return { ok: false, reason: 'signature created outside the request window', kid };
  const publicKey = options.lookupKey(kid);
  if (!publicKey) return { ok: false, reason: 'unknown keyid', kid };
  const params = signatureParams(components(hasBody), Number(created), kid);
  const base = Buffer.from(signatureBase(target, digest, params), 'utf8');
  const sig = Buffer.from(s[1]!, 'base64');
  if (!verifyStrict(publicKey, base, sig)) return { ok: false, reason: 'HTTP message signature does not verify', kid };
  return { ok: true, kid };
}
