// The reference payee system (spec §1.1, §4.1, §4.4, §5.1; PROFILE.md §8, §10, §12):
// creates CPRs with a unique request_id and a bounded expires_at, hands them out
// through single-use retrieval tokens, and records fulfilment.
import { randomBytes } from 'node:crypto';
import { encodeB64url, formatTimestamp, newUuid, parseTimestamp, seededUuid, uuidOfBytes } from '../../profile/index.ts';
import { buildInlineUri, buildQrUri, endpointProblem, MAX_INLINE_URI_BYTES, retrievalUrl, validateCpr, type Cpr } from '../../profile/cpr/index.ts';
import type { CreatedRequest as ControlCreatedRequest, PayeeConfig } from '../../profile/control.ts';
import type { Clock } from '../clock.ts';
import type { Handler } from '../http/types.ts';
import { NO_FAULTS, type Faults, type MutantName } from '../mutants.ts';
import { buildCpr } from './build-cpr.ts';
import { createPayeeHandler } from './handler.ts';
import { faultyPayee, PAYEE_FAULTS } from '../faults/payee.ts';
import { PayeeInputError, checkRequestInput, type CreateRequestInput } from './input.ts';
import { renderQrPng } from './qr.ts';
import { RequestStore, type FulfilOutcome } from './requests.ts';
import { TokenStore, type TakeResult } from './tokens.ts';

export interface PayeeOptions {
  readonly clock: Clock;
  /** Absolute https base URL without a trailing slash: the `endpoint` of QR URIs. */
  readonly baseUrl: string;
  /** Where the same handler also listens on plaintext HTTP, if anywhere (PROFILE.md §10). */
  readonly plaintextBaseUrl?: string;
  /** Default 300 s (PROFILE.md §10); spec §5.1.1 recommends at most 15 minutes. */
  readonly tokenLifetimeSeconds?: number;
  /** expires_at − created_at of every request; default 900 s. */
  readonly requestValiditySeconds?: number;
  /** A fault to switch on (reference/mutants.ts); default NO_FAULTS, the correct payee. */
  readonly faults?: Faults;
}

/** PROFILE.md §12 `GET /_control/payee/config`. */
export type { PayeeConfig } from '../../profile/control.ts';

/** PROFILE.md §12 `POST /_control/payee/requests` response. */
export type CreatedRequest = ControlCreatedRequest<Cpr>;

export interface Payee {
  readonly config: PayeeConfig;
  /** The fault switched on, if any (reference/mutants.ts). */
  readonly faults: Faults;
  /**
   * Throws PayeeInputError for input the control interface would answer 400 to.
   * `forwardedBaseUrl` is only ever given by a mutant (payee-endpoint-from-forwarded-host).
   */
  createRequest(input: CreateRequestInput, forwardedBaseUrl?: string): Promise<CreatedRequest>;
  /** A retrieval over TLS: consumes the token when it succeeds. */
  retrieve(token: string): TakeResult;
  /** What a retrieval would get now, without consuming the token. */
  peek(token: string): TakeResult;
  /** Invalidates a token seen over plaintext. */
  burn(token: string): void;
  fulfil(requestId: string): FulfilOutcome;
  /** Live entries in the token and request stores (both are pruned after expiry). */
  stats(): { readonly tokens: number; readonly requests: number };
  /** `GET /cpr/<token>` and the payee's `/_control/payee/` routes. */
  readonly handler: Handler;
}

