// The model of a payee system's retrieval tokens and requests (spec §3.1, §4.1,
// §5.1; PROFILE.md §10, §12), pure and synchronous: what each retrieval and
// fulfilment may be answered, given the requests the run created and the
// payee's clock, which the harness alone moves.
//
// Tokens. One token per request, whichever channel carries it (the `token`
// member, the QR URI, the deep link: PROFILE.md §12 gives them one token). It
// serves the CPR once, before the instant the payee reported as
// token_expires_at; then TOKEN_CONSUMED, and at or after that instant
// TOKEN_EXPIRED. Which of the two a consumed token gets after its expiry the
// profile does not say, so either is right; and a payee may forget a token
// once it has expired (TOKEN_UNKNOWN), but not remember it again. A token
// presented over plaintext SHOULD be invalidated (PRF-TOK-2): the model accepts
// either outcome, and once it has seen the token refused, it stays refused.
//
// Requests. Fulfilled once (then REQUEST_CONSUMED) before the CPR's own
// expires_at, never at or after it (REQUEST_EXPIRED, or forgotten: NOT_FOUND).
//
// Each answer is predicted as the set of answers a conformant payee may give,
// the model's own first: the difference of an answer outside the set is named
// against it (cause.ts, with this endpoint's checks in their order).
import { PROBLEM_STATUS, type ProblemCode } from '../../../profile/index.ts';
import type { EndpointRules } from '../cause.ts';
import type { CheckRule, Prediction } from '../model.ts';

/** Retrieval's checks in the order a payee makes them (PROFILE.md §10). */
export const RETRIEVE_RULES: EndpointRules = {
  where: 'PROFILE.md §10',
  checks: [
    { rule: 'spec §5.1 rule 4, PROFILE.md §10: a token only over TLS; plaintext is 403 TLS_REQUIRED', code: 'TLS_REQUIRED', requirement: 'TOK-TLS-1' },
    { rule: 'spec §5.1, PROFILE.md §10: only a token the payee issued serves a CPR; any other is 404 TOKEN_UNKNOWN', code: 'TOKEN_UNKNOWN', requirement: 'TOK-AUTH-1' },
    { rule: 'spec §5.1 rules 2 and 3, PROFILE.md §10: a token serves once; reused, 410 TOKEN_CONSUMED', code: 'TOKEN_CONSUMED', requirement: 'TOK-ONCE-1' },
    { rule: 'spec §5.1 rule 1, PROFILE.md §10: at or after the token_expires_at the payee reported, 410 TOKEN_EXPIRED', code: 'TOKEN_EXPIRED', requirement: 'TOK-EXP-1' },
  ],
  success: 'TOK-GET-1',
};

/** Fulfilment's checks (PROFILE.md §12 fulfil, spec §3.1). */
export const FULFIL_RULES: EndpointRules = {
  where: 'PROFILE.md §12',
  checks: [
    { rule: 'PROFILE.md §12 fulfil: an unknown request is 404 NOT_FOUND', code: 'NOT_FOUND', requirement: 'PRF-CTL-1' },
    { rule: 'spec §3.1, PROFILE.md §12 fulfil: a request is fulfilled once; a second time 409 REQUEST_CONSUMED', code: 'REQUEST_CONSUMED', requirement: 'DRV-SINGLE-1' },
    { rule: 'spec §2.1, PROFILE.md §12 fulfil: at or after expires_at 410 REQUEST_EXPIRED', code: 'REQUEST_EXPIRED', requirement: 'PRF-CTL-1' },
  ],
  success: 'PRF-CTL-1',
};

export type Expected = Prediction<object>;

/** The answers a conformant payee may give, the model's own first. */
export type Expectation = readonly [Expected, ...Expected[]];

/** What the target answered: its status, and its problem code when refused. */
export interface Answer {
  readonly status: number;
  readonly code?: string;
}

const OK: Expected = { ok: true, status: 200 };

function refusal(rules: EndpointRules, code: ProblemCode, why: string): Expected {
  const at = rules.checks.findIndex((c: CheckRule) => c.code === code);
  const check = rules.checks[at]!;
  return { ok: false, status: PROBLEM_STATUS[code], code, at, requirement: check.requirement, rule: `${check.rule} (${why})` };
}

