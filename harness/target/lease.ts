// The client side of the test-control lease (PROFILE.md §12, lease): acquire,
// renew and release over a role, and the role with the lease's header on its
// test-control requests. Holding it for a whole run (waiting, renewing on a
// timer, releasing at the end) is the runner's (runner/lease.ts).
import { interceptSend } from '../adapters/intercept.ts';
import type { HttpRole, WireRequest } from '../adapters/types.ts';
import { LEASE } from '../../profile/control.ts';
import { jsonObjectOf } from './control.ts';

const LEASE_PATH = '/_control/lease';

export interface LeaseGrant {
  readonly id: string;
  readonly holder: string;
  readonly expiresAt: string;
}

/**
 * What the target answered: granted; busy (another holds it, named when the
 * target says who); or `odd`, an answer the profile does not describe (the
 * lease is then not held, and the caller says so).
 */
export type LeaseAnswer =
  | { readonly kind: 'granted'; readonly grant: LeaseGrant }
  | { readonly kind: 'busy'; readonly holder: string; readonly expiresAt: string }
  | { readonly kind: 'odd'; readonly what: string };

/** POST /_control/lease. A TransportError is thrown: the role did not answer. */
export async function acquireLease(role: HttpRole, holder: string, ttlSeconds: number, timeoutMs: number): Promise<LeaseAnswer> {
  return leaseAnswer(await role.send(post(LEASE_PATH, { holder, ttl_seconds: ttlSeconds }, timeoutMs)), 201, `POST ${LEASE_PATH}`);
}

/** POST /_control/lease/{id}: a fresh TTL from now. */
export async function renewLease(role: HttpRole, id: string, ttlSeconds: number, timeoutMs: number): Promise<LeaseAnswer> {
  return leaseAnswer(await role.send(post(`${LEASE_PATH}/${encodeURIComponent(id)}`, { ttl_seconds: ttlSeconds }, timeoutMs)), 200, `POST ${LEASE_PATH}/{lease_id}`);
}

/** DELETE /_control/lease/{id}; whatever the answer, the lease is the target's to forget (it ends with its TTL anyway). */
export async function releaseLease(role: HttpRole, id: string, timeoutMs: number): Promise<void> {
  await role.send({ method: 'DELETE', path: `${LEASE_PATH}/${encodeURIComponent(id)}`, timeoutMs });
}

/** The role, with `Control-Lease: <id>` on every test-control request (reads too: harmless, and one rule). */
export function withLease(role: HttpRole, id: string): HttpRole {
  const send = (request: WireRequest) => {
    if (!request.path.startsWith('/_control/') || request.path.startsWith(LEASE_PATH)) return role.send(request);
    return role.send({ ...request, headers: { ...request.headers, [LEASE.header]: id } });
  };
  return interceptSend(role, send);
}

function post(path: string, json: unknown, timeoutMs: number): WireRequest {
  return { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json), timeoutMs };
}

function leaseAnswer(response: { status: number; body: Uint8Array; truncated: boolean }, success: number, asked: string): LeaseAnswer {
  const body = response.truncated ? undefined : jsonObjectOf(response.body);
  if (response.status === success && typeof body?.['lease_id'] === 'string' && typeof body['expires_at'] === 'string') {
    return { kind: 'granted', grant: { id: body['lease_id'], holder: String(body['holder'] ?? ''), expiresAt: body['expires_at'] } };
  }
  if (response.status === 409 && body?.['code'] === 'CONTROL_BUSY') {
    // The target's words, kept short: they reach every report form.
    return { kind: 'busy', holder: typeof body['holder'] === 'string' ? body['holder'].slice(0, LEASE.holderMaxLength) : 'another client', expiresAt: typeof body['expires_at'] === 'string' ? body['expires_at'].slice(0, 40) : 'a time it did not say' };
  }
  return { kind: 'odd', what: `${asked} answered ${response.status}${typeof body?.['code'] === 'string' ? ` ${body['code']}` : ''}` };
}

