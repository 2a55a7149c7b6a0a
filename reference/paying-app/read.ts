// Reading a CPR from any delivery (spec §4.4; PROFILE.md §8): direct JSON, a file,
// a QR / deep-link / inline URI, or an in-memory value. Each kind loads a JSON
// document; all then pass the same acceptance (accept.ts).
import { open } from 'node:fs/promises';
import { parseIJson } from '../../profile/index.ts';
import { MAX_INLINE_URI_BYTES, parseDeliveryUri, retrievalUrl } from '../../profile/cpr/index.ts';
import type { Faults } from '../mutants.ts';
import { accept } from './accept.ts';
import { reject, type Accepted, type Rejection } from './rejection.ts';
import { retrieveCpr, type RetrievalSettings } from './retrieve.ts';

export type ReadInput =
  | { readonly kind: 'json'; readonly text: string }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'uri'; readonly uri: string }
  | { readonly kind: 'object'; readonly value: unknown };

interface ReadSettings extends RetrievalSettings {
  now(): number;
  /** The fault switched on, if any (reference/mutants.ts). */
  readonly faults: Faults;
}

/** `at`: only under the app-expiry-judged-on-payee-date fault, the instant expiry is judged at instead of the application's clock. */
type Loaded = { readonly ok: true; readonly doc: unknown; readonly at?: number } | Rejection;
type Loader<K extends ReadInput['kind']> = (input: Extract<ReadInput, { kind: K }>, settings: ReadSettings) => Loaded | Promise<Loaded>;

/** Direct JSON as given; under the app-direct-json-read-as-utf8-bytes fault, encoded to UTF-8 first (a lone surrogate becomes U+FFFD) and read as a file's bytes. */
// Stryker disable next-line all: only the app-direct-json-read-as-utf8-bytes fault encodes the text
const directText = <T>(text: T, faults: ReadSettings['faults']): T | Uint8Array => (faults.has('app-direct-json-read-as-utf8-bytes') && typeof text === 'string' ? new Uint8Array(Buffer.from(text, 'utf8')) : text);

const LOADERS: { readonly [K in ReadInput['kind']]: Loader<K> } = {
  json: (input, settings) => parseJson(directText(input.text, settings.faults), settings.faults),
  file: (input, settings) => loadFile(input.path, settings),
  // Mutant app-uri-white-space-trimmed: a delivery URI read with the white space around it trimmed, as a scanner's text is.
  // Stryker disable next-line all: only the app-uri-white-space-trimmed fault trims the URI
  // Mutant app-token-uri-remembered: the document a URI gave kept by the URI, so a token URI read again is answered from memory without a retrieval.
  // Stryker disable next-line all: only the app-token-uri-remembered fault remembers them
  uri: (input, settings) => (settings.faults.has('app-token-uri-remembered') ? remembered : loadUri)(settings.faults.has('app-uri-white-space-trimmed') && typeof input.uri === 'string' ? input.uri.trim() : input.uri, settings),
  // Round-trip through JSON so an in-memory value meets the same I-JSON rules as bytes
  // (no cycles, no undefined or BigInt, no lone surrogates, bounded depth).
  object: (input, settings) => {
    try {
      // Mutant app-object-input-not-ijson-checked: the value deep-copied as it is, never read as I-JSON.
      // Stryker disable next-line all: only the app-object-input-not-ijson-checked fault copies it so
      if (settings.faults.has('app-object-input-not-ijson-checked')) return { ok: true, doc: structuredClone(input.value) };
      const text = JSON.stringify(input.value);
      // Stryker disable next-line ConditionalExpression: parsing nothing throws, and the catch below gives the same rejection
      return text === undefined ? notJson('the value is not JSON', settings.faults) : parseJson(text, settings.faults);
    } catch (error) {
      return notJson((error as Error).message, settings.faults);
    }
  },
};

// Stryker disable all: only the app-token-uri-remembered fault calls this function
const REMEMBERED = new WeakMap<ReadSettings, Map<string, Loaded>>();
async function remembered(uri: string, settings: ReadSettings): Promise<Loaded> {
  let seen = REMEMBERED.get(settings);
  if (!seen) REMEMBERED.set(settings, (seen = new Map()));
  const known = seen.get(uri);
  if (known) return known;
  const loaded = await loadUri(uri, settings);
  if (loaded.ok) seen.set(uri, loaded);
  return loaded;
}
// Stryker restore all

