// malformedBody (generators/malformed-body.ts): each body is rejected at the layer
// its label names, and the reference Operator answers with the labelled status.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MALFORMED_KINDS, malformedBody, type MalformedBody, type MalformedBodyConstraints } from '../../generators/index.ts';
import { PROBLEM_STATUS, parseIJson } from '../../profile/index.ts';
import { validateMessage } from '../../profile/cashpack/index.ts';
import { Clock } from '../../reference/clock.ts';
import { createOperator } from '../../reference/operator/index.ts';

const SEED = 20260105;
const RUNS = { seed: SEED, numRuns: 150 };
const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

function parses(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseIJson(bytes) };
  } catch {
    return { ok: false };
  }
}

function expectRejectedAtItsLayer(b: MalformedBody, maxBodyBytes = 65_536): void {
  const why = `${b.kind}: ${b.description}`;
  const parsed = parses(b.bytes);
  expect(PROBLEM_STATUS[b.code]).toBe(b.expectedStatus);
  if (b.bytes.length > maxBodyBytes) {
    // The size is judged before anything is read (PROFILE.md §5 step 1), whatever else the body breaks.
    expect(b, why).toMatchObject({ layer: 'http', expectedStatus: 413, code: 'PAYLOAD_TOO_LARGE', requirement: 'PRF-HTTP-1' });
    return;
  }
  expect(b.kind, why).not.toBe('oversize');
  if (b.kind !== 'wrong-content-type') expect(b.contentType, why).toMatch(JSON_MEDIA_TYPE);
  switch (b.layer) {
    case 'json':
      expect(parsed.ok, why).toBe(false);
      expect(b).toMatchObject({ expectedStatus: 400, code: 'MALFORMED_REQUEST', requirement: 'PRF-JSON-1' });
      break;
    case 'schema':
      // Valid I-JSON of the wrong shape: the message schema rejects it.
      expect(parsed.ok, why).toBe(true);
      if (parsed.ok) expect(validateMessage(b.message, parsed.value).ok, why).toBe(false);
      expect(b).toMatchObject({ expectedStatus: 400, code: 'MALFORMED_REQUEST', requirement: 'PRF-MSG-1' });
      break;
    case 'http':
      // Otherwise a valid message: only the size or the media type is wrong.
      expect(parsed.ok, why).toBe(true);
      if (parsed.ok) expect(validateMessage(b.message, parsed.value), why).toEqual({ ok: true });
      if (b.kind === 'oversize') {
        expect(b.bytes.length).toBeGreaterThan(maxBodyBytes);
        expect(b).toMatchObject({ expectedStatus: 413, code: 'PAYLOAD_TOO_LARGE' });
      } else {
        expect(b.contentType).not.toMatch(JSON_MEDIA_TYPE);
        expect(b).toMatchObject({ expectedStatus: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      }
      break;
  }
}

const PATHS = { 'lock-request': '/v1/cashpack/issue', 'renew-request': '/v1/cashpack/renew', 'redeem-request': '/v1/cashpack/redeem' } as const;

function frozenClock(): Clock {
  const clock = new Clock();
  clock.freeze(Date.UTC(2026, 0, 1));
  return clock;
}

describe('malformedBody', () => {
  it.each(['lock-request', 'renew-request', 'redeem-request'] as const)('is rejected at the layer its label names (%s)', (message) => {
    fc.assert(fc.property(malformedBody({ message }), (b) => expectRejectedAtItsLayer(b)), { seed: SEED, numRuns: message === 'lock-request' ? 150 : 40 });
  });

  // Every limit a policy may set, the smallest included: what no longer fits expects 413, the rest its own layer.
  it.each([1, 100, 1024, 4096, 8192])('serves a body limit of %i bytes', (maxBodyBytes) => {
    const sample = fc.sample(malformedBody({ maxBodyBytes }), { seed: SEED, numRuns: 200 });
    for (const b of sample) expectRejectedAtItsLayer(b, maxBodyBytes);
    expect(sample.some((b) => b.bytes.length > maxBodyBytes)).toBe(true);
    if (maxBodyBytes >= 4096) expect(new Set(sample.filter((b) => b.bytes.length <= maxBodyBytes).map((b) => b.layer))).toEqual(new Set(['http', 'json', 'schema']));
    const operator = createOperator({ clock: frozenClock(), control: false, policy: { max_body_bytes: maxBodyBytes } });
    for (const b of sample.slice(0, 60)) {
      const response = operator.handler({ method: 'POST', path: PATHS[b.message], query: new URLSearchParams(), headers: { 'content-type': b.contentType }, body: b.bytes, authority: 'operator.test', secure: true });
      expect([response.status, (response.body as { code?: string }).code], `${b.kind}: ${b.description}`).toEqual([b.expectedStatus, b.code]);
    }
  });

  it('reaches every kind, deep nesting from 33 to 200 levels, invalid UTF-8 and 1e400', () => {
    const sample = fc.sample(malformedBody(), { seed: SEED, numRuns: 300 });
    expect(MALFORMED_KINDS.filter((k) => !sample.some((b) => b.kind === k))).toEqual([]);
    const depths = sample.filter((b) => b.kind === 'deep-nesting').map((b) => Number(/depth (\d+)/.exec(b.description)![1]));
    expect(Math.min(...depths)).toBeGreaterThanOrEqual(33);
    expect(Math.max(...depths)).toBeLessThanOrEqual(200);
  });

  it('gets exactly the labelled status from the reference Operator', () => {
    const operator = createOperator({ clock: frozenClock(), control: false });
    const paths = PATHS;
    fc.assert(
      fc.property(malformedBody({ message: 'lock-request' }), (b) => {
        const response = operator.handler({
          method: 'POST',
          path: paths[b.message],
          query: new URLSearchParams(),
          headers: { 'content-type': b.contentType },
          body: b.bytes,
          authority: 'operator.test',
          secure: true,
        });
        expect(response.status, `${b.kind}: ${b.description}`).toBe(b.expectedStatus);
        expect((response.body as { code?: string }).code).toBe(b.code);
      }),
      RUNS,
    );
  });

  it.each<[string, MalformedBodyConstraints]>([
    ['message', { message: 'status' as 'lock-request' }],
    ['maxBodyBytes', { maxBodyBytes: 0 }],
    ['maxBodyBytes', { maxBodyBytes: 16_777_217 }],
    ['maxBodyBytes', { maxBodyBytes: 65_536.5 }],
    ['kinds', { kinds: [] }],
    ['kinds', { kinds: ['xml' as 'empty'] }],
  ])('throws a RangeError naming %s for a bad constraint', (name, constraints) => {
    expect(() => malformedBody(constraints)).toThrow(RangeError);
    expect(() => malformedBody(constraints)).toThrow(name);
  });

  it('restricts itself to constraints.kinds', () => {
    for (const b of fc.sample(malformedBody({ kinds: ['empty', 'bom'] }), { seed: SEED, numRuns: 30 })) expect(['empty', 'bom']).toContain(b.kind);
  });

  it('is deterministic by seed', () => {
    const a = fc.sample(malformedBody(), { seed: 3, numRuns: 10 });
    expect(fc.sample(malformedBody(), { seed: 3, numRuns: 10 })).toEqual(a);
  });
});
