// The reference's handlers are plain functions from a request value to a response
// value; reference/http/server.ts adapts them to node:http(s). This keeps every
// handler testable without sockets and lets the in-process adapter call them.
export type Headers = Readonly<Record<string, string | string[] | undefined>>;

export interface RefRequest {
  readonly method: string;
  /** Decoded path without the query, e.g. `/v1/cashpack/issue`. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Lower-case header names, as node:http gives them. */
  readonly headers: Headers;
  /** The raw body (already capped at the size limit by the server). */
  readonly body: Uint8Array;
  /** `host:port` from the Host header, for HTTP Message Signatures (the server's own when the Host names another: authority.ts). */
  readonly authority: string;
  /** True when the request arrived over TLS. */
  readonly secure: boolean;
}

export interface RefResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON value (serialized by the server) or raw bytes. */
  readonly body?: unknown;
}

export type Handler = (request: RefRequest) => RefResponse | Promise<RefResponse>;
