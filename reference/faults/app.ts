// The paying application's fuzzer mutants (reference/mutants.ts, catcher
// 'fuzzer'): the reference paying application with its retrieval, reading or
// derivation written again with one careless step, as an implementer's own
// HTTP client or validator would be. createPayingApp hands this out in place of
// itself when one of these faults is switched on. None was shown to the suite.
import { readFileSync } from 'node:fs';
import { Agent, request } from '../../profile/undici.ts';
import { identifySubInterface, parseDeliveryUri, retrievalUrl, type Cpr } from '../../profile/cpr/index.ts';
import type { Faults, FuzzerMutantOfRole } from '../mutants.ts';
import type { PayingApp } from '../paying-app/app.ts';
import type { ReadInput } from '../paying-app/read.ts';
import { reject, type Accepted, type Rejection } from '../paying-app/rejection.ts';

type AppFault = FuzzerMutantOfRole<'paying-app'>;

/** Every fuzzer mutant of the paying application: the switch createPayingApp opens this file with. */
export const APP_FAULTS = [
  'app-media-type-exact',
  'app-length-from-header',
  'app-retry-on-server-error',
  'app-retry-on-throttle',
  'app-base-path-dropped',
  'app-endpoint-query-swallowed',
  'app-plaintext-endpoint-retrieved',
  'app-bom-stripped',
  'app-reference-trimmed',
  'app-retrieval-client-json',
  'app-nanosecond-fraction-accepted',
  'app-nested-duplicate-accepted',
  'app-payer-depth-limited',
] as const satisfies readonly AppFault[];

/** What the faults' own retrieval needs: the CA the application trusts, its time limit and body cap. */
interface AppSettings {
  readonly faults: Faults;
  readonly ca?: string;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
}

const failed = (why: string): Rejection => reject('RETRIEVAL_FAILED', `The payment request could not be retrieved: ${why}.`);

/** `reference` (the reference paying application) with the fuzzer mutant `settings.faults.active` (one of APP_FAULTS) on. */
export function faultyApp(reference: PayingApp, settings: AppSettings): PayingApp {
  const fault = settings.faults.active as AppFault;

  /** The fault's own retrieval of a token URI; the document it gets is read as direct JSON by the reference. */
  async function retrieve(url: string): Promise<Accepted | Rejection> {
    const agent = new Agent({ connect: { ...(settings.ca !== undefined ? { ca: settings.ca } : {}), timeout: settings.timeoutMs } });
    try {
      const response = await request(url, { method: 'GET', dispatcher: agent, headers: { accept: 'application/json' }, signal: AbortSignal.timeout(settings.timeoutMs) });
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > settings.maxBodyBytes) return failed('the response is too large');
      const bytes = Buffer.from(await response.body.arrayBuffer());
      if (fault !== 'app-length-from-header' && bytes.byteLength > settings.maxBodyBytes) return failed('the response is too large');
      if (response.statusCode !== 200) return failed(`the payee answered ${response.statusCode}`);
      const type = response.headers['content-type'];
      const json = fault === 'app-media-type-exact' ? type === 'application/json' : typeof type === 'string' && /^application\/json\s*(;.*)?$/i.test(type);
      if (!json) return failed('the response is not application/json');
      if (fault === 'app-retrieval-client-json') {
        try {
          return await reference.read({ kind: 'object', value: JSON.parse(new TextDecoder().decode(bytes)) });
        } catch {
          return failed('the response is not JSON');
        }
      }
      const text = bytes.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) return failed('the response is not I-JSON');
      return reference.read({ kind: 'json', text });
    } catch (error) {
      return failed((error as Error).message);
    } finally {
      agent.destroy().catch(() => undefined);
    }
  }

  async function readUri(input: Extract<ReadInput, { kind: 'uri' }>): Promise<Accepted | Rejection> {
    const parsed = parseDeliveryUri(input.uri);
    if (fault === 'app-endpoint-query-swallowed' && !input.uri.startsWith('std-cpr://inline/')) {
      const at = input.uri.indexOf('endpoint=');
      if (at >= 0) return reference.read({ kind: 'uri', uri: `${input.uri.slice(0, at)}endpoint=${encodeURIComponent(decodeURIComponent(input.uri.slice(at + 'endpoint='.length)))}` });
    }
    // Its own parser, which takes any endpoint the URL class takes.
    const plain = fault === 'app-plaintext-endpoint-retrieved' ? /^std-cpr:\/\/([0-9a-f]+)\?(.*)$/.exec(input.uri) : null;
    const endpoint = plain ? new URLSearchParams(plain[2]).get('endpoint') : null;
    if (plain && endpoint?.startsWith('http://')) {
      const response = await request(retrievalUrl(endpoint, plain[1]!), { method: 'GET', signal: AbortSignal.timeout(settings.timeoutMs) });
      const text = await response.body.text();
      return response.statusCode === 200 ? reference.read({ kind: 'json', text }) : failed(`the payee answered ${response.statusCode}`);
    }
    if (parsed.kind !== 'token' || !parsed.endpoint.startsWith('https://')) return reference.read(input);
    switch (fault) {
      case 'app-media-type-exact':
      case 'app-length-from-header':
      case 'app-retrieval-client-json':
        return retrieve(retrievalUrl(parsed.endpoint, parsed.token));
      case 'app-base-path-dropped':
        return retrieve(new URL(`/cpr/${parsed.token}`, parsed.endpoint).href);
      case 'app-retry-on-server-error':
      case 'app-retry-on-throttle': {
        const first = await reference.read(input);
        const again = fault === 'app-retry-on-server-error' ? / 5\d\d/ : / (408|429)\b/;
        return !first.ok && first.code === 'RETRIEVAL_FAILED' && again.test(first.message) ? reference.read(input) : first;
      }
      default:
        return reference.read(input);
    }
  }

  async function read(input: ReadInput): Promise<Accepted | Rejection> {
    if (input?.kind === 'json' && fault === 'app-bom-stripped') return reference.read({ kind: 'json', text: input.text.replace(/^\uFEFF/, '') });
    const result = input?.kind === 'uri' ? await readUri(input) : await reference.read(input);
    return CLASS_FAULTS.has(fault) ? classFault(fault, input, result) : result;
  }

  /** A validator that forgives one class of violation (the class faults): what the reference refused, read anyway. */
  async function classFault(fault: AppFault, input: ReadInput, result: Accepted | Rejection): Promise<Accepted | Rejection> {
    if (result.ok || result.code !== 'CPR_INVALID') return result;
    const violations = result.violations ?? [];
    if (fault === 'app-nested-duplicate-accepted') {
      const text = textOf(input);
      if (text === undefined || !violations.every((v) => v.requirement === 'PRF-JSON-1') || text.charCodeAt(0) === 0xfeff) return result;
      const names = topLevelNames(text);
      if (new Set(names).size !== names.length) return result;
      const doc = documentOf(input);
      return doc === undefined ? result : reference.read({ kind: 'object', value: doc });
    }
    const doc = documentOf(input);
    if (typeof doc !== 'object' || doc === null || violations.length === 0 || !violations.every((v) => forgiven(fault, v, doc as Record<string, unknown>))) return result;
    const { payee, rail_hint: hint } = doc as { payee?: { rail_address?: unknown }; rail_hint?: unknown };
    const sub = typeof payee?.rail_address === 'object' && payee.rail_address !== null ? identifySubInterface(payee.rail_address as never, hint as never) : undefined;
    return sub === undefined ? result : { ok: true, cpr: doc as Cpr, subInterface: sub, notices: [] };
  }

  const derive: PayingApp['derive'] = (cpr, context) => {
    const result = reference.derive(cpr, context);
    if (fault !== 'app-reference-trimmed' || !result.ok) return result;
    return { ...result, payment: { ...result.payment, intent: { ...result.payment.intent, reference: result.payment.intent.reference.trim() } } };
  };

  return {
    read,
    derive,
    async process(input, context) {
      const accepted = await read(input);
      if (!accepted.ok) return accepted;
      const derived = derive(accepted.cpr, context);
      return derived.ok ? { ...derived, notices: [...new Set([...accepted.notices, ...derived.notices])] } : derived;
    },
  };
}

