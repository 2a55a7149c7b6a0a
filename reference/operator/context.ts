// What every Operator endpoint works with, and the small rules they share.
import { decodeB64urlFixed, parseTimestamp, problem, type OkpJwk, type Problem, type ProblemCode } from '../../profile/index.ts';
import type { Clock } from '../clock.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import type { OperatorKeys } from './keys.ts';
import type { Policy } from './policy.ts';
import type { OperatorState } from './state.ts';

export interface OperatorContext {
  readonly clock: Clock;
  readonly policy: Policy;
  readonly keys: OperatorKeys;
  readonly state: OperatorState;
}

/** An endpoint: path parameters come from the router's pattern. */
export type Endpoint = (ctx: OperatorContext, request: RefRequest, params: readonly string[]) => RefResponse;

/** Errors are values with stable codes (PROFILE.md §11). */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem };

export function success<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function failure(code: ProblemCode, detail: string): { readonly ok: false; readonly problem: Problem } {
  return { ok: false, problem: problem(code, detail) };
}

/** PROFILE.md §6: `created_at` lies within request_window_seconds of the clock, before or after. */
export function isFresh(ctx: OperatorContext, createdAt: string, nowMs: number): boolean {
  const created = parseTimestamp(createdAt, 'cashpack');
  return created !== undefined && Math.abs(created - nowMs) <= ctx.policy.request_window_seconds * 1000;
}

/** The raw key of a JWK that passed message validation. */
export function keyOf(jwk: OkpJwk): Uint8Array {
  return decodeB64urlFixed(jwk.x, 32)!;
}

/** PROFILE.md §2.1: two keys are the same key exactly when their x values are equal. */
export function sameKey(a: OkpJwk, b: OkpJwk): boolean {
  return a.x === b.x;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
