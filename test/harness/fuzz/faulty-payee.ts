// A payee with ONE fault, for proving that the payee fuzzer finds faults nobody
// pointed to: the embedded reference's payee behind an HttpRole that changes
// one behaviour as a careless implementation would (a token looked up by
// prefix, a deep link with a token of its own, a window compared with `>`).
// Nothing in reference/ is edited. Every fault is visible over HTTP, and none
// is a reference mutant: the suite's scenarios were never shown them.
import type { HttpRole, WireRequest, WireResponse } from '../../../harness/adapters/types.ts';
import { parseTimestamp } from '../../../profile/index.ts';
import { problemResponse } from '../../../reference/http/respond.ts';

export type PayeeFault =
  /** Tokens looked up by prefix (a `LIKE 'token%'` query): a truncated token of 8 characters or more serves the CPR. */
  | 'token-prefix-lookup'
  /** Tokens compared case-insensitively (a case-insensitive collation): an upper-case token serves the CPR. */
  | 'token-case-insensitive'
  /** Only the first 32 characters of the path are looked up (a fixed-width column): an extended token serves the CPR. */
  | 'token-extension-ignored'
  /** A token found by suffix (a route that strips an unknown prefix): a prefixed token serves the CPR. */
  | 'token-prefix-stripped'
  /** The deep link carries a token of its own that is never consumed: single use holds on the QR URI only. */
  | 'deep-link-token-reusable'
  /** The token's lifetime compared with `>`: at token_expires_at itself the token still serves the CPR once. */
  | 'token-expiry-instant-served'
  /** A failed lookup burns the lower-cased token: presenting the upper-case token consumes the real one. */
  | 'refusal-burns-token'
  /** Fulfilment judged against the token's expiry instead of the request's: refused REQUEST_EXPIRED once the token expired. */
  | 'fulfil-on-token-window'
  /** Refusals of /cpr sent without Cache-Control (only the 200 route sets it). */
  | 'refusal-cacheable'
  /** Fulfilment checks, then records, with a store round trip between: concurrent fulfilments of one request all succeed. */
  | 'fulfil-check-then-act';

export const PAYEE_FAULTS: readonly PayeeFault[] = [
  'token-prefix-lookup',
  'token-case-insensitive',
  'token-extension-ignored',
  'token-prefix-stripped',
  'deep-link-token-reusable',
  'token-expiry-instant-served',
  'refusal-burns-token',
  'fulfil-on-token-window',
  'refusal-cacheable',
  'fulfil-check-then-act',
];

interface Issued {
  readonly token: string;
  readonly requestId: string;
  readonly cpr: unknown;
  readonly tokenExpiresAt: number;
  /** The deep link's own token (deep-link-token-reusable). */
  readonly alias?: string;
}

const decoded = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const text = (body: Uint8Array | string | undefined) => (typeof body === 'string' ? body : new TextDecoder().decode(body ?? new Uint8Array()));

