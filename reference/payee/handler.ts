// HTTP face of the payee: `GET /cpr/<token>` (spec §4.1, §5.1; PROFILE.md §10) and
// the payee's test-control routes (PROFILE.md §12). Routes are a table; a known
// path with another method is 405, an unknown path 404.
import { isUuid, PROBLEM_CONTENT_TYPE } from '../../profile/index.ts';
import type { Cpr } from '../../profile/cpr/index.ts';
import { json, problemResponse, readJsonBody } from '../http/respond.ts';
import type { Handler, RefRequest, RefResponse } from '../http/types.ts';
import type { Faults } from '../mutants.ts';
import { PayeeInputError, checkRequestInput, type CreateRequestInput } from './input.ts';
import type { FulfilOutcome } from './requests.ts';
import type { TakeResult } from './tokens.ts';

/** What the handler needs of the payee. */
interface PayeeCore {
  readonly config: unknown;
  readonly faults: Faults;
  createRequest(input: CreateRequestInput, forwardedBaseUrl?: string): Promise<unknown>;
  retrieve(token: string): TakeResult;
  peek(token: string): TakeResult;
  burn(token: string): void;
  fulfil(requestId: string): FulfilOutcome;
}

/** Paths this handler answers; a composite server routes these prefixes here. */
export const PAYEE_PATH_PREFIXES = ['/cpr/', '/_control/payee/'] as const;

interface Route {
  readonly pattern: RegExp;
  readonly method: string;
  run(payee: PayeeCore, request: RefRequest, match: RegExpExecArray): RefResponse | Promise<RefResponse>;
}

// PROFILE.md §10: every /cpr response carries Cache-Control: no-store.
// Stryker disable next-line ObjectLiteral: reference/http/respond.ts sends Cache-Control no-store on every answer that names none
const NO_STORE = { 'cache-control': 'no-store' };
// Mutant payee-token-cacheable: what a careless cache configuration sends instead.
// Stryker disable next-line ObjectLiteral,StringLiteral: only the payee-token-cacheable fault sends these headers
const CACHEABLE = { 'cache-control': 'private, max-age=300' };

function retrievalHeaders(payee: PayeeCore): Record<string, string> {
  return payee.faults.has('payee-token-cacheable') ? CACHEABLE : NO_STORE;
}

const ROUTES: readonly Route[] = [
  {
    // Stryker disable next-line Regex: serving a token at longer paths too (no anchor) is nothing PROFILE.md §10 forbids; the token's own URL is served alike
    pattern: /^\/cpr\/([^/]+)$/,
    method: 'GET',
    // Mutant payee-token-race: the non-atomic retrieval below.
    // Stryker disable next-line StringLiteral: the pattern always captures the token, so the fallback is never taken
    run: (payee, request, match) => notAcceptable(payee, request) ?? (payee.faults.has('payee-token-race') ? retrieveNonAtomic : retrieve)(payee, match[1] ?? ''),
  },
  // Stryker disable next-line Regex: test control (PROFILE.md §12): the harness calls its routes only as the profile spells them
  { pattern: /^\/_control\/payee\/requests$/, method: 'POST', run: createRequest },
  // Stryker disable next-line Regex: test control (PROFILE.md §12): the harness calls its routes only as the profile spells them
  { pattern: /^\/_control\/payee\/config$/, method: 'GET', run: (payee) => json(200, payee.config) },
  // Stryker disable next-line Regex,StringLiteral: test control (PROFILE.md §12): called only as the profile spells it, and the pattern always captures the id
  // Mutant payee-fulfil-coalesced: fulfilments of one request in flight together share the first one's answer.
  { pattern: /^\/_control\/payee\/requests\/([^/]+)\/fulfil$/, method: 'POST', run: (payee, _request, match) => (payee.faults.has('payee-fulfil-coalesced') ? fulfilCoalesced : fulfil)(payee, match[1] ?? '') },
];

