// The target's side of the test-control interface (PROFILE.md §12): the bearer
// token goes on /_control/ requests only, and capability discovery asks
// GET /_control/capabilities. An implementation without the interface is still
// certifiable: no answer but 200 means no capabilities, never an error (an
// answer other than 200 or 404 is noted in the report).
import { interceptSend } from '../adapters/intercept.ts';
import { TransportError, type HttpRole, type WireRequest } from '../adapters/types.ts';
import { CAPABILITIES, type Capability } from '../../profile/control.ts';
import { profileNotice } from '../../profile/version.ts';
import { answeredDocument, POLICY_PATH, type TargetFacts } from './facts.ts';
import type { Target } from './target.ts';

const CONTROL_PREFIX = '/_control/';

/** The role, with `Authorization: Bearer <token>` added to control requests that carry none. */
export function withControlToken(role: HttpRole, token: string): HttpRole {
  const send = (request: WireRequest) => {
    const headers = request.headers ?? {};
    const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
    if (!request.path.startsWith(CONTROL_PREFIX) || hasAuthorization) return role.send(request);
    return role.send({ ...request, headers: { ...headers, authorization: `Bearer ${token}` } });
  };
  return interceptSend(role, send);
}

/** What capability discovery found, and, when the answer was not a plain list or a 404, what was odd about it. */
export interface Discovery {
  readonly capabilities: Set<Capability>;
  readonly note?: string;
}

/**
 * GET /_control/capabilities: 200 gives its list (unknown names dropped), any
 * other status an empty set. A 404 is a target without the interface; any
 * other answer (an error status, a body that is not the list) is said in
 * `note`, so the report can say why the capabilities are none.
 * A TransportError is thrown: the role did not answer.
 */
export async function discoverCapabilities(role: HttpRole, timeoutMs: number): Promise<Discovery> {
  const response = await role.send({ method: 'GET', path: `${CONTROL_PREFIX}capabilities`, headers: { accept: 'application/json' }, timeoutMs });
  const asked = `GET ${CONTROL_PREFIX}capabilities`;
  if (response.status === 404) return { capabilities: new Set() };
  if (response.status === 401 || response.status === 403) {
    return { capabilities: new Set(), note: `${asked} answered ${response.status}: the control token was refused or missing (give it with --control-token-env NAME for a --target URL, or control.token_env in the target file); treated as no test-control capabilities` };
  }
  if (response.status !== 200) return { capabilities: new Set(), note: `${asked} answered ${response.status}; treated as no test-control capabilities` };
  const listed = response.truncated ? undefined : jsonObjectOf(response.body)?.['capabilities'];
  if (!Array.isArray(listed)) return { capabilities: new Set(), note: `${asked} answered 200 without a JSON object whose "capabilities" is a list; treated as no test-control capabilities` };
  return { capabilities: new Set(CAPABILITIES.filter((c) => listed.includes(c))) };
}

/** GET /_control/payee/config's plaintext_base_url, when the payee offers one. */
export async function discoverPlaintextUrl(role: HttpRole, timeoutMs: number): Promise<string | undefined> {
  const response = await role.send({ method: 'GET', path: `${CONTROL_PREFIX}payee/config`, headers: { accept: 'application/json' }, timeoutMs });
  if (response.status !== 200 || response.truncated) return undefined;
  const url = jsonObjectOf(response.body)?.['plaintext_base_url'];
  return typeof url === 'string' && isPlaintextBase(url) ? url : undefined;
}

/** An absolute http URL without credentials, query, fragment or trailing slash: a host, a port and a path are all a base URL may have (PROFILE.md §8.1). */
function isPlaintextBase(url: string): boolean {
  if (!/^http:\/\/[^\s?#]+$/i.test(url) || url.endsWith('/')) return false;
  try {
    const parsed = new URL(url);
    return parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

// ---- Which profile version the target says it implements ----
//
// The policy document's `profile` (PROFILE.md §4.8) and capability discovery's
// (§12). One that is not this harness's is worth a line in the report saying
// which rules changed since (profile/version.ts), whatever the tests then find;
// it is a note, never a result (the policy's own scenario judges the
// identifier, under PRF-WK-1).

/** The places a role names its profile, read in this order. */
const SOURCES = [
  { role: 'operator', path: POLICY_PATH, what: 'policy document' },
  { role: 'operator', path: '/_control/capabilities', what: 'capability discovery' },
  { role: 'payee', path: '/_control/capabilities', what: 'capability discovery' },
] as const;

/**
 * "the operator's policy document names CPP-PROFILE-1.0 (2026-11-21), an
 * earlier version ...", one sentence per identifier the target advertises that
 * is not this profile's; nothing when every one is (or none can be read: an
 * unreadable policy is its own tests' business).
 */
export async function profileNoticeOf(target: Pick<Target, 'payee' | 'operator' | 'capabilities'>, timeoutMs: number, facts: TargetFacts): Promise<string | undefined> {
  const seen = new Map<unknown, string[]>();
  const asked = new Set<string>();
  for (const source of SOURCES) {
    const role = target[source.role];
    if (!role || (source.path.startsWith('/_control/') && target.capabilities[source.role].size === 0)) continue;
    // One origin answers once for both roles.
    const key = `${role.baseUrl ?? role.description} ${source.path}`;
    if (asked.has(key)) continue;
    asked.add(key);
    // The policy document is a fact read once when the target opened (facts.ts).
    const named = source.path === POLICY_PATH ? profileOf(answeredDocument(facts.operator?.policy)) : await advertised(role, source.path, timeoutMs);
    if (named === undefined || profileNotice(named) === undefined) continue;
    seen.set(named, [...(seen.get(named) ?? []), `the ${source.role}'s ${source.what}`]);
  }
  if (seen.size === 0) return undefined;
  return [...seen].map(([named, where]) => `${where.join(' and ')} name${where.length === 1 ? 's' : ''} another profile: ${profileNotice(named)}`).join('; ');
}

function profileOf(document: unknown): unknown {
  return typeof document === 'object' && document !== null && !Array.isArray(document) ? (document as Record<string, unknown>)['profile'] : undefined;
}

/** The `profile` member of a JSON answer, when there is one. */
async function advertised(role: HttpRole, path: string, timeoutMs: number): Promise<unknown> {
  try {
    const response = await role.send({ method: 'GET', path, headers: { accept: 'application/json' }, timeoutMs });
    if (response.status !== 200 || response.truncated) return undefined;
    return jsonObjectOf(response.body)?.['profile'];
  } catch (error) {
    // The preflight found the role answering; a later silence shows in the tests.
    if (error instanceof TransportError) return undefined;
    throw error;
  }
}

/** A JSON object's members, or nothing when the body is not one. */
export function jsonObjectOf(body: Uint8Array): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(body));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
