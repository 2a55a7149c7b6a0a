// retrieval-token.json: the life of a retrieval token (spec §5.1, PROFILE.md §10)
// as request/response sequences against a payee with the test-control interface:
// first GET 200, then 410 TOKEN_CONSUMED, unknown 404, expired 410 (clock step).
import type { DraftCase, DraftFile, JsonObject } from '../model.ts';
import { article, draftCase } from './draft.ts';
import { JSON_TYPE, freezeClock, problem, step, unfreezeClock } from './steps.ts';

const NO_STORE = { 'cache-control': 'no-store' };

function createRequest(sub: string, amount?: string): JsonObject {
  return step({
    comment: `create ${article(sub)} request (PROFILE.md §12) and keep its token`,
    request: { method: 'POST', path: '/_control/payee/requests', body: { sub_interface: sub, ...(amount !== undefined ? { amount } : {}) } },
    expect: { status: 201 },
    bind: { token: '/token', request_id: '/request_id', cpr: '/cpr' },
  });
}

const retrieve = (comment: string, expect: Parameters<typeof step>[0]['expect'], token = '{{token}}') =>
  step({ comment, request: { method: 'GET', path: `/cpr/${token}`, headers: { accept: 'application/json' } }, expect });

const ok200 = { status: 200, content_type: JSON_TYPE, headers: NO_STORE, json: { '': '{{cpr}}' } };

function sequence(k: string, comment: string, flags: string[], requirements: string[], needs: string[], steps: JsonObject[], cleanup: JsonObject[] = []): DraftCase {
  return draftCase(k, comment, flags, 'valid', requirements, { role: 'payee', needs, steps, finally: cleanup });
}

