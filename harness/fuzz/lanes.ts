// Concurrent worlds in one model run. A run opens K worlds (lanes), each with
// its own accounts, keys and packs, under one frozen clock, and fast-check's
// command list names a lane for each command. A command waits only for the
// earlier commands of its own lane, so while one world waits for an answer the
// others send: the fuzzer keeps up to K requests in flight, and the target,
// not the fuzzer's thinking between requests, sets the pace.
//
// This changes nothing the run can observe. Worlds share no state on the
// target but the clock (separate Principals, redeemers and packs; ids that
// never repeat across worlds), so commands of different lanes commute: the
// answers are those of running the list one command after the other. The clock
// is the exception, so moving it is a barrier: `advance` waits for every lane,
// moves the clock once, and each world records the move in its own history as
// an `advance` by that many seconds, with its own balance check. A world's
// history (world.executed, world.script) is therefore a sequential run of its
// own, which the crash file and the regression scenario replay alone. When
// several lanes fail, the run reports the failure of the earliest command in
// list order: the one a sequential run would have met first.
//
// Whenever every lane is idle (each barrier, and the end of the run) the clock
// is read: it must be exactly where the run froze it plus the moves the model
// made. A clock moved by another client of the target's test control explains
// any difference the run met, so it ends the run as a harness error
// (HARNESS_CLOCK_MOVED), never a finding.
import { formatTimestamp, parseTimestamp } from '../../profile/index.ts';
import { TransportError } from '../adapters/types.ts';
import { HarnessError } from '../errors.ts';
import { setClock, World, type FuzzContext, type FuzzModel, type RunSetup } from './world.ts';

/** The model side of a run: one model per world, one deadline. */
export interface RunModel {
  readonly lanes: readonly FuzzModel[];
  readonly halted: () => boolean;
}

/** A failure carried out of a barrier with the lane it belongs to. */
export class LaneFailure {
  constructor(
    readonly lane: number,
    readonly error: unknown,
  ) {}
}

export class Run {
  private readonly tails: Promise<void>[];
  private failure: { readonly index: number; readonly lane: number; readonly error: unknown } | undefined;
  /** Commands started so far: the list position of the next one. */
  private started = 0;

  /** Where the run froze the clock (every world's moves are counted from it: World.advancedMs). */
  private frozenAt: number | undefined;

  private constructor(readonly worlds: readonly World[]) {
    this.tails = worlds.map(() => Promise.resolve());
  }

  /** Fresh state: the clock frozen and set once for every world, then each world's accounts provisioned. */
  static async open(context: FuzzContext, setups: readonly RunSetup[], halted: () => boolean): Promise<{ model: RunModel; real: Run }> {
    if (setups.length === 0) throw new RangeError('a run has at least one world');
    const run = new Run(setups.map((setup, lane) => World.create(context, setup, lane)));
    const logs = run.worlds.map((w) => w.log);
    // Cash-pack timestamps are whole seconds (PROFILE.md §1): the frozen clock is
    // set to the next whole second, every run, so the run starts from a time the
    // harness set (a replay of the run's requests meets the same clock).
    const frozen = await setClock(context.client, { freeze: true }, logs);
    const now = await setClock(context.client, { set: formatTimestamp(Math.ceil(frozen / 1000) * 1000) }, logs);
    run.frozenAt = now;
    const lanes = await Promise.all(run.worlds.map((w) => w.open(now, halted)));
    return { model: { lanes, halted }, real: run };
  }

  /** One world: each command runs to its end before the next starts. */
  get sequential(): boolean {
    return this.worlds.length === 1;
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /**
   * Runs `task` after the earlier commands of `lane`; resolves when it has run
   * (or was skipped because a command failed), never rejects: a failure is kept
   * and thrown by throwIfFailed, settle or the next barrier.
   */
  enqueue(lane: number, task: () => Promise<void>): Promise<void> {
    const index = this.started++;
    const tail = this.tails[lane]!.then(async () => {
      if (this.failure) return;
      try {
        await task();
      } catch (error) {
        this.fail(index, lane, error);
      }
    });
    this.tails[lane] = tail;
    return tail;
  }

  /** Runs `task` with every lane idle, as the only command in flight; a LaneFailure names the lane it concerns, else `lane`. */
  async barrier(lane: number, task: () => Promise<void>): Promise<void> {
    const index = this.started++;
    await this.settle();
    try {
      await task();
    } catch (error) {
      if (error instanceof LaneFailure) this.fail(index, error.lane, error.error);
      else this.fail(index, lane, error);
    }
    this.throwIfFailed();
  }

  /** Waits for every lane and checks the clock; throws the failure of the earliest failed command (a moved clock comes first). */
  async settle(): Promise<void> {
    await Promise.all(this.tails);
    await this.clockUnmoved();
    this.throwIfFailed();
  }

  /** With every lane idle: a clock the model did not move replaces whatever failure the run met (it explains it). */
  private async clockUnmoved(): Promise<void> {
    if (this.frozenAt === undefined) return;
    const expected = this.frozenAt + this.worlds[0]!.advancedMs;
    const client = this.worlds[0]!.client;
    let reply;
    try {
      reply = await client.send({ method: 'GET', path: '/_control/clock' }, this.worlds.map((w) => w.log), undefined);
    } catch (error) {
      if (error instanceof TransportError) return; // the next request says the target stopped answering
      throw error;
    }
    const state = reply.body as { now?: unknown; frozen?: unknown } | undefined;
    const read = parseTimestamp(state?.now);
    if (reply.status !== 200 || read === undefined || (read === expected && state?.frozen === true)) return;
    const error = new HarnessError(
      'HARNESS_CLOCK_MOVED',
      `the operator's clock moved under the campaign without the fuzzer moving it: it read ${formatTimestamp(read)}${state?.frozen === true ? '' : ' and was running'}, where the model had it frozen at ${formatTimestamp(expected)}; another client of its test control? Nothing the run met is a finding`,
    );
    this.failure = { index: -1, lane: this.failure?.lane ?? 0, error };
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  /** The world whose history ends with the failure; the first world when none failed. */
  failingWorld(): World {
    return this.worlds[this.failure?.lane ?? 0]!;
  }

  /** The failure of the earliest failed command, if any. */
  failureError(): unknown {
    return this.failure?.error;
  }

  private fail(index: number, lane: number, error: unknown): void {
    if (!this.failure || index < this.failure.index) this.failure = { index, lane, error };
  }
}
