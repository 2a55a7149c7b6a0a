// What a payee's server may answer a paying application's retrieval of a token
// URI with (PROFILE.md §8.3, §10), as classes: the status (every class of error
// status, every 3xx redirect, wherever it points), the media type (JSON spelled
// otherwise, another type, none), and how the body arrives (chunked without
// Content-Length, slowly, cut off). One source for the paying-app fuzzer
// (harness/fuzz/paying-app/) and the property of this field (PROP-APP-015).
import fc from 'fast-check';
import { PROBLEM_STATUS, type ProblemCode } from '../../profile/problems.ts';
import type { ClassValue } from './catalogue.ts';

/**
 * Where a redirect's Location points: the second path on the same listener
 * (same-host), on the server's other name (other-host), on its plaintext
 * listener (plaintext: the token would travel in the clear), the retrieval URL
 * itself (itself: a loop), or nowhere (none: no Location at all).
 */
export type RedirectTarget = 'same-host' | 'other-host' | 'plaintext' | 'itself' | 'none';
export const REDIRECT_TARGETS: readonly RedirectTarget[] = ['same-host', 'other-host', 'plaintext', 'itself', 'none'];

/** One answer: the body as application/json (ok), or one odd thing about it. */
export type RetrievalAnswer =
  | 'ok'
  | { readonly mediaType: string }
  | { readonly otherType: string | null }
  /** An error status, its body the CPR served as JSON, or (`problem`) the problem document a payee answers with that code (PROFILE.md §10, §11). */
  | { readonly status: number; readonly problem?: ProblemCode }
  | { readonly redirect: number; readonly to?: RedirectTarget }
  | 'chunked'
  | 'slow'
  | 'truncated';

/** The refusals PROFILE.md §10 gives a payee's retrieval, with their statuses: what a conformant payee answers a used, expired, unknown or plaintext token with. */
const PAYEE_REFUSALS: readonly ProblemCode[] = ['TOKEN_EXPIRED', 'TOKEN_CONSUMED', 'TOKEN_UNKNOWN', 'TLS_REQUIRED'];

/**
 * Every class of error status (RETRIEVAL_FAILED, the token not sent again,
 * whatever the body says): the payee's own refusals with their problem
 * documents, and the payee's codes, throttling and the common statuses with a
 * JSON body most often, then any 4xx and 5xx.
 */
export const retrievalErrorStatus = (): fc.Arbitrary<RetrievalAnswer> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...PAYEE_REFUSALS).map((problem): RetrievalAnswer => ({ status: PROBLEM_STATUS[problem], problem })), weight: 2 },
    {
      arbitrary: fc.record({
        status: fc.oneof(
          { arbitrary: fc.constantFrom(404, 410, 400, 401, 403), weight: 2 },
          // Throttling, which a client may be tempted to retry.
          { arbitrary: fc.constantFrom(408, 429), weight: 2 },
          { arbitrary: fc.integer({ min: 400, max: 499 }), weight: 1 },
          { arbitrary: fc.constantFrom(500, 502, 503, 504), weight: 2 },
          { arbitrary: fc.integer({ min: 500, max: 599 }), weight: 1 },
        ),
      }),
      weight: 3,
    },
  );

/** Every 3xx, pointing anywhere (never followed). */
export const retrievalRedirect = (): fc.Arbitrary<RetrievalAnswer> => fc.record({ redirect: fc.constantFrom(300, 301, 302, 303, 304, 305, 307, 308), to: fc.constantFrom(...REDIRECT_TARGETS) });

/** The class retrieval.status: an error status or a redirect. */
export const retrievalStatus = (): fc.Arbitrary<RetrievalAnswer> => fc.oneof(retrievalErrorStatus(), retrievalRedirect());

/**
 * application/json spelled otherwise (letter case, parameters: read), with a
 * charset that is not UTF-8 (read as UTF-8 all the same: JSON defines no
 * charset parameter and "adding one really has no effect on compliant
 * recipients", RFC 8259 §11), another media type or none (read or refused: the
 * profile fixes neither).
 */
export const retrievalMediaType = (): fc.Arbitrary<RetrievalAnswer> =>
  fc.oneof(
    { arbitrary: fc.record({ mediaType: fc.constantFrom('application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', 'APPLICATION/JSON ; charset="utf-8"') }), weight: 2 },
    { arbitrary: fc.record({ mediaType: fc.constantFrom('application/json; charset=iso-8859-1', 'application/json; charset=windows-1252', 'application/json;charset=US-ASCII', 'application/json; charset=utf-16', 'application/json; charset="x-unknown"') }), weight: 1 },
    { arbitrary: fc.record({ otherType: fc.constantFrom('text/plain', 'text/html', 'application/octet-stream', null) }), weight: 1 },
  );

/** The body chunked without Content-Length (its size counted as it arrives), slowly (pauses the stub bounds), or cut off halfway. */
export const retrievalDelivery = (): fc.Arbitrary<RetrievalAnswer> => fc.constantFrom<RetrievalAnswer>('chunked', 'slow', 'truncated');

/** Any answer, ordinary ones most often: what the fuzzer draws from. */
export const retrievalAnswer = (): fc.Arbitrary<RetrievalAnswer> =>
  fc.oneof({ arbitrary: fc.constant<RetrievalAnswer>('ok'), weight: 4 }, { arbitrary: retrievalMediaType(), weight: 3 }, { arbitrary: retrievalStatus(), weight: 4 }, { arbitrary: retrievalDelivery(), weight: 3 });

/** The class an answer is a member of. */
export function retrievalClass(answer: RetrievalAnswer): ClassValue<RetrievalAnswer> {
  const note = typeof answer === 'string' ? answer : JSON.stringify(answer);
  if (typeof answer === 'object' && ('status' in answer || 'redirect' in answer)) return { class: 'retrieval.status', value: answer, note };
  if (typeof answer === 'object') return { class: 'retrieval.media-type', value: answer, note };
  return { class: 'retrieval.body', value: answer, note };
}
