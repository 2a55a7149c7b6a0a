// Robustness (PROFILE.md §11, CPP-ERR-1): arbitrary JSON, and valid messages with
// one member replaced or removed, never make the Operator throw or answer 5xx.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateMessage } from '../../../profile/cashpack/index.ts';
import type { RefRequest } from '../../../reference/http/types.ts';
import { AUTHORITY, createFixture } from './fixture.ts';

const f = createFixture();
const held = await f.issuePack();
const VALID: Record<string, unknown> = {
  '/v1/cashpack/issue': f.lockRequest(),
  '/v1/cashpack/renew': { cash_pack: held.pack, renewal: f.renewal(held.pack, held.bearer).entry },
  '/v1/cashpack/redeem': { cash_pack: held.pack, redemption: f.redemption(held.pack, held.bearer) },
  '/_control/operator/principals': { public_key: f.principal.jwk, asset: { type: 'fiat', code: 'EUR' }, balance: '1' },
};
const PATHS = Object.keys(VALID);

function post(path: string, body: unknown) {
  const request: RefRequest = {
    method: 'POST',
    path,
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify(body)),
    authority: AUTHORITY,
    secure: true,
  };
  return f.operator.handler(request);
}

function expectClientError(response: ReturnType<typeof post>): void {
  expect(response.status).toBeLessThan(500);
  if (response.status >= 400) expect(validateMessage('problem', response.body)).toEqual({ ok: true });
}

/** Every path to a member or element of a JSON value. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...paths(child, [...prefix, key])]);
}

/** A deep copy with the value at `path` replaced, or removed when `replacement` is undefined. */
function mutate(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = replacement;
  return copy;
}

describe('fuzzing the POST endpoints', () => {
  it('answers arbitrary JSON with a 4xx problem', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), fc.jsonValue({ maxDepth: 4 }), (path, body) => expectClientError(post(path, body))),
      { numRuns: 300 },
    );
  });

  it('answers a valid message with one member replaced or removed without failing', () => {
    const mutation = fc.constantFrom(...PATHS).chain((path) =>
      fc.record({
        path: fc.constant(path),
        at: fc.constantFrom(...paths(VALID[path])),
        replacement: fc.option(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string(), fc.constant('')), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(mutation, ({ path, at, replacement }) => expectClientError(post(path, mutate(VALID[path], at, replacement)))),
      { numRuns: 500 },
    );
  });
});
