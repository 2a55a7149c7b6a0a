// Retrieval tokens, spec §5.1 and PROFILE.md §10: at least 128 random bits in
// lower-case hex, single use, expiring after the payee's lifetime. The
// check-and-consume is synchronous, so of concurrent retrievals exactly one wins.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Cpr } from '../../profile/cpr/index.ts';
import type { Faults } from '../mutants.ts';

export type TokenFailure = 'TOKEN_UNKNOWN' | 'TOKEN_CONSUMED' | 'TOKEN_EXPIRED';
export type TakeResult = { readonly ok: true; readonly cpr: Cpr } | { readonly ok: false; readonly code: TokenFailure };

interface Entry {
  readonly cpr: Cpr;
  readonly expiresAt: number;
  consumed: boolean;
  /** Only with the mutant payee-deep-link-token-reusable: never consumed. */
  readonly reusable?: boolean;
}

const TOKEN_BYTES = 16;

export class TokenStore {
  // Insertion order is issue order, so expired entries sit at the front.
  private readonly entries = new Map<string, Entry>();
  /** Only with the mutant payee-used-token-forgotten-from-use: when each used token was used. */
  private readonly usedAt = new Map<string, number>();
  /** Only with the mutant payee-plaintext-unknown-token-denied: every string presented in the clear, issued or not. */
  private readonly denied = new Set<string>();
  /** Only with the mutant payee-token-expiry-clock-never-back: the latest instant a token was judged at. */
  private latest = Number.NEGATIVE_INFINITY;

  /**
   * @param lifetimeMs how long a token can be used
   * @param retainMs how long after expiry a token is still recognised, so that it
   *   answers TOKEN_EXPIRED / TOKEN_CONSUMED rather than TOKEN_UNKNOWN; after that
   *   it is pruned, which keeps the store bounded (PROFILE.md §10: at least a
   *   token lifetime)
   * @param faults the fault switched on, if any (reference/mutants.ts)
   */
  constructor(
    private readonly lifetimeMs: number,
    private readonly retainMs: number,
    private readonly faults: Faults,
  ) {}

  issue(cpr: Cpr, now: number, reusable = false): { readonly token: string; readonly expiresAt: number } {
    this.prune(now);
    // Mutant payee-token-from-request-id: the token is a hash of the request_id, which anyone who sees an invoice knows.
    // Mutant payee-token-from-uuid: the token is a UUIDv4 without its hyphens, 122 random bits and six fixed ones.
    const token = this.faults.has('payee-token-from-request-id') ? createHash('sha256').update(cpr.request_id).digest('hex').slice(0, 2 * TOKEN_BYTES)
      : this.faults.has('payee-token-from-uuid') ? randomUUID().replaceAll('-', '')
      : randomBytes(TOKEN_BYTES).toString('hex');
    const expiresAt = now + this.lifetimeMs;
    this.entries.set(token, { cpr, expiresAt, consumed: false, ...(reusable ? { reusable } : {}) });
    return { token, expiresAt };
  }

  /** The one place a token is checked and consumed (spec §5.1.2-3). */
  take(token: string, now: number): TakeResult {
    const result = this.peek(token, now);
    // Mutant payee-token-burned-on-refusal: a refusal consumes the token as well.
    const consumes = result.ok || this.faults.has('payee-token-burned-on-refusal');
    // Mutant payee-token-with-memo-reusable: a token whose CPR carries a memo is never consumed.
    const memoKept = this.faults.has('payee-token-with-memo-reusable') && result.ok && result.cpr.memo !== undefined;
    // Mutant payee-token-with-extensions-reusable: a token whose CPR carries extensions is never consumed.
    const extensionsKept = this.faults.has('payee-token-with-extensions-reusable') && result.ok && result.cpr.extensions !== undefined;
    // Stryker disable next-line OptionalChaining: outside the hand-made faults a token is consumed only when it was found (result.ok)
    if (consumes && !memoKept && !extensionsKept && !this.faults.has('payee-token-reusable') && !this.entries.get(this.key(token))?.reusable) this.burn(token); // mutant: never consumed
    // Stryker disable next-line all: only the payee-used-token-forgotten-from-use fault notes when a token was used
    if (this.faults.has('payee-used-token-forgotten-from-use') && result.ok) this.usedAt.set(this.key(token), now);
    return result;
  }

