import { describe, expect, it } from 'vitest';
import { encodeB64url } from '../../profile/index.ts';
import { MAX_INLINE_URI_BYTES, buildInlineUri, buildQrUri, parseDeliveryUri, retrievalUrl } from '../../profile/cpr/index.ts';

const TOKEN = '0123456789abcdef0123456789abcdef';
const BASE = 'https://pay.example.com:8443';
const b64 = (text: string) => encodeB64url(new TextEncoder().encode(text));
const CPR = { cpr_version: 'CPR-1.0', memo: 'Café ☕ 😀', value: { amount: '1' } };

describe('token URIs (QR and deep link)', () => {
  it.each([BASE, 'https://127.0.0.1:9443', 'https://[::1]:8443', 'https://pay.example.com/merchants/7', 'https://pay.example.com'])(
    'round-trips the endpoint %s',
    (endpoint) => {
      const uri = buildQrUri(TOKEN, endpoint);
      expect(uri).toBe(`std-cpr://${TOKEN}?endpoint=${encodeURIComponent(endpoint)}`);
      expect(parseDeliveryUri(uri)).toEqual({ kind: 'token', token: TOKEN, endpoint });
    },
  );

  it('accepts tokens of 32 to 128 lower-case hex digits', () => {
    for (const token of ['a'.repeat(32), 'f0'.repeat(64)]) {
      expect(parseDeliveryUri(buildQrUri(token, BASE))).toMatchObject({ kind: 'token', token });
    }
  });

  it('ignores other query parameters', () => {
    const uri = `std-cpr://${TOKEN}?v=1&endpoint=${encodeURIComponent(BASE)}&lang`;
    expect(parseDeliveryUri(uri)).toEqual({ kind: 'token', token: TOKEN, endpoint: BASE });
  });

  it('retrieves from <endpoint>/cpr/<token>', () => {
    expect(retrievalUrl(BASE, TOKEN)).toBe(`${BASE}/cpr/${TOKEN}`);
  });

  it('refuses to build a URI the profile forbids', () => {
    expect(() => buildQrUri(TOKEN.toUpperCase(), BASE)).toThrow(TypeError);
    expect(() => buildQrUri(TOKEN, 'http://pay.example.com')).toThrow(TypeError);
    expect(() => buildQrUri(TOKEN, `${BASE}/`)).toThrow(TypeError);
  });
});

describe('inline URIs', () => {
  it('round-trips the UTF-8 JSON of a CPR as strict base64url', () => {
    const uri = buildInlineUri(CPR);
    expect(uri).toBe(`std-cpr://inline/${b64(JSON.stringify(CPR))}`);
    const parsed = parseDeliveryUri(uri);
    expect(parsed.kind).toBe('inline');
    expect(parsed.kind === 'inline' && JSON.parse(parsed.json)).toEqual(CPR);
  });

  it('builds nothing for a request too large for 2 048 bytes', () => {
    expect(buildInlineUri({ memo: 'x'.repeat(1600) })).toBeUndefined();
  });

  it('accepts exactly 2 048 bytes', () => {
    const prefix = 'std-cpr://inline/';
    const uri = prefix + 'A'.repeat(MAX_INLINE_URI_BYTES - prefix.length);
    expect(uri).toHaveLength(2048);
    expect(parseDeliveryUri(uri).kind).toBe('inline');
  });
});

const ENDPOINT = encodeURIComponent(BASE);
const INLINE = b64('{"a":1}'); // eyJhIjoxfQ
// Valid JSON whose base64url holds '-' and '_', the characters standard base64 writes '+' and '/'.
const WITH_DASH = b64('{"a":">>>"}');
const WITH_UNDERSCORE = b64('{"a":"???"}');

