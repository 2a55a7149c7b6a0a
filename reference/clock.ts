// The reference's one clock (PROFILE.md §12): real time plus an offset, or frozen.
// Payee and operator share it, so advancing it moves token, request and pack
// expiry together.
interface ClockState {
  readonly now: number;
  readonly frozen: boolean;
}

export class Clock {
  private offset = 0;
  private frozenAt: number | undefined;

  constructor(private readonly source: () => number = Date.now) {}

  /** Milliseconds since the epoch. */
  now(): number {
    return this.frozenAt ?? this.source() + this.offset;
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  state(): ClockState {
    return { now: this.now(), frozen: this.frozenAt !== undefined };
  }

  /** Freezes at the current instant (or at `at`), truncated to whole seconds so boundaries are exact. */
  freeze(at: number = this.now()): void {
    this.frozenAt = Math.floor(at / 1000) * 1000;
  }

  /** Moves the clock to `at`; a running clock keeps running from there. */
  set(at: number): void {
    if (this.frozenAt !== undefined) this.frozenAt = at;
    else this.offset = at - this.source();
  }

  unfreeze(): void {
    if (this.frozenAt === undefined) return;
    this.offset = this.frozenAt - this.source();
    this.frozenAt = undefined;
  }

  advance(seconds: number): void {
    if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError('the clock only moves forward, in whole seconds');
    if (this.frozenAt !== undefined) this.frozenAt += seconds * 1000;
    else this.offset += seconds * 1000;
  }
}
