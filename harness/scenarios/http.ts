// Sending a request through a role's adapter and turning the answer into a step
// result, recording both in the transcript.
import type { Role } from '../../profile/registry.ts';
import { TransportError, type WireRequest } from '../adapters/types.ts';
import { StepError, type HttpResult, type ScenarioContext } from './context.ts';

const decoder = new TextDecoder('utf-8', { fatal: false });

interface SendOptions {
  /** The request is over the target's max_body_bytes on purpose (a test of the limit itself): no ScenarioContext.beforeSend. */
  readonly overLimit?: boolean;
}

export async function send(ctx: ScenarioContext, role: Role, request: WireRequest, options: SendOptions = {}): Promise<HttpResult> {
  if (ctx.beforeSend !== undefined && options.overLimit !== true) await ctx.beforeSend(role, request);
  const adapter = ctx.http(role);
  const plaintext = request.transport === 'plaintext';
  const via = plaintext ? (adapter.plaintextBaseUrl !== undefined ? ('plaintext-listener' as const) : ('tls-port' as const)) : undefined;
  const base = plaintext ? (adapter.plaintextBaseUrl ?? `${(adapter.baseUrl ?? adapter.description).replace(/^https:/, 'http:')}`) : (adapter.baseUrl ?? adapter.description);
  const url = `${base}${request.path}`;
  const started = performance.now();
  try {
    const response = await adapter.send(request);
    ctx.record(role, request, url, response, undefined, Math.round(performance.now() - started));
    const text = decoder.decode(response.body);
    return { status: response.status, headers: response.headers, body: parseJson(response.headers['content-type'], text), text, bytes: response.body, ...(via ? { via } : {}) };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    ctx.record(role, request, url, undefined, `${error.code}: ${error.message}`, Math.round(performance.now() - started));
    // A plaintext probe that gets no answer at all is a legitimate outcome (spec §5.1.4).
    if (plaintext && error.code !== 'UNAVAILABLE') return { status: null, headers: {}, body: undefined, text: '', bytes: new Uint8Array(), error: error.code, ...(via ? { via } : {}) };
    if (plaintext) throw new StepError('skipped', `no plaintext transport to probe with: ${error.message}`);
    // Over a socket a garbled answer is no answer; from a module or a child it is a broken adapter contract.
    const code = error.code === 'PROTOCOL' && adapter.kind !== 'http' ? 'HARNESS_ADAPTER_PROTOCOL' : 'HARNESS_TARGET_UNREACHABLE';
    throw new StepError('error', `the ${role} did not answer ${request.method} ${request.path}: ${error.code}: ${error.message}`, code);
  }
}

/** Whether a Content-Type names JSON (application/json or +json). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/([a-z0-9.+-]*\+)?json\b/i.test(contentType);
}

/** The parsed body when the media type is JSON and it parses; otherwise undefined. */
export function parseJson(contentType: string | undefined, text: string): unknown {
  if (!isJsonMediaType(contentType)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function jsonRequest(method: string, path: string, value: unknown, headers: Record<string, string> = {}): WireRequest {
  return { method, path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}
