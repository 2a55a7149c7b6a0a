// The harness's own paying application (the reference, embedded or named in a
// target file) follows a QR or deep-link endpoint only to the target's own hosts
// (reference/paying-app/hosts.ts; --allow-host widens the list): no server-side
// request forgery through a CPR URI. That refusal is the harness's configuration,
// never the target's conformance. So the harness decides it itself, from the
// allow-list it gave its application, before the application is asked: a test
// stopped there is a harness error, HARNESS_HOST_NOT_ALLOWED, naming the host and
// how to allow it. A paying application under test guards by its own rules, and
// is judged by what it does.
import { parseDeliveryUri, retrievalUrl } from '../../profile/cpr/index.ts';
import { hostAllowed, hostOf, type HostPattern } from '../../reference/paying-app/hosts.ts';
import type { HttpRole } from '../adapters/types.ts';
import type { Target } from './target.ts';

/** Why the harness's paying application may not follow `uri`; undefined when it may, or when the URI is no token URI (the application judges those). */
export function refusedDeliveryUri(uri: unknown, allowed: readonly HostPattern[]): string | undefined {
  const parsed = parseDeliveryUri(uri);
  if (parsed.kind !== 'token') return undefined;
  const url = urlOf(retrievalUrl(parsed.endpoint, parsed.token));
  if (url === undefined || hostAllowed(url, allowed)) return undefined;
  return `the endpoint ${parsed.endpoint} of this delivery URI ${refusal(url, allowed)}`;
}

/**
 * The same decision for the base URL the payee advertises (GET /_control/payee/config),
 * read once when the target opens, so that a mismatch is said before any test:
 * undefined when it is allowed, or cannot be read (its own scenarios judge that).
 */
async function refusedBaseUrl(payee: HttpRole, allowed: readonly HostPattern[], timeoutMs: number): Promise<string | undefined> {
  let baseUrl: unknown;
  try {
    const response = await payee.send({ method: 'GET', path: '/_control/payee/config', headers: { accept: 'application/json' }, timeoutMs });
    if (response.status !== 200 || response.truncated) return undefined;
    baseUrl = (JSON.parse(new TextDecoder().decode(response.body)) as { base_url?: unknown } | null)?.base_url;
  } catch {
    return undefined;
  }
  const url = typeof baseUrl === 'string' ? urlOf(baseUrl) : undefined;
  if (url === undefined || url.protocol !== 'https:' || hostAllowed(url, allowed)) return undefined;
  return `the payee advertises its base URL as ${String(baseUrl)}, which ${refusal(url, allowed)}; the tests that follow its QR and deep-link URIs stop there`;
}

/** refusedBaseUrl for an opened target, when its paying application is the harness's own and its payee offers test control. */
export function advertisedHostRefused(target: Target, timeoutMs = 3000): Promise<string | undefined> {
  if (target.hostGuard === undefined || target.payee === undefined || !target.capabilities.payee.has('provision')) return Promise.resolve(undefined);
  return refusedBaseUrl(target.payee, target.hostGuard, timeoutMs);
}

function refusal(url: URL, allowed: readonly HostPattern[]): string {
  const host = hostOf(url);
  return `is on ${host}, not one of the target's own hosts (${allowed.length === 0 ? 'none' : allowed.join(', ')}), the only ones the harness's paying application follows an endpoint to: not observed. If ${host} is the payee, name the payee by it in the target file, or allow it with --allow-host ${host}`;
}

function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