// ---- the class faults: a validator with one blind spot in a field class ----

const CLASS_FAULTS: ReadonlySet<AppFault> = new Set(['app-nanosecond-fraction-accepted', 'app-nested-duplicate-accepted', 'app-payer-depth-limited']);

/** The text a JSON input carries (direct JSON, a file, an inline URI); undefined for a value or a token URI. */
function textOf(input: ReadInput): string | undefined {
  if (input.kind === 'json') return input.text;
  if (input.kind === 'file') return readFileSync(input.path, 'utf8');
  if (input.kind !== 'uri') return undefined;
  const parsed = parseDeliveryUri(input.uri);
  return parsed.kind === 'inline' ? parsed.json : undefined;
}

function documentOf(input: ReadInput): unknown {
  if (input.kind === 'object') return input.value;
  const text = textOf(input);
  if (text === undefined || text.charCodeAt(0) === 0xfeff) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The member names of the text's outermost object, as written (escapes resolved), in order. */
function topLevelNames(text: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectName) names.push(JSON.parse(text.slice(i, j + 1)) as string);
      expectName = false;
      i = j;
    } else if (c === '{' || c === '[') {
      depth++;
      expectName = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 1) expectName = true;
  }
  return names;
}

const FRACTION_7_TO_9 = /\.\d{7,9}Z$/;

/** Objects below extensions that hold the member at `path` (/extensions/a/b/payer: two, a and b). */
const depthBelowExtensions = (path: string): number => path.split('/').length - 3;

/** Whether the fault lets this violation through. */
function forgiven(fault: AppFault, v: { readonly requirement?: string; readonly path?: string }, doc: Record<string, unknown>): boolean {
  if (fault === 'app-nanosecond-fraction-accepted') return (v.path === '/created_at' || v.path === '/expires_at') && FRACTION_7_TO_9.test(String(doc[v.path.slice(1)]));
  if (fault === 'app-payer-depth-limited') return (v.requirement === 'CPR-PAYER-1' || v.requirement === 'PRF-PAYER-1') && typeof v.path === 'string' && v.path.startsWith('/extensions/') && depthBelowExtensions(v.path) > 3;
  return false;
}
