// Each Operator suite mutant is a real fault: the same probe, run against the correct
// Operator and against the mutant, observes the correct behaviour and the
// described fault. The table is keyed by every operator suite mutant (a missing one
// does not compile; its fuzzer mutants are probed in switches.test.ts).
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { canonicalJson, digestText, encodeB64url, formatTimestamp, PROFILE_ID, signBytes, signingInput, signObject, signRequestAs } from '../../../profile/index.ts';
import { forgeTorsionSignature, L, le32, leInt, type TorsionR } from '../../../harness/crypto/ed25519-forge.ts';
import { mixedOrderBearer, withMixedOrderR } from '../../../harness/crypto/ed25519-malleate.ts';
import { TORSION_POINTS } from '../../../generators/classes/weak-key.ts';
import { createSigningKey, operatorKeyOf, recomputeChainDigest, verifyCashPack, type CashPack, type LockRequest } from '../../../profile/cashpack/index.ts';
import { createRole } from '../../../reference/adapter.ts';
import { createControlHandler } from '../../../reference/control.ts';
import { MUTANTS, faultsFor, type MutantOfRole } from '../../../reference/mutants.ts';
import { AUTHORITY, createFixture, EUR, provisionPrincipal, type Fixture, type FixtureOptions, type Reply } from '../operator/fixture.ts';
import { withOwnAuthority } from '../../../reference/http/authority.ts';
import { recased } from '../../../generators/cashpack/corruptions.ts';

interface Probe {
  /** What the probe looks at. */
  readonly observes: string;
  readonly fixture?: Omit<FixtureOptions, 'faults'>;
  observe(f: Fixture, mutant: string | undefined): Promise<unknown>;
  /** What the correct Operator shows, and what the mutant shows. */
  readonly correct: unknown;
  readonly mutant: unknown;
}

/**
 * A test-control request to the routes every role shares (reference/control.ts), on the fixture's clock and its lease:
 * `json` sent as JSON, or as the text it is when given as `{ raw }`.
 */
async function control(f: Fixture, mutant: string | undefined, method: string, path: string, json?: unknown): Promise<Reply> {
  const handler = createControlHandler(f.clock, { faults: faultsFor(mutant) });
  const raw = (json as { raw?: unknown } | undefined)?.raw;
  const body = new TextEncoder().encode(json === undefined ? '' : typeof raw === 'string' ? raw : JSON.stringify(json));
  const response = await handler({ method, path, query: new URLSearchParams(), headers: json === undefined ? {} : { 'content-type': 'application/json' }, body, authority: 'operator.test', secure: true });
  return { status: response.status, headers: { ...response.headers }, body: response.body === undefined ? undefined : JSON.parse(JSON.stringify(response.body)) };
}

/** 200 for a success, else the problem code. */
const answer = (reply: Reply): unknown => (reply.status < 300 ? reply.status : reply.body?.code);

/** The answer to a renewal of a pack renewed `depth` times since its issue. */
async function renewalAtDepth(f: Fixture, depth: number): Promise<unknown> {
  let { pack, bearer } = await f.issuePack();
  for (let i = 0; i < depth; i++) ({ pack, bearer } = await f.renewPack(pack, bearer));
  return answer(await f.renew(pack, f.renewal(pack, bearer).entry));
}

/** The answer to a redemption of a pack just issued, by its bearer and the fixture's redeemer. */
async function redeemFresh(f: Fixture): Promise<unknown> {
  const { pack, bearer } = await f.issuePack();
  return answer(await f.redeem(pack, f.redemption(pack, bearer)));
}

const HOUR_MS = 3_600_000;

/** The Lock Request with a signature whose R is a torsion point (harness/crypto/ed25519-forge.ts). */
function torsionSigned(lock: LockRequest, principal: { readonly secretKey: Uint8Array; readonly publicKey: Uint8Array }, r: TorsionR): LockRequest {
  return { ...lock, signature: encodeB64url(forgeTorsionSignature(principal.secretKey, principal.publicKey, signingInput('lock-request', lock), r)) };
}

/** A point of small order to add to R or A: one of order 8. */
const TORSION = TORSION_POINTS.find((t) => t.order === 8)!;

/** The Lock Request with a signature whose R is [r]B plus a point of small order (S = r + k·a): only the cofactored equation holds. */
function mixedRSigned(lock: LockRequest, principal: { readonly secretKey: Uint8Array; readonly publicKey: Uint8Array }): LockRequest {
  return { ...lock, signature: encodeB64url(withMixedOrderR(signingInput('lock-request', lock), principal, TORSION.encoding)) };
}

/** A status read signed for the authority other.example, which `header` names. */
async function readSignedElsewhere(f: Fixture, header: 'host' | 'x-forwarded-host'): Promise<unknown> {
  const { pack } = await f.issuePack();
  const path = `/v1/cashpack/${pack.pack_id}/status`;
  const signature = signRequestAs({ method: 'GET', authority: 'other.example', path }, { secretKey: f.principal.secretKey, kid: f.principal.jwk.kid }, f.clock.nowSeconds(), 'profile');
  return answer(await f.send('GET', path, { headers: { ...signature, [header]: 'other.example' } }));
}