export function createPayee(options: PayeeOptions): Payee {
  const faults = options.faults ?? NO_FAULTS;
  const config = checkOptions(options, faults);
  const { clock } = options;
  const lifetimeMs = config.token_lifetime_seconds * 1000;
  // Mutant payee-validity-whole-minutes: the validity kept in whole minutes (a ledger's TTL column), rounded up so that none is cut short.
  // Stryker disable next-line all: only the payee-validity-whole-minutes fault rounds the window
  const validitySeconds = faults.has('payee-validity-whole-minutes') ? Math.ceil(config.request_validity_seconds / 60) * 60 : config.request_validity_seconds;
  const configuredValidityMs = validitySeconds * 1000;
  // Mutant payee-validity-stretched-to-token-lifetime: a request made to outlive the token that delivers it, its window the longer of the two.
  // Stryker disable next-line all: only the payee-validity-stretched-to-token-lifetime fault stretches the window
  const validityMs = faults.has('payee-validity-stretched-to-token-lifetime') ? Math.max(configuredValidityMs, lifetimeMs) : configuredValidityMs;
  const tokens = new TokenStore(lifetimeMs, lifetimeMs, faults);
  // Stryker disable next-line all: only the payee-request-retention-token-lifetime fault keeps a request as long as a token
  const requests = new RequestStore(faults.has('payee-request-retention-token-lifetime') ? lifetimeMs : validityMs, faults);
  // Mutant payee-request-id-reused: drawn once, given to every request.
  const startupRequestId = newUuid();
  // Stryker disable next-line all: only the payee-request-id-counter-raced fault keeps a counter
  const raced = faults.has('payee-request-id-counter-raced') ? racedCounter() : undefined;
  // Stryker disable next-line all: only the payee-request-id-per-sub-interface fault numbers requests per sub-interface
  const perSubInterface = faults.has('payee-request-id-per-sub-interface') ? subInterfaceCounters() : undefined;
  // Stryker disable next-line all: only the payee-request-id-per-instant fault numbers requests per instant
  const perInstant = faults.has('payee-request-id-per-instant') ? instantSequence() : undefined;

  const payee: Omit<Payee, 'handler'> = {
    config,
    faults,
    async createRequest(raw, forwardedBaseUrl) {
      const checked = checkRequestInput(raw, faults);
      if (!checked.ok) throw new PayeeInputError(checked.field, checked.detail);
      // Mutant ctl-extensions-dropped: the control interface loses the extensions it was asked for.
      const input = faults.has('ctl-extensions-dropped') ? { ...checked.input, extensions: undefined } : checked.input;
      const now = clock.now();
      const cpr = buildCpr(
        input,
        {
          // Stryker disable next-line all: only the payee-request-id-counter-raced fault draws the id from its counter
          request_id: raced ? await raced() : perSubInterface ? perSubInterface(input.sub_interface) : perInstant ? perInstant(now) : requestId(faults, startupRequestId, now, input),
          created_at: timestamp(faults, now),
          // Mutant payee-expiry-unbounded: a year instead of the configured window.
          expires_at: timestamp(faults, now + (faults.has('payee-expiry-unbounded') ? YEAR_MS : validityMs)),
        },
        faults,
      );
      // A mutant whose CPR breaks a rule skips this safety net, or its fault would never reach the wire.
      // Stryker disable next-line all: the payee's check of the CPR it built from test-control input (PROFILE.md §12): only input the harness never sends fails it, and faults that skip it are hand-made
      if (!INVALID_CPR_FAULTS.some((name) => faults.has(name))) assertValid(cpr, validitySeconds);
      const { token, expiresAt } = tokens.issue(cpr, now);
      requests.register(cpr.request_id, now + validityMs, now);
      const qrUri = qrUriOf(faults, token, forwardedBaseUrl ?? config.base_url);
      // Mutant payee-deep-link-token-reusable: the deep link gets a token of its own, which is never consumed.
      // Mutant payee-deep-link-https: the deep link is the token's https retrieval URL.
      const deepLink = faults.has('payee-deep-link-token-reusable') ? qrUriOf(faults, tokens.issue(cpr, now, true).token, config.base_url) : faults.has('payee-deep-link-https') ? retrievalUrl(config.base_url, token) : qrUri;
      const inlineUri = inlineUriOf(faults, cpr);
      // Mutant payee-qr-other-uri: the image encodes the retrieval URL, not the URI reported beside it.
      const qrContent = faults.has('payee-qr-other-uri') ? retrievalUrl(config.base_url, token) : qrUri;
      return {
        request_id: cpr.request_id,
        cpr,
        token,
        // Mutant payee-token-expires-at-truncated: the token's expiry reported in whole seconds, while the store keeps the exact instant.
        // Stryker disable next-line all: only the payee-token-expires-at-truncated fault writes whole seconds
        token_expires_at: formatTimestamp(expiresAt, faults.has('payee-token-expires-at-truncated') ? 'cashpack' : 'cpr'),
        qr_uri: qrUri,
        deep_link: deepLink,
        // Stryker disable next-line ConditionalExpression: an undefined member is left out of the JSON answer anyway
        ...(inlineUri !== undefined ? { inline_uri: inlineUri } : {}),
        // Stryker disable next-line ObjectLiteral: the drawing differs only with a fault switched on
        qr_png: renderQrPng(qrContent, { ...(faults.has('payee-qr-level-l') ? { level: 'L' } : {}), ...(faults.has('payee-qr-quiet-zone-narrow') ? { margin: 2 } : {}) }).toString('base64'),
        // Mutant payee-qr-png-mime-wrapped: the image's base64 written the MIME way (RFC 2045 §6.8), in lines of 76 characters ended by CRLF.
        // Stryker disable next-line all: only the payee-qr-png-mime-wrapped fault wraps the lines
        ...(faults.has('payee-qr-png-mime-wrapped') ? { qr_png: (renderQrPng(qrContent).toString('base64').match(/.{1,76}/g) ?? []).join('\r\n') } : {}),
      };
    },
    retrieve: (token) => {
      const taken = tokens.take(token, clock.now());
      // Stryker disable next-line all: only the payee-read-consumes-request fault marks a request fulfilled when its CPR is read
      if (faults.has('payee-read-consumes-request') && taken.ok) requests.fulfil(taken.cpr.request_id, clock.now());
      // Mutant payee-retrieval-reopens-request: a served retrieval writes its request's record again, whole, so that a request fulfilled before is open once more.
      // Stryker disable next-line all: only the payee-retrieval-reopens-request fault writes it again
      if (faults.has('payee-retrieval-reopens-request') && taken.ok) requests.register(taken.cpr.request_id, parseTimestamp(taken.cpr.expires_at)!, clock.now());
      return taken;
    },
    peek: (token) => tokens.peek(token, clock.now()),
    burn: (token) => {
      // Mutant payee-plaintext-leak-voids-request: a token seen in the clear withdraws its request too (a fulfilment of it refused REQUEST_CONSUMED).
      // Stryker disable next-line all: only the payee-plaintext-leak-voids-request fault reads the token before burning it
      const leaked = faults.has('payee-plaintext-leak-voids-request') ? tokens.peek(token, clock.now()) : undefined;
      tokens.burn(token);
      // Stryker disable next-line all: only the payee-plaintext-leak-voids-request fault marks the request fulfilled
      if (leaked?.ok) requests.fulfil(leaked.cpr.request_id, clock.now());
    },
    fulfil: (requestId) => {
      const outcome = requests.fulfil(requestId, clock.now());
      // Mutant payee-fulfil-forgets-token: a fulfilled request's retrieval token dropped with it.
      // Stryker disable next-line all: only the payee-fulfil-forgets-token fault drops it
      if (faults.has('payee-fulfil-forgets-token') && outcome === 'FULFILLED') tokens.forgetRequest(requestId);
      return outcome;
    },
    stats: () => ({ tokens: tokens.size, requests: requests.size }),
  };
  // The payee's fuzzer mutants: its routes with one careless change (reference/faults/payee.ts).
  return { ...payee, handler: faults.hasAny(PAYEE_FAULTS) ? faultyPayee(payee, clock, createPayeeHandler(payee)) : createPayeeHandler(payee) };
}

