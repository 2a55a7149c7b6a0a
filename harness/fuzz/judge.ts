// How the fuzzer judges an answer. Each comparison is made once, here: it is
// checked now against the model's prediction and written, as the same check in
// the scenario language, into the step of the regression scenario
// (world.script). So the regression checks everything the fuzzer checked, and
// cannot pass where the fuzzer saw a difference. The first difference throws a
// Mismatch with what was expected and what came, and its cause (cause.ts): the
// requirement of the model's rule it concerns, which the scenario's check then
// names too.
import { isDeepStrictEqual } from 'node:util';
import { toAmount, type ProblemCode } from '../../profile/index.ts';
import { recomputeChainDigest, validateMessage, verifyCashPack, verifyConfirmation, type CashPack, type MessageKind, type RedemptionConfirmation } from '../../profile/cashpack/index.ts';
import type { Reply } from './client.ts';
import { answerDifference, type CauseKind } from './cause.ts';
import { Mismatch } from './mismatch.ts';
import { ENDPOINT_RULES, type Endpoint, type Prediction } from './model.ts';
import type { FuzzModel, ScriptCheck, ScriptStep, World } from './world.ts';
import { mediaType } from '../media-type.ts';

/**
 * What a command runs with: its model, its world, its name and the request
 * kind a difference is charged to (both read only when a comparison fails).
 */
export interface Ctx {
  readonly m: FuzzModel;
  readonly w: World;
  readonly label: string;
  readonly op: CauseKind;
}

/** The same context, for the requests of one endpoint (a replay's, a burst's, one operation of an interleaving). */
export function on(ctx: Ctx, op: CauseKind): Ctx {
  return new OnEndpoint(ctx, op);
}

/** A command's context for one endpoint: its label still read from the command's, only when a comparison fails. */
class OnEndpoint implements Ctx {
  readonly m: FuzzModel;
  readonly w: World;

  constructor(
    private readonly command: Ctx,
    readonly op: CauseKind,
  ) {
    this.m = command.m;
    this.w = command.w;
  }

  get label(): string {
    return this.command.label;
  }
}

/** One comparison: the check in the scenario language, and whether it holds now. */
export interface Judgement {
  readonly what: string;
  readonly requirement: string;
  readonly expected: unknown;
  readonly actual: unknown;
  /** The check as the regression scenario makes it (its requirement is added); absent when another check of the step already makes it. */
  readonly script?: ScriptCheck;
  /** Whether it holds; equality of expected and actual when absent. */
  readonly holds?: boolean;
  readonly rule?: string;
  /** The cause's `what` when it is not `what` itself (an answer's "status" or "problem code"). */
  readonly differed?: string;
  /** The cause's difference, in terms that do not depend on the run; "differs" when absent. */
  readonly difference?: string;
}

/** What any role's command judges with: its name, and the kind of request a difference is charged to. */
export type JudgeCtx = Pick<Ctx, 'label'> & { readonly op: string };

/** Writes the check into the step, then makes it: the step records it whatever the outcome. */
export function judge(ctx: JudgeCtx, step: ScriptStep, j: Judgement): void {
  if (j.script) step.expect.push({ ...j.script, requirement: j.requirement });
  if (j.holds ?? isDeepStrictEqual(j.expected, j.actual)) return;
  const cause = { requirement: j.requirement, kind: ctx.op, what: j.differed ?? j.what, difference: j.difference ?? 'differs' };
  throw new Mismatch({ command: ctx.label, what: j.what, expected: j.expected, actual: j.actual ?? null, requirement: j.requirement, ...(j.rule ? { rule: j.rule } : {}), cause });
}

/** `actual` equals `expected`; in the scenario, `value` (a template) equals `to` (a template, or `expected` itself). */
export function judgeEqual(ctx: JudgeCtx, step: ScriptStep, what: string, requirement: string, expected: unknown, actual: unknown, value: string, to: unknown = expected): void {
  judge(ctx, step, { what, requirement, expected, actual: actual ?? null, script: { equals: { value, to } } });
}

