import { describe, expect, it } from 'vitest';
import { TransportError, type HttpRole, type WireRequest } from '../../../harness/adapters/types.ts';
import { operatorKey, policyOf } from '../../../harness/scenarios/actions/index.ts';
import { ScenarioContext, StepError, type ScenarioTarget } from '../../../harness/scenarios/context.ts';
import { discoverFacts, POLICY_PATH, PUBKEY_PATH, type TargetFacts } from '../../../harness/target/facts.ts';
import type { Scenario } from '../../../harness/scenarios/types.ts';

const POLICY = { profile: 'CPP-PROFILE-1.2', assets: [{ type: 'fiat', code: 'EUR' }], max_amount: '1000', max_chain_depth: 8, expiry_min_seconds: 60, expiry_max_seconds: 3600, required_identity_level: 2, request_window_seconds: 300, max_body_bytes: 65536 };
const KEY = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'SkDgJUmTuA27BlobRBrPixQlvYs5S4kDKsu92pMEOKU', kid: 'hDPPrBxke6IVcLUPlffC9SG9Gz1BDTtGnwB2f4Op-K8', use: 'sig', alg: 'EdDSA' }] };

type Answer = { status: number; type?: string; body: string; truncated?: boolean } | 'silent';

/** An Operator answering each path as told, counting what it was sent. */
function operator(answers: Record<string, Answer>): HttpRole & { sent: string[] } {
  const sent: string[] = [];
  return {
    kind: 'http',
    description: 'https://op.test',
    authority: 'op.test',
    baseUrl: 'https://op.test',
    tls: 'verified',
    sent,
    close: async () => undefined,
    send: async (request: WireRequest) => {
      sent.push(`${request.method} ${request.path}`);
      const answer = answers[request.path] ?? { status: 404, body: '' };
      if (answer === 'silent') throw new TransportError('TIMEOUT', `no answer from ${request.path}`);
      const headers: Record<string, string> = answer.type ? { 'content-type': answer.type } : {};
      return { status: answer.status, headers, body: new TextEncoder().encode(answer.body), truncated: answer.truncated === true, durationMs: 1 };
    },
  };
}

const json = (value: unknown): Answer => ({ status: 200, type: 'application/json', body: JSON.stringify(value) });

function context(role: HttpRole, facts?: TargetFacts): ScenarioContext {
  const target: ScenarioTarget = {
    httpRole: (name) => (name === 'operator' ? role : undefined),
    payingApp: undefined,
    capabilities: () => new Set(),
    adapterKind: () => 'http',
    credential: () => undefined,
    ...(facts ? { facts: async () => facts } : {}),
  };
  return new ScenarioContext(target, { id: 'T-1', role: 'operator', steps: [] } as unknown as Scenario, () => 'MUST');
}

describe("the target's facts", () => {
  it('are its answers as they came: JSON, the start of a body that is not JSON, a cut-off body, no answer; frozen', async () => {
    const facts = await discoverFacts({ operator: operator({ [POLICY_PATH]: json(POLICY), [PUBKEY_PATH]: { status: 503, type: 'text/html', body: '<h1>down</h1>' } }) }, 1000);
    expect(facts.operator!.policy).toEqual({ path: POLICY_PATH, status: 200, content_type: 'application/json', document: POLICY });
    expect(facts.operator!.key).toEqual({ path: PUBKEY_PATH, status: 503, content_type: 'text/html', text: '<h1>down</h1>' });
    expect(Object.isFrozen(facts.operator!.policy)).toBe(true);
    expect(Object.isFrozen((facts.operator!.policy as { document: typeof POLICY }).document.assets[0])).toBe(true);

    const odd = await discoverFacts({ operator: operator({ [POLICY_PATH]: { ...(json(POLICY) as object), truncated: true } as Answer, [PUBKEY_PATH]: 'silent' }) }, 1000);
    expect(odd.operator!.policy).toMatchObject({ status: 200, truncated: true });
    expect(odd.operator!.key).toEqual({ path: PUBKEY_PATH, no_answer: `no answer from ${PUBKEY_PATH}` });
    expect(await discoverFacts({}, 1000)).toEqual({});
  });

  it('are what scenarios adapt to, with no request of their own', async () => {
    const role = operator({ [POLICY_PATH]: json(POLICY), [PUBKEY_PATH]: json(KEY) });
    const facts = await discoverFacts({ operator: role }, 1000);
    expect(role.sent).toEqual([`GET ${POLICY_PATH}`, `GET ${PUBKEY_PATH}`]);
    const ctx = context(role, facts);
    expect(await policyOf(ctx)).toEqual(POLICY);
    expect((await operatorKey(ctx)).length).toBe(32);
    expect(role.sent).toHaveLength(2);
    expect(ctx.transcript).toEqual([]);
  });

  it('are judged where they are used: a policy a scenario cannot adapt to is a harness error pointing at its own tests', async () => {
    for (const answer of [{ status: 404, body: '' }, { status: 200, type: 'text/plain', body: JSON.stringify(POLICY) }, json({ ...POLICY, max_amount: 12 })] as Answer[]) {
      const role = operator({ [POLICY_PATH]: answer, [PUBKEY_PATH]: json(KEY) });
      const error = await policyOf(context(role, await discoverFacts({ operator: role }, 1000))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StepError);
      expect((error as StepError).message).toMatch(/its own tests are CPP-WK-1 and PRF-WK-1/);
    }
  });

  it('that hold no answer (none came when the target opened) are read by the scenario itself, in its transcript', async () => {
    const role = operator({ [POLICY_PATH]: json(POLICY) });
    const ctx = context(role, { operator: { policy: { path: POLICY_PATH, no_answer: 'timed out' }, key: { path: PUBKEY_PATH, no_answer: 'timed out' } } });
    expect(await policyOf(ctx)).toEqual(POLICY);
    expect(role.sent).toEqual([`GET ${POLICY_PATH}`]);
    expect(ctx.transcript).toHaveLength(1);
  });
});