  /** What a retrieval would get now, without consuming the token. */
  peek(token: string, now: number): TakeResult {
    this.prune(now);
    // Mutant payee-token-expiry-clock-never-back: expiry judged at the latest instant the store has seen, so that a clock set back brings no token back, nor lets a new one live.
    // Stryker disable next-line all: only the payee-token-expiry-clock-never-back fault keeps the latest instant
    if (this.faults.has('payee-token-expiry-clock-never-back')) now = this.latest = Math.max(this.latest, now);
    const entry = this.entries.get(this.key(token));
    // Mutant payee-token-store-plain-object: the store looked up as a plain object, which has constructor, __proto__, toString... of its own: such a name is served, an empty document.
    // Stryker disable next-line all: only the payee-token-store-plain-object fault finds a name no token has
    if (!entry && this.faults.has('payee-token-store-plain-object') && this.key(token) in {}) return { ok: true, cpr: {} as Cpr };
    // Mutant payee-plaintext-unknown-token-denied: a string never issued but once sent in the clear is answered as used.
    // Stryker disable next-line all: only the payee-plaintext-unknown-token-denied fault keeps a deny-list
    if (!entry && this.faults.has('payee-plaintext-unknown-token-denied') && this.denied.has(this.key(token))) return { ok: false, code: 'TOKEN_CONSUMED' };
    if (!entry) return { ok: false, code: 'TOKEN_UNKNOWN' };
    // Stryker disable next-line all: only the payee-used-token-forgotten-from-use fault forgets a used token a lifetime after its use
    if (this.faults.has('payee-used-token-forgotten-from-use') && this.forgottenSinceUse(token, now)) return { ok: false, code: 'TOKEN_UNKNOWN' };
    if (entry.consumed) return { ok: false, code: 'TOKEN_CONSUMED' };
    // Mutant payee-token-lifetime-capped-15-minutes: a token lives at most 900 s (spec §5.1.1's recommended bound), whatever lifetime is configured and reported.
    // Stryker disable next-line all: only the payee-token-lifetime-capped-15-minutes fault caps the lifetime
    if (this.faults.has('payee-token-lifetime-capped-15-minutes') && now >= entry.expiresAt - this.lifetimeMs + 900_000) return { ok: false, code: 'TOKEN_EXPIRED' };
    // Mutant payee-token-capped-at-request-expiry: a token never outlives the request it delivers, refused TOKEN_EXPIRED once the request has expired.
    // Stryker disable next-line all: only the payee-token-capped-at-request-expiry fault ends a token with its request
    if (this.faults.has('payee-token-capped-at-request-expiry') && now >= Date.parse(entry.cpr.expires_at)) return { ok: false, code: 'TOKEN_EXPIRED' };
    // Mutant payee-token-expiry-whole-second: the lifetime judged in whole seconds, as a store with a TTL in seconds keeps it.
    // Stryker disable next-line all: only the payee-token-expiry-whole-second fault counts whole seconds
    if (this.faults.has('payee-token-expiry-whole-second') && Math.floor(now / 1000) >= Math.floor(entry.expiresAt / 1000)) return { ok: false, code: 'TOKEN_EXPIRED' };
    // Mutant payee-token-lifetime-fixed: the store's own 300 s, whatever lifetime the payee is configured with and reports.
    // Stryker disable next-line all: only the payee-token-lifetime-fixed fault reads the fixed lifetime
    if (this.faults.has('payee-token-lifetime-fixed') && now >= entry.expiresAt - this.lifetimeMs + 300_000) return { ok: false, code: 'TOKEN_EXPIRED' };
    // Mutant payee-token-never-expires: the lifetime is never checked.
    if (now >= entry.expiresAt && !this.faults.has('payee-token-never-expires')) return { ok: false, code: 'TOKEN_EXPIRED' };
    return { ok: true, cpr: entry.cpr };
  }

  // Stryker disable all: only the payee-used-token-forgotten-from-use fault calls this function
  /** Mutant payee-used-token-forgotten-from-use: a used token's memory counted from its use, not from its expiry. */
  private forgottenSinceUse(token: string, now: number): boolean {
    const used = this.usedAt.get(this.key(token));
    return used !== undefined && now >= used + this.retainMs;
  }
  // Stryker restore all

  /** Invalidates a token that travelled in the clear (PROFILE.md §10). */
  burn(token: string): void {
    // Stryker disable next-line all: only the payee-plaintext-unknown-token-denied fault keeps a deny-list
    if (this.faults.has('payee-plaintext-unknown-token-denied')) this.denied.add(this.key(token));
    const entry = this.entries.get(this.key(token));
    if (entry) entry.consumed = true;
  }

  // Stryker disable all: only the payee-fulfil-forgets-token fault calls this method
  /** Mutant payee-fulfil-forgets-token: the tokens issued for a request dropped. */
  forgetRequest(requestId: string): void {
    for (const [token, entry] of this.entries) if (entry.cpr.request_id === requestId) this.entries.delete(token);
  }
  // Stryker restore all

  /** The store's key for a presented token (mutant payee-token-prefix-match: its first 32 characters). */
  private key(token: string): string {
    return this.faults.has('payee-token-prefix-match') ? token.slice(0, 2 * TOKEN_BYTES) : token;
  }

  get size(): number {
    return this.entries.size;
  }

  // Stryker disable next-line BlockStatement: never pruning keeps an expired token known longer (TOKEN_EXPIRED rather than TOKEN_UNKNOWN, PROFILE.md §10 allows either a lifetime after it expired); only memory changes
  private prune(now: number): void {
    // Stryker disable next-line BlockStatement: pruning nothing keeps expired entries known longer, as the prune's own disable says
    for (const [token, entry] of this.entries) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: true and >= keep an expired token known longer (never forgotten, or a millisecond more), which PROFILE.md §10 allows; false and <= forget one still to be known (PROP-PAYEE-013 sees it), disabled with them as Stryker disables a mutator's replacements together
      if (entry.expiresAt + this.retainMs > now) break;
      this.entries.delete(token);
    }
  }
}
