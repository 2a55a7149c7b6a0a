// The adapter contract: one small interface per role (STYLE.md §7). HTTP roles
// (payee system, operator) exchange HTTP-shaped messages, whatever carries them:
// a real socket (http), a function call (module) or a JSON line (process). The
// paying application is a library, so its interface is its two operations.
// Documented for implementers in harness/ADAPTERS.md.

export type AdapterKind = 'http' | 'module' | 'process';

export interface WireRequest {
  readonly method: string;
  /** Path and query, e.g. `/cpr/abc` or `/v1/cashpack/issue`. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | string;
  /** `plaintext` sends to the role's plaintext base URL (spec §5.1.4 tests); http adapters only. */
  readonly transport?: 'default' | 'plaintext';
  /**
   * Send the body in pieces without Content-Length (Transfer-Encoding: chunked)
   * on http adapters; module and process roles never get a Content-Length.
   */
  readonly chunked?: boolean;
  readonly timeoutMs?: number;
}

export interface WireResponse {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** True when the body was cut at the adapter's size cap. */
  readonly truncated: boolean;
  readonly durationMs: number;
}

/**
 * No usable answer: refused, reset, timed out, TLS failure, an adapter contract
 * broken (PROTOCOL), or an implementation that crashed on the call (CRASHED: a
 * module that threw, a child that answered an error). Never a conformance
 * result by itself; a paying application's crash is its answer to a CPR
 * (actions/app-call.ts appCall), every other code is a harness error.
 * Internal signal, caught in runner/guard.ts, scenarios/http.ts, scenarios/actions/app-call.ts, properties/execute.ts, target/preflight.ts, fuzz/campaign.ts: each gives it a code of the taxonomy (HARNESS_TARGET_UNREACHABLE, HARNESS_ADAPTER_PROTOCOL, ...).
 */
export class TransportError extends Error {
  constructor(
    readonly code: 'TIMEOUT' | 'REFUSED' | 'RESET' | 'TLS' | 'PROTOCOL' | 'CRASHED' | 'CLOSED' | 'UNAVAILABLE',
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface HttpRole {
  readonly kind: AdapterKind;
  /** Shown in reports, secrets removed: a URL, a module path, a command. */
  readonly description: string;
  /** `host:port` the implementation sees, for RFC 9421 `@authority`. */
  readonly authority: string;
  /** Absolute base URL when the role is reachable over the network (http adapters). */
  readonly baseUrl?: string;
  readonly plaintextBaseUrl?: string;
  /** How TLS is handled, for the report. */
  readonly tls: 'verified' | 'insecure' | 'none' | 'in-process';
  send(request: WireRequest): Promise<WireResponse>;
  close(): Promise<void>;
}

/** How a CPR reaches the paying application (spec §4.4). */
export type CprInput =
  | { readonly kind: 'json'; readonly text: string }
  | { readonly kind: 'object'; readonly value: unknown }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'uri'; readonly uri: string };

/** PROFILE.md §8.3 and §9: a Payment or a rejection with a human-readable message. */
export type AppResult =
  | { readonly ok: true; readonly cpr?: unknown; readonly payment?: unknown; readonly notices?: readonly string[] }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly violations?: readonly unknown[]; readonly alternatives?: readonly string[] };

export interface DerivationContext {
  readonly payer: unknown;
  readonly rail: unknown;
  readonly authorization: unknown;
  /** RFC 3339 instant the application must treat as now. */
  readonly now?: string;
  readonly payer_amount?: string;
  readonly supported_rails?: readonly string[];
  readonly conversion?: unknown;
}

export interface PayingAppRole {
  readonly kind: Exclude<AdapterKind, 'http'>;
  readonly description: string;
  read(input: CprInput): Promise<AppResult>;
  derive(cpr: unknown, context: DerivationContext): Promise<AppResult>;
  close(): Promise<void>;
}
