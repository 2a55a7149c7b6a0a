import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatTimestamp, parseTimestamp } from '../../profile/index.ts';
import { SUB_INTERFACES, ZERO_ACQUIRER_ID, buildQrUri, findPayerMembers, type Cpr, type SubInterface } from '../../profile/cpr/index.ts';
import { Clock } from '../../reference/clock.ts';
import { listen, type Listening } from '../../reference/http/server.ts';
import type { RefResponse } from '../../reference/http/types.ts';
import { createTlsMaterial } from '../../reference/tls.ts';
import { createPayee, type Payee } from '../../reference/payee/index.ts';
import { createPayingApp, type DerivationContext, type PayingApp } from '../../reference/paying-app/index.ts';

let ca: string;
let payeeServer: Listening;
let oddServer: Listening;
let dir: string;
const clock = new Clock();
let payee: Payee;
let app: PayingApp;

const VALID = formatTimestamp(Date.UTC(2026, 2, 1, 12), 'cpr');
const CONTEXT: DerivationContext = {
  payer: { id: 'payer-7f3a', account: 'acct-payer-7f3a' },
  rail: { rail: 'SEPA_CT', scheme: 'EPC' },
  authorization: { type: 'sca', proof: 'proof-7f3a' },
};

// A TLS server that misbehaves in the ways a retrieval must survive; the path prefix picks the way.
const ODD: Readonly<Record<string, () => RefResponse | Promise<RefResponse>>> = {
  '/text': () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: new TextEncoder().encode('hello') }),
  '/big': () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: { pad: 'x'.repeat(70_000) } }),
  '/broken': () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"a":1,"a":2}') }),
  '/redirect': () => ({ status: 302, headers: { location: 'https://example.com/' } }),
  '/invalid': () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: { cpr_version: 'CPR-1.0' } }),
  '/slow': () => new Promise<RefResponse>((resolve) => setTimeout(() => resolve({ status: 200 }), 1500)),
};

beforeAll(async () => {
  const tls = await createTlsMaterial();
  ca = tls.ca;
  payeeServer = await listen((r) => payee.handler(r), { tls });
  oddServer = await listen((r) => (ODD['/' + (r.path.split('/')[1] ?? '')] ?? (() => ({ status: 404 })))(), { tls });
  dir = await mkdtemp(join(tmpdir(), 'cpr-paying-app-'));
});

afterAll(async () => {
  await Promise.all([payeeServer.close(), oddServer.close(), rm(dir, { recursive: true, force: true })]);
});

beforeEach(() => {
  payee = createPayee({ clock, baseUrl: payeeServer.url });
  app = createPayingApp({ clock: () => clock.now(), ca, retrievalTimeoutMs: 500 });
});

const cprOf = async (sub: SubInterface, input: Record<string, unknown> = {}) => (await payee.createRequest({ sub_interface: sub, amount: '1999', ...input })).cpr;
const edit = (cpr: Cpr, change: (doc: Record<string, any>) => void): Record<string, any> => {
  const doc = structuredClone(cpr) as Record<string, any>;
  change(doc);
  return doc;
};
const oddUri = (path: string) => buildQrUri('ab'.repeat(16), `${oddServer.url}${path}`);

describe('read: every delivery', () => {
  it('reads direct JSON, an object and a file', async () => {
    const cpr = await cprOf('IBAN');
    const file = join(dir, 'request.json');
    await writeFile(file, JSON.stringify(cpr));
    for (const input of [{ kind: 'json', text: JSON.stringify(cpr) }, { kind: 'object', value: cpr }, { kind: 'file', path: file }] as const) {
      expect(await app.read(input)).toEqual({ ok: true, cpr, subInterface: 'IBAN', notices: [] });
    }
  });

  it('reads an inline URI', async () => {
    const created = await payee.createRequest({ sub_interface: 'ON_CHAIN', amount: '5' });
    expect(await app.read({ kind: 'uri', uri: created.inline_uri! })).toMatchObject({ ok: true, cpr: created.cpr, subInterface: 'ON_CHAIN' });
  });

  it('retrieves a token URI over HTTPS from the payee, once', async () => {
    const created = await payee.createRequest({ sub_interface: 'ACCOUNT', amount: '4200' });
    expect(await app.read({ kind: 'uri', uri: created.qr_uri })).toMatchObject({ ok: true, cpr: created.cpr, subInterface: 'ACCOUNT' });
    const again = await app.read({ kind: 'uri', uri: created.deep_link });
    expect(again).toMatchObject({ ok: false, code: 'RETRIEVAL_FAILED' });
    expect(!again.ok && again.message).toContain('TOKEN_CONSUMED');
  });
});

