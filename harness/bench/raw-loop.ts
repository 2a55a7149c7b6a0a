// The physical limit: a plain undici loop sending a recorded operation mix
// (recorder.ts) to the same server, with the keep-alive pool settings of the
// http adapter (harness/adapters/http.ts) and nothing else: no signing, no
// model, no checks. Groups are sent one after the other, the requests of a
// group concurrently, cycling through the recording until the time is spent.
// The answers differ from the fuzzer's (a resent signed message is a duplicate,
// a resent provisioning a conflict): what is measured is transport and server
// throughput for the same request shapes.
import { Agent, type Dispatcher } from 'undici';
import { HTTP_DEFAULTS } from '../adapters/http.ts';
import type { RecordedGroup, RecordedRequest } from './recorder.ts';

export interface RawLoopOptions {
  /** Base URL of the server, e.g. https://127.0.0.1:PORT. */
  readonly baseUrl: string;
  /** PEM of the CA to trust. */
  readonly ca?: string;
  readonly groups: readonly RecordedGroup[];
  readonly ms: number;
}

export interface LoopResult {
  readonly ops: number;
  readonly elapsedMs: number;
  readonly opsPerSecond: number;
  /** Answers by status code, to show what the resent mix met. */
  readonly statuses: Readonly<Record<string, number>>;
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

export async function rawLoop(options: RawLoopOptions, agent: Agent = adapterLikeAgent(options.ca)): Promise<LoopResult> {
  const { groups } = options;
  if (groups.length === 0) throw new RangeError('the raw loop needs a recording with at least one request');
  const origin = new URL(options.baseUrl).origin;
  const statuses: Record<string, number> = {};
  const one = async (request: RecordedRequest): Promise<void> => {
    const response = await agent.request({
      origin,
      path: request.path,
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      ...(request.body !== undefined ? { body: typeof request.body === 'string' ? request.body : Buffer.from(request.body) } : {}),
    });
    await response.body.arrayBuffer();
    const key = String(response.statusCode);
    statuses[key] = (statuses[key] ?? 0) + 1;
  };
  let ops = 0;
  let i = 0;
  const started = performance.now();
  const end = started + options.ms;
  while (performance.now() < end) {
    const group = groups[i]!;
    i = (i + 1) % groups.length;
    if (group.length === 1) await one(group[0]!);
    else await Promise.all(group.map(one));
    ops += group.length;
  }
  const elapsedMs = performance.now() - started;
  return { ops, elapsedMs, opsPerSecond: ops / (elapsedMs / 1000), statuses };
}
