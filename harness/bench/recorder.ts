// Records every request the fuzzer sends (an ExchangeTap on the campaign), in
// order, with the lane of the world that sent it, how many of that lane's
// answers had come in when it went out, and the answer it got, so that the raw
// loop (raw-loop.ts) can send the same requests again in the same order, with
// the same concurrency, and compare answers. Requests of one lane handed over
// in one synchronous turn (a fuzzer burst: Promise.all over N sends) form one
// group; a request sent while others of its lane were still unanswered (a
// flood's window, each place refilled as an answer comes in) records how many
// had come in, so the raw loop keeps as many in flight as the fuzzer did.
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
  /**
   * Answers of its lane that had come in when it was sent: it depended on
   * those and on no later one. Every earlier request of its lane, for one
   * sent after all of them were answered; fewer for one sent while some were
   * in flight (a burst, a flood's window).
   */
  readonly after: number;
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
  /** Answers come in so far, per lane, in the open recording. */
  const answered = new Map<number | undefined, number>();
  const tap: ExchangeTap = (request: WireRequest, lane: number | undefined) => {
    if (!groups) return undefined;
    const recording = groups;
    // The fuzzer never changes a request it has sent: the recording keeps its parts as they are.
    const entry: RecordedRequest = {
      method: request.method,
      path: request.path,
      headers: request.headers ?? {},
      ...(request.body !== undefined ? { body: request.body } : {}),
      after: answered.get(lane) ?? 0,
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
      // An answer that comes in after the recording it belongs to ended counts for none.
      if (groups === recording) answered.set(lane, (answered.get(lane) ?? 0) + 1);
    };
  };
  return {
    tap,
    start() {
      const fresh: RecordedGroup[] = [];
      groups = fresh;
      open.clear();
      answered.clear();
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
