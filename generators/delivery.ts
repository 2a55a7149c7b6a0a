// Delivery URIs (spec §4.4, PROFILE.md §8.1), valid and malformed:
// - qrUri: `std-cpr://<token>?endpoint=<encodeURIComponent(base URL)>` exactly as a
//   payee renders it (buildQrUri): a 32..128 digit lower-case hex token and an
//   absolute https base URL (domain or IPv4, optional port and path, no query,
//   fragment or trailing slash);
// - deepLink: the same form (DLV-DEEP-1) as links carry it, sometimes with other
//   query parameters before or after `endpoint`, which are ignored;
// - inlineUri: `std-cpr://inline/<strict base64url of a valid CPR's JSON>`, at most
//   2 048 bytes.
// With `malformed: true` each arbitrary yields one defect instead, labelled with the
// paying application's expected result: URI_INVALID (parseDeliveryUri rejects it),
// or, for an inline payload that decodes but is not I-JSON, CPR_INVALID with
// PRF-JSON-1 (parseDeliveryUri accepts the URI; parseIJson rejects the text).
import fc from 'fast-check';
import { matching } from './parts/deferred.ts';
import { notUtf8 } from './parts/utf8.ts';
import { MAX_INLINE_URI_BYTES, buildInlineUri, buildQrUri, type Cpr } from '../profile/cpr/index.ts';
import { encodeB64url } from '../profile/b64url.ts';
import { validCpr, type ValidCprConstraints } from './cpr.ts';

export type DeliveryForm = 'qr' | 'deep-link' | 'inline';

export interface TokenDelivery {
  readonly malformed: false;
  readonly form: 'qr' | 'deep-link';
  readonly uri: string;
  readonly token: string;
  /** The base URL, decoded: what parseDeliveryUri returns. */
  readonly endpoint: string;
}

export interface InlineDelivery {
  readonly malformed: false;
  readonly form: 'inline';
  readonly uri: string;
  /** The UTF-8 JSON text the payload decodes to. */
  readonly json: string;
  readonly cpr: Cpr;
}

export type ExpectedUriRejection =
  | { readonly stage: 'uri'; readonly code: 'URI_INVALID'; readonly requirement: string }
  | { readonly stage: 'json'; readonly code: 'CPR_INVALID'; readonly requirement: 'PRF-JSON-1' };

export interface MalformedDelivery {
  readonly malformed: true;
  readonly form: DeliveryForm;
  readonly uri: string;
  /** Stable name of the defect, e.g. "inline:padding". */
  readonly defect: string;
  readonly description: string;
  readonly expected: ExpectedUriRejection;
}

export interface TokenUriConstraints {
  /** Generate URIs with exactly one defect instead of valid ones. @defaultValue false */
  readonly malformed?: boolean;
  /**
   * The base URLs the URIs carry (absolute https, PROFILE.md §8.1), and the
   * defects are built on: one where nothing answers, say, so that an
   * application that retrieves a malformed URI all the same answers at once.
   * @defaultValue any endpointUrl
   */
  readonly endpoints?: fc.Arbitrary<string>;
}

export interface InlineUriConstraints extends TokenUriConstraints {
  /** Constraints of the embedded CPR. @defaultValue { maxExtensionKeys: 1 }, so most CPRs fit in 2 048 bytes */
  readonly cpr?: ValidCprConstraints;
}

function malformedFlag(fn: string, constraints: TokenUriConstraints): boolean {
  const { malformed = false } = constraints;
  if (typeof malformed !== 'boolean') throw new RangeError(`${fn}: constraints.malformed must be a boolean, got ${String(malformed)}`);
  return malformed;
}

const uriInvalid = (requirement: string): ExpectedUriRejection => ({ stage: 'uri', code: 'URI_INVALID', requirement });

// ------------------------------------------------------------- token URIs

const HEX = '0123456789abcdef'.split('');
const token = fc.string({ unit: fc.constantFrom(...HEX), minLength: 32, maxLength: 128 });

