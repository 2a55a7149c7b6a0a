// Clock moves the harness did not make. An implementation has one clock, and
// every client of its test control shares it (PROFILE.md §12): a second run,
// a fuzzing campaign or a person with curl can freeze, set or advance it under
// a scenario, whose checks then judge the target against a clock it was never
// asked to keep. The harness knows what clock to expect: a frozen clock stays
// exactly where the scenario left it, a running one moves forward by about the
// time that passed. It reads the clock where a scenario starts (execute.ts
// syncClock) and again where it ends (releaseClock, before letting it run),
// and follows the scenario's own moves in between (its POST /_control/clock
// exchanges). A move it did not make turns the scenario into an error,
// HARNESS_CLOCK_MOVED, whatever its checks said: their failures stay in the
// report but charge nothing (report/aggregate.ts), and a pass is no pass.
//
// A target that offers the lease capability is trusted to enforce it (the
// harness holds the lease while it runs, runner/lease.ts): there, the answers
// to the scenario's own clock requests are taken as they come (a wrong one is
// the target's failure, judged by PRF-CTL-1), and only the clock at the end is
// compared. Without it, the harness also reads the clock just before each of
// its own moves (readBeforeClockMoves), so every stretch of the scenario's
// time is checked, a `set` that would hide an earlier move included; and an
// answer that is not what the request asked of the clock the harness knew is a
// move too: another client may have come between.
import { interceptSend } from '../adapters/intercept.ts';
import type { HttpRole, WireRequest } from '../adapters/types.ts';
import type { Exchange, TestResult } from '../report/model.ts';
import { parseTimestamp } from '../../profile/time.ts';
import type { ScenarioContext } from './context.ts';

/** One reading of the target's clock, and the local times (Date.now) between which it was taken. */
interface ClockReading {
  readonly ms: number;
  readonly frozen: boolean;
  readonly sentAt: number;
  readonly receivedAt: number;
}

/** A clock text has a resolution of a second when the target writes whole seconds (and a freeze may truncate to one). */
const RESOLUTION_MS = 1000;

/**
 * What the clock should read: a frozen value between `low` and `high`, or a
 * running clock that read `ms` at a local time between `from` and `to` (so at
 * local time t it reads between ms + t - to and ms + t - from).
 */
type Expected = { readonly frozen: true; readonly low: number; readonly high: number } | { readonly frozen: false; readonly ms: number; readonly from: number; readonly to: number };

interface Watch {
  readonly role: 'payee' | 'operator';
  readonly start: ClockReading;
  /** The first reading before a move that belongs to this scenario (ReadingBeforeMove.seq). */
  readonly firstMove: number;
  /** Set when the clock moved under the scenario: what was expected and what was read. */
  moved?: string;
}

const watches = new WeakMap<ScenarioContext, Watch>();

/** A reading just before a move; `reading` is missing when the clock could not be read. `seq` orders them across scenarios. */
interface ReadingBeforeMove {
  readonly seq: number;
  readonly reading: ClockReading | undefined;
}

/** The clock as read just before each POST /_control/clock that got an answer, by implementation (base URL or description), newest last. */
const readingsBeforeMoves = new Map<string, ReadingBeforeMove[]>();
let readingsTaken = 0;
/** Only the scenario running needs them: a few suffice. */
const KEPT_READINGS = 64;

const clockOf = (role: Pick<HttpRole, 'baseUrl' | 'description'>) => role.baseUrl ?? role.description;

/**
 * The role, reading its clock (GET /_control/clock, outside any transcript)
 * before each request that moves it, for checkClock: used where the target
 * offers no lease, so that another client's move before a `set` is seen.
 */
export function readBeforeClockMoves(role: HttpRole): HttpRole {
  return interceptSend(role, async (request: WireRequest) => {
    if (request.method !== 'POST' || request.path !== '/_control/clock') return role.send(request);
    const seq = readingsTaken++;
    const reading = await readClock(role);
    const response = await role.send(request);
    // Kept only for a move that was answered, as the transcript keeps it.
    const kept = readingsBeforeMoves.get(clockOf(role)) ?? [];
    kept.push({ seq, reading });
    readingsBeforeMoves.set(clockOf(role), kept.slice(-KEPT_READINGS));
    return response;
  });
}

