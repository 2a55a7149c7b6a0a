// When two URIs are the same URI (RFC 3986 §6), and when a token URI is the one a
// payee with a given base URL must hand out (spec §4.4, §4.1; PROFILE.md §8.1).
//
// A URI is compared after the syntax-based normalisation of RFC 3986 §6.2.2
// (scheme and host case, the case of percent-encoding hex digits, percent-encoded
// unreserved characters decoded, dot segments removed), the scheme-based one of
// §6.2.3 for http and https (an empty or default port, an empty path), IPv6
// literals in one text form (RFC 5952: `[::1]` is `[0:0:0:0:0:0:0:1]`), and
// non-ASCII characters by their URI mapping (RFC 3987 §3.1), as a paying
// application's URL parser sends them. A reserved character and its
// percent-encoding stay different (§6.2.2.2): `/` is not `%2F`.
import { endpointProblem } from './uri.ts';

/** RFC 3986 Appendix B: every string splits into these parts. */
const REFERENCE = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;
const UNRESERVED = /[A-Za-z0-9._~-]/;
const PCT = /%([0-9A-Fa-f]{2})/g;
const DEFAULT_PORT: Readonly<Record<string, string>> = { https: '443', http: '80' };

interface UriParts {
  readonly scheme?: string;
  readonly authority?: string;
  readonly path: string;
  readonly query?: string;
  readonly fragment?: string;
}

function split(text: string): UriParts {
  const m = REFERENCE.exec(text)!;
  return {
    ...(m[1] !== undefined ? { scheme: m[1] } : {}),
    ...(m[2] !== undefined ? { authority: m[2] } : {}),
    path: m[3] ?? '',
    ...(m[4] !== undefined ? { query: m[4] } : {}),
    ...(m[5] !== undefined ? { fragment: m[5] } : {}),
  };
}

/** §6.2.2.1 and §6.2.2.2 on one component, with non-ASCII text mapped to UTF-8 percent-encoding (RFC 3987 §3.1). */
function normalizeEncoding(component: string): string {
  const mapped = component.replace(/[^\x00-\x7f]+/gu, (text) => {
    try {
      return encodeURIComponent(text);
    } catch {
      return text; // a lone surrogate has no UTF-8 form: compared as written
    }
  });
  return mapped.replace(PCT, (_all, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
  });
}

/** Letters outside percent-encodings in lower case (a host, a scheme). */
function lowerOutsideEncodings(text: string): string {
  return text.replace(/(%[0-9A-F]{2})|[^%]+/g, (part, pct: string | undefined) => pct ?? part.toLowerCase());
}

/** The eight 16-bit groups of an IPv6 address (RFC 4291 §2.2), or undefined when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  let head = text;
  const tail: number[] = [];
  const v4 = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const octets = v4.slice(2, 6).map(Number);
    if (octets.some((o) => o > 255)) return undefined;
    head = v4[1]!.endsWith('::') ? v4[1]! : v4[1]!.slice(0, -1);
    tail.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? Number.parseInt(g, 16) : Number.NaN)));
  const left = parse(halves[0]!);
  const right = halves.length === 2 ? parse(halves[1]!) : [];
  const given = left.length + right.length + tail.length;
  if ([...left, ...right].some(Number.isNaN)) return undefined;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  return [...left, ...Array<number>(8 - given).fill(0), ...right, ...tail];
}

/** `[v6]` in one form, an IPvFuture literal in lower case, any other host in lower case. */
function normalizeHost(host: string): string {
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = ipv6Groups(host.slice(1, -1));
    return groups ? `[${groups.map((g) => g.toString(16)).join(':')}]` : host.toLowerCase();
  }
  return lowerOutsideEncodings(normalizeEncoding(host));
}

/** `[userinfo@]host[:port]`, the port without leading zeros and left out when it is the scheme's default (§6.2.3). */
function normalizeAuthority(authority: string, scheme: string | undefined): string {
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? undefined : normalizeEncoding(authority.slice(0, at));
  const hostPort = authority.slice(at + 1);
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  if (!m) return authority;
  const port = m[2] === undefined || m[2] === '' ? undefined : String(Number(m[2]));
  const shownPort = port === undefined || (scheme !== undefined && DEFAULT_PORT[scheme] === port) ? '' : `:${port}`;
  return `${userinfo !== undefined ? `${userinfo}@` : ''}${normalizeHost(m[1]!)}${shownPort}`;
}

/** RFC 3986 §5.2.4. */
function removeDotSegments(path: string): string {
  const output: string[] = [];
  let input = path;
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../')) {
      input = input.slice(3);
      output.pop();
    } else if (input === '/..') {
      input = '/';
      output.pop();
    } else if (input === '.' || input === '..') input = '';
    else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const segment = next < 0 ? input : input.slice(0, next);
      output.push(segment);
      input = input.slice(segment.length);
    }
  }
  return output.join('');
}

/** The normal form of a URI under RFC 3986 §6.2.2 and §6.2.3 (see the header). */
export function normalizeUri(text: string): string {
  const parts = split(text);
  const scheme = parts.scheme?.toLowerCase();
  let path = normalizeEncoding(parts.path);
  if (scheme !== undefined) path = removeDotSegments(path);
  if (parts.authority !== undefined && path === '' && scheme !== undefined && scheme in DEFAULT_PORT) path = '/';
  return [
    scheme !== undefined ? `${scheme}:` : '',
    parts.authority !== undefined ? `//${normalizeAuthority(parts.authority, scheme)}` : '',
    path,
    parts.query !== undefined ? `?${normalizeEncoding(parts.query)}` : '',
    parts.fragment !== undefined ? `#${normalizeEncoding(parts.fragment)}` : '',
  ].join('');
}

