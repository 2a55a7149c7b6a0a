// Step 1 of every POST endpoint (PROFILE.md §1, §5): the body is JSON of at most
// max_body_bytes, I-JSON, and a valid message of its kind.
import { validateMessage, type MessageKind, type MessageTypes } from '../../profile/cashpack/index.ts';
import { problemResponse, readJsonBody } from '../http/respond.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import { deepFreeze, type OperatorContext } from './context.ts';

type BodyRead<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly response: RefResponse };

/**
 * 413, then 415, then 400 for anything not I-JSON. The size comes first, as in
 * reference/http/server.ts, which answers 413 before a handler sees the request.
 */
export function readJson(ctx: OperatorContext, request: RefRequest): BodyRead<unknown> {
  const limit = ctx.policy.max_body_bytes;
  const tooLarge = ctx.faults.has('op-body-limit-off-by-one') ? request.body.length >= limit : request.body.length > limit; // mutant: the limit itself refused
  if (tooLarge) {
    return { ok: false, response: problemResponse('PAYLOAD_TOO_LARGE', `request bodies are limited to ${limit} bytes`) };
  }
  // Mutant op-malformed-json-500: a plain JSON.parse outside the error handling; bad JSON throws (a 500).
  if (ctx.faults.has('op-malformed-json-500')) JSON.parse(new TextDecoder().decode(request.body));
  // Mutant op-media-type-unchecked: every body is read as JSON, whatever its Content-Type.
  if (ctx.faults.has('op-media-type-unchecked')) return readJsonBody({ ...request, headers: { ...request.headers, 'content-type': 'application/json' } });
  return readJsonBody(request);
}

/** readJson, then the message's schema and semantic rules (MALFORMED_REQUEST). The value is frozen: it may be stored. */
export function readMessage<K extends MessageKind>(ctx: OperatorContext, request: RefRequest, kind: K): BodyRead<MessageTypes[K]> {
  const body = readJson(ctx, request);
  if (!body.ok) return body;
  const check = validateMessage(kind, body.value);
  if (!check.ok) return { ok: false, response: problemResponse('MALFORMED_REQUEST', `not a valid ${kind}: ${check.errors.join('; ')}`) };
  return { ok: true, value: deepFreeze(body.value as MessageTypes[K]) };
}
