// The physical limit: a plain undici loop sending a recorded fuzz campaign
// (recorder.ts) once more, with the keep-alive pool settings of the http adapter
// (harness/adapters/http.ts) and nothing else: no signing, no model, no checks.
// It keeps the fuzzer's order and concurrency and nothing more: the groups of a
// lane are sent one after the other, each as soon as the previous one is
// answered, the lanes side by side, and a request of the whole run (the clock)
// waits for every lane, as in the fuzzer (harness/fuzz/lanes.ts); the requests
// of a group go out together.
//
// It is sent to a second reference started with the seed of the first
// (served.ts), with the first one's Host: same signing key, same pack ids, the
// clock set by the recorded test-control calls, so the same requests meet the
// same state and get the same answers. The server does exactly the work the
// fuzzer's traffic caused, and every answer is compared with the recorded one to
// show that it did.
import { Agent, type Dispatcher } from '../../profile/undici.ts';
import { HTTP_DEFAULTS } from '../adapters/http.ts';
import { CONTROL_INPUTS } from '../../profile/control.ts';
import { pathShape, type RecordedGroup, type RecordedRequest } from './recorder.ts';

interface ReplayOptions {
  /** Base URL of the server, e.g. https://127.0.0.1:PORT. */
  readonly baseUrl: string;
  readonly groups: readonly RecordedGroup[];
  /**
   * The Host the recording was made against, sent with every request when the
   * server listens elsewhere: HTTP message signatures cover @authority (PROFILE.md
   * §2.4), and a server reads it from the Host it is sent.
   */
  readonly authority?: string;
}

export interface LoopResult {
  readonly ops: number;
  readonly elapsedMs: number;
  readonly opsPerSecond: number;
  /** Answers equal to the recorded ones (status and body bytes), of `compared`. */
  readonly identical: number;
  readonly compared: number;
  /** What differed, by recorded and replayed status, e.g. `200 -> 409`; empty when all were identical. */
  readonly differences: Readonly<Record<string, number>>;
  /**
   * The same answers by request and by what differed, e.g.
   * `POST /v1/cashpack/renew 200 -> 200: pack, signature` (the top-level members
   * of two JSON bodies that differ), so that each source of difference is seen.
   */
  readonly differingParts: Readonly<Record<string, number>>;
  /** The same answers by their known source of non-determinism (DifferenceSource). */
  readonly differenceSources: Readonly<Record<DifferenceSource, number>>;
}

/**
 * Why an answer of the raw loop may differ from the fuzzer's although both
 * servers have one seed and meet the same requests:
 * - `clock`: a read of the clock while it runs (the fuzzer's first, before it sets it);
 * - `race`: one of requests sent together (a burst the fuzzer races on purpose):
 *   which one the server takes first is the scheduler's choice, on both servers;
 * - `after-race`: a later request of a lane in which a race came out otherwise,
 *   whose world then holds another state (not proven to follow from it);
 * - `unexplained`: none of these: a source of non-determinism nobody named.
 */
export type DifferenceSource = 'clock' | 'race' | 'after-race' | 'unexplained';

/** A count of none for every source. */
export function noDifferences(): Record<DifferenceSource, number> {
  return { clock: 0, race: 0, 'after-race': 0, unexplained: 0 };
}

/** The http adapter's pool: same connection count and keep-alive (harness/adapters/http.ts). */
export function adapterLikeAgent(ca: string | undefined): Agent {
  return new Agent({
    connections: HTTP_DEFAULTS.connections,
    keepAliveTimeout: 4_000,
    connectTimeout: HTTP_DEFAULTS.timeoutMs,
    connect: { rejectUnauthorized: true, ...(ca !== undefined ? { ca } : {}) },
  });
}

/** Sends every recorded group once; answers are compared after the clock stops. */
export async function replay(options: ReplayOptions, agent: Agent): Promise<LoopResult> {
  const { groups } = options;
  if (groups.length === 0) throw new RangeError('the raw loop needs a recording with at least one request');
  const origin = new URL(options.baseUrl).origin;
  const { authority } = options;
  const answers: { status: number; body: Uint8Array }[][] = [];
  const one = async (request: RecordedRequest): Promise<{ status: number; body: Uint8Array }> => {
    const response = await agent.request({
      origin,
      path: request.path,
      method: request.method as Dispatcher.HttpMethod,
      headers: authority === undefined ? request.headers : { ...request.headers, host: authority },
      ...(request.body !== undefined ? { body: typeof request.body === 'string' ? request.body : Buffer.from(request.body) } : {}),
    });
    return { status: response.statusCode, body: new Uint8Array(await response.body.arrayBuffer()) };
  };
  let ops = 0;
  const started = performance.now();
  // A lane's failure is kept, not left unhandled, and thrown at the next wait for every lane.
  let failure: { readonly error: unknown } | undefined;
  const send = async (group: RecordedGroup, at: number) => {
    if (failure) return;
    try {
      answers[at] = group.requests.length === 1 ? [await one(group.requests[0]!)] : await Promise.all(group.requests.map(one));
      ops += group.requests.length;
    } catch (error) {
      failure ??= { error };
    }
  };
  let lanes = new Map<number, Promise<void>>();
  const allLanes = async () => {
    await Promise.all(lanes.values());
    lanes = new Map();
    if (failure) throw failure.error;
  };
  for (const [at, group] of groups.entries()) {
    if (group.lane === undefined) {
      await allLanes();
      await send(group, at);
    } else {
      lanes.set(group.lane, (lanes.get(group.lane) ?? Promise.resolve()).then(() => send(group, at)));
    }
  }
  await allLanes();
  const elapsedMs = performance.now() - started;
  let identical = 0;
  const differences: Record<string, number> = {};
  const differingParts: Record<string, number> = {};
  const differenceSources = noDifferences();
  const raced = new Set<number | undefined>();
  groups.forEach((group, g) =>
    group.requests.forEach((request, i) => {
      const got = answers[g]![i]!;
      const want = request.answer;
      if (want && want.status === got.status && Buffer.from(want.body).equals(got.body)) identical += 1;
      else {
        const key = `${want?.status ?? 'none'} -> ${got.status}`;
        differences[key] = (differences[key] ?? 0) + 1;
        const part = `${pathShape(request.method, request.path)} ${key}${want && want.status === got.status ? `: ${differingMembers(want.body, got.body)}` : ''}`;
        differingParts[part] = (differingParts[part] ?? 0) + 1;
        const source: DifferenceSource =
          group.lane === undefined && request.path.endsWith(CONTROL_INPUTS.clock.path) ? 'clock' : group.requests.length > 1 ? 'race' : raced.has(group.lane) ? 'after-race' : 'unexplained';
        if (source === 'race') raced.add(group.lane);
        differenceSources[source] += 1;
      }
    }),
  );
  return { ops, elapsedMs, opsPerSecond: ops / (elapsedMs / 1000), identical, compared: ops, differences, differingParts, differenceSources };
}

/** The top-level members two JSON object bodies disagree on, or `body` when either is no JSON object. */
function differingMembers(a: Uint8Array, b: Uint8Array): string {
  const parse = (bytes: Uint8Array): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const [x, y] = [parse(a), parse(b)];
  if (x === undefined || y === undefined) return 'body';
  const names = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k]));
  return names.length > 0 ? names.sort().join(', ') : 'member order';
}
