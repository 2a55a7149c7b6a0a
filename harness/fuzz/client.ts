// The fuzzer's side of the wire: every request goes through the operator role's
// adapter (for http, the undici keep-alive pool), is counted as one operation,
// and is recorded with its answer (bodies capped, the control token redacted)
// in the log of the model run that sent it. The log keeps what was sent and
// received as it is and formats it only when a crash file asks for it: almost
// every run passes, so formatting each exchange would be work thrown away.
import { TransportError, type HttpRole, type WireRequest, type WireResponse } from '../adapters/types.ts';
import { parseJson } from '../scenarios/http.ts';

// One way to write a JSON request, shared with the scenario runner.
export { jsonRequest } from '../scenarios/http.ts';

/** One request and its answer, as written to a crash file. */
export interface Exchange {
  readonly request: { readonly method: string; readonly path: string; readonly headers: Readonly<Record<string, string>>; readonly body?: string };
  readonly response?: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string };
  readonly error?: string;
  readonly ms: number;
}

/** A decoded answer. `body` is the parsed JSON when the body is JSON. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly text: string;
}

/** Bodies in a crash file are cut here. */
const EXCHANGE_BODY_CAP = 2048;

const decoder = new TextDecoder('utf-8', { fatal: false });

/** The exchanges of one model run, formatted on demand. */
export class ExchangeLog {
  private readonly raw: RawExchange[] = [];

  /** As written to a crash file. */
  entries(): Exchange[] {
    return this.raw.map(formatted);
  }

  add(exchange: RawExchange): void {
    this.raw.push(exchange);
  }
}

interface RawExchange {
  readonly request: WireRequest;
  /** The answer as it came: decoded only when a crash file is written. */
  readonly response?: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Uint8Array };
  readonly error?: string;
  readonly ms: number;
}

function formatted(e: RawExchange): Exchange {
  return {
    request: shown(e.request),
    ...(e.response ? { response: { status: e.response.status, headers: e.response.headers, body: cap(decoder.decode(e.response.body)) } } : {}),
    ...(e.error !== undefined ? { error: e.error } : {}),
    ms: Math.round(e.ms),
  };
}

/**
 * Sees every request the fuzzer sends, with the lane of the model run that sent
 * it (undefined for requests of the whole run: clock setting, discovery), and
 * may ask for the answer. For recording; it must not change either.
 */
export type ExchangeTap = (request: WireRequest, lane: number | undefined) => ((response: WireResponse) => void) | undefined;

/**
 * Whether requests a command sends together (bursts, mixes, floods, balance
 * reads) race at the target (`on`, the fuzzer's way), or go out one after the
 * other in the order the command made them, each once the one before in its
 * lane is answered (`off`): which one the target takes first is then no longer
 * the scheduler's choice, so a replay of the requests meets the same order (the
 * benchmark's identity round). The model accepts every order either way.
 */
export type Races = 'on' | 'off';

export class FuzzClient {
  /** HTTP operations sent, for the throughput figure. */
  ops = 0;
  /** With races off: the last request of each lane, which the next one waits for. */
  private readonly tails = new Map<number | undefined, Promise<unknown>>();

  constructor(
    readonly role: HttpRole,
    private readonly tap?: ExchangeTap,
    readonly races: Races = 'on',
  ) {}

  get authority(): string {
    return this.role.authority;
  }

  /**
   * Sends one request and records it in each of `logs` (the model runs it
   * concerns); a TransportError (no answer at all) propagates: it is never a
   * conformance result.
   */
  send(request: WireRequest, logs: readonly ExchangeLog[] = [], lane?: number): Promise<Reply> {
    if (this.races === 'on') return this.exchange(request, logs, lane);
    const previous = this.tails.get(lane);
    const sent = previous === undefined ? this.exchange(request, logs, lane) : previous.then(() => this.exchange(request, logs, lane));
    // The next one waits for this one's answer, or for its failure, which its own caller sees.
    const tail = sent.catch(() => undefined);
    this.tails.set(lane, tail);
    void tail.then(() => {
      if (this.tails.get(lane) === tail) this.tails.delete(lane);
    });
    return sent;
  }

  private async exchange(request: WireRequest, logs: readonly ExchangeLog[], lane: number | undefined): Promise<Reply> {
    this.ops += 1;
    const started = performance.now();
    const tapped = this.tap?.(request, lane);
    try {
      const response = await this.role.send(request);
      tapped?.(response);
      const text = decoder.decode(response.body);
      for (const log of logs) log.add({ request, response: { status: response.status, headers: response.headers, body: response.body }, ms: performance.now() - started });
      return { status: response.status, headers: response.headers, body: parseJson(response.headers['content-type'], text), text };
    } catch (error) {
      if (error instanceof TransportError) for (const log of logs) log.add({ request, error: `${error.code}: ${error.message}`, ms: performance.now() - started });
      throw error;
    }
  }
}

function shown(request: WireRequest): Exchange['request'] {
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k, k.toLowerCase() === 'authorization' ? '[redacted]' : v]));
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : decoder.decode(request.body);
  return { method: request.method, path: request.path, headers, ...(body !== undefined ? { body: cap(body) } : {}) };
}

function cap(text: string): string {
  return text.length > EXCHANGE_BODY_CAP ? `${text.slice(0, EXCHANGE_BODY_CAP)}…` : text;
}