const segment = fc.oneof(
  { weight: 6, arbitrary: matching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,11}$/) },
  { weight: 1, arbitrary: fc.constantFrom('café', '€', 'a&b=c', 'x+y', 'k:v@w', 'a,b;c', '%41') },
);
const host = fc.oneof({ weight: 4, arbitrary: fc.domain() }, { weight: 1, arbitrary: fc.ipV4() }, { weight: 1, arbitrary: fc.constant('localhost') });

/** An absolute https base URL without query, fragment or trailing slash (PROFILE.md §8.1). */
export const endpointUrl: fc.Arbitrary<string> = fc
  .tuple(host, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), fc.array(segment, { maxLength: 4 }))
  .map(([h, port, path]) => `https://${h}${port === undefined ? '' : `:${port}`}${path.map((s) => `/${s}`).join('')}`);

const qrValidFrom = (endpoints: fc.Arbitrary<string> = endpointUrl) =>
  fc.tuple(token, endpoints).map(([t, endpoint]): TokenDelivery => ({ malformed: false, form: 'qr', uri: buildQrUri(t, endpoint), token: t, endpoint }));

const extraParam = fc.oneof(
  fc.tuple(matching(/^[a-z_]{1,10}$/), matching(/^[A-Za-z0-9._~-]{0,10}$/)).map(([k, v]) => (k === 'endpoint' ? `x${k}=${v}` : `${k}=${v}`)),
  fc.constantFrom('utm_source=qr', 'v=1', 'flag', 'endpointx=https%3A%2F%2Fevil.example', ''),
);

const deepValidFrom = (endpoints: fc.Arbitrary<string> = endpointUrl) =>
  fc.tuple(token, endpoints, fc.array(extraParam, { maxLength: 2 }), fc.array(extraParam, { maxLength: 2 })).map(([t, endpoint, before, after]): TokenDelivery => {
    const params = [...before, `endpoint=${encodeURIComponent(endpoint)}`, ...after];
    return { malformed: false, form: 'deep-link', uri: `std-cpr://${t}?${params.join('&')}`, token: t, endpoint };
  });

/**
 * White space in an endpoint: a space, the tab and line breaks a WHATWG URL
 * parser removes without a word (and, at either end, the spaces it trims), a
 * no-break and an ideographic space.
 */
const endpointSpace = fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u3000');

/**
 * What makes a base URL no endpoint of §8.1 when it follows one: a trailing
 * slash, a query (empty, one parameter or several, the slash before it or
 * not), a fragment (empty or not, after a query or not), or white space.
 */