/** `inner` (the reference payee's role) with `fault` switched on. */
export function faultyPayee(inner: HttpRole, fault: PayeeFault): HttpRole {
  const issued: Issued[] = [];
  const base = new URL(inner.baseUrl ?? 'https://localhost').pathname.replace(/\/$/, '');
  const now = async (): Promise<number> => {
    const reply = await inner.send({ method: 'GET', path: '/_control/clock' });
    return parseTimestamp((JSON.parse(text(reply.body)) as { now: string }).now, 'cpr') ?? Number.NaN;
  };
  const ok = (cpr: unknown): WireResponse => ({ status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: new TextEncoder().encode(JSON.stringify(cpr)), truncated: false, durationMs: 0 });
  const retrieve = (token: string, request: WireRequest) => inner.send({ ...request, path: `/cpr/${token}` });

  async function onRetrieve(request: WireRequest, token: string): Promise<WireResponse> {
    // The path decoded, as the reference decodes it: a percent-encoded spelling names the same token.
    const exact = issued.find((i) => i.token === decoded(token));
    switch (fault) {
      case 'token-prefix-lookup': {
        const found = token.length >= 8 && !exact ? issued.find((i) => i.token.startsWith(token)) : undefined;
        return retrieve(found?.token ?? token, request);
      }
      case 'token-case-insensitive':
        return retrieve(token.toLowerCase(), request);
      case 'token-extension-ignored':
        return retrieve(token.slice(0, 32), request);
      case 'token-prefix-stripped': {
        const found = exact ? undefined : issued.find((i) => token.endsWith(i.token));
        return retrieve(found?.token ?? token, request);
      }
      case 'deep-link-token-reusable': {
        const aliased = issued.find((i) => i.alias === token);
        if (aliased && request.transport !== 'plaintext' && (await now()) < aliased.tokenExpiresAt) return ok(aliased.cpr);
        return retrieve(token, request);
      }
      case 'token-expiry-instant-served': {
        const answer = await retrieve(exact?.token ?? token, request);
        if (exact && answer.status === 410 && JSON.parse(text(answer.body)).code === 'TOKEN_EXPIRED' && (await now()) === exact.tokenExpiresAt && !(exact as { served?: true }).served) {
          (exact as { served?: true }).served = true;
          return ok(exact.cpr);
        }
        if (answer.status === 200 && exact) (exact as { served?: true }).served = true;
        return answer;
      }
      case 'refusal-burns-token': {
        const answer = await retrieve(token, request);
        if (answer.status === 404 && token !== token.toLowerCase()) await retrieve(token.toLowerCase(), { ...request, transport: 'plaintext' });
        return answer;
      }
      case 'refusal-cacheable': {
        const answer = await retrieve(token, request);
        if (answer.status === 200) return answer;
        const { 'cache-control': _dropped, ...headers } = answer.headers;
        return { ...answer, headers };
      }
      case 'fulfil-on-token-window':
      case 'fulfil-check-then-act':
        return retrieve(token, request);
    }
  }

  async function onCreate(request: WireRequest): Promise<WireResponse> {
    const answer = await inner.send(request);
    if (answer.status !== 201) return answer;
    const created = JSON.parse(text(answer.body)) as { token: string; request_id: string; cpr: unknown; token_expires_at: string; deep_link: string };
    const alias = fault === 'deep-link-token-reusable' ? [...created.token].reverse().join('') : undefined;
    issued.push({ token: created.token, requestId: created.request_id, cpr: created.cpr, tokenExpiresAt: parseTimestamp(created.token_expires_at, 'cpr') ?? Number.NaN, ...(alias ? { alias } : {}) });
    if (!alias) return answer;
    const changed = { ...created, deep_link: created.deep_link.replace(created.token, alias) };
    const { 'content-length': _length, ...headers } = answer.headers;
    return { ...answer, headers, body: new TextEncoder().encode(JSON.stringify(changed)) };
  }

  /** fulfil-check-then-act: the answer of a fulfilment of each request in flight. */
  const inFlight = new Map<string, Promise<WireResponse>>();
  async function onRacingFulfil(request: WireRequest, requestId: string): Promise<WireResponse> {
    const first = inFlight.get(requestId);
    if (first) {
      const answer = await first;
      return answer.status === 200 ? answer : inner.send(request);
    }
    const answer = inner.send(request).finally(() => inFlight.delete(requestId));
    inFlight.set(requestId, answer);
    return answer;
  }

  async function onFulfil(request: WireRequest, requestId: string): Promise<WireResponse> {
    const entry = issued.find((i) => i.requestId === requestId);
    if (entry && (await now()) >= entry.tokenExpiresAt) {
      const refused = problemResponse('REQUEST_EXPIRED', 'this request has expired and can no longer be fulfilled');
      return { status: refused.status, headers: { ...refused.headers }, body: new TextEncoder().encode(JSON.stringify(refused.body)), truncated: false, durationMs: 0 };
    }
    return inner.send(request);
  }

  return {
    ...inner,
    description: `${inner.description} with the fault ${fault}`,
    send: async (request) => {
      const path = request.path.startsWith(base) ? request.path.slice(base.length) : request.path;
      const retrieval = /^\/cpr\/([^/?]*)$/.exec(path);
      if (retrieval && request.method === 'GET') return onRetrieve(request, retrieval[1]!);
      if (path === '/_control/payee/requests' && request.method === 'POST') return onCreate(request);
      const fulfil = /^\/_control\/payee\/requests\/([^/]+)\/fulfil$/.exec(path);
      if (fulfil && request.method === 'POST' && fault === 'fulfil-on-token-window') return onFulfil(request, decodeURIComponent(fulfil[1]!));
      if (fulfil && request.method === 'POST' && fault === 'fulfil-check-then-act') return onRacingFulfil(request, decodeURIComponent(fulfil[1]!));
      return inner.send(request);
    },
    close: () => inner.close(),
  };
}
