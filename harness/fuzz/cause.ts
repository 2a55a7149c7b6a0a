// What a finding is: the first thing in which the target's answer differed from
// the model's prediction (status, then problem code, then the body's members,
// then balances), named by the requirement of the model's rule that thing
// belongs to, on the kind of request that carried it. Two runs that differ the
// same way under the same rule are one finding, whatever sequence led there:
// the shrinker, the reduction after it (reduce.ts) and `fuzz merge` compare
// causes, never command sequences.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../profile/jcs.ts';
import { PROBLEM_STATUS } from '../../profile/index.ts';
import { ENDPOINT_RULES, type CheckRule, type Endpoint, type Prediction } from './model.ts';

/** The Operator's request a cause concerns: an endpoint, a clock move, or an interleaving whose effect on the balances differed. */
export type CauseKind = Endpoint | 'clock' | 'interleave';

export interface Cause {
  /** The requirement ID (suites/requirements.yaml) of the rule that decided what the model expected. */
  readonly requirement: string;
  /** The kind of request or call that carried it: the Operator's CauseKind, or another role's (a retrieval, a read). */
  readonly kind: string;
  /** What differed first: "status", "problem code", "content type", a body member, a balance, "concurrent answers". */
  readonly what: string;
  /**
   * Expected against actual in terms that do not depend on the run, e.g.
   * "200 → 403 REDEEMER_NOT_IDENTIFIED"; a member whose value is the run's own
   * (a digest, a timestamp) says only "differs".
   */
  readonly difference: string;
}

/** One line: `CPP-IDN-1: redeem status: 200 → 403 REDEEMER_NOT_IDENTIFIED`. */
export function causeText(cause: Cause): string {
  return `${cause.requirement}: ${cause.kind} ${cause.what}: ${cause.difference}`;
}

/** The key two findings share when they have the same cause (16 hex digits of SHA-256 over the cause's members). */
export function causeKey(cause: Cause): string {
  const data = canonicalJson({ requirement: cause.requirement, kind: cause.kind, what: cause.what, difference: cause.difference });
  return createHash('sha256').update(data).digest('hex').slice(0, 16);
}

export function sameCause(a: Cause, b: Cause): boolean {
  return causeKey(a) === causeKey(b);
}

/** An endpoint's checks in the profile's order, each with its code and requirement, and the requirement of its success. */
export interface EndpointRules {
  readonly checks: readonly CheckRule[];
  readonly success: string;
  /** Where the profile states the endpoint (default "PROFILE.md §5"). */
  readonly where?: string;
}

/** What the target answered, as far as naming a difference reads it. */
export interface Answer {
  readonly status: number;
  /** The problem's code member, when the body has one. */
  readonly code: string | undefined;
  /** The media type, lower case, without parameters. */
  readonly contentType: string | undefined;
}

/** The difference of an answer from its prediction, without the request kind (the caller knows it). */
interface AnswerDifference extends Omit<Cause, 'kind'> {
  /** The rule, with why it decides here. */
  readonly rule: string;
}

const PROBLEM_JSON = 'application/problem+json';
/** Where neither side stopped at a check of the endpoint: after its last one. */
const PAST_EVERY_CHECK = Number.POSITIVE_INFINITY;

/**
 * How an answer differs from the model's prediction, or undefined when it
 * does not (PROFILE.md §11: a success is 200; a refusal is problem+json with
 * the predicted status and code).
 *
 * The endpoint's checks run in the profile's order. The model stopped at one of
 * them (or passed them all); the target's problem code says where it stopped
 * (the first check that answers that code). The first check, in that order, on
 * which the two disagree is the rule the difference belongs to:
 *
 * | where the target stopped            | the rule named                                             |
 * |-------------------------------------|------------------------------------------------------------|
 * | before the model (or it succeeded)  | the check the target applied and the model passes          |
 * | after the model, or 200             | the check the model applied and the target passed          |
 * | at the same check, another status   | PRF-ERR-1: the one status the profile gives that code      |
 * | at no check of the endpoint         | the model's own: its refusal, or the endpoint's success    |
 *
 * so a redeem the model accepts and the target refuses with
 * REDEEMER_NOT_IDENTIFIED is named by redeem step 9's requirement, wherever the
 * request was sent from (alone, in a burst or an interleaving).
 */
export function answerDifference(kind: string, expected: Prediction<object>, actual: Answer, rules: EndpointRules = ENDPOINT_RULES[kind as Endpoint]): AnswerDifference | undefined {
  const { checks, success } = rules;
  const refused = actual.status !== 200;
  const actualCode = refused ? actual.code : undefined;
  if (expected.ok ? !refused : refused && actual.status === expected.status && actualCode === expected.code && actual.contentType === PROBLEM_JSON) return undefined;

  const modelAt = expected.ok ? PAST_EVERY_CHECK : expected.at;
  // The same code as predicted is the same check, even where the endpoint has two checks with that code.
  const known = actualCode === undefined ? -1 : !expected.ok && actualCode === expected.code ? expected.at : checks.findIndex((c) => c.code === actualCode);
  const targetAt = !refused || known < 0 ? PAST_EVERY_CHECK : known;
  const what = actual.status !== expected.status ? 'status' : actualCode !== (expected.ok ? undefined : expected.code) ? 'problem code' : 'content type';
  const difference = `${answerText(expected.status, expected.ok ? undefined : expected.code)} → ${answerText(actual.status, actualCode)}${what === 'content type' ? ` as ${actual.contentType ?? 'no media type'}` : ''}`;

  if (targetAt < modelAt) {
    const check = checks[targetAt]!;
    return { requirement: check.requirement, what, difference, rule: `${check.rule}: the model passes this check (${check.code}), the target refused` };
  }
  if (modelAt < targetAt && !expected.ok) return { requirement: expected.requirement, what, difference, rule: expected.rule };
  if (!expected.ok && targetAt === modelAt) {
    return { requirement: 'PRF-ERR-1', what, difference, rule: `PROFILE.md §11: ${expected.code} is ${PROBLEM_JSON} with HTTP ${PROBLEM_STATUS[expected.code]}` };
  }
  return { requirement: success, what, difference, rule: `${rules.where ?? 'PROFILE.md §5'} ${kind}: the model passes every check` };
}

function answerText(status: number, code: string | undefined): string {
  return code === undefined ? String(status) : `${status} ${code}`;
}
