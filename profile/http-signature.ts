// Caller authentication for identified parties: RFC 9421 HTTP Message Signatures
// with Ed25519, and RFC 9530 Content-Digest for bodies. PROFILE.md §2.4.
import { createHash, randomUUID } from 'node:crypto';
import { signBytes, verifyStrict } from './ed25519.ts';

const SIGNATURE_LABEL = 'cpp';

export interface SignatureTarget {
  readonly method: string;
  /** Host and port as sent in the Host header, e.g. `127.0.0.1:8443`. */
  readonly authority: string;
  /** The request path without the query. */
  readonly path: string;
  /** The query without its `?`, for the @query component. */
  readonly query?: string;
  readonly body?: Uint8Array;
}

interface SignedHeaders {
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

/** The value of one covered component (RFC 9421 §2.1, §2.2); undefined when the request has none. */
function componentValue(target: SignatureTarget, name: string, headers: Readonly<Record<string, string | undefined>>): string | undefined {
  switch (name) {
    case '@method':
      return target.method.toUpperCase();
    case '@authority':
      return target.authority.toLowerCase();
    case '@path':
      return target.path;
    case '@query':
      return `?${target.query ?? ''}`;
    default:
      return name.startsWith('@') ? undefined : headers[name];
  }
}

/** RFC 9421 §2.5 signature base over `covered`, with the @signature-params line as given. */
function signatureBase(target: SignatureTarget, covered: readonly string[], headers: Readonly<Record<string, string | undefined>>, params: string): string | undefined {
  const lines: string[] = [];
  for (const name of covered) {
    const value = componentValue(target, name, headers);
    if (value === undefined) return undefined;
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${params}`);
  return lines.join('\n');
}

export function signRequest(target: SignatureTarget, key: { secretKey: Uint8Array; kid: string }, createdSeconds: number): SignedHeaders {
  return signRequestAs(target, key, createdSeconds, 'profile');
}

/**
 * A signature in the profile's form, or a named departure from it that is still
 * a valid RFC 9421 signature, to show that a verifier holds to the form
 * (PROFILE.md §2.4): fewer components, another component, an extra or a
 * reordered parameter, a Content-Digest of other bytes than the body sent, a
 * label other than `cpp` (`label`, by default `sig1`, the label RFC 9421's own
 * examples use).
 */
export type SignatureLayout = 'profile' | 'without-authority' | 'extra-component' | 'extra-parameter' | 'reordered-parameters' | 'digest-of-other-bytes' | 'other-label';
export const SIGNATURE_LAYOUTS: readonly SignatureLayout[] = ['profile', 'without-authority', 'extra-component', 'extra-parameter', 'reordered-parameters', 'digest-of-other-bytes', 'other-label'];

export function signRequestAs(target: SignatureTarget, key: { secretKey: Uint8Array; kid: string }, createdSeconds: number, layout: SignatureLayout, label = 'sig1'): SignedHeaders {
  if (layout === 'other-label' && label === SIGNATURE_LABEL) throw new RangeError(`signRequestAs: the other-label layout takes a label other than ${SIGNATURE_LABEL}`);
  const labelled = layout === 'other-label' ? label : SIGNATURE_LABEL;
  const digested = target.body === undefined ? undefined : layout === 'digest-of-other-bytes' ? Buffer.concat([target.body, Buffer.from(' ')]) : target.body;
  const digest = digested === undefined ? undefined : contentDigest(digested);
  let covered = components(digest !== undefined);
  if (layout === 'without-authority') covered = covered.filter((c) => c !== '@authority');
  if (layout === 'extra-component') covered = [...covered, '@query'];
  const list = `(${covered.map((c) => `"${c}"`).join(' ')})`;
  const params =
    layout === 'extra-parameter' ? `${list};created=${createdSeconds};keyid="${key.kid}";alg="ed25519";nonce="${randomUUID()}"`
    : layout === 'reordered-parameters' ? `${list};keyid="${key.kid}";alg="ed25519";created=${createdSeconds}`
    : `${list};created=${createdSeconds};keyid="${key.kid}";alg="ed25519"`;
  const base = signatureBase(target, covered, { 'content-digest': digest }, params)!;
  const sig = signBytes(Buffer.from(base, 'utf8'), key.secretKey);
  const headers = { 'signature-input': `${labelled}=${params}`, signature: `${labelled}=:${Buffer.from(sig).toString('base64')}:` };
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
  const covered = components(hasBody);
  const base = Buffer.from(signatureBase(target, covered, { 'content-digest': digest }, signatureParams(covered, Number(created), kid))!, 'utf8');
  const sig = Buffer.from(s[1]!, 'base64');
  if (!verifyStrict(publicKey, base, sig)) return { ok: false, reason: 'HTTP message signature does not verify', kid };
  return { ok: true, kid };
}

/**
 * An RFC 9421 verifier looser than the profile, as implementations are written:
 * it reads the `cpp` signature's covered components and parameters as they come
 * and verifies over them, or takes the one signature a request carries under
 * whatever label it has. Each looseness is a named departure from PROFILE.md
 * §2.4; the reference switches one on only as a mutant (reference/mutants.ts).
 */
export type Looseness = 'any-components' | 'any-parameters' | 'digest-unchecked' | 'any-label';

export function verifyRequestLoosely(target: SignatureTarget, options: VerifyOptions, loose: Looseness): SignatureCheck {
  const input = header(options.headers, 'signature-input');
  const signature = header(options.headers, 'signature');
  if (input === undefined || signature === undefined) return { ok: false, reason: 'no HTTP message signature' };
  if (loose === 'any-label') {
    // The label is not part of the signature base (RFC 9421 §2.5), so the signature verifies under any.
    const label = /^([^=]+)=/.exec(input)?.[1];
    if (label === undefined || !signature.startsWith(`${label}=`)) return { ok: false, reason: 'Signature-Input and Signature do not share a label' };
    return verifyRequest(target, { ...options, headers: { ...options.headers, 'signature-input': `${SIGNATURE_LABEL}${input.slice(label.length)}`, signature: `${SIGNATURE_LABEL}${signature.slice(label.length)}` } });
  }
  const m = /^cpp=\(([^)]*)\)((?:;[a-z]+=(?:"[^"]*"|\d+))+)$/.exec(input);
  const s = SIGNATURE.exec(signature);
  if (!m || !s) return { ok: false, reason: 'Signature-Input or Signature is not in the profile form' };
  const covered = [...m[1]!.matchAll(/"([^"]+)"/g)].map((c) => c[1]!);
  const params = new Map([...m[2]!.matchAll(/;([a-z]+)=("([^"]*)"|\d+)/g)].map((p) => [p[1]!, p[3] ?? p[2]!]));
  const hasBody = target.body !== undefined && target.body.length > 0;
  if (loose !== 'any-components' && covered.join(' ') !== components(hasBody).join(' ')) return { ok: false, reason: 'covered components are not the profile\'s' };
  const order = [...params.keys()].join(';');
  if (loose !== 'any-parameters' && order !== 'created;keyid;alg') return { ok: false, reason: 'parameters are not the profile\'s' };
  const kid = params.get('keyid');
  const created = Number(params.get('created'));
  if (kid === undefined || !Number.isSafeInteger(created) || params.get('alg') !== 'ed25519') return { ok: false, reason: 'created, keyid and alg are required' };
  const digest = header(options.headers, 'content-digest');
  if (hasBody && loose !== 'digest-unchecked' && digest !== contentDigest(target.body!)) return { ok: false, reason: 'Content-Digest missing or does not match the body', kid };
  if (Math.abs(created - options.nowSeconds) > options.windowSeconds) return { ok: false, reason: 'signature created outside the request window', kid };
  const publicKey = options.lookupKey(kid);
  if (!publicKey) return { ok: false, reason: 'unknown keyid', kid };
  const base = signatureBase(target, covered, { 'content-digest': digest }, input.slice('cpp='.length));
  if (base === undefined) return { ok: false, reason: 'a covered component is missing', kid };
  if (!verifyStrict(publicKey, Buffer.from(base, 'utf8'), Buffer.from(s[1]!, 'base64'))) return { ok: false, reason: 'HTTP message signature does not verify', kid };
  return { ok: true, kid };
}