// Stryker disable next-line ArithmeticOperator: only the payee-expiry-unbounded fault uses it
const YEAR_MS = 365 * 24 * 3600 * 1000;

// Stryker disable next-line ArithmeticOperator: only the payee-timestamp-local-time fault uses it
const LOCAL_OFFSET_MS = 2 * 3600 * 1000;

/** Mutants whose CPR breaks a rule, which the payee's own validation would otherwise refuse to serve. */
const INVALID_CPR_FAULTS = [
  'payee-validity-stretched-to-token-lifetime',
  'payee-timestamp-local-time',
  'payee-instant-key-type-missing',
  'payee-account-beneficiary-missing',
  'payee-expiry-unbounded',
  'payee-payer-field-leaked',
  'payee-on-chain-hint-missing',
  'payee-iban-mirror-spaced',
  'payee-request-id-upper-case',
  'payee-timestamp-offset',
  'payee-amount-through-double',
  'payee-payer-check-top-level',
  'payee-evm-checksum-broken',
  'payee-asset-code-lower-case',
  'payee-domain-separator-short',
  'payee-order-reference-upper-case',
  'payee-purpose-code-five-letters',
  'payee-asset-code-numeric',
  'payee-amount-major-units',
  'payee-amount-json-number',
  'payee-record-status-served',
  'payee-rail-address-empty',
] as const satisfies readonly MutantName[];

