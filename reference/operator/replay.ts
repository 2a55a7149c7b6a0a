// The replay store (PROFILE.md §6): one namespace for request_id, renewal_id and
// redemption_id. A message is fresh only within request_window_seconds of the
// clock, so an id recorded at t can be replayed freshly until t + 2 × window at
// the latest; entries older than that are forgotten and the store stays bounded.
// A clock set back records later ids at earlier instants: the entries are kept
// in a binary heap on their instants as well, so that every one recorded more
// than twice the window before the clock is forgotten, whatever order they
// came in (an id recorded after the clock's reading is kept until the clock
// is twice the window past it).
import type { Faults } from '../mutants.ts';

export class ReplayStore {
  /** id → instant it was recorded (ms). */
  private readonly seen = new Map<string, number>();
  /** The same entries, a min-heap on the instant: the next one to forget on top. */
  private readonly heap: Entry[] = [];
  /** The latest instant the store was asked at (only the op-replay-store-reset-on-clock-back fault reads it). */
  // Stryker disable next-line all: only the op-replay-store-reset-on-clock-back fault reads it
  private latestMs = -Infinity;

  constructor(
    private readonly retentionMs: number,
    private readonly faults?: Faults,
  ) {}

  /** PROFILE.md §5 "seen before → DUPLICATE_ID; otherwise recorded": true when the id is a replay. */
  seenBefore(id: string, nowMs: number): boolean {
    // Mutant op-replay-store-reset-on-clock-back: a clock set back empties the store, as if every instant recorded had lost its meaning.
    // Stryker disable next-line all: only the op-replay-store-reset-on-clock-back fault starts afresh
    if (this.faults?.has('op-replay-store-reset-on-clock-back') === true && nowMs < this.latestMs) { this.seen.clear(); this.heap.length = 0; }
    // Stryker disable next-line all: only the op-replay-store-reset-on-clock-back fault reads the latest instant
    this.latestMs = Math.max(this.latestMs, nowMs);
    // Mutant op-replay-pruned-on-machine-clock: the ids recorded at the Operator's clock pruned against the machine's.
    // Stryker disable next-line all: only the op-replay-pruned-on-machine-clock fault reads the machine's clock
    const prunedAt = this.faults?.has('op-replay-pruned-on-machine-clock') === true ? Date.now() : nowMs;
    this.prune(prunedAt);
    if (this.seen.has(id)) return true;
    this.seen.set(id, nowMs);
    push(this.heap, { at: nowMs, id });
    return false;
  }

  get size(): number {
    return this.seen.size;
  }

  // Stryker disable next-line BlockStatement: never pruning keeps ids longer, which PROFILE.md §6 allows (forgetting after twice the window is a MAY); only memory changes
  private prune(nowMs: number): void {
    // Mutant op-replay-heap-pop-last-leaf: the heap's pop swaps its top with the last leaf and returns what it then takes off the end, the last leaf: a young id is forgotten, the oldest kept.
    // Stryker disable next-line all: only the op-replay-heap-pop-last-leaf fault pops so
    const lastLeaf = this.faults?.has('op-replay-heap-pop-last-leaf') === true;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: keeping an id for ever, or dropping it at exactly twice the window, is conformant (PROFILE.md §6: a MUST only for ids recorded less than twice the window ago)
    while (this.heap.length > 0 && nowMs - this.heap[0]!.at > this.retentionMs) this.seen.delete(pop(this.heap, lastLeaf).id);
  }
}

// Stryker disable all: the heap only decides how soon an id is forgotten. Only the entry on top, whose instant the
// prune just compared, is ever removed, so a heap out of order forgets later, never early, which PROFILE.md §6 allows
// (forgetting after twice the window is a MAY); test/harness/hostile/stores.test.ts holds it to forgetting exactly then
interface Entry {
  readonly at: number;
  readonly id: string;
}

function push(heap: Entry[], entry: Entry): void {
  heap.push(entry);
  for (let i = heap.length - 1; i > 0; ) {
    const parent = (i - 1) >> 1;
    if (heap[parent]!.at <= heap[i]!.at) break;
    [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
    i = parent;
  }
}

function pop(heap: Entry[], lastLeaf = false): Entry {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    for (let i = 0; ; ) {
      const [left, right] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (left < heap.length && heap[left]!.at < heap[least]!.at) least = left;
      if (right < heap.length && heap[right]!.at < heap[least]!.at) least = right;
      if (least === i) break;
      [heap[least], heap[i]] = [heap[i]!, heap[least]!];
      i = least;
    }
  }
  // The op-replay-heap-pop-last-leaf fault: the top is taken off, but the entry returned, whose id is forgotten, is the last leaf.
  return lastLeaf ? last : top;
}
// Stryker restore all
