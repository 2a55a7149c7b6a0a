// An error response as PROFILE.md §11 has it, on every role: the media type
// application/problem+json, and a body with type, title, status and code that
// agree with each other and with the HTTP status (class http.problem).
import { PROBLEM_CONTENT_TYPE } from '../../../profile/problems.ts';
import { validateMessage } from '../../../profile/cashpack/index.ts';
import type { HttpResult } from '../../scenarios/context.ts';
import type { PropertyFailure } from '../types.ts';

/** What is wrong with an error response; empty when it is a profile problem (with `code`, when given). */
export function problemDefects(result: HttpResult, code?: string): string[] {
  const defects: string[] = [];
  const type = result.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== PROBLEM_CONTENT_TYPE) defects.push(`Content-Type is ${JSON.stringify(result.headers['content-type'] ?? null)}, not ${PROBLEM_CONTENT_TYPE}`);
  const body = result.body as { code?: unknown; status?: unknown } | undefined;
  if (body === undefined) return [...defects, 'the body is not JSON'];
  const check = validateMessage('problem', body);
  if (!check.ok) defects.push(...check.errors);
  if (body.status !== result.status) defects.push(`the body's status ${JSON.stringify(body.status)} is not the HTTP status ${result.status}`);
  if (code !== undefined && body.code !== code) defects.push(`the code is ${JSON.stringify(body.code)}, not ${code}`);
  return defects;
}

/**
 * A refusal as `status` and, when given, `code`: undefined when `result` is one.
 * Another status charges `requirements`; the right status in the wrong form
 * charges the problem rules (PRF-ERR-1, CPP-ERR-1).
 */
export function expectProblem(result: HttpResult, status: number, code: string | undefined, what: string, requirements: readonly string[]): PropertyFailure | undefined {
  const defects = result.status === status ? problemDefects(result, code) : [`HTTP ${result.status}`];
  if (defects.length === 0) return undefined;
  return {
    expected: { status, ...(code ? { code } : {}), content_type: 'application/problem+json' },
    actual: { status: result.status, code: (result.body as { code?: unknown } | undefined)?.code ?? null, defects },
    message: what,
    requirements: result.status === status ? ['PRF-ERR-1', 'CPP-ERR-1'] : [...requirements],
  };
}