/** Spec §4.7.3: a new, globally unique request_id for every request; spec §2.1: a version 4 UUID. */
function requestId(faults: Faults, startupRequestId: string, now: number, input: CreateRequestInput): string {
  if (faults.has('payee-request-id-reused')) return startupRequestId; // mutant: one id for all
  // Mutant payee-request-id-from-instant: made from the instant and the input (a retry's idempotence), so identical requests at one instant share it.
  if (faults.has('payee-request-id-from-instant')) return seededUuid(new TextEncoder().encode(String(now)), JSON.stringify(input));
  if (faults.has('payee-request-id-upper-case')) return newUuid().toUpperCase(); // mutant: not the canonical form
  if (faults.has('payee-request-id-version-7')) return uuidV7(now); // mutant: unique, but not version 4
  if (faults.has('payee-request-id-variant-unset')) return uuidVariantUnset(); // mutant: version 4 bits, not its variant's
  return newUuid();
}

/** Mutant payee-request-id-variant-unset: 16 random bytes with the version nibble set to 4 and the RFC 9562 variant bits (10) left as drawn. */
// Stryker disable all: only the payee-request-id-variant-unset fault calls this function
function uuidVariantUnset(): string {
  const bytes = randomBytes(16);
  const id = uuidOfBytes(bytes, 4);
  // The variant digit as drawn, its two top bits 11 where they were drawn as 10: a variant of 00, 01 or 11, never 10.
  const drawn = bytes[8]! >> 4;
  return `${id.slice(0, 19)}${(drawn >> 2 === 2 ? drawn | 0b0100 : drawn).toString(16)}${id.slice(20)}`;
}
// Stryker restore all

// Stryker disable all: only the payee-request-id-counter-raced fault calls this function
/**
 * Mutant payee-request-id-counter-raced: ids drawn from a counter under a seed of
 * the payee's, the counter read and written back around a store's round trip,
 * so requests created at once read one value and share its id.
 */
function racedCounter(): () => Promise<string> {
  const seed = new TextEncoder().encode(newUuid());
  let counter = 0;
  return async () => {
    const n = counter;
    await new Promise((resolve) => setTimeout(resolve, 5));
    counter = n + 1;
    return seededUuid(seed, `request-${n}`);
  };
}
// Stryker restore all

/**
 * Mutant payee-request-id-per-sub-interface: each sub-interface's ledger numbers
 * its own requests and the id is a keyed hash of that number alone, so the
 * n-th request of each sub-interface shares one id.
 */
// Stryker disable all: only the payee-request-id-per-sub-interface fault calls this function
function subInterfaceCounters(): (subInterface: string) => string {
  const seed = new TextEncoder().encode(newUuid());
  const counters = new Map<string, number>();
  return (subInterface) => {
    const n = (counters.get(subInterface) ?? 0) + 1;
    counters.set(subInterface, n);
    return seededUuid(seed, `request-${n}`);
  };
}
// Stryker restore all

/**
 * Mutant payee-request-id-per-instant: ids ordered by time, a keyed hash of the
 * creation instant and a sequence number that starts again whenever the
 * instant changes, so a clock that comes back to an instant it created
 * requests at gives them again.
 */
// Stryker disable all: only the payee-request-id-per-instant fault calls this function
function instantSequence(): (now: number) => string {
  const seed = new TextEncoder().encode(newUuid());
  let instant = Number.NaN;
  let sequence = 0;
  return (now) => {
    if (now !== instant) [instant, sequence] = [now, 0];
    return seededUuid(seed, `${now}.${sequence++}`);
  };
}
// Stryker restore all

