// The http adapter: an HTTP role reached over the network (harness/ADAPTERS.md).
// One undici Agent per role (a keep-alive pool), a deadline on every request, a
// hard cap on response bodies, and redirects returned as they are: a conformance
// harness reports what the implementation said, it never follows it elsewhere.
import { Readable } from 'node:stream';
import { createSecureContext } from 'node:tls';
import { Agent, buildConnector, type Dispatcher } from '../../profile/undici.ts';
import { TransportError, type HttpRole, type WireRequest, type WireResponse } from './types.ts';

interface HttpRoleOptions {
  /** Absolute http(s) URL of the role, without query or fragment. */
  readonly baseUrl: string;
  /** The same role over plaintext HTTP (spec §5.1.4 tests), if it listens there. */
  readonly plaintextBaseUrl?: string;
  /** PEM of the CA(s) to trust; the system trust store when absent. */
  readonly ca?: string;
  /** Skip certificate verification: an explicit opt-in the report records. */
  readonly insecure?: boolean;
  /** Deadline of a whole request (connect, headers, body); default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Largest response body kept; the rest is not read. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Connections per origin in the keep-alive pool; default 16. */
  readonly connections?: number;
  /** Headers sent with every request (a request's own headers win). */
  readonly headers?: Readonly<Record<string, string>>;
}

export const HTTP_DEFAULTS = { timeoutMs: 10_000, maxBodyBytes: 1024 * 1024, connections: 16 } as const;

export function createHttpRole(options: HttpRoleOptions): HttpRole {
  const base = parseBase('baseUrl', options.baseUrl);
  const plain = options.plaintextBaseUrl === undefined ? undefined : parseBase('plaintextBaseUrl', options.plaintextBaseUrl);
  if (plain && plain.protocol !== 'http:') throw new TypeError('plaintextBaseUrl must be an http:// URL');
  if (options.insecure && options.ca !== undefined) throw new TypeError('ca and insecure exclude each other: trust a CA or opt out of verification');
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs);
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes);
  const connections = positive('connections', options.connections ?? HTTP_DEFAULTS.connections);
  const defaults = lowerCaseKeys(options.headers ?? {});
  const insecure = options.insecure === true;

  // Created once: every request of the run shares the pool. The TLS server name
  // (SNI, and the name the certificate is checked against) is always the base
  // URL's host: undici would take it from a Host header the request sets, and a
  // test sends a Host naming another authority to see what the target does with it.
  // The CA is parsed once, into one secure context (given as `ca`, it was parsed again for every connection).
  const connector = buildConnector({ rejectUnauthorized: !insecure, ...(options.ca !== undefined ? { secureContext: createSecureContext({ ca: options.ca }) } : {}), timeout: timeoutMs });
  const agent = new Agent({
    connections,
    keepAliveTimeout: 4_000,
    connect: (target, callback) => connector({ ...target, servername: undefined }, callback),
  });

  let closing: Promise<void> | undefined;
  const baseUrl = trimSlash(base.href);
  const plaintextBaseUrl = plain ? trimSlash(plain.href) : undefined;
  // Without a declared plaintext listener, a plaintext probe goes to the TLS port
  // itself: a real observation that no CPR is served without TLS (spec §5.1.4).
  const plaintextProbe = plaintextBaseUrl ?? (base.protocol === 'https:' ? trimSlash(`http://${base.host}${base.pathname}`) : undefined);
  // Parsed once: a request only joins its path to one of these.
  const tlsEndpoint = endpointOf(baseUrl);
  const plaintextEndpoint = plaintextProbe === undefined ? undefined : endpointOf(plaintextProbe);

  return {
    kind: 'http',
    description: baseUrl,
    authority: base.host,
    baseUrl,
    ...(plaintextBaseUrl !== undefined ? { plaintextBaseUrl } : {}),
    tls: base.protocol === 'http:' ? 'none' : insecure ? 'insecure' : 'verified',
    async send(request: WireRequest): Promise<WireResponse> {
      const endpoint = request.transport === 'plaintext' ? plaintextEndpoint : tlsEndpoint;
      if (endpoint === undefined) throw new TransportError('UNAVAILABLE', `${baseUrl} is not served over TLS, so there is no plaintext probe to make`);
      if (!request.path.startsWith('/')) throw new TypeError(`a request path starts with "/": ${JSON.stringify(request.path)}`);
      const deadline = request.timeoutMs ?? timeoutMs;
      try {
        return await exchange(
          agent,
          {
            origin: endpoint.origin,
            path: endpoint.prefix + request.path,
            method: request.method as Dispatcher.HttpMethod,
            headers: request.headers === undefined ? defaults : lowerCaseKeys(request.headers, defaults),
            ...(request.body !== undefined ? { body: request.chunked ? inPieces(request.body) : typeof request.body === 'string' ? request.body : Buffer.from(request.body) } : {}),
            headersTimeout: deadline,
            bodyTimeout: deadline,
          },
          deadline,
          maxBodyBytes,
        );
      } catch (error) {
        throw toTransportError(error, `${request.method} ${endpoint.url}${request.path}`, deadline);
      }
    },
    close() {
      closing ??= (async () => {
        // Graceful first; a request still hanging is cut after a short grace.
        const closed = agent.close().then(() => true);
        const graceful = await Promise.race([closed, delay(1000).then(() => false)]);
        if (!graceful) await agent.destroy();
      })();
      return closing;
    },
  };
}

