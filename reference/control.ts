// The test-control routes that belong to no single role (PROFILE.md §12):
// capability discovery, the one shared clock, and the lease that lets one
// client at a time move it.
import { PROBLEM_CONTENT_TYPE, PROFILE_ID, formatTimestamp, parseTimestamp, problem } from '../profile/index.ts';
import { CAPABILITIES, LEASE } from '../profile/control.ts';
import type { Clock, LeaseView } from './clock.ts';
import { NO_FAULTS, type Faults } from './mutants.ts';
import { json, problemResponse, readJsonBody } from './http/respond.ts';
import type { Handler, RefRequest, RefResponse } from './http/types.ts';

export function clockView(clock: Clock): { now: string; frozen: boolean } {
  const state = clock.state();
  return { now: formatTimestamp(state.now), frozen: state.frozen };
}

interface ControlOptions {
  /** Offer the lease capability (default true); without it any client may move the clock at any time. */
  readonly lease?: boolean;
  readonly faults?: Faults;
}

const LEASE_PATH = '/_control/lease';

export function createControlHandler(clock: Clock, options: ControlOptions = {}): Handler {
  const leased = options.lease !== false;
  const capabilities = leased ? CAPABILITIES : CAPABILITIES.filter((c) => c !== 'lease');
  return (request: RefRequest): RefResponse => {
    if (request.path === '/_control/capabilities') {
      if (request.method !== 'GET') return problemResponse('METHOD_NOT_ALLOWED', 'use GET', { allow: 'GET' });
      return json(200, { profile: PROFILE_ID, capabilities });
    }
    if (request.path === '/_control/clock') {
      if (request.method === 'GET') return json(200, clockView(clock));
      if (request.method !== 'POST') return problemResponse('METHOD_NOT_ALLOWED', 'use GET or POST', { allow: 'GET, POST' });
      // The clock is the state every client shares: while a lease is held, only its holder moves it.
      const header = request.headers[LEASE.header];
      if (leased && !clock.lease.admits(typeof header === 'string' ? header : undefined)) return busy(clock.lease.current()!, 'the clock is leased to another client');
      return changeClock(clock, request, options.faults ?? NO_FAULTS);
    }
    if (leased && (request.path === LEASE_PATH || request.path.startsWith(`${LEASE_PATH}/`))) return leaseRoute(clock, request, options.faults ?? NO_FAULTS);
    return problemResponse('NOT_FOUND', `no control route ${request.path}`);
  };
}

/** `{ freeze?: boolean, set?: timestamp, advance_seconds?: integer >= 0 }`, applied in that order. */
function changeClock(clock: Clock, request: RefRequest, faults: Faults): RefResponse {
  // Mutant ctl-clock-json-parse: the clock's body read as JSON.parse reads it, after a byte order mark dropped: a member twice is taken, the last copy kept.
  const body = faults.has('ctl-clock-json-parse') ? looseJsonBody(request) : readJsonBody(request);
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
  // Mutant ctl-clock-advance-negative-taken: a negative advance_seconds taken as an offset that winds the clock back.
  // Stryker disable next-line all: only the ctl-clock-advance-negative-taken fault takes a negative advance
  if (advance !== undefined && !(Number.isSafeInteger(advance) && ((advance as number) >= 0 || faults.has('ctl-clock-advance-negative-taken')))) {
    return problemResponse('MALFORMED_REQUEST', 'advance_seconds is an integer >= 0');
  }
  // A frozen clock let run answers the instant it runs on from: read again
  // after unfreezing, it may already be a millisecond later, and two references
  // given the same requests would answer them differently.
  const released = freeze === false && at === undefined && advance === undefined && clock.state().frozen ? clock.now() : undefined;
  // Mutant ctl-clock-set-then-frozen: the clock moved first, then frozen, which stops it at its whole second.
  if (faults.has('ctl-clock-set-then-frozen') && at !== undefined) clock.set(at);
  if (freeze === true) clock.freeze();
  if (freeze === false) clock.unfreeze();
  if (at !== undefined && !faults.has('ctl-clock-set-then-frozen')) clock.set(at);
  // Stryker disable next-line all: only the ctl-clock-advance-negative-taken fault lets a negative advance through
  if (faults.has('ctl-clock-advance-negative-taken') && (advance as number) < 0) clock.set(clock.now() + (advance as number) * 1000);
  else if (advance !== undefined) clock.advance(advance as number);
  return json(200, released === undefined ? clockView(clock) : { now: formatTimestamp(released), frozen: false });
}

function looseJsonBody(request: RefRequest): ReturnType<typeof readJsonBody> {
  const text = Buffer.from(request.body).toString('utf8').replace(/^\uFEFF/, '');
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return readJsonBody(request);
  }
}

