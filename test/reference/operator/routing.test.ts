// Routing (spec §4.2, §4.3; PROFILE.md §11, §12): every route, 405 with Allow for a
// wrong method, 404 NOT_FOUND for an unknown path.
import { describe, expect, it } from 'vitest';
import { newUuid } from '../../../profile/index.ts';
import { createFixture, expectProblem } from './fixture.ts';

describe('routing', () => {
  it.each([
    ['GET', '/v1/cashpack/issue', 'POST'],
    ['PUT', '/v1/cashpack/renew', 'POST'],
    ['GET', '/v1/cashpack/redeem', 'POST'],
    ['POST', `/v1/cashpack/${newUuid()}/status`, 'GET'],
    ['DELETE', '/.well-known/cashpack-policy.json', 'GET, HEAD'],
    ['GET', '/_control/operator/principals', 'POST'],
    ['GET', '/_control/operator/redeemers', 'POST'],
    ['PATCH', '/_control/operator/staff', 'POST'],
    ['GET', `/_control/operator/packs/${newUuid()}/cancel`, 'POST'],
    ['POST', '/_control/operator/principals/abc/balance', 'GET'],
    ['DELETE', '/_control/operator/redeemers/abc/balance', 'GET'],
  ])('%s %s → 405, Allow: %s', async (method, path, allow) => {
    const f = createFixture();
    const reply = await f.send(method, path);
    expectProblem(reply, 'METHOD_NOT_ALLOWED');
    expect(reply.headers.allow).toBe(allow);
  });

  it.each([
    '/v1/cashpack/',
    '/v1/cashpack/issue/extra',
    '/v1/cashpack/transfer',
    '/v1/cashpack//status',
    '/v2/cashpack/issue',
    '/.well-known/cashpack-other.json',
    '/_control/operator/',
    '/_control/operator/packs',
    '/',
  ])('%s → 404 NOT_FOUND', async (path) => {
    const f = createFixture();
    expectProblem(await f.send('GET', path), 'NOT_FOUND');
  });

  it('says which paths it owns, for a composite server', () => {
    const f = createFixture();
    expect(['/v1/cashpack/issue', '/.well-known/cashpack-pubkey.json', '/_control/operator/staff'].map(f.operator.handles)).toEqual([true, true, true]);
    expect(['/cpr/abc', '/_control/clock', '/.well-known/other'].map(f.operator.handles)).toEqual([false, false, false]);
  });
});
