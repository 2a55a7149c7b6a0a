// The real side of one payee model run: fresh state on the target (the clock
// frozen and set by the harness; requests the run creates itself), the
// requests as the payee answered them, every exchange (for the crash file) and
// the script of scenario steps the run amounts to (for the regression
// scenario). The payee's clock is moved only by the harness, so a command
// sequence means the same thing every time it runs.
import { randomBytes } from 'node:crypto';
import { formatTimestamp, parseTimestamp } from '../../../profile/index.ts';
import type { Cpr } from '../../../profile/cpr/index.ts';
import type { CreatedRequest as ControlCreatedRequest, PayeeConfig } from '../../../profile/control.ts';
import type { HttpRole, WireRequest } from '../../adapters/types.ts';
import { ExchangeLog, FuzzClient, type Reply } from '../client.ts';
import { HarnessFault } from '../mismatch.ts';
import { control, setClock } from '../world.ts';
import type { ScriptStep } from '../world.ts';
import { PayeeModel, type ModelRequest } from './model.ts';
import type { PayeeCommand, PayeeSetup, RequestInput } from './spec.ts';

export type { PayeeConfig };

/** What every run of a campaign shares. */
export interface PayeeContext {
  readonly client: FuzzClient;
  readonly config: PayeeConfig;
  /** The payee offers the fulfil capability (PROFILE.md §12). */
  readonly fulfil: boolean;
  /** The payee declares a plaintext listener: retrievals over plaintext are generated. */
  readonly plaintext: boolean;
}

/** PROFILE.md §12 `POST /_control/payee/requests`. */
export type CreatedRequest = ControlCreatedRequest<Cpr>;

/** A request the run created: the model's view, the payee's answer and how the scenario names it. */
export interface RealRequest {
  readonly model: ModelRequest;
  readonly created: CreatedRequest;
  readonly input: RequestInput;
  /** The capture of its create-request step, e.g. `s3`. */
  readonly ref: string;
}

/** The capabilities the payee fuzzer needs; fulfil is used when offered. */
export const PAYEE_FUZZ_CAPABILITIES = ['provision', 'clock'] as const;

/** Reads the payee's configuration (test control); one it cannot use is a harness error. */
export async function openPayeeContext(payee: HttpRole, capabilities: ReadonlySet<string>): Promise<PayeeContext> {
  const client = new FuzzClient(payee);
  const config = (await control(client, 'GET', '/_control/payee/config', undefined, [], undefined)) as Partial<PayeeConfig>;
  const whole = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;
  if (typeof config.base_url !== 'string' || !whole(config.token_lifetime_seconds) || !whole(config.request_validity_seconds)) {
    throw new HarnessFault(`GET /_control/payee/config answered ${JSON.stringify(config).slice(0, 300)}: the fuzzer needs base_url, token_lifetime_seconds and request_validity_seconds (PROFILE.md §12)`);
  }
  return { client, config: config as PayeeConfig, fulfil: capabilities.has('fulfil'), plaintext: payee.plaintextBaseUrl !== undefined };
}

export class PayeeWorld {
  readonly log = new ExchangeLog();
  readonly script: ScriptStep[] = [];
  /** The commands that ran, as data, in order. */
  readonly executed: PayeeCommand[] = [];
  readonly requests: RealRequest[] = [];
  /** A token no request has: 32 lower-case hex digits. */
  readonly unknownToken = randomBytes(16).toString('hex');
  /** The payee's clock as a template, in epoch ms: where every clock move of the scenario is counted from. */
  nowRef = '';
  private captures = 0;
  private clocks = 0;

  constructor(
    readonly context: PayeeContext,
    readonly setup: PayeeSetup,
  ) {}

  /** Fresh state: the clock frozen, then set `startMs` past the next whole second; returns the model. */
  async open(): Promise<PayeeModel> {
    this.step({ do: 'payee-config', as: 'config', note: "the payee's base URL, token lifetime and validity window" });
    const frozen = await setClock(this.context.client, { freeze: true }, [this.log]);
    this.step({ do: 'clock', freeze: true, as: 'frozen_at' });
    const start = (Math.floor(frozen / 1000) + 1) * 1000 + this.setup.startMs;
    const now = await this.moveClock({ set: formatTimestamp(start) }, `(frozen_at.now + 1) * 1000 + ${this.setup.startMs}`, start, 'fresh state: the clock frozen and set by the harness, so every instant of the run is its own');
    return new PayeeModel(now);
  }

  get client(): FuzzClient {
    return this.context.client;
  }

  send(request: WireRequest): Promise<Reply> {
    return this.client.send(request, [this.log]);
  }

  /** A new capture name for a scenario step: s1, s2, ... */
  capture(): string {
    return `s${++this.captures}`;
  }

  step(fields: Record<string, unknown>, expect: ScriptStep['expect'] = []): ScriptStep {
    const step = { fields, expect };
    this.script.push(step);
    return step;
  }

  /**
   * Moves the payee's clock (test control) and writes the step: `body` as
   * sent; `at` the instant in ms as a template of the scenario (what `set`
   * sets, or where `advance` lands). The clock must come back frozen at
   * `expected`; anything else is a harness fault (test control that does not
   * do what PROFILE.md §12 says), never a finding. The scenario checks it too.
   */
  async moveClock(body: { readonly set?: string; readonly advance_seconds?: number }, at: string, expected: number, note?: string): Promise<number> {
    const now = await setClock(this.client, body, [this.log]);
    if (now !== expected) throw new HarnessFault(`POST /_control/clock ${JSON.stringify(body)} left the clock at ${formatTimestamp(now)}, not ${formatTimestamp(expected)}`);
    const name = `c${++this.clocks}`;
    const move = body.set !== undefined ? { set: `\${iso(${at})}` } : { advance: body.advance_seconds };
    this.step({ do: 'clock', ...move, as: name, ...(note ? { note } : {}) }, [{ equals: { value: '${ms(res.text)}', to: `\${${at}}` }, requirement: 'PRF-CTL-1' }]);
    this.nowRef = `ms(${name}.text)`;
    return now;
  }

  /** The request at `index` (modulo the requests created), if any. */
  request(index: number): RealRequest | undefined {
    return this.requests.length === 0 ? undefined : this.requests[index % this.requests.length];
  }
}

/** The instant a timestamp names, or a harness fault (an answer the model cannot place in time is judged before this is asked). */
export function instant(text: string): number {
  const ms = parseTimestamp(text);
  if (ms === undefined) throw new HarnessFault(`not a timestamp: ${text}`);
  return ms;
}
