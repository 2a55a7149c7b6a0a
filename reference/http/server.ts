// Adapts a reference Handler to node:http / node:https on loopback.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { problem, PROBLEM_CONTENT_TYPE } from '../../profile/index.ts';
import { serializeResponse, type SerializedResponse } from './respond.ts';
import type { Handler, RefRequest, RefResponse } from './types.ts';
import type { TlsMaterial } from '../tls.ts';

export const MAX_BODY_BYTES = 65_536;

interface ListenOptions {
  readonly host?: string;
  readonly port?: number;
  /** Serve HTTPS with this material; plaintext HTTP when absent. */
  readonly tls?: TlsMaterial;
  readonly maxBodyBytes?: number;
}

export interface Listening {
  /** Base URL without a trailing slash, e.g. `https://127.0.0.1:8443`. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

export async function listen(handler: Handler, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? '127.0.0.1';
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const secure = options.tls !== undefined;
  const onRequest = (req: IncomingMessage, res: ServerResponse) => void serve(handler, req, res, secure, limit);
  const server: Server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, onRequest)
    : createHttpServer(onRequest);
  // Bounded waits so a slow or silent client cannot hold the server.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    // Stryker disable next-line StringLiteral: only a listen that fails reaches it
    server.once('error', reject);
    // Stryker disable next-line LogicalOperator: every reference the run starts takes a port the system gives (0)
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${secure ? 'https' : 'http'}://${shownHost}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(handler: Handler, req: IncomingMessage, res: ServerResponse, secure: boolean, limit: number): Promise<void> {
  let response: RefResponse;
  try {
    const body = await readBody(req, limit);
    if (body === undefined) {
      // Stryker disable next-line StringLiteral: the detail is free text
      response = problemOf('PAYLOAD_TOO_LARGE', `request bodies are limited to ${limit} bytes`);
      // Stryker disable next-line StringLiteral: closing the connection after a body left unread is the server's choice, no rule's
      res.setHeader('connection', 'close');
    } else {
      response = await handler(toRefRequest(req, body, secure));
    }
  } catch (error) {
    // A handler that throws is a defect of the reference; it still answers.
    response = problemOf('INTERNAL_ERROR', 'internal error');
    process.emitWarning(`reference handler failed: ${(error as Error).stack ?? String(error)}`);
  }
  write(res, serializeResponse(response, req.method ?? 'GET'));
}

function problemOf(code: 'PAYLOAD_TOO_LARGE' | 'INTERNAL_ERROR', detail: string): RefResponse {
  const p = problem(code, detail);
  return { status: p.status, headers: { 'content-type': PROBLEM_CONTENT_TYPE }, body: p };
}

function toRefRequest(req: IncomingMessage, body: Uint8Array, secure: boolean): RefRequest {
  const authority = req.headers.host ?? '';
  const url = new URL(req.url ?? '/', 'http://placeholder');
  return { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, authority, secure };
}

/**
 * Reads the body, or returns undefined once it exceeds the limit (the rest is
 * discarded). The limit bounds memory: the Operator answers 413 at its own
 * max_body_bytes, never above this one (start.ts), so reading more changes no
 * answer; a declared length over it only saves reading the bytes.
 */
// Stryker disable all: a memory guard whose every outcome the Operator's own body limit also gives (above)
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? undefined : new Uint8Array(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}
// Stryker restore all

function write(res: ServerResponse, response: SerializedResponse): void {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: only a client gone before its answer reaches it
  if (res.headersSent || res.destroyed) return;
  res.writeHead(response.status, response.headers);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: ending with no bytes or with an empty buffer sends the same
  res.end(response.body.length > 0 ? Buffer.from(response.body) : undefined);
}
