// What a running scenario holds: the target's roles, captured values, keys, the
// transcript of every exchange and the results of every check.
import type { TargetFacts } from '../target/facts.ts';
import type { Level, Role } from '../../profile/registry.ts';
import type { TestErrorCode } from '../errors.ts';
import type { Capability } from '../../profile/control.ts';
import type { AdapterKind, HttpRole, PayingAppRole, WireRequest, WireResponse } from '../adapters/types.ts';
import type { Basis, CheckResult, Exchange, NotEvaluated } from '../report/model.ts';
import type { Scenario, Step } from './types.ts';
import type { RetrievalStub } from '../stub/retrieval-stub.ts';
import type { KeptMembers } from './actions/cashpack.ts';

/** The part of a target a scenario needs. */
export interface ScenarioTarget {
  httpRole(role: 'payee' | 'operator'): HttpRole | undefined;
  readonly payingApp: PayingAppRole | undefined;
  capabilities(role: Role): ReadonlySet<Capability>;
  adapterKind(role: Role): AdapterKind | undefined;
  /** Keys the target file supplies for the operator role (secret; never reported). */
  credential(of: 'principal' | 'redeemer' | 'staff'): NamedKey | undefined;
  /** The hosts the harness's own paying application may follow a delivery URI to (target/host-guard.ts); absent for a paying application under test. */
  readonly hostGuard?: readonly string[];
  /** The harness's retrieval stub, when the paying application trusts it (harness/stub/). */
  readonly stub?: RetrievalStub;
  /** The id of the test-control lease this run holds on the role's implementation (runner/lease.ts), when it holds one. */
  controlLease?(role: 'payee' | 'operator'): string | undefined;
  /** What the target publishes about itself, read once for the whole run (target/facts.ts); read-only. */
  facts?(): Promise<TargetFacts>;
  /**
   * Every request_id the payee gave a test-control creation in this run, every
   * test's and every twin's (runner/guard.ts keeps one per run): the first
   * creation that got it, and how many did. Spec §4.7.3 wants each globally unique.
   */
  readonly createdRequests?: Map<string, CreatedRequestRecord>;
}

export interface CreatedRequestRecord {
  /** The body of the first creation that got the id. */
  readonly first: string;
  times: number;
}

export interface NamedKey {
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly jwk: { readonly kty: 'OKP'; readonly crv: 'Ed25519'; readonly x: string; readonly kid: string };
}

/** A step's result for an HTTP exchange. */
export interface HttpResult {
  /** null when no response came (only allowed for plaintext probes). */
  readonly status: number | null;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, when the body is JSON. */
  readonly body: unknown;
  readonly text: string;
  readonly bytes: Uint8Array;
  readonly error?: string;
  /** For plaintext probes: the role's declared plaintext listener, or its TLS port spoken to in plaintext. */
  readonly via?: 'plaintext-listener' | 'tls-port';
}


/**
 * The step could not be carried out for a reason that is not the target's
 * conformance: a harness or test-control error, something that keeps the test
 * from being exercised here (skipped), or a rule that does not apply to this
 * target, for the spec's reason or its policy's (`StepError.notApplicable`,
 * which must say which: an inapplicable rule is no gap in coverage).
 * Internal signal, caught in scenarios/execute.ts, properties/execute.ts: it becomes the test's outcome and error_code (a code of the taxonomy's test scope).
 */
export class StepError extends Error {
  readonly outcome: 'error' | 'skipped' | 'not-applicable';
  /** With outcome `error`: why; HARNESS_STEP_FAILED when not given. */
  readonly code: TestErrorCode | undefined;
  /** With outcome `not-applicable`: the spec's condition or the target's policy. */
  readonly basis: Basis | undefined;
  /** With code HARNESS_SETUP_FAILED (StepError.setupFailed): the requirement the failed setup observed failing. */
  setupRequirement: string | undefined;

  constructor(outcome: 'error' | 'skipped', message: string, code?: TestErrorCode);
  constructor(outcome: 'not-applicable', message: string, code: undefined, basis: Basis);
  constructor(outcome: 'error' | 'skipped' | 'not-applicable', message: string, code?: TestErrorCode, basis?: Basis) {
    super(message);
    this.name = 'StepError';
    this.outcome = outcome;
    this.code = code;
    this.basis = basis;
  }

  static notApplicable(basis: Basis, message: string): StepError {
    return new StepError('not-applicable', message, undefined, basis);
  }

  /**
   * A property's setup (the pack it needs, an operation between its reads) was
   * answered otherwise than `requirement` says: an observed failure of that
   * requirement, the ones under test not exercised (HARNESS_SETUP_FAILED, as a
   * scenario's failed setup step).
   */
  static setupFailed(requirement: string, message: string): StepError {
    const error = new StepError('error', message, 'HARNESS_SETUP_FAILED');
    error.setupRequirement = requirement;
    return error;
  }
}

/** What a test result says of the StepError that ended it: its reason, and its code or basis. */
export function stepErrorFields(error: StepError, reason: string = error.message): { reason: string; error_code?: TestErrorCode; basis?: Basis } {
  if (error.outcome === 'error') return { reason, error_code: error.code ?? 'HARNESS_STEP_FAILED' };
  if (error.outcome === 'not-applicable') return { reason, basis: error.basis! };
  return { reason };
}

