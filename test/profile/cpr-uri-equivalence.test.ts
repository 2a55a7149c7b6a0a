// URIs compared as URIs (RFC 3986 §6.2), and a token URI compared with the one a
// payee's base URL gives (spec §4.4; PROFILE.md §8.1): every legal base URL and
// every equivalent spelling passes, every wrong URI fails, and says where.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legalBaseUrl, type LegalBaseUrl } from '../../generators/index.ts';
import { buildQrUri, compareTokenUri, normalizeUri, parseDeliveryUri, retrievalUrl, sameUri } from '../../profile/cpr/index.ts';

const RUNS = { seed: 20261125, numRuns: 300 };
const HEX = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 64 });
const qr = (token: string, endpoint: string) => `std-cpr://${token}?endpoint=${encodeURIComponent(endpoint)}`;

describe('sameUri (RFC 3986 §6.2.2, §6.2.3)', () => {
  it.each([
    ['HTTPS://Example.COM/a', 'https://example.com/a'],
    ['https://h/%7e%7E', 'https://h/~~'],
    ['https://h/a%2f', 'https://h/a%2F'],
    ['https://h/%41', 'https://h/A'],
    ['https://[::1]:8443', 'https://[0:0:0:0:0:0:0:1]:8443'],
    ['https://[0::1]', 'https://[0000:0000:0000:0000:0000:0000:0000:0001]'],
    ['https://[::FFFF:1.2.3.4]', 'https://[::ffff:102:304]'],
    ['https://[2001:DB8::]', 'https://[2001:db8:0:0:0:0:0:0]'],
    ['https://h:443/x', 'https://h/x'],
    ['https://h:/x', 'https://h/x'],
    ['https://h:08443', 'https://h:8443'],
    ['https://h', 'https://h/'],
    ['https://h/a/./b/../c', 'https://h/a/c'],
    ['https://h/caf\u00e9', 'https://h/caf%C3%A9'],
  ])('%s is %s', (a, b) => {
    expect(sameUri(a, b)).toBe(true);
  });

  it.each([
    ['https://h/a/b', 'https://h/a%2Fb', 'a reserved character is not its encoding'],
    ['https://h/acme(eu)', 'https://h/acme%28eu%29', 'sub-delimiters are reserved too'],
    ['https://h/A', 'https://h/a', 'a path is case-sensitive'],
    ['https://h:8443', 'https://h', 'a port that is not the default'],
    ['https://h', 'http://h', 'another scheme'],
    ['https://[::1]', 'https://[::2]', 'another address'],
    ['https://h/shops/acme%20gmbh', 'https://h/shops/acme+gmbh', 'a plus is no space'],
  ])('%s is not %s: %s', (a, b) => {
    expect(sameUri(a, b)).toBe(false);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(legalBaseUrl(), (b) => {
        expect(normalizeUri(normalizeUri(b.url))).toBe(normalizeUri(b.url));
      }),
      RUNS,
    );
  });
});

/** Another spelling of the same base URL (RFC 3986 §6.2.2, §6.2.3), or undefined when this one has none of that kind. */
const SPELLINGS: Readonly<Record<string, (b: LegalBaseUrl) => string | undefined>> = {
  'upper-case scheme and host': (b) => (b.hostKind === 'ipv4' ? undefined : `HTTPS://${b.host.toUpperCase()}${b.port === undefined ? '' : `:${b.port}`}${b.path}`),
  'the default port written out': (b) => (b.port === undefined ? `https://${b.host}:443${b.path}` : undefined),
  'IPv6 written in full': (b) => (b.hostKind === 'ipv6' ? b.url.replace(b.host, `[${expandIpv6(b.host.slice(1, -1))}]`) : undefined),
  'percent-encoding hex in the other case': (b) => (/%[0-9A-Fa-f]{2}/.test(b.path) ? b.url.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => `%${h === h.toUpperCase() ? h.toLowerCase() : h.toUpperCase()}`) : undefined),
  'an unreserved character percent-encoded': (b) => (/\/[A-Za-z]/.test(b.path) ? b.url.replace(/(\/)([A-Za-z])(?=[^/]*$)/, (_m, s: string, c: string) => `${s}%${c.charCodeAt(0).toString(16).toUpperCase()}`) : undefined),
};

