// Resolving a token URI (spec §4.4, §4.1; PROFILE.md §8.1): `GET <endpoint>/cpr/<token>`
// over TLS only (spec §5.1.4), to an allowed host only (hosts.ts), with a time
// limit and a body cap, trusting the given CA (a real trust decision, never
// skipped verification), never following a redirect.
import { isIP } from 'node:net';
import { checkServerIdentity, createSecureContext, type SecureContext, type TLSSocket } from 'node:tls';
import { Agent, buildConnector, request } from '../../profile/undici.ts';
import { parseIJson } from '../../profile/index.ts';
import { hostAllowed, hostOf, type HostPattern } from './hosts.ts';
import { reject, type Rejection } from './rejection.ts';
import { NO_FAULTS, type Faults } from '../mutants.ts';

export interface RetrievalSettings {
  readonly ca?: string;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  /** Only these hosts are contacted (hosts.ts); any host when absent. */
  readonly allowedHosts?: readonly HostPattern[];
  /** The fault switched on, if any (reference/mutants.ts). */
  readonly faults?: Faults;
}

/** `at`: only under the app-expiry-judged-on-payee-date fault, the payee's Date header, which then judges expiry. */
type Retrieved = { readonly ok: true; readonly doc: unknown; readonly at?: number } | Rejection;

// Stryker disable next-line Regex: PROFILE.md §8.3 lets an application read or refuse a JSON body served under another media type (class retrieval.media-type); the body's JSON is what is judged
const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

// A TLS context trusting exactly the given CAs, made once per CA text: given as
// `ca`, the PEM was parsed again for every retrieval's connection (about
// 0.7 ms of CPU each, 100 ms over a full conformance run). Bounded: an
// application told of a new CA keeps at most the last few.
const contexts = new Map<string, SecureContext>();
const CONTEXTS_KEPT = 8;

function trusting(ca: string): SecureContext {
  let context = contexts.get(ca);
  // Stryker disable next-line ConditionalExpression: the contexts kept only save work: one made again trusts the same CA
  if (context === undefined) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: as above: one dropped sooner or later trusts the same CA when made again
    if (contexts.size >= CONTEXTS_KEPT) contexts.delete(contexts.keys().next().value!);
    context = createSecureContext({ ca });
    contexts.set(ca, context);
  }
  return context;
}

// Stryker disable all: only the app-tls-unverified fault and the app-tls-name-unchecked-for-address fault call this function
/** The verification the faults leave out: any certificate, or the names of one for an endpoint named by address. */
function unverified(faults: Faults | undefined, target: URL): { rejectUnauthorized?: false; checkServerIdentity?: () => undefined } {
  // Mutant app-tls-unverified: the server's certificate is not verified at all.
  if (faults?.has('app-tls-unverified')) return { rejectUnauthorized: false };
  // Mutant app-tls-name-unchecked-for-address: for an endpoint named by IP address, the certificate's names are not compared with it.
  if (faults?.has('app-tls-name-unchecked-for-address') && isIP(target.hostname.replace(/^\[|\]$/g, '')) !== 0) return { checkServerIdentity: () => undefined };
  return {};
}

/**
 * Mutant app-tls-validity-tolerated: a connector that lets through a certificate
 * whose only fault is its validity period (expired, or not yet valid), "for
 * devices whose clock is wrong": the chain and the names are still checked.
 */
function validityTolerated(options: Parameters<typeof buildConnector>[0]): ReturnType<typeof buildConnector> {
  const connect = buildConnector({ ...options, rejectUnauthorized: false });
  return (opts, callback) =>
    connect(opts, (error, socket) => {
      if (error !== null || socket === null) return callback(error ?? new Error('no socket'), null);
      const tls = socket as TLSSocket;
      const reason = tls.authorized ? undefined : String(tls.authorizationError);
      const clockOnly = reason === 'CERT_HAS_EXPIRED' || reason === 'CERT_NOT_YET_VALID';
      const problem = reason === undefined ? undefined : clockOnly ? checkServerIdentity(opts.hostname.replace(/^\[|\]$/g, ''), tls.getPeerCertificate()) : new Error(reason);
      if (problem === undefined) return callback(null, socket);
      socket.destroy();
      return callback(problem, null);
    });
}
// Stryker restore all