interface ClockView {
  frozen: boolean;
  targetMs: number;
  localMs: number;
}

export class ScenarioContext {
  readonly vars: Record<string, unknown> = {};
  readonly keys = new Map<string, NamedKey>();
  readonly transcript: Exchange[] = [];
  readonly checks: CheckResult[] = [];
  /** Checks left out because an earlier outcome check of their step saw another answer. */
  readonly notEvaluated: NotEvaluated[] = [];
  /**
   * The step running as reports name it (1-based): "3", or "5.2 (i=7)" for the
   * second step inside step 5, a repeat, in its iteration 7. Undefined before
   * the first step (the harness's own reads) and in property cases.
   */
  stepLabel: string | undefined = undefined;
  /** The deepest renewal_chain seen for each pack_id in the Operator's answers. */
  readonly packDepths = new Map<string, number>();
  /** The expiry instant (ms) of each pack_id granted in the Operator's answers. */
  readonly packExpiries = new Map<string, number>();
  /** The members a renewal keeps (actions/cashpack.ts keptMembers) of each pack_id as the Operator issued it. */
  readonly packIssued = new Map<string, KeptMembers>();
  /** Names captured by setup steps, so that a value missing from their answers is charged to the setup. */
  readonly setupCaptures = new Map<string, Step>();
  /** Set when the scenario froze the clock, so it is released afterwards. */
  clockTouched: Role | undefined;
  /**
   * Run before each request `send` makes (unless it is sent as over the limit on purpose): a property's, and a
   * scenario's during a raw `http` or `parallel` step, stops it where the target's body limit leaves only 413 to
   * answer it (properties/execute.ts, scenarios/execute.ts runStep; actions/cashpack.ts overBodyLimit).
   */
  beforeSend: ((role: Role, request: WireRequest) => Promise<void>) | undefined;
  /**
   * What a property's cases left unjudged, each said once (a part of the case the target's policy
   * leaves no room for): a pass names them, so it never reads as having judged them.
   */
  readonly leftOut = new Set<string>();
  private clockView: ClockView | undefined;
  operatorKey: Uint8Array | undefined;

  constructor(
    readonly target: ScenarioTarget,
    readonly scenario: Scenario,
    readonly levelOf: (requirement: string) => Level,
  ) {}

  http(role: Role): HttpRole {
    if (role === 'paying-app') throw new StepError('error', 'the paying application has no HTTP interface; use app-read or app-derive');
    const r = this.target.httpRole(role);
    if (!r) throw StepError.notApplicable('spec', `the target has no ${role} role`);
    return r;
  }

  app(): PayingAppRole {
    const app = this.target.payingApp;
    if (!app) throw StepError.notApplicable('spec', 'the target has no paying-app role');
    return app;
  }

  /** The target's clock in epoch seconds (its own clock when it offers test control, ours otherwise). */
  nowSeconds(): number {
    const v = this.clockView;
    if (!v) return Math.floor(Date.now() / 1000);
    return Math.floor((v.frozen ? v.targetMs : v.targetMs + (Date.now() - v.localMs)) / 1000);
  }

  /** True when the target's clock was read frozen (a scenario froze it, or it already was). */
  get clockFrozen(): boolean {
    return this.clockView?.frozen === true;
  }

  setClockView(targetMs: number, frozen: boolean): void {
    this.clockView = { frozen, targetMs, localMs: Date.now() };
  }

  scope(result?: unknown): Record<string, unknown> {
    return { ...this.vars, now: this.nowSeconds(), ...(result !== undefined ? { res: result } : {}) };
  }

  key(name: string): NamedKey {
    const k = this.keys.get(name);
    if (!k) throw new StepError('error', `key "${name}" is not defined`);
    return k;
  }

  record(role: Role, request: WireRequest, url: string, response: WireResponse | undefined, error: string | undefined, durationMs: number): void {
    this.transcript.push({
      ...(this.stepLabel !== undefined ? { step: this.stepLabel } : {}),
      role,
      request: { method: request.method, url, headers: redact(request.headers ?? {}), ...(request.body !== undefined ? { body: cap(text(request.body)) } : {}) },
      ...(response
        ? { response: { status: response.status, headers: response.headers, body: cap(text(response.body)), ...(response.truncated || response.body.length > TRANSCRIPT_BODY ? { truncated: true } : {}) } }
        : {}),
      ...(error !== undefined ? { error } : {}),
      duration_ms: durationMs,
    });
  }
}

const TRANSCRIPT_BODY = 4096;
const decoder = new TextDecoder('utf-8', { fatal: false });
const text = (body: Uint8Array | string) => (typeof body === 'string' ? body : decoder.decode(body));
const cap = (s: string) => (s.length > TRANSCRIPT_BODY ? `${s.slice(0, TRANSCRIPT_BODY)}…` : s);

/** Credentials never reach a report: the control token in particular. */
function redact(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, k.toLowerCase() === 'authorization' ? '[redacted]' : v]));
}
