// Records every request an HTTP role sends, in order, with the answer it got, so
// that the raw loop (raw-loop.ts) can send the same requests again and compare
// answers. Requests handed to the role in one synchronous turn (a fuzzer burst:
// Promise.all over N sends) form one group, and the raw loop sends a group
// concurrently, as the fuzzer did.
import { interceptSend } from '../adapters/intercept.ts';
import type { HttpRole, WireRequest } from '../adapters/types.ts';

export interface RecordedAnswer {
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

/** Requests sent together (one element for a sequential request). */
export type RecordedGroup = readonly RecordedRequest[];

export interface Recorder {
  /** The role to hand the fuzzer: the wrapped role, recording while `recording` is on. */
  readonly role: HttpRole;
  /** Starts a new recording and returns it; earlier ones are left as they were. */
  start(): RecordedGroup[];
  /** Stops recording. */
  stop(): void;
}

export function recordingRole(inner: HttpRole): Recorder {
  let groups: RecordedRequest[][] | undefined;
  let open: RecordedRequest[] | undefined;
  const record = (request: WireRequest): RecordedRequest | undefined => {
    if (!groups) return undefined;
    const entry: RecordedRequest = {
      method: request.method,
      path: request.path,
      headers: { ...(request.headers ?? {}) },
      ...(request.body !== undefined ? { body: request.body } : {}),
    };
    if (open) {
      open.push(entry);
      return entry;
    }
    open = [entry];
    groups.push(open);
    // The group closes at the end of this synchronous turn.
    queueMicrotask(() => (open = undefined));
    return entry;
  };
  const role = interceptSend(inner, async (request) => {
    const entry = record(request);
    const response = await inner.send(request);
    if (entry) entry.answer = { status: response.status, body: response.body };
    return response;
  });
  return {
    role,
    start() {
      const fresh: RecordedRequest[][] = [];
      groups = fresh;
      open = undefined;
      return fresh;
    },
    stop() {
      groups = undefined;
      open = undefined;
    },
  };
}

/** Number of requests in a recording. */
export function requestCount(groups: readonly RecordedGroup[]): number {
  let n = 0;
  for (const g of groups) n += g.length;
  return n;
}
