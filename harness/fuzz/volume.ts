// Commands that pass the capacities an implementation may have without
// saying so: many packs of one Principal whose expiry order is not their issue
// order (PROFILE.md §5.1: each expires at its own instant, its funds back), and
// a flood of Lock Requests whose ids the Operator must all remember (§6: every
// id recorded less than twice the window ago is a duplicate, however many there
// are), probed with the first of them at the end.
import { seededShuffler } from '../../generators/parts/shuffle.ts';
import { toAmount } from '../../profile/index.ts';
import { assetField, ref, resolveExpiry } from './choices.ts';
import { answerCheck, judgeAnswer, type Ctx } from './judge.ts';
import { buildIssue } from './messages.ts';
import type { ModelPolicy } from './model.ts';
import { performIssue } from './perform.ts';
import type { CommandSpec, LifetimeOrder } from './spec.ts';
import { KEY } from './world.ts';

type Spec<K extends CommandSpec['kind']> = Extract<CommandSpec, { kind: K }>;

/** Requests of a flood in flight at once. */
const FLOOD_IN_FLIGHT = 16;

/** `count` packs of the Principal, one unit each, issued one after the other with lifetimes in the order `lifetimes` says. */
export async function issueMany(spec: Spec<'issue-many'>, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  w.executed.push(spec);
  const lifetimes = lifetimesOf(spec.count, spec.lifetimes, m.operator.policy);
  for (let i = 0; i < lifetimes.length && !m.halted(); i++) {
    const bearer = w.newBearer();
    const now = m.operator.now;
    const built = buildIssue(w, now, { signer: KEY.principal, bearer, amount: 1n, expiryMs: now + lifetimes[i]! * 1000 });
    const capture = w.capture();
    const fields = { do: 'issue', principal: KEY.principal, bearer, amount: '1', ...assetField(w, w.principalAsset), expiry_in: lifetimes[i], as: capture };
    await performIssue(ctx, built, fields, capture, bearer);
  }
  await w.checkBalances(m, ctx, 'CPP-FND-1', false);
}

/**
 * Lifetimes from expiry_min_seconds up, a step apart (within an hour, or the
 * policy's range), in issue order: the last issued expiring first
 * (`descending`), the first (`ascending`), or shuffled by a seed.
 */
export function lifetimesOf(count: number, order: LifetimeOrder, policy: ModelPolicy): number[] {
  const min = policy.expiryMinSeconds;
  const span = Math.min(policy.expiryMaxSeconds - min, 3600);
  const step = Math.max(0, Math.floor(span / Math.max(count, 1)));
  const inOrder = Array.from({ length: count }, (_, i) => i);
  const ranks = order === 'descending' ? inOrder.reverse() : typeof order === 'object' ? seededShuffler(order.shuffle)(inOrder) : inOrder;
  return ranks.map((k) => Math.min(min + k * step, policy.expiryMaxSeconds));
}

/**
 * `count` Lock Requests of the Principal, each refused EXPIRY_INVALID (a
 * lifetime one second beyond the policy's), so that each changes nothing but
 * the ids the Operator remembers (PROFILE.md §6: recorded from issue step 5 on);
 * then a valid Lock Request reusing the first one's id, which is a duplicate.
 * Only the first and the probe are logged exchange by exchange.
 */
export async function flood(spec: Spec<'flood'>, ctx: Ctx): Promise<void> {
  const { m, w } = ctx;
  w.executed.push(spec);
  const policy = m.operator.policy;
  const lifetime = policy.expiryMaxSeconds + 1;
  const now = m.operator.now;
  const bearer = w.newBearer();
  // Each is refused at step 8 whatever the order: built, predicted and committed
  // one by one, in order, as a place among the FLOOD_IN_FLIGHT in flight frees
  // up; built all first, thousands of them would keep the harness from reading
  // the answers of other lanes for as long.
  const build = () => {
    const built = buildIssue(w, now, { signer: KEY.principal, bearer, amount: 1n, expiryMs: now + lifetime * 1000 });
    const decision = m.operator.issue(built.message);
    decision.commit(undefined);
    return { built, outcome: decision.outcome };
  };
  const head = build();
  const second = spec.count > 1 ? build() : undefined;
  const first = w.capture();
  const lock = { principal: KEY.principal, bearer, amount: '1', ...assetField(w, w.principalAsset), expiry_in: lifetime };
  const firstStep = w.step({ do: 'issue', ...lock, as: first });
  const inner = { do: 'issue', ...lock, expect: [] as Record<string, unknown>[] };
  const rest = second !== undefined ? w.step({ do: 'repeat', times: spec.count - 1, steps: [inner], note: `the Operator remembers every id recorded less than twice the window ago (PROFILE.md §6), however many` }) : undefined;
  if (second?.outcome) inner.expect.push(answerCheck('issue', second.outcome));
  w.sent.push({ message: head.built.message, request: head.built.request, sentRef: `${first}.sent` });
  m.sent = w.sent.length;
  const outcomes = [head.outcome];
  await inWindow(spec.count, FLOOD_IN_FLIGHT, m.halted, (at) => {
    const { built, outcome } = at === 0 ? head : at === 1 ? second! : build();
    outcomes[at] = outcome;
    return w.send(built.request, at === 0);
  }, (at, reply) => judgeAnswer(ctx, at === 0 ? firstStep : { fields: {}, expect: [] }, 'issue', outcomes[at]!, reply));
  if (rest === undefined || m.halted()) return;
  // The probe: a valid Lock Request with the first id.
  const probeBearer = w.newBearer();
  const typical = resolveExpiry('typical', policy.expiryMinSeconds, policy.expiryMaxSeconds);
  const built = buildIssue(w, now, { signer: KEY.principal, bearer: probeBearer, amount: 1n, expiryMs: now + typical * 1000, id: head.built.message.id });
  const capture = w.capture();
  const fields = { do: 'issue', principal: KEY.principal, bearer: probeBearer, amount: toAmount(1n), ...assetField(w, w.principalAsset), expiry_in: typical, request_id: ref(`${first}.sent.request_id`), as: capture };
  await performIssue(ctx, built, fields, capture, probeBearer, { onReply: () => w.readBalancesNow(false) });
  await w.checkBalances(m, ctx, 'CPP-RPL-1', false);
}

/**
 * Starts `count` requests, at most `width` in flight and none once `halted`,
 * each as soon as a place frees up, and judges the answers in the order the
 * requests were started (a difference is reported at the earliest one that
 * shows it, whatever order the answers came in). Rejects with the first error,
 * starting no more.
 */
export function inWindow<R>(count: number, width: number, halted: () => boolean, start: (at: number) => Promise<R>, judge: (at: number, reply: R) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const arrived = new Map<number, R>();
    let next = 0;
    let judged = 0;
    let active = 0;
    let failed = false;
    const fail = (error: unknown) => {
      failed = true;
      reject(error);
    };
    const launch = (): void => {
      while (!failed && active < width && next < count && !halted()) {
        const at = next++;
        active += 1;
        let sent: Promise<R>;
        try {
          sent = start(at);
        } catch (error) {
          return fail(error);
        }
        sent.then((reply) => {
          active -= 1;
          if (failed) return;
          arrived.set(at, reply);
          try {
            while (arrived.has(judged)) {
              const r = arrived.get(judged)!;
              arrived.delete(judged);
              judge(judged++, r);
            }
          } catch (error) {
            return fail(error);
          }
          launch();
        }, fail);
      }
      if (active === 0 && !failed) resolve();
    };
    launch();
  });
}
