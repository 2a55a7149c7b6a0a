// Each paying-application suite mutant is a real fault: the same probe, run against the
// correct application and against the mutant, observes the correct behaviour and
// the described fault. The application is the library, called with read and derive
// (its fuzzer mutants are probed in switches.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetrievalStub, type Impostor } from '../../../harness/stub/retrieval-stub.ts';
import { encodeB64url } from '../../../profile/index.ts';
import { problem, type ProblemCode } from '../../../profile/problems.ts';
import { MUTANTS, faultsFor, type Faults, type MutantOfRole } from '../../../reference/mutants.ts';
import { createPayingApp, type DerivationContext, type Derivation, type PayingApp } from '../../../reference/paying-app/index.ts';
import type { Accepted, Rejection } from '../../../reference/paying-app/index.ts';

/** The application's clock: five minutes into the request's fifteen. */
const NOW = Date.UTC(2030, 0, 1, 0, 5);

const IBAN_CPR = {
  cpr_version: 'CPR-1.0',
  request_id: '4e1f7a2c-9b3d-4c5e-8f6a-0b1c2d3e4f50',
  created_at: '2030-01-01T00:00:00Z',
  expires_at: '2030-01-01T00:15:00Z',
  payee: { display_name: 'Beispiel Buchhandlung GmbH', rail_address: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } },
  value: { amount: '1250', asset: { type: 'fiat', code: 'EUR' } },
  memo: 'Invoice 2026-0042',
  rail_hint: 'SEPA_CT',
  beneficiary_name: 'Beispiel Buchhandlung GmbH',
  remittance_info: 'Invoice 2026-0042',
};

