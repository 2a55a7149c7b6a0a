// The harness's own retrieval server: a stand-in payee that a paying
// application under test retrieves token URIs from (spec §4.1, §4.4; PROFILE.md
// §8.1, §8.3), answering odd things on purpose and recording what it was
// asked. It listens on loopback over TLS, with a certificate from a CA of its
// own that the application is told to trust (a real trust decision, never
// skipped verification), and over plaintext, where no token must ever arrive.
// Four more TLS listeners are impostors whose certificate an application that
// verifies the server refuses: one from that same CA naming another host only,
// one from a CA the application is never told to trust, two from that same CA
// for the stub's host but out of date (expired, not yet valid); a token that
// arrives there was sent to a server whose identity was not checked.
//
// Every listener has a twin on the IPv6 loopback ::1 (its own port) when the
// machine has one, so that an endpoint may name the stub by an IPv6 literal in
// any of its spellings ([::1], [0:0:0:0:0:0:0:1]...: PROFILE.md §8.1 allows a
// base URL's host to be one); `ipv6` says whether it does.
//
// Each retrieval is an exhibit: a fresh token under a base path, and the answer
// to `GET <base path>/cpr/<token>`: any status, headers and body, the body in
// one piece or chunked (no Content-Length), slowly (pauses between chunks,
// bounded), cut off halfway, or a redirect carrying the same body (to a second
// path that would serve it, on this host, the other name or the plaintext
// listener; to itself; or with no Location), recording whoever follows it. Every request that names an
// exhibit's token, in its path or a header, is recorded with where it went.
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { normalizeUri } from '../../profile/cpr/index.ts';
import { createCertificateAuthority, createTlsMaterial } from '../../reference/tls.ts';
import { hasIpv6Loopback, isIpv6, type StubHost } from './hosts.ts';
import { REDIRECT_TARGETS, type RedirectTarget } from '../../generators/classes/retrieval-answer.ts';

/** What one retrieval URL answers. */
export interface Exhibit {
  /** Default 200. */
  readonly status?: number;
  /** Response headers (lower-case names); Content-Length is the stub's to set. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Sent as chunks without Content-Length (chunked transfer coding). */
  readonly chunked?: boolean;
  /** A pause before each chunk, in ms (at most MAX_CHUNK_DELAY_MS): a slow body. */
  readonly chunkDelayMs?: number;
  /** The connection is cut halfway through the body. */
  readonly truncate?: boolean;
  /** A 3xx status: the answer is a redirect to a second path on the stub, which would serve `body` with status 200. */
  readonly redirect?: number;
  /** Where the redirect points (default same-host): see RedirectTarget (generators/classes/retrieval-answer.ts). */
  readonly redirectTo?: RedirectTarget;
  /** What the token answers from its second retrieval on, as a payee answers a single-use token once spent (PROFILE.md §10); by default the same again. */
  readonly spent?: Exhibit;
}

export { REDIRECT_TARGETS, type RedirectTarget };

/**
 * A certificate a paying application must refuse (RFC 9110 §4.3.4: an https
 * client verifies the server's identity): from the CA it trusts but naming
 * another host only (`other-name`), naming the stub's host but from a CA it
 * was never told to trust (`untrusted-ca`), or from the CA it trusts, naming
 * the stub's host, but out of date by the machine's clock: expired a second
 * before the stub started, so that no tolerance of a wrong clock lets it
 * through (`expired`), or valid only from tomorrow (`not-yet-valid`; RFC 5280 §6.1.3
 * checks the validity period on every path).
 */
export const IMPOSTORS = ['other-name', 'untrusted-ca', 'expired', 'not-yet-valid'] as const;
export type Impostor = (typeof IMPOSTORS)[number];

/** Where an exhibit is served. */
interface Placement {
  /** The base URL's path, as written in a URL (percent-encodings allowed), '' or starting with '/'. */
  readonly basePath: string;
  /** How the endpoint names the stub's host: a name, an IPv4 address, or an IPv6 literal of ::1 in brackets (only when `ipv6`). */
  readonly host?: StubHost;
  /** The endpoint is the plaintext listener (http://): a conformant application never sends the token there. */
  readonly plaintext?: boolean;
  /** The endpoint is an impostor's TLS listener: a conformant application refuses its certificate and sends no token. */
  readonly impostor?: Impostor;
  /** The token's length in hex digits, 32 to 128 (PROFILE.md §10); 32 by default. */
  readonly tokenDigits?: number;
}

