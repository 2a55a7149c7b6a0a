// PROP-PAYEE-013, a request's and its token's lifetimes at moments drawn from
// the payee's own instants: it holds against the reference (which forgets a
// token a lifetime after it expired and a request a validity period after its
// expires_at, as PROFILE.md §10 and §12 allow), and fails, under the rule whose
// answer was wrong, against a payee that serves a token at its expiry instant,
// one that never lets it expire, one that refuses a request once its token
// lapsed and one that fulfils a request at its expires_at.
import { describe, expect, it } from 'vitest';
import { executeProperty } from '../../../harness/properties/execute.ts';
import { PAYEE_LIFETIMES } from '../../../harness/properties/payee-lifetimes.ts';
import { scenarioTarget } from '../../../harness/runner/scenario-target.ts';
import { embeddedTarget } from '../../../harness/target/target.ts';

const options = { seed: 20261127, runs: 12, levelOf: () => 'MUST' as const, rerun: () => '' };

describe('PROP-PAYEE-013 (a request and its token, each its own lifetime)', () => {
  it.each<[string, 'passed' | 'failed', string | undefined]>([
    ['the reference', 'passed', undefined],
    ['payee-token-expiry-instant-served', 'failed', 'TOK-EXP-1'],
    ['payee-token-never-expires', 'failed', 'TOK-EXP-1'],
    ['payee-fulfil-on-token-window', 'failed', 'PRF-CTL-1'],
    ['payee-fulfil-at-expiry', 'failed', 'PRF-CTL-1'],
  ])('against %s: %s', async (mutant, status, requirement) => {
    const target = await embeddedTarget(mutant === 'the reference' ? {} : { reference: { mutant } });
    try {
      const result = await executeProperty(PAYEE_LIFETIMES, scenarioTarget(target), options);
      expect(result.status, result.reason).toBe(status);
      if (requirement !== undefined) expect([...new Set(result.checks.filter((c) => !c.passed).map((c) => c.requirement))]).toEqual([requirement]);
    } finally {
      await target.close();
    }
  });
});