/** Whether an answer is one of the expected ones. */
export function allows(expectation: readonly Expected[], answer: Answer): boolean {
  return expectation.some((e) => (e.ok ? answer.status === 200 : answer.status === e.status && answer.code === e.code));
}

type TokenState = 'fresh' | 'consumed' | 'maybe-burned' | 'refused' | 'forgotten';
type RequestState = 'open' | 'fulfilled' | 'forgotten';

/** A request the run created, as the model keeps it. */
export interface ModelRequest {
  readonly requestId: string;
  readonly token: string;
  /** The token_expires_at the payee reported, in ms. */
  readonly tokenExpiresAt: number;
  /** The CPR's own expires_at, in ms. */
  readonly expiresAt: number;
  token_: TokenState;
  request: RequestState;
}

/**
 * What is presented as the token: the token itself; a string that is another
 * token (truncated, extended, prefixed, the request_id, one never issued); the
 * token with its letters in another case (another string: never served, never
 * consumed); or an equivalent spelling of it in a URI (percent-encoded: the
 * token, or an unknown one).
 */
export type Presented = 'exact' | 'other' | 'case' | 'equivalent';

/**
 * Copies of one request released together: how many may succeed, what one
 * copy would get alone, and what every other copy gets once one has won.
 */
export interface BurstDecision {
  readonly winner: 'one' | 'at-most-one' | 'none';
  readonly alone: Expectation;
  readonly losers: Expectation;
  commit(answers: readonly Answer[]): void;
}

/** A prediction and what the model learns from the answer. */
export interface Decision {
  readonly expected: Expectation;
  commit(answer: Answer): void;
}

export class PayeeModel {
  readonly requests: ModelRequest[] = [];

  constructor(public now: number) {}

  add(request: Omit<ModelRequest, 'token_' | 'request'>): ModelRequest {
    const created = { ...request, token_: 'fresh' as TokenState, request: 'open' as RequestState };
    this.requests.push(created);
    return created;
  }

  /** A retrieval of `request`'s token (undefined: a token no request has), presented as `presented`, over TLS or plaintext. */
  retrieve(request: ModelRequest | undefined, presented: Presented, plaintext: boolean): Decision {
    if (plaintext) {
      return {
        expected: [refusal(RETRIEVE_RULES, 'TLS_REQUIRED', 'sent over plaintext')],
        commit: () => {
          // PROFILE.md §10: the token SHOULD be invalidated; the model accepts either.
          if (request && request.token_ === 'fresh' && (presented === 'exact' || presented === 'equivalent')) request.token_ = 'maybe-burned';
        },
      };
    }
    if (!request || presented === 'other') return { expected: [refusal(RETRIEVE_RULES, 'TOKEN_UNKNOWN', 'no request has this token')], commit: () => undefined };
    const exact = this.tokenAnswers(request);
    if (presented === 'case') {
      const refused = exact.filter((e) => !e.ok);
      return { expected: [refusal(RETRIEVE_RULES, 'TOKEN_UNKNOWN', 'tokens are lower-case hex: another case is another string'), ...refused], commit: () => undefined };
    }
    if (presented === 'equivalent') {
      return {
        expected: [...exact, refusal(RETRIEVE_RULES, 'TOKEN_UNKNOWN', 'a percent-encoded spelling of the token, which a payee may not decode')],
        commit: (answer) => {
          if (answer.status === 200) request.token_ = 'consumed';
        },
      };
    }
    return { expected: exact, commit: (answer) => this.commitToken(request, answer) };
  }

  /**
   * N retrievals of one token released together: of those the model would
   * serve, exactly one succeeds (spec §5.1 rules 2–3), and every other copy is
   * answered as a retrieval after the winner.
   */
  burst(request: ModelRequest): BurstDecision {
    const exact = this.tokenAnswers(request);
    const servable = exact.some((e) => e.ok);
    const winner = !servable ? 'none' : request.token_ === 'fresh' ? 'one' : 'at-most-one';
    const after = servable ? this.afterWinner(request) : exact;
    return {
      winner,
      alone: exact,
      losers: after,
      commit: (answers) => {
        if (answers.some((a) => a.status === 200)) request.token_ = 'consumed';
        else for (const a of answers) this.commitToken(request, a);
      },
    };
  }