function cases(): DraftCase[] {
  const list: DraftCase[] = [
    sequence('first-retrieval', 'the first GET answers 200 application/json with the CPR, Cache-Control no-store', ['FirstUse'], ['TOK-GET-1', 'PRF-TOK-1'], ['provision'], [
      createRequest('IBAN', '12500'),
      retrieve('retrieve it: the same CPR the payee created', ok200),
    ]),
    sequence('second-retrieval', 'a token is single use: the second GET is 410 TOKEN_CONSUMED', ['Reuse'], ['TOK-ONCE-1', 'PRF-TOK-1', 'PRF-ERR-1'], ['provision'], [
      createRequest('IBAN', '12500'),
      retrieve('first use', ok200),
      retrieve('second use', problem(410, 'TOKEN_CONSUMED', { headers: NO_STORE })),
      retrieve('third use: still consumed', problem(410, 'TOKEN_CONSUMED', { headers: NO_STORE })),
    ]),
    sequence('unknown-token', 'a token the payee never issued is 404 TOKEN_UNKNOWN', ['Unknown'], ['TOK-AUTH-1', 'PRF-TOK-1'], [], [
      retrieve('a fresh random 128-bit token', problem(404, 'TOKEN_UNKNOWN', { headers: NO_STORE }), '{{hex32:unknown}}'),
    ]),
    sequence('case-changed-token', 'a token with its letters upper-cased is another token: 404 TOKEN_UNKNOWN, and the real token is not spent', ['Unknown'], ['TOK-AUTH-1', 'PRF-TOK-1'], ['provision'], [
      createRequest('ACCOUNT', '990'),
      retrieve('the upper-cased token', problem(404, 'TOKEN_UNKNOWN', { headers: NO_STORE }), '{{upper:token}}'),
      retrieve('the real token still works', ok200),
    ]),
    sequence('wrong-method', 'POST to a token URL is 405 METHOD_NOT_ALLOWED and does not spend the token', ['WrongMethod'], ['PRF-HTTP-1', 'TOK-ONCE-1'], ['provision'], [
      createRequest('INSTANT_KEY', '5000'),
      step({ comment: 'POST instead of GET', request: { method: 'POST', path: '/cpr/{{token}}', body: {} }, expect: problem(405, 'METHOD_NOT_ALLOWED') }),
      retrieve('GET still succeeds', ok200),
    ]),
    sequence('expired', 'after the token lifetime the GET is 410 TOKEN_EXPIRED', ['Expiry', 'ClockStep'], ['TOK-EXP-1', 'PRF-TOK-1'], ['provision', 'clock'], [
      freezeClock,
      step({ comment: 'read the payee\'s token lifetime', request: { method: 'GET', path: '/_control/payee/config' }, expect: { status: 200 }, bind: { lifetime: '/token_lifetime_seconds' } }),
      createRequest('IBAN', '12500'),
      step({ comment: 'advance the clock by exactly the lifetime: the expiry instant', request: { method: 'POST', path: '/_control/clock', body: { advance_seconds: '{{lifetime}}' } }, expect: { status: 200 } }),
      retrieve('retrieve at the expiry instant', problem(410, 'TOKEN_EXPIRED', { headers: NO_STORE })),
    ], [unfreezeClock]),
    sequence('just-before-expiry', 'one second before the lifetime ends the token still works', ['Expiry', 'ClockStep'], ['TOK-EXP-1', 'TOK-GET-1'], ['provision', 'clock'], [
      freezeClock,
      step({ comment: 'read the payee\'s token lifetime', request: { method: 'GET', path: '/_control/payee/config' }, expect: { status: 200 }, bind: { lifetime: '/token_lifetime_seconds' } }),
      createRequest('ON_CHAIN', '5000000'),
      step({ comment: 'advance the clock by the lifetime minus one second', request: { method: 'POST', path: '/_control/clock', body: { advance_seconds: '{{int:lifetime-1}}' } }, expect: { status: 200 } }),
      retrieve('retrieve one second before expiry', ok200),
    ], [unfreezeClock]),
  ];
  for (const [sub, amount] of [['ON_CHAIN', '5000000'], ['ACCOUNT', undefined], ['INSTANT_KEY', '1']] as const) {
    list.push(
      sequence(`first-retrieval:${sub}${amount === undefined ? ':open' : ''}`, `${article(sub)} request${amount === undefined ? ' with an open amount' : ''}: retrieved once, then consumed`, ['FirstUse', 'Reuse'], ['TOK-GET-1', 'TOK-ONCE-1'], ['provision'], [
        createRequest(sub, amount),
        retrieve('first use', ok200),
        retrieve('second use', problem(410, 'TOKEN_CONSUMED', { headers: NO_STORE })),
      ]),
    );
  }
  return list;
}

export function buildRetrievalToken(): DraftFile {
  return {
    kind: 'retrieval-token',
    header: [
      'Retrieval tokens (spec §5.1, PROFILE.md §10) as request/response sequences, Wycheproof style: each case is a list of `steps` sent in order to the payee role over TLS, each with what the response must be.',
      'A case needs the test-control capabilities in `needs` (PROFILE.md §12); a target without one reports the case as skipped, never passed. Steps in `finally` run after the case whatever happened and are not judged.',
      'The step language (placeholders such as {{token}}, {{hex32:name}}, {{upper:token}}, {{int:lifetime-1}}, bindings from response bodies, and the checks status, code, content_type, headers and json) is described in vectors/README.md.',
      'result "valid" means: a conformant payee answers every step as expected.',
    ],
    notes: {
      FirstUse: 'The first retrieval of a fresh token succeeds (spec §4.1).',
      Reuse: 'A token is invalidated after its first successful retrieval (spec §5.1.2).',
      Unknown: 'A token the payee did not issue is refused (spec §5.1).',
      WrongMethod: 'A method other than GET is refused without touching the token.',
      Expiry: 'A token expires after the payee\'s configured lifetime; the boundary instant is expired (spec §5.1.1).',
      ClockStep: 'Moves the shared clock through the test-control interface instead of waiting.',
    },
    groups: [{ members: { type: 'SequenceTest', comment: 'retrieval tokens' }, tests: cases() }],
  };
}