export { isIpv6, STUB_HOSTS, type StubHost } from './hosts.ts';

export interface Served {
  readonly id: string;
  readonly token: string;
  /** The endpoint: the base URL of the stand-in payee. */
  readonly endpoint: string;
  /** `std-cpr://<token>?endpoint=<endpoint>` (PROFILE.md §8.1). */
  readonly uri: string;
  /** Where the token should be retrieved: `<endpoint>/cpr/<token>`. */
  readonly url: string;
}

/** A request the stub saw that named an exhibit's token. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  /** False on the plaintext listener: the token travelled in the clear. */
  readonly secure: boolean;
  /** The retrieval URL itself, the redirect's target, or anywhere else (a wrong path, the token in a header). */
  readonly where: 'retrieval' | 'redirect-target' | 'elsewhere';
}

const MAX_CHUNK_DELAY_MS = 250;
const CHUNKS = 4;

interface Entry {
  readonly exhibit: Exhibit;
  readonly served: Served;
  readonly retrievalPath: string;
  readonly redirectPath: string;
  readonly seen: Seen[];
}

export class RetrievalStub {
  private readonly entries = new Map<string, Entry>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private counter = 0;

  private constructor(
    /** PEM of the CA the paying application is told to trust. */
    readonly ca: string,
    private readonly tls: Listener,
    private readonly plain: Listener,
    private readonly impostors: Readonly<Record<Impostor, Listener>>,
  ) {}

  /**
   * Starts the listeners on 127.0.0.1, and their twins on ::1 when the machine
   * has an IPv6 loopback: TLS with a certificate for localhost, 127.0.0.1 and
   * ::1 from a CA made here, plaintext, and the four impostors.
   */
  static async start(): Promise<RetrievalStub> {
    const names = { dns: ['localhost'], ip: ['127.0.0.1', '::1'] };
    const [authority, untrusted] = await Promise.all([createCertificateAuthority(), createTlsMaterial(names)]);
    const day = 24 * 60 * 60 * 1000;
    const [own, otherName, expired, notYetValid] = await Promise.all([
      authority.issue(names),
      authority.issue({ dns: ['impostor.invalid'], ip: [] }),
      authority.issue(names, { notBefore: new Date(Date.now() - 31 * day), notAfter: new Date(Date.now() - 1000) }),
      authority.issue(names, { notBefore: new Date(Date.now() + day), notAfter: new Date(Date.now() + 31 * day) }),
    ]);
    let stub: RetrievalStub | undefined;
    const handler = (secure: boolean) => (req: IncomingMessage, res: ServerResponse) => stub!.answer(req, res, secure);
    const started: Listener[] = [];
    const ipv6 = await hasIpv6Loopback();
    const listen = async (make: () => Server) => {
      const listener = await listenOn(make, ipv6);
      started.push(listener);
      return listener;
    };
    try {
      const [tls, plain, other, stranger, stale, early] = await Promise.all([
        listen(() => createHttpsServer({ key: own.key, cert: own.cert }, handler(true))),
        listen(() => createHttpServer(handler(false))),
        listen(() => createHttpsServer({ key: otherName.key, cert: otherName.cert }, handler(true))),
        listen(() => createHttpsServer({ key: untrusted.key, cert: untrusted.cert }, handler(true))),
        listen(() => createHttpsServer({ key: expired.key, cert: expired.cert }, handler(true))),
        listen(() => createHttpsServer({ key: notYetValid.key, cert: notYetValid.cert }, handler(true))),
      ]);
      stub = new RetrievalStub(authority.ca, tls, plain, { 'other-name': other, 'untrusted-ca': stranger, expired: stale, 'not-yet-valid': early });
      return stub;
    } catch (error) {
      await Promise.all(started.map((listener) => listener.close()));
      throw error;
    }
  }

  /** Whether the listeners have twins on ::1: an endpoint may then name the stub by an IPv6 literal. */
  get ipv6(): boolean {
    return this.tls.port6 !== undefined;
  }

  /** `host:port` of every listener, under every name: what an allow-list of the application must hold (the impostors' too, so that only their certificates keep the token from them). */
  get hosts(): string[] {
    const listeners = [this.tls, this.plain, ...Object.values(this.impostors)];
    return [
      ...['127.0.0.1', 'localhost'].flatMap((host) => listeners.map((l) => `${host}:${l.port}`)),
      ...listeners.flatMap((l) => (l.port6 === undefined ? [] : [`[::1]:${l.port6}`])),
    ];
  }