/** Starts watching the role's clock from the reading taken where the scenario starts. */
export function watchClock(ctx: ScenarioContext, role: 'payee' | 'operator', start: ClockReading): void {
  watches.set(ctx, { role, start, firstMove: readingsTaken });
}

/** Reads the role's clock at the end of the scenario and compares it with what the harness expects; remembers a move. */
export async function checkClock(ctx: ScenarioContext): Promise<void> {
  const watch = watches.get(ctx);
  if (!watch) return;
  const trusted = ctx.target.capabilities(watch.role).has('lease');
  const followed = followMoves(ctx, watch, trusted);
  if ('moved' in followed) {
    watch.moved = followed.moved;
    return;
  }
  const role = ctx.target.httpRole(watch.role);
  const end = role && (await readClock(role));
  if (end) watch.moved = difference(followed.expected, end, 'at the end of the scenario');
}

/** GET /_control/clock outside any transcript; nothing when it gives no usable answer (the next scenario meets an unreachable target). */
async function readClock(role: HttpRole): Promise<ClockReading | undefined> {
  const sentAt = Date.now();
  try {
    const response = await role.send({ method: 'GET', path: '/_control/clock', headers: { accept: 'application/json' } });
    const state = response.status === 200 ? json(new TextDecoder().decode(response.body)) : undefined;
    const ms = parseTimestamp(state?.['now']);
    return ms === undefined || typeof state?.['frozen'] !== 'boolean' ? undefined : { ms, frozen: state['frozen'], sentAt, receivedAt: Date.now() };
  } catch {
    return undefined;
  }
}

/** The scenario's result, or, when the clock moved under it, a harness error that keeps what it saw. */
export function unmovedClock(ctx: ScenarioContext, result: TestResult): TestResult {
  const watch = watches.get(ctx);
  if (watch?.moved === undefined || result.status === 'skipped') return result;
  const saw = `${result.status}${result.reason !== undefined ? `: ${result.reason}` : ''}`;
  return {
    ...result,
    status: 'error',
    error_code: 'HARNESS_CLOCK_MOVED',
    reason: `the ${watch.role}'s clock moved under the scenario without the harness moving it (${watch.moved}): another client of its test control? Its checks charge nothing; what the scenario saw: ${saw}`,
  };
}

/**
 * Walks the scenario's own POST /_control/clock exchanges from the start
 * reading: what the clock should read after them or, when the target is not
 * trusted to keep others out, the first answer only a move by someone else
 * explains.
 */
function followMoves(ctx: ScenarioContext, watch: Watch, trusted: boolean): { expected: Expected } | { moved: string } {
  const { start } = watch;
  const role = ctx.target.httpRole(watch.role);
  // The readings taken before this scenario's own moves, in order (none where the target is trusted).
  const before = trusted || !role ? [] : (readingsBeforeMoves.get(clockOf(role)) ?? []).filter((r) => r.seq >= watch.firstMove).map((r) => r.reading);
  // Payee and operator at one origin are one implementation with one clock: a move through either is a move of it.
  const sameClock = (other: Exchange['role']) => {
    const through = other === 'paying-app' ? undefined : ctx.target.httpRole(other);
    return through !== undefined && role !== undefined && clockOf(through) === clockOf(role);
  };
  let expected = expectation(start, start.sentAt, start.receivedAt);
  let moves = 0;
  for (const exchange of ctx.transcript) {
    if (!sameClock(exchange.role) || exchange.request.method !== 'POST' || !exchange.request.url.endsWith('/_control/clock') || !exchange.response) continue;
    const move = `${exchange.step === undefined ? 'the harness\'s own move before the first step' : `step ${exchange.step}`} (POST /_control/clock ${exchange.request.body ?? ''})`;
    const pre = before[moves++];
    if (pre) {
      const moved = difference(expected, pre, `before ${move}`);
      if (moved) return { moved };
      expected = expectation(pre, pre.sentAt, pre.receivedAt);
    }
    const answered = exchange.response.status === 200 ? json(exchange.response.body) : undefined;
    const ms = parseTimestamp(answered?.['now']);
    if (ms === undefined || typeof answered?.['frozen'] !== 'boolean') continue; // the scenario's own checks judge a refused or garbled answer
    // The exchange happened at some local time after the reading before it (or the scenario's start) and before now.
    const window = { from: pre ? pre.sentAt : start.sentAt, to: Date.now() };
    const answer: ClockReading = { ms, frozen: answered['frozen'], sentAt: window.from, receivedAt: window.to };
    if (!trusted) {
      const moved = difference(apply(expected, json(exchange.request.body) ?? {}, window), answer, `at ${move}`);
      if (moved) return { moved };
    }
    expected = expectation(answer, window.from, window.to);
  }
  return { expected };
}

