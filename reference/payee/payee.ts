// The reference payee system (spec §1.1, §4.1, §4.4, §5.1; PROFILE.md §8, §10, §12):
// creates CPRs with a unique request_id and a bounded expires_at, hands them out
// through single-use retrieval tokens, and records fulfilment.
import { formatTimestamp, newUuid } from '../../profile/index.ts';
import { buildInlineUri, buildQrUri, endpointProblem, validateCpr, type Cpr } from '../../profile/cpr/index.ts';
import type { Clock } from '../clock.ts';
import type { Handler } from '../http/types.ts';
import { buildCpr } from './build-cpr.ts';
import { createPayeeHandler } from './handler.ts';
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
}

/** PROFILE.md §12 `GET /_control/payee/config`. */
export interface PayeeConfig {
  readonly base_url: string;
  readonly token_lifetime_seconds: number;
  readonly request_validity_seconds: number;
  readonly plaintext_base_url?: string;
}

/** PROFILE.md §12 `POST /_control/payee/requests` response. */
export interface CreatedRequest {
  readonly request_id: string;
  readonly cpr: Cpr;
  readonly token: string;
  readonly token_expires_at: string;
  readonly qr_uri: string;
  /** Spec §4.4: the same URI format as the QR code (the same URI, one token). */
  readonly deep_link: string;
  /** Absent when the request is too large for a 2 048-byte inline URI (PROFILE.md §8.1). */
  readonly inline_uri?: string;
  /** Standard base64 of the PNG. */
  readonly qr_png: string;
}

export interface Payee {
  readonly config: PayeeConfig;
  /** Throws PayeeInputError for input the control interface would answer 400 to. */
  createRequest(input: CreateRequestInput): Promise<CreatedRequest>;
  /** A retrieval over TLS: consumes the token when it succeeds. */
  retrieve(token: string): TakeResult;
  /** Invalidates a token seen over plaintext. */
  burn(token: string): void;
  fulfil(requestId: string): FulfilOutcome;
  /** Live entries in the token and request stores (both are pruned after expiry). */
  stats(): { readonly tokens: number; readonly requests: number };
  /** `GET /cpr/<token>` and the payee's `/_control/payee/` routes. */
  readonly handler: Handler;
}

export function createPayee(options: PayeeOptions): Payee {
  const config = checkOptions(options);
  const { clock } = options;
  const lifetimeMs = config.token_lifetime_seconds * 1000;
  const validityMs = config.request_validity_seconds * 1000;
  const tokens = new TokenStore(lifetimeMs, lifetimeMs);
  const requests = new RequestStore(validityMs);

  const payee: Omit<Payee, 'handler'> = {
    config,
    async createRequest(raw) {
      const checked = checkRequestInput(raw);
      if (!checked.ok) throw new PayeeInputError(checked.field, checked.detail);
      const now = clock.now();
      const cpr = buildCpr(checked.input, {
        request_id: newUuid(),
        created_at: formatTimestamp(now, 'cpr'),
        expires_at: formatTimestamp(now + validityMs, 'cpr'),
      });
      assertValid(cpr, config.request_validity_seconds);
      const { token, expiresAt } = tokens.issue(cpr, now);
      requests.register(cpr.request_id, now + validityMs, now);
      const qrUri = buildQrUri(token, config.base_url);
      const inlineUri = buildInlineUri(cpr);
      return {
        request_id: cpr.request_id,
        cpr,
        token,
        token_expires_at: formatTimestamp(expiresAt, 'cpr'),
        qr_uri: qrUri,
        deep_link: qrUri,
        ...(inlineUri !== undefined ? { inline_uri: inlineUri } : {}),
        qr_png: (await renderQrPng(qrUri)).toString('base64'),
      };
    },
    retrieve: (token) => tokens.take(token, clock.now()),
    burn: (token) => tokens.burn(token),
    fulfil: (requestId) => requests.fulfil(requestId, clock.now()),
    stats: () => ({ tokens: tokens.size, requests: requests.size }),
  };
  return { ...payee, handler: createPayeeHandler(payee) };
}

/** Bad options throw at construction (STYLE.md, fast-check anchor). */
function checkOptions(options: PayeeOptions): PayeeConfig {
  const problem = endpointProblem(options.baseUrl);
  if (problem) throw new TypeError(`baseUrl: ${problem}`);
  const lifetime = options.tokenLifetimeSeconds ?? 300;
  const validity = options.requestValiditySeconds ?? 900;
  for (const [name, value] of [['tokenLifetimeSeconds', lifetime], ['requestValiditySeconds', validity]] as const) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive whole number of seconds`);
  }
  return {
    base_url: options.baseUrl,
    token_lifetime_seconds: lifetime,
    request_validity_seconds: validity,
    ...(options.plaintextBaseUrl !== undefined ? { plaintext_base_url: options.plaintextBaseUrl } : {}),
  };
}

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