/**
 * GET /_control/lease                      who holds it, if anyone
 * POST /_control/lease {holder, ttl_seconds}  acquire: 201, or 409 CONTROL_BUSY
 * POST /_control/lease/{id} {ttl_seconds}     renew from now: 200
 * DELETE /_control/lease/{id}                 release: 204
 */
function leaseRoute(clock: Clock, request: RefRequest, faults: Faults): RefResponse {
  const lease = clock.lease;
  if (request.path === LEASE_PATH) {
    if (request.method === 'GET') {
      const held = lease.current();
      return json(200, held ? { held: true, holder: held.holder, expires_at: formatTimestamp(held.expiresAt) } : { held: false });
    }
    if (request.method !== 'POST') return problemResponse('METHOD_NOT_ALLOWED', 'use GET or POST', { allow: 'GET, POST' });
    const input = leaseInput(request, true, faults);
    if (!input.ok) return input.response;
    const granted = lease.acquire(input.holder!, input.ttlSeconds);
    return granted.ok ? json(201, leaseBody(granted.lease)) : busy(granted.held!, 'another client holds the lease');
  }
  const given = request.path.slice(LEASE_PATH.length + 1);
  // MUTANT ctl-lease-id-prefix-match: the lease in force is found by the start of its id.
  const held = lease.current();
  const id = faults.has('ctl-lease-id-prefix-match') && held !== undefined && given.length > 0 && held.id.startsWith(given) ? held.id : given;
  if (request.method === 'DELETE') return lease.release(id) ? { status: 204 } : gone(lease.current());
  if (request.method !== 'POST') return problemResponse('METHOD_NOT_ALLOWED', 'use POST to renew, DELETE to release', { allow: 'POST, DELETE' });
  const input = leaseInput(request, false, faults);
  if (!input.ok) return input.response;
  // MUTANT ctl-lease-renewal-extends-expiry: a renewal adds ttl_seconds to the expiry in force, not to now.
  const renewed = faults.has('ctl-lease-renewal-extends-expiry') ? lease.extend(id, input.ttlSeconds) : lease.renew(id, input.ttlSeconds);
  return renewed.ok ? json(200, leaseBody(renewed.lease)) : gone(renewed.held);
}

function leaseBody(lease: LeaseView) {
  return { lease_id: lease.id, holder: lease.holder, expires_at: formatTimestamp(lease.expiresAt) };
}

/** 409 CONTROL_BUSY, naming the holder and when its lease ends (RFC 9457 extension members). */
function busy(held: LeaseView, detail: string): RefResponse {
  return {
    status: 409,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE },
    body: { ...problem('CONTROL_BUSY', `${detail} until ${formatTimestamp(held.expiresAt)}`), holder: held.holder, expires_at: formatTimestamp(held.expiresAt) },
  };
}

/** A lease id that is not the one in force: it expired or was released (404), and another may hold one now (409). */
function gone(held: LeaseView | undefined): RefResponse {
  return held ? busy(held, 'that lease ended, and another client holds one') : problemResponse('NOT_FOUND', 'no such lease: it expired or was released');
}

type LeaseInput = { readonly ok: true; readonly holder?: string; readonly ttlSeconds: number } | { readonly ok: false; readonly response: RefResponse };

/** `{ holder, ttl_seconds }` to acquire, `{ ttl_seconds }` to renew. */
function leaseInput(request: RefRequest, acquiring: boolean, faults: Faults): LeaseInput {
  const body = readJsonBody(request);
  if (!body.ok) return body;
  const input = body.value;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return malformed(acquiring ? 'the body is { holder, ttl_seconds }' : 'the body is { ttl_seconds }');
  const { holder, ttl_seconds: ttl, ...rest } = input as Record<string, unknown>;
  const unknown = Object.keys(rest).concat(!acquiring && holder !== undefined ? ['holder'] : []);
  if (unknown.length > 0) return malformed(`unknown member(s): ${unknown.join(', ')}`);
  // Characters are code points (PROFILE.md §1): an astral character counts once, not as its two UTF-16 units.
  // MUTANT ctl-lease-holder-utf16-length: the holder's length counted in UTF-16 units.
  const characters = typeof holder === 'string' ? (faults.has('ctl-lease-holder-utf16-length') ? holder.length : [...holder].length) : 0;
  if (acquiring && !(typeof holder === 'string' && characters >= 1 && characters <= LEASE.holderMaxLength)) return malformed(`holder is a text of 1 to ${LEASE.holderMaxLength} characters naming who holds the lease`);
  const { min, max } = LEASE.ttlSeconds;
  if (!(Number.isSafeInteger(ttl) && (ttl as number) >= min && (ttl as number) <= max)) return malformed(`ttl_seconds is an integer from ${min} to ${max}`);
  return { ok: true, ...(acquiring ? { holder: holder as string } : {}), ttlSeconds: ttl as number };
}

function malformed(detail: string): LeaseInput {
  return { ok: false, response: problemResponse('MALFORMED_REQUEST', detail) };
}
