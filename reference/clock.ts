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
