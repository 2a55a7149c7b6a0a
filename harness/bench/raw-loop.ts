// The physical limit: a plain undici loop sending a recorded fuzz campaign
// (recorder.ts) once more, with the keep-alive pool settings of the http adapter
// (harness/adapters/http.ts) and nothing else: no signing, no model, no checks.
// It keeps the fuzzer's order and concurrency and nothing more: the requests of
// a lane go out in their order, each as soon as as many of its lane's answers
// are in as had come in when the fuzzer sent it (one after the other for a
// sequential command, a group together, a flood's window refilled as answers
// come in), the lanes side by side, and a request of the whole run (the clock)
// waits for every lane, as in the fuzzer (harness/fuzz/lanes.ts).
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
 * - `race`: one of requests of a lane in flight together (a burst the fuzzer
 *   races on purpose, a flood's window): which one the server takes first is
 *   the scheduler's choice, on both servers;
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
  groups.forEach((group, g) => (answers[g] = new Array(group.requests.length)));
  /** Answers of each lane in so far. */
  const answered = new Map<number, number>();
  /** Sends a lane's requests of one stretch between requests of the whole run, each once its lane has as many answers as it was sent after. */
  const lane = (id: number, slots: readonly Slot[]) =>
    new Promise<void>((resolve) => {
      let next = 0;
      let inFlight = 0;
      const pump = (): void => {
        while (!failure && next < slots.length && slots[next]!.request.after <= (answered.get(id) ?? 0)) {
          const slot = slots[next++]!;
          inFlight += 1;
          one(slot.request).then(
            (answer) => {
              answers[slot.group]![slot.index] = answer;
              ops += 1;
              answered.set(id, (answered.get(id) ?? 0) + 1);
            },
            (error: unknown) => void (failure ??= { error }),
          ).finally(() => {
            inFlight -= 1;
            pump();
          });
        }
        if (inFlight > 0) return;
        // Nothing in flight, so nothing more can come in: a request still waiting waits for answers its lane never sent for.
        if (!failure && next < slots.length) failure = { error: new RangeError(`the recording's request ${next} of lane ${id} was sent after ${slots[next]!.request.after} answers of its lane, more than the lane had requests before it`) };
        resolve();
      };
      pump();
    });
  let stretch = new Map<number, Slot[]>();
  const allLanes = async () => {
    await Promise.all([...stretch].map(([id, slots]) => lane(id, slots)));
    stretch = new Map();
    if (failure) throw failure.error;
  };
  for (const [at, group] of groups.entries()) {
    if (group.lane === undefined) {
      await allLanes();
      const got = await Promise.all(group.requests.map(one));
      answers[at] = got;
      ops += got.length;
    } else {
      const slots = stretch.get(group.lane) ?? [];
      group.requests.forEach((request, index) => slots.push({ request, group: at, index }));
      stretch.set(group.lane, slots);
    }
  }
  await allLanes();
  const elapsedMs = performance.now() - started;
  let identical = 0;
  const differences: Record<string, number> = {};
  const differingParts: Record<string, number> = {};
  const differenceSources = noDifferences();
  const raced = new Set<number | undefined>();
  const overlapped = inFlightTogether(groups);
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
          group.lane === undefined && request.path.endsWith(CONTROL_INPUTS.clock.path) ? 'clock' : overlapped[g]![i] ? 'race' : raced.has(group.lane) ? 'after-race' : 'unexplained';
        if (source === 'race') raced.add(group.lane);
        differenceSources[source] += 1;
      }
    }),
  );
  return { ops, elapsedMs, opsPerSecond: ops / (elapsedMs / 1000), identical, compared: ops, differences, differingParts, differenceSources };
}

/** A recorded request and where its answer goes. */
interface Slot {
  readonly request: RecordedRequest;
  readonly group: number;
  readonly index: number;
}

/**
 * For each request, whether another request of its lane was in flight with it
 * when the fuzzer sent them: it went out with fewer answers of its lane in
 * than requests before it, or a later one went out before its answer could
 * have come in. Which of those the server takes first is the scheduler's choice.
 */
export function inFlightTogether(groups: readonly RecordedGroup[]): boolean[][] {
  const out = groups.map((group) => group.requests.map(() => group.lane === undefined && group.requests.length > 1));
  const byLane = new Map<number, { after: number; g: number; i: number }[]>();
  groups.forEach((group, g) => {
    if (group.lane === undefined) return;
    const list = byLane.get(group.lane) ?? [];
    group.requests.forEach((request, i) => list.push({ after: request.after, g, i }));
    byLane.set(group.lane, list);
  });
  for (const list of byLane.values()) {
    let laterLeast = Number.POSITIVE_INFINITY;
    for (let k = list.length - 1; k >= 0; k--) {
      const { after, g, i } = list[k]!;
      out[g]![i] = after < k || laterLeast <= k;
      laterLeast = Math.min(laterLeast, after);
    }
  }
  return out;
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