export function createPayeeHandler(payee: PayeeCore): Handler {
  return (request) => {
    // Stryker disable next-line StringLiteral: other paths would get no-store (sent anyway) and, in the clear, 403 instead of 404: no rule covers paths the payee does not serve
    const retrieval = request.path.startsWith('/cpr/');
    const headers = retrieval ? retrievalHeaders(payee) : {};
    // Spec §5.1.4: tokens only over TLS. A token seen in the clear is burned (mutant payee-serves-plaintext: not refused).
    // Mutant payee-tls-from-forwarded-proto: a client's own X-Forwarded-Proto: https passes for TLS.
    const secure = request.secure || (payee.faults.has('payee-tls-from-forwarded-proto') && request.headers['x-forwarded-proto'] === 'https');
    // Mutant payee-tls-refusal-live-tokens-only: only a live token is refused in the clear; any other gets its ordinary answer, there.
    // Mutant payee-plaintext-refusal-get-only: only a GET is refused in the clear; another method gets its ordinary answer (405), there.
    // Mutant payee-plaintext-refusal-token-paths-only: only /cpr/<one segment> is refused in the clear; other /cpr paths go on to routing (404).
    // Stryker disable next-line all: only the payee-tls-refusal-live-tokens-only, payee-plaintext-refusal-get-only and payee-plaintext-refusal-token-paths-only faults make it false; without them every request is refused in the clear
    const refusable = (!payee.faults.has('payee-tls-refusal-live-tokens-only') || payee.peek(request.path.slice('/cpr/'.length)).ok) && (!payee.faults.has('payee-plaintext-refusal-get-only') || request.method === 'GET') && (!payee.faults.has('payee-plaintext-refusal-token-paths-only') || /^\/cpr\/[^/]+$/.test(request.path));
    if (retrieval && !secure && !payee.faults.has('payee-serves-plaintext') && refusable) {
      const token = request.path.slice('/cpr/'.length);
      // Mutant payee-plaintext-token-kept: refused, but the token stays valid.
      if (!payee.faults.has('payee-plaintext-token-kept')) {
        // Stryker disable next-line ConditionalExpression,StringLiteral: burning the empty token is a no-op
        if (token !== '') payee.burn(token);
      }
      return problemResponse('TLS_REQUIRED', 'retrieval tokens are accepted only over TLS; this token is now invalid', headers);
    }
    const matching = ROUTES.map((route) => ({ route, match: route.pattern.exec(request.path) })).filter((m) => m.match !== null);
    // Stryker disable next-line ConditionalExpression: the payee's answer to another method or path is no rule: PROFILE.md binds 405 and 404 to the Operator (PRF-HTTP-1)
    // Mutant payee-head-spends-token: HEAD routed as GET (RFC 9110 §9.3.2 answers it so), so a HEAD retrieves and spends the token.
    const method = request.method === 'HEAD' && payee.faults.has('payee-head-spends-token') ? 'GET' : request.method;
    const chosen = matching.find((m) => m.route.method === method);
    if (chosen?.match) return chosen.route.run(payee, request, chosen.match);
    // Stryker disable all: the payee's answer to another method or path is no rule: PROFILE.md binds 405 and 404 to the Operator (PRF-HTTP-1)
    if (matching.length > 0) {
      const allow = matching.map((m) => m.route.method).join(', ');
      return problemResponse('METHOD_NOT_ALLOWED', `${request.path} answers ${allow} only`, { ...headers, allow });
    }
    return problemResponse('NOT_FOUND', `no payee resource at ${request.path}`, headers);
    // Stryker restore all
  };
}

const TOKEN_DETAIL = {
  TOKEN_UNKNOWN: 'no such retrieval token',
  TOKEN_CONSUMED: 'this retrieval token has already been used',
  TOKEN_EXPIRED: 'this retrieval token has expired',
} as const;

