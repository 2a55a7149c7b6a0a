// Malformed input over real HTTP (PROFILE.md §1, §11, CPP-ERR-1): every endpoint
// answers a 4xx problem+json, never a 5xx, a crash or a hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { PROBLEM_CONTENT_TYPE, newUuid } from '../../../profile/index.ts';
import { validateMessage } from '../../../profile/cashpack/index.ts';
import { listen, type Listening } from '../../../reference/http/server.ts';
import { createFixture } from './fixture.ts';

let server: Listening;
let agent: Agent;

beforeAll(async () => {
  server = await listen(createFixture().operator.handler);
  agent = new Agent({ connections: 8 });
});

afterAll(async () => {
  await agent.close();
  await server.close();
});

const JSON_TYPE = { 'content-type': 'application/json' };

const ENDPOINTS: [method: string, path: string][] = [
  ['POST', '/v1/cashpack/issue'],
  ['POST', '/v1/cashpack/renew'],
  ['POST', '/v1/cashpack/redeem'],
  ['GET', `/v1/cashpack/${newUuid()}/status`],
  ['POST', '/_control/operator/principals'],
  ['POST', '/_control/operator/redeemers'],
  ['POST', '/_control/operator/staff'],
  ['POST', `/_control/operator/packs/${newUuid()}/cancel`],
];

const BODIES: [name: string, body: Uint8Array | string, headers: Record<string, string>][] = [
  ['bad JSON', '{"request_id": "x",', JSON_TYPE],
  ['invalid UTF-8', Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), JSON_TYPE],
  ['nesting 100 levels deep', `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`, JSON_TYPE],
  ['a 70 KB body', `{"pad":"${'x'.repeat(70_000)}"}`, JSON_TYPE],
  ['the wrong content type', '{}', { 'content-type': 'text/plain' }],
  ['a huge number', `{"amount":1e400,"n":${'9'.repeat(400)}}`, JSON_TYPE],
  ['a long integer', `{"amount":${'9'.repeat(400)}}`, JSON_TYPE],
  ['an empty body', '', JSON_TYPE],
  ['an empty object', '{}', JSON_TYPE],
  ['a string', '"hello"', JSON_TYPE],
  ['members of every wrong type', '{"cash_pack":1,"renewal":[],"redemption":null,"public_key":"k","asset":true,"balance":{}}', JSON_TYPE],
];

const CASES = ENDPOINTS.flatMap(([method, path]) => BODIES.map(([name, body, headers]) => [method, path, name, body, headers] as const));

describe('malformed input over HTTP', () => {
  it.each(CASES)('%s %s with %s → 4xx problem', async (method, path, _name, body, headers) => {
    const response = await request(`${server.url}${path}`, { method: method as 'POST', body, headers, dispatcher: agent });
    const text = await response.body.text();
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['content-type']).toBe(PROBLEM_CONTENT_TYPE);
    expect(validateMessage('problem', JSON.parse(text))).toEqual({ ok: true });
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a 70 KB body', async () => {
    const response = await request(`${server.url}/v1/cashpack/issue`, {
      method: 'POST',
      body: `{"pad":"${'x'.repeat(70_000)}"}`,
      headers: JSON_TYPE,
      dispatcher: agent,
    });
    expect(response.statusCode).toBe(413);
    expect(((await response.body.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('still serves a valid request afterwards', async () => {
    const response = await request(`${server.url}/.well-known/cashpack-policy.json`, { dispatcher: agent });
    expect(response.statusCode).toBe(200);
    expect(validateMessage('policy', await response.body.json())).toEqual({ ok: true });
  });
});