const endpointTail: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('/', '?', '#', '/?', '?a=1', '#frag', '?a=1#b'),
  endpointSpace,
  fc
    .tuple(fc.constantFrom('', '/'), fc.array(matching(/^[a-z][a-z0-9_]{0,5}(=[A-Za-z0-9._~-]{0,6})?$/), { minLength: 1, maxLength: 3 }), fc.option(matching(/^#[A-Za-z0-9]{0,6}$/), { nil: '' }))
    .map(([slash, params, fragment]) => `${slash}?${params.join('&')}${fragment}`),
  matching(/^\/?#[A-Za-z0-9._~-]{0,8}$/),
);

/**
 * White space around a whole delivery URI, which is then no URI of §8.1 (a
 * scanner's trailing line break, a pasted text's padding): before it, after it
 * or both, of the kinds String.prototype.trim removes (a byte order mark and
 * the no-break spaces among them).
 */
const surroundingSpace: fc.Arbitrary<{ readonly before: string; readonly after: string }> = fc
  .tuple(fc.constantFrom('', ' ', '\t', '\n', '\r\n', '\u00a0', '\u3000', '\ufeff'), fc.constantFrom('', ' ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '  '))
  .map(([before, after]) => (before === '' && after === '' ? { before, after: '\n' } : { before, after }));
const spaced = (uri: string) => surroundingSpace.map(({ before, after }) => ({ uri: `${before}${uri}${after}`, description: `the URI with white space ${JSON.stringify(before)} before it and ${JSON.stringify(after)} after it` }));

interface TokenDefect {
  readonly defect: string;
  readonly requirement: 'form' | 'PRF-URI-1';
  readonly build: (t: string, endpoint: string) => fc.Arbitrary<{ uri: string; description: string }>;
}

const q = (t: string, endpoint: string) => `std-cpr://${t}?endpoint=${encodeURIComponent(endpoint)}`;
const fixed = (uri: string, description: string) => fc.constant({ uri, description });

const TOKEN_DEFECTS: readonly TokenDefect[] = [
  {
    defect: 'wrong-scheme',
    requirement: 'form',
    build: (t, e) =>
      fc.constantFrom('cpr://', 'std-cpr:/', 'std-cpr:', 'https://', 'std_cpr://', '').map((scheme) => ({
        uri: `${scheme}${t}?endpoint=${encodeURIComponent(e)}`,
        description: `scheme ${JSON.stringify(scheme)} instead of std-cpr://`,
      })),
  },
  {
    defect: 'bad-token-charset',
    requirement: 'form',
    build: (t, e) =>
      fc
        .constantFrom<[(x: string) => string, string]>(
          [(x) => x.toUpperCase().replace(/^[0-9]*/, (d) => d + 'A'), 'upper-case hex'],
          [(x) => `${x.slice(0, -1)}g`, 'a non-hex letter'],
          [(x) => `${x.slice(0, 16)}-${x.slice(17)}`, 'a base64url character'],
          [(x) => x.slice(0, 31), '31 digits (under 128 bits)'],
          [(x) => x.padEnd(129, '0'), '129 digits'],
          [() => '', 'an empty token'],
        )
        .map(([f, what]) => ({ uri: q(f(t), e), description: `token with ${what}` })),
  },
  { defect: 'uri-fragment', requirement: 'form', build: (t, e) => fixed(`${q(t, e)}#pay`, 'a fragment after the query') },
  { defect: 'surrounding-space', requirement: 'form', build: (t, e) => spaced(q(t, e)) },
  {
    // The token is the whole authority and nothing follows it but the query (§8.1): a path after it (what a
    // hierarchical URI reader or a link handler may add or pass over), a port, or userinfo before it.
    defect: 'token-not-whole-authority',
    requirement: 'form',
    build: (t, e) =>
      fc
        .oneof(
          fc.array(segment, { maxLength: 3 }).chain((segments) => fc.constantFrom('', '/').map((end) => ({ after: `/${segments.join('/')}${segments.length > 0 ? end : ''}`, before: '' }))),
          fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined }).map((port) => ({ after: `:${port ?? ''}`, before: '' })),
          fc.option(segment, { nil: '' }).map((user) => ({ after: '', before: `${user}@` })),
        )
        .map(({ after, before }) => ({
          uri: `std-cpr://${before}${t}${after}?endpoint=${encodeURIComponent(e)}`,
          description: after !== '' ? `${JSON.stringify(after)} between the token and the query` : `userinfo ${JSON.stringify(before)} before the token`,
        })),
  },
  {
    defect: 'missing-endpoint',
    requirement: 'PRF-URI-1',
    build: (t) => fc.constantFrom(`std-cpr://${t}`, `std-cpr://${t}?`, `std-cpr://${t}?url=https%3A%2F%2Fpay.example`).map((uri) => ({ uri, description: 'no endpoint parameter' })),
  },
  {
    defect: 'duplicate-endpoint',
    requirement: 'PRF-URI-1',
    build: (t, e) => fixed(`${q(t, e)}&endpoint=${encodeURIComponent(e)}`, 'two endpoint parameters'),
  },
  {
    defect: 'endpoint-not-https',
    requirement: 'PRF-URI-1',
    build: (t, e) =>
      fc
        .constantFrom(e.replace(/^https:/, 'http:'), e.replace(/^https:\/\//, ''), e.replace(/^https:\/\/[^/]*/, '') || '/', `ftp${e.slice(5)}`)
        .map((bad) => ({ uri: q(t, bad), description: `endpoint ${JSON.stringify(bad)} is not an absolute https URL` })),
  },
  {
    defect: 'endpoint-shape',
    requirement: 'PRF-URI-1',
    build: (t, e) =>
      fc
        .oneof(fc.constant('https://'), endpointTail.map((tail) => `${e}${tail}`), endpointSpace.map((space) => `${space}${e}`))
        .map((bad) => ({ uri: q(t, bad), description: `endpoint ${JSON.stringify(bad)} has a trailing slash, query, fragment, white space or no host` })),
  },
  {
    defect: 'bad-percent-encoding',
    requirement: 'PRF-URI-1',
    build: (t, e) => fc.constantFrom('%E0%A4%A', '%ZZ', '%').map((tail) => ({ uri: `${q(t, e)}${tail}`, description: `endpoint ends in invalid percent-encoding ${tail}` })),
  },
];

function tokenMalformed(form: 'qr' | 'deep-link', endpoints: fc.Arbitrary<string> = endpointUrl): fc.Arbitrary<MalformedDelivery> {
  const formRequirement = form === 'qr' ? 'DLV-QR-1' : 'DLV-DEEP-1';
  return fc.tuple(fc.constantFrom(...TOKEN_DEFECTS), token, endpoints).chain(([d, t, e]) =>
    d.build(t, e).map(
      ({ uri, description }): MalformedDelivery => ({
        malformed: true,
        form,
        uri,
        defect: `${form}:${d.defect}`,
        description,
        expected: uriInvalid(d.requirement === 'form' ? formRequirement : d.requirement),
      }),
    ),
  );
}

/** QR URIs as a payee renders them; with `malformed: true`, one defect each (URI_INVALID). */
export function qrUri(constraints?: { readonly malformed?: false; readonly endpoints?: fc.Arbitrary<string> }): fc.Arbitrary<TokenDelivery>;
export function qrUri(constraints: { readonly malformed: true; readonly endpoints?: fc.Arbitrary<string> }): fc.Arbitrary<MalformedDelivery>;
export function qrUri(constraints?: TokenUriConstraints): fc.Arbitrary<TokenDelivery | MalformedDelivery>;
export function qrUri(constraints: TokenUriConstraints = {}): fc.Arbitrary<TokenDelivery | MalformedDelivery> {
  return malformedFlag('qrUri', constraints) ? tokenMalformed('qr', constraints.endpoints) : qrValidFrom(constraints.endpoints);
}

/** Deep links (the QR form, other query parameters allowed and ignored); with `malformed: true`, one defect each. */
export function deepLink(constraints?: { readonly malformed?: false; readonly endpoints?: fc.Arbitrary<string> }): fc.Arbitrary<TokenDelivery>;
export function deepLink(constraints: { readonly malformed: true; readonly endpoints?: fc.Arbitrary<string> }): fc.Arbitrary<MalformedDelivery>;
export function deepLink(constraints?: TokenUriConstraints): fc.Arbitrary<TokenDelivery | MalformedDelivery>;
export function deepLink(constraints: TokenUriConstraints = {}): fc.Arbitrary<TokenDelivery | MalformedDelivery> {
  return malformedFlag('deepLink', constraints) ? tokenMalformed('deep-link', constraints.endpoints) : deepValidFrom(constraints.endpoints);
}

// ------------------------------------------------------------- inline URIs

const INLINE = 'std-cpr://inline/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const encoder = new TextEncoder();
const inlineOf = (bytes: Uint8Array): string => INLINE + encodeB64url(bytes);

interface InlineDefect {
  readonly defect: string;
  readonly expected: ExpectedUriRejection;
  readonly build: (cpr: Cpr, json: string) => fc.Arbitrary<{ uri: string; description: string }>;
}

const INLINE_REQ = uriInvalid('PRF-INLINE-1');
const JSON_REQ: ExpectedUriRejection = { stage: 'json', code: 'CPR_INVALID', requirement: 'PRF-JSON-1' };

/** Replaces the character at `pick` (mod length) with `c`, or appends it to an empty payload. */
function spliceChar(payload: string, pick: number, c: string): string {
  if (payload.length === 0) return c;
  const at = pick % payload.length;
  return payload.slice(0, at) + c + payload.slice(at + 1);
}

const INLINE_DEFECTS: readonly InlineDefect[] = [
  {
    defect: 'padding',
    expected: INLINE_REQ,
    build: (_c, json) => {
      const b64 = Buffer.from(json, 'utf8').toString('base64url');
      const pad = '='.repeat((4 - (b64.length % 4)) % 4 || 2);
      return fixed(`${INLINE}${b64}${pad}`, `payload with ${pad.length} "=" padding`);
    },
  },
  {
    defect: 'plus',
    expected: INLINE_REQ,
    build: (_c, json) =>
      fc.nat().map((pick) => {
        const std = Buffer.from(json, 'utf8').toString('base64').replace(/=+$/, '');
        const payload = std.includes('+') ? std : spliceChar(std, pick, '+');
        return { uri: INLINE + payload, description: 'standard base64 alphabet: "+" in the payload' };
      }),
  },
  {
    defect: 'slash',
    expected: INLINE_REQ,
    build: (_c, json) =>
      fc.nat().map((pick) => {
        const std = Buffer.from(json, 'utf8').toString('base64').replace(/=+$/, '');
        const payload = std.includes('/') ? std : spliceChar(std, pick, '/');
        return { uri: INLINE + payload, description: 'standard base64 alphabet: "/" in the payload' };
      }),
  },
  {
    defect: 'bad-charset',
    expected: INLINE_REQ,
    build: (_c, json) =>
      fc.tuple(fc.nat(), fc.constantFrom('.', '%', ' ', '~', '!', '*', 'é', '\n')).map(([pick, c]) => ({
        uri: INLINE + spliceChar(encodeB64url(encoder.encode(json)), pick, c),
        description: `${JSON.stringify(c)} outside the base64url alphabet`,
      })),
  },
  {
    defect: 'nonzero-padding-bits',
    expected: INLINE_REQ,
    build: (_c, json) => {
      // A byte count that is not a multiple of 3 leaves unused bits in the last character; set one.
      const text = encoder.encode(json).length % 3 === 0 ? `${json} ` : json;
      const b64 = encodeB64url(encoder.encode(text));
      const last = B64URL.indexOf(b64.slice(-1));
      return fixed(INLINE + b64.slice(0, -1) + B64URL[last | 1], 'non-zero unused bits in the last character (not the one canonical encoding)');
    },
  },
  { defect: 'empty-payload', expected: INLINE_REQ, build: () => fixed(INLINE, 'an empty payload') },
  { defect: 'surrounding-space', expected: INLINE_REQ, build: (_c, json) => spaced(inlineOf(encoder.encode(json))) },
  {
    defect: 'not-utf8',
    expected: INLINE_REQ,
    build: (_c, json) =>
      notUtf8.map((bad) => {
        const bytes = encoder.encode(json);
        const at = bytes.length - 2; // inside the last member's value or just before the closing brace
        const out = Uint8Array.from([...bytes.subarray(0, at), ...bad.bytes, ...bytes.subarray(at)]);
        return { uri: inlineOf(out), description: `payload bytes are not UTF-8 (${bad.note})` };
      }),
  },
  {
    defect: 'oversize',
    expected: INLINE_REQ,
    build: (cpr) =>
      fc.integer({ min: 1, max: 600 }).map((extra) => {
        // A valid CPR made just over the limit with an extension member.
        const padded = (n: number) =>
          inlineOf(encoder.encode(JSON.stringify({ ...cpr, extensions: { ...(cpr.extensions ?? {}), 'com.example.padding': 'x'.repeat(n) } })));
        let n = Math.max(0, Math.ceil(((MAX_INLINE_URI_BYTES - padded(0).length) * 3) / 4)) + extra;
        let uri = padded(n);
        while (encoder.encode(uri).length <= MAX_INLINE_URI_BYTES) uri = padded((n += 64));
        return { uri, description: `a valid CPR whose inline URI is ${encoder.encode(uri).length} bytes (limit ${MAX_INLINE_URI_BYTES})` };
      }),
  },
  {
    defect: 'wrong-scheme',
    expected: INLINE_REQ,
    build: (_c, json) =>
      fc.constantFrom('cpr://inline/', 'std-cpr:inline/', 'std-cpr:/inline/', 'data:application/json;base64,', 'std-cpr://inline:', 'https://inline/').map((prefix) => ({
        uri: prefix + encodeB64url(encoder.encode(json)),
        description: `${JSON.stringify(prefix)} instead of std-cpr://inline/`,
      })),
  },
  {
    defect: 'bad-json',
    expected: JSON_REQ,
    build: (_c, json) =>
      fc
        .constantFrom<[(j: string) => string, string]>(
          [(j) => j.slice(0, Math.max(1, j.length - 7)), 'truncated JSON'],
          [(j) => `${j.slice(0, -1)},}`, 'a trailing comma'],
          [(j) => j.replaceAll('"', "'"), 'single quotes'],
          [(j) => `${j.slice(0, -1)},"com.example.n":NaN}`, 'NaN'],
          [(j) => `{"cpr_version":"CPR-1.0",${j.slice(1)}`, 'a duplicate member name (I-JSON)'],
          [(j) => `\ufeff${j}`, 'a byte order mark'],
          [(j) => `${j.slice(0, -1)},"com.example.s":"\\ud800"}`, 'a lone surrogate escape'],
          [(j) => `${j.slice(0, -1)},"com.example.deep":${'['.repeat(40)}${']'.repeat(40)}}`, 'nesting deeper than 32'],
        )
        .map(([f, what]) => ({ uri: inlineOf(encoder.encode(f(json))), description: `payload decodes to text that is not I-JSON: ${what}` })),
  },
];

const DEFAULT_INLINE_CPR: ValidCprConstraints = { maxExtensionKeys: 1 };

/** Inline URIs of valid CPRs; with `malformed: true`, one defect each, labelled with the expected rejection. */
export function inlineUri(constraints?: { readonly malformed?: false; readonly cpr?: ValidCprConstraints }): fc.Arbitrary<InlineDelivery>;
export function inlineUri(constraints: { readonly malformed: true; readonly cpr?: ValidCprConstraints }): fc.Arbitrary<MalformedDelivery>;
export function inlineUri(constraints?: InlineUriConstraints): fc.Arbitrary<InlineDelivery | MalformedDelivery>;
export function inlineUri(constraints: InlineUriConstraints = {}): fc.Arbitrary<InlineDelivery | MalformedDelivery> {
  const malformed = malformedFlag('inlineUri', constraints);
  const cprs = validCpr(constraints.cpr ?? DEFAULT_INLINE_CPR);
  if (malformed) {
    // Room for the bad-json edits, so that those URIs stay under the size limit and fail only as JSON.
    const roomy = cprs.filter((cpr) => (buildInlineUri(cpr)?.length ?? Infinity) <= MAX_INLINE_URI_BYTES - 256);
    return fc.tuple(fc.constantFrom(...INLINE_DEFECTS), roomy).chain(([d, cpr]) =>
      d.build(cpr, JSON.stringify(cpr)).map(
        ({ uri, description }): MalformedDelivery => ({ malformed: true, form: 'inline', uri, defect: `inline:${d.defect}`, description, expected: d.expected }),
      ),
    );
  }
  return cprs
    .map((cpr) => ({ cpr, uri: buildInlineUri(cpr) }))
    .filter((x): x is { cpr: Cpr; uri: string } => x.uri !== undefined)
    .map(({ cpr, uri }): InlineDelivery => ({ malformed: false, form: 'inline', uri, json: JSON.stringify(cpr), cpr }));
}

/** Every defect name the malformed arbitraries can produce. */
export const DELIVERY_DEFECTS: readonly string[] = [
  ...TOKEN_DEFECTS.map((d) => `qr:${d.defect}`),
  ...TOKEN_DEFECTS.map((d) => `deep-link:${d.defect}`),
  ...INLINE_DEFECTS.map((d) => `inline:${d.defect}`),
];