describe('malformed delivery URIs are URI_INVALID', () => {
  it.each([
    ['not a string', 42],
    ['another scheme', `cpr://${TOKEN}?endpoint=${ENDPOINT}`],
    ['an https URL', `${BASE}/cpr/${TOKEN}`],
    ['an upper-case scheme', `STD-CPR://${TOKEN}?endpoint=${ENDPOINT}`],
    ['an upper-case token', `std-cpr://${TOKEN.toUpperCase()}?endpoint=${ENDPOINT}`],
    ['a 31-digit token', `std-cpr://${TOKEN.slice(1)}?endpoint=${ENDPOINT}`],
    ['a 129-digit token', `std-cpr://${'a'.repeat(129)}?endpoint=${ENDPOINT}`],
    ['a token with a non-hex digit', `std-cpr://${TOKEN.slice(1)}g?endpoint=${ENDPOINT}`],
    ['a token with a path', `std-cpr://${TOKEN}/x?endpoint=${ENDPOINT}`],
    ['no query', `std-cpr://${TOKEN}`],
    ['no endpoint parameter', `std-cpr://${TOKEN}?url=${ENDPOINT}`],
    ['two endpoint parameters', `std-cpr://${TOKEN}?endpoint=${ENDPOINT}&endpoint=${ENDPOINT}`],
    ['an empty endpoint', `std-cpr://${TOKEN}?endpoint=`],
    ['an http endpoint', `std-cpr://${TOKEN}?endpoint=${encodeURIComponent('http://pay.example.com')}`],
    ['a relative endpoint', `std-cpr://${TOKEN}?endpoint=${encodeURIComponent('/merchants/7')}`],
    ['an endpoint without //', `std-cpr://${TOKEN}?endpoint=${encodeURIComponent('https:pay.example.com')}`],
    ['an endpoint with a query', `std-cpr://${TOKEN}?endpoint=${encodeURIComponent(`${BASE}?shop=7`)}`],
    ['an endpoint with a fragment', `std-cpr://${TOKEN}?endpoint=${encodeURIComponent(`${BASE}#top`)}`],
    ['an endpoint with a trailing slash', `std-cpr://${TOKEN}?endpoint=${encodeURIComponent(`${BASE}/`)}`],
    ['an endpoint with white space', `std-cpr://${TOKEN}?endpoint=${encodeURIComponent(` ${BASE}`)}`],
    ['broken percent-encoding', `std-cpr://${TOKEN}?endpoint=https%3A%2F%2Fpay%E0%A4%A`],
    ['a fragment', `std-cpr://${TOKEN}?endpoint=${ENDPOINT}#x`],
    ['inline with padding', `std-cpr://inline/${b64('{"a":12}')}=`],
    ['inline with +', `std-cpr://inline/${WITH_DASH.replace('-', '+')}`],
    ['inline with /', `std-cpr://inline/${WITH_UNDERSCORE.replace('_', '/')}`],
    ['inline with non-zero trailing bits', `std-cpr://inline/${INLINE.slice(0, -1)}R`],
    ['inline of impossible length', `std-cpr://inline/${INLINE}AAA`],
    ['inline with white space', `std-cpr://inline/${INLINE.slice(0, 4)} ${INLINE.slice(4)}`],
    ['inline with an empty payload', 'std-cpr://inline/'],
    ['inline that is not UTF-8', `std-cpr://inline/${encodeB64url(Uint8Array.of(0x7b, 0xff, 0x7d))}`],
    ['inline of 2 049 bytes', `std-cpr://inline/${'A'.repeat(2049 - 'std-cpr://inline/'.length)}`],
  ])('rejects %s', (_what, uri) => {
    const parsed = parseDeliveryUri(uri);
    expect(parsed).toMatchObject({ kind: 'error', code: 'URI_INVALID' });
    expect(parsed.kind === 'error' && parsed.reason.length).toBeGreaterThan(0);
  });

  it('uses test inputs that differ from a valid form only where intended', () => {
    // Guards the table: the characters it relies on really occur.
    expect(WITH_DASH).toContain('-');
    expect(WITH_UNDERSCORE).toContain('_');
    expect(INLINE.at(-1)).not.toBe('R');
    expect(`${INLINE}AAA`.length % 4).toBe(1);
    for (const payload of [INLINE, WITH_DASH, WITH_UNDERSCORE]) expect(parseDeliveryUri(`std-cpr://inline/${payload}`).kind).toBe('inline');
  });
});
