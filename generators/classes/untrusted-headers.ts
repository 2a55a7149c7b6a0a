// untrustedHeaders: request headers a client may send that a target must not
// trust for anything it writes or checks (class http.untrusted-headers): the
// forwarding headers of proxies (X-Forwarded-*, Forwarded, X-Original-Host),
// and a Host header naming another host than the one the client reached.
// None comes from a proxy of the target's, so none may change the URIs it
// writes or the @authority it verifies a signature against; a foreign Host may
// also be refused.
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

/** How a Host header is written against the target's own authority. */
const HOST_FORMS = ['other-host', 'other-port', 'ipv6-literal', 'letter-case', 'trailing-dot'] as const;
type HostForm = (typeof HOST_FORMS)[number];

/** A generated Host form, resolved against the target's authority once it is known (foreignHost). */
export interface HostChoice {
  readonly form: HostForm;
  readonly pick: number;
}

/** A Host header value for a request to a target. */
export interface ForeignHost {
  readonly host: string;
  /**
   * Whether it names another host. Its host on another port, in other letter
   * case or with a trailing dot names the target's own host: a signature made
   * for it is not one made for another host.
   */
  readonly foreign: boolean;
}

export function hostChoice(): fc.Arbitrary<HostChoice> {
  return fc.record({ form: fc.constantFrom(...HOST_FORMS), pick: fc.nat() });
}

/**
 * The Host header `choice` gives against the target's `authority` (host[:port]):
 * another host on the same port, the same host on another port, an IPv6
 * literal of the documentation prefix (RFC 3849), the host in other letter
 * case, or with a trailing dot.
 */
export function foreignHost(authority: string, choice: HostChoice): ClassValue<ForeignHost> {
  const url = new URL(`https://${authority}`);
  const port = url.port === '' ? '' : `:${url.port}`;
  const at = (host: string, foreign: boolean, note: string): ClassValue<ForeignHost> => ({ class: 'http.untrusted-headers', value: { host, foreign }, note: `Host: ${host} (${note}; the target is ${authority})` });
  switch (choice.form) {
    case 'other-host':
      return at(`${HOSTS[choice.pick % HOSTS.length]!.replace(/:\d+$/, '')}${port}`, true, 'another host');
    case 'other-port': {
      const own = Number(url.port || '443');
      // The same host: a front server of the target's own may listen on another port, so it names no other host.
      return at(`${url.hostname}:${own === 65535 ? 1 : own + 1 + (choice.pick % 7)}`, false, 'its host on another port');
    }
    case 'ipv6-literal':
      return at(`[2001:db8::${((choice.pick % 0xfffe) + 1).toString(16)}]${port}`, true, 'an IPv6 literal');
    case 'letter-case':
    case 'trailing-dot': {
      const [host, how] = ownHostOtherwise(url.hostname, choice);
      return at(`${host}${port}`, false, how);
    }
  }
}

/**
 * The target's own host written another way: in other letter case, or with a
 * trailing dot (a host without letters); an IPv6 address written in full.
 */
function ownHostOtherwise(hostname: string, choice: HostChoice): [string, string] {
  if (hostname.startsWith('[')) return [`[${expandIpv6(hostname.slice(1, -1))}]`, 'its IPv6 address written in full'];
  const flipped = [...hostname].map((ch, i) => ((i + choice.pick) % 2 === 0 ? ch.toUpperCase() : ch.toLowerCase())).join('');
  const cased = flipped === hostname ? hostname.toUpperCase() : flipped;
  if (choice.form === 'letter-case' && cased !== hostname) return [cased, 'its host in other letter case'];
  return [`${hostname}.`, 'its host with a trailing dot'];
}

/** Eight groups of four hex digits, from the compressed form a URL parser writes. */
function expandIpv6(address: string): string {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => g.padStart(4, '0')).join(':');
}
