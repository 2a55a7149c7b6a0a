// Legal base URLs of a payee (PROFILE.md §8.1): absolute https, without query,
// fragment or trailing slash, in every form RFC 3986 allows that an honest
// implementation may advertise:
// - hosts: DNS names (in any letter case), IPv4 addresses, IPv6 literals in
//   full, compressed and mixed-case forms and with an embedded IPv4 address
//   (no zone identifiers: RFC 3986 has none);
// - an optional port;
// - a path of zero to four segments made of unreserved characters, the
//   sub-delimiters ! $ & ' ( ) * + , ; =, ":" and "@", and percent-encoded UTF-8
//   (spaces, non-ASCII text) with upper- or lower-case hex digits. A segment is
//   never "." or "..", and the path never ends with "/".
// With `hosts: 'loopback'` the host is one of this machine's loopback names
// (localhost, 127.0.0.1, and with `ipv6: true` ::1 in several spellings), so a
// test can serve the URL; `port` then fixes the port.
import fc from 'fast-check';

export type BaseUrlHostKind = 'dns' | 'ipv4' | 'ipv6';

export interface LegalBaseUrl {
  /** The base URL as a payee advertises it. */
  readonly url: string;
  readonly hostKind: BaseUrlHostKind;
  /** The host as written in the URL (IPv6 in brackets). */
  readonly host: string;
  readonly port?: number;
  /** The path as written, '' or `/segment...`. */
  readonly path: string;
}

export interface BaseUrlConstraints {
  /** Which hosts: any DNS name, IPv4 or IPv6 address, or only loopback ones a test can listen on. @defaultValue 'any' */
  readonly hosts?: 'any' | 'loopback';
  /** With `hosts: 'loopback'`: include ::1 (the machine has an IPv6 loopback). @defaultValue true */
  readonly ipv6?: boolean;
  /** Always this port (a test server's); otherwise none or any of 1..65535. */
  readonly port?: number;
}

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
const SUB_DELIMS = "!$&'()*+,;=";

/** One byte or character, written as a path segment may write it. */
const pathPart = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...UNRESERVED) },
  { weight: 3, arbitrary: fc.constantFrom(...SUB_DELIMS, ':', '@') },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.oneof(fc.constant(' '), fc.constantFrom('é', 'ü', '€', '😀', '中'), fc.constantFrom(...UNRESERVED, ...SUB_DELIMS, '/', '?', '#', '%', '"')), fc.boolean())
      .map(([c, lower]) => {
        const encoded = encodeURIComponent(c).replace(/[!'()*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`);
        const pct = encoded.startsWith('%') ? encoded : `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
        return lower ? pct.toLowerCase() : pct;
      }),
  },
);

const segment = fc
  .array(pathPart, { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(''))
  .filter((s) => !/^(\.|%2e)+$/i.test(s));

/** Letters of a host in random case: DNS names and IPv6 hex digits are case-insensitive. */
const anyCase = (text: string) => fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

/** The IPv6 loopback ::1 in brackets, in the spellings RFC 4291 §2.2 allows: one address, written five ways. */
export const IPV6_LOOPBACK = ['[::1]', '[0:0:0:0:0:0:0:1]', '[0::1]', '[::0:1]', '[0000:0000:0000:0000:0000:0000:0000:0001]'] as const;

function hostArbitrary(hosts: 'any' | 'loopback', ipv6: boolean): fc.Arbitrary<{ host: string; hostKind: BaseUrlHostKind }> {
  if (hosts === 'loopback') {
    return fc.oneof(
      fc.constantFrom('localhost', 'LocalHost').map((host) => ({ host, hostKind: 'dns' as const })),
      fc.constant({ host: '127.0.0.1', hostKind: 'ipv4' as const }),
      ...(ipv6 ? [fc.constantFrom(...IPV6_LOOPBACK).map((host) => ({ host, hostKind: 'ipv6' as const }))] : []),
    );
  }
  return fc.oneof(
    fc.domain().chain(anyCase).map((host) => ({ host, hostKind: 'dns' as const })),
    fc.ipV4().map((host) => ({ host, hostKind: 'ipv4' as const })),
    fc.ipV6().chain(anyCase).map((host) => ({ host: `[${host}]`, hostKind: 'ipv6' as const })),
  );
}

/** Legal base URLs (see the header); bad constraints throw a RangeError here, not when sampled. */
export function legalBaseUrl(constraints: BaseUrlConstraints = {}): fc.Arbitrary<LegalBaseUrl> {
  const { hosts = 'any', ipv6 = true, port } = constraints;
  if (hosts !== 'any' && hosts !== 'loopback') throw new RangeError(`legalBaseUrl: constraints.hosts must be 'any' or 'loopback', got ${String(hosts)}`);
  if (typeof ipv6 !== 'boolean') throw new RangeError(`legalBaseUrl: constraints.ipv6 must be a boolean, got ${String(ipv6)}`);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65_535)) throw new RangeError(`legalBaseUrl: constraints.port must be 1..65535, got ${String(port)}`);
  const ports = port !== undefined ? fc.constant(port) : fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined });
  return fc.tuple(hostArbitrary(hosts, ipv6), ports, fc.array(segment, { maxLength: 4 })).map(([{ host, hostKind }, p, segments]) => {
    const path = segments.map((s) => `/${s}`).join('');
    return { url: `https://${host}${p === undefined ? '' : `:${p}`}${path}`, hostKind, host, ...(p !== undefined ? { port: p } : {}), path };
  });
}
