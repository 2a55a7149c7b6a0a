// Each payee suite mutant is a real fault: the same probe, run against the correct
// payee and against the mutant, observes the correct behaviour and the described
// fault. The payee is driven in process, through createRequest and its handler
// (its fuzzer mutants are probed in switches.test.ts).
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { serializeResponse } from '../../../reference/http/respond.ts';
import { isUuid, parseTimestamp } from '../../../profile/index.ts';
import { buildQrUri, codePoints, decodeQrPng, findPayerMembers, inspectQrPng, isEvmAddress, parseDeliveryUri, validateCpr } from '../../../profile/cpr/index.ts';
import { Clock } from '../../../reference/clock.ts';
import type { RefResponse } from '../../../reference/http/types.ts';
import { MUTANTS, faultsFor, type Faults, type MutantOfRole } from '../../../reference/mutants.ts';
import { PayeeInputError, createPayee, type Payee } from '../../../reference/payee/index.ts';

const BASE_URL = 'https://payee.test/shops;v=1/caf%C3%A9(eu)';

interface Probe {
  /** What the probe looks at. */
  readonly observes: string;
  observe(payee: Payee, clock: Clock): Promise<unknown>;
  /** The payee's configuration, where the probe needs one other than the defaults (both payees get it). */
  readonly fixture?: { readonly tokenLifetimeSeconds?: number; readonly requestValiditySeconds?: number };
  /** What the correct payee shows, and what the mutant shows. */
  readonly correct: unknown;
  readonly mutant: unknown;
}

function newPayee(faults?: Faults, fixture: Probe['fixture'] = {}): { payee: Payee; clock: Clock } {
  const clock = new Clock();
  clock.freeze(Date.UTC(2026, 0, 1));
  return { payee: createPayee({ clock, baseUrl: BASE_URL, plaintextBaseUrl: 'http://payee.test', ...fixture, ...(faults ? { faults } : {}) }), clock };
}

async function get(payee: Payee, path: string, secure = true): Promise<RefResponse> {
  return payee.handler({ method: 'GET', path, query: new URLSearchParams(), headers: {}, body: new Uint8Array(), authority: 'payee.test', secure });
}

/** 200, or the problem code. */
const answer = (response: RefResponse): unknown => (response.status < 300 ? response.status : (response.body as { code?: string }).code);

/** The answer to a retrieval of an IBAN request's token `afterMs` after the request was made at `madeAt` (by default where the frozen clock stands). */
async function retrievalAfter(payee: Payee, clock: Clock, afterMs: number, madeAt = clock.now()): Promise<unknown> {
  clock.set(madeAt);
  const { token } = await ibanRequest(payee);
  clock.set(madeAt + afterMs);
  return answer(await get(payee, `/cpr/${token}`));
}

/** What `read` makes of the request created from `input`, or 'refused' when the payee's input check refuses it. */
async function createdOrRefused(payee: Payee, input: Parameters<Payee['createRequest']>[0], read: (created: Awaited<ReturnType<Payee['createRequest']>>) => unknown): Promise<unknown> {
  try {
    return read(await payee.createRequest(input));
  } catch (error) {
    if (error instanceof PayeeInputError) return 'refused';
    throw error;
  }
}

/** An IBAN request's validity in seconds: its expires_at less its created_at. */
async function validityOf(payee: Payee): Promise<number> {
  const { cpr } = await payee.createRequest({ sub_interface: 'IBAN' });
  return (Date.parse(cpr.expires_at) - Date.parse(cpr.created_at)) / 1000;
}

/** The host of the QR URI's endpoint, for a request created through test control with these headers and this Host. */
async function qrEndpointHost(payee: Payee, headers: Record<string, string>, authority: string): Promise<string> {
  const body = new TextEncoder().encode(JSON.stringify({ sub_interface: 'IBAN', amount: '1250' }));
  const response = await payee.handler({ method: 'POST', path: '/_control/payee/requests', query: new URLSearchParams(), headers: { 'content-type': 'application/json', host: authority, ...headers }, body, authority, secure: true });
  const parsed = parseDeliveryUri((response.body as { qr_uri: string }).qr_uri);
  return parsed.kind === 'token' ? new URL(parsed.endpoint).host : parsed.kind;
}

const ibanRequest = (payee: Payee) => payee.createRequest({ sub_interface: 'IBAN', amount: '1250', memo: 'Invoice 2026-0042' });

/** The rules validateCpr names for a document (none for a valid CPR). */
const brokenRules = (doc: unknown): string[] => {
  const result = validateCpr(doc);
  return result.ok ? [] : [...new Set(result.violations.map((v) => v.requirement))];
};

