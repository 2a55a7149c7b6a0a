// The module adapter: a role implemented by an in-process JS/TS module, the SDK
// adapter (harness/ADAPTERS.md, "module"). The module exports `createRole`
// (named or default); its answer is wrapped into the same HttpRole or
// PayingAppRole every other adapter gives, with the same deadlines and body cap.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessError } from '../errors.ts';
import { importableTypeScript } from '../bundle.ts';
import {
  TransportError,
  type AppResult,
  type CprInput,
  type DerivationContext,
  type HttpRole,
  type PayingAppRole,
  type WireRequest,
  type WireResponse,
} from './types.ts';

export type HttpRoleName = 'payee' | 'operator';
export type RoleName = HttpRoleName | 'paying-app';

// ---- The contract a module implements (documented in harness/ADAPTERS.md) ----

export interface CreateRoleOptions {
  readonly role: RoleName;
  /** The role's `settings` from the target file, as written (plus in-process values for embedded use). */
  readonly settings: Readonly<Record<string, unknown>>;
  /** PEM of the CA the role trusts (its `tls.ca_file`), when the target gives one. */
  readonly ca?: string;
}

export interface ModuleHttpRequest {
  readonly method: string;
  /** Path and query, e.g. `/cpr/abc?x=1`. */
  readonly path: string;
  /** Lower-case names; `host` is always present. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export interface ModuleHttpResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Bytes, text (sent as UTF-8) or any other value (sent as JSON). */
  readonly body?: Uint8Array | string | object;
}

export interface ModuleHttpImplementation {
  handle(request: ModuleHttpRequest): ModuleHttpResponse | Promise<ModuleHttpResponse>;
  close?(): unknown;
}

export interface ModulePayingAppImplementation {
  read(input: CprInput): AppResult | Promise<AppResult>;
  derive(cpr: unknown, context: DerivationContext): AppResult | Promise<AppResult>;
  close?(): unknown;
}

export type CreateRole = (options: CreateRoleOptions) => unknown;

// ---- The harness side ----

interface ModuleRoleOptions {
  readonly role: RoleName;
  readonly settings?: Readonly<Record<string, unknown>>;
  /** PEM handed to createRole as `ca`. */
  readonly ca?: string;
  /** Deadline of one call; default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Largest response body kept (HTTP roles); default 1 MiB. */
  readonly maxBodyBytes?: number;
}

/** The authority an in-process role sees (RFC 6761 reserves `.invalid`). */
const MODULE_AUTHORITY = 'module.invalid';

export function loadModuleRole(path: string, options: ModuleRoleOptions & { role: HttpRoleName }): Promise<HttpRole>;
export function loadModuleRole(path: string, options: ModuleRoleOptions & { role: 'paying-app' }): Promise<PayingAppRole>;
export function loadModuleRole(path: string, options: ModuleRoleOptions): Promise<HttpRole | PayingAppRole>;
export async function loadModuleRole(path: string, options: ModuleRoleOptions): Promise<HttpRole | PayingAppRole> {
  const file = resolve(path);
  if (!existsSync(file)) throw new HarnessError('CONFIG_INVALID', `module ${file} does not exist`, 'module paths are relative to the target file');
  let exports: Record<string, unknown>;
  try {
    await importableTypeScript();
    exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `module ${file} could not be loaded: ${(error as Error)?.message ?? String(error)}`);
  }
  const factory = typeof exports['createRole'] === 'function' ? exports['createRole'] : exports['default'];
  if (typeof factory !== 'function') {
    throw new HarnessError('CONFIG_INVALID', `module ${file} exports no createRole function (named or default)`, 'see harness/ADAPTERS.md, "module"');
  }
  return moduleRole(factory as CreateRole, { ...options, description: file });
}

/** Wraps an already-imported factory (what loadModuleRole does after the import). */
export async function moduleRole(factory: CreateRole, options: ModuleRoleOptions & { readonly description: string }): Promise<HttpRole | PayingAppRole> {
  const { role, description } = options;
  let created: unknown;
  try {
    created = await factory({ role, settings: options.settings ?? {}, ...(options.ca !== undefined ? { ca: options.ca } : {}) });
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `module ${description}: createRole({ role: '${role}' }) failed: ${(error as Error)?.message ?? String(error)}`);
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (role === 'paying-app') {
    if (!hasFunctions(created, ['read', 'derive'])) {
      throw new HarnessError('CONFIG_INVALID', `module ${description}: createRole({ role: 'paying-app' }) must return { read, derive }`);
    }
    return wrapPayingApp(created as ModulePayingAppImplementation, description, timeoutMs);
  }
  if (!hasFunctions(created, ['handle'])) {
    throw new HarnessError('CONFIG_INVALID', `module ${description}: createRole({ role: '${role}' }) must return { handle }`);
  }
  return wrapHttp(created as ModuleHttpImplementation, description, timeoutMs, options.maxBodyBytes ?? 1024 * 1024);
}