export async function readCpr(input: ReadInput, settings: ReadSettings): Promise<Accepted | Rejection> {
  try {
    const loader = LOADERS[input?.kind] as Loader<ReadInput['kind']> | undefined;
    if (!loader) return reject('CPR_INVALID', 'This input is not a payment request: expected json, file, uri or object.');
    // Mutant app-direct-json-bounded: the bound of a retrieved body applied to direct JSON text too, refused RETRIEVAL_FAILED past it.
    // Stryker disable next-line all: only the app-direct-json-bounded fault bounds direct text
    if (settings.faults.has('app-direct-json-bounded') && input.kind === 'json' && Buffer.byteLength(String(input.text)) > settings.maxBodyBytes) return reject('RETRIEVAL_FAILED', `This payment request is larger than ${settings.maxBodyBytes} bytes.`);
    const loaded = await loader(input, settings);
    // Stryker disable next-line all: only the app-expiry-judged-on-payee-date fault gives a loaded document an instant of its own
    return loaded.ok ? accept(loaded.doc, loaded.at ?? settings.now(), settings.faults) : loaded;
  } catch (error) {
    // Never throw on bad input (PROFILE.md §8.3): anything unforeseen is still a rejection.
    return reject('CPR_INVALID', `This payment request could not be read: ${(error as Error)?.message ?? String(error)}.`);
  }
}

function parseJson(text: string | Uint8Array, faults: Faults): Loaded {
  try {
    // Mutant app-duplicate-members-accepted: plain JSON.parse, where the last of two equal names wins.
    if (faults.has('app-duplicate-members-accepted')) return { ok: true, doc: JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text)) };
    // Mutant app-duplicate-check-raw-names: member names compared as written, so a name spelled with \u escapes is another name.
    if (faults.has('app-duplicate-check-raw-names')) {
      const decoded = typeof text === 'string' ? text : new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(text);
      parseIJson(decoded.replaceAll('\\u', '_u'));
      return { ok: true, doc: JSON.parse(decoded) };
    }
    // Mutant app-escaped-surrogate-pair-refused: "I-JSON admits no surrogates" read as no \uD800-\uDFFF escape at all, so a character beyond the BMP written as its escaped pair is refused.
    // Stryker disable next-line all: only the app-escaped-surrogate-pair-refused fault looks for such escapes
    if (faults.has('app-escaped-surrogate-pair-refused') && /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/.test(typeof text === 'string' ? text : new TextDecoder().decode(text))) throw new Error('a string holds a surrogate code point (RFC 7493 §2.1)');
    return { ok: true, doc: parseIJson(text) };
  } catch (error) {
    return notJson((error as Error).message, faults);
  }
}

function notJson(detail: string, faults: Faults | undefined): Rejection {
  return reject('CPR_INVALID', `This payment request is not valid JSON: ${detail}.`, {
    // Mutant app-root-pointer-written-slash: the document named "/", the pointer of a member named by the empty string.
    violations: [{ requirement: 'PRF-JSON-1', path: faults?.has('app-root-pointer-written-slash') ? '/' : '', message: `is not I-JSON: ${detail}` }],
  });
}