interface Endpoint {
  /** The base URL as given, without a trailing slash. */
  readonly url: string;
  readonly origin: string;
  /** The base URL's path, joined before every request path ('' for '/'). */
  readonly prefix: string;
}

function endpointOf(url: string): Endpoint {
  const parsed = new URL(url);
  return { url, origin: parsed.origin, prefix: parsed.pathname === '/' ? '' : parsed.pathname };
}

/** A body as a stream of pieces of at most 16 KiB: undici sends a stream chunked, without Content-Length. */
function inPieces(body: Uint8Array | string): Readable {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 16_384) pieces.push(bytes.subarray(at, at + 16_384));
  return Readable.from(pieces, { objectMode: false });
}

/** Internal signal, caught in adapters/http.ts: it becomes a TransportError TIMEOUT. */
class DeadlineError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * One request through undici's dispatch interface: the answer is collected as it
 * arrives, at most `limit` body bytes (past that the request is aborted, so the
 * rest is never read), and one plain timer bounds the whole exchange (queueing,
 * connect, headers, body). Cheaper than request() with an AbortSignal, whose
 * listeners cost about as much as the rest of a loopback request's client side.
 */
function exchange(agent: Agent, options: Dispatcher.DispatchOptions, deadline: number, limit: number): Promise<WireResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Uint8Array[] = [];
    let size = 0;
    const settle = (outcome: () => void): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      outcome();
      return true;
    };
    const answer = (truncated: boolean) => settle(() => resolve({ status, headers, body: concat(chunks, size), truncated, durationMs: performance.now() - started }));
    const timer = setTimeout(() => {
      const error = new DeadlineError(`no complete response within ${deadline} ms`);
      settle(() => reject(error));
      controller?.abort(error);
    }, deadline);
    try {
      agent.dispatch(options, {
        onRequestStart(c) {
          controller = c;
          // The deadline passed while the request waited for a connection.
          if (settled) c.abort(new DeadlineError('the request was no longer awaited'));
        },
        onResponseStart(_c, statusCode, responseHeaders) {
          status = statusCode;
          headers = flattenHeaders(responseHeaders);
        },
        onResponseData(c, chunk) {
          if (settled) return;
          if (size + chunk.length > limit) {
            chunks.push(chunk.subarray(0, limit - size));
            size = limit;
            answer(true);
            c.abort(new Error('response body cap reached'));
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        },
        onResponseEnd() {
          // undici frees the connection on an immediate it queues after this
          // callback returns; answering after that immediate lets the next
          // sequential request reuse the connection instead of opening another.
          queueMicrotask(() => setImmediate(answer, false));
        },
        onResponseError(_c, error) {
          settle(() => reject(error));
        },
      });
    } catch (error) {
      settle(() => reject(error));
    }
  });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = ownBytes(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// A body is copied out of the socket's buffers (undici hands out views of them).
// Small bodies, nearly every answer, share slabs: one allocation per slab
// rather than an ArrayBuffer of its own per answer, each of which costs more
// to make and to collect than the copy.
const SLAB_BYTES = 64 * 1024;
const SLAB_LARGEST = 4 * 1024;
let slab = new ArrayBuffer(0);
let slabAt = 0;

function ownBytes(size: number): Uint8Array {
  if (size > SLAB_LARGEST) return new Uint8Array(size);
  if (slabAt + size > slab.byteLength) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabAt = 0;
  }
  const bytes = new Uint8Array(slab, slabAt, size);
  slabAt += (size + 7) & ~7;
  return bytes;
}

