// Test-control calls (PROFILE.md §12) that set a scenario up: a failure is a
// setup failure. It is observed under PRF-CTL-1 only where the harness can
// vouch for the call: a payee asked for a request the profile lets it serve
// (payeeRequestAllowed) that refuses it; any other failed call is a harness
// error, never a conformance result.
import { parseTimestamp } from '../../../profile/index.ts';
import type { Role } from '../../../profile/registry.ts';
import { createSigningKey } from '../../../profile/cashpack/index.ts';
import { balancePath, CONTROL_INPUTS, payeeRequestAllowed } from '../../../profile/control.ts';
import type { WireRequest } from '../../adapters/types.ts';
import { StepError, type ScenarioContext } from '../context.ts';
import { jsonRequest, send } from '../http.ts';
import type { Params } from '../params.ts';

/** The rule of the test-control interface (PROFILE.md §12). */
export const CONTROL_RULE = 'PRF-CTL-1';

/**
 * A test-control call that must succeed; a failure means setup failed, not
 * conformance: a harness error, but PRF-CTL-1 failed where the call is one §12
 * must answer (a request the profile lets a payee serve) and was answered
 * otherwise than with 2xx and JSON.
 */
export async function control(ctx: ScenarioContext, role: Role, method: string, path: string, json?: unknown): Promise<unknown> {
  const request: WireRequest = json === undefined ? { method, path } : jsonRequest(method, path, json);
  const result = await send(ctx, role, request);
  const creates = method === 'POST' && path === CONTROL_INPUTS['payee-request'].path;
  const vouched = creates && payeeRequestAllowed(json);
  const failed = (said: string) => (vouched ? StepError.setupFailed(CONTROL_RULE, `${said} (a request the profile lets a payee serve)`) : new StepError('error', said));
  if (result.status === null) throw new StepError('error', `test control ${method} ${path} got no answer: ${result.error ?? ''}`);
  if (result.status < 200 || result.status > 299) throw failed(`test control ${method} ${path} answered ${result.status}: ${result.text.slice(0, 300)}`);
  if (result.body === undefined) throw failed(`test control ${method} ${path} did not answer JSON`);
  if (creates) noteCreated(ctx, result.body, json);
  return result.body;
}

/** A created request's id, into the run's record of the ids the payee gave (ScenarioTarget.createdRequests). */
function noteCreated(ctx: ScenarioContext, body: unknown, asked: unknown): void {
  const id = (body as { request_id?: unknown } | null)?.request_id;
  const record = ctx.target.createdRequests;
  if (typeof id !== 'string' || record === undefined) return;
  const known = record.get(id);
  if (known) known.times += 1;
  else record.set(id, { first: JSON.stringify(asked ?? {}), times: 1 });
}

export function adoptClock(ctx: ScenarioContext, state: { now: string; frozen: boolean }): void {
  const ms = parseTimestamp(state.now);
  if (ms === undefined) throw new StepError('error', `test control reported an unreadable clock ${JSON.stringify(state.now)}`);
  ctx.setClockView(ms, state.frozen);
}

export function ensureKey(ctx: ScenarioContext, name: string) {
  let key = ctx.keys.get(name);
  if (!key) {
    key = createSigningKey();
    ctx.keys.set(name, key);
    ctx.vars[name] = key.jwk;
  }
  return key;
}

export async function readBalance(ctx: ScenarioContext, p: Params): Promise<unknown> {
  const principal = p.key('principal', 'optional');
  if (principal !== undefined) return control(ctx, 'operator', 'GET', balancePath('principal', ctx.key(principal).jwk.kid));
  const redeemer = p.key('redeemer', 'optional');
  if (redeemer !== undefined) return control(ctx, 'operator', 'GET', balancePath('redeemer', ctx.key(redeemer).jwk.kid));
  throw new StepError('error', 'balance needs principal or redeemer', 'SCENARIO_INVALID');
}
