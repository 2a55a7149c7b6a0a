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

export type BodyResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly response: RefResponse };

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