  /** A fulfilment of `request` (undefined: a request_id the payee never issued). */
  fulfil(request: ModelRequest | undefined): Decision {
    if (!request || request.request === 'forgotten') return { expected: [refusal(FULFIL_RULES, 'NOT_FOUND', 'no such request')], commit: () => undefined };
    const expired = this.now >= request.expiresAt;
    const fulfilled = request.request === 'fulfilled';
    const consumed = refusal(FULFIL_RULES, 'REQUEST_CONSUMED', 'the request was fulfilled before');
    const late = refusal(FULFIL_RULES, 'REQUEST_EXPIRED', 'the clock is at or after the request\'s expires_at');
    const forgotten = refusal(FULFIL_RULES, 'NOT_FOUND', 'a payee may forget an expired request');
    const expected: Expectation = expired ? (fulfilled ? [late, consumed, forgotten] : [late, forgotten]) : fulfilled ? [consumed] : [OK];
    return {
      expected,
      commit: (answer) => {
        if (answer.status === 200) request.request = 'fulfilled';
        else if (expired && answer.code === 'NOT_FOUND') request.request = 'forgotten';
      },
    };
  }

  /** Concurrent fulfilments of one request: at most one succeeds, exactly one when one would. */
  fulfilBurst(request: ModelRequest): BurstDecision {
    const alone = this.fulfil(request);
    const winner = alone.expected[0].ok ? 'one' : 'none';
    const losers: Expectation = winner === 'one' ? [refusal(FULFIL_RULES, 'REQUEST_CONSUMED', 'another copy was fulfilled first')] : alone.expected;
    return { winner, alone: alone.expected, losers, commit: (answers) => answers.forEach((a) => alone.commit(a)) };
  }

  /** What the token itself, presented over TLS, may be answered now. */
  private tokenAnswers(request: ModelRequest): Expectation {
    const unknown = refusal(RETRIEVE_RULES, 'TOKEN_UNKNOWN', 'a payee may forget a token once it has expired');
    const consumed = refusal(RETRIEVE_RULES, 'TOKEN_CONSUMED', 'the token served the CPR before');
    const burned = refusal(RETRIEVE_RULES, 'TOKEN_CONSUMED', 'the token travelled over plaintext and may have been invalidated (PROFILE.md §10, SHOULD)');
    const expired = refusal(RETRIEVE_RULES, 'TOKEN_EXPIRED', 'the clock is at or after the token_expires_at the payee reported');
    if (request.token_ === 'forgotten') return [refusal(RETRIEVE_RULES, 'TOKEN_UNKNOWN', 'the payee answered before that it no longer knows this expired token')];
    if (this.now >= request.tokenExpiresAt) return request.token_ === 'fresh' ? [expired, unknown] : [expired, consumed, unknown];
    switch (request.token_) {
      case 'fresh':
        return [OK];
      case 'consumed':
        return [consumed];
      case 'maybe-burned':
        return [OK, burned, refusal(RETRIEVE_RULES, 'TOKEN_UNKNOWN', 'an invalidated token may be forgotten')];
      case 'refused':
        return [burned, refusal(RETRIEVE_RULES, 'TOKEN_UNKNOWN', 'an invalidated token may be forgotten')];
    }
  }

  /** The answers to the token once another retrieval has been served. */
  private afterWinner(request: ModelRequest): Expectation {
    return [refusal(RETRIEVE_RULES, 'TOKEN_CONSUMED', `another retrieval served the CPR first${request.token_ === 'maybe-burned' ? ', or the plaintext one invalidated it' : ''}`), ...(request.token_ === 'maybe-burned' ? [refusal(RETRIEVE_RULES, 'TOKEN_UNKNOWN', 'an invalidated token may be forgotten')] : [])];
  }

  private commitToken(request: ModelRequest, answer: Answer): void {
    if (answer.status === 200) request.token_ = 'consumed';
    else if (request.token_ === 'maybe-burned') request.token_ = 'refused';
    else if (answer.code === 'TOKEN_UNKNOWN' && this.now >= request.tokenExpiresAt) request.token_ = 'forgotten';
  }
}
