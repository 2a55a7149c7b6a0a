// The reference's one clock (PROFILE.md §12): real time plus an offset, or frozen.
// Payee and operator share it, so advancing it moves token, request and pack
// expiry together. Every client of the test control shares it too, so it
// carries the lease that lets one of them at a time move it.
import { randomBytes } from 'node:crypto';

interface ClockState {
  readonly now: number;
  readonly frozen: boolean;
}

export class Clock {
  private offset = 0;
  private frozenAt: number | undefined;
  /** Where share() publishes the state: a sequence number, then offset and frozen instant (NaN when running). */
  private published: { readonly sequence: Int32Array; readonly state: Float64Array } | undefined;

  /** Who may move this clock; on real time (the source), not on the clock itself. */
  readonly lease: Lease;

  constructor(private readonly source: () => number = Date.now) {
    this.lease = new Lease(source);
  }

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
    this.publish();
  }

  /** Moves the clock to `at`; a running clock keeps running from there. */
  set(at: number): void {
    if (this.frozenAt !== undefined) this.frozenAt = at;
    else this.offset = at - this.source();
    this.publish();
  }

  unfreeze(): void {
    if (this.frozenAt === undefined) return;
    this.offset = this.frozenAt - this.source();
    this.frozenAt = undefined;
    this.publish();
  }

  advance(seconds: number): void {
    if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError('the clock only moves forward, in whole seconds');
    if (this.frozenAt !== undefined) this.frozenAt += seconds * 1000;
    else this.offset += seconds * 1000;
    this.publish();
  }

  // Stryker disable all: test plumbing, as test control is (stryker.config.mjs): only the harness's paying application reads the shared clock; test/reference/clock.test.ts tests it
  /**
   * This clock's state in memory another thread of this process can read
   * (sharedClockReader), kept current from now on: the embedded reference's
   * paying application, served from the reference's thread (or, for mutation
   * testing, from the harness's), reads the reference's one clock there
   * instead of over test control.
   */
  share(): SharedArrayBuffer {
    if (this.published === undefined) {
      const buffer = new SharedArrayBuffer(SHARED_BYTES);
      this.published = { sequence: new Int32Array(buffer, 0, 1), state: new Float64Array(buffer, 8, 2) };
      this.publish();
    }
    return this.published.sequence.buffer as SharedArrayBuffer;
  }

  /** Writes the state where share() put it: the sequence is odd while it changes, so a reader never takes half of it. */
  private publish(): void {
    const published = this.published;
    if (published === undefined) return;
    Atomics.add(published.sequence, 0, 1);
    published.state[0] = this.offset;
    published.state[1] = this.frozenAt ?? Number.NaN;
    Atomics.add(published.sequence, 0, 1);
  }
  // Stryker restore all
}

// Stryker disable all: test plumbing, as Clock.share above
/** A shared clock's memory: the sequence (4 bytes and 4 of padding), the offset and the frozen instant. */
const SHARED_BYTES = 24;

/**
 * The now() of the clock that shared `buffer` (Clock.share), read from any
 * thread of its process: the frozen instant, or `source()` (real time, as the
 * clock's own) plus its offset.
 */
export function sharedClockReader(buffer: SharedArrayBuffer, source: () => number = Date.now): () => number {
  if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength !== SHARED_BYTES) throw new TypeError('not the memory of a shared clock (Clock.share)');
  const sequence = new Int32Array(buffer, 0, 1);
  const state = new Float64Array(buffer, 8, 2);
  return () => {
    for (;;) {
      const before = Atomics.load(sequence, 0);
      const offset = state[0]!;
      const frozenAt = state[1]!;
      if (before % 2 === 0 && Atomics.load(sequence, 0) === before) return Number.isNaN(frozenAt) ? source() + offset : frozenAt;
    }
  };
}
// Stryker restore all

/** A lease on the test control of the implementation whose clock this is (PROFILE.md §12, lease). */
export interface LeaseView {
  readonly id: string;
  readonly holder: string;
  /** Real time, milliseconds since the epoch. */
  readonly expiresAt: number;
}

type Refusal = { readonly ok: false; readonly held: LeaseView | undefined };

/**
 * One holder at a time may move the clock every client shares. A lease runs on
 * real time, never on the test clock its holder moves, and ends at its expiry
 * unless renewed, so a client that crashed locks nobody out for long.
 */
export class Lease {
  private held: LeaseView | undefined;

  constructor(private readonly realNow: () => number) {}

  /** The lease in force, if any (an expired one is gone). */
  current(): LeaseView | undefined {
    if (this.held && this.held.expiresAt <= this.realNow()) this.held = undefined;
    return this.held;
  }

  acquire(holder: string, ttlSeconds: number): { readonly ok: true; readonly lease: LeaseView } | Refusal {
    const held = this.current();
    if (held) return { ok: false, held };
    this.held = { id: randomBytes(16).toString('hex'), holder, expiresAt: this.realNow() + ttlSeconds * 1000 };
    return { ok: true, lease: this.held };
  }

  /** A fresh TTL from now for the lease in force; refused (with whoever holds one now) when `id` is not it. */
  renew(id: string, ttlSeconds: number): { readonly ok: true; readonly lease: LeaseView } | Refusal {
    const held = this.current();
    if (held?.id !== id) return { ok: false, held };
    this.held = { ...held, expiresAt: this.realNow() + ttlSeconds * 1000 };
    return { ok: true, lease: this.held };
  }

  // Stryker disable all: only the ctl-lease-renewal-extends-expiry fault renews this way
  /** Mutant ctl-lease-renewal-extends-expiry: the TTL added to the expiry in force, not to now. */
  extend(id: string, ttlSeconds: number): { readonly ok: true; readonly lease: LeaseView } | Refusal {
    const held = this.current();
    if (held?.id !== id) return { ok: false, held };
    this.held = { ...held, expiresAt: held.expiresAt + ttlSeconds * 1000 };
    return { ok: true, lease: this.held };
  }
  // Stryker restore all

  release(id: string): boolean {
    if (this.current()?.id !== id) return false;
    this.held = undefined;
    return true;
  }

  /** Whether a request carrying `id` (or none) may change shared state: no lease is in force, or it is that one. */
  admits(id: string | undefined): boolean {
    const held = this.current();
    return held === undefined || held.id === id;
  }
}
