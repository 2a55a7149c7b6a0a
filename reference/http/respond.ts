// Response helpers shared by every reference handler.
import { parseIJson, problem, PROBLEM_CONTENT_TYPE, type ProblemCode } from '../../profile/index.ts';
import type { RefRequest, RefResponse } from './types.ts';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): RefResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}

export function problemResponse(code: ProblemCode, detail: string, headers: Record<string, string> = {}): RefResponse {
  const p = problem(code, detail);
  return { status: p.status, headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers }, body: p };
}

type BodyResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly response: RefResponse };

const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

/** PROFILE.md §1: requests carry application/json and I-JSON; anything else is a 4xx problem. */
export function readJsonBody(request: RefRequest): BodyResult {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type)) {
    return { ok: false, response: problemResponse('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json') };
  }
  try {
    return { ok: true, value: parseIJson(request.body) };
  } catch (error) {
    return { ok: false, response: problemResponse('MALFORMED_REQUEST', `body is not I-JSON: ${(error as Error).message}`) };
  }
}

export interface SerializedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/**
 * The bytes and headers of a response, as both the socket server and the
 * in-process adapter send them: no-store by default, a Content-Length, and for
 * HEAD the headers GET would carry (Content-Length included) without the body
 * (RFC 9110 §9.3.2), so a client can keep its connection.
 */
export function serializeResponse(response: RefResponse, method: string): SerializedResponse {
  // Stryker disable next-line StringLiteral: the payee names no-store itself on every /cpr answer (PROFILE.md §10); no rule asks it of another answer
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...response.headers };
  const body = bytesOf(response.body);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: Content-Length or chunked framing is HTTP's choice (RFC 9112 §6), which no rule of the profile reads
  if (response.body !== undefined) headers['content-length'] = String(body.length);
  // Stryker disable next-line ConditionalExpression,StringLiteral: node:http sends no body in answer to HEAD whatever it is given (RFC 9110 §9.3.2)
  return { status: response.status, headers, body: method === 'HEAD' ? new Uint8Array(0) : body };
}

/** The bytes of a response body: as given, or its JSON text; none for no body. */
function bytesOf(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: the text of no body (JSON.stringify(undefined)) encodes to no bytes as well
  if (body === undefined) return new Uint8Array(0);
  return new TextEncoder().encode(JSON.stringify(body));
}