const PROBES: Record<MutantOfRole<'payee'>, Probe> = {
  'payee-request-id-reused': {
    observes: 'whether two requests have different request_ids',
    async observe(payee) {
      const [a, b] = [await ibanRequest(payee), await ibanRequest(payee)];
      return a.request_id !== b.request_id;
    },
    correct: true,
    mutant: false,
  },
  'payee-request-id-per-sub-interface': {
    observes: 'how many request_ids the first request of each sub-interface has',
    async observe(payee) {
      const made = [];
      for (const sub_interface of ['ON_CHAIN', 'IBAN', 'ACCOUNT', 'INSTANT_KEY'] as const) made.push(await payee.createRequest({ sub_interface }));
      return new Set(made.map((m) => m.request_id)).size;
    },
    correct: 4,
    mutant: 1,
  },
  'payee-request-id-per-instant': {
    observes: 'how many request_ids three requests have, created at one instant, a second later and at the first instant again',
    async observe(payee, clock) {
      const start = clock.now();
      const made = [];
      for (const at of [start, start + 1000, start]) {
        clock.set(at);
        made.push(await ibanRequest(payee));
      }
      return new Set(made.map((m) => m.request_id)).size;
    },
    correct: 3,
    mutant: 2,
  },
  'payee-request-id-counter-raced': {
    observes: 'how many request_ids three requests created at once have',
    async observe(payee) {
      const made = await Promise.all([ibanRequest(payee), ibanRequest(payee), ibanRequest(payee)]);
      return new Set(made.map((m) => m.request_id)).size;
    },
    correct: 3,
    mutant: 1,
  },
  'payee-qr-level-l': {
    observes: "the QR image's error-correction level",
    async observe(payee) {
      return inspectQrPng(Buffer.from((await ibanRequest(payee)).qr_png, 'base64'))?.errorCorrection;
    },
    correct: 'M',
    mutant: 'L',
  },
  'payee-qr-png-mime-wrapped': {
    observes: 'whether the QR image\'s base64 holds a line break',
    observe: async (payee) => /[\r\n]/.test((await ibanRequest(payee)).qr_png),
    correct: false,
    mutant: true,
  },
  'payee-qr-quiet-zone-narrow': {
    observes: "the QR image's narrowest quiet zone, in modules",
    async observe(payee) {
      return inspectQrPng(Buffer.from((await ibanRequest(payee)).qr_png, 'base64'))?.quietZoneModules;
    },
    correct: 4,
    mutant: 2,
  },
  'payee-expiry-unbounded': {
    observes: 'expires_at − created_at in seconds (the validity window is 900)',
    async observe(payee) {
      const { cpr } = await ibanRequest(payee);
      return (parseTimestamp(cpr.expires_at)! - parseTimestamp(cpr.created_at)!) / 1000;
    },
    correct: 900,
    mutant: 365 * 24 * 3600,
  },
  'payee-payer-field-leaked': {
    observes: 'the payer-named members of a served CPR',
    observe: async (payee) => findPayerMembers((await ibanRequest(payee)).cpr).map((v) => v.path),
    correct: [],
    mutant: ['/payer_reference'],
  },
  'payee-iban-mirror-spaced': {
    observes: 'the top-level copy of an IBAN request\'s iban',
    observe: async (payee) => (await ibanRequest(payee)).cpr.iban,
    correct: 'DE89370400440532013000',
    mutant: 'DE89 3704 0044 0532 0130 00',
  },
  'payee-evm-checksum-broken': {
    observes: "an on-chain request's receiver_address, whether its top-level copy equals it and whether it is a valid EIP-55 address; an IBAN request's receiver_address",
    async observe(payee) {
      const { cpr } = await payee.createRequest({ sub_interface: 'ON_CHAIN', amount: '1000000' });
      const address = (cpr.payee.rail_address as { receiver_address?: string }).receiver_address;
      return [address, cpr.receiver_address === address, isEvmAddress(address), (await ibanRequest(payee)).cpr.receiver_address];
    },
    correct: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', true, true, undefined],
    mutant: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', true, false, undefined],
  },
  'payee-domain-separator-short': {
    observes: "the length of an on-chain request's domain_separator",
    observe: async (payee) => ((await payee.createRequest({ sub_interface: 'ON_CHAIN', amount: '1000000' })).cpr.domain_separator as string).length,
    correct: 66,
    mutant: 65,
  },
  'payee-order-reference-upper-case': {
    observes: "whether an on-chain request's order_reference is a canonical lower-case UUID, and the same one upper-cased",
    async observe(payee) {
      const reference = (await payee.createRequest({ sub_interface: 'ON_CHAIN', amount: '1000000' })).cpr.order_reference as string;
      return [isUuid(reference), isUuid(reference.toLowerCase())];
    },
    correct: [true, true],
    mutant: [false, true],
  },
  'payee-purpose-code-five-letters': {
    observes: "an IBAN request's purpose_code",
    observe: async (payee) => (await ibanRequest(payee)).cpr.purpose_code,
    correct: 'GDDS',
    mutant: 'GOODS',
  },
  'payee-asset-code-lower-case': {
    observes: 'the asset code of a fiat (IBAN) request and of an on-chain (stablecoin) one',
    observe: async (payee) => [(await ibanRequest(payee)).cpr.value.asset.code, (await payee.createRequest({ sub_interface: 'ON_CHAIN', amount: '1000000' })).cpr.value.asset.code],
    correct: ['EUR', 'USDC'],
    mutant: ['eur', 'USDC'],
  },
  'payee-asset-code-numeric': {
    observes: 'the asset codes of fiat requests (IBAN, ACCOUNT) and of an on-chain (stablecoin) one, and the rules the IBAN request breaks',
    async observe(payee) {
      const codes = [];
      for (const sub_interface of ['IBAN', 'ACCOUNT', 'ON_CHAIN'] as const) codes.push((await payee.createRequest({ sub_interface })).cpr.value.asset.code);
      return [codes, brokenRules((await ibanRequest(payee)).cpr)];
    },
    correct: [['EUR', 'USD', 'USDC'], []],
    mutant: [['978', '840', 'USDC'], ['CPR-VAL-3']],
  },
  'payee-amount-major-units': {
    observes: 'the served amounts of fiat requests for 1250, 5 and 120000 and of an on-chain one for 1000000, and the rules the first breaks',
    async observe(payee) {
      const asked = [['IBAN', '1250'], ['ACCOUNT', '5'], ['INSTANT_KEY', '120000'], ['ON_CHAIN', '1000000']] as const;
      const served = [];
      for (const [sub_interface, amount] of asked) served.push((await payee.createRequest({ sub_interface, amount })).cpr);
      return [served.map((cpr) => cpr.value.amount), brokenRules(served[0])];
    },
    correct: [['1250', '5', '120000', '1000000'], []],
    mutant: [['12.50', '0.05', '1200.00', '1000000'], ['CPR-VAL-2']],
  },
  'payee-amount-json-number': {
    observes: 'the served amount of a request for 4999, as the JSON a retrieval answers, and the rules it breaks',
    async observe(payee) {
      const { token } = await payee.createRequest({ sub_interface: 'ACCOUNT', amount: '4999' });
      const cpr = (await get(payee, `/cpr/${token}`)).body as { value: unknown };
      return [JSON.stringify(cpr.value).match(/"amount":[^,}]*/)?.[0], brokenRules(cpr)];
    },
    correct: ['"amount":"4999"', []],
    mutant: ['"amount":4999', ['PRF-AMT-1']],
  },
  'payee-request-id-from-instant': {
    observes: 'whether two identical requests share a request_id: created at one instant, and a second apart',
    async observe(payee, clock) {
      const [a, b] = [await ibanRequest(payee), await ibanRequest(payee)];
      clock.advance(1);
      const c = await ibanRequest(payee);
      return [a.request_id === b.request_id, b.request_id === c.request_id];
    },
    correct: [false, false],
    mutant: [true, false],
  },
  'payee-request-id-version-7': {
    observes: "request_id's version digit, and whether its first 48 bits are the creation time (2026-01-01T00:00:00Z) in milliseconds",
    async observe(payee) {
      const { request_id } = await ibanRequest(payee);
      return [request_id[14], request_id.replace('-', '').slice(0, 12) === Date.UTC(2026, 0, 1).toString(16).padStart(12, '0')];
    },
    correct: ['4', false],
    mutant: ['7', true],
  },
  'payee-request-id-variant-unset': {
    observes: 'the variant digit (the first of the fourth group) of eight request_ids: 8, 9, a or b for RFC 9562\'s variant',
    async observe(payee) {
      const ids = [];
      for (let i = 0; i < 8; i++) ids.push((await ibanRequest(payee)).request_id);
      return ids.every((id) => /^[89ab]$/.test(id[19]!));
    },
    correct: true,
    mutant: false,
  },
  'payee-record-status-served': {
    observes: 'the status member of a retrieved CPR, and the rules it breaks',
    async observe(payee) {
      const body = (await get(payee, `/cpr/${(await ibanRequest(payee)).token}`)).body as Record<string, unknown>;
      return [body.status, brokenRules(body)];
    },
    correct: [undefined, []],
    mutant: ['OPEN', ['PRF-CPR-1']],
  },
  'payee-rail-address-empty': {
    observes: "an IBAN request's rail_address and top-level iban, and the rules it breaks",
    async observe(payee) {
      const { cpr } = await ibanRequest(payee);
      return [cpr.payee.rail_address, cpr.iban, brokenRules(cpr)];
    },
    correct: [{ iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' }, 'DE89370400440532013000', []],
    mutant: [{}, 'DE89370400440532013000', ['CPR-PAYEE-1']],
  },
  'payee-on-chain-hint-missing': {
    observes: 'the rail_hint of an on-chain request',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'ON_CHAIN', amount: '1000000' })).cpr.rail_hint,
    correct: 'ON_CHAIN',
    mutant: 'OPEN',
  },
  'payee-qr-other-uri': {
    observes: 'whether the QR image decodes to the reported qr_uri',
    async observe(payee) {
      const created = await ibanRequest(payee);
      return decodeQrPng(Buffer.from(created.qr_png, 'base64')) === created.qr_uri;
    },
    correct: true,
    mutant: false,
  },
  'payee-inline-padded': {
    observes: 'whether the inline URI of a request is unpadded base64url',
    observe: async (payee) => /^std-cpr:\/\/inline\/[A-Za-z0-9_-]+$/.test((await payee.createRequest({ sub_interface: 'IBAN', amount: '1250', memo: 'm' })).inline_uri ?? ''),
    correct: true,
    mutant: false,
  },
  'payee-inline-not-utf8': {
    observes: 'the memos the inline URIs of two requests decode to: one in ASCII, one outside it',
    async observe(payee) {
      const memoOf = async (memo: string) => {
        const parsed = parseDeliveryUri((await payee.createRequest({ sub_interface: 'IBAN', amount: '1250', memo })).inline_uri);
        return parsed.kind === 'inline' ? (JSON.parse(parsed.json) as { memo?: string }).memo : parsed.kind;
      };
      return [await memoOf('Invoice 42'), await memoOf('Café €5 𝄞')];
    },
    correct: ['Invoice 42', 'Café €5 𝄞'],
    mutant: ['Invoice 42', 'error'],
  },
  'payee-inline-bound-utf16': {
    observes: 'the inline URI of a request whose memo, name and terms are 140, 140 and 300 code points of 支 (over 2 048 bytes inline, under it counted in UTF-16 units)',
    async observe(payee) {
      const text = (n: number) => '支'.repeat(n);
      const created = await payee.createRequest({ sub_interface: 'ON_CHAIN', memo: text(140), display_name: text(140), extensions: { 'com.example.terms': text(300) } });
      return created.inline_uri === undefined ? 'absent' : 'present';
    },
    correct: 'absent',
    mutant: 'present',
  },
  'payee-inline-uri-unbounded': {
    observes: 'the inline URI of a request too large for 2 048 bytes',
    async observe(payee) {
      const created = await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.terms': 'Lieferung frei Haus. '.repeat(120) } });
      return created.inline_uri === undefined ? 'absent' : `${created.inline_uri.length} bytes`;
    },
    correct: 'absent',
    mutant: expect.stringMatching(/^\d{4} bytes$/),
  },
  'payee-endpoint-host-renamed': {
    observes: "the host of qr_uri's endpoint (the base URL's is payee.test)",
    observe: async (payee) => {
      const parsed = parseDeliveryUri((await ibanRequest(payee)).qr_uri);
      return parsed.kind === 'token' ? new URL(parsed.endpoint).host : parsed.kind;
    },
    correct: 'payee.test',
    mutant: 'localhost',
  },
  'payee-endpoint-origin-only': {
    observes: "the endpoint of the QR URI of a payee whose base URL has a path",
    async observe(payee) {
      const parsed = parseDeliveryUri((await ibanRequest(payee)).qr_uri);
      return parsed.kind === 'token' ? parsed.endpoint : parsed.kind;
    },
    correct: BASE_URL,
    mutant: 'https://payee.test',
  },
  'payee-endpoint-unencoded': {
    observes: 'whether qr_uri carries the percent-encoded endpoint',
    async observe(payee) {
      const created = await ibanRequest(payee);
      return created.qr_uri === buildQrUri(created.token, BASE_URL);
    },
    correct: true,
    mutant: false,
  },
  'payee-endpoint-minimal-escape': {
    observes: "the endpoint of qr_uri for a base URL whose path has a ';'",
    async observe(payee) {
      const created = await ibanRequest(payee);
      return created.qr_uri.slice(created.qr_uri.indexOf('=') + 1);
    },
    correct: encodeURIComponent(BASE_URL),
    mutant: 'https%3A%2F%2Fpayee.test%2Fshops;v%3D1%2Fcaf%25C3%25A9(eu)',
  },
  'payee-endpoint-escapes-decoded': {
    observes: "the endpoint of qr_uri for a base URL whose path holds %C3%A9, decoded as a paying application reads it",
    async observe(payee) {
      const created = await ibanRequest(payee);
      return decodeURIComponent(created.qr_uri.slice(created.qr_uri.indexOf('=') + 1));
    },
    correct: BASE_URL,
    mutant: 'https://payee.test/shops;v=1/café(eu)',
  },
  'payee-token-reusable': {
    observes: 'two retrievals with one token',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return [answer(await get(payee, `/cpr/${token}`)), answer(await get(payee, `/cpr/${token}`))];
    },
    correct: [200, 'TOKEN_CONSUMED'],
    mutant: [200, 200],
  },
  'payee-token-with-memo-reusable': {
    observes: 'two retrievals with one token, of a request with a memo and of one without',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      const plain = await payee.createRequest({ sub_interface: 'IBAN', amount: '1250' });
      return [answer(await get(payee, `/cpr/${token}`)), answer(await get(payee, `/cpr/${token}`)), answer(await get(payee, `/cpr/${plain.token}`)), answer(await get(payee, `/cpr/${plain.token}`))];
    },
    correct: [200, 'TOKEN_CONSUMED', 200, 'TOKEN_CONSUMED'],
    mutant: [200, 200, 200, 'TOKEN_CONSUMED'],
  },
  'payee-token-with-extensions-reusable': {
    observes: 'two retrievals with one token, of a request with extensions and of one without',
    async observe(payee) {
      const { token } = await payee.createRequest({ sub_interface: 'IBAN', amount: '1250', extensions: { 'std:invoice': { number: '2026-0042' } } });
      const plain = await ibanRequest(payee);
      return [answer(await get(payee, `/cpr/${token}`)), answer(await get(payee, `/cpr/${token}`)), answer(await get(payee, `/cpr/${plain.token}`)), answer(await get(payee, `/cpr/${plain.token}`))];
    },
    correct: [200, 'TOKEN_CONSUMED', 200, 'TOKEN_CONSUMED'],
    mutant: [200, 200, 200, 'TOKEN_CONSUMED'],
  },
  'payee-head-spends-token': {
    observes: 'a HEAD of a fresh token, then its GET',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      await payee.handler({ method: 'HEAD', path: `/cpr/${token}`, query: new URLSearchParams(), headers: {}, body: new Uint8Array(), authority: 'payee.test', secure: true });
      return answer(await get(payee, `/cpr/${token}`));
    },
    correct: 200,
    mutant: 'TOKEN_CONSUMED',
  },
  'payee-tls-refusal-live-tokens-only': {
    observes: 'a plaintext retrieval of a token the payee never issued, and of one already retrieved over TLS',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      await get(payee, `/cpr/${token}`);
      return [answer(await get(payee, `/cpr/${token}00`, false)), answer(await get(payee, `/cpr/${token}`, false))];
    },
    correct: ['TLS_REQUIRED', 'TLS_REQUIRED'],
    mutant: ['TOKEN_UNKNOWN', 'TOKEN_CONSUMED'],
  },
  'payee-plaintext-refusal-get-only': {
    observes: 'a DELETE of a live token over plaintext',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return answer(await payee.handler({ method: 'DELETE', path: `/cpr/${token}`, query: new URLSearchParams(), headers: {}, body: new Uint8Array(), authority: 'payee.test', secure: false }));
    },
    correct: 'TLS_REQUIRED',
    mutant: 'METHOD_NOT_ALLOWED',
  },
  'payee-plaintext-refusal-token-paths-only': {
    observes: 'a live token with one more segment after it, retrieved over plaintext',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return answer(await get(payee, `/cpr/${token}/x`, false));
    },
    correct: 'TLS_REQUIRED',
    mutant: 'NOT_FOUND',
  },
  'payee-plaintext-unknown-token-denied': {
    observes: 'a token never issued, sent over plaintext, then retrieved over TLS',
    async observe(payee) {
      const never = 'ab'.repeat(16);
      expect(answer(await get(payee, `/cpr/${never}`, false))).toBe('TLS_REQUIRED');
      return answer(await get(payee, `/cpr/${never}`));
    },
    correct: 'TOKEN_UNKNOWN',
    mutant: 'TOKEN_CONSUMED',
  },
  'payee-fulfil-forgets-token': {
    observes: 'the token of a request, never retrieved, presented after the request was fulfilled',
    async observe(payee) {
      const { request_id, token } = await ibanRequest(payee);
      expect(payee.fulfil(request_id)).toBe('FULFILLED');
      return answer(await get(payee, `/cpr/${token}`));
    },
    correct: 200,
    mutant: 'TOKEN_UNKNOWN',
  },
  'payee-accept-matched-literally': {
    observes: 'a retrieval with Accept: application/*',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return (await payee.handler({ method: 'GET', path: `/cpr/${token}`, query: new URLSearchParams(), headers: { accept: 'application/*' }, body: new Uint8Array(), authority: 'payee.test', secure: true })).status;
    },
    correct: 200,
    mutant: 406,
  },
  'payee-retrieval-drops-null-members': {
    observes: 'the extensions a token serves of a request made with one whose value is null',
    async observe(payee) {
      const { token } = await payee.createRequest({ sub_interface: 'IBAN', amount: '1250', extensions: { 'com.example.note': null, 'com.example.n': 1 } });
      const response = await get(payee, `/cpr/${token}`);
      const body = response.body instanceof Uint8Array ? JSON.parse(new TextDecoder().decode(response.body)) : response.body;
      return (body as { extensions?: unknown }).extensions;
    },
    correct: { 'com.example.note': null, 'com.example.n': 1 },
    mutant: { 'com.example.n': 1 },
  },
  'payee-rail-hint-case-folded': {
    observes: 'the rail_hint of an IBAN request asked for as sepa_inst, and of an INSTANT_KEY request as Pix',
    async observe(payee) {
      const hinted = async (sub_interface: 'IBAN' | 'INSTANT_KEY', rail_hint: string) => {
        try {
          return (await payee.createRequest({ sub_interface, amount: '1250', rail_hint } as never)).cpr.rail_hint;
        } catch (error) {
          return error instanceof PayeeInputError ? 'refused' : String(error);
        }
      };
      return [await hinted('IBAN', 'sepa_inst'), await hinted('INSTANT_KEY', 'Pix')];
    },
    correct: ['refused', 'refused'],
    mutant: ['sepa_inst', 'Pix'],
  },
  'payee-rail-hint-bound-to-sub-interface': {
    observes: 'the rail_hint of an ACCOUNT request asked for with SWIFT, and of an IBAN request with PIX (advisory: PROFILE.md §7.4)',
    async observe(payee) {
      const hinted = async (sub_interface: 'ACCOUNT' | 'IBAN', rail_hint: 'SWIFT' | 'PIX') => {
        try {
          return (await payee.createRequest({ sub_interface, amount: '1250', rail_hint })).cpr.rail_hint;
        } catch (error) {
          return error instanceof PayeeInputError ? 'refused' : String(error);
        }
      };
      return [await hinted('ACCOUNT', 'SWIFT'), await hinted('IBAN', 'PIX')];
    },
    correct: ['SWIFT', 'PIX'],
    mutant: ['refused', 'refused'],
  },
  'payee-retrieval-bom-non-ascii': {
    observes: 'the first bytes of the CPR a token serves, for a request with a memo outside ASCII and for one without',
    async observe(payee) {
      const first = async (memo: string) => {
        const { token } = await payee.createRequest({ sub_interface: 'IBAN', amount: '1250', memo });
        const body = (await get(payee, `/cpr/${token}`)).body;
        const bytes = body instanceof Uint8Array ? body : new TextEncoder().encode(JSON.stringify(body));
        return Buffer.from(bytes.subarray(0, 3)).toString('hex');
      };
      return [await first('Café au lait'), await first('Cafe au lait')];
    },
    correct: ['7b2263', '7b2263'],
    mutant: ['efbbbf', '7b2263'],
  },
  'payee-display-name-trimmed': {
    observes: 'the display_name of a request asked for with an ideographic space at its end',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', amount: '1250', display_name: 'Café Müller\u3000' })).cpr.payee.display_name,
    correct: 'Café Müller\u3000',
    mutant: 'Café Müller',
  },
  'payee-display-name-html-escaped': {
    observes: 'the display_name of a request asked for with an ampersand and angle brackets in it',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', amount: '1250', display_name: 'Müller & Söhne <GmbH>' })).cpr.payee.display_name,
    correct: 'Müller & Söhne <GmbH>',
    mutant: 'Müller &#38; Söhne &#60;GmbH&#62;',
  },
  'payee-extension-falsy-members-dropped': {
    observes: 'the extensions of a request asked for with members whose values are false, 0, "" and null beside one of 1',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.a': false, 'com.example.b': 0, 'com.example.c': '', 'com.example.d': null, 'com.example.e': 1 } })).cpr.extensions,
    correct: { 'com.example.a': false, 'com.example.b': 0, 'com.example.c': '', 'com.example.d': null, 'com.example.e': 1 },
    mutant: { 'com.example.e': 1 },
  },
  'payee-extension-empty-members-dropped': {
    observes: 'the extensions of a request asked for with an empty object and an empty array, one a member deep down, beside a value',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.a': {}, 'com.example.b': { tags: [], n: 1 } } })).cpr.extensions,
    correct: { 'com.example.a': {}, 'com.example.b': { tags: [], n: 1 } },
    mutant: { 'com.example.b': { n: 1 } },
  },
  'payee-extension-integers-int32': {
    observes: 'the extensions of a request asked for with whole numbers past 32 bits',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.a': 3_000_000_000, 'com.example.b': 2 ** 32, 'com.example.c': 7 } })).cpr.extensions,
    correct: { 'com.example.a': 3_000_000_000, 'com.example.b': 2 ** 32, 'com.example.c': 7 },
    mutant: { 'com.example.a': -1_294_967_296, 'com.example.b': 0, 'com.example.c': 7 },
  },
  'payee-memo-formula-guarded': {
    observes: 'the memo of a request asked for with a memo opening with "-"',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', memo: '-5% off' })).cpr.memo,
    correct: '-5% off',
    mutant: "'-5% off",
  },
  'payee-extensions-capped-8kib': {
    observes: 'whether a request asked for with extensions of about 10 000 bytes is created',
    observe: async (payee) => {
      try {
        return typeof (await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.large': 'x'.repeat(10_000) } })).request_id;
      } catch (error) {
        return (error as { code?: unknown }).code;
      }
    },
    correct: 'string',
    mutant: 'MALFORMED_REQUEST',
  },
  'payee-fulfil-before-creation-refused': {
    observes: 'a request fulfilled with the clock set back a second before it was made',
    async observe(payee, clock) {
      const { request_id } = await ibanRequest(payee);
      clock.set(clock.now() - 1000);
      return payee.fulfil(request_id);
    },
    correct: 'FULFILLED',
    mutant: 'REQUEST_EXPIRED',
  },
  'payee-extension-arrays-sorted': {
    observes: 'the extensions of a request asked for with an array in the reverse of its elements\' JSON text order',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.steps': ['b', 'a', 10, 9] } })).cpr.extensions,
    correct: { 'com.example.steps': ['b', 'a', 10, 9] },
    mutant: { 'com.example.steps': ['a', 'b', 10, 9] },
  },
  'payee-extension-arrays-copied-as-objects': {
    observes: 'the extensions of a request asked for with an array in one',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', amount: '1250', extensions: { 'com.example.order': { tags: ['gift'] } } })).cpr.extensions,
    correct: { 'com.example.order': { tags: ['gift'] } },
    mutant: { 'com.example.order': { tags: { 0: 'gift' } } },
  },
  'payee-extension-proto-member-lost': {
    observes: 'the extensions of a request asked for with a member named __proto__ (as JSON.parse reads it), written back as JSON',
    observe: async (payee) => JSON.stringify((await payee.createRequest({ sub_interface: 'IBAN', extensions: JSON.parse('{"com.example.order":{"__proto__":{"id":7},"n":1}}') })).cpr.extensions),
    correct: '{"com.example.order":{"__proto__":{"id":7},"n":1}}',
    mutant: '{"com.example.order":{"n":1}}',
  },
  'payee-extension-date-times-revived': {
    observes: 'the extensions of a request asked for with a date-time string at an offset, written back as JSON',
    observe: async (payee) => JSON.stringify((await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.pos': { at: '2026-03-01T10:00:00+01:00' } } })).cpr.extensions),
    correct: '{"com.example.pos":{"at":"2026-03-01T10:00:00+01:00"}}',
    mutant: '{"com.example.pos":{"at":"2026-03-01T09:00:00.000Z"}}',
  },
  'payee-extension-keys-unnamespaced-dropped': {
    observes: 'the extensions of a request asked for with a key of neither std: nor reverse-domain form, written back as JSON',
    observe: async (payee) => JSON.stringify((await payee.createRequest({ sub_interface: 'IBAN', extensions: { myKey: 1, 'std:tip': 2 } })).cpr.extensions),
    correct: '{"myKey":1,"std:tip":2}',
    mutant: '{"std:tip":2}',
  },
  'payee-token-store-plain-object': {
    observes: 'retrievals of /cpr/constructor and /cpr/__proto__ over TLS',
    async observe(payee) {
      return [answer(await get(payee, '/cpr/constructor')), answer(await get(payee, '/cpr/__proto__'))];
    },
    correct: ['TOKEN_UNKNOWN', 'TOKEN_UNKNOWN'],
    mutant: [200, 200],
  },
  'payee-token-burned-on-refusal': {
    observes: 'two retrievals at the end of the token lifetime (300 s)',
    async observe(payee, clock) {
      const { token } = await ibanRequest(payee);
      clock.advance(300);
      return [answer(await get(payee, `/cpr/${token}`)), answer(await get(payee, `/cpr/${token}`))];
    },
    correct: ['TOKEN_EXPIRED', 'TOKEN_EXPIRED'],
    mutant: ['TOKEN_EXPIRED', 'TOKEN_CONSUMED'],
  },
  'payee-validity-stretched-to-token-lifetime': {
    observes: "a request's validity (expires_at - created_at, in seconds) under a token lifetime of 900 s and a request validity of 300 s",
    fixture: { tokenLifetimeSeconds: 900, requestValiditySeconds: 300 },
    observe: validityOf,
    correct: 300,
    mutant: 900,
  },
  'payee-validity-whole-minutes': {
    observes: "a request's validity (expires_at - created_at, in seconds) under a request validity of 90 s",
    fixture: { requestValiditySeconds: 90 },
    observe: validityOf,
    correct: 90,
    mutant: 120,
  },
  'payee-token-capped-at-request-expiry': {
    observes: 'a first retrieval 400 s after its request was made, under a token lifetime of 600 s and a request validity of 300 s',
    fixture: { tokenLifetimeSeconds: 600, requestValiditySeconds: 300 },
    observe: (payee, clock) => retrievalAfter(payee, clock, 400_000),
    correct: 200,
    mutant: 'TOKEN_EXPIRED',
  },
  'payee-token-lifetime-capped-15-minutes': {
    observes: 'a first retrieval 1 000 s after its request was made, under a token lifetime of 1 200 s',
    fixture: { tokenLifetimeSeconds: 1200, requestValiditySeconds: 1800 },
    observe: (payee, clock) => retrievalAfter(payee, clock, 1_000_000),
    correct: 200,
    mutant: 'TOKEN_EXPIRED',
  },
  'payee-token-lifetime-fixed': {
    observes: 'a retrieval 400 s after its request was made, under a token lifetime of 600 s',
    fixture: { tokenLifetimeSeconds: 600 },
    observe: (payee, clock) => retrievalAfter(payee, clock, 400_000),
    correct: 200,
    mutant: 'TOKEN_EXPIRED',
  },
  'payee-token-expiry-whole-second': {
    observes: 'a retrieval 1 ms before the end of the lifetime (300 s) of a token made 600 ms into a second',
    observe: (payee, clock) => retrievalAfter(payee, clock, 299_999, Date.UTC(2026, 0, 1) + 600),
    correct: 200,
    mutant: 'TOKEN_EXPIRED',
  },
  'payee-token-expires-at-truncated': {
    observes: 'a retrieval at the token_expires_at the payee reported for a token made 600 ms into a second',
    async observe(payee, clock) {
      clock.set(Date.UTC(2026, 0, 1) + 600);
      const made = await ibanRequest(payee);
      clock.set(Date.parse(made.token_expires_at));
      return answer(await get(payee, `/cpr/${made.token}`));
    },
    correct: 'TOKEN_EXPIRED',
    mutant: 200,
  },
  'payee-token-never-expires': {
    observes: 'a retrieval at the end of the token lifetime (300 s)',
    observe: (payee, clock) => retrievalAfter(payee, clock, 300_000),
    correct: 'TOKEN_EXPIRED',
    mutant: 200,
  },
  'payee-serves-plaintext': {
    observes: 'a retrieval over plaintext HTTP',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return answer(await get(payee, `/cpr/${token}`, false));
    },
    correct: 'TLS_REQUIRED',
    mutant: 200,
  },
  'payee-plaintext-token-kept': {
    observes: 'a retrieval over plaintext HTTP, then one over TLS with the same token',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return [answer(await get(payee, `/cpr/${token}`, false)), answer(await get(payee, `/cpr/${token}`))];
    },
    correct: ['TLS_REQUIRED', 'TOKEN_CONSUMED'],
    mutant: ['TLS_REQUIRED', 200],
  },
  'payee-fulfil-coalesced': {
    observes: 'three concurrent fulfilments of one request through the test-control route',
    async observe(payee) {
      const { request_id } = await ibanRequest(payee);
      const fulfilment = () => payee.handler({ method: 'POST', path: `/_control/payee/requests/${request_id}/fulfil`, query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{}'), authority: 'payee.test', secure: true });
      const answers = await Promise.all([1, 2, 3].map(fulfilment));
      return answers.map(answer).sort();
    },
    correct: [200, 'REQUEST_CONSUMED', 'REQUEST_CONSUMED'],
    mutant: [200, 200, 200],
  },
  'payee-token-race': {
    observes: 'three concurrent retrievals with one token',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      const answers = await Promise.all([1, 2, 3].map(() => get(payee, `/cpr/${token}`)));
      return answers.map(answer).sort();
    },
    correct: [200, 'TOKEN_CONSUMED', 'TOKEN_CONSUMED'],
    mutant: [200, 200, 200],
  },
  'payee-token-cacheable': {
    observes: 'the Cache-Control of a retrieval and of a refused one',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return [(await get(payee, `/cpr/${token}`)).headers?.['cache-control'], (await get(payee, `/cpr/${token}`)).headers?.['cache-control']];
    },
    correct: ['no-store', 'no-store'],
    mutant: ['private, max-age=300', 'private, max-age=300'],
  },
  'payee-fulfil-consumes-expired': {
    observes: 'two fulfilments of a request after its expires_at',
    async observe(payee, clock) {
      const created = await ibanRequest(payee);
      clock.set(parseTimestamp(created.cpr.expires_at, 'cpr')!);
      return [payee.fulfil(created.request_id), payee.fulfil(created.request_id)];
    },
    correct: ['REQUEST_EXPIRED', 'REQUEST_EXPIRED'],
    mutant: ['REQUEST_EXPIRED', 'REQUEST_CONSUMED'],
  },
  'payee-unknown-fulfil-recorded': {
    observes: 'a second fulfilment of a request id the payee never issued',
    async observe(payee) {
      const id = randomUUID();
      expect(await payee.fulfil(id)).toBe('NOT_FOUND');
      return payee.fulfil(id);
    },
    correct: 'NOT_FOUND',
    mutant: 'REQUEST_CONSUMED',
  },
  'payee-unknown-request-answered-expired': {
    observes: 'a fulfilment of a request id the payee never issued',
    observe: async (payee) => payee.fulfil(randomUUID()),
    correct: 'NOT_FOUND',
    mutant: 'REQUEST_EXPIRED',
  },
  'payee-tls-from-forwarded-proto': {
    observes: 'a plaintext retrieval that carries X-Forwarded-Proto: https',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return answer(await payee.handler({ method: 'GET', path: `/cpr/${token}`, query: new URLSearchParams(), headers: { 'x-forwarded-proto': 'https' }, body: new Uint8Array(), authority: 'payee.test', secure: false }));
    },
    correct: 'TLS_REQUIRED',
    mutant: 200,
  },
  'payee-token-from-uuid': {
    observes: "whether the 13th hex digit of eight tokens is always 4 (a UUIDv4's version)",
    async observe(payee) {
      const tokens = await Promise.all(Array.from({ length: 8 }, async () => (await ibanRequest(payee)).token));
      return tokens.every((t) => t[12] === '4');
    },
    correct: false,
    mutant: true,
  },
  'payee-fulfil-repeatable': {
    observes: 'two fulfilments of one request',
    async observe(payee) {
      const { request_id } = await ibanRequest(payee);
      return [payee.fulfil(request_id), payee.fulfil(request_id)];
    },
    correct: ['FULFILLED', 'REQUEST_CONSUMED'],
    mutant: ['FULFILLED', 'FULFILLED'],
  },
  'payee-plaintext-leak-voids-request': {
    observes: "a request's first fulfilment once its live token was presented over plaintext (and burned)",
    async observe(payee) {
      const { request_id, token } = await ibanRequest(payee);
      payee.burn(token);
      return payee.fulfil(request_id);
    },
    correct: 'FULFILLED',
    mutant: 'REQUEST_CONSUMED',
  },
  'payee-read-consumes-request': {
    observes: "a request's first fulfilment once its CPR was read through its token",
    async observe(payee) {
      const { request_id, token } = await ibanRequest(payee);
      expect(payee.retrieve(token).ok).toBe(true);
      return payee.fulfil(request_id);
    },
    correct: 'FULFILLED',
    mutant: 'REQUEST_CONSUMED',
  },
  'payee-token-expiry-clock-never-back': {
    observes: 'a token made with the clock set back a day, after a token was read, retrieved at once',
    async observe(payee, clock) {
      const first = await ibanRequest(payee);
      expect(payee.retrieve(first.token).ok).toBe(true);
      clock.set(clock.now() - 86_400_000);
      const { token } = await ibanRequest(payee);
      const taken = payee.retrieve(token);
      return taken.ok ? 'served' : taken.code;
    },
    correct: 'served',
    mutant: 'TOKEN_EXPIRED',
  },
  'payee-retrieval-reopens-request': {
    observes: "a request's second fulfilment once its unused token was retrieved after the first",
    async observe(payee) {
      const { request_id, token } = await ibanRequest(payee);
      expect(payee.fulfil(request_id)).toBe('FULFILLED');
      expect(payee.retrieve(token).ok).toBe(true);
      return payee.fulfil(request_id);
    },
    correct: 'REQUEST_CONSUMED',
    mutant: 'FULFILLED',
  },
  'payee-request-retention-token-lifetime': {
    observes: 'a fulfilment a token lifetime (300 s) after expires_at, within the validity period (900 s)',
    async observe(payee, clock) {
      const created = await ibanRequest(payee);
      clock.set(parseTimestamp(created.cpr.expires_at, 'cpr')! + 300_000);
      return payee.fulfil(created.request_id);
    },
    correct: 'REQUEST_EXPIRED',
    mutant: 'NOT_FOUND',
  },
  'payee-used-token-forgotten-from-use': {
    observes: 'a token used when made, presented again 450 s later (lifetime 300 s: known until 600 s)',
    async observe(payee, clock) {
      const { token } = await ibanRequest(payee);
      await get(payee, `/cpr/${token}`);
      clock.advance(450);
      return answer(await get(payee, `/cpr/${token}`));
    },
    correct: 'TOKEN_CONSUMED',
    mutant: 'TOKEN_UNKNOWN',
  },
  'payee-fulfil-at-expiry': {
    observes: 'a fulfilment at the very instant of expires_at',
    async observe(payee, clock) {
      const created = await ibanRequest(payee);
      clock.set(parseTimestamp(created.cpr.expires_at, 'cpr')!);
      return payee.fulfil(created.request_id);
    },
    correct: 'REQUEST_EXPIRED',
    mutant: 'FULFILLED',
  },
  'payee-inline-limit-off-by-one': {
    observes: 'the inline URI of a request whose inline form is exactly 2 048 bytes',
    async observe(payee) {
      // The JSON of 1 523 bytes is a 2 031-character payload: 17 + 2 031 = 2 048 bytes.
      const probe = await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.pad': '' } });
      const pad = 1523 - JSON.stringify(probe.cpr).length;
      const created = await payee.createRequest({ sub_interface: 'IBAN', extensions: { 'com.example.pad': 'x'.repeat(pad) } });
      return created.inline_uri === undefined ? 'absent' : `${created.inline_uri.length} bytes`;
    },
    correct: '2048 bytes',
    mutant: 'absent',
  },
  'payee-token-from-request-id': {
    observes: "whether a request's token is the SHA-256 of its request_id",
    async observe(payee) {
      const created = await ibanRequest(payee);
      return created.token === createHash('sha256').update(created.request_id).digest('hex').slice(0, 32);
    },
    correct: false,
    mutant: true,
  },
  'payee-token-lifetime-20-minutes': {
    observes: 'the configured token lifetime, and how long a token lives (seconds)',
    async observe(payee) {
      const { token_expires_at } = await ibanRequest(payee);
      return [payee.config.token_lifetime_seconds, (parseTimestamp(token_expires_at)! - Date.UTC(2026, 0, 1)) / 1000];
    },
    correct: [300, 300],
    mutant: [1200, 1200],
  },
  'payee-request-id-upper-case': {
    observes: 'whether request_id is a canonical lower-case UUID',
    observe: async (payee) => isUuid((await ibanRequest(payee)).request_id),
    correct: true,
    mutant: false,
  },
  'payee-timestamp-local-time': {
    observes: 'created_at of a request made at 2026-01-01T00:00:00Z',
    observe: async (payee) => (await ibanRequest(payee)).cpr.created_at,
    correct: '2026-01-01T00:00:00Z',
    mutant: '2026-01-01T02:00:00+02:00',
  },
  'payee-retrieval-text-plain': {
    observes: 'the content type of a retrieved CPR',
    async observe(payee) {
      return (await get(payee, `/cpr/${(await ibanRequest(payee)).token}`)).headers?.['content-type'];
    },
    correct: 'application/json',
    mutant: 'text/plain; charset=utf-8',
  },
  'payee-account-beneficiary-missing': {
    observes: 'whether an account request carries beneficiary_name',
    observe: async (payee) => Object.hasOwn((await payee.createRequest({ sub_interface: 'ACCOUNT', amount: '4999' })).cpr, 'beneficiary_name'),
    correct: true,
    mutant: false,
  },
  'payee-deep-link-https': {
    observes: 'the scheme of the deep link',
    observe: async (payee) => new URL((await ibanRequest(payee)).deep_link).protocol,
    correct: 'std-cpr:',
    mutant: 'https:',
  },
  'payee-instant-key-type-missing': {
    observes: 'the key_type of an instant-key request, at the top level and in rail_address',
    async observe(payee) {
      const { cpr } = await payee.createRequest({ sub_interface: 'INSTANT_KEY', amount: '500' });
      return [cpr.key_type, (cpr.payee.rail_address as { key_type?: unknown }).key_type];
    },
    correct: ['EVP', 'EVP'],
    mutant: [undefined, undefined],
  },
  'payee-timestamp-zeros-trimmed': {
    observes: 'the created_at of a request made with the clock on a whole second (2026-01-01T00:00:00Z), or that it was not made',
    observe: (payee) => ibanRequest(payee).then(({ cpr }) => cpr.created_at, () => 'not made'),
    correct: '2026-01-01T00:00:00Z',
    mutant: 'not made',
  },
  'payee-timestamp-offset': {
    observes: 'whether created_at and expires_at are written with Z',
    async observe(payee) {
      const { cpr } = await ibanRequest(payee);
      return [cpr.created_at, cpr.expires_at].map((t) => t.endsWith('Z'));
    },
    correct: [true, true],
    mutant: [false, false],
  },
  'payee-memo-utf16-truncated': {
    observes: 'the code points of a served memo of 140 emoji',
    observe: async (payee) => codePoints((await payee.createRequest({ sub_interface: 'IBAN', memo: '😀'.repeat(140) })).cpr.memo ?? ''),
    correct: 140,
    mutant: 70,
  },
  'payee-memo-nul-dropped': {
    observes: 'the memo served for one asked with a NUL between two words',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', memo: 'Rechnung\u00007' })).cpr.memo,
    correct: 'Rechnung\u00007',
    mutant: 'Rechnung7',
  },
  'payee-memo-line-breaks-folded': {
    observes: 'the memo served for one asked with a line feed, a CRLF and a line separator',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'ACCOUNT', memo: 'Rechnung 7\nZeile\r\nzwei\u2028drei' })).cpr.memo,
    correct: 'Rechnung 7\nZeile\r\nzwei\u2028drei',
    mutant: 'Rechnung 7 Zeile zwei drei',
  },
  'payee-empty-memo-dropped': {
    observes: 'the memo of a request asked for with the empty memo',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'ON_CHAIN', memo: '' })).cpr.memo ?? 'none',
    correct: '',
    mutant: 'none',
  },
  'ctl-extensions-dropped': {
    observes: 'the extensions of a request asked to carry some',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'INSTANT_KEY', extensions: { 'com.example.order': { id: 'P-318' } } })).cpr.extensions,
    correct: { 'com.example.order': { id: 'P-318' } },
    mutant: undefined,
  },
  'payee-endpoint-from-forwarded-host': {
    observes: 'the endpoint host of a request created with X-Forwarded-Host: evil.example',
    observe: (payee) => qrEndpointHost(payee, { 'x-forwarded-host': 'evil.example' }, 'payee.test'),
    correct: 'payee.test',
    mutant: 'evil.example',
  },
  'payee-endpoint-from-host-header': {
    observes: 'the endpoint host of a request created with Host: evil.example',
    observe: (payee) => qrEndpointHost(payee, { host: 'evil.example' }, 'payee.test'),
    correct: 'payee.test',
    mutant: 'evil.example',
  },
  'payee-token-prefix-match': {
    observes: 'a retrieval with the token and two characters more, then with the token',
    async observe(payee) {
      const { token } = await ibanRequest(payee);
      return [answer(await get(payee, `/cpr/${token}00`)), answer(await get(payee, `/cpr/${token}`))];
    },
    correct: ['TOKEN_UNKNOWN', 200],
    mutant: [200, 'TOKEN_CONSUMED'],
  },
  'payee-deep-link-token-reusable': {
    observes: "two retrievals with the deep link's token",
    async observe(payee) {
      const parsed = parseDeliveryUri((await ibanRequest(payee)).deep_link);
      const token = parsed.kind === 'token' ? parsed.token : '';
      return [answer(await get(payee, `/cpr/${token}`)), answer(await get(payee, `/cpr/${token}`))];
    },
    correct: [200, 'TOKEN_CONSUMED'],
    mutant: [200, 200],
  },
  'payee-amount-through-double': {
    observes: 'the served amount of a request for 2^53 + 1',
    observe: async (payee) => (await payee.createRequest({ sub_interface: 'IBAN', amount: '9007199254740993' })).cpr.value.amount,
    correct: '9007199254740993',
    mutant: '9007199254740992',
  },
  'payee-payer-check-top-level': {
    observes: 'the payer-named members of a request asked to carry extensions with a payer member one level down',
    observe: (payee) => createdOrRefused(payee, { sub_interface: 'IBAN', extensions: { 'com.example.order': { payer: { name: 'A. Payer' } } } }, ({ cpr }) => findPayerMembers(cpr).map((v) => v.path)),
    correct: 'refused',
    mutant: ['/extensions/com.example.order/payer'],
  },
  'payee-payer-check-over-json-text': {
    observes: 'a request asked to carry an extension whose value, not name, is "settlement"',
    observe: (payee) => createdOrRefused(payee, { sub_interface: 'IBAN', extensions: { 'com.example.kind': 'settlement' } }, ({ cpr }) => (cpr as { extensions?: unknown }).extensions),
    correct: { 'com.example.kind': 'settlement' },
    mutant: 'refused',
  },
  'payee-extensions-nesting-capped': {
    observes: 'a request asked to carry extensions 21 levels of objects deep, the extensions object included',
    async observe(payee) {
      let nested: unknown = 'deepest';
      for (let level = 0; level < 20; level++) nested = { [`l${level}`]: nested };
      return createdOrRefused(payee, { sub_interface: 'IBAN', extensions: { 'com.example.nested': nested } }, ({ cpr }) => (cpr.extensions !== undefined ? 'served' : 'dropped'));
    },
    correct: 'served',
    mutant: 'refused',
  },
  'payee-input-amount-normalised': {
    observes: 'a request asked for the amount "0250"',
    observe: (payee) => createdOrRefused(payee, { sub_interface: 'IBAN', amount: '0250' }, ({ cpr }) => cpr.value?.amount ?? 'served without an amount'),
    correct: 'refused',
    mutant: '250',
  },
  'payee-blank-display-name-refused': {
    observes: 'a request asked to carry the display_name of one ideographic space',
    observe: (payee) => createdOrRefused(payee, { sub_interface: 'IBAN', display_name: '\u3000' }, ({ cpr }) => (cpr.payee.display_name === '\u3000' ? 'served' : 'changed')),
    correct: 'served',
    mutant: 'refused',
  },
  'payee-control-bom-stripped': {
    observes: 'a test-control request body that starts with a byte order mark',
    observe: async (payee) =>
      answer(
        await payee.handler({
          method: 'POST',
          path: '/_control/payee/requests',
          query: new URLSearchParams(),
          headers: { 'content-type': 'application/json' },
          body: new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"sub_interface":"IBAN"}')]),
          authority: 'payee.test',
          secure: true,
        }),
      ),
    correct: 'MALFORMED_REQUEST',
    mutant: 201,
  },
  'payee-control-error-plain-json': {
    observes: 'the media type of the answer to a request input with an amount that is not an amount',
    async observe(payee) {
      const body = new TextEncoder().encode(JSON.stringify({ sub_interface: 'IBAN', amount: '01' }));
      const response = await payee.handler({ method: 'POST', path: '/_control/payee/requests', query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, body, authority: 'payee.test', secure: true });
      return [response.status, serializeResponse(response, 'POST').headers['content-type']];
    },
    correct: [400, 'application/problem+json'],
    mutant: [400, 'application/json'],
  },
  'payee-null-input-read-as-absent': {
    observes: 'the status of the answer to a request input with "amount": null',
    async observe(payee) {
      const body = new TextEncoder().encode(JSON.stringify({ sub_interface: 'IBAN', amount: null }));
      return (await payee.handler({ method: 'POST', path: '/_control/payee/requests', query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, body, authority: 'payee.test', secure: true })).status;
    },
    correct: 400,
    mutant: 201,
  },
  'payee-control-created-200': {
    observes: 'the status of the answer to a request created through test control',
    async observe(payee) {
      const body = new TextEncoder().encode(JSON.stringify({ sub_interface: 'IBAN', amount: '100' }));
      return (await payee.handler({ method: 'POST', path: '/_control/payee/requests', query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, body, authority: 'payee.test', secure: true })).status;
    },
    correct: 201,
    mutant: 200,
  },
  'payee-problem-type-about-blank': {
    observes: 'the problem type of a retrieval with an unknown token',
    observe: async (payee) => ((await get(payee, `/cpr/${'0'.repeat(32)}`)).body as { type?: string }).type,
    correct: 'https://cpr-conformance.dev/problems/TOKEN_UNKNOWN',
    mutant: 'about:blank',
  },
};

describe('payee mutants', () => {
  it('has a probe for every payee mutant', () => {
    expect(Object.keys(PROBES).sort()).toEqual(MUTANTS.filter((m) => m.role === 'payee' && m.catcher === 'suite').map((m) => m.name).sort());
  });

  describe.each(Object.entries(PROBES))('%s', (name, probe) => {
    const description = MUTANTS.find((m) => m.name === name)?.description;
    it(`the correct payee: ${probe.observes}`, async () => {
      const { payee, clock } = newPayee(undefined, probe.fixture);
      expect(await probe.observe(payee, clock)).toEqual(probe.correct);
    });
    it(`the mutant (${description}): ${probe.observes}`, async () => {
      const { payee, clock } = newPayee(faultsFor(name), probe.fixture);
      expect(await probe.observe(payee, clock)).toEqual(probe.mutant);
    });
  });
});