/** The clock as a reading taken between local times `from` and `to` shows it. */
function expectation(reading: Pick<ClockReading, 'ms' | 'frozen'>, from: number, to: number): Expected {
  return reading.frozen ? { frozen: true, low: reading.ms, high: reading.ms } : { frozen: false, ms: reading.ms, from, to };
}

/** What `{ freeze?, set?, advance_seconds? }`, applied in that order (PROFILE.md §12) between local times `window.from` and `window.to`, makes of the expected clock. */
function apply(before: Expected, asked: Record<string, unknown>, window: { readonly from: number; readonly to: number }): Expected {
  let next = before;
  if (asked['freeze'] === true) {
    // Frozen at whatever the clock read then, perhaps truncated to the second (a frozen one too).
    const [low, high] = next.frozen ? [next.low, next.high] : readable(next, window.from, window.to);
    next = { frozen: true, low: low - RESOLUTION_MS, high };
  }
  // Running again from a frozen value, at some moment of the window.
  if (asked['freeze'] === false && next.frozen) next = { frozen: false, ms: next.low, from: window.from - (next.high - next.low), to: window.to };
  const set = parseTimestamp(asked['set']);
  if (set !== undefined) next = next.frozen ? { frozen: true, low: set - RESOLUTION_MS + 1, high: set } : { frozen: false, ms: set, from: window.from, to: window.to };
  const advance = asked['advance_seconds'];
  if (typeof advance === 'number') next = next.frozen ? { ...next, low: next.low + advance * 1000, high: next.high + advance * 1000 } : { ...next, ms: next.ms + advance * 1000 };
  return next;
}

/** What a running clock can read between local times `from` and `to`. */
function readable(expected: Extract<Expected, { frozen: false }>, from: number, to: number): [number, number] {
  return [expected.ms + (from - expected.to), expected.ms + (to - expected.from)];
}

/** Why `reading` is not the expected clock, or nothing when it is. */
function difference(expected: Expected, reading: ClockReading, where: string): string | undefined {
  const shown = (ms: number) => new Date(ms).toISOString();
  const between = (low: number, high: number) => (low === high ? shown(low) : `${shown(low)} to ${shown(high)}`);
  if (expected.frozen) {
    if (!reading.frozen) return `${where} it was running, where the harness had it frozen at ${between(expected.low, expected.high)}`;
    if (reading.ms >= expected.low && reading.ms <= expected.high) return undefined;
    return `${where} it read ${shown(reading.ms)}, where the harness had it frozen at ${between(expected.low, expected.high)}`;
  }
  if (reading.frozen) return `${where} it was frozen at ${shown(reading.ms)}, where the harness had it running`;
  // Widened by the text's resolution at both readings.
  const [low, high] = readable(expected, reading.sentAt, reading.receivedAt);
  if (reading.ms >= low - 2 * RESOLUTION_MS && reading.ms <= high + 2 * RESOLUTION_MS) return undefined;
  return `${where} it read ${shown(reading.ms)}, where the running clock the harness knew would read about ${between(low, high)}`;
}

function json(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