  /** Registers an exhibit under a fresh token. */
  serve(exhibit: Exhibit, placement: Placement): Served {
    if (exhibit.chunkDelayMs !== undefined && (exhibit.chunkDelayMs < 0 || exhibit.chunkDelayMs > MAX_CHUNK_DELAY_MS)) throw new RangeError(`chunkDelayMs is 0 to ${MAX_CHUNK_DELAY_MS}`);
    if (exhibit.redirect !== undefined && (exhibit.redirect < 300 || exhibit.redirect > 399)) throw new RangeError('redirect is a 3xx status');
    if (placement.basePath !== '' && (!placement.basePath.startsWith('/') || placement.basePath.endsWith('/'))) throw new RangeError('basePath is empty or starts with "/" and does not end with one');
    const id = `x${++this.counter}`;
    const digits = placement.tokenDigits ?? 32;
    if (!Number.isInteger(digits) || digits < 32 || digits > 128) throw new RangeError('tokenDigits is 32 to 128');
    const token = randomBytes(Math.ceil(digits / 2)).toString('hex').slice(0, digits);
    if (placement.plaintext && placement.impostor !== undefined) throw new RangeError('an impostor listens over TLS: not with plaintext');
    const host = placement.host ?? '127.0.0.1';
    const listener = placement.plaintext ? this.plain : placement.impostor !== undefined ? this.impostors[placement.impostor] : this.tls;
    if (isIpv6(host) && !this.ipv6) throw new RangeError(`the stub has no listener on ::1 (this machine has no IPv6 loopback): no endpoint at ${host}`);
    const endpoint = `${placement.plaintext ? 'http' : 'https'}://${host}:${portOf(listener, host)}${placement.basePath}`;
    const served: Served = { id, token, endpoint, uri: `std-cpr://${token}?endpoint=${encodeURIComponent(endpoint)}`, url: `${endpoint}/cpr/${token}` };
    this.entries.set(id, { exhibit, served, retrievalPath: pathOf(served.url), redirectPath: pathOf(`${endpoint}/moved/cpr/${token}`), seen: [] });
    return served;
  }

  /** The requests that named an exhibit's token so far. */
  seen(id: string): readonly Seen[] {
    return [...(this.entries.get(id)?.seen ?? [])];
  }

  /** Drops an exhibit: its token is then unknown to the stub. */
  forget(id: string): void {
    this.entries.delete(id);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([this.tls.close(), this.plain.close(), ...Object.values(this.impostors).map((l) => l.close())]);
  }

