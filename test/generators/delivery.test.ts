// Delivery URIs (generators/delivery.ts): valid ones parse back to what was put in;
// malformed ones are rejected as labelled.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELIVERY_DEFECTS, deepLink, inlineUri, qrUri, type MalformedDelivery } from '../../generators/index.ts';
import { MAX_INLINE_URI_BYTES, buildQrUri, parseDeliveryUri, validateCpr } from '../../profile/cpr/index.ts';
import { parseIJson } from '../../profile/index.ts';

const SEED = 20260103;
const RUNS = { seed: SEED, numRuns: 200 };

function expectRejectedAsLabelled(d: MalformedDelivery): void {
  const parsed = parseDeliveryUri(d.uri);
  if (d.expected.stage === 'uri') {
    expect(parsed, `${d.defect}: ${d.description}`).toMatchObject({ kind: 'error', code: 'URI_INVALID' });
    return;
  }
  // The URI is well formed; its payload is not I-JSON.
  expect(parsed.kind, `${d.defect}: ${d.description}`).toBe('inline');
  if (parsed.kind === 'inline') expect(() => parseIJson(parsed.json), d.description).toThrow();
}

describe('qrUri', () => {
  it('round-trips through parseDeliveryUri and equals buildQrUri', () => {
    fc.assert(
      fc.property(qrUri(), (d) => {
        expect(parseDeliveryUri(d.uri)).toEqual({ kind: 'token', token: d.token, endpoint: d.endpoint });
        expect(d.uri).toBe(buildQrUri(d.token, d.endpoint));
      }),
      RUNS,
    );
  });

  it('with malformed: true, is rejected as labelled', () => {
    fc.assert(fc.property(qrUri({ malformed: true }), expectRejectedAsLabelled), RUNS);
  });
});

describe('deepLink', () => {
  it('round-trips through parseDeliveryUri, extra parameters ignored', () => {
    fc.assert(fc.property(deepLink(), (d) => void expect(parseDeliveryUri(d.uri)).toEqual({ kind: 'token', token: d.token, endpoint: d.endpoint })), RUNS);
  });

  it('sometimes carries other query parameters', () => {
    expect(fc.sample(deepLink(), { seed: SEED, numRuns: 100 }).some((d) => d.uri.split('?')[1]!.includes('&'))).toBe(true);
  });

  it('with malformed: true, is rejected as labelled', () => {
    fc.assert(fc.property(deepLink({ malformed: true }), expectRejectedAsLabelled), RUNS);
  });
});

describe('inlineUri', () => {
  it('decodes to the JSON of a valid CPR, within 2 048 bytes', () => {
    fc.assert(
      fc.property(inlineUri(), (d) => {
        expect(new TextEncoder().encode(d.uri).length).toBeLessThanOrEqual(MAX_INLINE_URI_BYTES);
        const parsed = parseDeliveryUri(d.uri);
        expect(parsed).toEqual({ kind: 'inline', json: d.json });
        const doc = parseIJson(d.json);
        expect(doc).toEqual(d.cpr);
        expect(validateCpr(doc)).toMatchObject({ ok: true });
      }),
      RUNS,
    );
  });

  it('with malformed: true, is rejected as labelled', () => {
    fc.assert(fc.property(inlineUri({ malformed: true }), expectRejectedAsLabelled), RUNS);
  });
});

describe('malformed delivery URIs', () => {
  it('reach every defect', () => {
    const seen = new Set<string>();
    for (const arb of [qrUri({ malformed: true }), deepLink({ malformed: true }), inlineUri({ malformed: true })]) {
      for (const d of fc.sample(arb, { seed: SEED, numRuns: 300 })) seen.add(d.defect);
    }
    expect(DELIVERY_DEFECTS.filter((d) => !seen.has(d))).toEqual([]);
  });

  it('name a requirement and, for inline JSON defects, CPR_INVALID under PRF-JSON-1', () => {
    for (const d of fc.sample(inlineUri({ malformed: true }), { seed: SEED, numRuns: 200 })) {
      if (d.defect === 'inline:bad-json') expect(d.expected).toEqual({ stage: 'json', code: 'CPR_INVALID', requirement: 'PRF-JSON-1' });
      else expect(d.expected).toEqual({ stage: 'uri', code: 'URI_INVALID', requirement: 'PRF-INLINE-1' });
    }
  });
});

describe('delivery constraints', () => {
  it('throw a RangeError naming malformed for a non-boolean', () => {
    expect(() => qrUri({ malformed: 'yes' as unknown as boolean })).toThrow(/malformed/);
    expect(() => deepLink({ malformed: 1 as unknown as boolean })).toThrow(RangeError);
    expect(() => inlineUri({ malformed: null as unknown as boolean })).toThrow(RangeError);
  });

  it('pass the CPR constraints through to the embedded CPR', () => {
    expect(() => inlineUri({ cpr: { maxMemoCodePoints: 500 } })).toThrow(/maxMemoCodePoints/);
    fc.assert(fc.property(inlineUri({ cpr: { subInterface: 'IBAN' } }), (d) => void expect(d.cpr.payee.rail_address.iban).toBeDefined()), { seed: SEED, numRuns: 50 });
  });

  it('are deterministic by seed', () => {
    for (const arb of [qrUri(), deepLink(), inlineUri(), inlineUri({ malformed: true })] as fc.Arbitrary<unknown>[]) {
      expect(fc.sample(arb, { seed: 11, numRuns: 5 })).toEqual(fc.sample(arb, { seed: 11, numRuns: 5 }));
    }
  });
});