/** Every group of an IPv6 address written out (RFC 4291 §2.2 form 1), an embedded IPv4 address kept. */
function expandIpv6(text: string): string {
  const [left, right] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const l = groups(left);
  const r = groups(right);
  const width = (g: string[]) => g.reduce((n, x) => n + (x.includes('.') ? 2 : 1), 0);
  const fill = right === undefined ? [] : Array<string>(8 - width(l) - width(r)).fill('0000');
  return [...l, ...fill, ...r].map((g) => (g.includes('.') ? g : g.padStart(4, '0'))).join(':');
}

/** A wrong endpoint for the base URL, or undefined when this base URL cannot show the fault. */
const WRONG_ENDPOINTS: Readonly<Record<string, (b: LegalBaseUrl) => string | undefined>> = {
  'the base path dropped': (b) => (b.path === '' ? undefined : b.url.slice(0, b.url.length - b.path.length)),
  'another host': (b) => b.url.replace(b.host, b.hostKind === 'dns' ? 'elsewhere.example' : '192.0.2.77'),
  'another port': (b) => `https://${b.host}:${((b.port ?? 443) % 65_535) + 1}${b.path}`,
  'a trailing slash': (b) => `${b.url}/`,
  'a reserved character percent-encoded': (b) =>
    /[!$&'()*+,;=:@]/.test(b.path) ? b.url.slice(0, b.url.length - b.path.length) + b.path.replace(/[!$&'()*+,;=:@]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) : undefined,
};

