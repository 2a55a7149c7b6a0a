// Keeps a run bounded whatever the target does (STYLE.md §5: an unreachable
// target is never a conformance result). Two rules:
//
//   circuit breaker  after N consecutive transport failures (no HTTP answer at
//                    all: refused, reset, timed out, TLS, not HTTP) a role counts
//                    as unreachable: every later request to it fails at once,
//                    and its tests are reported as errors with
//                    HARNESS_TARGET_UNREACHABLE without being run. Any HTTP
//                    answer, an error status included, closes the count again.
//   deadline         past the run's time limit no test starts; the rest are
//                    errors with HARNESS_DEADLINE_EXCEEDED.
//   left running     a test past its own time limit is reported and no longer
//                    awaited, but it runs on. One that moves state other tests
//                    share (the clock, the time zone, shared-state.ts) holds
//                    back every test after it until it ends (quiet), for at
//                    most a grace: what it does next would otherwise be
//                    charged to them. Past the grace they are errors with
//                    HARNESS_DEADLINE_EXCEEDED, not run.
//
// So a target that stops answering ends the run within N request timeouts, not
// one timeout per test, and the other roles' tests keep going. The engine
// (plan.ts) holds one guard per run.
import type { Role } from '../../profile/registry.ts';
import { interceptSend } from '../adapters/intercept.ts';
import { TransportError, type HttpRole, type PayingAppRole, type WireRequest } from '../adapters/types.ts';
import type { TestErrorCode } from '../errors.ts';
import { StepError, type CreatedRequestRecord, type ScenarioTarget } from '../scenarios/context.ts';

interface GuardSettings {
  /** Consecutive transport failures after which a role counts as unreachable; 0 never. */
  readonly unreachableAfter: number;
  /** Epoch milliseconds after which no test starts; none when absent. */
  readonly deadlineAt?: number;
  /** How long a test left running past its time limit that moves shared state may hold back the tests after it; 0 when absent (held back at once). */
  readonly leftRunningGraceMs?: number;
}

/** A test that outran its time limit, still running, that moves state other tests share. */
interface LeftRunning {
  readonly id: string;
  /** What it moves (shared-state.ts aloneReason). */
  readonly moves: string;
  /** Epoch milliseconds past which the tests after it are held back rather than waited for. */
  readonly graceEndsAt: number;
  readonly ended: Promise<void>;
}

/** Why a test is not run (its result carries `not_run`, plan.ts heldBack). */
interface Blocked {
  readonly code: Extract<TestErrorCode, 'HARNESS_TARGET_UNREACHABLE' | 'HARNESS_DEADLINE_EXCEEDED'>;
  readonly reason: string;
}

/**
 * No usable answer. UNAVAILABLE is not (this adapter has no such transport), nor,
 * in-process or from a child process, CRASHED: a call that threw or answered an
 * error is the implementation's answer (actions/app-call.ts appCall). A broken adapter
 * contract (PROTOCOL) is counted: a child that prints garbage is gone for good.
 */
const COUNTED: Readonly<Record<'wire' | 'call', ReadonlySet<TransportError['code']>>> = {
  wire: new Set(['TIMEOUT', 'REFUSED', 'RESET', 'TLS', 'PROTOCOL', 'CLOSED']),
  call: new Set(['TIMEOUT', 'REFUSED', 'RESET', 'CLOSED', 'PROTOCOL']),
};

function counts(kind: HttpRole['kind'], error: unknown): error is TransportError {
  return error instanceof TransportError && COUNTED[kind === 'http' ? 'wire' : 'call'].has(error.code);
}

class Circuit {
  private consecutive = 0;
  private last = '';
  open = false;

  constructor(
    readonly shown: string,
    private readonly limit: number,
  ) {}

  answered(): void {
    if (!this.open) this.consecutive = 0;
  }

  failed(error: TransportError): void {
    // Once open, the reason stays the one that opened it: requests in flight then (tests side by side) end later.
    if (this.open) return;
    this.last = `${error.code}: ${error.message}`;
    this.consecutive += 1;
    if (this.limit > 0 && this.consecutive >= this.limit) this.open = true;
  }

  reason(): string {
    return `${this.shown} stopped answering (${this.consecutive} consecutive transport failures; the last: ${this.last})`;
  }
}

/** A test's time limit, and what its passing means for the run. */
export interface TestBound {
  readonly ms: number;
  readonly reason: string;
  /** Called with the test when the bound passed with it still running. */
  expire(test: Promise<unknown>): void;
}

/** The test a bound is for: its ID, and what it moves that other tests share (undefined: nothing). */
interface BoundTest {
  readonly id: string;
  readonly moves: string | undefined;
}

export class RunGuard {
  private readonly circuits = new Map<string, Circuit>();
  private pastDeadline = false;
  private readonly leftRunning = new Set<LeftRunning>();
  /** The request_ids the payee gave in this run (ScenarioTarget.createdRequests), on every target the guard wraps, twins included. */
  private readonly createdRequests = new Map<string, CreatedRequestRecord>();

  constructor(readonly settings: GuardSettings) {}

  /** The target with every role's requests counted, and refused at once when its circuit is open. */
  guard(target: ScenarioTarget): ScenarioTarget {
    const http = new Map<string, HttpRole | undefined>();
    const app = target.payingApp && this.guardApp(target.payingApp);
    return {
      httpRole: (role) => {
        if (!http.has(role)) {
          const inner = target.httpRole(role);
          http.set(role, inner && this.guardHttp(role, inner));
        }
        return http.get(role);
      },
      payingApp: app,
      capabilities: (role) => target.capabilities(role),
      adapterKind: (role) => target.adapterKind(role),
      credential: (of) => target.credential(of),
      ...(target.hostGuard !== undefined ? { hostGuard: target.hostGuard } : {}),
      ...(target.stub !== undefined ? { stub: target.stub } : {}),
      ...(target.controlLease !== undefined ? { controlLease: (role: 'payee' | 'operator') => target.controlLease!(role) } : {}),
      ...(target.facts !== undefined ? { facts: () => target.facts!() } : {}),
      createdRequests: this.createdRequests,
    };
  }

