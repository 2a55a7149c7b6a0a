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
//
// So a target that stops answering ends the run within N request timeouts, not
// one timeout per test, and the other roles' tests keep going. The engine
// (plan.ts) holds one guard per run.
import type { Role } from '../../profile/registry.ts';
import { interceptSend } from '../adapters/intercept.ts';
import { TransportError, type HttpRole, type PayingAppRole, type WireRequest } from '../adapters/types.ts';
import type { TestErrorCode } from '../errors.ts';
import { StepError, type ScenarioTarget } from '../scenarios/context.ts';

interface GuardSettings {
  /** Consecutive transport failures after which a role counts as unreachable; 0 never. */
  readonly unreachableAfter: number;
  /** Epoch milliseconds after which no test starts; none when absent. */
  readonly deadlineAt?: number;
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
  /** Called when the bound passed with the test still running. */
  expire(): void;
}

export class RunGuard {
  private readonly circuits = new Map<string, Circuit>();
  private pastDeadline = false;

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
    };
  }

  /**
   * How long a test may run: its own limit, or until the run's deadline when
   * that comes first. A test stopped at the deadline (`expire`) lets none start
   * after it, even when the timer fired a millisecond before the wall clock
   * reached the deadline (timers run on another clock than Date.now()).
   */
  bound(ownMs: number, what: string): TestBound {
    const deadline = this.settings.deadlineAt;
    const left = deadline === undefined ? Number.POSITIVE_INFINITY : Math.max(0, deadline - Date.now());
    return left < ownMs
      ? { ms: left, reason: `stopped: the run's time limit passed at ${new Date(deadline!).toISOString()} while ${what} ran`, expire: () => void (this.pastDeadline = true) }
      : { ms: ownMs, reason: `stopped: ${what} ran longer than ${ownMs} ms`, expire: () => undefined };
  }

  /** Whether a test of `role` may start now; why not otherwise. */
  blocked(target: ScenarioTarget, role: Role): Blocked | undefined {
    const deadline = this.settings.deadlineAt;
    if (deadline !== undefined && (this.pastDeadline || Date.now() >= deadline)) {
      return { code: 'HARNESS_DEADLINE_EXCEEDED', reason: `the run's time limit passed at ${new Date(deadline).toISOString()}` };
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