/** Mutant payee-request-id-version-7: RFC 9562 §5.7, the creation time in milliseconds in the first 48 bits, the rest random. */
// Stryker disable all: only the payee-request-id-version-7 fault calls this function
function uuidV7(now: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  return uuidOfBytes(bytes, 7);
}
// Stryker restore all

/** PROFILE.md §1: RFC 3339 UTC written with Z. */
function timestamp(faults: Faults, ms: number): string {
  // Mutant payee-timestamp-local-time: the same instant written in local time, two hours ahead.
  if (faults.has('payee-timestamp-local-time')) return formatTimestamp(ms + LOCAL_OFFSET_MS, 'cpr').replace(/Z$/, '+02:00');
  // Mutant payee-timestamp-zeros-trimmed: the fraction's trailing zeros trimmed by a pattern that eats a whole second's too (…:30Z written …:3Z).
  // Stryker disable next-line all: only the payee-timestamp-zeros-trimmed fault trims it
  const written = faults.has('payee-timestamp-zeros-trimmed') ? formatTimestamp(ms, 'cpr').replace(/0+Z$/, 'Z') : formatTimestamp(ms, 'cpr');
  return faults.has('payee-timestamp-offset') ? written.replace(/Z$/, '+00:00') : written; // mutant: an offset instead of Z
}

/** PROFILE.md §8.1: `std-cpr://<token>?endpoint=<percent-encoded base URL>`. */
function qrUriOf(faults: Faults, token: string, baseUrl: string): string {
  if (faults.has('payee-endpoint-unencoded')) return `std-cpr://${token}?endpoint=${baseUrl}`; // mutant: the endpoint as is
  if (faults.has('payee-endpoint-host-renamed')) return buildQrUri(token, renamedHost(baseUrl)); // mutant: another name for the host
  if (faults.has('payee-endpoint-origin-only')) return buildQrUri(token, new URL(baseUrl).origin); // mutant: the base URL's path dropped
  if (faults.has('payee-endpoint-minimal-escape')) return `std-cpr://${token}?endpoint=${minimallyEscaped(baseUrl)}`; // mutant: a hand-written escaper
  // Mutant payee-endpoint-escapes-decoded: the base URL's own escapes decoded first, so that none is escaped twice (%2520).
  // Stryker disable next-line all: only the payee-endpoint-escapes-decoded fault writes it so
  if (faults.has('payee-endpoint-escapes-decoded')) return `std-cpr://${token}?endpoint=${encodeURIComponent(decodeURI(baseUrl))}`;
  return buildQrUri(token, baseUrl);
}

