// PROP-PAYEE-013, a request's and its token's lifetimes at moments drawn from
// the payee's own instants: it holds against the reference (which forgets a
// token a lifetime after it expired and a request a validity period after its
// expires_at, as PROFILE.md §10 and §12 allow), and fails, under the rule whose
// answer was wrong, against a payee that serves a token at its expiry instant,
// one that never lets it expire, one that refuses a request once its token
// lapsed, one that fulfils a request at its expires_at, one that forgets an
// expired request a token lifetime after it, not a validity period, and one that
// counts a read of a request through its token as its fulfilment, one that
// judges a token's lifetime in whole seconds, one that reopens a fulfilled
// request when its token is served, and one that judges a token's expiry at the
// latest instant it has seen (its clock set back).
import { describe, expect, it } from 'vitest';
import { executeProperty } from '../../../harness/properties/execute.ts';
import { PAYEE_LIFETIMES } from '../../../harness/properties/payee-lifetimes.ts';
import { scenarioTarget } from '../../../harness/runner/scenario-target.ts';
import { embeddedTarget } from '../../../harness/target/target.ts';

// A seed whose twelve cases reach each fault below (a moment at a request's expires_at, one between the two ends of what a payee must remember, a request read before its moment, a case set back).
const options = { seed: 7, runs: 12, levelOf: () => 'MUST' as const, rerun: () => '' };

describe('PROP-PAYEE-013 (a request and its token, each its own lifetime)', () => {
  it.each<[string, 'passed' | 'failed', readonly string[]]>([
    ['the reference', 'passed', []],
    ['payee-token-expiry-instant-served', 'failed', ['TOK-EXP-1']],
    ['payee-token-never-expires', 'failed', ['TOK-EXP-1']],
    ['payee-fulfil-on-token-window', 'failed', ['PRF-CTL-1']],
    ['payee-fulfil-at-expiry', 'failed', ['PRF-CTL-1']],
    ['payee-request-retention-token-lifetime', 'failed', ['PRF-CTL-1']],
    // The first fulfilment refused as consumed: the profile's fulfil row and the spec's "consumed after fulfilment".
    ['payee-read-consumes-request', 'failed', ['PRF-CTL-1', 'DRV-SINGLE-1']],
    // Refused TOKEN_EXPIRED from the whole second its lifetime ends in: a live token refused.
    ['payee-token-expiry-whole-second', 'failed', ['TOK-GET-1']],
    // A paid request fulfilled once more after its token was served: granted, where it stays consumed.
    ['payee-retrieval-reopens-request', 'failed', ['PRF-CTL-1', 'DRV-SINGLE-1']],
    // A case set back: its tokens refused TOKEN_EXPIRED at once.
    ['payee-token-expiry-clock-never-back', 'failed', ['TOK-GET-1']],
  ])('against %s: %s', async (mutant, status, requirements) => {
    const target = await embeddedTarget(mutant === 'the reference' ? {} : { reference: { mutant } });
    try {
      const result = await executeProperty(PAYEE_LIFETIMES, scenarioTarget(target), options);
      expect(result.status, result.reason).toBe(status);
      expect([...new Set(result.checks.filter((c) => !c.passed).map((c) => c.requirement))]).toEqual(requirements);
    } finally {
      await target.close();
    }
  });

  // The early forgetting shows only at a moment between a token lifetime and a validity period after a request's
  // expires_at, and only once the reference's prune (in the order it made its requests, stopping at the first it
  // keeps) has reached the request: each case starts after the one before, as a clock in service runs, so that a
  // request made earlier with the clock set later does not hold the prune back. Seeds 5 and 9 reach such a moment too.
  it.each([5, 9])('a payee that forgets a request a token lifetime after it expired is caught with seed %i', async (seed) => {
    const target = await embeddedTarget({ reference: { mutant: 'payee-request-retention-token-lifetime' } });
    try {
      const result = await executeProperty(PAYEE_LIFETIMES, scenarioTarget(target), { ...options, seed });
      expect(result.status, result.reason).toBe('failed');
      expect([...new Set(result.checks.filter((c) => !c.passed).map((c) => c.requirement))]).toEqual(['PRF-CTL-1']);
    } finally {
      await target.close();
    }
  });
});