describe('compareTokenUri', () => {
  it('passes the URI a payee builds from any legal base URL (IPv6, ports, sub-delimiters, percent-encoded UTF-8 and spaces)', () => {
    fc.assert(
      fc.property(legalBaseUrl(), HEX, (b, token) => {
        const c = compareTokenUri(buildQrUri(token, b.url), token, b.url);
        expect(c).toEqual({ expected: qr(token, b.url), endpoint: b.url, form: [], encoding: [] });
      }),
      RUNS,
    );
  });

  it('passes every other spelling of the same base URL, and of the same percent-encoding', () => {
    fc.assert(
      fc.property(legalBaseUrl(), HEX, fc.constantFrom(...Object.keys(SPELLINGS)), fc.boolean(), (b, token, kind, lowerHex) => {
        const spelled = SPELLINGS[kind]!(b);
        fc.pre(spelled !== undefined);
        expect(sameUri(spelled!, b.url), `${kind}: ${spelled}`).toBe(true);
        // encodeURIComponent's output with lower-case hex, and its five leftovers ! ' ( ) * encoded too: the same value to every decoder.
        const value = encodeURIComponent(spelled!).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
        const uri = `std-cpr://${token}?endpoint=${lowerHex ? value.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) : value}`;
        expect(compareTokenUri(uri, token, b.url), `${kind}: ${uri}`).toMatchObject({ form: [], encoding: [] });
      }),
      RUNS,
    );
  });

  it('fails the URI of a wrong endpoint, saying it is not the base URL', () => {
    fc.assert(
      fc.property(legalBaseUrl(), HEX, fc.constantFrom(...Object.keys(WRONG_ENDPOINTS)), (b, token, kind) => {
        const wrong = WRONG_ENDPOINTS[kind]!(b);
        fc.pre(wrong !== undefined);
        const c = compareTokenUri(qr(token, wrong!), token, b.url);
        expect(c.form, `${kind}: ${wrong}`).toHaveLength(1);
        expect(c.form[0]).toMatch(/^the endpoint ".*" (is not the base URL|is no base URL)/);
        expect(c.encoding).toEqual([]);
      }),
      RUNS,
    );
  });

  it('fails an endpoint written without percent-encoding as a PROFILE.md §8.1 departure, and what it breaks besides', () => {
    fc.assert(
      fc.property(legalBaseUrl(), HEX, (b, token) => {
        const c = compareTokenUri(`std-cpr://${token}?endpoint=${b.url}`, token, b.url);
        expect(c.encoding[0]).toMatch(/^the endpoint leaves ":", "\/".* unencoded, which encodeURIComponent percent-encodes$/);
        // Decoded once more than it was encoded, percent-encoded UTF-8 comes out as itself: not the URI the base URL is.
        // (An "&" in the path ends the parameter before any.)
        const utf8 = /%[89A-Fa-f][0-9A-Fa-f]/.test(b.path.split('&')[0]!);
        expect(c.encoding.slice(1)).toEqual(utf8 ? [expect.stringMatching(/^the endpoint decodes to ".*", with characters outside ASCII where the base URL/)] : []);
        // Decoded once more than it was encoded, a percent-encoded reserved or disallowed ASCII character (a space, "/", "$") is no longer
        // the base URL; encoded UTF-8 maps back to itself (RFC 3987 §3.1) and an encoded unreserved character is that character.
        const reservedAscii = [...b.path.matchAll(/%([0-9A-Fa-f]{2})/g)].some(([, h]) => Number.parseInt(h!, 16) < 0x80 && !/[A-Za-z0-9._~-]/.test(String.fromCharCode(Number.parseInt(h!, 16))));
        if (reservedAscii) expect(c.form).not.toEqual([]);
      }),
      RUNS,
    );
  });

  it.each([
    ['an upper-case token', (t: string, e: string) => qr(t.toUpperCase().replace(/^[0-9]*/, (d) => `${d}A`), e), /^the token is/],
    ['another scheme', (t: string, e: string) => qr(t, e).replace('std-cpr:', 'cpr:'), /^the scheme is "cpr"/],
    ['a path after the token', (t: string, e: string) => qr(t, e).replace('?', '/?'), /^there is a path "\/"/],
    ['a fragment', (t: string, e: string) => `${qr(t, e)}#x`, /^there is a fragment "x"/],
    ['no endpoint', (t: string) => `std-cpr://${t}?url=x`, /^the query holds 0 endpoint parameters/],
    ['two endpoints', (t: string, e: string) => `${qr(t, e)}&endpoint=${encodeURIComponent(e)}`, /^the query holds 2 endpoint parameters/],
    ['the endpoint encoded twice', (t: string, e: string) => qr(t, encodeURIComponent(e)), /^the endpoint "https%3A.*" is no base URL/],
    ['broken percent-encoding', (t: string) => `std-cpr://${t}?endpoint=https%3A%2F%2Fh%E0`, /is not valid percent-encoding of UTF-8/],
  ])('fails %s', (_what, build, reason) => {
    const token = 'ab'.repeat(16);
    const base = 'https://[::1]:8443/pay/acme(eu)';
    const c = compareTokenUri(build(token, base), token, base);
    expect(c.form.some((f) => reason.test(f)), JSON.stringify(c.form)).toBe(true);
  });

  it("fails an endpoint whose base URL's own escapes were decoded first: UTF-8 outside ASCII, a reserved character, a space", () => {
    const token = 'ef'.repeat(16);
    const decodedFirst = (base: string) => compareTokenUri(qr(token, decodeURI(base)), token, base);
    // Outside ASCII: the same resource to a parser that maps an IRI (RFC 3987), not the base URL as written.
    expect(decodedFirst('https://127.0.0.1:8443/p/%C3%A9;(1)')).toMatchObject({ form: [], encoding: [expect.stringMatching(/^the endpoint decodes to "https:\/\/127.0.0.1:8443\/p\/é;\(1\)", with characters outside ASCII/)] });
    // A reserved character and its encoding are different resources; a space is no URI at all.
    expect(decodedFirst('https://h/pay/acme%28eu%29').form).toEqual([expect.stringMatching(/is not the base URL/)]);
    expect(decodedFirst('https://h/shops/acme%20gmbh').form).toEqual([expect.stringMatching(/is no base URL/)]);
  });

  it('ignores query parameters other than endpoint, before or after it (PROFILE.md §8.1)', () => {
    const token = 'cd'.repeat(16);
    const base = 'https://127.0.0.1:8443/shops/acme%20gmbh';
    expect(compareTokenUri(`std-cpr://${token}?v=1&endpoint=${encodeURIComponent(base)}&lang=de`, token, base)).toMatchObject({ form: [], encoding: [] });
  });

  it('names a base URL the profile forbids', () => {
    const token = 'cd'.repeat(16);
    for (const base of ['https://payee.example/', 'http://payee.example', 'https://payee.example?x=1']) {
      expect(compareTokenUri(qr(token, base), token, base).encoding[0]).toMatch(/^the base URL .* breaks PROFILE\.md §8\.1/);
    }
  });
});

describe('a token URI resolves to <base URL>/cpr/<token> (PROFILE.md §8.1)', () => {
  it('for every legal base URL, as the paying application reads it', () => {
    fc.assert(
      fc.property(legalBaseUrl(), HEX, (b, token) => {
        const parsed = parseDeliveryUri(buildQrUri(token, b.url));
        expect(parsed).toEqual({ kind: 'token', token, endpoint: b.url });
        const url = new URL(retrievalUrl(b.url, token));
        // What a URL parser sends is the same URI: host, port and the path under the base path.
        expect(sameUri(url.href, `${b.url}/cpr/${token}`), url.href).toBe(true);
      }),
      RUNS,
    );
  });
});