/** Spec §4.1: the first retrieval answers 200 application/json with the CPR. */
function retrieve(payee: PayeeCore, token: string): RefResponse {
  const result = payee.retrieve(token);
  if (!result.ok) {
    const response = problemResponse(result.code, TOKEN_DETAIL[result.code], retrievalHeaders(payee));
    // Mutant payee-problem-type-about-blank: RFC 9457's default type in place of the profile's.
    return payee.faults.has('payee-problem-type-about-blank') ? { ...response, body: { ...(response.body as object), type: 'about:blank' } } : response;
  }
  // Mutant payee-retrieval-text-plain: the CPR served as text.
  const headers = payee.faults.has('payee-retrieval-text-plain') ? { ...retrievalHeaders(payee), 'content-type': 'text/plain; charset=utf-8' } : retrievalHeaders(payee);
  // Mutant payee-retrieval-bom-non-ascii: a CPR with text outside ASCII sent with the UTF-8 signature (a byte order mark) in front.
  // Stryker disable next-line all: only the payee-retrieval-bom-non-ascii fault writes it so
  if (payee.faults.has('payee-retrieval-bom-non-ascii') && /[^\x00-\x7f]/.test(JSON.stringify(result.cpr))) return json(200, new TextEncoder().encode(`\uFEFF${JSON.stringify(result.cpr)}`), headers);
  // Mutant payee-retrieval-drops-null-members: the CPR written with its null members left out.
  // Stryker disable next-line all: only the payee-retrieval-drops-null-members fault writes it so
  return json(200, payee.faults.has('payee-retrieval-drops-null-members') ? withoutNulls(result.cpr) : (result.cpr satisfies Cpr), headers);
}

// Stryker disable all: only the payee-retrieval-drops-null-members fault calls this function
function withoutNulls(cpr: Cpr): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(cpr, (_key, value: unknown) => (value === null ? undefined : value)));
}
// Stryker restore all

/** Mutant payee-accept-matched-literally: an Accept that does not spell application/json or *\/* is answered 406; otherwise undefined, the retrieval goes on. */
function notAcceptable(payee: PayeeCore, request: RefRequest): RefResponse | undefined {
  if (!payee.faults.has('payee-accept-matched-literally')) return undefined;
  // Stryker disable all: only the payee-accept-matched-literally fault reads Accept
  const accept = request.headers['accept'];
  if (typeof accept !== 'string' || accept.trim() === '' || /application\/json|\*\/\*/.test(accept)) return undefined;
  return { status: 406, headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...retrievalHeaders(payee) }, body: { type: 'about:blank', title: 'Not Acceptable', status: 406, detail: 'a payment request is served as application/json only' } };
  // Stryker restore all
}

/**
 * Mutant payee-token-race: the token is checked, then an await (a session-store
 * round trip), then consumed without checking again, so concurrent retrievals
 * with one token all pass the check.
 */
// Stryker disable all: only the payee-token-race fault calls this function
async function retrieveNonAtomic(payee: PayeeCore, token: string): Promise<RefResponse> {
  const result = payee.peek(token);
  if (!result.ok) return problemResponse(result.code, TOKEN_DETAIL[result.code], NO_STORE);
  await new Promise((resolve) => setTimeout(resolve, SESSION_STORE_ROUND_TRIP_MS));
  payee.burn(token);
  return json(200, result.cpr, NO_STORE);
}
// Stryker restore all

// A slow store: wide enough that 20 requests released together (new TLS
// connections among them) all land in it on a loaded machine; at 20 ms the
// mutant survived a targeted selftest beside other work.
const SESSION_STORE_ROUND_TRIP_MS = 250;

