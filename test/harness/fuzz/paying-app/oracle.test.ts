// The paying-app fuzzer's oracle (harness/fuzz/paying-app/oracle.ts): the
// profile's validator decides what a document is, and the channel and the
// stand-in payee's answer decide what comes before it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expiredCopy, FAR_AHEAD } from '../../../../harness/fuzz/paying-app/execute.ts';
import { documentOutcomes, expectDerive, expectRead, type Expectation } from '../../../../harness/fuzz/paying-app/oracle.ts';
import type { Encoding, Serving } from '../../../../harness/fuzz/paying-app/spec.ts';
import { brokenCpr, validCpr } from '../../../../generators/index.ts';
import { identifySubInterface, type Cpr } from '../../../../profile/cpr/index.ts';

const NOW = Date.UTC(2030, 0, 1);
const valid = fc.sample(validCpr({ now: FAR_AHEAD }), { numRuns: 20, seed: 7 });
const broken = fc.sample(brokenCpr({ now: FAR_AHEAD }), { numRuns: 40, seed: 7 });

const outcomes = (e: Expectation) => e.map((o) => (o.kind === 'accept' ? 'accept' : o.code));

function read(doc: unknown, channel: 'json' | 'file' | 'qr', encoding: Encoding, serving?: Serving, plaintext?: true): Expectation {
  const command = { doc: { valid: doc }, channel, encoding, ...(serving ? { serving, endpoint: { host: '127.0.0.1' as const, basePath: '', ...(plaintext ? { plaintext } : {}) } } : {}) };
  return expectRead(command, doc, undefined, NOW);
}

describe('the paying-app oracle', () => {
  it('accepts exactly the valid, unexpired documents', () => {
    for (const doc of valid) {
      expect(outcomes(documentOutcomes(doc, 'object', NOW))).toEqual(['accept']);
      expect(outcomes(documentOutcomes(expiredCopy(doc), 'object', NOW))).toEqual(['CPR_EXPIRED']);
    }
  });

  it('rejects a document broken in one rule naming that rule among the violations, or its version first', () => {
    for (const { cpr, rule } of broken) {
      const [first] = documentOutcomes(cpr, 'object', NOW, rule);
      expect(first.kind, rule).toBe('reject');
      if (first.code === 'CPR_VERSION_UNSUPPORTED') continue;
      expect(first.code, rule).toBe('CPR_INVALID');
      expect(first.violations, rule).toContain(rule);
    }
  });

  it('takes bytes that are not I-JSON for CPR_INVALID (PRF-JSON-1), and a file over the bound for RETRIEVAL_FAILED', () => {
    const doc = valid[0];
    for (const encoding of ['bom', 'duplicate-member', 'not-json'] as const) expect(read(doc, 'json', encoding)[0]).toMatchObject({ code: 'CPR_INVALID', violations: ['PRF-JSON-1'] });
    expect(outcomes(read(doc, 'json', 'escaped-names'))).toEqual(['accept']);
    expect(outcomes(read(doc, 'file', 'at-limit'))).toEqual(['accept']);
    expect(outcomes(read(doc, 'file', 'over-limit'))).toEqual(['RETRIEVAL_FAILED']);
  });

  it('judges a retrieval by what the stand-in payee answered before the document', () => {
    const doc = valid[0];
    expect(outcomes(read(doc, 'qr', 'plain', 'ok'))).toEqual(['accept']);
    expect(outcomes(read(doc, 'qr', 'plain', { mediaType: 'Application/JSON; charset=utf-8' }))).toEqual(['accept']);
    expect(outcomes(read(doc, 'qr', 'plain', 'chunked'))).toEqual(['accept']);
    expect(outcomes(read(doc, 'qr', 'plain', { redirect: 302 }))).toEqual(['RETRIEVAL_FAILED']);
    expect(outcomes(read(doc, 'qr', 'plain', { status: 503 }))).toEqual(['RETRIEVAL_FAILED']);
    expect(outcomes(read(doc, 'qr', 'over-limit', 'chunked'))).toEqual(['RETRIEVAL_FAILED']);
    expect(outcomes(read(doc, 'qr', 'plain', 'ok', true))).toEqual(['URI_INVALID']);
    // What the profile leaves open: either answer is right.
    expect(outcomes(read(doc, 'qr', 'plain', { otherType: 'text/plain' }))).toEqual(['accept', 'RETRIEVAL_FAILED']);
    expect(outcomes(read(doc, 'qr', 'plain', 'slow'))).toEqual(['accept', 'RETRIEVAL_FAILED']);
  });

  it('derives a Payment with the amount and asset of the CPR, or refuses a partial payment', () => {
    const doc = valid.find((d) => d.value.amount !== undefined) as Cpr;
    const sub = identifySubInterface(doc.payee.rail_address as unknown as Record<string, unknown>, doc.rail_hint)!;
    const context = { payer: { id: 'p' }, rail: 'card', authorization: { token: 't' } };
    const derived = expectDerive(doc, sub, { ...context, payer_amount: doc.value.amount! }, NOW);
    expect(outcomes(derived.expected)).toEqual(['accept']);
    expect(derived.payment).toMatchObject({ amount: doc.value.amount, asset: doc.value.asset, request_id: doc.request_id, payee: doc.payee });
    expect(outcomes(expectDerive(doc, sub, { ...context, payer_amount: `${doc.value.amount}0` }, NOW).expected)).toEqual(['PARTIAL_PAYMENT_UNSUPPORTED']);
  });
});
