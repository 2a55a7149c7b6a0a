// chain-digests.json: renewal chains of depths 0, 1, 2, 3, 5 and 8 with every
// intermediate digest (PROFILE.md §3), and digest lists that are wrong in the
// ways implementations get them wrong: a variable-length field (text instead of
// bytes), a missing separator or tag, a reordered chain, a broken link.
import { createHash } from 'node:crypto';
import { encodeB64url } from '../../../profile/b64url.ts';
import type { RenewalEntry } from '../../../profile/cashpack/index.ts';
import type { DraftCase, DraftFile, JsonObject } from '../model.ts';
import { keyHeaderLines } from '../keys.ts';
import { asJson, draftCase } from './draft.ts';
import { buildChain, rolled, uuid16, type Chain } from './messages.ts';
import { signObject } from '../../../profile/signing.ts';

const text = (digests: readonly Uint8Array[]) => digests.map((d) => encodeB64url(d));

function chainCase(k: string, comment: string, flags: string[], result: 'valid' | 'invalid', chain: Chain, entries: readonly RenewalEntry[], digests: readonly Uint8Array[]): DraftCase {
  return draftCase(k, comment, flags, result, ['PRF-DIG-1', 'CPP-CHN-1'], {
    pack_id: chain.pack_id,
    initial_bearer_pk: asJson(chain.bearers[0]!.jwk),
    renewal_chain: entries.map((e) => asJson(e)) as JsonObject[],
    digests: text(digests),
  });
}

