// The payee model (harness/fuzz/payee/model.ts): what it allows for a token
// and a request at and around every instant, pure and synchronous.
import { describe, expect, it } from 'vitest';
import { allows, PayeeModel, type Answer, type Decision } from '../../../../harness/fuzz/payee/model.ts';

const T0 = Date.UTC(2030, 0, 1);
const LIFETIME = 300_000;
const VALIDITY = 900_000;

function fresh(): { model: PayeeModel; request: ReturnType<PayeeModel['add']> } {
  const model = new PayeeModel(T0);
  const request = model.add({ requestId: 'r1', token: 'a'.repeat(32), tokenExpiresAt: T0 + LIFETIME, expiresAt: T0 + VALIDITY });
  return { model, request };
}

const OK: Answer = { status: 200 };
const code = (status: number, c: string): Answer => ({ status, code: c });

/** What the decision allows, and the model learns the first answer given. */
function answer(decision: Decision, given: Answer): boolean {
  const allowed = allows(decision.expected, given);
  decision.commit(given);
  return allowed;
}

describe('the payee model', () => {
  it('serves a token once, then TOKEN_CONSUMED, whichever channel carried it', () => {
    const { model, request } = fresh();
    expect(answer(model.retrieve(request, 'exact', false), OK)).toBe(true);
    const again = model.retrieve(request, 'exact', false);
    expect(allows(again.expected, OK)).toBe(false);
    expect(allows(again.expected, code(410, 'TOKEN_CONSUMED'))).toBe(true);
  });

  it('serves until the instant before token_expires_at, and from that instant TOKEN_EXPIRED (or forgotten)', () => {
    const { model, request } = fresh();
    model.now = T0 + LIFETIME - 1;
    expect(model.retrieve(request, 'exact', false).expected).toEqual([{ ok: true, status: 200 }]);
    model.now = T0 + LIFETIME;
    const at = model.retrieve(request, 'exact', false);
    expect(allows(at.expected, OK)).toBe(false);
    expect(allows(at.expected, code(410, 'TOKEN_EXPIRED'))).toBe(true);
    expect(answer(at, code(404, 'TOKEN_UNKNOWN'))).toBe(true);
    // Forgotten, it is not remembered again.
    expect(allows(model.retrieve(request, 'exact', false).expected, code(410, 'TOKEN_EXPIRED'))).toBe(false);
  });

  it('never serves another string, and another case consumes nothing', () => {
    const { model, request } = fresh();
    for (const presented of ['other', 'case'] as const) {
      const decision = model.retrieve(request, presented, false);
      expect(allows(decision.expected, OK), presented).toBe(false);
      expect(answer(decision, code(404, 'TOKEN_UNKNOWN'))).toBe(true);
    }
    expect(model.retrieve(request, 'exact', false).expected).toEqual([{ ok: true, status: 200 }]);
  });

  it('refuses plaintext with TLS_REQUIRED, and lets the payee invalidate the token or not', () => {
    const { model, request } = fresh();
    expect(answer(model.retrieve(request, 'exact', true), code(403, 'TLS_REQUIRED'))).toBe(true);
    const after = model.retrieve(request, 'exact', false);
    expect(allows(after.expected, OK)).toBe(true);
    expect(answer(after, code(410, 'TOKEN_CONSUMED'))).toBe(true);
    // Once seen refused, it stays refused.
    expect(allows(model.retrieve(request, 'exact', false).expected, OK)).toBe(false);
  });

  it('lets exactly one of concurrent retrievals win, the others TOKEN_CONSUMED', () => {
    const { model, request } = fresh();
    const burst = model.burst(request);
    expect(burst.winner).toBe('one');
    expect(allows(burst.losers, code(410, 'TOKEN_CONSUMED'))).toBe(true);
    expect(allows(burst.losers, OK)).toBe(false);
  });

  it("fulfils a request once before its own expires_at, not the token's", () => {
    const { model, request } = fresh();
    model.now = T0 + LIFETIME;
    expect(answer(model.fulfil(request), OK)).toBe(true);
    expect(allows(model.fulfil(request).expected, code(409, 'REQUEST_CONSUMED'))).toBe(true);
    const other = model.add({ requestId: 'r2', token: 'b'.repeat(32), tokenExpiresAt: T0 + LIFETIME, expiresAt: T0 + VALIDITY });
    model.now = T0 + VALIDITY;
    const late = model.fulfil(other);
    expect(allows(late.expected, OK)).toBe(false);
    expect(allows(late.expected, code(410, 'REQUEST_EXPIRED'))).toBe(true);
    expect(allows(model.fulfil(undefined).expected, code(404, 'NOT_FOUND'))).toBe(true);
  });
});
