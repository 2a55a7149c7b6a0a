import { describe, expect, it } from 'vitest';
import { answerLine, answerOf } from '../../../harness/report/answer.ts';
import type { Exchange } from '../../../harness/report/model.ts';

const exchange = (step: string | undefined, status: number | undefined, body?: string, extra: Partial<Exchange> = {}): Exchange => ({
  ...(step === undefined ? {} : { step }),
  role: 'operator',
  request: { method: 'POST', url: 'https://op.example:8443/base/v1/cashpack/issue?x=1', headers: {} },
  ...(status === undefined ? { error: 'no complete response within 10000 ms (UND_ERR_HEADERS_TIMEOUT)' } : { response: { status, headers: {}, ...(body === undefined ? {} : { body }) } }),
  duration_ms: 3,
  ...extra,
});

describe('the answer a failed check judged', () => {
  it.each([
    ['a problem: status, code and detail', exchange('2', 422, JSON.stringify({ type: 'about:blank', code: 'AMOUNT_EXCEEDS_LIMIT', detail: 'amount 1000001 is above max_amount' })), 'POST /base/v1/cashpack/issue?x=1 answered 422, problem AMOUNT_EXCEEDS_LIMIT: amount 1000001 is above max_amount'],
    ['a problem without detail: its title', exchange('2', 403, JSON.stringify({ code: 'BEARER_MISMATCH', title: 'not the bearer' })), 'POST /base/v1/cashpack/issue?x=1 answered 403, problem BEARER_MISMATCH: not the bearer'],
    ['any other body: its start, on one line', exchange('2', 200, `{"pack_id":\n "${'a'.repeat(300)}"}`), `POST /base/v1/cashpack/issue?x=1 answered 200, body {"pack_id": "${'a'.repeat(187)}…`],
    ['no body', exchange('2', 500, ''), 'POST /base/v1/cashpack/issue?x=1 answered 500, an empty body'],
    ['no answer at all', exchange('2', undefined), 'POST /base/v1/cashpack/issue?x=1 got no answer: no complete response within 10000 ms (UND_ERR_HEADERS_TIMEOUT)'],
  ])('%s', (_name, e, line) => {
    expect(answerLine({ transcript: [e] }, { step: '2' })).toBe(line);
  });

  it("takes the last answer of the check's own step, and for a check without a step the test's last", () => {
    const transcript = [exchange('1', 200, '{}'), exchange('2', 201, '{"a":1}'), exchange('2', 409, JSON.stringify({ code: 'DUPLICATE_ID' })), exchange('3', 200, '{"b":2}')];
    expect(answerOf({ transcript }, { step: '2' })).toBe(transcript[2]);
    expect(answerOf({ transcript }, {})).toBe(transcript[3]);
    expect(answerOf({ transcript }, { step: '4' })).toBeUndefined();
    expect(answerLine({ transcript: [] })).toBeUndefined();
  });
});