/**
 * Status and problem code (PROFILE.md §11): a success is 200, a refusal is
 * application/problem+json with the predicted status and code. A difference is
 * named by the rule it concerns (cause.ts), and so is the scenario's check
 * (`script`, when the step checks it otherwise: a burst's exactly one 200).
 */
export function judgeAnswer(ctx: Ctx, step: ScriptStep, kind: Endpoint, outcome: Prediction<object>, reply: Reply, script?: ScriptCheck): void {
  const actual = answerOf(reply);
  const differs = answerDifference(kind, outcome, { status: reply.status, code: actual.code ?? undefined, contentType: mediaType(reply.headers) });
  const requirement = differs?.requirement ?? (outcome.ok ? ENDPOINT_RULES[kind].success : outcome.requirement);
  const rule = differs?.rule ?? (outcome.ok ? undefined : outcome.rule);
  judge(on(ctx, kind), step, {
    what: `the ${kind} answer`,
    requirement,
    expected: outcome.ok ? { status: 200 } : { status: outcome.status, code: outcome.code },
    actual,
    holds: differs === undefined,
    script: script ?? (outcome.ok ? { status: 200 } : { problem: outcome.code }),
    ...(rule ? { rule } : {}),
    ...(differs ? { differed: differs.what, difference: differs.difference } : {}),
  });
}

/** The check a scenario step makes of an answer the model predicts, with the requirement of the rule that decides it. */
export function answerCheck(kind: Endpoint, outcome: Prediction<object>): ScriptCheck {
  return outcome.ok ? { status: 200, requirement: ENDPOINT_RULES[kind].success } : { problem: outcome.code, requirement: outcome.requirement };
}

/** Whether an answer is the one predicted: status, problem code and media type (cause.ts), the body aside. */
export function answerMatches(kind: Endpoint, outcome: Prediction<object>, reply: Reply): boolean {
  return answerDifference(kind, outcome, { status: reply.status, code: answerOf(reply).code ?? undefined, contentType: mediaType(reply.headers) }) === undefined;
}

/** A message valid against its profile schema (PROFILE.md §4). `at` is the value's template, the step's body when absent. */
export function judgeSchema(ctx: Ctx, step: ScriptStep, kind: MessageKind, value: unknown, rule: string, at?: string): void {
  const check = validateMessage(kind, value);
  judge(ctx, step, {
    what: `the ${kind} schema (PROFILE.md §4)`,
    requirement: 'PRF-MSG-1',
    expected: `a valid ${kind}`,
    actual: check.ok ? `a valid ${kind}` : check.errors.slice(0, 3),
    holds: check.ok,
    script: at === undefined ? { schema: kind } : { schema: { of: kind, value: at } },
    rule,
  });
}

/** What a returned cash-pack must be: how the scenario names each expected part. */
interface PackExpectation {
  readonly digest: string;
  /** The predicted digest as a template: genesis_digest(...) or renewal_digest(...). */
  readonly digestAt: string;
  readonly depth: number;
  readonly bearer: string;
  /** The new bearer's key as a template. */
  readonly bearerAt: string;
  readonly packId?: string;
  readonly packIdAt?: string;
}

/**
 * A returned cash-pack (`at`, its template): schema, the Operator's signature,
 * the digest recomputed (PROFILE.md §3) and as predicted, depth, bearer and pack_id.
 */
