// Delivery URIs, spec §4.4 and PROFILE.md §8.1:
//   std-cpr://<token>?endpoint=<percent-encoded base URL>   (QR code and deep link)
//   std-cpr://inline/<strict base64url of the CPR's UTF-8 JSON>
// Parsing returns a value; a URI that is none of these forms is URI_INVALID.
import { decodeB64url, encodeB64url } from '../b64url.ts';

const URI_SCHEME = 'std-cpr';
const PREFIX = `${URI_SCHEME}://`;
const INLINE_PREFIX = `${PREFIX}inline/`;
/** PROFILE.md §10: at least 128 bits, lower-case hex (survives host case-folding). */
const TOKEN_PATTERN = /^[0-9a-f]{32,128}$/;
/** PROFILE.md §8.1: an inline URI then fits a QR code at error correction M. */
export const MAX_INLINE_URI_BYTES = 2048;

type DeliveryUri =
  | { readonly kind: 'token'; readonly token: string; readonly endpoint: string }
  | { readonly kind: 'inline'; readonly json: string }
  | { readonly kind: 'error'; readonly code: 'URI_INVALID'; readonly reason: string };

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Why a base URL is not a valid endpoint (PROFILE.md §8.1), or undefined when it is. */
export function endpointProblem(endpoint: string): string | undefined {
  // The scheme is case-insensitive (RFC 3986 §3.1): HTTPS:// is https://.
  if (!/^https:\/\//i.test(endpoint)) return 'the endpoint must be an absolute https URL';
  if (/[\s?#]/.test(endpoint)) return 'the endpoint must have no query, fragment or white space';
  if (endpoint.endsWith('/')) return 'the endpoint must not end with a slash';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'the endpoint is not a valid URL';
  }
  return url.host === '' ? 'the endpoint has no host' : undefined;
}

/** The URL a paying application retrieves: `<endpoint>/cpr/<token>` (PROFILE.md §8.1). */
export function retrievalUrl(endpoint: string, token: string): string {
  return `${endpoint}/cpr/${token}`;
}

/** QR and deep-link URI. Throws TypeError for a token or base URL the profile forbids (a caller defect). */
export function buildQrUri(token: string, baseUrl: string): string {
  if (!TOKEN_PATTERN.test(token)) throw new TypeError(`token must match ${TOKEN_PATTERN}`);
  const problem = endpointProblem(baseUrl);
  if (problem) throw new TypeError(`${problem}: ${JSON.stringify(baseUrl)}`);
  return `${PREFIX}${token}?endpoint=${encodeURIComponent(baseUrl)}`;
}

/** Inline URI of a CPR, or undefined when it would exceed 2 048 bytes (a payee then offers no inline form). */
export function buildInlineUri(cpr: unknown): string | undefined {
  const uri = INLINE_PREFIX + encodeB64url(encoder.encode(JSON.stringify(cpr)));
  return uri.length <= MAX_INLINE_URI_BYTES ? uri : undefined;
}

export function parseDeliveryUri(text: unknown): DeliveryUri {
  if (typeof text !== 'string') return invalid('a delivery URI is a string');
  if (!text.startsWith(PREFIX)) return invalid(`the scheme must be ${URI_SCHEME}://`);
  return text.startsWith(INLINE_PREFIX) ? parseInline(text) : parseToken(text);
}

function invalid(reason: string): DeliveryUri {
  return { kind: 'error', code: 'URI_INVALID', reason };
}

function parseInline(text: string): DeliveryUri {
  if (encoder.encode(text).length > MAX_INLINE_URI_BYTES) return invalid(`an inline URI is at most ${MAX_INLINE_URI_BYTES} bytes`);
  const payload = text.slice(INLINE_PREFIX.length);
  const bytes = payload === '' ? undefined : decodeB64url(payload);
  if (bytes === undefined) return invalid('the inline payload must be strict unpadded base64url (PROFILE.md §1)');
  try {
    return { kind: 'inline', json: utf8.decode(bytes) };
  } catch {
    return invalid('the inline payload is not UTF-8');
  }
}

function parseToken(text: string): DeliveryUri {
  const rest = text.slice(PREFIX.length);
  if (rest.includes('#')) return invalid('a delivery URI has no fragment');
  const q = rest.indexOf('?');
  const token = q < 0 ? rest : rest.slice(0, q);
  if (!TOKEN_PATTERN.test(token)) return invalid('the token must be 32 to 128 lower-case hex digits');
  if (q < 0) return invalid('the endpoint parameter is missing');
  const endpoints: string[] = [];
  for (const param of rest.slice(q + 1).split('&')) {
    const eq = param.indexOf('=');
    if ((eq < 0 ? param : param.slice(0, eq)) !== 'endpoint') continue; // other parameters are ignored
    try {
      endpoints.push(decodeURIComponent(eq < 0 ? '' : param.slice(eq + 1)));
    } catch {
      return invalid('the endpoint is not valid percent-encoding');
    }
  }
  if (endpoints.length !== 1) return invalid(`the query must hold exactly one endpoint parameter, found ${endpoints.length}`);
  const endpoint = endpoints[0] as string;
  const problem = endpointProblem(endpoint);
  return problem ? invalid(problem) : { kind: 'token', token, endpoint };
}
