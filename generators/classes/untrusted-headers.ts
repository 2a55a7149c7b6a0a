// untrustedHeaders: request headers a client may send that a target must not
// trust for anything it writes or checks (class http.untrusted-headers): the
// forwarding headers of proxies (X-Forwarded-*, Forwarded, X-Original-Host).
// None comes from a proxy of the target's, so none may change the URIs it
// writes or the @authority it verifies a signature against.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export interface UntrustedHeaders {
  readonly headers: Readonly<Record<string, string>>;
  /** The host the headers claim. */
  readonly host: string;
}

const HOSTS = ['evil.example', 'pay.attacker.test', 'localhost.evil.example', '127.0.0.2', 'cpr-conformance.invalid:8443'];

export function untrustedHeaders(): fc.Arbitrary<ClassValue<UntrustedHeaders>> {
  return fc
    .tuple(fc.constantFrom(...HOSTS), fc.subarray(['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-prefix', 'forwarded', 'x-original-host', 'x-host'] as const, { minLength: 1 }))
    .map(([host, names]) => {
      const values: Record<string, string> = {
        'x-forwarded-host': host,
        'x-forwarded-proto': 'http',
        'x-forwarded-port': '80',
        'x-forwarded-prefix': '/evil',
        forwarded: `for=203.0.113.7;host=${host};proto=http`,
        'x-original-host': host,
        'x-host': host,
      };
      // The host is always claimed somewhere: a header set without one tests nothing about hosts.
      const chosen = names.some((n) => n !== 'x-forwarded-proto' && n !== 'x-forwarded-port' && n !== 'x-forwarded-prefix') ? names : [...names, 'x-forwarded-host' as const];
      const headers = Object.fromEntries(chosen.map((n) => [n, values[n]!]));
      return { class: 'http.untrusted-headers' as const, value: { headers, host }, note: `${chosen.join(', ')} claiming ${host}` };
    });
}
