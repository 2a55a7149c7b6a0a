// The reference implementation as a module in the harness's module contract
// (harness/ADAPTERS.md, "module"): payee and operator answer through their
// handlers in-process, the paying application is the reference library. It lets
// the module adapter, and the suite itself, run against the reference without a
// socket.
//
// Roles created with the same `settings.instance` (default "default") share one
// world: one Clock (PROFILE.md §12), one payee, one operator. The world is
// dropped when its last role is closed. `settings.mutant` switches one fault on
// (reference/mutants.ts) in every role created with it; roles with different
// mutants never share a world. `settings.lease: false` leaves the test-control
// lease out (PROFILE.md §12): any client may then move the shared clock.
// `settings.record_switches: true` switches no fault on but notes each switch
// consulted in APP_SWITCHES (selftest learns which tests reach which mutant).
import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent, request } from '../profile/undici.ts';
import { parseTimestamp, problem, PROBLEM_CONTENT_TYPE } from '../profile/index.ts';
import { Clock, sharedClockReader } from './clock.ts';
import { createControlHandler } from './control.ts';
import { MAX_BODY_BYTES } from './http/server.ts';
import { serializeResponse } from './http/respond.ts';
import type { Handler, RefResponse } from './http/types.ts';
import { createOperator, type Operator } from './operator/index.ts';
import { createPayee, type Payee } from './payee/index.ts';
import { createPayingApp, type PayingAppOptions } from './paying-app/index.ts';
import type { ReadInput } from './paying-app/index.ts';
import { checkAllowedHosts } from './paying-app/hosts.ts';
import { faultsFor, SwitchRecorder, type Faults } from './mutants.ts';
import { createRouter } from './router.ts';

type RoleName = 'payee' | 'operator' | 'paying-app';

interface ModuleRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

interface ModuleResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** What the in-process payee is told its base URL is: the `endpoint` of its QR URIs. */
const MODULE_BASE_URL = 'https://module.invalid';

interface World {
  readonly faults: Faults;
  readonly clock: Clock;
  readonly payee: Payee;
  readonly operator: Operator;
  users: number;
}

const worlds = new Map<string, World>();

/** The switches consulted by the roles created with `settings.record_switches` in this module instance. */
export const APP_SWITCHES = new SwitchRecorder();

function worldFor(instance: string, faults: Faults): World {
  let world = worlds.get(instance);
  if (!world) {
    const clock = new Clock();
    world = { faults, clock, payee: createPayee({ clock, faults, baseUrl: MODULE_BASE_URL }), operator: createOperator({ clock, faults }), users: 0 };
    worlds.set(instance, world);
  }
  world.users += 1;
  return world;
}

function release(instance: string): void {
  const world = worlds.get(instance);
  if (world && --world.users <= 0) worlds.delete(instance);
}

/** The module contract's entry point. */
export function createRole(options: { role: RoleName; settings: Readonly<Record<string, unknown>>; ca?: string }): unknown {
  const settings = options.settings ?? {};
  const mutant = settings['mutant'];
  if (mutant !== undefined && typeof mutant !== 'string') throw new TypeError('settings.mutant is the name of a mutant (reference/mutants.ts)');
  const recording = settings['record_switches'] === true;
  if (recording && mutant !== undefined) throw new TypeError('settings.record_switches notes the switches of the reference with no fault on: not with settings.mutant');
  const faults = recording ? APP_SWITCHES.faults : faultsFor(mutant);
  const instance = JSON.stringify([typeof settings['instance'] === 'string' ? settings['instance'] : 'default', faults.active ?? (recording ? 'record_switches' : null)]);
  const world = worldFor(instance, faults);
  let closed = false;
  const close = () => {
    if (!closed) release(instance);
    closed = true;
  };
  switch (options.role) {
    case 'payee':
    case 'operator':
      return { handle: handlerFor(world, options.role, settings), close };
    case 'paying-app': {
      const app = payingApp(world, settings, options.ca);
      return {
        read: app.read,
        derive: app.derive,
        close: async () => {
          close();
          await app.close();
        },
      };
    }
    default:
      release(instance);
      throw new TypeError(`the reference has no role ${JSON.stringify(options.role)}`);
  }
}

export default createRole;