async function createRequest(payee: PayeeCore, request: RefRequest): Promise<RefResponse> {
  // Mutant payee-control-bom-stripped: a byte order mark before the body is dropped, as many JSON body parsers do.
  const bom = payee.faults.has('payee-control-bom-stripped') && request.body[0] === 0xef && request.body[1] === 0xbb && request.body[2] === 0xbf;
  const body = readJsonBody(bom ? { ...request, body: request.body.subarray(3) } : request);
  if (!body.ok) return body.response;
  const checked = checkRequestInput(body.value, payee.faults);
  if (!checked.ok) {
    // Mutant payee-control-error-plain-json: input validation answers in its own JSON shape, as validation middleware does.
    if (payee.faults.has('payee-control-error-plain-json')) return json(400, { errors: [{ field: checked.field, message: checked.detail }] });
    // Stryker disable next-line StringLiteral: test control's input (PROFILE.md §12): the harness sends it well-formed
    return problemResponse('MALFORMED_REQUEST', `${checked.field}: ${checked.detail}`);
  }
  // Mutant payee-endpoint-from-forwarded-host: the endpoint taken from forwarding headers the client sent.
  // Mutant payee-endpoint-from-host-header: the endpoint taken from the Host header the client sent.
  const fromHost = payee.faults.has('payee-endpoint-from-host-header') && typeof request.headers['host'] === 'string' ? `https://${request.headers['host']}${new URL((payee.config as { base_url: string }).base_url).pathname.replace(/\/$/, '')}` : undefined;
  const forwarded = payee.faults.has('payee-endpoint-from-forwarded-host') ? forwardedBaseUrl(request, payee.config as { base_url: string }) : fromHost;
  try {
    // Mutant payee-control-created-200: a created request answered 200, as a framework's default success is.
    // Stryker disable next-line all: only the payee-control-created-200 fault answers 200
    return json(payee.faults.has('payee-control-created-200') ? 200 : 201, await payee.createRequest(checked.input, forwarded));
  } catch (error) {
    if (error instanceof PayeeInputError) return problemResponse('MALFORMED_REQUEST', error.message);
    throw error;
  }
}

/** Mutant payee-endpoint-from-forwarded-host: the base URL a proxy would have meant, read from the client's headers. */
function forwardedBaseUrl(request: RefRequest, config: { base_url: string }): string | undefined {
  const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);
  const host = header('x-forwarded-host') ?? header('x-original-host') ?? header('x-host') ?? /host=([^;,]+)/.exec(header('forwarded') ?? '')?.[1];
  if (host === undefined) return undefined;
  return `${header('x-forwarded-proto') ?? 'https'}://${host}${new URL(config.base_url).pathname.replace(/\/$/, '')}`;
}

const FULFIL_RESPONSE: Readonly<Record<Exclude<FulfilOutcome, 'FULFILLED'>, string>> = {
  // Stryker disable next-line StringLiteral: free text for a reader (a problem detail, RFC 9457 §3.1.4)
  REQUEST_CONSUMED: 'this request has already been fulfilled',
  // Stryker disable next-line StringLiteral: free text for a reader (a problem detail, RFC 9457 §3.1.4)
  REQUEST_EXPIRED: 'this request has expired and can no longer be fulfilled',
  // Stryker disable next-line StringLiteral: free text for a reader (a problem detail, RFC 9457 §3.1.4)
  NOT_FOUND: 'no such request',
};

// Stryker disable all: only the payee-fulfil-coalesced fault calls this function
/** Fulfilments of one request in flight, by payee: a ledger write's round trip long, each later one answered with the first one's answer. */
const fulfilling = new WeakMap<PayeeCore, Map<string, Promise<RefResponse>>>();
function fulfilCoalesced(payee: PayeeCore, requestId: string): Promise<RefResponse> {
  let pending = fulfilling.get(payee);
  if (!pending) fulfilling.set(payee, (pending = new Map()));
  const known = pending.get(requestId);
  if (known) return known;
  const answer = new Promise<RefResponse>((resolve) => setTimeout(() => resolve(fulfil(payee, requestId)), SESSION_STORE_ROUND_TRIP_MS));
  pending.set(requestId, answer);
  void answer.finally(() => pending.delete(requestId));
  return answer;
}
// Stryker restore all

/** PROFILE.md §12 fulfil; spec §3.1 single-use convention. */
function fulfil(payee: PayeeCore, requestId: string): RefResponse {
  // Stryker disable next-line ConditionalExpression,StringLiteral: test control's fulfil (PROFILE.md §12): the harness names requests by the ids the payee gave
  if (!isUuid(requestId)) return problemResponse('MALFORMED_REQUEST', 'request_id: must be a UUID in canonical lower-case form');
  const outcome = payee.fulfil(requestId);
  if (outcome === 'FULFILLED') return json(200, { request_id: requestId, consumed: true });
  return problemResponse(outcome, FULFIL_RESPONSE[outcome]);
}
