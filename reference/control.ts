// The test-control routes that belong to no single role (PROFILE.md §12):
// capability discovery and the one shared clock.
import { PROFILE_ID, formatTimestamp, parseTimestamp } from '../profile/index.ts';
import { CAPABILITIES } from '../profile/control.ts';
import type { Clock } from './clock.ts';
import { json, problemResponse, readJsonBody } from './http/respond.ts';
import type { Handler, RefRequest, RefResponse } from './http/types.ts';

export function clockView(clock: Clock): { now: string; frozen: boolean } {
  const state = clock.state();
  return { now: formatTimestamp(state.now), frozen: state.frozen };
}

export function createControlHandler(clock: Clock): Handler {
  return (request: RefRequest): RefResponse => {
    if (request.path === '/_control/capabilities') {
      if (request.method !== 'GET') return problemResponse('METHOD_NOT_ALLOWED', 'use GET', { allow: 'GET' });
      return json(200, { profile: PROFILE_ID, capabilities: CAPABILITIES });
    }
    if (request.path === '/_control/clock') {
      if (request.method === 'GET') return json(200, clockView(clock));
      if (request.method === 'POST') return changeClock(clock, request);
      return problemResponse('METHOD_NOT_ALLOWED', 'use GET or POST', { allow: 'GET, POST' });
    }
    return problemResponse('NOT_FOUND', `no control route ${request.path}`);
  };
}

/** `{ freeze?: boolean, set?: timestamp, advance_seconds?: integer >= 0 }`, applied in that order. */
function changeClock(clock: Clock, request: RefRequest): RefResponse {
  const body = readJsonBody(request);
  if (!body.ok) return body.response;
  const input = body.value;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return problemResponse('MALFORMED_REQUEST', 'the body is an object with freeze, set or advance_seconds');
  }
  const { freeze, set, advance_seconds: advance, ...rest } = input as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return problemResponse('MALFORMED_REQUEST', `unknown member(s): ${unknown.join(', ')}`);
  if (freeze !== undefined && typeof freeze !== 'boolean') return problemResponse('MALFORMED_REQUEST', 'freeze is a boolean');
  const at = set === undefined ? undefined : parseTimestamp(set);
  if (set !== undefined && at === undefined) return problemResponse('MALFORMED_REQUEST', 'set is an RFC 3339 UTC timestamp');
  if (advance !== undefined && !(Number.isSafeInteger(advance) && (advance as number) >= 0)) {
    return problemResponse('MALFORMED_REQUEST', 'advance_seconds is an integer >= 0');
  }
  if (freeze === true) clock.freeze();
  if (freeze === false) clock.unfreeze();
  if (at !== undefined) clock.set(at);
  if (advance !== undefined) clock.advance(advance as number);
  return json(200, clockView(clock));
}