async function loadFile(path: string, settings: ReadSettings): Promise<Loaded> {
  const limit = settings.maxBodyBytes;
  let handle;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    const tooLarge = settings.faults.has('app-file-limit-off-by-one') ? size >= limit : size > limit; // mutant: the limit itself refused
    if (tooLarge) return reject('RETRIEVAL_FAILED', `The payment request file is larger than ${limit} bytes.`);
    const bytes = new Uint8Array(await handle.readFile());
    // Mutant app-file-bom-stripped: a byte order mark at the start of a file is dropped, as many file readers do.
    const bom = settings.faults.has('app-file-bom-stripped') && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const kept = bom ? bytes.subarray(3) : bytes;
    // Mutant app-file-decoded-leniently: the file decoded with a default TextDecoder before it is parsed, so bytes that are not UTF-8 become U+FFFD and the file is read.
    // Stryker disable next-line all: only the app-file-decoded-leniently fault decodes it so
    return parseJson(settings.faults.has('app-file-decoded-leniently') ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(kept) : kept, settings.faults);
  } catch (error) {
    // Mutant app-unopenable-file-cpr-invalid: a file that cannot be opened reaches the reader's catch-all, which answers CPR_INVALID.
    // Stryker disable next-line all: only the app-unopenable-file-cpr-invalid fault answers so
    if (settings.faults.has('app-unopenable-file-cpr-invalid') && handle === undefined) return reject('CPR_INVALID', `The payment request could not be read: ${(error as Error).message}.`);
    return reject('RETRIEVAL_FAILED', `The payment request file could not be read: ${(error as Error).message}.`);
    // Stryker disable next-line BlockStatement: a file left open until the process ends changes no answer
  } finally {
    await handle?.close();
  }
}