  /**
   * How long a test may run: its own limit, or until the run's deadline when
   * that comes first. A test stopped at the deadline (`expire`) lets none start
   * after it, even when the timer fired a millisecond before the wall clock
   * reached the deadline (timers run on another clock than Date.now()). One
   * that moves shared state and is left running holds back the tests after it
   * (quiet).
   */
  bound(ownMs: number, what: string, test: BoundTest): TestBound {
    const deadline = this.settings.deadlineAt;
    const left = deadline === undefined ? Number.POSITIVE_INFINITY : Math.max(0, deadline - Date.now());
    const atDeadline = left < ownMs;
    return {
      ms: atDeadline ? left : ownMs,
      reason: atDeadline ? `stopped: the run's time limit passed at ${new Date(deadline!).toISOString()} while ${what} ran` : `stopped: ${what} ran longer than ${ownMs} ms`,
      expire: (running) => {
        if (atDeadline) this.pastDeadline = true;
        if (test.moves !== undefined) this.leaveRunning({ id: test.id, moves: test.moves }, running);
      },
    };
  }

  private leaveRunning(test: { readonly id: string; readonly moves: string }, running: Promise<unknown>): void {
    const entry: LeftRunning = {
      ...test,
      graceEndsAt: Date.now() + (this.settings.leftRunningGraceMs ?? 0),
      ended: running.then(
        () => void this.leftRunning.delete(entry),
        () => void this.leftRunning.delete(entry),
      ),
    };
    this.leftRunning.add(entry);
  }

  /**
   * Waits until no test left running past its time limit moves shared state,
   * each waited for until its grace ends; then why the next test must not
   * start, when one still runs (its result says it is not run).
   */
  async quiet(): Promise<Blocked | undefined> {
    for (const entry of [...this.leftRunning]) {
      const wait = entry.graceEndsAt - Date.now();
      if (wait <= 0) continue;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([entry.ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]);
      clearTimeout(timer);
    }
    const still = [...this.leftRunning][0];
    return still && {
      code: 'HARNESS_DEADLINE_EXCEEDED',
      reason: `${still.id} outran its time limit and still ran ${this.settings.leftRunningGraceMs ?? 0} ms later; ${still.moves}, so no test starts while it may still do so`,
    };
  }

  /** Whether the run's time limit has passed. */
  deadlinePassed(): boolean {
    const deadline = this.settings.deadlineAt;
    return deadline !== undefined && (this.pastDeadline || Date.now() >= deadline);
  }

  /** Whether a test of `role` may start now; why not otherwise. */
  blocked(target: ScenarioTarget, role: Role): Blocked | undefined {
    if (this.deadlinePassed()) {
      return { code: 'HARNESS_DEADLINE_EXCEEDED', reason: `the run's time limit passed at ${new Date(this.settings.deadlineAt!).toISOString()}` };
    }
    const key = role === 'paying-app' ? (target.payingApp ? appKey(target.payingApp) : undefined) : httpKey(target.httpRole(role));
    const circuit = key === undefined ? undefined : this.circuits.get(key);
    return circuit?.open ? { code: 'HARNESS_TARGET_UNREACHABLE', reason: circuit.reason() } : undefined;
  }

  private circuit(key: string, shown: string): Circuit {
    let circuit = this.circuits.get(key);
    if (!circuit) {
      circuit = new Circuit(shown, this.settings.unreachableAfter);
      this.circuits.set(key, circuit);
    }
    return circuit;
  }

  private guardHttp(role: 'payee' | 'operator', inner: HttpRole): HttpRole {
    // Keyed by where the role is, so roles behind one URL share one circuit.
    const call = guarded(this.circuit(httpKey(inner)!, `the ${role} at ${inner.baseUrl ?? inner.description}`), inner.kind);
    // Plaintext probes may go unanswered by design (spec §5.1.4): they neither open nor close the circuit.
    return interceptSend(inner, (request: WireRequest) => (request.transport === 'plaintext' ? inner.send(request) : call(() => inner.send(request))));
  }

  private guardApp(inner: PayingAppRole): PayingAppRole {
    const call = guarded(this.circuit(appKey(inner), `the paying application ${inner.description}`), inner.kind);
    return {
      kind: inner.kind,
      description: inner.description,
      read: (input) => call(() => inner.read(input)),
      derive: (cpr, context) => call(() => inner.derive(cpr, context)),
      close: () => inner.close(),
    };
  }
}

/** Runs calls through a circuit: refused while it is open, answers close it, counted failures open it. */
function guarded(circuit: Circuit, kind: HttpRole['kind']) {
  return async <T>(run: () => Promise<T>): Promise<T> => {
    refuseWhenOpen(circuit);
    try {
      const result = await run();
      circuit.answered();
      return result;
    } catch (error) {
      if (counts(kind, error)) circuit.failed(error);
      throw error;
    }
  };
}

function refuseWhenOpen(circuit: Circuit): void {
  if (circuit.open) throw new StepError('error', `not sent: ${circuit.reason()}`, 'HARNESS_TARGET_UNREACHABLE');
}

function httpKey(role: HttpRole | undefined): string | undefined {
  return role && `http ${role.kind} ${role.baseUrl ?? role.description}`;
}

function appKey(app: PayingAppRole): string {
  return `app ${app.kind} ${app.description}`;
}