export function judgePack(ctx: Ctx, step: ScriptStep, value: unknown, at: string, expected: PackExpectation, requirement: string): void {
  judgeSchema(ctx, step, 'cash-pack', value, requirement, at);
  const pack = value as CashPack;
  const signed = verifyCashPack(pack, ctx.w.context.operatorKey);
  judge(ctx, step, { what: 'the cash-pack signature', requirement: 'CPP-WK-2', expected: "valid under the Operator's well-known key", actual: signed ? "valid under the Operator's well-known key" : 'does not verify', holds: signed, script: { signature_valid: { value: at, type: 'cash-pack' } } });
  let recomputed: string;
  try {
    recomputed = recomputeChainDigest(pack);
  } catch (error) {
    recomputed = `cannot recompute: ${(error as Error).message}`;
  }
  judge(ctx, step, { what: 'chain_digest recomputed from the pack (PROFILE.md §3)', requirement: 'PRF-DIG-1', expected: recomputed, actual: pack.chain_digest, script: { chain_digest: at } });
  const of = pathOf(at);
  judgeEqual(ctx, step, 'chain_digest', 'CPP-CHN-1', expected.digest, pack.chain_digest, `\${${of}.chain_digest}`, expected.digestAt);
  judgeEqual(ctx, step, 'length of renewal_chain', 'CPP-CHN-1', expected.depth, pack.renewal_chain.length, `\${len(${of}.renewal_chain)}`);
  judgeEqual(ctx, step, 'current_bearer_pk', requirement, expected.bearer, pack.current_bearer_pk.x, `\${${of}.current_bearer_pk.x}`, expected.bearerAt);
  if (expected.packId !== undefined) judgeEqual(ctx, step, 'pack_id', requirement, expected.packId, pack.pack_id, `\${${of}.pack_id}`, expected.packIdAt);
}

/** What a Redemption Confirmation must say, with each part's template. */
interface ConfirmationExpectation {
  readonly packId: string;
  readonly packIdAt: string;
  readonly redemptionId: string;
  readonly redemptionIdAt: string;
  readonly redeemerKid: string;
  readonly redeemerKidAt: string;
  readonly amount: bigint;
  /** The pack's asset, and its template. */
  readonly asset: unknown;
  readonly assetAt: unknown;
  readonly digest: string;
  readonly digestAt: string;
}

/** A Redemption Confirmation (`at`, its template): schema, the Operator's signature and each member. */
export function judgeConfirmation(ctx: Ctx, step: ScriptStep, value: unknown, at: string, expected: ConfirmationExpectation): void {
  judgeSchema(ctx, step, 'redemption-confirmation', value, 'CPP-RED-1', at);
  const body = value as RedemptionConfirmation;
  const signed = verifyConfirmation(body, ctx.w.context.operatorKey);
  judge(ctx, step, { what: 'the Redemption Confirmation signature', requirement: 'CPP-RED-1', expected: "valid under the Operator's well-known key", actual: signed ? "valid under the Operator's well-known key" : 'does not verify', holds: signed, script: { signature_valid: { value: at, type: 'redemption-confirmation' } } });
  const member = (name: string) => `\${${pathOf(at)}.${name}}`;
  judgeEqual(ctx, step, 'pack_id', 'CPP-RED-1', expected.packId, body.pack_id, member('pack_id'), expected.packIdAt);
  judgeEqual(ctx, step, 'redemption_id', 'CPP-RED-1', expected.redemptionId, body.redemption_id, member('redemption_id'), expected.redemptionIdAt);
  judgeEqual(ctx, step, 'redeemer_kid', 'CPP-RED-1', expected.redeemerKid, body.redeemer_kid, member('redeemer_kid'), expected.redeemerKidAt);
  judgeEqual(ctx, step, 'amount', 'CPP-RED-1', toAmount(expected.amount), body.amount, member('amount'));
  judgeEqual(ctx, step, 'asset', 'CPP-RED-1', expected.asset, body.asset, member('asset'), expected.assetAt);
  judgeEqual(ctx, step, 'chain_digest', 'CPP-CHN-1', expected.digest, body.chain_digest, member('chain_digest'), expected.digestAt);
}

/** `${res.body}` -> `res.body`: the path inside a one-path template, to name a member of it. */
function pathOf(template: string): string {
  if (!/^\$\{[^{}]+\}$/.test(template)) throw new TypeError(`not a single-path template: ${template}`);
  return template.slice(2, -1);
}

function answerOf(reply: Reply): { status: number; code?: ProblemCode | null; content_type?: string; detail?: string } {
  const body = reply.body as { code?: unknown; detail?: unknown } | undefined;
  const type = mediaType(reply.headers);
  return {
    status: reply.status,
    ...(reply.status !== 200 ? { code: typeof body?.code === 'string' ? (body.code as ProblemCode) : null } : {}),
    ...(reply.status !== 200 && type !== 'application/problem+json' ? { content_type: type ?? 'none' } : {}),
    ...(typeof body?.detail === 'string' ? { detail: body.detail.slice(0, 200) } : {}),
  };
}

