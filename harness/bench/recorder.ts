// Records every request the fuzzer sends (an ExchangeTap on the campaign), in
// order, with the lane of the world that sent it and the answer it got, so that
// the raw loop (raw-loop.ts) can send the same requests again in the same
// order, with the same concurrency, and compare answers. Requests of one lane
// handed over in one synchronous turn (a fuzzer burst: Promise.all over N
// sends) form one group, which the raw loop sends concurrently, as the fuzzer did.
import type { WireRequest } from '../adapters/types.ts';
import type { ExchangeTap } from '../fuzz/client.ts';

interface RecordedAnswer {
  readonly status: number;
  readonly body: Uint8Array;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Set when the answer arrives. */
  answer?: RecordedAnswer;
}

export interface RecordedGroup {
  /** The lane (concurrent world) that sent it; undefined for a request of the whole run, such as the clock's. */
  readonly lane: number | undefined;
  /** Sent together (one element for a sequential request). */
  readonly requests: RecordedRequest[];
}

interface Recorder {
  /** To hand the campaign (CampaignOptions.tap): records while a recording is open. */
  readonly tap: ExchangeTap;
  /** Starts a new recording and returns it; earlier ones are left as they were. */
  start(): RecordedGroup[];
  /** Stops recording. */
  stop(): void;
}

export function createRecorder(): Recorder {
  let groups: RecordedGroup[] | undefined;
  /** The group still open in this synchronous turn, per lane. */
  const open = new Map<number | undefined, RecordedGroup>();
  const tap: ExchangeTap = (request: WireRequest, lane: number | undefined) => {
    if (!groups) return undefined;
    // The fuzzer never changes a request it has sent: the recording keeps its parts as they are.
    const entry: RecordedRequest = {
      method: request.method,
      path: request.path,
      headers: request.headers ?? {},
      ...(request.body !== undefined ? { body: request.body } : {}),
    };
    const group = open.get(lane);
    if (group) group.requests.push(entry);
    else {
      const fresh: RecordedGroup = { lane, requests: [entry] };
      groups.push(fresh);
      open.set(lane, fresh);
      // The group closes at the end of this synchronous turn.
      queueMicrotask(() => open.delete(lane));
    }
    return (response) => {
      entry.answer = { status: response.status, body: response.body };
    };
  };
  return {
    tap,
    start() {
      const fresh: RecordedGroup[] = [];
      groups = fresh;
      open.clear();
      return fresh;
    },
    stop() {
      groups = undefined;
      open.clear();
    },
  };
}

/** Number of requests in a recording. */
export function requestCount(groups: readonly RecordedGroup[]): number {
  let n = 0;
  for (const g of groups) n += g.requests.length;
  return n;
}

/** A request's method and path with its ids left out, e.g. `GET /v1/cashpack/{id}/status`. */
export function pathShape(method: string, path: string): string {
  return `${method} ${path.replace(/\/v1\/cashpack\/[^/]+\/status$/, '/v1/cashpack/{id}/status').replace(/\/(principals|redeemers|packs)\/[^/]+\//, '/$1/{id}/')}`;
}
