// The grant of an operation (actions/cashpack.ts grantedOperation,
// grantedOtherwise): which steps send an issue, a renewal or a redemption, and
// which answers granted one with another success status than 200.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRANT_REQUIREMENTS, grantedOperation, grantedOtherwise } from '../../../harness/scenarios/actions/index.ts';

describe('grantedOperation', () => {
  it('names the operation of a step by its action, its parallel members or the endpoint it POSTs to', () => {
    expect(grantedOperation('issue', {})).toBe('issue');
    expect(grantedOperation('renew', {})).toBe('renew');
    expect(grantedOperation('redeem', {})).toBe('redeem');
    expect(grantedOperation('parallel', { of: { do: 'redeem' } })).toBe('redeem');
    expect(grantedOperation('parallel', { steps: [{ do: 'renew' }, { do: 'renew' }] })).toBe('renew');
    expect(grantedOperation('http', { method: 'POST', path: '/v1/cashpack/issue', json: {} })).toBe('issue');
    expect(grantedOperation('parallel', { method: 'POST', path: '/v1/cashpack/redeem' })).toBe('redeem');
  });

  it('names none for reads, other endpoints, mixed parallel steps and other actions', () => {
    expect(grantedOperation('status', {})).toBeUndefined();
    expect(grantedOperation('http', { method: 'GET', path: '/v1/cashpack/issue' })).toBeUndefined();
    expect(grantedOperation('http', { method: 'POST', path: '/_control/clock' })).toBeUndefined();
    expect(grantedOperation('parallel', { steps: [{ do: 'renew' }, { do: 'redeem' }] })).toBeUndefined();
    expect(grantedOperation('provision-principal', {})).toBeUndefined();
  });

  it('maps each operation to its rule', () => {
    expect(GRANT_REQUIREMENTS).toEqual({ issue: 'CPP-ISS-1', renew: 'CPP-RNW-1', redeem: 'CPP-RED-1' });
  });
});

describe('grantedOtherwise', () => {
  it('finds a grant answered with another 2xx status, alone or among a parallel step\'s answers', () => {
    expect(grantedOtherwise('issue', {}, { status: 201, body: {} })).toEqual({ operation: 'issue', expected: 200, actual: 201 });
    expect(grantedOtherwise('parallel', { of: { do: 'renew' } }, { responses: [{ status: 409 }, { status: 200 }, { status: 202 }] })).toEqual({ operation: 'renew', expected: 200, actual: 202 });
    expect(grantedOtherwise('http', { method: 'POST', path: '/v1/cashpack/redeem' }, { status: 204 })).toEqual({ operation: 'redeem', expected: 200, actual: 204 });
  });

  it('leaves 200, refusals, transport failures and other steps to the step\'s own checks', () => {
    expect(grantedOtherwise('issue', {}, { status: 200, body: {} })).toBeUndefined();
    expect(grantedOtherwise('issue', {}, { status: 400 })).toBeUndefined();
    expect(grantedOtherwise('issue', {}, { status: null })).toBeUndefined();
    expect(grantedOtherwise('parallel', { of: { do: 'issue' } }, { responses: [{ status: 200 }, { status: 409 }, { status: 500 }] })).toBeUndefined();
    expect(grantedOtherwise('status', {}, { status: 201 })).toBeUndefined();
  });

  it('over every status and every operation step, alone or among a parallel step\'s answers: found exactly for a 2xx other than 200, the first such', () => {
    const steps: [string, Record<string, unknown>, string][] = [
      ['issue', {}, 'issue'],
      ['renew', {}, 'renew'],
      ['redeem', {}, 'redeem'],
      ['parallel', { of: { do: 'renew' } }, 'renew'],
      ['parallel', { steps: [{ do: 'redeem' }, { do: 'redeem' }] }, 'redeem'],
      ['http', { method: 'POST', path: '/v1/cashpack/issue' }, 'issue'],
      ['parallel', { method: 'POST', path: '/v1/cashpack/renew' }, 'renew'],
    ];
    const status = fc.oneof(fc.integer({ min: 100, max: 599 }), fc.integer({ min: 200, max: 299 }), fc.constant(null));
    fc.assert(
      fc.property(fc.constantFrom(...steps), fc.array(status, { minLength: 1, maxLength: 6 }), fc.boolean(), ([action, params, operation], statuses, single) => {
        const answers = single ? statuses.slice(0, 1) : statuses;
        const result = single ? { status: answers[0] } : { responses: answers.map((s) => ({ status: s })) };
        const other = answers.find((s) => s !== null && s >= 200 && s < 300 && s !== 200);
        expect(grantedOtherwise(action, params, result)).toEqual(other === undefined ? undefined : { operation, expected: 200, actual: other });
        // A read, or a POST elsewhere, is never a grant, whatever it answered.
        expect(grantedOtherwise('status', {}, result)).toBeUndefined();
        expect(grantedOtherwise('http', { method: 'POST', path: '/_control/clock' }, result)).toBeUndefined();
      }),
      { seed: 9, numRuns: 400 },
    );
  });
});