// Error codes of undici and of the system, by what they mean for a request.
const TRANSPORT_CODES: Readonly<Record<string, TransportError['code']>> = {
  ECONNREFUSED: 'REFUSED',
  ENOTFOUND: 'REFUSED',
  EAI_AGAIN: 'REFUSED',
  EHOSTUNREACH: 'REFUSED',
  ENETUNREACH: 'REFUSED',
  EADDRNOTAVAIL: 'REFUSED',
  ECONNRESET: 'RESET',
  EPIPE: 'RESET',
  ECONNABORTED: 'RESET',
  UND_ERR_SOCKET: 'RESET',
  ETIMEDOUT: 'TIMEOUT',
  UND_ERR_CONNECT_TIMEOUT: 'TIMEOUT',
  UND_ERR_HEADERS_TIMEOUT: 'TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'TIMEOUT',
  UND_ERR_ABORTED: 'TIMEOUT',
  UND_ERR_CLOSED: 'CLOSED',
  UND_ERR_DESTROYED: 'CLOSED',
  UND_ERR_INFO: 'PROTOCOL',
  UND_ERR_HEADERS_OVERFLOW: 'PROTOCOL',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'PROTOCOL',
  EPROTO: 'TLS',
  HOSTNAME_MISMATCH: 'TLS',
};
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|ERR_OSSL_)/;
const PARSER_CODE = /^HPE_/;

/** Maps whatever undici or the system threw to a TransportError; harness mistakes (bad arguments) pass through. */
function toTransportError(error: unknown, shown: string, deadline: number): unknown {
  if (error instanceof TransportError) return error;
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown; errors?: unknown[] };
  if (error instanceof DeadlineError || err?.name === 'TimeoutError' || err?.name === 'AbortError') {
    return new TransportError('TIMEOUT', `${shown}: no complete response within ${deadline} ms`);
  }
  const code = codeOf(error);
  const mapped = code === undefined ? undefined : (TRANSPORT_CODES[code] ?? (TLS_CODE.test(code) ? 'TLS' : PARSER_CODE.test(code) ? 'PROTOCOL' : undefined));
  if (mapped === undefined) {
    if (code === 'UND_ERR_INVALID_ARG' || error instanceof TypeError) return error;
    return new TransportError('PROTOCOL', `${shown}: ${err?.message ?? String(error)}${code ? ` (${code})` : ''}`);
  }
  const reason = mapped === 'TIMEOUT' ? `no complete response within ${deadline} ms` : (err?.message ?? String(error));
  return new TransportError(mapped, `${shown}: ${reason} (${code})`);
}

/** The first error code found on the error, its cause, or (AggregateError) its parts. */
function codeOf(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const err = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof err.code === 'string' && err.code !== 'UND_ERR') return err.code;
  if (Array.isArray(err.errors)) {
    for (const part of err.errors) {
      const found = codeOf(part, depth + 1);
      if (found) return found;
    }
  }
  return codeOf(err.cause, depth + 1);
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** `headers` with lower-case names, over `base` (whose names are lower-case already). */
function lowerCaseKeys(headers: Readonly<Record<string, string>>, base: Readonly<Record<string, string>> = {}): Record<string, string> {
  const out: Record<string, string> = { ...base };
  for (const name in headers) out[name.toLowerCase()] = headers[name]!;
  return out;
}

function parseBase(name: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`${name} is not an absolute URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${name} must be http:// or https://`);
  if (url.search !== '' || url.hash !== '') throw new TypeError(`${name} has no query or fragment`);
  if (url.username !== '' || url.password !== '') throw new TypeError(`${name} carries no credentials`);
  return url;
}

function trimSlash(href: string): string {
  return href.endsWith('/') ? href.slice(0, -1) : href;
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
