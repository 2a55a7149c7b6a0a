// PROP-OP-022: a Principal's asset may change once nothing is locked or held
// (PROFILE.md §12 "Provisioning again"), to any AssetDescriptor (§12 provision
// takes one, and a Principal "holds funds in the asset it was provisioned
// with, and has none in any other", §5 issue step 9), and what it had stays
// what it was. A fresh Principal issues one to three packs of generated
// amounts, each to its own bearer, which are all redeemed; it is then
// provisioned again with a generated balance in another asset, drawn among
// the policy's other assets, an asset no policy lists (an ISO 4217 test
// currency) and those that share a listed asset's code but are other assets
// (another type, another chain: generators/cashpack/assets.ts): 201; its
// balance names that asset; each of its packs, read by it, keeps the asset it
// was locked in (PROFILE.md §4.7 "asset: as locked"); and a Lock Request in
// its former asset finds none there: INSUFFICIENT_BALANCE.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { recodedAssets, unlistedAsset } from '../../generators/cashpack/assets.ts';
import { createSigningKey, type CashPack } from '../../profile/cashpack/index.ts';
import { StepError, type ScenarioContext } from '../scenarios/context.ts';
import { jsonRequest, send } from '../scenarios/http.ts';
import type { Policy } from '../scenarios/actions/index.ts';
import { define } from './support.ts';
import type { PropertyFailure } from './types.ts';
import { restoreClock } from './field-classes/clock.ts';
import { answerOf, balanceOf, issuePack, lockRequest, operatorNow, operatorSetup, provisionPrincipal, redeemRequest, redemption, statusRequest } from './field-classes/operator-setup.ts';

const FILE = 'harness/properties/operator-assets.ts';

type Asset = Policy['assets'][number];

interface Case {
  /** The packs' amounts, each a fraction of 2^16 of the way to the target's max_amount (a million units at most). */
  readonly amounts: readonly number[];
  /** Which of the other assets (modulo their count) the Principal takes. */
  readonly to: number;
  /** The balance it is provisioned with there: none, a unit, or up to past 2^53. */
  readonly balance: bigint;
}

const cases: fc.Arbitrary<Case> = fc.record({
  amounts: fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 3 }),
  to: fc.nat({ max: 63 }),
  balance: fc.oneof(fc.constantFrom(0n, 1n), fc.bigInt({ min: 2n, max: 1_000_000n }), fc.bigInt({ min: 2n ** 53n - 1n, max: 10n ** 30n })),
});

/** Every asset the Principal may be moved to from `own`: the policy's others first, then assets no policy lists. */
function otherAssets(policy: Pick<Policy, 'assets'>, own: Asset): Asset[] {
  const unlisted = unlistedAsset(policy.assets);
  return [...policy.assets.filter((a) => !isDeepStrictEqual(a, own)), ...(unlisted ? [unlisted] : []), ...recodedAssets(policy.assets)] as Asset[];
}

async function judge(ctx: ScenarioContext, c: Case): Promise<PropertyFailure | undefined> {
  const setup = await operatorSetup(ctx);
  const { policy, redeemer } = setup;
  const own = setup.asset;
  const most = BigInt(policy.max_amount) < 1_000_000n ? BigInt(policy.max_amount) : 1_000_000n;
  const amounts = c.amounts.map((at) => 1n + ((most - 1n) * BigInt(at)) / 0xffffn);
  const principal = createSigningKey();
  await provisionPrincipal(ctx, principal, amounts.reduce((a, b) => a + b, 0n).toString(), policy, own);
  const now = await operatorNow(ctx);
  const seconds = Math.floor(now / 1000);
  const packs: CashPack[] = [];
  for (const amount of amounts) {
    const bearer = createSigningKey();
    const pack = await issuePack(ctx, { principal, policy, asset: own }, bearer, now, { amount: amount.toString() });
    const redeemed = await send(ctx, 'operator', redeemRequest(ctx, JSON.stringify({ cash_pack: pack, redemption: redemption(pack, bearer, redeemer, now) }), redeemer, seconds));
    if (redeemed.status !== 200) throw StepError.setupFailed('CPP-RED-1', `setting up: the Operator did not redeem a pack (HTTP ${redeemed.status}: ${redeemed.text.slice(0, 200)}); its own scenarios judge redeem`);
    packs.push(pack);
  }
  const others = otherAssets(policy, own);
  const asset = others[c.to % others.length]!;
  const story = `a Principal provisioned in ${JSON.stringify(own)}, its ${packs.length} pack(s) of ${amounts.join(', ')} issued and redeemed, then provisioned again with ${c.balance} in ${JSON.stringify(asset)}`;
  const provisioned = await send(ctx, 'operator', jsonRequest('POST', '/_control/operator/principals', { public_key: principal.jwk, asset, balance: c.balance.toString() }));
  if (provisioned.status !== 201) {
    return { expected: { status: 201 }, actual: { status: provisioned.status, body: provisioned.body }, message: `${story}: PROFILE.md §12 takes any AssetDescriptor, and the asset may change while nothing is locked or held`, requirements: ['PRF-CTL-1'] };
  }
  const read = await balanceOf(ctx, principal);
  const want = { asset, available: c.balance.toString(), locked: '0', held: '0' };
  // The four members PROFILE.md §12 gives a Principal's balance read; what else an answer holds is not judged here.
  const balance = { asset: read.asset, available: read.available, locked: read.locked, held: read.held };
  if (!isDeepStrictEqual(balance, want)) return { expected: want, actual: read, message: `${story}: its balance`, requirements: ['PRF-CTL-1'] };
  for (const pack of packs) {
    const answer = await send(ctx, 'operator', statusRequest(ctx, pack.pack_id, principal, seconds));
    const status = answer.body as { asset?: unknown; status?: unknown; amount?: unknown } | undefined;
    if (answer.status !== 200 || !isDeepStrictEqual(status?.asset, pack.asset) || status?.status !== 'REDEEMED' || status.amount !== pack.amount) {
      return { expected: { status: 200, body: { status: 'REDEEMED', amount: pack.amount, asset: pack.asset } }, actual: { status: answer.status, body: answer.body }, message: `${story}; then the status of its pack ${pack.pack_id} read by it: the asset it was locked in (PROFILE.md §4.7)`, requirements: ['CPP-STS-1', 'PRF-STS-1'] };
    }
  }
  const lock = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lockRequest({ principal, policy, asset: own }, now, { amount: '1' })));
  if (answerOf(lock) !== 'INSUFFICIENT_BALANCE') {
    return { expected: { status: 422, code: 'INSUFFICIENT_BALANCE' }, actual: { status: lock.status, body: lock.body }, message: `${story}; then a Lock Request for one unit in its former asset, where it has none (PROFILE.md §5 issue step 9)`, requirements: ['CPP-BAL-1'] };
  }
  return undefined;
}

export const OPERATOR_ASSETS = define<Case>({
  id: 'PROP-OP-022',
  title: "a Principal whose packs were all redeemed is provisioned again in another asset, listed or not: 201, its balance in that asset, its packs' status still in the asset they were locked in, and none of its former asset left to lock",
  requirements: ['PRF-CTL-1', 'CPP-STS-1', 'PRF-STS-1', 'CPP-BAL-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §12', 'PROFILE §4.7', 'PROFILE §5', '§4.2'],
  needs: ['provision', 'balance'],
  // Its setup freezes the Operator's clock under a tight policy (operator-setup.ts).
  shares: 'clock-if-tight-policy',
  defaultRuns: 8,
  file: FILE,
  teardown: (ctx) => restoreClock(ctx, 'operator'),
  arbitrary: () => cases,
  check: judge,
});