// Stryker disable all: only the app-endpoint-first-parameter fault calls it (reference/mutants.ts)
/** Mutant app-endpoint-first-parameter: an inline URI, or a token URI whose query starts with endpoint. */
function endpointFirst(uri: string): boolean {
  return uri.startsWith('std-cpr://inline/') || /^std-cpr:\/\/[^/?#]+\?endpoint=/.test(uri);
}
// Stryker restore all

// Stryker disable all: only the app-endpoint-query-kept fault calls it (reference/mutants.ts)
/**
 * Mutant app-endpoint-query-kept: a token URI whose endpoint carries a query or
 * a fragment, read with the URL parser: /cpr/<token> goes onto its path, its
 * query stays, its fragment is dropped.
 */
function queryKept(uri: string): string | undefined {
  const m = /^std-cpr:\/\/([0-9a-f]{32,128})\?(?:[^#]*&)?endpoint=([^&#]*)/.exec(uri);
  if (!m) return undefined;
  try {
    const url = new URL(decodeURIComponent(m[2]!));
    if (url.protocol !== 'https:' || (url.search === '' && url.hash === '')) return undefined;
    url.pathname = `${url.pathname.replace(/\/$/, '')}/cpr/${m[1]}`;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}
// Stryker restore all

async function loadUri(uri: string, settings: ReadSettings): Promise<Loaded> {
  // Mutant app-plaintext-endpoint-fetched: an http:// endpoint is taken as it is, and the token sent there in the clear.
  const plaintext = settings.faults.has('app-plaintext-endpoint-fetched') && /[?&]endpoint=http(:|%3A)/i.test(uri);
  // Stryker disable next-line all: only the app-plaintext-endpoint-fetched fault opens this branch
  if (plaintext) {
    const parsed = parseDeliveryUri(uri.replace(/([?&]endpoint=)http(:|%3A)/i, '$1https$2'));
    if (parsed.kind === 'token') return retrieveCpr(retrievalUrl(parsed.endpoint.replace(/^https:/i, 'http:'), parsed.token), settings);
  }
  // Mutant app-endpoint-first-parameter: a token URI's shape checked as std-cpr://<token>?endpoint=..., endpoint first.
  if (settings.faults.has('app-endpoint-first-parameter') && !endpointFirst(uri)) {
    return reject('URI_INVALID', 'This is not a payment request link: expected std-cpr://<token>?endpoint=<url>.');
  }
  // Mutant app-token-uri-path-passed-over: a path between the token and the query (std-cpr://<token>/x?endpoint=...) passed over, as a hierarchical URI reader would.
  // Stryker disable next-line all: only the app-token-uri-path-passed-over fault drops it
  const pathless = settings.faults.has('app-token-uri-path-passed-over') && !uri.startsWith('std-cpr://inline/') ? uri.replace(/^(std-cpr:\/\/[^/?#]+)\/[^?#]*(?=\?)/, '$1') : uri;
  // Mutant app-endpoint-parameter-name-case-folded: query parameter names read in lower case (Endpoint=, ENDPOINT= taken for endpoint=).
  // Stryker disable next-line all: only the app-endpoint-parameter-name-case-folded fault folds them
  const named = settings.faults.has('app-endpoint-parameter-name-case-folded') && !uri.startsWith('std-cpr://inline/') ? pathless.replace(/([?&])([^=&#]*)=/g, (_m, sep: string, name: string) => `${sep}${name.toLowerCase()}=`) : pathless;
  // Mutant app-endpoint-escapes-upper-hex-only: only escapes written as encodeURIComponent writes them (%3A, not %3a) decoded.
  // Stryker disable next-line all: only the app-endpoint-escapes-upper-hex-only fault keeps the others as text
  const escaped = settings.faults.has('app-endpoint-escapes-upper-hex-only') && !uri.startsWith('std-cpr://inline/') ? named.replace(/%([0-9a-fA-F]{2})/g, (escape, hex: string) => (/[a-f]/.test(hex) ? `%25${hex}` : escape)) : named;
  // Mutant app-inline-padding-accepted: a lenient decoder that drops = padding.
  const parsed = parseDeliveryUri(settings.faults.has('app-inline-padding-accepted') && uri.startsWith('std-cpr://inline/') ? uri.replace(/=+$/, '') : escaped);
  // Mutant app-inline-needs-padding: a standard base64 decoder that wants whole 4-character groups.
  if (settings.faults.has('app-inline-needs-padding') && parsed.kind === 'inline' && (uri.length - 'std-cpr://inline/'.length) % 4 !== 0) {
    return reject('URI_INVALID', 'This is not a payment request link: the inline payload is not whole base64 groups.');
  }
  switch (parsed.kind) {
    case 'error': {
      // Stryker disable next-line all: only the app-endpoint-query-kept fault retrieves such a URI
      const kept = settings.faults.has('app-endpoint-query-kept') ? queryKept(escaped) : undefined;
      if (kept !== undefined) return retrieveCpr(kept, settings);
      return reject('URI_INVALID', `This is not a payment request link: ${parsed.reason}.`);
    }
    case 'inline':
      return parseJson(parsed.json, settings.faults);
    case 'token':
      // Mutant app-token-length-fixed-32: a token taken for 128 bits, 32 hex digits, where PROFILE.md §10 allows 32 to 128.
      // Stryker disable next-line all: only the app-token-length-fixed-32 fault refuses the longer ones
      if (settings.faults.has('app-token-length-fixed-32') && parsed.token.length !== 32) return reject('URI_INVALID', 'This is not a payment request link: its token is not 32 hex digits.');
      // Mutant app-token-uri-bounded-as-inline: the inline form's 2 048-byte bound applied to a token URI too, as to anything a QR code holds.
      // Stryker disable next-line all: only the app-token-uri-bounded-as-inline fault refuses a long token URI
      if (settings.faults.has('app-token-uri-bounded-as-inline') && Buffer.byteLength(uri) > MAX_INLINE_URI_BYTES) return reject('URI_INVALID', `This is not a payment request link: a delivery URI is at most ${MAX_INLINE_URI_BYTES} bytes.`);
      // Mutant app-endpoint-ipv6-refused: the endpoint's authority checked as a host name or IPv4 address with an optional port, so an IPv6 literal names no host.
      // Stryker disable next-line all: only the app-endpoint-ipv6-refused fault refuses an endpoint here
      if (settings.faults.has('app-endpoint-ipv6-refused') && !/^https:\/\/[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:\/|$)/i.test(parsed.endpoint)) return reject('URI_INVALID', 'This is not a payment request link: its endpoint does not name a host.');
      // Mutant app-endpoint-scheme-case-sensitive: "only over TLS" checked as a prefix of the text, so HTTPS:// is refused.
      // Stryker disable next-line all: only the app-endpoint-scheme-case-sensitive fault refuses an endpoint here
      if (settings.faults.has('app-endpoint-scheme-case-sensitive') && !parsed.endpoint.startsWith('https://')) return reject('URI_INVALID', 'This is not a payment request link: its endpoint is not an https URL.');
      // Mutant app-endpoint-decoded-twice: the endpoint's percent-escapes resolved once more (decodeURI), so %28 becomes ( and %25 a bare %.
      return retrieveCpr(retrievalUrl(settings.faults.has('app-endpoint-decoded-twice') ? decodeURI(parsed.endpoint) : parsed.endpoint, parsed.token), settings);
  }
}