/** One role's routes, plus the shared control routes (discovery, clock), as the one origin of start.ts serves them. */
function handlerFor(world: World, role: 'payee' | 'operator', settings: Readonly<Record<string, unknown>>) {
  const elsewhere: Handler = (request) => notFound(`${request.path} is not served by the ${role}`);
  const token = settings['control_token'];
  const router = createRouter({
    payee: role === 'payee' ? world.payee.handler : elsewhere,
    operator: role === 'operator' ? world.operator.serve : elsewhere,
    control: createControlHandler(world.clock, { lease: settings['lease'] !== false, faults: world.faults }),
    controlEnabled: settings['control'] !== false,
    ...(typeof token === 'string' ? { controlToken: token } : {}),
  });
  return async (request: ModuleRequest): Promise<ModuleResponse> => {
    const url = new URL(request.path, 'http://placeholder');
    const authority = request.headers['host'] ?? 'module.invalid';
    let response: RefResponse;
    // The same limits and failure answers as reference/http/server.ts.
    if (request.body.length > MAX_BODY_BYTES) {
      response = problemOf('PAYLOAD_TOO_LARGE', `request bodies are limited to ${MAX_BODY_BYTES} bytes`);
    } else {
      try {
        response = await router({ method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body: request.body, authority, secure: true });
      } catch (error) {
        process.emitWarning(`reference handler failed: ${(error as Error)?.stack ?? String(error)}`);
        response = problemOf('INTERNAL_ERROR', 'internal error');
      }
    }
    return serializeResponse(response, request.method);
  };
}

function problemOf(code: 'PAYLOAD_TOO_LARGE' | 'INTERNAL_ERROR' | 'NOT_FOUND', detail: string): RefResponse {
  const p = problem(code, detail);
  return { status: p.status, headers: { 'content-type': PROBLEM_CONTENT_TYPE }, body: p };
}

function notFound(detail: string): RefResponse {
  return problemOf('NOT_FOUND', detail);
}

/**
 * The reference paying application, trusting `ca` (the role's tls.ca_file) for
 * token retrieval. Its clock is the world's shared clock or, with
 * `settings.clock_from` (a reference base URL), that reference's one clock
 * (PROFILE.md §12), read from GET /_control/clock before each call, with
 * `settings.control_token` when the reference needs one; or, with
 * `settings.clock_shared` (an in-process setting: the SharedArrayBuffer of
 * Clock.share), the clock of a reference running in this process, read from
 * that memory (the embedded reference's thread shares it). `supported_rails`
 * overrides the rails it pays with; `allowed_hosts` (`host` or `host:port`) are
 * the only hosts it retrieves token URIs from (the harness sets it: no SSRF).
 */
function payingApp(world: World, settings: Readonly<Record<string, unknown>>, ca: string | undefined) {
  const rails = settings['supported_rails'];
  const hosts = settings['allowed_hosts'];
  const base: PayingAppOptions = {
    faults: world.faults,
    ...(ca !== undefined ? { ca } : {}),
    ...(Array.isArray(rails) ? { supportedRails: rails as string[] } : {}),
    ...(hosts !== undefined ? { allowedHosts: checkAllowedHosts(hosts) } : {}),
  };
  const shared = settings['clock_shared'];
  const local = shared === undefined ? undefined : sharedClockReader(shared as SharedArrayBuffer);
  const remote = local === undefined && typeof settings['clock_from'] === 'string' ? remoteClock(settings['clock_from'], settings['control_token'], ca) : undefined;
  // One library instance for the role's life, as an application runs (what one call leaves in it, the next meets);
  // each call reads the clock once, at its start, so concurrent calls never share a clock reading.
  const reading = new AsyncLocalStorage<number>();
  const app = createPayingApp({ ...base, clock: () => reading.getStore() ?? world.clock.now() });
  const atNow = async <T>(call: () => T | Promise<T>): Promise<T> => reading.run(local ? local() : remote ? await remote.now() : world.clock.now(), call);
  return {
    async read(input: ReadInput) {
      const result = await atNow(() => app.read(input));
      return result.ok ? { ok: true, cpr: result.cpr, notices: result.notices } : result;
    },
    derive(cpr: unknown, context: Record<string, unknown>) {
      // The harness speaks RFC 3339 (harness/adapters/types.ts); the library takes epoch milliseconds.
      const { now, ...rest } = context ?? {};
      const ms = typeof now === 'string' ? (parseTimestamp(now) ?? Date.parse(now)) : undefined;
      return atNow(() => app.derive(cpr, { ...(rest as { payer: unknown; rail: unknown; authorization: unknown }), ...(ms !== undefined ? { now: ms } : {}) }));
    },
    close: () => remote?.close(),
  };
}

/** The clock of a running reference, over its test-control interface. */
function remoteClock(baseUrl: string, token: unknown, ca: string | undefined) {
  const agent = new Agent({ connect: ca !== undefined ? { ca } : {} });
  const headers: Record<string, string> = typeof token === 'string' ? { authorization: `Bearer ${token}` } : {};
  return {
    async now(): Promise<number> {
      const response = await request(`${baseUrl}/_control/clock`, { dispatcher: agent, headers, signal: AbortSignal.timeout(5000) });
      const body = (await response.body.json()) as { now?: unknown };
      const ms = parseTimestamp(body?.now);
      if (response.statusCode !== 200 || ms === undefined) throw new Error(`${baseUrl}/_control/clock answered ${response.statusCode} without a time`);
      return ms;
    },
    close: () => agent.close(),
  };
}
