// What scenarios read of the Operator: its Policy Document and its public key,
// taken from the target's facts (read once when it opened, target/facts.ts) and
// checked for what scenarios adapt to, and whether the policy is too tight for a
// running clock.
import { isAmount } from '../../../profile/amount.ts';
import { isIdentityLevel } from '../../../profile/control.ts';
import { operatorKeyOf, type PolicyDocument, type PubkeyDocument } from '../../../profile/cashpack/index.ts';
import { StepError, type ScenarioContext } from '../context.ts';
import { isJsonMediaType, send } from '../http.ts';
import { POLICY_PATH, PUBKEY_PATH } from '../../target/facts.ts';

/** The members of the Operator Policy Document (PROFILE.md §4.8) scenarios adapt to; the rest is read as it comes. */
export type Policy = Omit<PolicyDocument, 'profile' | 'operator_kid'> & { readonly [k: string]: unknown };

const WHOLE = (min: number) => (v: unknown) => Number.isSafeInteger(v) && (v as number) >= min;
const POLICY_MEMBERS: Readonly<Record<string, (v: unknown) => boolean>> = {
  assets: (v) => Array.isArray(v) && v.length > 0,
  max_amount: isAmount,
  max_chain_depth: WHOLE(0),
  expiry_min_seconds: WHOLE(0),
  expiry_max_seconds: WHOLE(0),
  required_identity_level: isIdentityLevel,
  request_window_seconds: WHOLE(1),
  max_body_bytes: WHOLE(1),
};

/**
 * The Operator Policy Document, checked once per scenario (a template's `${policy}`,
 * the policy action, the limits of issue and renew). Scenarios adapt to what it
 * says, so one they cannot read is a harness error that points at its own tests.
 */
export async function policyOf(ctx: ScenarioContext): Promise<Policy> {
  if (ctx.vars.__policy) return ctx.vars.__policy as Policy;
  const result = await published(ctx, POLICY_PATH);
  const policy = result.body as Record<string, unknown> | undefined;
  if (result.status !== 200 || policy === null || typeof policy !== 'object') throw new StepError('error', `the Operator Policy Document could not be read (HTTP ${result.status}); its own tests are CPP-WK-1 and PRF-WK-1`);
  const unusable = Object.entries(POLICY_MEMBERS).filter(([name, ok]) => !ok(policy[name])).map(([name]) => name);
  if (unusable.length > 0) throw new StepError('error', `the Operator Policy Document has no usable ${unusable.join(', ')} (PROFILE.md §4.8), which this scenario adapts to; its own tests are CPP-WK-1 and PRF-WK-1`);
  Object.defineProperty(ctx.vars, '__policy', { value: policy, enumerable: false });
  return policy as Policy;
}

export async function operatorKey(ctx: ScenarioContext): Promise<Uint8Array> {
  if (ctx.operatorKey) return ctx.operatorKey;
  const result = await published(ctx, PUBKEY_PATH);
  const key = result.status === 200 && result.body ? operatorKeyOf(result.body as PubkeyDocument) : undefined;
  if (!key) throw new StepError('error', "the Operator's public key document could not be read; check CPP-WK-2");
  ctx.operatorKey = key;
  return key;
}

/**
 * One of the Operator's well-known documents: as the target answered it when it
 * opened (its facts, read once for the run), or, for a target whose facts hold
 * no answer (none came then, or none were read), read by this scenario.
 */
async function published(ctx: ScenarioContext, path: typeof POLICY_PATH | typeof PUBKEY_PATH): Promise<{ status: number | null; body: unknown }> {
  const facts = await ctx.target.facts?.();
  const answer = path === POLICY_PATH ? facts?.operator?.policy : facts?.operator?.key;
  // Read as a scenario's own GET reads it: JSON only under a JSON media type.
  if (answer !== undefined && 'status' in answer) return { status: answer.status, body: answer.truncated || !isJsonMediaType(answer.content_type) ? undefined : answer.document };
  return send(ctx, 'operator', { method: 'GET', path });
}

/**
 * Where the policy leaves less room than the harness's view of a running clock
 * is sure of (a second either way, plus the time a step takes): a permitted
 * lifetime range under 4 s wide, or a freshness window under 3 s. Messages are
 * then dated exactly only against a frozen clock.
 */
export function tightPolicy(policy: Policy): string | undefined {
  if (policy.expiry_max_seconds - policy.expiry_min_seconds < 4) return `permits lifetimes of ${policy.expiry_min_seconds} to ${policy.expiry_max_seconds} s`;
  if (policy.request_window_seconds < 3) return `has a freshness window of ${policy.request_window_seconds} s`;
  return undefined;
}
