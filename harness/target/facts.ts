// The target's facts: what it publishes about itself and every test adapts to,
// read once when the target opens (runner/resolve-target.ts), handed read-only
// to the scenarios, the properties and the fuzzer, and recorded in report.json
// (run.target.facts), where certify reads them. Today the Operator's two
// well-known documents (PROFILE.md §4.8): its Policy Document and its public
// key. They are recorded as they were answered; whether they are usable is
// judged where they are used (scenarios/actions/policy.ts, fuzz/campaign.ts),
// and whether they are right by their own tests (CPP-WK-*, PRF-WK-1).
import { deepFreeze } from '../../profile/freeze.ts';
import { TransportError, type HttpRole } from '../adapters/types.ts';
import type { FactAnswer, TargetFacts } from '../report/model.ts';

export type { FactAnswer, TargetFacts };

export const POLICY_PATH = '/.well-known/cashpack-policy.json';
export const PUBKEY_PATH = '/.well-known/cashpack-pubkey.json';

/** Text of a body that is not JSON kept in report.json, at most. */
const TEXT_LIMIT = 2048;

/** The answered document's JSON, when the answer was a 200 whose body is JSON. */
export function answeredDocument(answer: FactAnswer | undefined): unknown {
  return answer !== undefined && 'status' in answer && answer.status === 200 && answer.truncated !== true ? answer.document : undefined;
}

/** Reads the facts of a target's roles; a role that does not answer one is recorded as such, never thrown. */
export async function discoverFacts(target: { readonly operator?: HttpRole | undefined }, timeoutMs: number): Promise<TargetFacts> {
  if (!target.operator) return {};
  const [policy, key] = await Promise.all([read(target.operator, POLICY_PATH, timeoutMs), read(target.operator, PUBKEY_PATH, timeoutMs)]);
  return deepFreeze({ operator: { policy, key } });
}

async function read(role: HttpRole, path: string, timeoutMs: number): Promise<FactAnswer> {
  try {
    const response = await role.send({ method: 'GET', path, headers: { accept: 'application/json' }, timeoutMs });
    const contentType = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    const text = new TextDecoder().decode(response.body);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      document = undefined;
    }
    return {
      path,
      status: response.status,
      ...(contentType !== undefined ? { content_type: contentType } : {}),
      ...(document !== undefined ? { document } : text.length > 0 ? { text: text.slice(0, TEXT_LIMIT) } : {}),
      ...(response.truncated ? { truncated: true as const } : {}),
    };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { path, no_answer: error.message };
  }
}