const sha256 = (...parts: (Uint8Array | string)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

function validCases(): DraftCase[] {
  return [0, 1, 2, 3, 5, 8].map((depth) => {
    const chain = buildChain(`chain depth ${depth}`, depth);
    return chainCase(`valid:depth-${depth}`, depth === 0 ? 'a freshly issued pack: the digest list is [D0]' : `${depth} renewal(s): D0 .. D${depth}`, ['Valid'], 'valid', chain, chain.entries, chain.digests);
  });
}

function invalidCases(): DraftCase[] {
  const one = buildChain('chain invalid depth 1', 1);
  const entry = one.entries[0]!;
  const d0 = one.digests[0]!;
  const newKey = one.bearers[1]!.publicKey;
  const sig = Buffer.from(entry.signature, 'base64url');
  const cases: DraftCase[] = [
    chainCase('invalid:renewal-id-as-text', 'D1 computed over the 36-character text of renewal_id instead of its 16 bytes', ['VariableLengthField'], 'invalid', one, one.entries, [d0, sha256('CPP-PROFILE-1.0/chain-renewal\n', d0, entry.renewal_id, newKey, sig)]),
    chainCase('invalid:signature-as-text', 'D1 computed over the base64url text of the signature instead of its 64 bytes', ['VariableLengthField'], 'invalid', one, one.entries, [d0, sha256('CPP-PROFILE-1.0/chain-renewal\n', d0, uuid16(entry.renewal_id), newKey, entry.signature)]),
    chainCase('invalid:key-as-jwk-x', 'D0 computed over the base64url text x of initial_bearer_pk instead of the 32 key bytes', ['VariableLengthField'], 'invalid', one, one.entries, (() => {
      const bad0 = sha256('CPP-PROFILE-1.0/chain-genesis\n', uuid16(one.pack_id), one.bearers[0]!.jwk.x);
      return [bad0, rolled(bad0, entry.renewal_id, newKey, sig)];
    })()),
    chainCase('invalid:pack-id-as-text', 'D0 computed over the text of pack_id instead of its 16 bytes', ['VariableLengthField'], 'invalid', one, one.entries, (() => {
      const bad0 = sha256('CPP-PROFILE-1.0/chain-genesis\n', one.pack_id, one.bearers[0]!.publicKey);
      return [bad0, rolled(bad0, entry.renewal_id, newKey, sig)];
    })()),
    chainCase('invalid:no-separator', 'D0 computed without the 0x0A after the genesis tag', ['MissingSeparator'], 'invalid', one, one.entries, (() => {
      const bad0 = sha256('CPP-PROFILE-1.0/chain-genesis', uuid16(one.pack_id), one.bearers[0]!.publicKey);
      return [bad0, rolled(bad0, entry.renewal_id, newKey, sig)];
    })()),
    chainCase('invalid:genesis-tag-for-renewal', 'D1 computed with the genesis tag instead of the renewal tag', ['WrongTag'], 'invalid', one, one.entries, [d0, sha256('CPP-PROFILE-1.0/chain-genesis\n', d0, uuid16(entry.renewal_id), newKey, sig)]),
    chainCase('invalid:new-bearer-omitted', 'D1 computed without new_bearer_pk: the digest would not bind who holds the pack', ['MissingField'], 'invalid', one, one.entries, [d0, sha256('CPP-PROFILE-1.0/chain-renewal\n', d0, uuid16(entry.renewal_id), sig)]),
  ];

  // A reordered chain: entries 2 and 3 of a depth-5 chain swapped, with the digests of the true order.
  const five = buildChain('chain invalid reordered', 5);
  const swapped = [...five.entries];
  [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
  cases.push(chainCase('invalid:reordered', 'renewal entries 2 and 3 swapped; the digests are those of the true order, and each entry\'s prev_chain_digest no longer links', ['ReorderedChain'], 'invalid', five, swapped, five.digests));

  // The digests of the swapped order, correctly rolled: the formula holds but the links do not.
  let d = five.digests[0]!;
  const rolledSwapped = [d];
  for (const e of swapped) {
    d = rolled(d, e.renewal_id, Buffer.from(e.new_bearer_pk.x, 'base64url'), Buffer.from(e.signature, 'base64url'));
    rolledSwapped.push(d);
  }
  cases.push(chainCase('invalid:reordered-rolled', 'entries 2 and 3 swapped and the digests rolled over the swapped order: the arithmetic is right but entry 2\'s prev_chain_digest is not D1', ['ReorderedChain', 'BrokenLink'], 'invalid', five, swapped, rolledSwapped));

  // A broken link: entry 2 signed with prev_chain_digest D0 instead of D1; digests rolled correctly.
  const two = buildChain('chain invalid broken link', 2);
  const bearer = two.bearers[1]!;
  const { signature: _s, ...second } = two.entries[1]!;
  const relinked = signObject('renewal-entry', { ...second, prev_chain_digest: encodeB64url(two.digests[0]!) }, bearer.seed);
  const entries = [two.entries[0]!, relinked];
  const digests = [two.digests[0]!, two.digests[1]!, rolled(two.digests[1]!, relinked.renewal_id, Buffer.from(relinked.new_bearer_pk.x, 'base64url'), Buffer.from(relinked.signature, 'base64url'))];
  cases.push(chainCase('invalid:broken-link', 'entry 2 carries prev_chain_digest D0 instead of D1 (signed that way); the digests are rolled correctly, so only the link check catches it', ['BrokenLink'], 'invalid', two, entries, digests));

  // Genesis digest is D0 for any pack: a list that starts at D1 is not the chain.
  const g = buildChain('chain invalid missing genesis', 1);
  cases.push(chainCase('invalid:missing-genesis', 'the list leaves out D0: a chain of n renewals has n + 1 digests', ['MissingDigest'], 'invalid', g, g.entries, g.digests.slice(1)));
  return cases;
}

export function buildChainDigests(): DraftFile {
  return {
    kind: 'chain-digests',
    algorithm: 'SHA-256 rolling chain digest of PROFILE.md §3',
    header: [
      'Chain digests (PROFILE.md §3): D0 = SHA-256("CPP-PROFILE-1.0/chain-genesis" || 0x0A || uuid16(pack_id) || x(initial_bearer_pk)); Di = SHA-256("CPP-PROFILE-1.0/chain-renewal" || 0x0A || D(i-1) || uuid16(renewal_id) || x(new_bearer_pk) || signature), every field fixed-length raw bytes.',
      'For each case: recompute D0 from `pack_id` and `initial_bearer_pk`, then roll one digest per entry of `renewal_chain` (oldest first), and check that every entry i (1-based) carries prev_chain_digest = D(i-1). The case is valid exactly when both hold and the list of digests, base64url without padding, equals `digests` item for item (n entries give n + 1 digests).',
      'The last digest is the pack\'s chain_digest. Renewal Entries are real, signed by the published test keys; their signatures are not what this file checks (see signatures.json).',
      ...keyHeaderLines(['test-key-2', 'test-key-3', 'test-key-4']),
    ],
    notes: {
      Valid: 'The digests of PROFILE.md §3, every intermediate one listed.',
      VariableLengthField: 'A field was hashed as text (variable length) instead of its fixed-length bytes, which makes the hashed strings ambiguous.',
      MissingSeparator: 'The 0x0A after the tag was left out.',
      WrongTag: 'The wrong domain tag was used.',
      MissingField: 'A field of the formula was left out.',
      ReorderedChain: 'The renewal entries are not in the order they happened.',
      BrokenLink: 'An entry\'s prev_chain_digest is not the digest before it (PROFILE.md §4.4).',
      MissingDigest: 'The list does not have one digest per state of the chain.',
    },
    groups: [
      { members: { type: 'ChainDigestTest', comment: 'chains of several depths' }, tests: validCases() },
      { members: { type: 'ChainDigestTest', comment: 'wrong digests and broken chains' }, tests: invalidCases() },
    ],
  };
}