const ON_CHAIN_CPR = {
  cpr_version: 'CPR-1.0',
  request_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  created_at: '2030-01-01T00:00:00Z',
  expires_at: '2030-01-01T00:15:00Z',
  payee: { rail_address: { chain_id: '1', receiver_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' } },
  value: { amount: '1000000', asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' } },
  rail_hint: 'ON_CHAIN',
};

const INSTANT_KEY_CPR = {
  cpr_version: 'CPR-1.0',
  request_id: '7e8f9a0b-1c2d-4e3f-a4b5-c6d7e8f9a0b1',
  created_at: '2030-01-01T00:00:00Z',
  expires_at: '2030-01-01T00:15:00Z',
  payee: { rail_address: { key_type: 'ALIAS', key_value: 'padaria.exemplo' } },
  value: { amount: '3590', asset: { type: 'fiat', code: 'BRL' } },
  rail_hint: 'PIX',
};

const CONTEXT: DerivationContext = {
  payer: { id: 'payer-7c1e', name: 'Alex Example' },
  rail: { provider: 'example-bank', rail: 'SEPA_CT' },
  authorization: { type: 'sca', proof: 'opaque-proof-0001' },
};

/** The IBAN request with some members replaced (undefined deletes one). */
function iban(changes: Record<string, unknown>): Record<string, unknown> {
  const cpr: Record<string, unknown> = { ...structuredClone(IBAN_CPR), ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete cpr[key];
  return cpr;
}

/** 'accepted', or the rejection code. */
const outcome = (result: Accepted | Rejection | Derivation): string => (result.ok ? 'accepted' : result.code);

/** The Payment's context.conversion when IBAN_CPR is derived with `conversion` ('none' when it has none), or the rejection's code. */
function conversionOf(app: PayingApp, conversion: NonNullable<DerivationContext['conversion']>): unknown {
  const derived = app.derive(IBAN_CPR, { ...CONTEXT, conversion });
  return derived.ok ? ((derived.payment.context as { conversion?: unknown }).conversion ?? 'none') : derived.code;
}
const read = (app: PayingApp, value: unknown) => app.read({ kind: 'object', value });

/** 'accepted', or the rejection code, for a request file holding `content`. */
async function readFileOf(app: PayingApp, content: string | Uint8Array): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cpr-file-'));
  try {
    writeFileSync(join(dir, 'r.json'), content);
    return outcome(await app.read({ kind: 'file', path: join(dir, 'r.json') }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Probe {
  /** What the probe looks at. */
  readonly observes: string;
  readonly now?: number;
  observe(app: PayingApp): Promise<unknown>;
  /** What the correct application shows, and what the mutant shows. */
  readonly correct: unknown;
  readonly mutant: unknown;
}

/** A stand-in payee for the probes that resolve a token URI; every application here trusts its CA. */
let stub: RetrievalStub;
beforeAll(async () => {
  stub = await RetrievalStub.start();
});
afterAll(() => stub.close());

/** The outcome of resolving a URI of the stub serving IBAN_CPR, and what the stub saw: `outcome/retrievals/in the clear`. */
async function resolved(app: PayingApp, exhibit: { readonly status?: number; readonly padTo?: number; readonly redirect?: number; readonly bom?: boolean; readonly html?: boolean; readonly contentType?: string; readonly problem?: ProblemCode; readonly trailing?: string; readonly date?: string }, placement: { readonly plaintext?: boolean; readonly basePath?: string; readonly paramsFirst?: string; readonly scheme?: string; readonly impostor?: Impostor; readonly host?: 'localhost' | '127.0.0.1' }): Promise<string> {
  const json = exhibit.html ? '<html><body>Payment request</body></html>' : exhibit.problem !== undefined ? JSON.stringify(problem(exhibit.problem, 'the retrieval token has expired')) : JSON.stringify(IBAN_CPR);
  const body = new TextEncoder().encode(`${exhibit.bom ? '\uFEFF' : ''}${exhibit.padTo === undefined ? json : json.padEnd(exhibit.padTo, ' ')}${exhibit.trailing ?? ''}`);
  const served = stub.serve({ ...(exhibit.status !== undefined ? { status: exhibit.status } : {}), ...(exhibit.redirect !== undefined ? { redirect: exhibit.redirect } : {}), headers: { 'content-type': exhibit.contentType ?? 'application/json', ...(exhibit.date !== undefined ? { date: exhibit.date } : {}) }, body }, { basePath: '', ...placement });
  try {
    const withParams = placement.paramsFirst === undefined ? served.uri : served.uri.replace('?', `?${placement.paramsFirst}&`);
    const uri = placement.scheme === undefined ? withParams : withParams.replace('endpoint=https%3A', `endpoint=${placement.scheme}%3A`);
    const result = outcome(await app.read({ kind: 'uri', uri }));
    const seen = stub.seen(served.id);
    return `${result}/${seen.filter((s) => s.where === 'retrieval').length}/${seen.filter((s) => !s.secure).length}${exhibit.redirect !== undefined ? `/${seen.filter((s) => s.where === 'redirect-target').length}` : ''}`;
  } finally {
    stub.forget(served.id);
  }
}

const PROBES: Record<MutantOfRole<'paying-app'>, Probe> = {
  'app-violation-pointer-unescaped': {
    observes: 'the paths of the violations of a request with an unknown member named meta/v2 and one named ~note',
    async observe(app) {
      const result = await read(app, iban({ 'meta/v2': 'x', '~note': 'x' }));
      return result.ok ? 'accepted' : (result.violations ?? []).map((v) => v.path).sort();
    },
    correct: ['/meta~1v2', '/~0note'],
    mutant: ['/meta/v2', '/~note'],
  },
  'app-violation-path-dotted': {
    observes: 'the paths of the violations of a request whose amount has a leading zero',
    async observe(app) {
      const result = await read(app, iban({ value: { amount: '01250', asset: { type: 'fiat', code: 'EUR' } } }));
      return result.ok ? 'accepted' : (result.violations ?? []).map((v) => v.path);
    },
    correct: ['/value/amount'],
    mutant: ['value.amount'],
  },
  'app-version-decides-only-alone': {
    observes: 'a request written to CPR-2.0 with a member 1.0 does not know',
    observe: async (app) => outcome(await read(app, iban({ cpr_version: 'CPR-2.0', settlement_window: 'PT5M' }))),
    correct: 'CPR_VERSION_UNSUPPORTED',
    mutant: 'CPR_INVALID',
  },
  'app-token-length-fixed-32': {
    observes: 'a token URI whose token has 64 hex digits, pointing at a closed port, read',
    observe: async (app) => outcome(await app.read({ kind: 'uri', uri: `std-cpr://${'a'.repeat(64)}?endpoint=https%3A%2F%2F127.0.0.1%3A9` })),
    correct: 'RETRIEVAL_FAILED',
    mutant: 'URI_INVALID',
  },
  'app-endpoint-ipv6-refused': {
    observes: 'a token URI whose endpoint is an IPv6 literal (https://[::1]:9), pointing at a closed port, read',
    observe: async (app) => outcome(await app.read({ kind: 'uri', uri: `std-cpr://${'a'.repeat(32)}?endpoint=${encodeURIComponent('https://[::1]:9')}` })),
    correct: 'RETRIEVAL_FAILED',
    mutant: 'URI_INVALID',
  },
  'app-token-uri-bounded-as-inline': {
    observes: 'a token URI of 2 049 bytes (another parameter pads it), pointing at a closed port, read',
    observe: async (app) => {
      const uri = `std-cpr://${'a'.repeat(32)}?endpoint=https%3A%2F%2F127.0.0.1%3A9&pad=`;
      return outcome(await app.read({ kind: 'uri', uri: uri + 'x'.repeat(2049 - uri.length) }));
    },
    correct: 'RETRIEVAL_FAILED',
    mutant: 'URI_INVALID',
  },
  'app-endpoint-query-kept': {
    observes: 'a token URI whose endpoint carries a query (https://127.0.0.1:9/pay?x=1), pointing at a closed port, read',
    observe: async (app) => outcome(await app.read({ kind: 'uri', uri: `std-cpr://${'a'.repeat(32)}?endpoint=${encodeURIComponent('https://127.0.0.1:9/pay?x=1')}` })),
    correct: 'URI_INVALID',
    mutant: 'RETRIEVAL_FAILED',
  },
  'app-token-uri-path-passed-over': {
    observes: 'a token URI with a path after its token (std-cpr://<token>/pay?endpoint=https://127.0.0.1:9), pointing at a closed port, read',
    observe: async (app) => outcome(await app.read({ kind: 'uri', uri: `std-cpr://${'a'.repeat(32)}/pay?endpoint=${encodeURIComponent('https://127.0.0.1:9')}` })),
    correct: 'URI_INVALID',
    mutant: 'RETRIEVAL_FAILED',
  },
  'app-uri-white-space-trimmed': {
    observes: 'a token URI pointing at a closed port, read with a line break after it',
    observe: async (app) => outcome(await app.read({ kind: 'uri', uri: `std-cpr://${'a'.repeat(32)}?endpoint=${encodeURIComponent('https://127.0.0.1:9')}\n` })),
    correct: 'URI_INVALID',
    mutant: 'RETRIEVAL_FAILED',
  },
  'app-endpoint-escapes-upper-hex-only': {
    observes: 'a token URI whose endpoint is written with lower-case hex escapes (https%3a%2f%2f127.0.0.1%3a9), read',
    observe: async (app) => outcome(await app.read({ kind: 'uri', uri: `std-cpr://${'a'.repeat(32)}?endpoint=https%3a%2f%2f127.0.0.1%3a9` })),
    correct: 'RETRIEVAL_FAILED',
    mutant: 'URI_INVALID',
  },
  'app-endpoint-parameter-name-case-folded': {
    observes: 'a token URI of the reference payee read with Endpoint= and ENDPOINT= parameters after its own endpoint',
    async observe(app) {
      const result = await app.read({ kind: 'uri', uri: `std-cpr://${'a'.repeat(32)}?endpoint=https%3A%2F%2F127.0.0.1%3A9&Endpoint=x&ENDPOINT=y` });
      return result.ok ? 'accepted' : result.code === 'URI_INVALID' && /endpoint parameter/.test(result.message) ? 'URI_INVALID: endpoints' : result.code;
    },
    correct: 'RETRIEVAL_FAILED',
    mutant: 'URI_INVALID: endpoints',
  },
  'app-object-input-not-ijson-checked': {
    observes: 'an in-memory request whose memo holds a lone high surrogate, and one nested 33 deep in an extension',
    async observe(app) {
      let deep: unknown = 0;
      for (let level = 0; level < 31; level++) deep = [deep];
      return [outcome(await app.read({ kind: 'object', value: iban({ memo: 'Invoice \ud800' }) })), outcome(await app.read({ kind: 'object', value: iban({ extensions: { 'com.example.deep': deep } }) }))];
    },
    correct: ['CPR_INVALID', 'CPR_INVALID'],
    mutant: ['accepted', 'accepted'],
  },
  'app-root-pointer-written-slash': {
    observes: 'the violation paths of a direct text that is no JSON',
    async observe(app) {
      const result = await app.read({ kind: 'json', text: '{"cpr_version":' });
      return result.ok ? 'accepted' : (result.violations ?? []).map((v) => v.path);
    },
    correct: [''],
    mutant: ['/'],
  },
  'app-memo-141-accepted': {
    observes: 'a memo of 141 characters',
    observe: async (app) => outcome(await read(app, iban({ memo: 'x'.repeat(141) }))),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-chain-id-condition-ignored': {
    observes: 'a stablecoin asset without chain_id',
    observe: async (app) => outcome(await read(app, iban({ value: { amount: '1250', asset: { type: 'stablecoin', code: 'USDC' } } }))),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-unknown-rail-hint-crash': {
    observes: 'a derivation, then a read, of a request with rail_hint FEDNOW',
    async observe(app) {
      const cpr = iban({ rail_hint: 'FEDNOW' });
      let derived: string;
      try {
        derived = outcome(app.derive(cpr, CONTEXT));
      } catch (error) {
        derived = `throws ${(error as Error).name}`;
      }
      return [derived, outcome(await read(app, cpr))];
    },
    correct: ['accepted', 'accepted'],
    mutant: ['throws TypeError', 'CPR_INVALID'],
  },
  'app-unknown-extension-rejected': {
    observes: 'an extensions key that is neither std: nor reverse-domain',
    observe: async (app) => outcome(await read(app, iban({ extensions: { loyalty: 'gold' } }))),
    correct: 'accepted',
    mutant: 'CPR_INVALID',
  },
  'app-payer-field-accepted': {
    observes: 'a request carrying a payer member',
    observe: async (app) => outcome(await read(app, iban({ payer: { name: 'Alex Example' } }))),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-payer-names-case-folded': {
    observes: 'a request whose extension holds members named Payer and AUTHORIZATION (no payer names: PROFILE.md §7.5 names exactly payer, authorization, settlement and payer_…)',
    observe: async (app) => outcome(await read(app, iban({ extensions: { 'com.example.roles': { Payer: 'customer', AUTHORIZATION: 'none' } } }))),
    correct: 'accepted',
    mutant: 'CPR_INVALID',
  },
  'app-payer-in-array-accepted': {
    observes: 'a request whose extension holds a payer member inside an array',
    observe: async (app) => outcome(await read(app, iban({ extensions: { 'com.example.order': { items: [{ payer: { name: 'Alex Example' } }] } } }))),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-version-unchecked': {
    observes: 'a request of cpr_version CPR-2.0',
    observe: async (app) => outcome(await read(app, iban({ cpr_version: 'CPR-2.0' }))),
    correct: 'CPR_VERSION_UNSUPPORTED',
    mutant: 'accepted',
  },
  'app-iban-checksum-unchecked': {
    observes: 'an IBAN with wrong check digits',
    observe: async (app) => outcome(await read(app, iban({ payee: { rail_address: { iban: 'DE89370400440532013001' } } }))),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-acquirer-id-not-defaulted': {
    observes: 'the acquirer_id condition of an on-chain request without one',
    async observe(app) {
      const derived = app.derive(ON_CHAIN_CPR, CONTEXT);
      return derived.ok ? derived.payment.intent.conditions.acquirer_id : derived.code;
    },
    correct: '00000000-0000-0000-0000-000000000000',
    mutant: undefined,
  },
  'app-key-type-closed': {
    observes: 'an instant-key request with key_type ALIAS',
    observe: async (app) => outcome(await read(app, INSTANT_KEY_CPR)),
    correct: 'accepted',
    mutant: 'CPR_INVALID',
  },
  'app-inline-padding-accepted': {
    observes: 'an inline URI whose payload ends in = padding',
    async observe(app) {
      const uri = `std-cpr://inline/${encodeB64url(new TextEncoder().encode(JSON.stringify(IBAN_CPR)))}=`;
      return outcome(await app.read({ kind: 'uri', uri }));
    },
    correct: 'URI_INVALID',
    mutant: 'accepted',
  },
  'app-past-expiry-accepted': {
    observes: 'a request read a minute after its expires_at',
    now: Date.UTC(2030, 0, 1, 0, 16),
    observe: async (app) => outcome(await read(app, IBAN_CPR)),
    correct: 'CPR_EXPIRED',
    mutant: 'accepted',
  },
  'app-expiry-instant-accepted': {
    observes: 'a request read at exactly its expires_at',
    now: Date.UTC(2030, 0, 1, 0, 15),
    observe: async (app) => outcome(await read(app, IBAN_CPR)),
    correct: 'CPR_EXPIRED',
    mutant: 'accepted',
  },
  'app-amount-converted': {
    observes: "the Payment value when the payer's money is converted",
    async observe(app) {
      const conversion = { asset: { type: 'fiat', code: 'USD' } as const, amount: '1360', rate: '1.088' };
      const derived = app.derive(IBAN_CPR, { ...CONTEXT, conversion });
      return derived.ok ? derived.payment.value : derived.code;
    },
    correct: { amount: '1250', asset: { type: 'fiat', code: 'EUR' } },
    mutant: { amount: '1360', asset: { type: 'fiat', code: 'USD' } },
  },
  'app-same-code-conversion-undisclosed': {
    observes: "the Payment's context.conversion when the payer's money is converted into tokenized EUR for a fiat EUR request",
    observe: async (app) => conversionOf(app, { asset: { type: 'tokenized', code: 'EUR', chain_id: '1' }, amount: '1250', rate: '1' }),
    correct: { asset: { type: 'tokenized', code: 'EUR', chain_id: '1' }, amount: '1250', rate: '1', disclosed: true },
    mutant: 'none',
  },
  'app-amount-before-rail': {
    observes: 'a request for 1250 on SEPA_CT, derived with supported_rails that leave SEPA_CT out and a payer offering 1249',
    async observe(app) {
      const derived = app.derive({ ...IBAN_CPR, rail_hint: 'SEPA_CT' }, { ...CONTEXT, payer_amount: '1249', supported_rails: ['ON_CHAIN'] });
      return derived.ok ? 'a Payment' : derived.code;
    },
    correct: 'RAIL_UNSUPPORTED',
    mutant: 'PARTIAL_PAYMENT_UNSUPPORTED',
  },
  'app-conversion-rate-through-double': {
    observes: "the rate of the Payment's context.conversion when the payer's money is converted at 1.0850",
    async observe(app) {
      const derived = app.derive(IBAN_CPR, { ...CONTEXT, conversion: { asset: { type: 'fiat', code: 'USD' }, amount: '1085', rate: '1.0850' } });
      return derived.ok ? (derived.payment.context as { conversion?: { rate?: unknown } }).conversion?.rate : derived.code;
    },
    correct: '1.0850',
    mutant: '1.085',
  },
  'app-open-amount-through-double': {
    observes: "the payer's amount 2^53 + 1 for an open request",
    async observe(app) {
      const { amount: _open, ...value } = IBAN_CPR.value;
      const derived = app.derive({ ...IBAN_CPR, value }, { ...CONTEXT, payer_amount: '9007199254740993' });
      return derived.ok ? derived.payment.value.amount : derived.code;
    },
    correct: '9007199254740993',
    mutant: '9007199254740992',
  },
  'app-open-amount-from-conversion': {
    observes: "the amount paid for an open request, the payer offering 1000 and the application converting to 1085 USD",
    async observe(app) {
      const { amount: _open, ...value } = IBAN_CPR.value;
      const derived = app.derive({ ...IBAN_CPR, value }, { ...CONTEXT, payer_amount: '1000', conversion: { asset: { type: 'fiat', code: 'USD' }, amount: '1085', rate: '1.085' } });
      return derived.ok ? derived.payment.value.amount : derived.code;
    },
    correct: '1000',
    mutant: '1085',
  },
  'app-partial-payment-accepted': {
    observes: 'a payer amount of 1000 for a request of 1250',
    async observe(app) {
      const derived = app.derive(IBAN_CPR, { ...CONTEXT, payer_amount: '1000' });
      return derived.ok ? derived.payment.value.amount : derived.code;
    },
    correct: 'PARTIAL_PAYMENT_UNSUPPORTED',
    mutant: '1000',
  },
  'app-missing-rail-filled-from-hint': {
    observes: "context.rail of the Payment derived from an IBAN request hinting SEPA_CT, with a context whose rail is null",
    async observe(app) {
      const result = app.derive({ ...IBAN_CPR, rail_hint: 'SEPA_CT' }, { ...CONTEXT, rail: null } as never);
      return result.ok ? ((result.payment as unknown as { context: { rail?: unknown } }).context.rail ?? null) : result.code;
    },
    correct: null,
    mutant: 'SEPA_CT',
  },
  'app-payment-id-reused': {
    observes: 'whether two derivations of one request get different Payment ids',
    async observe(app) {
      const [a, b] = [app.derive(IBAN_CPR, CONTEXT), app.derive(IBAN_CPR, CONTEXT)];
      return a.ok && b.ok && a.payment.id !== b.payment.id;
    },
    correct: true,
    mutant: false,
  },
  'app-reference-ignores-memo': {
    observes: "the intent's reference of a request with a memo",
    async observe(app) {
      const derived = app.derive(IBAN_CPR, CONTEXT);
      return derived.ok ? derived.payment.intent.reference : derived.code;
    },
    correct: IBAN_CPR.memo,
    mutant: IBAN_CPR.request_id,
  },
  'app-inline-needs-padding': {
    observes: 'inline URIs of JSON whose lengths leave 0, 1 and 2 bytes over a multiple of 3',
    async observe(app) {
      const answers: string[] = [];
      for (const memo of ['x', 'xx', 'xxx']) {
        const json = JSON.stringify({ ...IBAN_CPR, memo });
        answers.push(`${json.length % 3}:${outcome(await app.read({ kind: 'uri', uri: `std-cpr://inline/${encodeB64url(new TextEncoder().encode(json))}` }))}`);
      }
      return answers.sort();
    },
    correct: ['0:accepted', '1:accepted', '2:accepted'],
    mutant: ['0:accepted', '1:URI_INVALID', '2:URI_INVALID'],
  },
  'app-file-limit-off-by-one': {
    observes: 'a request file of exactly 65 536 bytes',
    observe: (app) => {
      const json = JSON.stringify(IBAN_CPR);
      return readFileOf(app, json + ' '.repeat(65_536 - json.length));
    },
    correct: 'accepted',
    mutant: 'RETRIEVAL_FAILED',
  },
  'app-expiry-clock-truncated': {
    observes: 'a request expiring at .500 of a second, read one millisecond later',
    now: Date.UTC(2030, 0, 1, 0, 15, 0, 501),
    observe: async (app) => outcome(await read(app, iban({ expires_at: '2030-01-01T00:15:00.500Z' }))),
    correct: 'CPR_EXPIRED',
    mutant: 'accepted',
  },
  'app-condition-expiry-canonicalised': {
    observes: "the intent's conditions.expires_at of a request expiring at 00:15:00.5Z",
    async observe(app) {
      const derived = app.derive(iban({ expires_at: '2030-01-01T00:15:00.5Z' }), CONTEXT);
      return derived.ok ? (derived.payment.intent.conditions as Record<string, unknown>).expires_at : derived.code;
    },
    correct: '2030-01-01T00:15:00.5Z',
    mutant: '2030-01-01T00:15:00.500Z',
  },
  'app-rail-hint-prototype-name-refused': {
    observes: 'an IBAN request whose rail_hint is "constructor", derived',
    observe: async (app) => outcome(app.derive({ ...IBAN_CPR, rail_hint: 'constructor' }, CONTEXT)),
    correct: 'accepted',
    mutant: 'RAIL_UNSUPPORTED',
  },
  'app-condition-hex-lower-cased': {
    observes: "the intent's conditions.domain_separator of an ON_CHAIN request whose domain_separator has upper-case hex digits",
    async observe(app) {
      const derived = app.derive({ ...ON_CHAIN_CPR, domain_separator: `0x${'AB'.repeat(16)}${'cd'.repeat(16)}` }, CONTEXT);
      return derived.ok ? (derived.payment.intent.conditions as Record<string, unknown>).domain_separator : derived.code;
    },
    correct: `0x${'AB'.repeat(16)}${'cd'.repeat(16)}`,
    mutant: `0x${'ab'.repeat(16)}${'cd'.repeat(16)}`,
  },
  'app-empty-condition-dropped': {
    observes: "the intent's conditions of a request whose remittance_info is present and empty",
    async observe(app) {
      const derived = app.derive(iban({ remittance_info: '' }), CONTEXT);
      return derived.ok ? String((derived.payment.intent.conditions as Record<string, unknown>).remittance_info) : derived.code;
    },
    correct: '',
    mutant: 'undefined',
  },
  'app-empty-memo-dropped': {
    observes: "the intent's reference of a request whose memo is empty",
    async observe(app) {
      const derived = app.derive(iban({ memo: '' }), CONTEXT);
      return derived.ok ? derived.payment.intent.reference : derived.code;
    },
    correct: '',
    mutant: IBAN_CPR.request_id,
  },
  'app-payer-from-cpr': {
    observes: "the Payment's payer",
    async observe(app) {
      const derived = app.derive(IBAN_CPR, CONTEXT);
      return derived.ok ? derived.payment.payer : derived.code;
    },
    correct: CONTEXT.payer,
    mutant: IBAN_CPR.payee,
  },
  'app-context-values-spread': {
    observes: "the Payment's authorization when the context's is a string",
    async observe(app) {
      const derived = app.derive(IBAN_CPR, { ...CONTEXT, authorization: 'proof-7f3a' });
      return derived.ok ? derived.payment.authorization : derived.code;
    },
    correct: 'proof-7f3a',
    mutant: { 0: 'p', 1: 'r', 2: 'o', 3: 'o', 4: 'f', 5: '-', 6: '7', 7: 'f', 8: '3', 9: 'a' },
  },
  'app-conversion-at-par-undisclosed': {
    observes: "the Payment's context.conversion when the payer's money is converted into USDC at the rate 1.0 for a EUR request",
    observe: async (app) => conversionOf(app, { asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' }, amount: '1250', rate: '1.0' }),
    correct: { asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' }, amount: '1250', rate: '1.0', disclosed: true },
    mutant: 'none',
  },
  'app-unknown-hint-read-as-usual-rail': {
    observes: 'an IBAN request hinted FEDNOW (none of the listed values), derived where only SWIFT is served',
    observe: async (app) => outcome(app.derive(iban({ rail_hint: 'FEDNOW' }), { ...CONTEXT, supported_rails: ['SWIFT'] })),
    correct: 'accepted',
    mutant: 'RAIL_UNSUPPORTED',
  },
  'app-empty-supported-rails-ignored': {
    observes: 'a request hinting SEPA_CT to an application that serves no rail here (supported_rails: [])',
    observe: async (app) => outcome(app.derive(IBAN_CPR, { ...CONTEXT, supported_rails: [] })),
    correct: 'RAIL_UNSUPPORTED',
    mutant: 'accepted',
  },
  'app-conditions-from-hinted-rail': {
    observes: "the conditions' remittance_info of an IBAN request hinted PIX (advisory), paid where PIX is supported",
    async observe(app) {
      const derived = app.derive(iban({ rail_hint: 'PIX' }), { ...CONTEXT, supported_rails: ['PIX', 'SEPA_CT'] });
      return derived.ok ? derived.payment.intent.conditions.remittance_info : derived.code;
    },
    correct: 'Invoice 2026-0042',
    mutant: undefined,
  },
  'app-unsupported-rail-ignored': {
    observes: 'a request hinting SEPA_CT to an application that pays by PIX only',
    observe: async (app) => outcome(app.derive(IBAN_CPR, { ...CONTEXT, supported_rails: ['PIX'] })),
    correct: 'RAIL_UNSUPPORTED',
    mutant: 'accepted',
  },
  'app-derive-skips-validation': {
    observes: 'a derivation from a request whose request_id is not a UUID',
    observe: async (app) => outcome(app.derive(iban({ request_id: 'not-a-uuid' }), CONTEXT)),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-memo-utf16-length': {
    observes: 'a memo of 140 emoji (280 UTF-16 code units)',
    observe: async (app) => outcome(await read(app, iban({ memo: '😀'.repeat(140) }))),
    correct: 'accepted',
    mutant: 'CPR_INVALID',
  },
  'app-caip2-chain-id-equated': {
    observes: "an ON_CHAIN request whose asset chain_id is eip155:1, its rail's chain_id 1",
    observe: async (app) => outcome(await read(app, { ...ON_CHAIN_CPR, value: { amount: '1000000', asset: { type: 'stablecoin', code: 'USDC', chain_id: 'eip155:1' } } })),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-leading-zero-amount': {
    observes: 'the amount "01250"',
    observe: async (app) => outcome(await read(app, iban({ value: { amount: '01250', asset: { type: 'fiat', code: 'EUR' } } }))),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-escaped-surrogate-pair-refused': {
    observes: 'JSON text of a valid CPR whose memo ends in U+1F600 written as its escaped surrogate pair',
    async observe(app) {
      const text = JSON.stringify({ ...IBAN_CPR, memo: 'Invoice \u{1F600}' }).replace('\u{1F600}', '\\ud83d\\ude00');
      return outcome(await app.read({ kind: 'json', text }));
    },
    correct: 'accepted',
    mutant: 'CPR_INVALID',
  },
  'app-duplicate-members-accepted': {
    observes: 'JSON text naming memo twice',
    async observe(app) {
      const text = JSON.stringify(IBAN_CPR).replace(/}$/, ',"memo":"Invoice 2026-0043"}');
      return outcome(await app.read({ kind: 'json', text }));
    },
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-rail-hint-case-folded': {
    observes: 'an IBAN request hinting "on_chain", an unlisted value',
    observe: async (app) => outcome(await read(app, iban({ rail_hint: 'on_chain' }))),
    correct: 'accepted',
    mutant: 'CPR_INVALID',
  },
  'app-timestamp-fraction-unbounded': {
    observes: 'expires_at with six fraction digits',
    observe: async (app) => outcome(await read(app, iban({ expires_at: '2030-01-01T00:15:00.123456Z' }))),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-expiry-fraction-leading-zeros-dropped': {
    observes: 'a request whose expires_at is 00:15:00.05, derived at 00:15:00.2',
    observe: async (app) => outcome(app.derive({ ...IBAN_CPR, expires_at: '2030-01-01T00:15:00.05Z' }, { ...CONTEXT, now: Date.UTC(2030, 0, 1, 0, 15, 0, 200) })),
    correct: 'CPR_EXPIRED',
    mutant: 'accepted',
  },
  'app-expiry-local-time': {
    observes: 'a request ten minutes from expiry, read on a device in Europe/Berlin',
    async observe(app) {
      const zone = process.env.TZ;
      process.env.TZ = 'Europe/Berlin';
      try {
        return outcome(await read(app, IBAN_CPR));
      } finally {
        if (zone === undefined) delete process.env.TZ;
        else process.env.TZ = zone;
      }
    },
    correct: 'accepted',
    mutant: 'CPR_EXPIRED',
  },
  'app-validity-compared-in-seconds': {
    observes: 'a request created at .100 and expiring at .900 of one second',
    observe: async (app) => outcome(await read(app, iban({ created_at: '2030-01-01T00:14:59.100Z', expires_at: '2030-01-01T00:14:59.900Z' }))),
    correct: 'accepted',
    mutant: 'CPR_INVALID',
  },
  'app-reference-normalised': {
    observes: "the intent reference of a memo written in NFD ('Cafe' + U+0301)",
    observe: async (app) => {
      const derived = app.derive(iban({ memo: 'Cafe\u0301' }), CONTEXT);
      return derived.ok ? derived.payment.intent.reference : derived.code;
    },
    correct: 'Cafe\u0301',
    mutant: 'Caf\u00e9',
  },
  'app-payee-address-lowercased': {
    observes: "the Payment payee's receiver_address",
    observe: async (app) => {
      const derived = app.derive(ON_CHAIN_CPR, CONTEXT);
      return derived.ok ? (derived.payment.payee.rail_address as Record<string, unknown>).receiver_address : derived.code;
    },
    correct: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    mutant: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  },
  'app-payee-named-from-beneficiary': {
    observes: "the Payment payee of an IBAN request with a display_name and of one without",
    observe: async (app) => {
      const named = app.derive(IBAN_CPR, CONTEXT);
      const { display_name: _, ...unnamed } = IBAN_CPR.payee;
      const bare = app.derive(iban({ payee: unnamed }), CONTEXT);
      return [named.ok ? named.payment.payee.display_name : named.code, bare.ok ? ('display_name' in bare.payment.payee ? bare.payment.payee.display_name : 'none') : bare.code];
    },
    correct: ['Beispiel Buchhandlung GmbH', 'none'],
    mutant: ['Beispiel Buchhandlung GmbH', 'Beispiel Buchhandlung GmbH'],
  },
  'app-payer-amount-compared-as-number': {
    observes: 'a payer amount of 2^53 offered for a request of 2^53 + 1',
    observe: async (app) => {
      const derived = app.derive(iban({ value: { amount: '9007199254740993', asset: { type: 'fiat', code: 'EUR' } } }), { ...CONTEXT, payer_amount: '9007199254740992' });
      return derived.ok ? derived.payment.value.amount : derived.code;
    },
    correct: 'PARTIAL_PAYMENT_UNSUPPORTED',
    mutant: '9007199254740992',
  },
  'app-file-bom-stripped': {
    observes: 'a request file that starts with a byte order mark',
    observe: (app) => readFileOf(app, `\ufeff${JSON.stringify(IBAN_CPR)}`),
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-file-decoded-leniently': {
    observes: 'a request file whose memo holds the byte ff, which is not UTF-8',
    observe: (app) => {
      const [before, after] = JSON.stringify({ ...IBAN_CPR, memo: 'Invoice @' }).split('@') as [string, string];
      return readFileOf(app, Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from(after)]));
    },
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-duplicate-check-raw-names': {
    observes: 'JSON text naming memo twice, the second time as "m\\u0065mo"',
    async observe(app) {
      const text = JSON.stringify(IBAN_CPR).replace(/}$/, ',"m\\u0065mo":"Invoice 2026-0043"}');
      return outcome(await app.read({ kind: 'json', text }));
    },
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-plaintext-endpoint-fetched': {
    observes: 'a token URI whose endpoint is http:// (the stub refuses every request in the clear)',
    observe: (app) => resolved(app, {}, { plaintext: true }),
    correct: 'URI_INVALID/0/0',
    mutant: 'RETRIEVAL_FAILED/1/1',
  },
  'app-tls-unverified': {
    observes: 'a token URI served with a certificate from a CA the application was not told to trust',
    observe: (app) => resolved(app, {}, { impostor: 'untrusted-ca' }),
    correct: 'RETRIEVAL_FAILED/0/0',
    mutant: 'accepted/1/0',
  },
  'app-tls-validity-tolerated': {
    observes: 'token URIs served with certificates from the trusted CA for the host, expired and not yet valid, and one from a CA the application was not told to trust',
    observe: async (app) => [await resolved(app, {}, { impostor: 'expired' }), await resolved(app, {}, { impostor: 'not-yet-valid', host: 'localhost' }), await resolved(app, {}, { impostor: 'untrusted-ca' })],
    correct: ['RETRIEVAL_FAILED/0/0', 'RETRIEVAL_FAILED/0/0', 'RETRIEVAL_FAILED/0/0'],
    mutant: ['accepted/1/0', 'accepted/1/0', 'RETRIEVAL_FAILED/0/0'],
  },
  'app-tls-name-unchecked-for-address': {
    observes: "token URIs served with a certificate from the trusted CA that names another host, the endpoint named by address and by name",
    observe: async (app) => [await resolved(app, {}, { impostor: 'other-name', host: '127.0.0.1' }), await resolved(app, {}, { impostor: 'other-name', host: 'localhost' })],
    correct: ['RETRIEVAL_FAILED/0/0', 'RETRIEVAL_FAILED/0/0'],
    mutant: ['accepted/1/0', 'RETRIEVAL_FAILED/0/0'],
  },
  'app-endpoint-decoded-twice': {
    observes: 'a token URI whose payee is at a base path with %28 and %25 escapes, and one at the root',
    observe: async (app) => [await resolved(app, {}, { basePath: '/pay/acme%28eu%29/100%25' }), await resolved(app, {}, {})],
    correct: ['accepted/1/0', 'accepted/1/0'],
    mutant: ['RETRIEVAL_FAILED/0/0', 'accepted/1/0'],
  },
  'app-token-expired-read-as-cpr-expired': {
    observes: 'a token URI whose payee answers 410 with the problem TOKEN_EXPIRED',
    observe: (app) => resolved(app, { status: 410, problem: 'TOKEN_EXPIRED', contentType: 'application/problem+json' }, {}),
    correct: 'RETRIEVAL_FAILED/1/0',
    mutant: 'CPR_EXPIRED/1/0',
  },
  'app-retrieval-retried-on-server-error': {
    observes: 'a token URI whose payee answers 503',
    observe: (app) => resolved(app, { status: 503 }, {}),
    correct: 'RETRIEVAL_FAILED/1/0',
    mutant: 'RETRIEVAL_FAILED/2/0',
  },
  'app-throttled-retrieval-retried': {
    observes: 'a token URI whose payee answers 429',
    observe: (app) => resolved(app, { status: 429 }, {}),
    correct: 'RETRIEVAL_FAILED/1/0',
    mutant: 'RETRIEVAL_FAILED/2/0',
  },
  'app-redirect-followed': {
    observes: 'a token URI whose payee answers 302 to a second path (retrievals/plaintext/followed)',
    observe: (app) => resolved(app, { redirect: 302 }, {}),
    correct: 'RETRIEVAL_FAILED/1/0/0',
    mutant: 'accepted/1/0/1',
  },
  'app-direct-json-read-as-utf8-bytes': {
    observes: 'a CPR given as direct JSON whose extension text holds a lone surrogate written raw, not escaped',
    async observe(app) {
      const result = await app.read({ kind: 'json', text: JSON.stringify({ ...IBAN_CPR, extensions: { 'com.example.note': 'lone' } }).replace('lone', 'lone\ud800') });
      return result.ok ? 'accepted' : result.code;
    },
    correct: 'CPR_INVALID',
    mutant: 'accepted',
  },
  'app-missing-authorization-defaulted': {
    observes: 'the authorization of the Payment derived with a context whose authorization is null',
    async observe(app) {
      const result = app.derive(IBAN_CPR, { ...CONTEXT, authorization: null } as never);
      return result.ok ? ((result.payment as unknown as { authorization?: unknown }).authorization ?? null) : result.code;
    },
    correct: null,
    mutant: {},
  },
  'app-direct-json-bounded': {
    observes: 'a valid CPR given as direct JSON of more than 65 536 bytes (an extension of 70 000 characters)',
    async observe(app) {
      const result = await app.read({ kind: 'json', text: JSON.stringify({ ...IBAN_CPR, extensions: { 'com.example.attachment': 'x'.repeat(70_000) } }) });
      return result.ok ? 'accepted' : result.code;
    },
    correct: 'accepted',
    mutant: 'RETRIEVAL_FAILED',
  },
  'app-non-error-status-body-read': {
    observes: 'a token URI whose payee answers 301, the CPR its application/json body (retrievals/plaintext/followed)',
    observe: (app) => resolved(app, { redirect: 301 }, {}),
    correct: 'RETRIEVAL_FAILED/1/0/0',
    mutant: 'accepted/1/0/0',
  },
  'app-retrieval-decoded-leniently': {
    observes: 'a token URI whose payee serves the CPR after a UTF-8 byte order mark, as application/json',
    observe: (app) => resolved(app, { bom: true }, {}),
    correct: 'RETRIEVAL_FAILED/1/0',
    mutant: 'accepted/1/0',
  },
  'app-retrieved-non-json-invalid': {
    observes: 'a token URI whose payee serves an HTML page as application/json',
    observe: (app) => resolved(app, { html: true }, {}),
    correct: 'RETRIEVAL_FAILED/1/0',
    mutant: 'CPR_INVALID/1/0',
  },
  'app-retrieved-body-cut-at-last-brace': {
    observes: 'a token URI whose payee serves the CPR followed by a NUL',
    observe: (app) => resolved(app, { trailing: '\u0000' }, {}),
    correct: 'RETRIEVAL_FAILED/1/0',
    mutant: 'accepted/1/0',
  },
  'app-unopenable-file-cpr-invalid': {
    observes: 'a file delivery naming a file that is not there',
    async observe(app) {
      const dir = mkdtempSync(join(tmpdir(), 'cpr-app-probe-'));
      try {
        return outcome(await app.read({ kind: 'file', path: join(dir, 'missing.json') }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    correct: 'RETRIEVAL_FAILED',
    mutant: 'CPR_INVALID',
  },
  'app-expiry-judged-on-payee-date': {
    observes: 'a token URI whose payee answers with the CPR, its Date header the last second of 9999',
    observe: (app) => resolved(app, { date: 'Fri, 31 Dec 9999 23:59:59 GMT' }, {}),
    correct: 'accepted/1/0',
    mutant: 'CPR_EXPIRED/1/0',
  },
  'app-retrieval-charset-honoured': {
    observes: 'a token URI whose payee serves the CPR, UTF-8 as JSON is, as application/json; charset=utf-16',
    observe: (app) => resolved(app, { contentType: 'application/json; charset=utf-16' }, {}),
    correct: 'accepted/1/0',
    mutant: 'RETRIEVAL_FAILED/1/0',
  },
  'app-endpoint-first-parameter': {
    observes: 'a token URI whose query has lang=de before endpoint (retrievals/plaintext)',
    observe: (app) => resolved(app, {}, { paramsFirst: 'lang=de' }),
    correct: 'accepted/1/0',
    mutant: 'URI_INVALID/0/0',
  },
  'app-endpoint-scheme-case-sensitive': {
    observes: 'a token URI whose endpoint is written HTTPS:// (retrievals/plaintext)',
    observe: (app) => resolved(app, {}, { scheme: 'HTTPS' }),
    correct: 'accepted/1/0',
    mutant: 'URI_INVALID/0/0',
  },
  'app-token-uri-remembered': {
    observes: 'a token URI read, then read again once the payee no longer serves its token (404 TOKEN_UNKNOWN)',
    async observe(app) {
      const served = stub.serve({ headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(IBAN_CPR)) }, { basePath: '' });
      let first: string;
      try {
        first = outcome(await app.read({ kind: 'uri', uri: served.uri }));
      } finally {
        stub.forget(served.id);
      }
      return [first, outcome(await app.read({ kind: 'uri', uri: served.uri }))];
    },
    correct: ['accepted', 'RETRIEVAL_FAILED'],
    mutant: ['accepted', 'accepted'],
  },
  'app-retrieval-limit-off-by-one': {
    observes: 'a token URI whose payee serves a body of exactly 65 536 bytes, with its Content-Length',
    observe: (app) => resolved(app, { padTo: 65_536 }, {}),
    correct: 'accepted/1/0',
    mutant: 'RETRIEVAL_FAILED/1/0',
  },
};

function newApp(probe: Probe, faults?: Faults): PayingApp {
  const now = probe.now ?? NOW;
  return createPayingApp({ clock: () => now, ca: stub.ca, ...(faults ? { faults } : {}) });
}

describe('paying application mutants', () => {
  it('has a probe for every paying-app mutant', () => {
    expect(Object.keys(PROBES).sort()).toEqual(MUTANTS.filter((m) => m.role === 'paying-app' && m.catcher === 'suite').map((m) => m.name).sort());
  });

  describe.each(Object.entries(PROBES))('%s', (name, probe) => {
    const description = MUTANTS.find((m) => m.name === name)?.description;
    it(`the correct application: ${probe.observes}`, async () => {
      expect(await probe.observe(newApp(probe))).toEqual(probe.correct);
    });
    it(`the mutant (${description}): ${probe.observes}`, async () => {
      expect(await probe.observe(newApp(probe, faultsFor(name)))).toEqual(probe.mutant);
    });
  });
});