const PROBES: Record<MutantOfRole<'operator'>, Probe> = {
  'op-route-prefix-match': {
    observes: 'a GET of the policy document with a segment after its path',
    observe: async (f) => (await f.send('GET', '/.well-known/cashpack-policy.json/x')).status,
    correct: 404,
    mutant: 200,
  },
  'op-route-suffix-match': {
    observes: 'a valid Lock Request POSTed to the issue path with the profile\'s /v1/cashpack before it',
    observe: async (f) => answer(await f.send('POST', '/v1/cashpack/v1/cashpack/issue', { json: f.lockRequest() })),
    correct: 'NOT_FOUND',
    mutant: 200,
  },
  'op-route-trailing-slash-tolerated': {
    observes: 'a valid Lock Request POSTed to the issue path with a trailing slash',
    observe: async (f) => answer(await f.send('POST', '/v1/cashpack/issue/', { json: f.lockRequest() })),
    correct: 'NOT_FOUND',
    mutant: 200,
  },
  'op-route-parameter-spans-segments': {
    observes: 'an unsigned GET of a status path with one segment more inside its pack id',
    observe: async (f) => answer(await f.send('GET', '/v1/cashpack/x/y/status')),
    correct: 'NOT_FOUND',
    mutant: 'UNAUTHENTICATED',
  },
  'op-route-path-percent-decoded': {
    observes: "an unsigned GET of a pack's status path with its last separator written %2F",
    observe: async (f) => answer(await f.send('GET', '/v1/cashpack/00000000-0000-4000-8000-000000000000%2Fstatus')),
    correct: 'NOT_FOUND',
    mutant: 'UNAUTHENTICATED',
  },
  'op-405-without-allow': {
    observes: 'the Allow header of a GET of the issue endpoint',
    observe: async (f) => (await f.send('GET', '/v1/cashpack/issue')).headers['allow'] ?? null,
    correct: 'POST',
    mutant: null,
  },
  'op-status-open': {
    observes: 'an unsigned status read',
    async observe(f) {
      const { pack } = await f.issuePack();
      return answer(await f.status(pack.pack_id, null));
    },
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-signs-with-other-key': {
    observes: 'whether an issued pack verifies under the well-known key',
    async observe(f) {
      const { pack } = await f.issuePack();
      const document = (await f.send('GET', '/.well-known/cashpack-pubkey.json')).body;
      return verifyCashPack(pack, operatorKeyOf(document)!);
    },
    correct: true,
    mutant: false,
  },
  'op-policy-wrong-profile': {
    observes: 'the profile the policy document names',
    observe: async (f) => (await f.send('GET', '/.well-known/cashpack-policy.json')).body.profile,
    correct: PROFILE_ID,
    mutant: 'CPP-PROFILE-0.9',
  },
  'op-policy-older-profile': {
    observes: 'the profile the policy document names',
    observe: async (f) => (await f.send('GET', '/.well-known/cashpack-policy.json')).body.profile,
    correct: PROFILE_ID,
    mutant: 'CPP-PROFILE-1.0',
  },
  'op-policy-document-missing': {
    observes: 'the status of GET /.well-known/cashpack-policy.json',
    observe: async (f) => (await f.send('GET', '/.well-known/cashpack-policy.json')).status,
    correct: 200,
    mutant: 404,
  },
  'op-signatures-unverified': {
    observes: 'a Lock Request whose amount changed after signing',
    observe: async (f) => answer(await f.issue({ ...f.lockRequest(), amount: '101' })),
    correct: 'INVALID_SIGNATURE',
    mutant: 200,
  },
  'op-domain-tag-ignored': {
    observes: 'a Lock Request signed under the renewal-entry tag',
    async observe(f) {
      const { signature: _signature, ...unsigned } = f.lockRequest();
      return answer(await f.issue(signObject('renewal-entry', unsigned, f.principal.secretKey) as LockRequest));
    },
    correct: 'INVALID_SIGNATURE',
    mutant: 200,
  },
  'op-bearer-compared-as-json': {
    observes: "a redemption by the bearer, its key's JWK written with the members in reverse order",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const reversed = { ...bearer, jwk: Object.fromEntries(Object.entries(bearer.jwk).reverse()) as typeof bearer.jwk };
      return answer(await f.redeem(pack, f.redemption(pack, reversed)));
    },
    correct: 200,
    mutant: 'BEARER_MISMATCH',
  },
  'op-previous-bearer-accepted': {
    observes: 'a redemption by the bearer before the last renewal',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const renewed = await f.renewPack(pack, bearer);
      return answer(await f.redeem(renewed.pack, f.redemption(renewed.pack, bearer)));
    },
    correct: 'BEARER_MISMATCH',
    mutant: 200,
  },
  'op-chain-digest-wrong': {
    observes: "whether a renewed pack's chain_digest recomputes",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const renewed = await f.renewPack(pack, bearer);
      return recomputeChainDigest(renewed.pack) === renewed.pack.chain_digest;
    },
    correct: true,
    mutant: false,
  },
  'op-chain-digest-unchecked': {
    observes: 'a renewal naming a forged prev_chain_digest',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const { entry } = f.renewal(pack, bearer, { prev_chain_digest: digestText(new Uint8Array(32)) });
      return answer(await f.renew(pack, entry));
    },
    correct: 'CHAIN_DIGEST_MISMATCH',
    mutant: 200,
  },
  'op-balance-any-asset': {
    observes: 'a Lock Request for 100 USDC by a Principal funded with 500 EUR, under a policy of both',
    fixture: { balance: '500', policy: { assets: [{ type: 'fiat', code: 'EUR' }, { type: 'stablecoin', code: 'USDC', chain_id: '1' }] } },
    observe: async (f) => answer(await f.issue(f.lockRequest({ amount: '100', asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' } }))),
    correct: 'INSUFFICIENT_BALANCE',
    mutant: 200,
  },
  'op-held-funds-spendable': {
    observes: 'a Lock Request for 950 by a Principal of 1000 whose pack of 100 was cancelled (900 available, 100 held)',
    fixture: { balance: '1000' },
    async observe(f) {
      const { pack } = await f.issuePack({ amount: '100' });
      expect(f.operator.cancel(pack.pack_id).ok).toBe(true);
      return answer(await f.issue(f.lockRequest({ amount: '950' })));
    },
    correct: 'INSUFFICIENT_BALANCE',
    mutant: 200,
  },
  'op-balance-off-by-one': {
    observes: 'a Lock Request for exactly the available balance',
    fixture: { balance: '500' },
    observe: async (f) => answer(await f.issue(f.lockRequest({ amount: '500' }))),
    correct: 200,
    mutant: 'INSUFFICIENT_BALANCE',
  },
  'op-limit-off-by-one': {
    observes: 'a Lock Request for exactly max_amount',
    observe: async (f) => answer(await f.issue(f.lockRequest({ amount: f.operator.policy.max_amount }))),
    correct: 200,
    mutant: 'AMOUNT_EXCEEDS_LIMIT',
  },
  'op-asset-compared-as-json-text': {
    observes: "a Lock Request whose asset has the policy's members in the other order",
    observe: async (f) => {
      const asset = f.operator.policy.assets[0]!;
      const reversed = Object.fromEntries(Object.entries(asset).reverse()) as typeof asset;
      return answer(await f.issue(f.lockRequest({ asset: reversed })));
    },
    correct: 200,
    mutant: 'ASSET_NOT_SUPPORTED',
  },
  'op-redeemer-credited-in-first-asset': {
    observes: "the redeemer's EUR balance once it redeemed a EUR pack of 7, under a policy of USD then EUR",
    fixture: { policy: { assets: [{ type: 'fiat', code: 'USD' }, EUR] } },
    async observe(f) {
      const { pack, bearer } = await f.issuePack({ amount: '7' });
      expect(answer(await f.redeem(pack, f.redemption(pack, bearer)))).toBe(200);
      const read = f.operator.redeemerBalance(f.redeemer.jwk.kid, EUR);
      return read.ok ? read.value.available : read.problem.code;
    },
    correct: '7',
    mutant: '0',
  },
  'op-confirmation-amount-redeemer-total': {
    observes: "the amount of the confirmation of a redeemer's second redemption in one asset, a pack of 5 after one of 7",
    async observe(f) {
      const first = await f.issuePack({ amount: '7' });
      expect(answer(await f.redeem(first.pack, f.redemption(first.pack, first.bearer)))).toBe(200);
      const second = await f.issuePack({ amount: '5' });
      const reply = await f.redeem(second.pack, f.redemption(second.pack, second.bearer));
      return (reply.body as { amount?: unknown }).amount ?? answer(reply);
    },
    correct: '5',
    mutant: '12',
  },
  'op-confirmation-digest-per-redeemer': {
    observes: "whether the confirmation of a redeemer's second redemption carries the second pack's digest",
    async observe(f) {
      const first = await f.issuePack();
      expect(answer(await f.redeem(first.pack, f.redemption(first.pack, first.bearer)))).toBe(200);
      const second = await f.issuePack();
      const reply = await f.redeem(second.pack, f.redemption(second.pack, second.bearer));
      const digest = (reply.body as { chain_digest?: unknown }).chain_digest;
      return digest === second.pack.chain_digest ? 'the second pack' : digest === first.pack.chain_digest ? 'the first pack' : answer(reply);
    },
    correct: 'the second pack',
    mutant: 'the first pack',
  },
  'op-max-amount-compared-as-doubles': {
    observes: 'a Lock Request for a unit more than a max_amount of 10^19, by a Principal funded for it',
    fixture: { policy: { max_amount: '10000000000000000000' }, balance: '20000000000000000000' },
    observe: async (f) => answer(await f.issue(f.lockRequest({ amount: '10000000000000000001' }))),
    correct: 'AMOUNT_EXCEEDS_LIMIT',
    mutant: 200,
  },
  'op-depth-limit-fixed': {
    observes: 'the fourth renewal of a pack under a max_chain_depth of 3',
    fixture: { policy: { max_chain_depth: 3 } },
    observe: (f) => renewalAtDepth(f, 3),
    correct: 'CHAIN_DEPTH_EXCEEDED',
    mutant: 200,
  },
  'op-depth-off-by-one': {
    observes: 'a renewal of a pack whose chain has max_chain_depth (1) entries',
    fixture: { policy: { max_chain_depth: 1 } },
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const renewed = await f.renewPack(pack, bearer);
      return answer(await f.renew(renewed.pack, f.renewal(renewed.pack, renewed.bearer).entry));
    },
    correct: 'CHAIN_DEPTH_EXCEEDED',
    mutant: 200,
  },
  'op-depth-unchecked': {
    observes: 'the depth a chain reaches when renewed three times under a max_chain_depth of 1',
    fixture: { policy: { max_chain_depth: 1 } },
    async observe(f) {
      let { pack, bearer } = await f.issuePack();
      for (let i = 0; i < 3; i++) {
        const { entry, next } = f.renewal(pack, bearer);
        const reply = await f.renew(pack, entry);
        if (reply.status !== 200) break;
        ({ pack, bearer } = { pack: reply.body as CashPack, bearer: next });
      }
      return pack.renewal_chain.length;
    },
    correct: 1,
    mutant: 3,
  },
  'op-depth-checked-first': {
    observes: 'a renewal by a key that is not the bearer, under a max_chain_depth of 0',
    fixture: { policy: { max_chain_depth: 0 } },
    async observe(f) {
      const { pack } = await f.issuePack();
      return answer(await f.renew(pack, f.renewal(pack, createSigningKey()).entry));
    },
    correct: 'BEARER_MISMATCH',
    mutant: 'CHAIN_DEPTH_EXCEEDED',
  },
  'op-expiry-min-off-by-one': {
    observes: 'a requested expiry exactly expiry_min_seconds ahead',
    observe: async (f) => answer(await f.issue(f.lockRequest({ requested_expiry: f.clock.now() + f.operator.policy.expiry_min_seconds * 1000 }))),
    correct: 200,
    mutant: 'EXPIRY_INVALID',
  },
  'op-expiry-max-off-by-one': {
    observes: 'a requested expiry exactly expiry_max_seconds ahead',
    observe: async (f) => answer(await f.issue(f.lockRequest({ requested_expiry: f.clock.now() + f.operator.policy.expiry_max_seconds * 1000 }))),
    correct: 200,
    mutant: 'EXPIRY_INVALID',
  },
  'op-replay-unchecked': {
    observes: 'an identical resend of an accepted Lock Request',
    async observe(f) {
      const lock = f.lockRequest();
      await f.issue(lock);
      return answer(await f.issue(lock));
    },
    correct: 'DUPLICATE_ID',
    mutant: 200,
  },
  'op-replay-namespaces-split': {
    observes: 'a renewal_id equal to an accepted request_id',
    async observe(f) {
      const id = randomUUID();
      const { pack, bearer } = await f.issuePack({ request_id: id });
      return answer(await f.renew(pack, f.renewal(pack, bearer, { renewal_id: id }).entry));
    },
    correct: 'DUPLICATE_ID',
    mutant: 200,
  },
  'op-replay-retention-fixed': {
    observes: 'a request_id reused 601 s after it was recorded, under a request_window_seconds of 600',
    fixture: { policy: { request_window_seconds: 600 } },
    async observe(f) {
      const id = randomUUID();
      await f.issuePack({ request_id: id });
      f.clock.advance(601);
      return answer(await f.issue(f.lockRequest({ request_id: id })));
    },
    correct: 'DUPLICATE_ID',
    mutant: 200,
  },
  'op-chain-entries-freshness-checked': {
    observes: 'a redemption of a pack renewed a window and a second before',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const renewed = await f.renewPack(pack, bearer);
      f.clock.advance(f.operator.policy.request_window_seconds + 1);
      return answer(await f.redeem(renewed.pack, f.redemption(renewed.pack, renewed.bearer)));
    },
    correct: 200,
    mutant: 'STALE_REQUEST',
  },
  'op-pack-id-from-request-id': {
    observes: 'the pack_id of a pack issued with a request_id used again twice the window and a second after it was recorded',
    async observe(f) {
      const id = randomUUID();
      const first = await f.issuePack({ request_id: id });
      f.clock.advance(2 * f.operator.policy.request_window_seconds + 1);
      const again = await f.issue(f.lockRequest({ request_id: id }));
      return (again.body as { pack_id?: string }).pack_id === first.pack.pack_id ? 'the first pack_id' : 'a pack_id of its own';
    },
    correct: 'a pack_id of its own',
    mutant: 'the first pack_id',
  },
  'op-replay-window-from-created-at': {
    observes: 'a request_id first sent dated a window behind the clock, reused two windows less a second later',
    async observe(f) {
      const window = f.operator.policy.request_window_seconds;
      const id = randomUUID();
      await f.issuePack({ request_id: id, created_at: f.clock.now() - window * 1000 });
      f.clock.advance(2 * window - 1);
      return answer(await f.issue(f.lockRequest({ request_id: id })));
    },
    correct: 'DUPLICATE_ID',
    mutant: 200,
  },
  'op-redeemer-unidentified': {
    observes: "a redemption without the redeemer's HTTP Message Signature",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      return answer(await f.redeem(pack, f.redemption(pack, bearer), { signer: null }));
    },
    correct: 'REDEEMER_NOT_IDENTIFIED',
    mutant: 200,
  },
  'op-identity-level-off-by-one': {
    observes: 'a redeemer one level below required_identity_level (2)',
    fixture: { redeemerLevel: 1 },
    observe: redeemFresh,
    correct: 'REDEEMER_NOT_IDENTIFIED',
    mutant: 200,
  },
  'op-identity-level-exclusive': {
    observes: 'a redeemer exactly at required_identity_level (2)',
    fixture: { redeemerLevel: 2 },
    observe: redeemFresh,
    correct: 200,
    mutant: 'REDEEMER_NOT_IDENTIFIED',
  },
  'op-identity-level-zero-unidentified': {
    observes: 'a redemption by a redeemer of level 0 under a required_identity_level of 0',
    fixture: { redeemerLevel: 0, policy: { required_identity_level: 0 } },
    observe: redeemFresh,
    correct: 200,
    mutant: 'REDEEMER_NOT_IDENTIFIED',
  },
  'op-depth-zero-unlimited': {
    observes: 'a renewal of a fresh pack under a max_chain_depth of 0',
    fixture: { policy: { max_chain_depth: 0 } },
    observe: (f) => renewalAtDepth(f, 0),
    correct: 'CHAIN_DEPTH_EXCEEDED',
    mutant: 200,
  },
  'op-redeemer-signature-dated-by-created-at': {
    observes: "a redemption whose Redemption Request is dated 250 s before the clock and whose redeemer's signature is created 100 s after it (a window of 300 s)",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const now = f.clock.now();
      const text = JSON.stringify({ cash_pack: pack, redemption: f.redemption(pack, bearer, { created_at: now - 250_000 }) });
      const path = '/v1/cashpack/redeem';
      const signature = signRequestAs({ method: 'POST', authority: AUTHORITY, path, body: new TextEncoder().encode(text) }, { secretKey: f.redeemer.secretKey, kid: f.redeemer.jwk.kid }, Math.floor(now / 1000) + 100, 'profile');
      return answer(await f.send('POST', path, { raw: text, headers: { 'content-type': 'application/json', ...signature } }));
    },
    correct: 200,
    mutant: 'REDEEMER_NOT_IDENTIFIED',
  },
  'op-depth-counted-by-distinct-keys': {
    observes: 'a renewal past max_chain_depth 2 of a pack handed to its bearer itself at each renewal',
    fixture: { policy: { max_chain_depth: 2 } },
    async observe(f) {
      let { pack, bearer } = await f.issuePack();
      const self = () => f.renewal(pack, bearer, { new_bearer: bearer.jwk }).entry;
      for (let i = 0; i < 2; i++) {
        const reply = await f.renew(pack, self());
        expect(reply.status).toBe(200);
        pack = reply.body as CashPack;
      }
      return answer(await f.renew(pack, self()));
    },
    correct: 'CHAIN_DEPTH_EXCEEDED',
    mutant: 200,
  },
  'op-body-limit-fixed': {
    observes: 'a valid Lock Request padded to 100 000 bytes under a max_body_bytes of 131 072',
    fixture: { policy: { max_body_bytes: 131_072 } },
    async observe(f) {
      const text = JSON.stringify(f.lockRequest());
      const raw = text + ' '.repeat(100_000 - Buffer.byteLength(text));
      return answer(await f.send('POST', '/v1/cashpack/issue', { raw, headers: { 'content-type': 'application/json' } }));
    },
    correct: 200,
    mutant: 'PAYLOAD_TOO_LARGE',
  },
  'op-freshness-unchecked': {
    observes: 'a Lock Request created one second beyond request_window_seconds ago',
    observe: async (f) => answer(await f.issue(f.lockRequest({ created_at: f.clock.now() - (f.operator.policy.request_window_seconds + 1) * 1000 }))),
    correct: 'STALE_REQUEST',
    mutant: 200,
  },
  'op-duplicate-id-status-400': {
    observes: 'the HTTP status and code of a replayed Lock Request',
    async observe(f) {
      const lock = f.lockRequest();
      await f.issue(lock);
      const replay = await f.issue(lock);
      return [replay.status, replay.body.code, replay.body.status];
    },
    correct: [409, 'DUPLICATE_ID', 409],
    mutant: [400, 'DUPLICATE_ID', 400],
  },
  'op-balance-before-limit': {
    observes: 'an amount above max_amount from a Principal whose balance is also too small',
    fixture: { balance: '10' },
    observe: async (f) => answer(await f.issue(f.lockRequest({ amount: BigInt(f.operator.policy.max_amount) + 1n }))),
    correct: 'AMOUNT_EXCEEDS_LIMIT',
    mutant: 'INSUFFICIENT_BALANCE',
  },
  'op-unknown-principal-issued': {
    observes: 'a Lock Request by a key that is not a registered Principal',
    observe: async (f) => answer(await f.issue(f.lockRequest({ principal: createSigningKey() }))),
    correct: 'PRINCIPAL_UNKNOWN',
    mutant: 200,
  },
  'op-unknown-principal-empty': {
    observes: 'a Lock Request by a key that is not a registered Principal',
    observe: async (f) => answer(await f.issue(f.lockRequest({ principal: createSigningKey() }))),
    correct: 'PRINCIPAL_UNKNOWN',
    mutant: 'INSUFFICIENT_BALANCE',
  },
  'op-signature-path-with-query': {
    observes: 'a status read at the pack\'s path with the query fields=all, signed over the path alone',
    async observe(f) {
      const { pack } = await f.issuePack();
      return answer(await f.send('GET', `/v1/cashpack/${pack.pack_id}/status`, { signer: f.principal, query: 'fields=all' }));
    },
    correct: 200,
    mutant: 'UNAUTHENTICATED',
  },
  'op-signature-created-clock-rounded': {
    observes: "a status read signed a window and a second after the clock's second, the clock at .700 of it",
    async observe(f) {
      const { pack } = await f.issuePack();
      f.clock.set(f.clock.now() + 700);
      return answer(await f.send('GET', `/v1/cashpack/${pack.pack_id}/status`, { signer: f.principal, signedAt: f.clock.nowSeconds() + f.operator.policy.request_window_seconds + 1 }));
    },
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-http-signature-any-components': {
    observes: 'a status read whose valid signature leaves out @authority',
    async observe(f) {
      const { pack } = await f.issuePack();
      return answer(await f.send('GET', `/v1/cashpack/${pack.pack_id}/status`, { signer: f.principal, layout: 'without-authority' }));
    },
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-http-signature-any-parameters': {
    observes: 'a status read whose valid signature lists its parameters in another order',
    async observe(f) {
      const { pack } = await f.issuePack();
      return answer(await f.send('GET', `/v1/cashpack/${pack.pack_id}/status`, { signer: f.principal, layout: 'reordered-parameters' }));
    },
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-status-current-bearer-member': {
    observes: "the members of a renewed pack's status response",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const renewed = await f.renewPack(pack, bearer);
      return Object.keys((await f.status(renewed.pack.pack_id, f.principal)).body as object).sort();
    },
    correct: ['amount', 'asset', 'chain_depth', 'chain_digest', 'expiry', 'pack_id', 'status', 'updated_at'],
    mutant: ['amount', 'asset', 'chain_depth', 'chain_digest', 'current_bearer_kid', 'expiry', 'pack_id', 'status', 'updated_at'],
  },
  'op-status-asset-from-principal': {
    observes: "the asset in the status of the fixture's Principal's redeemed pack, after the Principal was provisioned again in XTS",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      expect((await f.redeem(pack, f.redemption(pack, bearer))).status).toBe(200);
      expect((await f.send('POST', '/_control/operator/principals', { json: { public_key: f.principal.jwk, asset: { type: 'fiat', code: 'XTS' }, balance: '5' } })).status).toBe(201);
      return ((await f.status(pack.pack_id, f.principal)).body as { asset?: unknown }).asset;
    },
    correct: EUR,
    mutant: { type: 'fiat', code: 'XTS' },
  },
  'op-expiry-lifetime-from-receipt': {
    observes: 'the status of a pack whose Lock Request was dated 100 s before receipt, read 1 s after its expiry',
    async observe(f) {
      const now = f.clock.now();
      const { pack } = await f.issuePack({ created_at: now - 100_000, requested_expiry: now + 3_600_000 });
      f.clock.set(now + 3_601_000);
      return ((await f.status(pack.pack_id, f.principal)).body as { status?: unknown }).status;
    },
    correct: 'EXPIRED',
    mutant: 'ACTIVE',
  },
  'op-stored-expiry-lifetime-floored': {
    observes: 'the status of a pack issued 500 ms into a second for an expiry an hour after that second, read 1 ms before its expiry',
    async observe(f) {
      const second = Math.floor(f.clock.now() / 1000) * 1000;
      f.clock.set(second + 500);
      const { pack } = await f.issuePack({ created_at: second + 500, requested_expiry: second + HOUR_MS });
      f.clock.set(second + HOUR_MS - 1);
      return ((await f.status(pack.pack_id, f.principal)).body as { status?: unknown }).status;
    },
    correct: 'ACTIVE',
    mutant: 'EXPIRED',
  },
  'op-issuing-principal-identified': {
    observes: "a redemption signed by the pack's issuing Principal, registered as a redeemer of level 1 under a required_identity_level of 2",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      expect(f.operator.provisionRedeemer({ public_key: f.principal.jwk, identity_level: 1 }).ok).toBe(true);
      return answer(await f.redeem(pack, f.redemption(pack, bearer, { redeemer_kid: f.principal.jwk.kid }), { signer: f.principal }));
    },
    correct: 'REDEEMER_NOT_IDENTIFIED',
    mutant: 200,
  },
  'op-route-dots-unescaped': {
    observes: 'GET /.well-known/cashpack-policy_json and /xwell-known/cashpack-pubkey.json, each a character off a document\'s path',
    observe: async (f) => [(await f.send('GET', '/.well-known/cashpack-policy_json')).status, (await f.send('GET', '/xwell-known/cashpack-pubkey.json')).status],
    correct: [404, 404],
    mutant: [200, 200],
  },
  'op-expired-pack-reopened-on-clock-back': {
    observes: 'the status of a pack read EXPIRED a second after its expiry, read again with the clock set back to its issue',
    async observe(f) {
      const now = f.clock.now();
      const { pack } = await f.issuePack({ requested_expiry: now + HOUR_MS });
      f.clock.set(now + HOUR_MS + 1000);
      expect(((await f.status(pack.pack_id, f.principal)).body as { status?: unknown }).status).toBe('EXPIRED');
      f.clock.set(now);
      return ((await f.status(pack.pack_id, f.principal)).body as { status?: unknown }).status;
    },
    correct: 'EXPIRED',
    mutant: 'ACTIVE',
  },
  'op-initial-bearer-principal-refused': {
    observes: "a Lock Request naming the Principal's own key as its Initial Bearer",
    observe: async (f) => answer(await f.issue(f.lockRequest({ initialBearer: f.principal.jwk }))),
    correct: 200,
    mutant: 'MALFORMED_REQUEST',
  },
  'op-replay-pruned-on-machine-clock': {
    observes: "a Lock Request's request_id sent again at once, with the Operator's clock a day behind the machine's",
    async observe(f) {
      f.clock.set(Date.now() - 24 * HOUR_MS);
      const first = f.lockRequest();
      expect((await f.issue(first)).status).toBe(200);
      return answer(await f.issue(f.lockRequest({ request_id: first.request_id })));
    },
    correct: 'DUPLICATE_ID',
    mutant: 200,
  },
  'op-status-role-first-match': {
    observes: "a status read of another Principal's pack by a Principal's key registered as staff too",
    async observe(f) {
      const other = provisionPrincipal(f, f.operator.policy.max_amount);
      const { pack } = await f.issuePack({ principal: other });
      const outcome = f.operator.provisionStaff({ public_key: f.principal.jwk });
      if (!outcome.ok) throw new Error(`provisioning failed: ${outcome.problem?.detail}`);
      return answer(await f.status(pack.pack_id, f.principal));
    },
    correct: 200,
    mutant: 'FORBIDDEN',
  },
  'op-policy-document-defaults': {
    observes: 'the max_amount and required_identity_level the policy document publishes, under a policy of 7 and 3',
    fixture: { policy: { max_amount: '7', required_identity_level: 3 } },
    async observe(f) {
      const document = (await f.send('GET', '/.well-known/cashpack-policy.json')).body as { max_amount?: unknown; required_identity_level?: unknown };
      return [document.max_amount, document.required_identity_level];
    },
    correct: ['7', 3],
    mutant: ['1000000', 2],
  },
  'op-signature-label-any': {
    observes: "a status read by the issuing Principal whose valid signature is labelled sig1, not cpp",
    async observe(f) {
      const { pack } = await f.issuePack();
      return answer(await f.send('GET', `/v1/cashpack/${pack.pack_id}/status`, { signer: f.principal, layout: 'other-label' }));
    },
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-http-signature-verdict-cached': {
    observes: "a status read's signature headers, which were just answered, sent word for word for another pack of the same Principal",
    async observe(f) {
      const [{ pack: first }, { pack: second }] = [await f.issuePack(), await f.issuePack()];
      const path = `/v1/cashpack/${first.pack_id}/status`;
      const headers: Record<string, string> = { ...signRequestAs({ method: 'GET', authority: AUTHORITY, path }, { secretKey: f.principal.secretKey, kid: f.principal.jwk.kid }, f.clock.nowSeconds(), 'profile') };
      await f.send('GET', path, { headers });
      return answer(await f.send('GET', `/v1/cashpack/${second.pack_id}/status`, { headers }));
    },
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-keyid-case-insensitive': {
    observes: "a status read signed by the Principal's key under its kid with its first letter in the other case",
    async observe(f) {
      const { pack } = await f.issuePack();
      const path = `/v1/cashpack/${pack.pack_id}/status`;
      const kid = f.principal.jwk.kid.replace(/[A-Za-z]/, (ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()));
      return answer(await f.send('GET', path, { headers: { ...signRequestAs({ method: 'GET', authority: AUTHORITY, path }, { secretKey: f.principal.secretKey, kid }, f.clock.nowSeconds(), 'profile') } }));
    },
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-redeemer-kid-bound-ignoring-case': {
    observes: "a redemption signed by the redeemer under its kid, whose redeemer_kid is that kid with its first letter in the other case",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const kid = f.redeemer.jwk.kid.replace(/[A-Za-z]/, (ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()));
      return answer(await f.redeem(pack, f.redemption(pack, bearer, { redeemer_kid: kid })));
    },
    correct: 'REDEEMER_NOT_IDENTIFIED',
    mutant: 200,
  },
  'op-content-digest-unchecked': {
    observes: 'a redemption whose signed Content-Digest is of other bytes than the body',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      return answer(await f.redeem(pack, f.redemption(pack, bearer), { layout: 'digest-of-other-bytes' }));
    },
    correct: 'REDEEMER_NOT_IDENTIFIED',
    mutant: 200,
  },
  'op-small-order-r-accepted': {
    observes: "a Lock Request signed with the Principal's key, R = the identity and S = k·a",
    observe: async (f) => answer(await f.issue(torsionSigned(f.lockRequest(), f.principal, 'small-order'))),
    correct: 'INVALID_SIGNATURE',
    mutant: 200,
  },
  'op-non-canonical-r-accepted': {
    observes: "a Lock Request signed with the Principal's key, R = the identity written with y = p + 1 and S = k·a",
    observe: async (f) => answer(await f.issue(torsionSigned(f.lockRequest(), f.principal, 'non-canonical'))),
    correct: 'INVALID_SIGNATURE',
    mutant: 200,
  },
  'op-redeem-bearer-from-presented-pack': {
    observes: 'the previous bearer redeeming with the pack as it was before the renewal',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      await f.renewPack(pack, bearer);
      return answer(await f.redeem(pack, f.redemption(pack, bearer)));
    },
    correct: 'BEARER_MISMATCH',
    mutant: 200,
  },
  'op-depth-from-presented-pack': {
    observes: 'the current bearer renewing, at max_chain_depth 1, the issued version of a pack renewed once, naming the stored digest',
    fixture: { policy: { max_chain_depth: 1 } },
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const renewed = await f.renewPack(pack, bearer);
      return answer(await f.renew(pack, f.renewal(pack, renewed.bearer, { prev_chain_digest: renewed.pack.chain_digest }).entry));
    },
    correct: 'CHAIN_DEPTH_EXCEEDED',
    mutant: 200,
  },
  'op-asset-matched-by-code': {
    observes: "a Lock Request in the code of the policy's asset under another type",
    observe: async (f) => answer(await f.issue(f.lockRequest({ asset: { type: 'crypto', code: 'EUR' } }))),
    correct: 'ASSET_NOT_SUPPORTED',
    mutant: 'INSUFFICIENT_BALANCE',
  },
  'op-digest-from-presented-pack': {
    observes: 'the current bearer renewing the pack as it was before the last renewal, naming that version\'s digest',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const renewed = await f.renewPack(pack, bearer);
      return answer(await f.renew(pack, f.renewal(pack, renewed.bearer).entry));
    },
    correct: 'CHAIN_DIGEST_MISMATCH',
    mutant: 200,
  },
  'op-chain-digest-case-insensitive': {
    observes: "the current bearer renewing with the pack's chain_digest, one of its letters in the other case",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      return answer(await f.renew(pack, f.renewal(pack, bearer, { prev_chain_digest: recased(pack.chain_digest, 0) }).entry));
    },
    correct: 'CHAIN_DIGEST_MISMATCH',
    mutant: 200,
  },
  'op-replay-store-one-window': {
    observes: 'a fresh Lock Request reusing a request_id recorded one window and a second earlier',
    async observe(f) {
      const first = f.lockRequest();
      expect((await f.issue(first)).status).toBe(200);
      f.clock.advance(f.operator.policy.request_window_seconds + 1);
      return answer(await f.issue(f.lockRequest({ request_id: first.request_id })));
    },
    correct: 'DUPLICATE_ID',
    mutant: 200,
  },
  'op-replay-heap-pop-last-leaf': {
    observes: 'a request_id recorded one window ago, reused when an id recorded a window before it is due to be forgotten',
    async observe(f) {
      const window = f.operator.policy.request_window_seconds;
      expect((await f.issue(f.lockRequest())).status).toBe(200);
      f.clock.advance(window);
      const young = f.lockRequest();
      expect((await f.issue(young)).status).toBe(200);
      f.clock.advance(window + 1);
      return answer(await f.issue(f.lockRequest({ request_id: young.request_id })));
    },
    correct: 'DUPLICATE_ID',
    mutant: 200,
  },
  'op-replay-store-reset-on-clock-back': {
    observes: 'a request_id recorded, the clock then set back a second and the id sent again in a fresh Lock Request',
    async observe(f) {
      const first = f.lockRequest();
      expect((await f.issue(first)).status).toBe(200);
      f.clock.set(f.clock.now() - 1000);
      return answer(await f.issue(f.lockRequest({ request_id: first.request_id })));
    },
    correct: 'DUPLICATE_ID',
    mutant: 200,
  },
  'op-expiry-range-from-created-at': {
    observes: 'a Lock Request dated one window early asking for the longest permitted expiry from the clock',
    async observe(f) {
      const { request_window_seconds: window, expiry_max_seconds: max } = f.operator.policy;
      const now = f.clock.now();
      return answer(await f.issue(f.lockRequest({ created_at: now - window * 1000, requested_expiry: now + max * 1000 })));
    },
    correct: 200,
    mutant: 'EXPIRY_INVALID',
  },
  'op-expiry-lifetime-floored': {
    observes: "a Lock Request, with the clock 700 ms into a second, for an expiry one second past the maximum from the clock's second",
    async observe(f) {
      const second = Math.floor(f.clock.now() / 1000) * 1000;
      f.clock.set(second + 700);
      return answer(await f.issue(f.lockRequest({ created_at: second, requested_expiry: second + (f.operator.policy.expiry_max_seconds + 1) * 1000 })));
    },
    correct: 'EXPIRY_INVALID',
    mutant: 200,
  },
  'op-issued-at-rounded': {
    observes: 'issued_at of a pack issued with the clock 700 ms into a second',
    async observe(f) {
      const second = Math.floor(f.clock.now() / 1000) * 1000;
      f.clock.set(second + 700);
      const { pack } = await f.issuePack({ created_at: second });
      return pack.issued_at === formatTimestamp(second, 'cashpack');
    },
    correct: true,
    mutant: false,
  },
  'op-issued-at-from-created-at': {
    observes: 'issued_at of a pack whose Lock Request is dated a minute early',
    async observe(f) {
      const { pack } = await f.issuePack({ created_at: f.clock.now() - 60_000 });
      return pack.issued_at === formatTimestamp(f.clock.now(), 'cashpack');
    },
    correct: true,
    mutant: false,
  },
  'op-expiry-judged-at-created-at': {
    observes: 'a renewal dated a second before the expiry of a pack that has just expired',
    async observe(f) {
      const { pack, bearer } = await f.issuePack({ requested_expiry: f.clock.now() + HOUR_MS });
      f.clock.advance(3600);
      return answer(await f.renew(pack, f.renewal(pack, bearer, { created_at: f.clock.now() - 1000 }).entry));
    },
    correct: 'INSTRUMENT_NOT_ACTIVE',
    mutant: 200,
  },
  'op-issue-non-atomic': {
    observes: 'two Lock Requests for 600 each sent together against a balance of 1000',
    fixture: { balance: '1000' },
    async observe(f) {
      const replies = await Promise.all([f.issue(f.lockRequest({ amount: '600' })), f.issue(f.lockRequest({ amount: '600' }))]);
      return replies.map((r) => r.status).sort();
    },
    correct: [200, 422],
    mutant: [200, 200],
  },
  'op-redeem-non-atomic': {
    observes: 'two distinct redemptions of one pack sent together, and what the redeemer is credited',
    async observe(f) {
      const { pack, bearer } = await f.issuePack({ amount: '100' });
      const replies = await Promise.all([f.redeem(pack, f.redemption(pack, bearer)), f.redeem(pack, f.redemption(pack, bearer))]);
      return { statuses: replies.map((r) => r.status).sort(), credited: f.redeemed() };
    },
    correct: { statuses: [200, 409], credited: '100' },
    mutant: { statuses: [200, 200], credited: '200' },
  },
  'op-expiry-funds-kept': {
    observes: "the Principal's balance once its pack of 100 has expired",
    fixture: { balance: '1000' },
    async observe(f) {
      await f.issuePack({ amount: '100', requested_expiry: f.clock.now() + HOUR_MS });
      f.clock.advance(3600);
      const { available, locked } = f.balance();
      return { available, locked };
    },
    correct: { available: '1000', locked: '0' },
    mutant: { available: '900', locked: '100' },
  },
  'op-expiry-one-second-late': {
    observes: "a pack's status at its expiry instant",
    async observe(f) {
      const { pack } = await f.issuePack({ requested_expiry: f.clock.now() + HOUR_MS });
      f.clock.advance(3600);
      const status = f.operator.packStatus(pack.pack_id);
      return status.ok ? status.value.status : status.problem.code;
    },
    correct: 'EXPIRED',
    mutant: 'ACTIVE',
  },
  'op-expiry-clock-rounded': {
    observes: "a pack's status 400 ms before its expiry instant",
    async observe(f) {
      const expiry = f.clock.now() + HOUR_MS;
      const { pack } = await f.issuePack({ requested_expiry: expiry });
      f.clock.set(Date.parse(pack.expiry) - 400);
      const status = f.operator.packStatus(pack.pack_id);
      return status.ok ? status.value.status : status.problem.code;
    },
    correct: 'ACTIVE',
    mutant: 'EXPIRED',
  },
  'op-pack-looked-up-before-signature': {
    observes: "a renewal presenting a genuine pack under a pack_id the Operator never issued, the renewal naming that id",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const forged = { ...pack, pack_id: randomUUID() };
      return answer(await f.renew(forged, f.renewal(forged, bearer).entry));
    },
    correct: 'INVALID_SIGNATURE',
    mutant: 'NOT_FOUND',
  },
  'op-renew-previous-key-refused': {
    observes: 'a renewal from A to B, then one from B back to A, and one from A to A',
    async observe(f) {
      const { pack, bearer: a } = await f.issuePack();
      const toB = await f.renewPack(pack, a);
      const back = await f.renew(toB.pack, f.renewal(toB.pack, toB.bearer, { new_bearer: a.jwk }).entry);
      if (back.status !== 200) return [answer(back)];
      const again = back.body as unknown as CashPack;
      return [answer(back), answer(await f.renew(again, f.renewal(again, a, { new_bearer: a.jwk }).entry))];
    },
    correct: [200, 200],
    mutant: ['BEARER_MISMATCH'],
  },
  'op-expiry-timer-overflow': {
    observes: "the status of a pack issued for 30 days (the policy's maximum), 20 ms of real time after the issue, the clock unmoved",
    async observe(f) {
      const { pack } = await f.issuePack({ amount: 1n, requested_expiry: f.clock.now() + 30 * 24 * HOUR_MS });
      await new Promise((resolve) => setTimeout(resolve, 20));
      return [(await f.status(pack.pack_id)).body.status, f.balance().locked];
    },
    correct: ['ACTIVE', '1'],
    mutant: ['EXPIRED', '0'],
  },
  'op-expiry-sweep-in-issue-order': {
    observes: "the Principal's locked funds once the second of two packs of one unit, issued second, has expired first, nothing read between",
    async observe(f) {
      await f.issuePack({ amount: 1n, requested_expiry: f.clock.now() + 2 * HOUR_MS });
      await f.issuePack({ amount: 1n, requested_expiry: f.clock.now() + HOUR_MS });
      f.clock.advance(3600);
      return f.balance().locked;
    },
    correct: '1',
    mutant: '2',
  },
  'op-updated-at-stamped-before-checks': {
    observes: "updated_at after a renewal by a key that is not the bearer, ten seconds after issue",
    async observe(f) {
      const { pack } = await f.issuePack();
      f.clock.advance(10);
      const stranger = createSigningKey();
      const refused = answer(await f.renew(pack, f.renewal(pack, stranger).entry));
      return [refused, (await f.status(pack.pack_id)).body.updated_at === pack.issued_at];
    },
    correct: ['BEARER_MISMATCH', true],
    mutant: ['BEARER_MISMATCH', false],
  },
  'op-expiry-late-seconds-dropped': {
    observes: 'the expiry of packs asked to expire at :49 and at :55 of a minute',
    async observe(f) {
      const base = Math.ceil(f.clock.now() / 60_000) * 60_000 + 3_600_000;
      const expiries = [];
      for (const at of [base + 49_000, base + 55_000]) {
        const { pack } = await f.issuePack({ requested_expiry: at });
        expiries.push(pack.expiry.slice(17));
      }
      return expiries;
    },
    correct: ['49Z', '55Z'],
    mutant: ['49Z', '00Z'],
  },
  'op-status-deep-pack-active': {
    observes: 'the status read of a pack redeemed after three renewals',
    async observe(f) {
      let { pack, bearer } = await f.issuePack();
      for (let i = 0; i < 3; i++) ({ pack, bearer } = await f.renewPack(pack, bearer));
      expect((await f.redeem(pack, f.redemption(pack, bearer))).status).toBe(200);
      return (await f.status(pack.pack_id)).body.status;
    },
    correct: 'REDEEMED',
    mutant: 'ACTIVE',
  },
  'op-updated-at-stamped-by-read': {
    observes: 'updated_at read ten seconds after issue',
    async observe(f) {
      const { pack } = await f.issuePack();
      f.clock.advance(10);
      return (await f.status(pack.pack_id)).body.updated_at === pack.issued_at;
    },
    correct: true,
    mutant: false,
  },
  'op-expired-stamped-when-applied': {
    observes: "updated_at of a pack first read ten seconds after its expiry",
    async observe(f) {
      const { pack } = await f.issuePack({ requested_expiry: f.clock.now() + HOUR_MS });
      f.clock.advance(3610);
      const { status, updated_at } = (await f.status(pack.pack_id)).body;
      return [status, updated_at === pack.expiry];
    },
    correct: ['EXPIRED', true],
    mutant: ['EXPIRED', false],
  },
  'op-cancel-updated-at-unstamped': {
    observes: 'updated_at of a pack cancelled a minute after its issue',
    async observe(f) {
      const { pack } = await f.issuePack();
      f.clock.advance(60);
      expect(f.operator.cancel(pack.pack_id).ok).toBe(true);
      const { status, updated_at } = (await f.status(pack.pack_id)).body;
      return [status, updated_at === pack.issued_at];
    },
    correct: ['CANCELLED', false],
    mutant: ['CANCELLED', true],
  },
  'op-renewal-updated-at-from-created-at': {
    observes: 'updated_at of a pack renewed a minute after its issue by an entry dated 30 s before the clock',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      f.clock.advance(60);
      const renewed = await f.renew(pack, f.renewal(pack, bearer, { created_at: f.clock.now() - 30_000 }).entry);
      expect(renewed.status).toBe(200);
      const { updated_at } = (await f.status(pack.pack_id)).body;
      return (Date.parse(updated_at) - Date.parse(pack.issued_at)) / 1000;
    },
    correct: 60,
    mutant: 30,
  },
  'op-expiry-applied-on-read': {
    observes: 'a Lock Request for the whole balance at the expiry instant of a pack that locked it, nothing read in between',
    fixture: { balance: '100' },
    async observe(f) {
      await f.issuePack({ amount: '100', requested_expiry: f.clock.now() + HOUR_MS });
      f.clock.advance(3600);
      return answer(await f.issue(f.lockRequest({ amount: '100' })));
    },
    correct: 200,
    mutant: 'INSUFFICIENT_BALANCE',
  },
  'op-cancel-releases-funds': {
    observes: "the Principal's balance once its pack of 100 is cancelled",
    fixture: { balance: '1000' },
    async observe(f) {
      const { pack } = await f.issuePack({ amount: '100' });
      expect(f.operator.cancel(pack.pack_id).ok).toBe(true);
      const { available, held } = f.balance();
      return { available, held };
    },
    correct: { available: '900', held: '100' },
    mutant: { available: '1000', held: '0' },
  },
  'op-terminal-state-revived': {
    observes: 'a renewal of a REDEEMED pack, and its status afterwards',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      expect((await f.redeem(pack, f.redemption(pack, bearer))).status).toBe(200);
      const renewal = answer(await f.renew(pack, f.renewal(pack, bearer).entry));
      const status = f.operator.packStatus(pack.pack_id);
      return [renewal, status.ok ? status.value.status : status.problem.code];
    },
    correct: ['INSTRUMENT_NOT_ACTIVE', 'REDEEMED'],
    mutant: [200, 'ACTIVE'],
  },
  'op-issue-locks-nothing': {
    observes: "the Principal's balance after issuing a pack of 100",
    fixture: { balance: '1000' },
    async observe(f) {
      await f.issuePack({ amount: '100' });
      const { available, locked } = f.balance();
      return { available, locked };
    },
    correct: { available: '900', locked: '100' },
    mutant: { available: '1000', locked: '100' },
  },
  'op-renew-keeps-bearer': {
    observes: 'whether a renewed pack names the new bearer',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const { entry, next } = f.renewal(pack, bearer);
      const reply = await f.renew(pack, entry);
      return reply.body.current_bearer_pk.x === next.jwk.x;
    },
    correct: true,
    mutant: false,
  },
  'op-renewal-restamps-issued-at': {
    observes: "the issued_at of a pack renewed a minute after it was issued",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      f.clock.advance(60);
      const { entry } = f.renewal(pack, bearer);
      const reply = await f.renew(pack, entry);
      return reply.body.issued_at === pack.issued_at;
    },
    correct: true,
    mutant: false,
  },
  'op-malformed-json-500': {
    observes: 'a truncated JSON body, through the module adapter that turns a throw into a 500',
    async observe(_f, mutant) {
      const role = createRole({ role: 'operator', settings: { instance: `probe-${randomUUID()}`, ...(mutant ? { mutant } : {}) } }) as {
        handle(request: { method: string; path: string; headers: Record<string, string>; body: Uint8Array }): Promise<{ status: number }>;
        close(): void;
      };
      const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined); // the adapter reports the throw
      try {
        const body = new TextEncoder().encode('{"request_id":');
        return (await role.handle({ method: 'POST', path: '/v1/cashpack/issue', headers: { 'content-type': 'application/json' }, body })).status;
      } finally {
        warning.mockRestore();
        role.close();
      }
    },
    correct: 400,
    mutant: 500,
  },
  'op-media-type-unchecked': {
    observes: 'a valid Lock Request sent as text/plain',
    observe: async (f) => answer(await f.send('POST', '/v1/cashpack/issue', { raw: JSON.stringify(f.lockRequest()), headers: { 'content-type': 'text/plain' } })),
    correct: 'UNSUPPORTED_MEDIA_TYPE',
    mutant: 200,
  },
  'op-body-limit-off-by-one': {
    observes: 'a valid Lock Request padded to exactly max_body_bytes',
    async observe(f) {
      const text = JSON.stringify(f.lockRequest());
      const raw = text + ' '.repeat(f.operator.policy.max_body_bytes - Buffer.byteLength(text));
      return answer(await f.send('POST', '/v1/cashpack/issue', { raw, headers: { 'content-type': 'application/json' } }));
    },
    correct: 200,
    mutant: 'PAYLOAD_TOO_LARGE',
  },
  'ctl-cancel-terminal-ok': {
    observes: 'cancelling a REDEEMED pack, and its status afterwards',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      expect((await f.redeem(pack, f.redemption(pack, bearer))).status).toBe(200);
      const cancelled = f.operator.cancel(pack.pack_id);
      const status = f.operator.packStatus(pack.pack_id);
      return [cancelled.ok ? cancelled.value.status : cancelled.problem.code, status.ok ? status.value.status : undefined];
    },
    correct: ['INSTRUMENT_NOT_ACTIVE', 'REDEEMED'],
    mutant: ['CANCELLED', 'REDEEMED'],
  },
  'ctl-reprovision-before-expiries': {
    observes: 'the Principal provisioned again with 500 once a pack it issued has expired, unread, and its balance then',
    async observe(f) {
      const { pack } = await f.issuePack();
      f.clock.set(Date.parse(pack.expiry) + 1000);
      expect(f.operator.provisionPrincipal({ public_key: f.principal.jwk, asset: pack.asset, balance: '500' }).ok).toBe(true);
      const available = BigInt(f.balance().available);
      return available === 500n ? '500' : available > 500n ? 'more than 500' : 'less than 500';
    },
    correct: '500',
    mutant: 'more than 500',
  },
  'ctl-redeemer-level-kept': {
    observes: "a redemption by the fixture's redeemer once it is provisioned again at level 0",
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      expect(f.operator.provisionRedeemer({ public_key: f.redeemer.jwk, identity_level: 0 }).ok).toBe(true);
      return answer(await f.redeem(pack, f.redemption(pack, bearer)));
    },
    correct: 'REDEEMER_NOT_IDENTIFIED',
    mutant: 200,
  },
  'ctl-reprovision-clears-held': {
    observes: "the fixture's Principal's held funds once a pack of 7 is cancelled and the Principal provisioned again",
    async observe(f) {
      const { pack } = await f.issuePack({ amount: '7' });
      expect(f.operator.cancel(pack.pack_id).ok).toBe(true);
      expect(f.operator.provisionPrincipal({ public_key: f.principal.jwk, asset: pack.asset, balance: '500' }).ok).toBe(true);
      return f.balance().held;
    },
    correct: '7',
    mutant: '0',
  },
  'ctl-reprovision-asset-change-ignores-held': {
    observes: "the fixture's Principal, its only pack (of 7) cancelled, provisioned again in the policy's other asset",
    fixture: { policy: { assets: [{ type: 'fiat', code: 'EUR' }, { type: 'stablecoin', code: 'USDC', chain_id: '1' }] } },
    async observe(f) {
      const { pack } = await f.issuePack({ amount: '7' });
      expect(f.operator.cancel(pack.pack_id).ok).toBe(true);
      const outcome = f.operator.provisionPrincipal({ public_key: f.principal.jwk, asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' }, balance: '500' });
      return outcome.ok ? 'provisioned' : outcome.problem.code;
    },
    correct: 'MALFORMED_REQUEST',
    mutant: 'provisioned',
  },
  'ctl-reprovision-drops-running-packs': {
    observes: "the fixture's Principal's locked funds once its pack of 7 expires after the Principal was provisioned again",
    async observe(f) {
      const { pack } = await f.issuePack({ amount: '7' });
      expect(f.operator.provisionPrincipal({ public_key: f.principal.jwk, asset: pack.asset, balance: '500' }).ok).toBe(true);
      f.clock.set(Date.parse(pack.expiry) + 1000);
      return f.balance().locked;
    },
    correct: '0',
    mutant: '7',
  },
  'ctl-redeemer-credits-reset': {
    observes: "the fixture's redeemer's balance once it has redeemed a pack of 7 and is provisioned again at its level",
    async observe(f) {
      const { pack, bearer } = await f.issuePack({ amount: '7' });
      expect(answer(await f.redeem(pack, f.redemption(pack, bearer)))).toBe(200);
      expect(f.operator.provisionRedeemer({ public_key: f.redeemer.jwk, identity_level: 3 }).ok).toBe(true);
      const read = f.operator.redeemerBalance(f.redeemer.jwk.kid);
      return read.ok ? read.value.available : read.problem.code;
    },
    correct: '7',
    mutant: '0',
  },
  'ctl-lease-holder-utf16-length': {
    observes: 'a lease acquired by a holder of 200 astral characters (400 UTF-16 units)',
    async observe(f, mutant) {
      const reply = await control(f, mutant, 'POST', '/_control/lease', { holder: '😀'.repeat(200), ttl_seconds: 60 });
      return answer(reply);
    },
    correct: 201,
    mutant: 'MALFORMED_REQUEST',
  },
  'ctl-lease-id-prefix-match': {
    observes: 'a lease renewed by the first 8 characters of its lease_id',
    async observe(f, mutant) {
      const id = (await control(f, mutant, 'POST', '/_control/lease', { holder: 'probe', ttl_seconds: 60 })).body.lease_id as string;
      return answer(await control(f, mutant, 'POST', `/_control/lease/${id.slice(0, 8)}`, { ttl_seconds: 60 }));
    },
    correct: 'CONTROL_BUSY',
    mutant: 200,
  },
  'ctl-clock-advance-negative-taken': {
    observes: 'the answer to {"advance_seconds": -60}',
    observe: async (f, mutant) => (await control(f, mutant, 'POST', '/_control/clock', { advance_seconds: -60 })).status,
    correct: 400,
    mutant: 200,
  },
  'ctl-clock-set-then-frozen': {
    observes: 'the clock after {"freeze": true, "set": "2026-03-01T12:00:00.250Z"}',
    observe: async (f, mutant) => (await control(f, mutant, 'POST', '/_control/clock', { freeze: true, set: '2026-03-01T12:00:00.250Z' })).body,
    correct: { now: '2026-03-01T12:00:00.250Z', frozen: true },
    mutant: { now: '2026-03-01T12:00:00Z', frozen: true },
  },
  'ctl-lease-renewal-extends-expiry': {
    observes: 'how far a lease renewed at once ends after the lease as granted, in seconds',
    async observe(f, mutant) {
      const granted = (await control(f, mutant, 'POST', '/_control/lease', { holder: 'probe', ttl_seconds: 60 })).body;
      const renewed = (await control(f, mutant, 'POST', `/_control/lease/${granted.lease_id as string}`, { ttl_seconds: 60 })).body;
      return Math.round((Date.parse(renewed.expires_at as string) - Date.parse(granted.expires_at as string)) / 1000);
    },
    correct: 0,
    mutant: 60,
  },
  'op-authority-from-forwarded-host': {
    observes: 'a status read signed for the authority other.example, sent with X-Forwarded-Host: other.example',
    observe: (f) => readSignedElsewhere(f, 'x-forwarded-host'),
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-own-authority-port-compared': {
    observes: "a status read signed for the Operator's own host on another port, sent with that Host",
    async observe(f, mutant) {
      const { pack } = await f.issuePack();
      const path = `/v1/cashpack/${pack.pack_id}/status`;
      const elsewhere = `${AUTHORITY}:8443`;
      const served = withOwnAuthority(`${AUTHORITY}:443`, [], f.operator.serve, faultsFor(mutant));
      const headers = signRequestAs({ method: 'GET', authority: elsewhere, path }, { secretKey: f.principal.secretKey, kid: f.principal.jwk.kid }, f.clock.nowSeconds(), 'profile');
      const response = await served({ method: 'GET', path, query: new URLSearchParams(), headers: { ...headers }, body: new Uint8Array(), authority: elsewhere, secure: true });
      return response.status < 300 ? response.status : (response.body as { code?: unknown } | undefined)?.code;
    },
    correct: 200,
    mutant: 'UNAUTHENTICATED',
  },
  'op-authority-from-host-header': {
    observes: 'a status read signed for the authority other.example, sent with Host: other.example',
    observe: (f) => readSignedElsewhere(f, 'host'),
    correct: 'UNAUTHENTICATED',
    mutant: 200,
  },
  'op-well-known-signed-get-refused': {
    observes: 'a GET of the policy document signed by a key the Operator does not know',
    observe: async (f) => answer(await f.send('GET', '/.well-known/cashpack-policy.json', { signer: createSigningKey() })),
    correct: 200,
    mutant: 'UNAUTHENTICATED',
  },
  'op-body-limit-from-content-length': {
    observes: 'a valid Lock Request padded to one byte over max_body_bytes, without Content-Length (as a chunked body arrives)',
    async observe(f) {
      const text = JSON.stringify(f.lockRequest());
      const raw = text + ' '.repeat(f.operator.policy.max_body_bytes + 1 - Buffer.byteLength(text));
      return answer(await f.send('POST', '/v1/cashpack/issue', { raw, headers: { 'content-type': 'application/json' } }));
    },
    correct: 'PAYLOAD_TOO_LARGE',
    mutant: 200,
  },
  'ctl-clock-json-parse': {
    observes: 'a test-control clock body with advance_seconds written twice',
    observe: async (f, mutant) => answer(await control(f, mutant, 'POST', '/_control/clock', { raw: '{"advance_seconds":0,"advance_seconds":1}' })),
    correct: 'MALFORMED_REQUEST',
    mutant: 200,
  },
  'op-lock-request-cofactored-verify': {
    observes: "a Lock Request signed with the Principal's key, R = [r]B plus a point of order 8 and S = r + k·a",
    observe: async (f) => answer(await f.issue(mixedRSigned(f.lockRequest(), f.principal))),
    correct: 'INVALID_SIGNATURE',
    mutant: 200,
  },
  'op-lock-request-signed-by-initial-bearer': {
    observes: 'a Lock Request naming the Principal, signed by the Initial Bearer it names',
    async observe(f) {
      const initial = createSigningKey();
      const { signature: _principals, ...unsigned } = f.lockRequest({ initialBearer: initial.jwk });
      return answer(await f.issue(signObject('lock-request', unsigned, initial.secretKey) as LockRequest));
    },
    correct: 'INVALID_SIGNATURE',
    mutant: 200,
  },
  'op-renewal-mixed-order-key-refused': {
    observes: 'the renewal of a pack issued to a bearer key of mixed order, signed by it so that both equations hold',
    async observe(f) {
      // A bearer key of mixed order (A = [a]B + T), signing so that both equations hold (speccheck's case 3).
      const bearer = mixedOrderBearer({ seed: new Uint8Array(32).fill(7), torsion: TORSION });
      const issued = await f.issue(f.lockRequest({ initialBearer: bearer.jwk }));
      expect(issued.status).toBe(200);
      const pack = issued.body as CashPack;
      const { entry } = f.renewal(pack, createSigningKey());
      return answer(await f.renew(pack, bearer.signed('renewal-entry', { ...entry, bearer_pk: bearer.jwk })));
    },
    correct: 200,
    mutant: 'INVALID_SIGNATURE',
  },
  'op-signing-tag-follows-profile': {
    observes: `a Lock Request signed by its Principal under the tag ${PROFILE_ID}/lock-request`,
    async observe(f) {
      const { signature: _signature, ...unsigned } = f.lockRequest();
      const input = new TextEncoder().encode(`${PROFILE_ID}/lock-request\n${canonicalJson(unsigned)}`);
      return answer(await f.issue({ ...unsigned, signature: encodeB64url(signBytes(input, f.principal.secretKey)) } as LockRequest));
    },
    correct: 'INVALID_SIGNATURE',
    mutant: 200,
  },
  'op-signature-clock-int32': {
    observes: "the Principal's status read of its pack with the clock at 2038-01-19T03:14:08Z",
    async observe(f) {
      f.clock.set(Date.UTC(2038, 0, 19, 3, 14, 8));
      const { pack } = await f.issuePack();
      return (await f.status(pack.pack_id)).status;
    },
    correct: 200,
    mutant: 401,
  },
  'op-status-open-to-redeemer': {
    observes: 'a status read by the redeemer, after it redeemed the pack',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      expect((await f.redeem(pack, f.redemption(pack, bearer))).status).toBe(200);
      return answer(await f.status(pack.pack_id, f.redeemer));
    },
    correct: 'FORBIDDEN',
    mutant: 200,
  },
  'op-status-pack-id-decoded-unguarded': {
    // The fixture calls the Operator in process: what its HTTP server answers 500 is the throw itself here.
    observes: "the Principal's status read of /v1/cashpack/9f0c%ZZ/status (a throw is the server's 500)",
    observe: (f) => f.status('9f0c%ZZ').then((reply) => reply.status, (error: unknown) => (error instanceof URIError ? 'URIError thrown' : error)),
    correct: 403,
    mutant: 'URIError thrown',
  },
  'op-renewed-pack-out-of-expiry-sweep': {
    observes: "the Principal's locked funds once its pack of 7, renewed once, has expired unread",
    async observe(f) {
      const { pack, bearer } = await f.issuePack({ amount: '7' });
      await f.renewPack(pack, bearer);
      f.clock.set(Date.parse(pack.expiry) + 1000);
      return f.balance().locked;
    },
    correct: '0',
    mutant: '7',
  },
  'ctl-redeemer-balance-unknown-before-credit': {
    observes: "the balance read of the fixture's redeemer, never credited",
    observe: async (f) => (await f.send('GET', `/_control/operator/redeemers/${f.redeemer.jwk.kid}/balance`)).status,
    correct: 200,
    mutant: 404,
  },
  'ctl-principal-asset-held-to-policy': {
    observes: 'a new Principal provisioned in XTS, an asset the policy does not list',
    observe: async (f) => answer(await f.send('POST', '/_control/operator/principals', { json: { public_key: createSigningKey().jwk, asset: { type: 'fiat', code: 'XTS' }, balance: '5' } })),
    correct: 201,
    mutant: 'MALFORMED_REQUEST',
  },
  'ctl-reprovision-answered-200': {
    observes: "the fixture's Principal provisioned again",
    observe: async (f) => (await f.send('POST', '/_control/operator/principals', { json: { public_key: f.principal.jwk, asset: EUR, balance: '500' } })).status,
    correct: 201,
    mutant: 200,
  },
  'op-control-bom-stripped': {
    observes: 'a redeemer provisioning body that starts with a byte order mark',
    async observe(f) {
      const raw = `\ufeff${JSON.stringify({ public_key: createSigningKey().jwk, identity_level: 0 })}`;
      return answer(await f.send('POST', '/_control/operator/redeemers', { raw, headers: { 'content-type': 'application/json' } }));
    },
    correct: 'MALFORMED_REQUEST',
    mutant: 201,
  },
  'op-media-type-before-size': {
    observes: 'a valid Lock Request padded to 5 000 bytes, sent as text/plain, under a max_body_bytes of 4 096',
    fixture: { policy: { max_body_bytes: 4096 } },
    async observe(f) {
      const text = JSON.stringify(f.lockRequest());
      return answer(await f.send('POST', '/v1/cashpack/issue', { raw: text + ' '.repeat(5000 - Buffer.byteLength(text)), headers: { 'content-type': 'text/plain' } }));
    },
    correct: 'PAYLOAD_TOO_LARGE',
    mutant: 'UNSUPPORTED_MEDIA_TYPE',
  },
  'op-media-type-case-sensitive': {
    observes: 'a valid Lock Request sent as Application/JSON',
    observe: async (f) => answer(await f.send('POST', '/v1/cashpack/issue', { raw: JSON.stringify(f.lockRequest()), headers: { 'content-type': 'Application/JSON' } })),
    correct: 200,
    mutant: 'UNSUPPORTED_MEDIA_TYPE',
  },
  'op-redemption-s-unreduced': {
    observes: 'a Redemption Request whose signature has S + L in place of S',
    async observe(f) {
      const { pack, bearer } = await f.issuePack();
      const redemption = f.redemption(pack, bearer);
      const signature = Buffer.from(redemption.signature, 'base64url');
      const bent = encodeB64url(Buffer.concat([signature.subarray(0, 32), le32(leInt(signature.subarray(32)) + L)]));
      return answer(await f.redeem(pack, { ...redemption, signature: bent }));
    },
    correct: 'INVALID_SIGNATURE',
    mutant: 200,
  },
  'op-balance-as-double': {
    observes: 'the available balance of a Principal provisioned with 2^53 + 1',
    fixture: { balance: '9007199254740993' },
    observe: async (f) => f.balance().available,
    correct: '9007199254740993',
    mutant: '9007199254740992',
  },
  'op-issue-201-created': {
    observes: 'a valid Lock Request',
    observe: async (f) => (await f.issue()).status,
    correct: 200,
    mutant: 201,
  },
  'op-jwk-kid-unchecked': {
    observes: "a Lock Request whose initial bearer's kid is another key's thumbprint",
    observe: async (f) => answer(await f.issue(f.lockRequest({ initialBearer: { ...createSigningKey().jwk, kid: createSigningKey().jwk.kid } }))),
    correct: 'MALFORMED_REQUEST',
    mutant: 200,
  },
  'op-created-at-fraction-accepted': {
    observes: 'a Lock Request created at .500 of a second',
    observe: async (f) => answer(await f.issue(f.lockRequest({ created_at: '2026-01-01T00:00:00.500Z' }))),
    correct: 'MALFORMED_REQUEST',
    mutant: 200,
  },
};

describe('Operator mutants', () => {
  it('has a probe for every operator mutant', () => {
    expect(Object.keys(PROBES).sort()).toEqual(MUTANTS.filter((m) => m.role === 'operator' && m.catcher === 'suite').map((m) => m.name).sort());
  });

  describe.each(Object.entries(PROBES))('%s', (name, probe) => {
    const description = MUTANTS.find((m) => m.name === name)?.description;
    it(`the correct Operator: ${probe.observes} gives ${JSON.stringify(probe.correct)}`, async () => {
      expect(await probe.observe(createFixture({ ...probe.fixture }), undefined)).toEqual(probe.correct);
    });
    it(`the mutant (${description}): ${probe.observes} gives ${JSON.stringify(probe.mutant)}`, async () => {
      expect(await probe.observe(createFixture({ ...probe.fixture, faults: faultsFor(name) }), name)).toEqual(probe.mutant);
    });
  });
});
