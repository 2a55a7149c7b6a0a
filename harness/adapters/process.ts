// The process adapter: a role implemented by a child process of any language,
// speaking JSON lines over stdin/stdout (protocol cpr-conformance-adapter/1,
// harness/ADAPTERS.md). Every call has a deadline; a child that exits, crashes or
// breaks the protocol fails the calls in flight with a TransportError carrying
// its exit status and the tail of its stderr. Nothing here waits forever.
import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { checkAppResult, type HttpRoleName, type RoleName } from './module.ts';
import { TransportError, type HttpRole, type PayingAppRole, type WireRequest, type WireResponse } from './types.ts';

const PROCESS_PROTOCOL = 'cpr-conformance-adapter/1';

/** The authority an HTTP role behind a process sees, unless its ready line names one. */
const PROCESS_AUTHORITY = 'process.invalid';

interface ProcessRoleOptions {
  readonly role: RoleName;
  readonly cwd?: string;
  /** Added to the harness's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Passed as JSON in CPR_CONFORMANCE_SETTINGS. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Passed in CPR_CONFORMANCE_CA_FILE: the CA the role trusts. */
  readonly caFile?: string;
  /** Deadline of one call; default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Deadline of the ready line; default 5 000 ms. */
  readonly startTimeoutMs?: number;
  /** Largest response body kept (HTTP roles); default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Longest line accepted from the child; default 16 MiB. */
  readonly maxLineBytes?: number;
}

const TRANSPORT_CODES = new Set<string>(['TIMEOUT', 'REFUSED', 'RESET', 'TLS', 'PROTOCOL', 'CRASHED', 'CLOSED', 'UNAVAILABLE']);
const STDERR_TAIL = 4096;
const CLOSE_GRACE_MS = 500;

export function spawnProcessRole(command: readonly string[], options: ProcessRoleOptions & { role: HttpRoleName }): Promise<HttpRole>;
export function spawnProcessRole(command: readonly string[], options: ProcessRoleOptions & { role: 'paying-app' }): Promise<PayingAppRole>;
export function spawnProcessRole(command: readonly string[], options: ProcessRoleOptions): Promise<HttpRole | PayingAppRole>;
export async function spawnProcessRole(command: readonly string[], options: ProcessRoleOptions): Promise<HttpRole | PayingAppRole> {
  const session = await startSession(command, options);
  const description = session.description;
  if (options.role === 'paying-app') {
    const role: PayingAppRole = {
      kind: 'process',
      description,
      read: async (input) => checkAppResult(await session.call('read', { input }), description),
      derive: async (cpr, context) => checkAppResult(await session.call('derive', { cpr, context }), description),
      close: () => session.close(),
    };
    return role;
  }
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const authority = session.authority ?? PROCESS_AUTHORITY;
  const role: HttpRole = {
    kind: 'process',
    description,
    authority,
    tls: 'in-process',
    async send(request: WireRequest): Promise<WireResponse> {
      if (request.transport === 'plaintext') throw new TransportError('UNAVAILABLE', `${description}: a process role has no plaintext transport`);
      const started = performance.now();
      const headers: Record<string, string> = { host: authority };
      for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
      const body = request.body === undefined ? '' : Buffer.from(typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body).toString('base64');
      const result = await session.call('http', { method: request.method, path: request.path, headers, body_base64: body }, request.timeoutMs);
      const response = checkHttpResult(result, description);
      const truncated = response.body.length > maxBodyBytes;
      return { ...response, body: truncated ? response.body.subarray(0, maxBodyBytes) : response.body, truncated, durationMs: performance.now() - started };
    },
    close: () => session.close(),
  };
  return role;
}

