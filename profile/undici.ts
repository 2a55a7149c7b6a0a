// The parts of undici the project's code uses: its Agent, its TLS connector and
// request(). undici's own entry module loads every part it has (fetch,
// WebSocket, cookies, EventSource, mock agents, caches): about 40 ms of each
// thread's start, compiled or not, for parts nothing here calls. These are its
// modules for the three parts, and request() as its entry module makes it,
// with the same arguments and answers (test/profile/undici.test.ts holds the
// two to the same requests). Every source imports undici from here.
import type * as Undici from 'undici';
import AgentModule from 'undici/lib/dispatcher/agent.js';
import apiModule from 'undici/lib/api/index.js';
import connectModule from 'undici/lib/core/connect.js';
import DispatcherModule from 'undici/lib/dispatcher/dispatcher.js';
import errorsModule from 'undici/lib/core/errors.js';
import globalModule from 'undici/lib/global.js';
import utilModule from 'undici/lib/core/util.js';

export type { Dispatcher } from 'undici';

// As undici's entry module does: the request API on every dispatcher.
Object.assign((DispatcherModule as { prototype: object }).prototype, apiModule as object);

export const Agent = AgentModule as typeof Undici.Agent;
export type Agent = Undici.Agent;
export const buildConnector = connectModule as typeof Undici.buildConnector;

const { InvalidArgumentError } = errorsModule as { InvalidArgumentError: new (message: string) => Error };
const util = utilModule as { parseOrigin(url: string | URL): URL; parseURL(url: string | URL): URL };
const { getGlobalDispatcher } = globalModule as { getGlobalDispatcher(): Undici.Dispatcher };

/** undici's request(url, options): its entry module's makeDispatcher(api.request), as in undici 7. */
export const request = ((url: string | URL, opts?: { path?: unknown; dispatcher?: Undici.Dispatcher; agent?: unknown; method?: string; body?: unknown } | null) => {
  if (!url || (typeof url !== 'string' && typeof url !== 'object')) throw new InvalidArgumentError('invalid url');
  if (opts != null && typeof opts !== 'object') throw new InvalidArgumentError('invalid opts');
  let target: URL;
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
    target = new URL(util.parseOrigin(url).origin + (opts.path.startsWith('/') ? opts.path : `/${opts.path}`));
  } else {
    opts ??= typeof url === 'object' ? (url as object) : {};
    target = util.parseURL(url);
  }
  const { agent, dispatcher = getGlobalDispatcher() } = opts;
  if (agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return dispatcher.request({
    ...opts,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: (opts.method || (opts.body ? 'PUT' : 'GET')) as Undici.Dispatcher.HttpMethod,
  } as Undici.Dispatcher.RequestOptions);
}) as typeof Undici.request;