/** Whether two URIs are the same URI (RFC 3986 §6.2.2, §6.2.3). */
export function sameUri(a: string, b: string): boolean {
  return normalizeUri(a) === normalizeUri(b);
}

/** What encodeURIComponent leaves as it is; everything else it percent-encodes. */
const COMPONENT_SAFE = /^[A-Za-z0-9_.!~*'()-]$/;

/** How a token URI compares with the one a payee with `baseUrl` hands out for `token`. */
export interface TokenUriComparison {
  /** `std-cpr://<token>?endpoint=<encodeURIComponent(baseUrl)>` (PROFILE.md §8.1). */
  readonly expected: string;
  /** The endpoint parameter, percent-decoded as a paying application reads it, when there is exactly one. */
  readonly endpoint?: string;
  /**
   * Where the URI is not the expected one (spec §4.4: `std-cpr://<token>?endpoint=<url>`,
   * the url the payee's base URL): a scheme, token, path or fragment of its own, no
   * single endpoint, or an endpoint that is not the base URL as a URI. Empty when it
   * denotes the expected URI; query parameters other than endpoint are ignored.
   */
  readonly form: readonly string[];
  /**
   * Where the profile's rules are broken (PROFILE.md §8.1): the base URL is not an
   * absolute https URL without query, fragment or trailing slash, or the endpoint
   * leaves a character unencoded that encodeURIComponent encodes. The case of
   * percent-encoding hex digits, and encoded characters that need none (unreserved
   * ones, and the five `! ' ( ) *` encodeURIComponent leaves alone), are the same
   * value to every decoder and not departures.
   */
  readonly encoding: readonly string[];
}

export function compareTokenUri(uri: string, token: string, baseUrl: string): TokenUriComparison {
  const expected = `std-cpr://${token}?endpoint=${encodeURIComponent(baseUrl)}`;
  const form: string[] = [];
  const encoding: string[] = [];
  const base = endpointProblem(baseUrl);
  if (base !== undefined) encoding.push(`the base URL ${JSON.stringify(baseUrl)} breaks PROFILE.md §8.1: ${base}`);
  const parts = split(uri);
  if (parts.scheme?.toLowerCase() !== 'std-cpr') form.push(`the scheme is ${parts.scheme === undefined ? 'missing' : JSON.stringify(parts.scheme)}, not std-cpr`);
  // The token is compared as written: PROFILE.md §10 fixes its case (lower-case hex).
  if (parts.authority !== token) form.push(`the token is ${JSON.stringify(parts.authority ?? null)}, not ${JSON.stringify(token)}`);
  if (parts.path !== '') form.push(`there is a path ${JSON.stringify(parts.path)} after the token`);
  if (parts.fragment !== undefined) form.push(`there is a fragment ${JSON.stringify(parts.fragment)}`);
  const values = (parts.query === undefined ? [] : parts.query.split('&'))
    .map((param) => {
      const eq = param.indexOf('=');
      return eq < 0 ? { name: param, value: '' } : { name: param.slice(0, eq), value: param.slice(eq + 1) };
    })
    .filter((p) => normalizeEncoding(p.name) === 'endpoint')
    .map((p) => p.value);
  if (values.length !== 1) {
    form.push(`the query holds ${values.length} endpoint parameters, not one`);
    return { expected, form, encoding };
  }
  const raw = values[0]!;
  const unencoded = [...new Set([...raw.replace(PCT, '')].filter((c) => !COMPONENT_SAFE.test(c)))];
  if (unencoded.length > 0) encoding.push(`the endpoint leaves ${unencoded.map((c) => JSON.stringify(c)).join(', ')} unencoded, which encodeURIComponent percent-encodes`);
  let endpoint: string;
  try {
    endpoint = decodeURIComponent(raw);
  } catch {
    form.push(`the endpoint ${JSON.stringify(raw)} is not valid percent-encoding of UTF-8`);
    return { expected, form, encoding };
  }
  // A URI is ASCII (RFC 3986 §2): what the base URL writes percent-encoded, its endpoint must not carry decoded
  // (the same resource to a parser that maps an IRI, but not the base URL encodeURIComponent was given).
  if (/[^\x00-\x7f]/.test(endpoint) && !/[^\x00-\x7f]/.test(baseUrl)) encoding.push(`the endpoint decodes to ${JSON.stringify(endpoint)}, with characters outside ASCII where the base URL ${JSON.stringify(baseUrl)} has their percent-encoding: its own escapes were decoded before it was encoded`);
  const problem = endpointProblem(endpoint);
  if (problem !== undefined) form.push(`the endpoint ${JSON.stringify(endpoint)} is no base URL: ${problem}`);
  else if (!sameUri(endpoint, baseUrl)) form.push(`the endpoint ${JSON.stringify(endpoint)} is not the base URL ${JSON.stringify(baseUrl)}, compared as URIs (RFC 3986 §6.2)`);
  return { expected, endpoint, form, encoding };
}
