// The chain digest (spec §1.2; PROFILE.md §3), recomputed two independent ways —
// recomputeChainDigest and a hand-written SHA-256 over the profile's bytes — and
// compared with what the Operator returns and reports.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recomputeChainDigest, type CashPack } from '../../../profile/cashpack/index.ts';
import { createFixture } from './fixture.ts';

const b64 = (text: string) => Buffer.from(text, 'base64url');
const uuid16 = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** PROFILE.md §3 written out: D0 over the genesis tag, then Di per renewal. */
function handDigests(pack: CashPack): string[] {
  let d = sha256(Buffer.from('CPP-PROFILE-1.0/chain-genesis\n', 'ascii'), uuid16(pack.pack_id), b64(pack.initial_bearer_pk.x));
  const digests = [d.toString('base64url')];
  for (const entry of pack.renewal_chain) {
    d = sha256(Buffer.from('CPP-PROFILE-1.0/chain-renewal\n', 'ascii'), d, uuid16(entry.renewal_id), b64(entry.new_bearer_pk.x), b64(entry.signature));
    digests.push(d.toString('base64url'));
  }
  return digests;
}

describe('chain digest', () => {
  it.each([0, 1, 2, 8])('at depth %i equals both independent recomputations', async (depth) => {
    const f = createFixture({ policy: { max_chain_depth: 8 } });
    let held = await f.issuePack();
    for (let i = 0; i < depth; i++) held = await f.renewPack(held.pack, held.bearer);
    const { pack } = held;
    const hand = handDigests(pack);
    expect(pack.renewal_chain).toHaveLength(depth);
    expect(pack.chain_digest).toBe(hand.at(-1));
    expect(recomputeChainDigest(pack)).toBe(pack.chain_digest);
    // Entry i carries prev_chain_digest = D(i-1) (PROFILE.md §3).
    expect(pack.renewal_chain.map((e) => e.prev_chain_digest)).toEqual(hand.slice(0, depth));
    expect((await f.status(pack.pack_id)).body.chain_digest).toBe(pack.chain_digest);
  });

  it('binds every entry: changing any earlier renewal changes the final digest', async () => {
    const f = createFixture();
    let held = await f.issuePack();
    for (let i = 0; i < 2; i++) held = await f.renewPack(held.pack, held.bearer);
    const altered = { ...held.pack, renewal_chain: [{ ...held.pack.renewal_chain[0]!, renewal_id: crypto.randomUUID() }, held.pack.renewal_chain[1]!] };
    expect(recomputeChainDigest(altered)).not.toBe(held.pack.chain_digest);
  });
});