function wrapHttp(impl: ModuleHttpImplementation, description: string, timeoutMs: number, maxBodyBytes: number): HttpRole {
  return {
    kind: 'module',
    description,
    authority: MODULE_AUTHORITY,
    tls: 'in-process',
    async send(request: WireRequest): Promise<WireResponse> {
      if (request.transport === 'plaintext') throw new TransportError('UNAVAILABLE', `${description}: an in-process role has no plaintext transport`);
      const started = performance.now();
      const headers: Record<string, string> = { host: MODULE_AUTHORITY };
      for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
      const body = request.body === undefined ? new Uint8Array(0) : typeof request.body === 'string' ? new TextEncoder().encode(request.body) : request.body;
      const answer = await call(() => impl.handle({ method: request.method, path: request.path, headers, body }), description, 'handle', request.timeoutMs ?? timeoutMs);
      const response = checkHttpResponse(answer, description);
      const truncated = response.body.length > maxBodyBytes;
      return { ...response, body: truncated ? response.body.subarray(0, maxBodyBytes) : response.body, truncated, durationMs: performance.now() - started };
    },
    close: once(async () => void (await impl.close?.())),
  };
}

function wrapPayingApp(impl: ModulePayingAppImplementation, description: string, timeoutMs: number): PayingAppRole {
  return {
    kind: 'module',
    description,
    read: async (input) => checkAppResult(await call(() => impl.read(input), description, 'read', timeoutMs), description),
    derive: async (cpr, context) => checkAppResult(await call(() => impl.derive(cpr, context), description, 'derive', timeoutMs), description),
    close: once(async () => void (await impl.close?.())),
  };
}

/** Closing twice closes once. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** Runs one call under a deadline; a throw is a broken contract (no response), not a result. */
async function call<T>(run: () => T | Promise<T>, description: string, name: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransportError('TIMEOUT', `${description}: ${name}() gave no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(run), deadline]);
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw new TransportError('CRASHED', `${description}: ${name}() threw: ${(error as Error)?.message ?? String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Normalizes a module's response: status, lower-case string headers, body bytes. */
function checkHttpResponse(answer: unknown, description: string): { status: number; headers: Record<string, string>; body: Uint8Array } {
  const broken = (what: string) => new TransportError('PROTOCOL', `${description}: handle() must answer { status, headers?, body? }: ${what}`);
  if (typeof answer !== 'object' || answer === null) throw broken('not an object');
  const { status, headers: given, body: raw } = answer as ModuleHttpResponse;
  if (!Number.isInteger(status) || status < 100 || status > 599) throw broken(`status ${JSON.stringify(status)} is not an HTTP status`);
  const headers: Record<string, string> = {};
  if (given !== undefined) {
    if (typeof given !== 'object' || given === null) throw broken('headers is not an object');
    for (const [name, value] of Object.entries(given)) {
      if (typeof value !== 'string') throw broken(`header ${name} is not a string`);
      headers[name.toLowerCase()] = value;
    }
  }
  let body: Uint8Array;
  if (raw === undefined) body = new Uint8Array(0);
  else if (raw instanceof Uint8Array) body = raw;
  else if (typeof raw === 'string') body = new TextEncoder().encode(raw);
  else {
    let text: string | undefined;
    try {
      text = JSON.stringify(raw);
    } catch (error) {
      throw broken(`body is not JSON: ${(error as Error).message}`);
    }
    if (text === undefined) throw broken('body is not JSON');
    body = new TextEncoder().encode(text);
    headers['content-type'] ??= 'application/json';
  }
  return { status, headers, body };
}

/** An AppResult as plain JSON (what a process adapter would carry), or PROTOCOL. */
export function checkAppResult(answer: unknown, description: string): AppResult {
  let value: unknown;
  try {
    value = JSON.parse(JSON.stringify(answer) ?? 'null');
  } catch (error) {
    throw new TransportError('PROTOCOL', `${description}: the result is not JSON: ${(error as Error).message}`);
  }
  const result = value as Record<string, unknown> | null;
  const fine =
    typeof result === 'object' &&
    result !== null &&
    (result['ok'] === true || (result['ok'] === false && typeof result['code'] === 'string' && typeof result['message'] === 'string'));
  if (!fine) throw new TransportError('PROTOCOL', `${description}: a result is { ok: true, ... } or { ok: false, code, message, ... }, got ${preview(answer)}`);
  return result as AppResult;
}

function hasFunctions(value: unknown, names: readonly string[]): boolean {
  return typeof value === 'object' && value !== null && names.every((n) => typeof (value as Record<string, unknown>)[n] === 'function');
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
