// Legal base URLs (generators/base-url.ts): every one is an RFC 3986 https URI
// without query, fragment or trailing slash (checked by the grammar itself, not
// by a URL parser), every class of host and path character is reached, and bad
// constraints throw when the arbitrary is built.
import { isIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legalBaseUrl, type LegalBaseUrl } from '../../generators/index.ts';
import { endpointProblem } from '../../profile/cpr/index.ts';

const RUNS = { seed: 20261125, numRuns: 400 };

// RFC 3986 §3: pchar, reg-name, IPv4address, port; IP-literal checked with node:net.
const PCT = '%[0-9A-Fa-f]{2}';
const SEGMENT = `(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|${PCT})*`;
const REG_NAME = `(?:[A-Za-z0-9\\-._~!$&'()*+,;=]|${PCT})*`;
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const GRAMMAR = new RegExp(`^https://(\\[([0-9A-Fa-f:.]+)\\]|${DEC_OCTET}(?:\\.${DEC_OCTET}){3}|${REG_NAME})(?::[0-9]*)?((?:/${SEGMENT})*)$`);

function legal(b: LegalBaseUrl): boolean {
  const m = GRAMMAR.exec(b.url);
  return m !== null && (m[2] === undefined || isIPv6(m[2])) && !b.url.endsWith('/');
}

describe('legalBaseUrl', () => {
  it('gives RFC 3986 https URIs without query, fragment or trailing slash, which the profile\'s base URL rule accepts', () => {
    fc.assert(
      fc.property(legalBaseUrl(), (b) => {
        expect(legal(b), b.url).toBe(true);
        expect(endpointProblem(b.url), b.url).toBeUndefined();
        expect(b.url).toBe(`https://${b.host}${b.port === undefined ? '' : `:${b.port}`}${b.path}`);
      }),
      RUNS,
    );
  });

  it('reaches every host kind and every class of path character', () => {
    const samples = fc.sample(legalBaseUrl(), { seed: 7, numRuns: 600 });
    expect(new Set(samples.map((b) => b.hostKind))).toEqual(new Set(['dns', 'ipv4', 'ipv6']));
    const paths = samples.map((b) => b.path).join('');
    for (const [what, pattern] of [
      ['a sub-delimiter', /[!$&'()*+,;=]/],
      ['":" and "@"', /[:@]/],
      ['an encoded space', /%20/],
      ['encoded UTF-8', /%[CDEF][0-9A-F]%[89AB][0-9A-F]/i],
      ['lower-case hex', /%[0-9a-f]*[a-f][0-9a-f]*/],
    ] as const) {
      expect(pattern.test(paths), what).toBe(true);
    }
    expect(samples.some((b) => b.host.includes('::')), 'a compressed IPv6 address').toBe(true);
    expect(samples.some((b) => b.port === undefined) && samples.some((b) => b.port !== undefined)).toBe(true);
  });

  it('with hosts: loopback, names only loopback hosts, and the port given', () => {
    fc.assert(
      fc.property(legalBaseUrl({ hosts: 'loopback', port: 8443 }), (b) => {
        expect(['localhost', '127.0.0.1', '::1']).toContain(new URL(b.url).hostname.replace(/^\[|\]$/g, ''));
        expect(b.port).toBe(8443);
        expect(legal(b), b.url).toBe(true);
      }),
      RUNS,
    );
    expect(fc.sample(legalBaseUrl({ hosts: 'loopback', ipv6: false }), { seed: 1, numRuns: 200 }).every((b) => b.hostKind !== 'ipv6')).toBe(true);
  });

  it.each([[{ hosts: 'remote' }], [{ ipv6: 'yes' }], [{ port: 0 }], [{ port: 70_000 }], [{ port: 1.5 }]])('refuses %j when built', (constraints) => {
    expect(() => legalBaseUrl(constraints as never)).toThrow(RangeError);
  });
});
