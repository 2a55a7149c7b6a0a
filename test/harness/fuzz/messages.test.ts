import { describe, expect, it } from 'vitest';
import type { CashPack } from '../../../profile/cashpack/index.ts';
import { presentation } from '../../../harness/fuzz/messages.ts';

describe('presenting a cash-pack', () => {
  const pack = { pack_id: 'p', amount: '5', renewal_chain: [{ renewal_id: 'r', signature: 'é"\u2028' }], signature: 's' } as unknown as CashPack;

  it('is the JSON of { cash_pack, <message> }, byte for byte, every time the pack is presented', () => {
    for (const [member, message] of [['renewal', { renewal_id: 'a', created_at: 'now' }], ['redemption', { redemption_id: 'b' }], ['renewal', { renewal_id: 'c' }]] as const) {
      expect(presentation(pack, member, message)).toBe(JSON.stringify({ cash_pack: pack, [member]: message }));
    }
  });

  it('is made from each version of a pack, not from the first one seen', () => {
    const next = { ...pack, amount: '6' } as CashPack;
    expect(presentation(pack, 'renewal', {})).toContain('"amount":"5"');
    expect(presentation(next, 'renewal', {})).toContain('"amount":"6"');
  });
});
