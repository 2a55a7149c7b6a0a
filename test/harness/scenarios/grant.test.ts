// The grant of an operation (actions/cashpack.ts grantedOperation,
// grantedOtherwise): which steps send an issue, a renewal or a redemption, and
// which answers granted one with another success status than 200.
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
});