  private answer(req: IncomingMessage, res: ServerResponse, secure: boolean): void {
    const path = pathOf(`https://stub.invalid${req.url ?? '/'}`);
    const named = [...this.entries.values()].filter((e) => path.includes(e.served.token) || Object.values(req.headers).some((v) => String(v).includes(e.served.token)));
    // Reads of the request body are not needed: a retrieval is a GET.
    req.resume();
    for (const entry of named) {
      // A redirect to itself: the retrieval URL asked again is that redirect followed.
      const loop = entry.exhibit.redirect !== undefined && entry.exhibit.redirectTo === 'itself' && entry.seen.some((s) => s.where === 'retrieval');
      const where = path === entry.retrievalPath ? (loop ? 'redirect-target' : 'retrieval') : path === entry.redirectPath ? 'redirect-target' : 'elsewhere';
      entry.seen.push({ method: req.method ?? '', path: req.url ?? '', secure, where });
    }
    const entry = named[0];
    const at = entry === undefined ? undefined : path === entry.retrievalPath ? 'retrieval' : path === entry.redirectPath ? 'redirect-target' : undefined;
    if (!secure || entry === undefined || at === undefined || req.method !== 'GET') {
      // What a payee says of a token it does not serve here (PROFILE.md §10).
      const body = JSON.stringify({ type: 'https://cpr-conformance.dev/problems/TOKEN_UNKNOWN', title: 'token unknown', status: 404, code: 'TOKEN_UNKNOWN' });
      res.writeHead(404, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' }).end(body);
      return;
    }
    const spent = entry.exhibit.spent !== undefined && entry.seen.filter((s) => s.where === 'retrieval').length > 1;
    const exhibit = spent ? entry.exhibit.spent! : entry.exhibit;
    if (at === 'retrieval' && exhibit.redirect !== undefined) {
      const location = this.locationOf(entry, exhibit.redirectTo ?? 'same-host');
      // The redirect carries the CPR as an application/json body too (but a 304, which has none): an application that
      // reads the body of any answer below 400 reads a valid CPR, where PROFILE.md §8.3 wants RETRIEVAL_FAILED.
      const body = exhibit.redirect === 304 ? Buffer.alloc(0) : Buffer.from(exhibit.body);
      res.writeHead(exhibit.redirect, { ...(location !== undefined ? { location } : {}), ...(body.length > 0 ? { 'content-type': 'application/json' } : {}), 'content-length': body.length, 'cache-control': 'no-store' }).end(body);
      return;
    }
    this.send(res, at === 'redirect-target' ? { status: 200, headers: { 'content-type': 'application/json' }, body: exhibit.body } : exhibit);
  }

  private locationOf(entry: Entry, to: RedirectTarget): string | undefined {
    const { endpoint, token, url } = entry.served;
    const at = new URL(endpoint);
    const moved = `${at.pathname.replace(/\/$/, '')}/moved/cpr/${token}`;
    switch (to) {
      case 'same-host':
        return `${endpoint}/moved/cpr/${token}`;
      case 'other-host':
        return `https://${at.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${this.tls.port}${moved}`;
      case 'plaintext':
        return `http://${at.hostname}:${portOf(this.plain, at.hostname)}${moved}`;
      case 'itself':
        return url;
      case 'none':
        return undefined;
    }
  }

  private send(res: ServerResponse, exhibit: Exhibit): void {
    const body = Buffer.from(exhibit.body);
    const headers: Record<string, string | number> = { 'cache-control': 'no-store', ...exhibit.headers };
    if (!exhibit.chunked) headers['content-length'] = body.length;
    res.writeHead(exhibit.status ?? 200, headers);
    const size = Math.ceil(body.length / CHUNKS) || 1;
    const pieces = exhibit.chunked || exhibit.chunkDelayMs !== undefined || exhibit.truncate ? Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size)) : [body];
    // Cut after half the pieces, at least one (none of an empty body).
    const cut = exhibit.truncate ? Math.min(pieces.length, Math.max(1, Math.floor(pieces.length / 2))) : pieces.length;
    const next = (i: number): void => {
      if (res.destroyed) return;
      if (i >= cut) {
        if (exhibit.truncate) res.socket?.destroy();
        else res.end();
        return;
      }
      res.write(pieces[i]);
      if (!exhibit.chunkDelayMs) return next(i + 1);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        next(i + 1);
      }, exhibit.chunkDelayMs);
      timer.unref();
      this.timers.add(timer);
    };
    next(0);
  }
}

/** The path of a URL, normalized as a URI (RFC 3986 §6.2.2), without its query. */
function pathOf(url: string): string {
  const normal = normalizeUri(url.replace(/[?#].*$/, ''));
  return normal.replace(/^[a-z]+:\/\/[^/]*/, '');
}

interface Listener {
  /** On 127.0.0.1. */
  readonly port: number;
  /** Its twin's on ::1, when there is one. */
  readonly port6?: number;
  close(): Promise<void>;
}

/** The port that serves an endpoint naming `host`: the twin's on ::1 for an IPv6 literal. */
function portOf(listener: Listener, host: string): number {
  return isIpv6(host) ? listener.port6! : listener.port;
}

function bound(server: Server | NetServer, address: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A server on 127.0.0.1, and a twin made alike on ::1 when `ipv6`. */
async function listenOn(make: () => Server, ipv6: boolean): Promise<Listener> {
  const servers = ipv6 ? [make(), make()] : [make()];
  const closeAll = () =>
    Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            if (!server.listening) return resolve();
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    ).then(() => undefined);
  try {
    await Promise.all(
      servers.map((server, i) => {
        server.keepAliveTimeout = 1000;
        server.headersTimeout = 10_000;
        return bound(server, i === 0 ? '127.0.0.1' : '::1');
      }),
    );
  } catch (error) {
    await closeAll();
    throw error;
  }
  const [v4, v6] = servers.map((server) => (server.address() as AddressInfo).port);
  return { port: v4!, ...(v6 !== undefined ? { port6: v6 } : {}), close: closeAll };
}
