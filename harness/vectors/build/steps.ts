// Building blocks of the request/response sequences (retrieval-token.json,
// replay.json). The step language is documented in vectors/README.md and run by
// harness/vectors/sequence.ts.
import type { Json, JsonObject } from '../model.ts';

interface StepRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Json;
  /** Sign the object at `at` (JSON pointer, '' = the body) with a published key under a message type's tag. */
  readonly sign?: { readonly message_type: string; readonly key: string; readonly at?: string };
  /** Keep the final body (placeholders filled, signed) as this variable. */
  readonly save_as?: string;
}

interface StepExpect {
  readonly status: number;
  readonly code?: string;
  readonly content_type?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON pointer into the response body → the value it must equal (placeholders allowed). */
  readonly json?: Readonly<Record<string, Json>>;
}

export interface Step {
  readonly comment: string;
  readonly request: StepRequest;
  readonly expect: StepExpect;
  /** Variable → JSON pointer into the response body. */
  readonly bind?: Readonly<Record<string, string>>;
}

export function step(s: Step): JsonObject {
  return JSON.parse(JSON.stringify(s)) as JsonObject;
}

export const PROBLEM = 'application/problem+json';
export const JSON_TYPE = 'application/json';

export const freezeClock = step({
  comment: 'freeze the clock (PROFILE.md §12) and read its instant, whole seconds',
  request: { method: 'POST', path: '/_control/clock', body: { freeze: true } },
  expect: { status: 200 },
  bind: { now: '/now' },
});

export const unfreezeClock = step({
  comment: 'let the clock run again',
  request: { method: 'POST', path: '/_control/clock', body: { freeze: false } },
  expect: { status: 200 },
});

export function problem(status: number, code: string, extra: Partial<StepExpect> = {}): StepExpect {
  return { status, code, content_type: PROBLEM, ...extra };
}
