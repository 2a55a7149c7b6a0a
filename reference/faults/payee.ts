// The payee's fuzzer mutants (reference/mutants.ts, catcher 'fuzzer'): the
// reference payee's routes with one behaviour changed as a careless
// implementation would (a token looked up by prefix, a window compared with
// `>`, a fulfilment checked then recorded). createPayee serves this in place of
// its own handler when one of these faults is switched on. Every fault is
// visible over HTTP; the suite's scenarios were never shown them.
import { parseTimestamp } from '../../profile/index.ts';
import type { Clock } from '../clock.ts';
import { json, problemResponse } from '../http/respond.ts';
import type { Handler, RefRequest, RefResponse } from '../http/types.ts';
import type { Faults, FuzzerMutantOfRole } from '../mutants.ts';

type PayeeFault = FuzzerMutantOfRole<'payee'>;

/** Every fuzzer mutant of the payee: the switch createPayee opens this file with. */
export const PAYEE_FAULTS = [
  'payee-token-prefix-lookup',
  'payee-token-case-insensitive',
  'payee-token-extension-ignored',
  'payee-token-prefix-stripped',
  'payee-token-expiry-instant-served',
  'payee-refusal-burns-token',
  'payee-fulfil-on-token-window',
  'payee-refusal-cacheable',
  'payee-fulfil-check-then-act',
] as const satisfies readonly PayeeFault[];

/** What the faults need of the payee. */
interface PayeeParts {
  readonly faults: Faults;
  burn(token: string): void;
}

interface Issued {
  readonly token: string;
  readonly requestId: string;
  readonly cpr: unknown;
  readonly tokenExpiresAt: number;
  /** token-expiry-instant-served: served once at its expiry instant. */
  served?: true;
}

/** A store round trip (payee-fulfil-check-then-act): wide enough for requests released together to meet in it. */
const STORE_ROUND_TRIP_MS = 20;

/** What a web framework answers by default when a route names no Cache-Control (payee-refusal-cacheable). */
const FRAMEWORK_DEFAULT = { 'cache-control': 'public, max-age=0' };

const decoded = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The payee's routes (`reference`) with the fuzzer mutant `payee.faults.active` (one of PAYEE_FAULTS) on. */
export function faultyPayee(payee: PayeeParts, clock: Clock, reference: Handler): Handler {
  const fault = payee.faults.active as PayeeFault;
  const issued: Issued[] = [];
  const served = (cpr: unknown): RefResponse => json(200, cpr, { 'cache-control': 'no-store' });

  async function onRetrieve(request: RefRequest, token: string): Promise<RefResponse> {
    const retrieve = (other: string) => reference({ ...request, path: `/cpr/${other}` });
    const exact = issued.find((i) => i.token === decoded(token));
    switch (fault) {
      case 'payee-token-prefix-lookup': {
        const found = token.length >= 8 && !exact ? issued.find((i) => i.token.startsWith(token)) : undefined;
        return retrieve(found?.token ?? token);
      }
      case 'payee-token-case-insensitive':
        return retrieve(token.toLowerCase());
      case 'payee-token-extension-ignored':
        return retrieve(token.slice(0, 32));
      case 'payee-token-prefix-stripped': {
        const found = exact ? undefined : issued.find((i) => token.endsWith(i.token));
        return retrieve(found?.token ?? token);
      }
      case 'payee-token-expiry-instant-served': {
        const answer = await retrieve(exact?.token ?? token);
        const code = (answer.body as { code?: unknown } | undefined)?.code;
        if (exact && request.secure && code === 'TOKEN_EXPIRED' && clock.now() === exact.tokenExpiresAt && !exact.served) {
          exact.served = true;
          return served(exact.cpr);
        }
        if (answer.status === 200 && exact) exact.served = true;
        return answer;
      }
      case 'payee-refusal-burns-token': {
        const answer = await retrieve(token);
        if (answer.status === 404 && token !== token.toLowerCase()) payee.burn(token.toLowerCase());
        return answer;
      }
      case 'payee-refusal-cacheable': {
        const answer = await retrieve(token);
        return answer.status === 200 ? answer : { ...answer, headers: { ...answer.headers, ...FRAMEWORK_DEFAULT } };
      }
      default:
        return retrieve(token);
    }
  }

  async function onCreate(request: RefRequest): Promise<RefResponse> {
    const answer = await reference(request);
    if (answer.status !== 201) return answer;
    const created = answer.body as { token: string; request_id: string; cpr: unknown; token_expires_at: string };
    issued.push({ token: created.token, requestId: created.request_id, cpr: created.cpr, tokenExpiresAt: parseTimestamp(created.token_expires_at, 'cpr') ?? Number.NaN });
    return answer;
  }

  /** payee-fulfil-check-then-act: the answer of the fulfilment of each request in flight. */
  const inFlight = new Map<string, Promise<RefResponse>>();
  async function onRacingFulfil(request: RefRequest, requestId: string): Promise<RefResponse> {
    const first = inFlight.get(requestId);
    if (first) {
      const answer = await first;
      return answer.status === 200 ? answer : reference(request);
    }
    const answer = new Promise<void>((resolve) => setTimeout(resolve, STORE_ROUND_TRIP_MS)).then(() => reference(request)).finally(() => inFlight.delete(requestId));
    inFlight.set(requestId, answer);
    return answer;
  }

  /** payee-fulfil-on-token-window: refused once the request's token expired, whatever the request's own window. */
  function onFulfil(request: RefRequest, requestId: string): RefResponse | Promise<RefResponse> {
    const entry = issued.find((i) => i.requestId === requestId);
    if (entry && clock.now() >= entry.tokenExpiresAt) return problemResponse('REQUEST_EXPIRED', 'this request has expired and can no longer be fulfilled');
    return reference(request);
  }

  return (request) => {
    const retrieval = /^\/cpr\/([^/?]*)$/.exec(request.path);
    if (retrieval && request.method === 'GET') return onRetrieve(request, retrieval[1]!);
    if (request.path === '/_control/payee/requests' && request.method === 'POST') return onCreate(request);
    const fulfil = /^\/_control\/payee\/requests\/([^/]+)\/fulfil$/.exec(request.path);
    if (fulfil && request.method === 'POST' && fault === 'payee-fulfil-on-token-window') return onFulfil(request, decoded(fulfil[1]!));
    if (fulfil && request.method === 'POST' && fault === 'payee-fulfil-check-then-act') return onRacingFulfil(request, decoded(fulfil[1]!));
    return reference(request);
  };
}
