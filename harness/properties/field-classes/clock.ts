// The target's clock through test control (PROFILE.md §12), for properties
// that date their cases inside daylight-saving time: read once before the
// first case, set (frozen) for each, and put back running where real time has
// taken it after the last one, so the tests that follow see the clock they
// would have seen.
import { formatTimestamp, parseTimestamp } from '../../../profile/time.ts';
import type { Role } from '../../../profile/registry.ts';
import { adoptClock, CONTROL_RULE } from '../../scenarios/actions/index.ts';
import { StepError, type ScenarioContext } from '../../scenarios/context.ts';
import { jsonRequest, send } from '../../scenarios/http.ts';

interface Saved {
  readonly targetMs: number;
  readonly localMs: number;
  readonly frozen: boolean;
}

const saved = new WeakMap<ScenarioContext, Saved>();

async function clockCall(ctx: ScenarioContext, role: Role, body?: unknown): Promise<{ now: string; frozen: boolean }> {
  const answer = await send(ctx, role, body === undefined ? { method: 'GET', path: '/_control/clock' } : jsonRequest('POST', '/_control/clock', body));
  const state = answer.body as { now?: unknown; frozen?: unknown } | undefined;
  if (answer.status !== 200 || typeof state?.now !== 'string' || parseTimestamp(state.now) === undefined) {
    throw new StepError('error', `test control ${body === undefined ? 'GET' : 'POST'} /_control/clock answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  }
  return { now: state.now, frozen: state.frozen === true };
}

/** The clock as it was before the first setClock of this context (read now, when there was none yet). */
async function remembered(ctx: ScenarioContext, role: Role): Promise<Saved> {
  let before = saved.get(ctx);
  if (!before) {
    const state = await clockCall(ctx, role);
    before = { targetMs: parseTimestamp(state.now)!, localMs: Date.now(), frozen: state.frozen };
    saved.set(ctx, before);
  }
  return before;
}

/** The role's clock as it stood before the first case moved it: the instant the cases' own clock starts from. */
export async function clockBefore(ctx: ScenarioContext, role: Role): Promise<number> {
  return (await remembered(ctx, role)).targetMs;
}

/** Freezes the role's clock at `ms` (the first call remembers the clock as it was). */
export async function setClock(ctx: ScenarioContext, role: Role, ms: number): Promise<void> {
  await remembered(ctx, role);
  const set = formatTimestamp(ms, 'cpr');
  const state = await clockCall(ctx, role, { freeze: true, set });
  // PROFILE.md §12: with the clock frozen the harness sets exact boundaries; set and frozen, it stands at that instant, to the millisecond.
  if (parseTimestamp(state.now) !== ms || !state.frozen) {
    throw StepError.setupFailed(CONTROL_RULE, `test control POST /_control/clock {"freeze":true,"set":"${set}"} answered ${JSON.stringify(state)}: the clock set and frozen stands at that instant`);
  }
  adoptClock(ctx, state);
}

/** Puts the clock back: where it was plus the time that has passed, running unless it was frozen. */
export async function restoreClock(ctx: ScenarioContext, role: Role): Promise<void> {
  const before = saved.get(ctx);
  if (!before) return;
  saved.delete(ctx);
  const now = before.frozen ? before.targetMs : before.targetMs + (Date.now() - before.localMs);
  adoptClock(ctx, await clockCall(ctx, role, { set: formatTimestamp(now, 'cpr'), freeze: before.frozen }));
}