interface Session {
  readonly description: string;
  readonly authority: string | undefined;
  call(method: 'http' | 'read' | 'derive', params: unknown, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

interface Pending {
  readonly method: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: TransportError) => void;
  readonly timer: NodeJS.Timeout;
}

/** Starts the child and resolves once its ready line came (or rejects with why not, within the start deadline). */
function startSession(command: readonly string[], options: ProcessRoleOptions): Promise<Session> {
  const [file, ...args] = command;
  if (file === undefined || file === '') throw new TypeError('a process command has at least the program to run');
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: {
      ...process.env,
      ...options.env,
      CPR_CONFORMANCE_PROTOCOL: PROCESS_PROTOCOL,
      CPR_CONFORMANCE_ROLE: options.role,
      CPR_CONFORMANCE_SETTINGS: JSON.stringify(options.settings ?? {}),
      ...(options.caFile !== undefined ? { CPR_CONFORMANCE_CA_FILE: options.caFile } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new ChildSession(child, command.join(' '), options).ready();
}

/**
 * One child speaking the protocol: JSON lines in, answers matched to calls by
 * id. The first failure (exit, crash, broken protocol, start deadline) ends the
 * session: every call in flight, and every later one, fails with it.
 */
class ChildSession implements Session {
  authority: string | undefined;
  readonly #pending = new Map<number, Pending>();
  readonly #exit: Promise<void>;
  readonly #timeoutMs: number;
  readonly #maxLineBytes: number;
  #nextId = 1;
  #failure: TransportError | undefined;
  #exited = false;
  #stderrTail = '';
  #partial = '';
  #onReady: { resolve: () => void; reject: (error: TransportError) => void } | undefined;
  #closing: Promise<void> | undefined;

  constructor(
    private readonly child: ChildProcess,
    readonly description: string,
    private readonly options: ProcessRoleOptions,
  ) {
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxLineBytes = options.maxLineBytes ?? 16 * 1024 * 1024;
    this.#exit = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const decoder = new StringDecoder('utf8');
    child.stdout!.on('data', (chunk: Buffer) => this.#read(decoder.write(chunk)));
    child.stderr!.on('data', (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.stdin!.on('error', () => {
      // EPIPE when the child is gone: its exit is reported by the close handler.
    });
    child.once('error', (error: Error) => this.#fail(new TransportError('UNAVAILABLE', `${description} could not be started: ${error.message}`)));
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      this.#exited = true;
      if (this.#partial.trim() !== '') this.#onLine(this.#partial);
      const status = signal ? `signal ${signal}` : `exit code ${String(code)}`;
      this.#fail(new TransportError('CLOSED', this.#withStderr(this.#closing ? `${description} was closed (${status})` : `${description} exited (${status})`)));
    });
  }

  /** Resolves with the session once the ready line came. */
  ready(): Promise<Session> {
    const startTimeoutMs = this.options.startTimeoutMs ?? 5_000;
    return new Promise<Session>((resolve, reject) => {
      const timer = setTimeout(() => this.#fail(new TransportError('TIMEOUT', this.#withStderr(`${this.description}: no ready line within ${startTimeoutMs} ms`))), startTimeoutMs);
      this.#onReady = {
        resolve: () => {
          clearTimeout(timer);
          resolve(this);
        },
        reject: (error) => {
          clearTimeout(timer);
          this.#onReady = undefined;
          reject(error);
        },
      };
    });
  }

  call(method: 'http' | 'read' | 'derive', params: unknown, callTimeoutMs = this.#timeoutMs): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new TransportError('TIMEOUT', `${this.description}: no answer to ${method} #${id} within ${callTimeoutMs} ms`));
      }, callTimeoutMs);
      this.#pending.set(id, { method, resolve, reject, timer });
      this.child.stdin!.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#fail(new TransportError('CLOSED', `${this.description} was closed by the harness`), false);
      this.child.stdin!.end();
      await Promise.race([this.#exit, delay(CLOSE_GRACE_MS)]);
      if (!this.#exited) {
        this.child.kill('SIGKILL');
        await Promise.race([this.#exit, delay(1000)]);
      }
    })();
    return this.#closing;
  }

  #withStderr(text: string): string {
    const tail = this.#stderrTail.trim();
    return tail === '' ? text : `${text}; stderr: ${tail}`;
  }

  /** The session is over: every call in flight, and every later one, fails with this error. */
  #fail(error: TransportError, kill = true): void {
    if (this.#failure) return;
    this.#failure = error;
    this.#onReady?.reject(error);
    for (const call of this.#pending.values()) {
      clearTimeout(call.timer);
      call.reject(error);
    }
    this.#pending.clear();
    if (kill && !this.#exited) this.child.kill('SIGKILL');
  }

  /** stdout: UTF-8 lines of bounded length. */
  #read(text: string): void {
    if (this.#failure) return;
    this.#partial += text;
    let newline: number;
    while ((newline = this.#partial.indexOf('\n')) >= 0) {
      const line = this.#partial.slice(0, newline);
      this.#partial = this.#partial.slice(newline + 1);
      this.#onLine(line);
    }
    if (this.#partial.length > this.#maxLineBytes) this.#fail(new TransportError('PROTOCOL', `${this.description}: a line on stdout is longer than ${this.#maxLineBytes} bytes`));
  }

  #onLine(line: string): void {
    if (this.#failure || line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.#fail(new TransportError('PROTOCOL', this.#withStderr(`${this.description}: a line on stdout is not JSON: ${preview(line)}`)));
    }
    if (this.#onReady) this.#hello(message);
    else this.#answer(message, line);
  }

  #hello(message: unknown): void {
    const hello = (message ?? {}) as { ready?: unknown; protocol?: unknown; roles?: unknown; authority?: unknown };
    if (hello.ready !== true || hello.protocol !== PROCESS_PROTOCOL) {
      return this.#fail(new TransportError('PROTOCOL', `${this.description}: the first line must be {"ready":true,"protocol":"${PROCESS_PROTOCOL}","roles":[...]}, got ${preview(JSON.stringify(message))}`));
    }
    if (!Array.isArray(hello.roles) || !hello.roles.includes(this.options.role)) {
      return this.#fail(new TransportError('PROTOCOL', `${this.description}: the child offers roles ${JSON.stringify(hello.roles)}, not ${this.options.role}`));
    }
    if (typeof hello.authority === 'string' && hello.authority !== '') this.authority = hello.authority;
    const waiter = this.#onReady;
    this.#onReady = undefined;
    waiter?.resolve();
  }

  #answer(message: unknown, line: string): void {
    const { id } = (message ?? {}) as { id?: unknown };
    if (typeof message !== 'object' || message === null || !Number.isSafeInteger(id)) {
      return this.#fail(new TransportError('PROTOCOL', `${this.description}: an answer is {"id":N,"result":...} or {"id":N,"error":{...}}, got ${preview(line)}`));
    }
    const call = this.#pending.get(id as number);
    if (!call) {
      // A late answer to a call that already timed out is expected; an id never sent is not.
      if ((id as number) < this.#nextId && (id as number) > 0) return;
      return this.#fail(new TransportError('PROTOCOL', `${this.description}: an answer to id ${String(id)}, which was never sent`));
    }
    this.#pending.delete(id as number);
    clearTimeout(call.timer);
    const answer = message as { result?: unknown; error?: unknown };
    if ('error' in answer) {
      const { code, message: text } = (answer.error ?? {}) as { code?: unknown; message?: unknown };
      // An error answer is the implementation's failure on this call: a crash, unless it names a transport code.
      const mapped = typeof code === 'string' && TRANSPORT_CODES.has(code) ? (code as TransportError['code']) : 'CRASHED';
      call.reject(new TransportError(mapped, `${this.description}: ${call.method} failed: ${String(code)}: ${String(text)}`));
    } else if ('result' in answer) {
      call.resolve(answer.result);
    } else {
      call.reject(new TransportError('PROTOCOL', `${this.description}: the answer to ${call.method} #${String(id)} has neither result nor error`));
    }
  }
}

/** Normalizes an `http` result: { status, headers, body_base64 }. */
function checkHttpResult(result: unknown, description: string): { status: number; headers: Record<string, string>; body: Uint8Array } {
  const broken = (what: string) => new TransportError('PROTOCOL', `${description}: an http result is { status, headers, body_base64 }: ${what}`);
  if (typeof result !== 'object' || result === null) throw broken('not an object');
  const { status, headers: given, body_base64: encoded } = result as { status?: unknown; headers?: unknown; body_base64?: unknown };
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599) throw broken(`status ${JSON.stringify(status)} is not an HTTP status`);
  const headers: Record<string, string> = {};
  if (given !== undefined) {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) throw broken('headers is not an object');
    for (const [name, value] of Object.entries(given)) {
      if (typeof value !== 'string') throw broken(`header ${name} is not a string`);
      headers[name.toLowerCase()] = value;
    }
  }
  const text = encoded ?? '';
  if (typeof text !== 'string' || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw broken('body_base64 is not base64');
  return { status: status as number, headers, body: new Uint8Array(Buffer.from(text, 'base64')) };
}

function preview(text: string): string {
  const shown = JSON.stringify(text.length > 100 ? `${text.slice(0, 97)}...` : text);
  return shown;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
