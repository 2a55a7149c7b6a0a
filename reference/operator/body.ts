// Step 1 of every POST endpoint (PROFILE.md §1, §5): the body is JSON of at most
// max_body_bytes, I-JSON, and a valid message of its kind.
import { validateMessage, type MessageKind, type MessageTypes } from '../../profile/cashpack/index.ts';
import { problemResponse, readJsonBody } from '../http/respond.ts';
import { MAX_BODY_BYTES } from '../http/server.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import { deepFreeze, type OperatorContext } from './context.ts';

type BodyRead<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly response: RefResponse };

/**
 * 413, then 415, then 400 for anything not I-JSON. The size comes first, as in
 * reference/http/server.ts, which answers 413 before a handler sees the request.
 */
export function readJson(ctx: OperatorContext, request: RefRequest): BodyRead<unknown> {
  // Mutant op-media-type-before-size: only JSON is ever read, so a body of another media type is turned away before it is measured (415 before 413).
  // Stryker disable next-line all: only the op-media-type-before-size fault checks the media type first
  if (ctx.faults.has('op-media-type-before-size') && !/^application\/json\s*(;.*)?$/i.test(String(request.headers['content-type']))) return { ok: false, response: problemResponse('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json') };
  // Mutant op-body-limit-fixed: the profile's most (65 536 bytes), not the policy's max_body_bytes.
  // Stryker disable next-line all: only the op-body-limit-fixed fault reads the constant
  const limit = ctx.faults.has('op-body-limit-fixed') ? MAX_BODY_BYTES : ctx.policy.max_body_bytes;
  // Mutant op-body-limit-from-content-length: the size is the Content-Length header's word, none when the body comes chunked.
  const size = ctx.faults.has('op-body-limit-from-content-length') ? Number(request.headers['content-length'] ?? 0) : request.body.length;
  // Stryker disable next-line ConditionalExpression: a second guard: reference/http/server.ts answers 413 before a handler sees a body over max_body_bytes
  const tooLarge = ctx.faults.has('op-body-limit-off-by-one') ? size >= limit : size > limit; // mutant: the limit itself refused
  // Stryker disable next-line ConditionalExpression: as above, the server has refused a body over the limit already
  if (tooLarge) {
    return { ok: false, response: problemResponse('PAYLOAD_TOO_LARGE', `request bodies are limited to ${limit} bytes`) };
  }
  // Mutant op-malformed-json-500: a plain JSON.parse outside the error handling; bad JSON throws (a 500).
  if (ctx.faults.has('op-malformed-json-500')) JSON.parse(new TextDecoder().decode(request.body));
  // Mutant op-media-type-unchecked: every body is read as JSON, whatever its Content-Type.
  if (ctx.faults.has('op-media-type-unchecked')) return readJsonBody({ ...request, headers: { ...request.headers, 'content-type': 'application/json' } });
  // Mutant op-media-type-case-sensitive: application/json matched in lower case only.
  // Stryker disable next-line StringLiteral: only the op-media-type-case-sensitive fault reads it; readJsonBody reads the header itself
  const type = request.headers['content-type'];
  if (ctx.faults.has('op-media-type-case-sensitive') && !(typeof type === 'string' && /^application\/json\s*(;.*)?$/.test(type))) {
    return { ok: false, response: problemResponse('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json') };
  }
  return readJsonBody(request);
}

/** readJson, then the message's schema and semantic rules (MALFORMED_REQUEST). The value is frozen: it may be stored. */
export function readMessage<K extends MessageKind>(ctx: OperatorContext, request: RefRequest, kind: K): BodyRead<MessageTypes[K]> {
  const body = readJson(ctx, request);
  if (!body.ok) return body;
  const check = validateMessage(kind, ctx.faults.has('op-created-at-fraction-accepted') ? wholeSecondCreatedAt(body.value) : body.value);
  // Mutant op-jwk-kid-unchecked: a key's kid is taken as written, never compared with the key's thumbprint.
  const errors = check.ok ? [] : ctx.faults.has('op-jwk-kid-unchecked') ? check.errors.filter((e) => !e.endsWith('kid must be the RFC 7638 thumbprint of the key')) : check.errors;
  if (errors.length > 0) return { ok: false, response: problemResponse('MALFORMED_REQUEST', `not a valid ${kind}: ${errors.join('; ')}`) };
  return { ok: true, value: deepFreeze(body.value as MessageTypes[K]) };
}

/**
 * Mutant op-created-at-fraction-accepted: the schema is asked about created_at
 * with its fraction cut, as a reader that takes CPR timestamps would see it.
 */
// Stryker disable all: only the op-created-at-fraction-accepted fault calls this function
function wholeSecondCreatedAt(value: unknown): unknown {
  const cut = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    const created = typeof o.created_at === 'string' ? o.created_at.replace(/\.\d{1,3}Z$/, 'Z') : o.created_at;
    return Object.fromEntries(Object.entries({ ...o, ...(o.created_at !== undefined ? { created_at: created } : {}) }).map(([k, c]) => [k, k === 'created_at' ? c : cut(c)]));
  };
  return cut(value);
}
// Stryker restore all