describe('read: rejections', () => {
  it('rejects a request whose expires_at is past, or exactly now, and accepts one a millisecond before', async () => {
    const cpr = await cprOf('IBAN');
    const expires = parseTimestamp(cpr.expires_at)!;
    for (const [now, code] of [[expires + 1000, 'CPR_EXPIRED'], [expires, 'CPR_EXPIRED'], [expires - 1, undefined]] as const) {
      const result = await createPayingApp({ clock: () => now }).read({ kind: 'object', value: cpr });
      expect(result.ok ? undefined : result.code).toBe(code);
    }
  });

  it('checks cpr_version before anything else', async () => {
    const doc = edit(await cprOf('IBAN'), (d) => ((d.cpr_version = 'CPR-2.0'), (d.memo = 5), (d.expires_at = '2000-01-01T00:00:00Z')));
    const result = await app.read({ kind: 'object', value: doc });
    expect(result).toMatchObject({ ok: false, code: 'CPR_VERSION_UNSUPPORTED', violations: [{ requirement: 'CPR-VER-1' }] });
  });

  it('rejects an invalid request with every violation, before looking at expiry', async () => {
    const doc = edit(await cprOf('IBAN'), (d) => ((d.payee.rail_address.iban = 'DE88370400440532013000'), (d.payer = 'alice'), (d.expires_at = '2000-01-01T00:00:00Z')));
    const result = await app.read({ kind: 'json', text: JSON.stringify(doc) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('CPR_INVALID');
    expect(result.message).toMatch(/^This payment request is not valid: .+\.$/);
    expect(result.violations!.map((v) => v.requirement)).toEqual(expect.arrayContaining(['CPR-PAYER-1', 'SUB-IBAN-1', 'PRF-RAIL-1', 'CPR-TIME-2']));
  });

  it.each([
    ['text that is not JSON', { kind: 'json', text: '{"cpr_version":' }, 'CPR_INVALID'],
    ['JSON with duplicate members', { kind: 'json', text: '{"a":1,"a":2}' }, 'CPR_INVALID'],
    ['a JSON array', { kind: 'json', text: '[]' }, 'CPR_INVALID'],
    ['a cyclic object', { kind: 'object', value: (() => { const o: any = {}; o.self = o; return o; })() }, 'CPR_INVALID'],
    ['an object holding a BigInt', { kind: 'object', value: { amount: 1n } }, 'CPR_INVALID'],
    ['undefined', { kind: 'object', value: undefined }, 'CPR_INVALID'],
    ['an unknown input kind', { kind: 'nfc', bytes: [] }, 'CPR_INVALID'],
    ['no input at all', null, 'CPR_INVALID'],
    ['a missing file', { kind: 'file', path: '/nonexistent/cpr.json' }, 'RETRIEVAL_FAILED'],
    ['an https link', { kind: 'uri', uri: 'https://pay.example.com/cpr/abc' }, 'URI_INVALID'],
    ['a token URI with an upper-case token', { kind: 'uri', uri: `std-cpr://${'AB'.repeat(16)}?endpoint=https%3A%2F%2Fpay.example.com` }, 'URI_INVALID'],
    ['a token URI with an http endpoint', { kind: 'uri', uri: `std-cpr://${'ab'.repeat(16)}?endpoint=http%3A%2F%2F127.0.0.1%3A1` }, 'URI_INVALID'],
    ['an inline URI with padding', { kind: 'uri', uri: 'std-cpr://inline/eyJhIjoxfQ==' }, 'URI_INVALID'],
    ['an inline URI holding JSON without cpr_version', { kind: 'uri', uri: 'std-cpr://inline/eyJhIjoxfQ' }, 'CPR_VERSION_UNSUPPORTED'],
    ['an inline URI holding an invalid CPR', { kind: 'uri', uri: `std-cpr://inline/${Buffer.from('{"cpr_version":"CPR-1.0"}').toString('base64url')}` }, 'CPR_INVALID'],
  ] as const)('rejects %s without throwing', async (_what, input, code) => {
    const result = await app.read(input as never);
    expect(result).toMatchObject({ ok: false, code });
    expect(!result.ok && result.message.length).toBeGreaterThan(10);
  });

  it('rejects a file with a byte order mark, and one over the size limit', async () => {
    const cpr = await cprOf('IBAN');
    const bom = join(dir, 'bom.json');
    const big = join(dir, 'big.json');
    await writeFile(bom, '\ufeff' + JSON.stringify(cpr));
    await writeFile(big, JSON.stringify({ ...cpr, pad: 'x'.repeat(70_000) }));
    expect(await app.read({ kind: 'file', path: bom })).toMatchObject({ ok: false, code: 'CPR_INVALID', violations: [{ requirement: 'PRF-JSON-1' }] });
    expect(await app.read({ kind: 'file', path: big })).toMatchObject({ ok: false, code: 'RETRIEVAL_FAILED' });
  });

  it.each([
    ['a non-JSON response', '/text', 'RETRIEVAL_FAILED'],
    ['a response over the body cap', '/big', 'RETRIEVAL_FAILED'],
    ['a response that is not I-JSON', '/broken', 'RETRIEVAL_FAILED'],
    ['a redirect', '/redirect', 'RETRIEVAL_FAILED'],
    ['an error status', '/missing', 'RETRIEVAL_FAILED'],
    ['a payee that does not answer in time', '/slow', 'RETRIEVAL_FAILED'],
    ['a retrieved JSON that is not a valid CPR', '/invalid', 'CPR_INVALID'],
  ])('answers %s with %s', async (_what, path, code) => {
    expect(await app.read({ kind: 'uri', uri: oddUri(path) })).toMatchObject({ ok: false, code });
  });

  it('fails retrieval from a payee whose certificate it does not trust, or that is not listening', async () => {
    const created = await payee.createRequest({ sub_interface: 'IBAN' });
    expect(await createPayingApp({ clock: () => clock.now() }).read({ kind: 'uri', uri: created.qr_uri })).toMatchObject({ ok: false, code: 'RETRIEVAL_FAILED' });
    const closed = buildQrUri('ab'.repeat(16), 'https://127.0.0.1:1');
    expect(await app.read({ kind: 'uri', uri: closed })).toMatchObject({ ok: false, code: 'RETRIEVAL_FAILED' });
  });

  it('trusts exactly the CA it is given, retrieval after retrieval, whatever another application trusts', async () => {
    const stranger = await createTlsMaterial();
    const other = createPayingApp({ clock: () => clock.now(), ca: stranger.ca });
    for (let i = 0; i < 2; i++) {
      const [first, second] = [await payee.createRequest({ sub_interface: 'IBAN' }), await payee.createRequest({ sub_interface: 'IBAN' })];
      expect(await other.read({ kind: 'uri', uri: first.qr_uri })).toMatchObject({ ok: false, code: 'RETRIEVAL_FAILED' });
      expect(await app.read({ kind: 'uri', uri: second.qr_uri })).toMatchObject({ ok: true });
    }
  });
});

describe('derive', () => {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true });
  for (const name of ['cpr', 'payment']) ajv.addSchema(JSON.parse(readFileSync(new URL(`../../profile/schemas/${name}.schema.json`, import.meta.url), 'utf8')));
  const paymentSchema = ajv.getSchema('https://cpr-conformance.dev/schemas/payment.schema.json')!;

  // The sub-interface's non-address fields each CPR from the payee carries, which become conditions.
  const CONDITION_FIELDS: Readonly<Record<SubInterface, readonly string[]>> = {
    ON_CHAIN: ['domain_separator', 'order_reference', 'acquirer_id', 'expires_at'],
    IBAN: ['beneficiary_name', 'remittance_info', 'end_to_end_id', 'purpose_code', 'expires_at'],
    ACCOUNT: ['beneficiary_name', 'remittance_info', 'end_to_end_id', 'expires_at'],
    INSTANT_KEY: ['beneficiary_name', 'txid', 'expires_at'],
  };

  it.each(SUB_INTERFACES)('maps every field of a %s request (spec §4.5, PROFILE.md §9)', async (sub) => {
    const cpr = await cprOf(sub, { memo: 'Order 42' });
    const result = app.derive(cpr, CONTEXT);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { payment } = result;
    expect(paymentSchema(payment), JSON.stringify(paymentSchema.errors)).toBe(true);
    expect(payment.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(payment.state).toBe('CREATED');
    expect(payment.payer).toBe(CONTEXT.payer);
    expect(payment.authorization).toBe(CONTEXT.authorization);
    expect(payment.payee).toEqual(cpr.payee);
    expect(payment.payee).not.toBe(cpr.payee);
    expect(payment.value).toEqual({ amount: '1999', asset: cpr.value.asset });
    expect(payment.intent.reference).toBe('Order 42');
    expect(Object.keys(payment.intent.conditions).sort()).toEqual([...CONDITION_FIELDS[sub]].sort());
    for (const field of CONDITION_FIELDS[sub]) {
      if (field !== 'acquirer_id') expect(payment.intent.conditions[field as keyof typeof payment.intent.conditions]).toBe(cpr[field as keyof Cpr]);
    }
    expect(payment.context).toEqual({ rail: CONTEXT.rail, request_id: cpr.request_id });
  });

  it('uses request_id as the reference without a memo, and reads an absent acquirer_id as the all-zero UUID', async () => {
    const cpr = await cprOf('ON_CHAIN');
    const result = app.derive(cpr, CONTEXT);
    expect(result.ok && result.payment.intent.reference).toBe(cpr.request_id);
    expect(result.ok && result.payment.intent.conditions.acquirer_id).toBe(ZERO_ACQUIRER_ID);
    const given = edit(cpr, (d) => (d.acquirer_id = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'));
    const withId = app.derive(given, CONTEXT);
    expect(withId.ok && withId.payment.intent.conditions.acquirer_id).toBe('9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d');
  });

  it('gives every derivation of the same request a new payment id', async () => {
    const cpr = await cprOf('IBAN');
    const ids = Array.from({ length: 5 }, () => {
      const r = app.derive(cpr, CONTEXT);
      return r.ok ? r.payment.id : undefined;
    });
    expect(new Set(ids).size).toBe(5);
  });

  it('takes the payer amount for an open request and requires one', async () => {
    const open = (await payee.createRequest({ sub_interface: 'IBAN' })).cpr;
    expect(app.derive(open, CONTEXT)).toMatchObject({ ok: false, code: 'AMOUNT_REQUIRED' });
    expect(app.derive(open, { ...CONTEXT, payer_amount: '0' })).toMatchObject({ ok: false, code: 'AMOUNT_REQUIRED' });
    const paid = app.derive(open, { ...CONTEXT, payer_amount: '750' });
    expect(paid.ok && paid.payment.value).toEqual({ amount: '750', asset: open.value.asset });
  });

  it.each([
    ['less', '1000', 'PARTIAL_PAYMENT_UNSUPPORTED'],
    ['more', '2000', 'PARTIAL_PAYMENT_UNSUPPORTED'],
    ['a malformed amount', '1999.00', 'PARTIAL_PAYMENT_UNSUPPORTED'],
    ['exactly the amount', '1999', undefined],
  ])('with a set amount, refuses %s', async (_what, offered, code) => {
    const result = app.derive(await cprOf('ACCOUNT'), { ...CONTEXT, payer_amount: offered });
    expect(result.ok ? undefined : result.code).toBe(code);
  });

  it('refuses a hinted rail it cannot serve with a readable message and alternatives', async () => {
    const restricted = createPayingApp({ clock: () => clock.now(), supportedRails: ['SEPA_CT', 'PIX', 'OPEN'] });
    const result = restricted.derive(await cprOf('ON_CHAIN'), CONTEXT);
    expect(result).toMatchObject({ ok: false, code: 'RAIL_UNSUPPORTED', alternatives: ['SEPA_CT', 'PIX'] });
    expect(!result.ok && result.message).toMatch(/^This payment request asks to be paid by .*\(ON_CHAIN\), which this application does not support\. It can pay by SEPA Credit Transfer, Pix .*\.$/);
    // The context may narrow the rails for one derivation (PROFILE.md §9).
    const narrowed = app.derive(await cprOf('IBAN'), { ...CONTEXT, supported_rails: ['ACH'] });
    expect(narrowed).toMatchObject({ ok: false, code: 'RAIL_UNSUPPORTED', alternatives: ['ACH'] });
  });

  it('derives despite the rail when there is no hint, OPEN, or an unknown hint, noting the unknown one', async () => {
    const restricted = createPayingApp({ clock: () => clock.now(), supportedRails: ['PIX'] });
    const cpr = await cprOf('IBAN');
    for (const change of [(d: any) => delete d.rail_hint, (d: any) => (d.rail_hint = 'OPEN')]) {
      expect(restricted.derive(edit(cpr, change), CONTEXT)).toMatchObject({ ok: true, notices: [] });
    }
    const unknown = restricted.derive(edit(cpr, (d) => (d.rail_hint = 'FEDNOW')), CONTEXT);
    expect(unknown.ok).toBe(true);
    expect(unknown.ok && unknown.notices).toEqual([expect.stringMatching(/FEDNOW.*OPEN/)]);
  });

  it('records a conversion as disclosed context and leaves value untouched', async () => {
    const cpr = await cprOf('IBAN');
    const conversion = { asset: { type: 'fiat' as const, code: 'USD' }, amount: '2150', rate: '1.0755' };
    const result = app.derive(cpr, { ...CONTEXT, conversion });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.payment.value).toEqual(cpr.value);
    expect(result.payment.context.conversion).toEqual({ ...conversion, disclosed: true });
    expect(result.notices).toEqual([expect.stringContaining('conversion disclosed')]);
    expect(paymentSchema(result.payment), JSON.stringify(paymentSchema.errors)).toBe(true);
  });

  it('rejects at or after expires_at by the context clock', async () => {
    const cpr = await cprOf('IBAN');
    const expires = parseTimestamp(cpr.expires_at)!;
    expect(app.derive(cpr, { ...CONTEXT, now: expires })).toMatchObject({ ok: false, code: 'CPR_EXPIRED' });
    expect(app.derive(cpr, { ...CONTEXT, now: expires - 1 }).ok).toBe(true);
  });

  it('puts no payer data anywhere but payment.payer and payment.authorization', async () => {
    for (const sub of SUB_INTERFACES) {
      const result = app.derive(await cprOf(sub, { extensions: { 'com.example.pos': { lane: 3 } } }), CONTEXT);
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      const { payer: _payer, authorization: _authorization, ...rest } = result.payment;
      expect(findPayerMembers(rest)).toEqual([]);
      expect(JSON.stringify(rest)).not.toContain('7f3a'); // nothing of the payer or proof leaked
      expect(JSON.stringify(rest)).not.toContain('com.example.pos'); // extensions are not carried into the Payment
    }
  });

  it('rejects a CPR that carries payer data, and never throws on nonsense', async () => {
    const tainted = edit(await cprOf('IBAN'), (d) => (d.extensions = { payer_email: 'alice@example.com' }));
    expect(app.derive(tainted, CONTEXT)).toMatchObject({ ok: false, code: 'CPR_INVALID', violations: [{ requirement: 'CPR-PAYER-1' }] });
    const cpr = await cprOf('IBAN');
    for (const [doc, context] of [[null, CONTEXT], [cpr, undefined], [cpr, null], ['x', 'y'], [cpr, { ...CONTEXT, now: Number.NaN, supported_rails: 'all', conversion: 3 }]] as const) {
      expect(() => app.derive(doc, context as never)).not.toThrow();
    }
  });
});

describe('process', () => {
  it('reads a token URI and derives a Payment from it', async () => {
    const created = await payee.createRequest({ sub_interface: 'INSTANT_KEY', memo: 'Pão de queijo' });
    const result = await app.process({ kind: 'uri', uri: created.qr_uri }, { ...CONTEXT, payer_amount: '1200' });
    expect(result).toMatchObject({ ok: true, payment: { value: { amount: '1200' }, intent: { reference: 'Pão de queijo' }, context: { request_id: created.request_id } } });
  });

  it('stops at the first rejection', async () => {
    expect(await app.process({ kind: 'json', text: VALID }, CONTEXT)).toMatchObject({ ok: false, code: 'CPR_INVALID' });
  });
});

describe('createPayingApp options', () => {
  it.each([
    ['a zero timeout', { retrievalTimeoutMs: 0 }],
    ['a negative body cap', { maxBodyBytes: -1 }],
    ['rails that are not strings', { supportedRails: [1] as unknown as string[] }],
  ])('throws at construction for %s', (_what, options) => {
    expect(() => createPayingApp(options)).toThrow();
  });
});
