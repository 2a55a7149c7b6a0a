// A paying application with ONE fault, for proving that the paying-app fuzzer
// finds faults nobody pointed to: the reference paying application behind a
// PayingAppRole whose retrieval (or reading, or derivation) is written again
// with one careless step, as an implementer's own HTTP client would be. Nothing
// in reference/ is edited, and none of these is a reference mutant.
import { Agent, request } from 'undici';
import type { AppResult, CprInput, PayingAppRole } from '../../../harness/adapters/types.ts';
import { parseDeliveryUri, retrievalUrl } from '../../../profile/cpr/index.ts';

export type AppFault =
  /** Its HTTP client follows redirects (a fetch with its default `redirect: 'follow'`). */
  | 'redirect-followed'
  /** Only the exact media type `application/json` is taken: `application/json; charset=utf-8` is refused. */
  | 'media-type-exact'
  /** The body limit is checked against Content-Length only: a chunked body of any size is read. */
  | 'length-from-header'
  /** A 5xx answer is retried once: the single-use token is sent twice. */
  | 'retry-on-server-error'
  /** A 408 or 429 answer is taken for throttling and retried once: the single-use token is sent twice. */
  | 'retry-on-throttle'
  /** The retrieval URL is resolved against the endpoint's origin (`new URL('/cpr/' + token, endpoint)`): its base path is lost. */
  | 'base-path-dropped'
  /** The endpoint is everything after `endpoint=`, other query parameters included. */
  | 'endpoint-query-swallowed'
  /** An http:// endpoint is retrieved as it is: the token travels in the clear. */
  | 'plaintext-endpoint-retrieved'
  /** A byte order mark before direct JSON is dropped (a text reader's convenience), so the document is read. */
  | 'bom-stripped'
  /** The Payment's intent.reference is the memo trimmed of white space. */
  | 'reference-trimmed'
  /** The retrieved body is parsed with the HTTP client's own `json()` (WHATWG text decoding drops a BOM; the last of two equal members wins), then read as a value. */
  | 'retrieval-client-json';

export const APP_FAULTS: readonly AppFault[] = [
  'redirect-followed',
  'media-type-exact',
  'length-from-header',
  'retry-on-server-error',
  'retry-on-throttle',
  'base-path-dropped',
  'endpoint-query-swallowed',
  'plaintext-endpoint-retrieved',
  'bom-stripped',
  'reference-trimmed',
  'retrieval-client-json',
];

const LIMIT = 65_536;

const failed = (why: string): AppResult => ({ ok: false, code: 'RETRIEVAL_FAILED', message: `The payment request could not be retrieved: ${why}.` });

/** `inner` (the reference paying application, trusting `ca`) with `fault` switched on. */
export function faultyApp(inner: PayingAppRole, fault: AppFault, ca: string): PayingAppRole {
  /** The fault's own retrieval of a token URI; the document it gets is read as direct JSON by the reference. */
  async function retrieve(url: string): Promise<AppResult> {
    const agent = new Agent({ connect: { ca, timeout: 5000 } });
    try {
      let response = await request(url, { method: 'GET', dispatcher: agent, headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5000) });
      if (fault === 'redirect-followed' && response.statusCode >= 300 && response.statusCode < 400 && typeof response.headers.location === 'string') {
        await response.body.dump();
        response = await request(new URL(response.headers.location, url).href, { method: 'GET', dispatcher: agent, signal: AbortSignal.timeout(5000) });
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > LIMIT) return failed('the response is too large');
      const bytes = Buffer.from(await response.body.arrayBuffer());
      if (fault !== 'length-from-header' && bytes.byteLength > LIMIT) return failed('the response is too large');
      if (response.statusCode !== 200) return failed(`the payee answered ${response.statusCode}`);
      const type = response.headers['content-type'];
      const json = fault === 'media-type-exact' ? type === 'application/json' : typeof type === 'string' && /^application\/json\s*(;.*)?$/i.test(type);
      if (!json) return failed('the response is not application/json');
      if (fault === 'retrieval-client-json') {
        try {
          return await inner.read({ kind: 'object', value: JSON.parse(new TextDecoder().decode(bytes)) });
        } catch {
          return failed('the response is not JSON');
        }
      }
      const text = bytes.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) return failed('the response is not I-JSON');
      return inner.read({ kind: 'json', text });
    } catch (error) {
      return failed((error as Error).message);
    } finally {
      agent.destroy().catch(() => undefined);
    }
  }

  async function read(input: CprInput): Promise<AppResult> {
    if (input.kind === 'json' && fault === 'bom-stripped') return inner.read({ kind: 'json', text: input.text.replace(/^\uFEFF/, '') });
    if (input.kind !== 'uri') return inner.read(input);
    const parsed = parseDeliveryUri(input.uri);
    if (fault === 'endpoint-query-swallowed' && !input.uri.startsWith('std-cpr://inline/')) {
      const at = input.uri.indexOf('endpoint=');
      if (at >= 0) return inner.read({ kind: 'uri', uri: `${input.uri.slice(0, at)}endpoint=${encodeURIComponent(decodeURIComponent(input.uri.slice(at + 'endpoint='.length)))}` });
    }
    // Its own parser, which takes any endpoint the URL class takes.
    const plain = fault === 'plaintext-endpoint-retrieved' ? /^std-cpr:\/\/([0-9a-f]+)\?(.*)$/.exec(input.uri) : null;
    const endpoint = plain ? new URLSearchParams(plain[2]).get('endpoint') : null;
    if (plain && endpoint?.startsWith('http://')) {
      const response = await request(retrievalUrl(endpoint, plain[1]!), { method: 'GET' });
      const text = await response.body.text();
      return response.statusCode === 200 ? inner.read({ kind: 'json', text }) : failed(`the payee answered ${response.statusCode}`);
    }
    if (parsed.kind !== 'token' || !parsed.endpoint.startsWith('https://')) return inner.read(input);
    switch (fault) {
      case 'redirect-followed':
      case 'media-type-exact':
      case 'length-from-header':
      case 'retrieval-client-json':
        return retrieve(retrievalUrl(parsed.endpoint, parsed.token));
      case 'base-path-dropped':
        return retrieve(new URL(`/cpr/${parsed.token}`, parsed.endpoint).href);
      case 'retry-on-server-error':
      case 'retry-on-throttle': {
        const first = await inner.read(input);
        const again = fault === 'retry-on-server-error' ? / 5\d\d/ : / (408|429)\b/;
        return !first.ok && first.code === 'RETRIEVAL_FAILED' && again.test(first.message) ? inner.read(input) : first;
      }
      default:
        return inner.read(input);
    }
  }

  return {
    ...inner,
    description: `${inner.description} with the fault ${fault}`,
    read,
    derive: async (cpr, context) => {
      const result = await inner.derive(cpr, context);
      if (fault !== 'reference-trimmed' || !result.ok) return result;
      const payment = result.payment as { intent: { reference: string } };
      return { ...result, payment: { ...payment, intent: { ...payment.intent, reference: payment.intent.reference.trim() } } };
    },
    close: () => inner.close(),
  };
}
