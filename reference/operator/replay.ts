// The replay store (PROFILE.md §6): one namespace for request_id, renewal_id and
// redemption_id. A message is fresh only within request_window_seconds of the
// clock, so an id recorded at t can be replayed freshly until t + 2 × window at
// the latest; entries older than that are pruned and the store stays bounded.
export class ReplayStore {
  /** id → instant it was recorded (ms). Insertion order is recording order. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly retentionMs: number) {}

  /** PROFILE.md §5 "seen before → DUPLICATE_ID; otherwise recorded": true when the id is a replay. */
  seenBefore(id: string, nowMs: number): boolean {
    this.prune(nowMs);
    if (this.seen.has(id)) return true;
    this.seen.set(id, nowMs);
    return false;
  }

  get size(): number {
    return this.seen.size;
  }

  // Oldest first; stops at the first entry still retained. If the clock was set
  // back, later entries may be older than earlier ones: they are kept a little
  // longer, never dropped early.
  // Stryker disable next-line BlockStatement: never pruning keeps ids longer, which PROFILE.md §6 allows (forgetting after twice the window is a MAY); only memory changes
  private prune(nowMs: number): void {
    for (const [id, at] of this.seen) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: keeping an id for ever, or dropping it at exactly twice the window, is conformant (PROFILE.md §6: a MUST only for ids recorded less than twice the window ago)
      if (nowMs - at <= this.retentionMs) return;
      this.seen.delete(id);
    }
  }
}