export async function retrieveCpr(url: string, settings: RetrievalSettings): Promise<Retrieved> {
  const target = new URL(url);
  // Mutant app-plaintext-endpoint-fetched: the endpoint's scheme is not looked at.
  // Stryker disable next-line ConditionalExpression: a second guard: reading the URI has refused an endpoint that is not https (URI_INVALID, PROFILE.md §8.3) before any retrieval
  if (target.protocol !== 'https:' && !settings.faults?.has('app-plaintext-endpoint-fetched')) return failed('the endpoint is not https, and a retrieval token is only ever sent over TLS');
  // Checked before any connection: a refused endpoint sees nothing, not even a TLS handshake.
  if (settings.allowedHosts !== undefined && !hostAllowed(target, settings.allowedHosts)) {
    const allowed = settings.allowedHosts.length === 0 ? 'none' : settings.allowedHosts.join(', ');
    return failed(`its endpoint ${hostOf(target)} is not a host this application may contact (allowed: ${allowed})`);
  }
  // One agent per retrieval: a token is single use, so there is no connection worth keeping.
  // Stryker disable next-line ConditionalExpression: no secure context is the system's CAs, as its absence is
  const connect = { ...(settings.ca !== undefined ? { secureContext: trusting(settings.ca) } : {}), timeout: settings.timeoutMs, ...unverified(settings.faults, target) };
  // Stryker disable next-line all: only the app-tls-validity-tolerated fault builds a connector of its own
  const connector = settings.faults?.has('app-tls-validity-tolerated') ? validityTolerated(connect) : connect;
  const agent = new Agent({ connect: connector });
  try {
    const response = await request(url, {
      // Stryker disable next-line StringLiteral: undici's default method is GET
      method: 'GET',
      dispatcher: agent,
      // Stryker disable next-line ObjectLiteral,StringLiteral: no rule asks a paying application for an Accept header (spec §4.4 fixes the payee's answer)
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(settings.timeoutMs),
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
    // Stryker disable next-line StringLiteral: without the declared length, readCapped refuses the same body by counting
    const declared = Number(response.headers['content-length']);
    // Mutant app-retrieval-limit-off-by-one: a declared length at the bound itself is refused.
    // Stryker disable next-line ConditionalExpression: as below, a declared length over the bound only spares reading the body
    const tooLong = settings.faults?.has('app-retrieval-limit-off-by-one') ? declared >= settings.maxBodyBytes : declared > settings.maxBodyBytes;
    // Stryker disable next-line ConditionalExpression: a declared length over the bound only spares reading the body; readCapped refuses the same body by counting
    const bytes = Number.isFinite(declared) && tooLong ? undefined : await readCapped(response.body, settings.maxBodyBytes);
    // Mutant app-retrieval-retried-on-server-error: a 5xx is taken for a passing fault and the token sent again.
    if (response.statusCode >= 500 && settings.faults?.has('app-retrieval-retried-on-server-error')) {
      return retrieveCpr(url, { ...settings, faults: NO_FAULTS });
    }
    // Mutant app-throttled-retrieval-retried: a 408 or 429 is taken for throttling and the token sent again.
    if ((response.statusCode === 408 || response.statusCode === 429) && settings.faults?.has('app-throttled-retrieval-retried')) {
      return retrieveCpr(url, { ...settings, faults: NO_FAULTS });
    }
    // Mutant app-redirect-followed: a redirect with a Location is followed, as an HTTP client does by default.
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string' && settings.faults?.has('app-redirect-followed')) {
      return retrieveCpr(new URL(location, url).href, { ...settings, faults: NO_FAULTS });
    }
    // Mutant app-token-expired-read-as-cpr-expired: a payee's 410 TOKEN_EXPIRED taken to say the request itself expired.
    // Stryker disable next-line all: only the app-token-expired-read-as-cpr-expired fault reads the refusal's code
    if (settings.faults?.has('app-token-expired-read-as-cpr-expired') && response.statusCode === 410 && problemCode(bytes) === ' (TOKEN_EXPIRED)') return reject('CPR_EXPIRED', 'This payment request has expired: the payee no longer serves it.');
    // Mutant app-non-error-status-body-read: only a status of 400 or more is a failed retrieval; the body of a redirect is read as the CPR.
    // Stryker disable next-line all: only the app-non-error-status-body-read fault reads a redirect's body
    const readsBelow400 = settings.faults?.has('app-non-error-status-body-read') === true && response.statusCode < 400;
    if (response.statusCode !== 200 && !readsBelow400) return failed(`the payee answered ${response.statusCode}${problemCode(bytes)}`);
    if (bytes === undefined) return failed(`the response is larger than ${settings.maxBodyBytes} bytes`);
    const type = response.headers['content-type'];
    // Stryker disable next-line ConditionalExpression: PROFILE.md §8.3 lets an application read or refuse a JSON body served under another media type (class retrieval.media-type); the body's JSON is what is judged
    if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type)) return failed('the response is not application/json');
    try {
      // Mutant app-retrieval-charset-honoured: the body decoded in the charset Content-Type names, which JSON does not define (RFC 8259 §11).
      // Stryker disable next-line all: only the app-retrieval-charset-honoured fault reads a charset
      if (settings.faults?.has('app-retrieval-charset-honoured')) return { ok: true, doc: parseIJson(inDeclaredCharset(bytes, type)) };
      // Mutant app-retrieved-body-cut-at-last-brace: the body cut after its last closing brace, as if what follows were padding.
      // Stryker disable next-line all: only the app-retrieved-body-cut-at-last-brace fault cuts the body
      const body = settings.faults?.has('app-retrieved-body-cut-at-last-brace') && bytes.lastIndexOf(0x7d) >= 0 ? bytes.subarray(0, bytes.lastIndexOf(0x7d) + 1) : bytes;
      // Mutant app-retrieval-decoded-leniently: the body through a default TextDecoder first, which drops a byte order mark and replaces bytes that are not UTF-8.
      // Mutant app-expiry-judged-on-payee-date: the payee's clock, its Date header, taken to judge the request's expiry.
      // Stryker disable next-line all: only the app-expiry-judged-on-payee-date fault reads the Date header
      const served = settings.faults?.has('app-expiry-judged-on-payee-date') ? Date.parse(String(response.headers.date)) : Number.NaN;
      return { ok: true, doc: parseIJson(settings.faults?.has('app-retrieval-decoded-leniently') ? new TextDecoder().decode(body) : body), ...(Number.isFinite(served) ? { at: served } : {}) };
    } catch (error) {
      // Mutant app-retrieved-non-json-invalid: a body that is no JSON answered as an invalid CPR, not as a retrieval that failed.
      if (settings.faults?.has('app-retrieved-non-json-invalid')) return reject('CPR_INVALID', 'This payment request is not valid JSON.', { violations: [{ requirement: 'PRF-JSON-1', path: '', message: 'is not I-JSON' }] });
      return failed(`the response is not I-JSON (${(error as Error).message})`);
    }
  } catch (error) {
    return failed(describe(error));
    // Stryker disable next-line BlockStatement: an agent left open holds an idle socket until the payee closes it; no answer changes
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

// Stryker disable all: only the app-retrieval-charset-honoured fault calls this function
function inDeclaredCharset(bytes: Uint8Array, type: string): Uint8Array | string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(type)?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset) ? bytes : new TextDecoder(charset, { fatal: true, ignoreBOM: true }).decode(bytes);
}
// Stryker restore all

function failed(reason: string): Rejection {
  return reject('RETRIEVAL_FAILED', `The payment request could not be retrieved: ${reason}.`);
}

async function readCapped(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, limit: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** ` (TOKEN_CONSUMED)` when the error body is a problem document with a code. */
// Stryker disable all: free text for a reader (the payee's problem code quoted in a RETRIEVAL_FAILED message, PROFILE.md §8.3)
function problemCode(bytes: Uint8Array | undefined): string {
  if (!bytes) return '';
  try {
    const body = parseIJson(bytes) as { code?: unknown };
    return typeof body?.code === 'string' ? ` (${body.code})` : '';
  } catch {
    return '';
  }
}
// Stryker restore all

// Stryker disable all: free text for a reader (why a connection failed, in a RETRIEVAL_FAILED message, PROFILE.md §8.3)
function describe(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'the payee did not answer in time';
  return [e?.code, e?.message].filter(Boolean).join(': ') || 'the connection failed';
}
// Stryker restore all