/** An answer's status and problem code: "200", "409 INSTRUMENT_NOT_ACTIVE". */
export function answerKey(reply: Reply): string {
  return reply.status === 200 ? '200' : `${reply.status} ${String((reply.body as { code?: unknown } | undefined)?.code ?? '')}`.trim();
}

/** Answers counted by status and problem code: `{ "200": 1, "409 INSTRUMENT_NOT_ACTIVE": 4 }`. */
export function tally(replies: readonly Reply[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of replies) {
    const key = answerKey(r);
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/**
 * One answer of a burst, judged in process. A burst's step records its answers
 * together (burstChecks): which copy wins is the target's to choose.
 */
export function judgeBurstAnswer(ctx: Ctx, kind: Endpoint, outcome: Prediction<object>, reply: Reply): void {
  judgeAnswer(ctx, { fields: {}, expect: [] }, kind, outcome, reply);
}

/**
 * A burst's answers as the scenario checks them, from the predicted outcomes:
 * exactly one 200 when one wins, and every answer one of the predicted statuses
 * with one of the predicted problem codes.
 */
export function burstChecks(outcomes: readonly Prediction<object>[], requirement: string): ScriptCheck[] {
  const refusals = outcomes.filter((o): o is Extract<Prediction<object>, { ok: false }> => !o.ok);
  const statuses = [...new Set(outcomes.map((o) => (o.ok ? 200 : o.status)))].sort();
  const codes = [...new Set(refusals.map((o) => o.code))].sort();
  const won = outcomes.some((o) => o.ok);
  const first = refusals[0];
  return [
    ...(won ? [{ exactly_one: { status: 200 }, requirement }] : []),
    { all: { status: statuses.length === 1 ? statuses[0]! : statuses, ...(codes.length > 0 ? { problem: codes } : {}) }, requirement: won || !first ? requirement : first.requirement },
  ];
}

/**
 * What a renewal leaves as it was (PROFILE.md §4.3, §5 renew step 11): the
 * members the Operator fixed at issue, as the model holds them, and the entry
 * sent as the last of renewal_chain. `at` is the returned pack's template,
 * `first` the template of the pack as issued.
 */
export function judgeRenewedMembers(ctx: Ctx, step: ScriptStep, value: unknown, at: string, kept: { readonly amount: string; readonly asset: unknown; readonly expiry: string; readonly issuedAt: string; readonly initialBearer: string; readonly first: string }, entry: { readonly value: unknown; readonly at: string; readonly index: number }): void {
  const pack = value as Partial<CashPack>;
  const of = pathOf(at);
  judgeEqual(ctx, step, 'amount', 'CPP-RNW-1', kept.amount, pack.amount, `\${${of}.amount}`, `\${${kept.first}.amount}`);
  judgeEqual(ctx, step, 'asset', 'CPP-RNW-1', kept.asset, pack.asset, `\${${of}.asset}`, `\${${kept.first}.asset}`);
  judgeEqual(ctx, step, 'expiry', 'CPP-RNW-1', kept.expiry, pack.expiry, `\${${of}.expiry}`, `\${${kept.first}.expiry}`);
  // PROFILE.md §4.3: the Operator's clock when it issued the pack, which a renewal does not change.
  judgeEqual(ctx, step, 'issued_at', 'PRF-MSG-1', kept.issuedAt, pack.issued_at, `\${${of}.issued_at}`, `\${${kept.first}.issued_at}`);
  judgeEqual(ctx, step, 'initial_bearer_pk', 'CPP-RNW-1', kept.initialBearer, pack.initial_bearer_pk?.x, `\${${of}.initial_bearer_pk.x}`, `\${${kept.first}.initial_bearer_pk.x}`);
  judgeEqual(ctx, step, 'the last entry of renewal_chain', 'CPP-CHN-1', entry.value, Array.isArray(pack.renewal_chain) ? (pack.renewal_chain.at(-1) ?? null) : null, `\${${of}.renewal_chain[${entry.index}]}`, entry.at);
}
