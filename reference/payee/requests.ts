// The payee's record of its requests, for the single-use convention (spec §3.1):
// a request is marked consumed after fulfilment and a later fulfilment is refused
// (PROFILE.md §12 `fulfil`).
import type { Faults } from '../mutants.ts';

export type FulfilOutcome = 'FULFILLED' | 'REQUEST_CONSUMED' | 'REQUEST_EXPIRED' | 'NOT_FOUND';

interface Entry {
  /** The instant the request was made (read under the payee-fulfil-before-creation-refused fault only). */
  readonly createdAt: number;
  readonly expiresAt: number;
  consumed: boolean;
}

export class RequestStore {
  private readonly entries = new Map<string, Entry>();

  /**
   * @param retainMs how long after expiry a request still answers REQUEST_EXPIRED before it is pruned
   * @param faults the fault switched on, if any (reference/mutants.ts)
   */
  constructor(
    private readonly retainMs: number,
    private readonly faults: Faults,
  ) {}

  register(requestId: string, expiresAt: number, now: number): void {
    this.prune(now);
    this.entries.set(requestId, { createdAt: now, expiresAt, consumed: false });
  }

  /** Spec §2.1: after expires_at the request MUST NOT be fulfilled; the instant itself counts as expired (PROFILE.md §8.3). */
  fulfil(requestId: string, now: number): FulfilOutcome {
    this.prune(now);
    const entry = this.entries.get(requestId);
    // Mutant payee-unknown-request-answered-expired: an id the store does not hold taken for one it pruned after its expiry.
    // Stryker disable next-line all: only the payee-unknown-request-answered-expired fault answers so
    if (!entry && this.faults.has('payee-unknown-request-answered-expired')) return 'REQUEST_EXPIRED';
    // Mutant payee-unknown-fulfil-recorded: a fulfilment of an id the store does not hold records it as consumed (an upsert), so a second one is REQUEST_CONSUMED.
    // Stryker disable next-line all: only the payee-unknown-fulfil-recorded fault records the id
    if (!entry && this.faults.has('payee-unknown-fulfil-recorded')) this.entries.set(requestId, { createdAt: now, expiresAt: now, consumed: true });
    if (!entry) return 'NOT_FOUND';
    if (entry.consumed) return 'REQUEST_CONSUMED';
    // Mutant payee-fulfil-consumes-expired: the request is marked consumed before its expiry is checked.
    if (this.faults.has('payee-fulfil-consumes-expired')) entry.consumed = true;
    // Mutant payee-fulfil-before-creation-refused: a request fulfillable only within [created_at, expires_at), so one fulfilled with the clock set back before its creation is REQUEST_EXPIRED.
    // Stryker disable next-line all: only the payee-fulfil-before-creation-refused fault reads the creation instant
    if (this.faults.has('payee-fulfil-before-creation-refused') && now < entry.createdAt) return 'REQUEST_EXPIRED';
    if (this.faults.has('payee-fulfil-at-expiry') ? now > entry.expiresAt : now >= entry.expiresAt) return 'REQUEST_EXPIRED'; // mutant: the instant itself still fulfils
    if (!this.faults.has('payee-fulfil-repeatable')) entry.consumed = true; // mutant: never marked consumed
    return 'FULFILLED';
  }

  get size(): number {
    return this.entries.size;
  }

  // Stryker disable next-line BlockStatement: never pruning keeps a request known longer (REQUEST_EXPIRED rather than NOT_FOUND): PROFILE.md §12 sets the least it is kept, nothing requires it forgotten; only memory changes
  private prune(now: number): void {
    // Stryker disable next-line BlockStatement: pruning nothing keeps expired entries known longer, as the prune's own disable says
    for (const [id, entry] of this.entries) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: true and >= keep an expired request longer (never forgotten, or a millisecond more), which PROFILE.md §12 allows; false and <= forget one still to be known, which PROP-PAYEE-013 sees (as it sees payee-request-retention-token-lifetime), disabled with them as Stryker disables a mutator's replacements together
      if (entry.expiresAt + this.retainMs > now) break;
      this.entries.delete(id);
    }
  }
}
