import fc from 'fast-check';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { Agent, request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../profile/index.ts';
import { SUB_INTERFACES, decodeQrPng, inspectQrPng, isEvmAddress, parseDeliveryUri, retrievalUrl, validateCpr } from '../../profile/cpr/index.ts';
import { Clock } from '../../reference/clock.ts';
import { listen, type Listening } from '../../reference/http/server.ts';
import { createTlsMaterial } from '../../reference/tls.ts';
import { PayeeInputError, createPayee, renderQrPng, renderQrSvg, type CreatedRequest, type Payee } from '../../reference/payee/index.ts';

let secure: Listening;
let plain: Listening;
let ca: string;
let agent: Agent;
let clock: Clock;
let payee: Payee;

beforeAll(async () => {
  const tls = await createTlsMaterial();
  ca = tls.ca;
  agent = new Agent({ connect: { ca } });
  // The same handler on TLS and on plaintext, as a payee that listens on both would be.
  secure = await listen((r) => payee.handler(r), { tls });
  plain = await listen((r) => payee.handler(r));
});

afterAll(async () => {
  await agent.close();
  await Promise.all([secure.close(), plain.close()]);
});

beforeEach(() => {
  clock = new Clock();
  payee = createPayee({ clock, baseUrl: secure.url, plaintextBaseUrl: plain.url });
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
}

async function call(url: string, options: { method?: Dispatcher.HttpMethod; json?: unknown; dispatcher?: Dispatcher } = {}): Promise<Answer> {
  const res = await request(url, {
    method: options.method ?? 'GET',
    dispatcher: options.dispatcher ?? agent,
    ...(options.json !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(options.json) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

const retrieve = (created: CreatedRequest, base = secure.url) => call(retrievalUrl(base, created.token));
const control = (path: string, json?: unknown) => call(`${secure.url}/_control/payee${path}`, { method: json === undefined && path !== '/requests' ? 'GET' : 'POST', json });
const fulfil = (id: string) => call(`${secure.url}/_control/payee/requests/${id}/fulfil`, { method: 'POST' });

function expectProblem(answer: Answer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.body).toMatchObject({ status, code, type: `https://cpr-conformance.dev/problems/${code}` });
}

describe('GET /cpr/<token> over TLS', () => {
  it('serves the CPR once: 200, application/json, no-store, and a valid CPR', async () => {
    const created = await control('/requests', { sub_interface: 'IBAN', amount: '1999', memo: 'Invoice 42' });
    expect(created.status).toBe(201);
    const answer = await retrieve(created.body);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toEqual(created.body.cpr);
    expect(validateCpr(answer.body, { validitySeconds: 900 })).toMatchObject({ ok: true, subInterface: 'IBAN' });
  });

  it('answers a reused token 410 TOKEN_CONSUMED, with no-store', async () => {
    const created = await payee.createRequest({ sub_interface: 'ACCOUNT' });
    expect((await retrieve(created)).status).toBe(200);
    const again = await retrieve(created);
    expectProblem(again, 410, 'TOKEN_CONSUMED');
    expect(again.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown token 404 TOKEN_UNKNOWN', async () => {
    expectProblem(await call(`${secure.url}/cpr/${'ab'.repeat(16)}`), 404, 'TOKEN_UNKNOWN');
  });

  it.each([
    [299, 200],
    [300, 410],
    [301, 410],
  ])('with the clock %i s after issue answers %i (lifetime 300 s)', async (elapsed, status) => {
    clock.freeze();
    const created = await payee.createRequest({ sub_interface: 'INSTANT_KEY' });
    expect(parseTimestamp(created.token_expires_at)).toBe(clock.now() + 300_000);
    clock.advance(elapsed);
    const answer = await retrieve(created);
    if (status === 200) expect(answer.status).toBe(200);
    else expectProblem(answer, 410, 'TOKEN_EXPIRED');
  });

  it('lets exactly one of 20 concurrent retrievals on fresh connections succeed', async () => {
    const created = await payee.createRequest({ sub_interface: 'ON_CHAIN', amount: '2500000' });
    const agents = Array.from({ length: 20 }, () => new Agent({ connect: { ca } }));
    try {
      const answers = await Promise.all(agents.map((dispatcher) => call(retrievalUrl(secure.url, created.token), { dispatcher })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 410 && a.body.code === 'TOKEN_CONSUMED')).toHaveLength(19);
    } finally {
      await Promise.all(agents.map((a) => a.close()));
    }
  });

  it('answers plaintext 403 TLS_REQUIRED and burns the token', async () => {
    const created = await payee.createRequest({ sub_interface: 'IBAN' });
    const clear = await retrieve(created, plain.url);
    expectProblem(clear, 403, 'TLS_REQUIRED');
    expect(clear.headers['cache-control']).toBe('no-store');
    expectProblem(await retrieve(created), 410, 'TOKEN_CONSUMED');
  });

  it('answers other methods 405 with Allow, and other /cpr paths 404', async () => {
    const created = await payee.createRequest({ sub_interface: 'IBAN' });
    const post = await call(retrievalUrl(secure.url, created.token), { method: 'POST', json: {} });
    expectProblem(post, 405, 'METHOD_NOT_ALLOWED');
    expect(post.headers.allow).toBe('GET');
    expect((await retrieve(created)).status).toBe(200); // the POST did not consume it
    expectProblem(await call(`${secure.url}/cpr/${created.token}/extra`), 404, 'NOT_FOUND');
  });
});

describe('created requests', () => {
  it.each(SUB_INTERFACES)('produces a valid %s CPR with its top-level mirror', async (sub) => {
    const created = await payee.createRequest({ sub_interface: sub, amount: '100' });
    const result = validateCpr(created.cpr, { validitySeconds: 900 });
    expect(result).toMatchObject({ ok: true, subInterface: sub, notices: [] });
    for (const [field, value] of Object.entries(created.cpr.payee.rail_address)) expect(created.cpr[field as keyof typeof created.cpr]).toBe(value);
    expect(created.request_id).toBe(created.cpr.request_id);
    expect(parseTimestamp(created.cpr.expires_at)! - parseTimestamp(created.cpr.created_at)!).toBe(900_000);
  });

  it('uses an EIP-55 receiver address, a real IBAN with BIC, an ABA routing code and a Pix key', async () => {
    const cprs = await Promise.all(SUB_INTERFACES.map(async (s) => (await payee.createRequest({ sub_interface: s })).cpr));
    const [onChain, iban, account, key] = cprs.map((c) => c!.payee.rail_address);
    expect(isEvmAddress(onChain?.receiver_address) && /[a-f]/.test(onChain!.receiver_address!) && /[A-F]/.test(onChain!.receiver_address!)).toBe(true);
    expect(iban).toEqual({ iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });
    expect(account).toMatchObject({ routing_code_type: 'ABA' });
    expect(key).toMatchObject({ key_type: 'EVP' });
    expect(cprs.map((c) => c!.rail_hint)).toEqual(['ON_CHAIN', 'SEPA_CT', 'ACH', 'PIX']);
  });

  it('gives every request a new UUIDv4 request_id and a fresh 128-bit hex token', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, () => payee.createRequest({ sub_interface: 'IBAN' })));
    expect(new Set(created.map((c) => c.request_id)).size).toBe(10);
    expect(new Set(created.map((c) => c.token)).size).toBe(10);
    for (const c of created) {
      expect(c.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(c.token).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('keeps an open amount open and carries memo, rail_hint, display_name and extensions', async () => {
    const { cpr } = await payee.createRequest({ sub_interface: 'IBAN', memo: 'Table 7 😀', rail_hint: 'SEPA_INST', display_name: 'Café Sol', extensions: { 'std:tip': { allowed: true } } });
    expect(cpr.value).toEqual({ asset: { type: 'fiat', code: 'EUR' } });
    expect(cpr).toMatchObject({ memo: 'Table 7 😀', rail_hint: 'SEPA_INST', remittance_info: 'Table 7 😀', payee: { display_name: 'Café Sol' }, extensions: { 'std:tip': { allowed: true } } });
  });

  it('renders a byte-mode, level M QR code with a 4-module quiet zone that decodes to exactly qr_uri', async () => {
    const created = await payee.createRequest({ sub_interface: 'ON_CHAIN' });
    const png = Buffer.from(created.qr_png, 'base64');
    expect(decodeQrPng(png)).toBe(created.qr_uri);
    expect(inspectQrPng(png)).toMatchObject({ text: created.qr_uri, modes: ['byte'], errorCorrection: 'M', quietZoneModules: 4 });
    expect(created.deep_link).toBe(created.qr_uri);
    expect(parseDeliveryUri(created.qr_uri)).toEqual({ kind: 'token', token: created.token, endpoint: secure.url });
  });

  it('writes the PNG pixel for pixel as the qrcode library\'s own renderer draws it, for any URI up to the inline bound', async () => {
    /** Size, and one byte per pixel: 1 where it is dark. */
    const darkPixels = (png: Buffer) => {
      const { width, height, data } = PNG.sync.read(png);
      const dark = Buffer.alloc(width * height);
      for (let i = 0; i < dark.length; i++) dark[i] = data[4 * i]! + data[4 * i + 1]! + data[4 * i + 2]! < 3 * 128 ? 1 : 0;
      return { width, height, dark };
    };
    const uris = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 120 }).map((s) => `std-cpr://inline/${s}`),
      fc.integer({ min: 1, max: 2048 - 'std-cpr://inline/'.length }).map((n) => `std-cpr://inline/${'x'.repeat(n)}`),
    );
    await fc.assert(
      fc.asyncProperty(uris, async (uri) => {
        const ours = renderQrPng(uri);
        const theirs = await QRCode.toBuffer([{ data: Buffer.from(uri, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M', margin: 4, type: 'png' });
        // The same image: what the reference's own test above decodes is what the library draws.
        const [a, b] = [darkPixels(ours), darkPixels(theirs)];
        expect([a.width, a.height]).toEqual([b.width, b.height]);
        const differing = a.dark.findIndex((pixel, i) => pixel !== b.dark[i]);
        expect(differing === -1 ? 'every pixel alike' : `pixel ${differing % a.width},${Math.floor(differing / a.width)} differs`).toBe('every pixel alike');
      }),
      { numRuns: 12, seed: 8 },
    );
  });

  it('also renders the QR code as SVG with the 4-module quiet zone', async () => {
    const created = await payee.createRequest({ sub_interface: 'IBAN' });
    const svg = await renderQrSvg(created.qr_uri);
    const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
    const version = inspectQrPng(Buffer.from(created.qr_png, 'base64'))!.version;
    expect(size).toBe(17 + 4 * version + 2 * 4);
  });

  it('offers an inline URI that parses back to the same CPR', async () => {
    const created = await payee.createRequest({ sub_interface: 'ON_CHAIN', amount: '1', memo: '😀'.repeat(20) });
    const parsed = parseDeliveryUri(created.inline_uri);
    expect(parsed.kind).toBe('inline');
    expect(parsed.kind === 'inline' && JSON.parse(parsed.json)).toEqual(created.cpr);
  });

  it('forgets tokens and requests once they are long expired, so its stores stay bounded', async () => {
    clock.freeze();
    await Promise.all(Array.from({ length: 5 }, () => payee.createRequest({ sub_interface: 'IBAN' })));
    expect(payee.stats()).toEqual({ tokens: 5, requests: 5 });
    clock.advance(1800); // past token lifetime + retention (600 s) and request validity + retention (1 800 s)
    await payee.createRequest({ sub_interface: 'IBAN' });
    expect(payee.stats()).toEqual({ tokens: 1, requests: 1 });
  });
});

describe('test-control routes', () => {
  it('reports its configuration', async () => {
    const answer = await control('/config');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ base_url: secure.url, token_lifetime_seconds: 300, request_validity_seconds: 900, plaintext_base_url: plain.url });
  });

  it('fulfils a request once: 200, then 409 REQUEST_CONSUMED', async () => {
    const { request_id } = await payee.createRequest({ sub_interface: 'ACCOUNT', amount: '4200' });
    const first = await fulfil(request_id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ request_id, consumed: true });
    expectProblem(await fulfil(request_id), 409, 'REQUEST_CONSUMED');
  });

  it.each([
    [899, 200],
    [900, 410],
  ])('fulfils %i s after creation with %i (validity 900 s)', async (elapsed, status) => {
    clock.freeze();
    const { request_id } = await payee.createRequest({ sub_interface: 'IBAN' });
    clock.advance(elapsed);
    const answer = await fulfil(request_id);
    if (status === 200) expect(answer.status).toBe(200);
    else expectProblem(answer, 410, 'REQUEST_EXPIRED');
  });

  it('answers 404 NOT_FOUND for an unknown request and 400 for a malformed id', async () => {
    expectProblem(await fulfil('5f0c6b8e-2a4d-4c1e-9b7a-3d2e1f0a9c8b'), 404, 'NOT_FOUND');
    const bad = await fulfil('REQ-1');
    expectProblem(bad, 400, 'MALFORMED_REQUEST');
    expect(bad.body.detail).toContain('request_id');
  });

  it.each([
    ['sub_interface', {}],
    ['sub_interface', { sub_interface: 'CASH' }],
    ['amount', { sub_interface: 'IBAN', amount: '0' }],
    ['amount', { sub_interface: 'IBAN', amount: 100 }],
    ['memo', { sub_interface: 'IBAN', memo: 'm'.repeat(141) }],
    ['rail_hint', { sub_interface: 'IBAN', rail_hint: 'FEDNOW' }],
    ['rail_hint', { sub_interface: 'IBAN', rail_hint: 'ON_CHAIN' }],
    ['rail_hint', { sub_interface: 'ON_CHAIN', rail_hint: 'SEPA_CT' }],
    ['extensions', { sub_interface: 'IBAN', extensions: [] }],
    ['extensions', { sub_interface: 'IBAN', extensions: { 'com.example.crm': { payer_email: 'a@example.com' } } }],
    ['display_name', { sub_interface: 'IBAN', display_name: '' }],
    ['payer', { sub_interface: 'IBAN', payer: 'alice' }],
  ])('answers 400 MALFORMED_REQUEST naming %s for %j', async (field, input) => {
    const answer = await control('/requests', input);
    expectProblem(answer, 400, 'MALFORMED_REQUEST');
    expect(answer.body.detail.startsWith(`${field}:`)).toBe(true);
    await expect(payee.createRequest(input as never)).rejects.toThrow(PayeeInputError);
  });

  it('answers a body that is not JSON 415 or 400', async () => {
    const text = await request(`${secure.url}/_control/payee/requests`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(text.statusCode).toBe(415);
    await text.body.dump();
    const broken = await request(`${secure.url}/_control/payee/requests`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body: '{"sub_interface":' });
    expect(broken.statusCode).toBe(400);
    await broken.body.dump();
  });

  it('answers unknown control paths 404 and wrong methods 405', async () => {
    expectProblem(await control('/nothing-here'), 404, 'NOT_FOUND');
    const wrong = await call(`${secure.url}/_control/payee/config`, { method: 'DELETE' });
    expectProblem(wrong, 405, 'METHOD_NOT_ALLOWED');
    expect(wrong.headers.allow).toBe('GET');
    expectProblem(await call(`${secure.url}/elsewhere`), 404, 'NOT_FOUND');
  });
});

describe('createPayee options', () => {
  it.each([
    ['an http base URL', { baseUrl: 'http://127.0.0.1:8080' }],
    ['a base URL with a trailing slash', { baseUrl: 'https://127.0.0.1:8443/' }],
    ['a zero token lifetime', { baseUrl: 'https://127.0.0.1:8443', tokenLifetimeSeconds: 0 }],
    ['a fractional validity', { baseUrl: 'https://127.0.0.1:8443', requestValiditySeconds: 1.5 }],
  ])('throws at construction for %s', (_what, options) => {
    expect(() => createPayee({ clock: new Clock(), ...options })).toThrow();
  });
});