// Stryker disable all: only the payee-endpoint-minimal-escape fault calls this function
/** Mutant payee-endpoint-minimal-escape: only '%', the delimiters that would end or split the value, and white space escaped. */
function minimallyEscaped(value: string): string {
  return value.replace(/[%:/?#&=+\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
// Stryker restore all

/** Mutant payee-endpoint-host-renamed: localhost for an address (127.0.0.1 for localhost), the rest as it is. */
// Stryker disable all: only the payee-endpoint-host-renamed fault calls this function
function renamedHost(baseUrl: string): string {
  const { hostname } = new URL(baseUrl);
  return baseUrl.replace(`//${hostname}`, `//${hostname === 'localhost' ? '127.0.0.1' : 'localhost'}`);
}
// Stryker restore all

// Stryker disable all: the fault's own reading, reached only with its switch on (reference/mutants.ts)
/** Mutant payee-inline-bound-utf16: base64url writes n bytes as ceil(4n / 3) characters, n taken as the JSON's UTF-16 length. */
function inlineBoundedByUtf16(cpr: Cpr): string | undefined {
  const json = JSON.stringify(cpr);
  const fits = 'std-cpr://inline/'.length + Math.ceil((json.length * 4) / 3) <= MAX_INLINE_URI_BYTES;
  return fits ? `std-cpr://inline/${encodeB64url(new TextEncoder().encode(json))}` : undefined;
}
// Stryker restore all

/** PROFILE.md §8.1: absent when the URI would exceed 2 048 bytes. */
function inlineUriOf(faults: Faults, cpr: Cpr): string | undefined {
  // Mutant payee-inline-padded: the platform's base64, padded, with + and /.
  if (faults.has('payee-inline-padded')) return `std-cpr://inline/${Buffer.from(JSON.stringify(cpr), 'utf8').toString('base64')}`;
  // Mutant payee-inline-uri-unbounded: the length bound is forgotten.
  if (faults.has('payee-inline-uri-unbounded')) return `std-cpr://inline/${encodeB64url(new TextEncoder().encode(JSON.stringify(cpr)))}`;
  // Mutant payee-inline-not-utf8: the JSON's UTF-16 code units cut to one byte each (Latin-1), not its UTF-8.
  if (faults.has('payee-inline-not-utf8')) {
    const uri = `std-cpr://inline/${encodeB64url(Buffer.from(JSON.stringify(cpr), 'latin1'))}`;
    return uri.length <= MAX_INLINE_URI_BYTES ? uri : undefined;
  }
  // Mutant payee-inline-bound-utf16: whether the URI fits is estimated from the JSON's UTF-16 length, not its UTF-8 bytes.
  if (faults.has('payee-inline-bound-utf16')) return inlineBoundedByUtf16(cpr);
  const uri = buildInlineUri(cpr);
  // Mutant payee-inline-limit-off-by-one: a URI of exactly the limit is withheld too.
  return faults.has('payee-inline-limit-off-by-one') && uri !== undefined && new TextEncoder().encode(uri).length === MAX_INLINE_URI_BYTES ? undefined : uri;
}

/** Bad options throw at construction (STYLE.md, fast-check anchor). */
function checkOptions(options: PayeeOptions, faults: Faults): PayeeConfig {
  const problem = endpointProblem(options.baseUrl);
  // Stryker disable next-line all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), not its behaviour on the wire
  if (problem) throw new TypeError(`baseUrl: ${problem}`);
  // Mutant payee-token-lifetime-20-minutes: spec §5.1 recommends at most 15 minutes.
  const lifetime = faults.has('payee-token-lifetime-20-minutes') ? 20 * 60 : (options.tokenLifetimeSeconds ?? 300);
  const validity = options.requestValiditySeconds ?? 900;
  // Stryker disable next-line BlockStatement: the reference's own start-up options, not its behaviour on the wire
  for (const [name, value] of [['tokenLifetimeSeconds', lifetime], ['requestValiditySeconds', validity]] as const) {
    // Stryker disable next-line all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), not its behaviour on the wire
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive whole number of seconds`);
  }
  return {
    base_url: options.baseUrl,
    token_lifetime_seconds: lifetime,
    request_validity_seconds: validity,
    // Stryker disable next-line all: test control's configuration answer (PROFILE.md §12): the harness knows the embedded reference's plaintext listener without it; a --target URL run reads it (test/harness covers that)
    ...(options.plaintextBaseUrl !== undefined ? { plaintext_base_url: options.plaintextBaseUrl } : {}),
  };
}

// Stryker disable all: the payee's check of the CPR it built from test-control input (PROFILE.md §12): only input the harness never sends fails it, and faults that skip it are hand-made
/** Which input member a violation of the built CPR goes back to. */
const INPUT_FIELD_OF_PATH: ReadonlyArray<readonly [string, keyof CreateRequestInput]> = [
  ['/value/amount', 'amount'],
  ['/payee/display_name', 'display_name'],
  ['/memo', 'memo'],
  ['/rail_hint', 'rail_hint'],
  ['/extensions', 'extensions'],
];

/** The payee never serves a CPR that breaks a rule (spec §4.8); input that would is a 400. */
function assertValid(cpr: Cpr, validitySeconds: number): void {
  const result = validateCpr(cpr, { validitySeconds });
  if (result.ok) return;
  const path = result.violations[0]?.path ?? '';
  const field = INPUT_FIELD_OF_PATH.find(([prefix]) => path === prefix || path.startsWith(prefix + '/'))?.[1] ?? 'sub_interface';
  throw new PayeeInputError(field, result.violations.map((v) => `${v.path} ${v.message} (${v.requirement})`).join('; '));
}
// Stryker restore all
