// PROP-OP-011: every signature of every kind of signed message the Operator
// checks (the Lock Request, the Renewal Entry, the Redemption Request, the
// cash-pack it is presented, an HTTP Message Signature), bent every way a
// verifier short of PROFILE.md §2.3 accepts (S + k·L, a small-order R, the
// identity written with y = p + 1), and every key a message names that is of
// small order or not canonical, with a signature by nobody that a lax verifier
// accepts (each message its signer's key signs bent every way in each case,
// the drawn way first): refused as INVALID_SIGNATURE (401 UNAUTHENTICATED for a status
// read); a kid that is not its key's thumbprint is MALFORMED_REQUEST. An R of
// mixed order that only the cofactored equation accepts is among the bends;
// and a bearer key of mixed order, signing so that both equations hold
// (speccheck's case 3), is accepted: a pack issued or renewed to it, then
// renewed or redeemed by it. And each message a party signs, signed by the
// right key over another signing input than §2.2's (class signature.input:
// another type's tag, the tag named after a profile identifier, another
// separator, the object not in JCS...): INVALID_SIGNATURE; and signed, naming
// its right signer, by every other party around it (its Initial Bearer or new
// bearer, the pack's Principal, the redeemer, a key registered nowhere):
// INVALID_SIGNATURE whoever signed. A pack issued or renewed to its own
// Principal's key or the redeemer's is granted and redeemed by it.
import fc from 'fast-check';
import { encodeB64url } from '../../../profile/b64url.ts';
import { publicJwk, type OkpJwk } from '../../../profile/jwk.ts';
import { signingInput, signObject, type MessageType } from '../../../profile/signing.ts';
import { createSigningKey, type CashPack, type SigningKey } from '../../../profile/cashpack/index.ts';
import { bentSigningInput, MALLEATION_KINDS, malleationNote, mixedOrderKey, signatureMalleation, signingInputBend, weakKey, type ClassValue, type Malleation, type MixedOrderKey, type SigningInputBend, type WeakKey } from '../../../generators/classes/index.ts';
import { signBytes } from '../../../profile/ed25519.ts';
import { forgeUnderSmallOrderKey, malleate, mixedOrderBearer, withSPlusL } from '../../crypto/ed25519-malleate.ts';
import type { WireRequest } from '../../adapters/types.ts';
import type { HttpResult, ScenarioContext } from '../../scenarios/context.ts';
import { jsonRequest, send } from '../../scenarios/http.ts';
import { define, firstFailure } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { issuePack, lockRequest, operatorNow, operatorSetup, redeemRequest, redemption, renewal, statusRequest, type OperatorSetup } from './operator-setup.ts';
import { restoreClock } from './clock.ts';

const FILE = 'harness/properties/field-classes/operator-signatures.ts';

type Doc = Record<string, unknown>;

const MALLEABLE = ['lock-request/signature', 'renew-request/renewal/signature', 'renew-request/cash_pack/signature', 'redeem-request/redemption/signature', 'redeem-request/cash_pack/signature', 'GET /v1/cashpack/{pack_id}/status'] as const;
/** The messages a party signs: each is also signed over another signing input. */
const PARTY_SIGNED = [
  ['lock-request/signature', 'lock-request'],
  ['renew-request/renewal/signature', 'renewal-entry'],
  ['redeem-request/redemption/signature', 'redemption-request'],
] as const;
const WEAK = ['lock-request/principal_pk', 'renew-request/renewal/bearer_pk', 'redeem-request/redemption/bearer_pk', 'lock-request/initial_bearer_pk', 'renew-request/renewal/new_bearer_pk'] as const;

/** Only S + k·L bends a signature without its signer's key: the Operator's own and an HTTP Message Signature (whose base the harness does not re-sign). */
const WITHOUT_KEY = new Set<string>(['renew-request/cash_pack/signature', 'redeem-request/cash_pack/signature', 'GET /v1/cashpack/{pack_id}/status']);

/**
 * Where a key of mixed order stands, each case: a Principal's (provisioned, its
 * Lock Request signed by it); a pack issued to one, renewed by it, then
 * redeemed by the next bearer (redeemed by it where max_chain_depth is 0); a
 * pack renewed to one, then redeemed by it (where a renewal is allowed).
 */
const MIXED = ['lock-request/principal_pk', 'lock-request/initial_bearer_pk', 'renew-request/renewal/new_bearer_pk'] as const;
/** The fields those messages carry the key in. */
const MIXED_FIELDS = [
  ...MIXED,
  'renew-request/renewal/bearer_pk',
  'renew-request/cash_pack/initial_bearer_pk',
  'renew-request/cash_pack/current_bearer_pk',
  'redeem-request/cash_pack/initial_bearer_pk',
  'redeem-request/cash_pack/current_bearer_pk',
  'redeem-request/redemption/bearer_pk',
] as const;

interface SignatureCase {
  readonly malleations: readonly ClassValue<Malleation>[];
  readonly keys: readonly ClassValue<WeakKey>[];
  readonly mixed: readonly ClassValue<MixedOrderKey>[];
  readonly inputs: readonly ClassValue<SigningInputBend>[];
}

const COVERS: Coverage[] = [
  ...MALLEABLE.map((field) => ({ field, class: 'signature.malleable' as const })),
  ...WEAK.map((field) => ({ field, class: 'key.weak' as const })),
  ...MIXED_FIELDS.map((field) => ({ field, class: 'key.mixed-order' as const })),
  ...PARTY_SIGNED.map(([field]) => ({ field, class: 'signature.input' as const })),
];

/** The cases, the tags named after a profile identifier taking the one the target publishes half the time. */
const cases = (policy: Readonly<Record<string, unknown>> | undefined): fc.Arbitrary<SignatureCase> => fc.record({
  malleations: fc.tuple(...MALLEABLE.map((field) => signatureMalleation({ withKey: !WITHOUT_KEY.has(field) }))),
  keys: fc.tuple(...WEAK.map(() => weakKey())),
  mixed: fc.tuple(...MIXED.map(() => mixedOrderKey())),
  // Two bends of each message a party signs, each case.
  inputs: fc.tuple(...PARTY_SIGNED.flatMap(() => [0, 1].map(() => signingInputBend(typeof policy?.['profile'] === 'string' ? { published: policy['profile'] } : {})))),
});

/** `object` signed by `signer` over the bytes `b` makes of its signing input as `type`; undefined where they are §2.2's own. */
function signedOver(type: MessageType, object: Doc, signer: SigningKey, b: SigningInputBend): Doc | undefined {
  const { signature: _old, ...unsigned } = object;
  const input = bentSigningInput(type, unsigned, b);
  return input && { ...unsigned, signature: encodeB64url(signBytes(input, signer.secretKey)) };
}

/** `object` signed by `signer` under `type`, its signature bent. */
function bentSigned(type: MessageType, object: Doc, signer: SigningKey, m: Malleation): Doc {
  const { signature: _old, ...unsigned } = object;
  const signed = signObject(type, unsigned, signer.secretKey);
  const bent = malleate(Buffer.from(signed.signature, 'base64url'), m, signingInput(type, unsigned), signer);
  return { ...unsigned, signature: encodeB64url(bent) };
}

/** The pack with its Operator signature's S raised by k·L. */
const bentPack = (pack: CashPack, m: Malleation): CashPack => ({ ...pack, signature: encodeB64url(withSPlusL(Buffer.from(pack.signature, 'base64url'), m.multiple)) });

/** A weak key as the JWK a message names, and how it signs: a signature by nobody under it, or (kid-mismatch) a real key with another key's kid. */
function weakSigner(w: WeakKey): { jwk: OkpJwk; sign: (type: MessageType, unsigned: Doc) => Doc } {
  if (w.kind === 'kid-mismatch') {
    const key = createSigningKey();
    const jwk = { ...key.jwk, kid: createSigningKey().jwk.kid };
    return { jwk, sign: (type, unsigned) => signObject(type, { ...unsigned }, key.secretKey) };
  }
  const jwk = publicJwk(w.encoding!);
  // A point of order dividing 8: k ≡ 0 mod 8 makes [k]A the identity for every one of them.
  return { jwk, sign: (type, unsigned) => ({ ...unsigned, signature: encodeB64url(forgeUnderSmallOrderKey(w.encoding!, 8, signingInput(type, unsigned))) }) };
}

const refused = (answer: HttpResult, status: number, code: string): boolean => answer.status === status && (answer.body as { code?: unknown } | undefined)?.code === code;

function verdict(answer: HttpResult, status: number, code: string, what: string, requirements: string[]): PropertyFailure | undefined {
  if (refused(answer, status, code)) return undefined;
  return { expected: { status, code }, actual: { status: answer.status, code: (answer.body as { code?: unknown } | undefined)?.code ?? null }, message: what, requirements };
}

type Item = () => Promise<PropertyFailure | undefined>;

function items(ctx: ScenarioContext, setup: OperatorSetup, now: number, c: SignatureCase): Item[] {
  const seconds = Math.floor(now / 1000);
  const [lockM, renewM, packM, redeemM, packM2, statusM] = c.malleations as [ClassValue<Malleation>, ClassValue<Malleation>, ClassValue<Malleation>, ClassValue<Malleation>, ClassValue<Malleation>, ClassValue<Malleation>];
  const sig = ['CPP-SIG-1', 'PRF-SIG-2'];
  const renewBody = (pack: CashPack, entry: Doc) => jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: pack, renewal: entry });
  const redeem = (pack: CashPack, r: Doc) => redeemRequest(ctx, JSON.stringify({ cash_pack: pack, redemption: r }), setup.redeemer, seconds);
  const malleated: Item[] = [
    ...everyWay(lockM).map((m) => async () => verdict(await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', bentSigned('lock-request', lockRequest(setup, now) as unknown as Doc, setup.principal, m.value))), 400, 'INVALID_SIGNATURE', `a Lock Request signed with ${m.note}`, sig)),
    ...everyWay(renewM).map((m) => async () => verdict(await send(ctx, 'operator', renewBody(setup.pack, bentSigned('renewal-entry', renewal(setup.pack, setup.bearer, now) as unknown as Doc, setup.bearer, m.value))), 400, 'INVALID_SIGNATURE', `a Renewal Entry signed with ${m.note}`, sig)),
    async () => verdict(await send(ctx, 'operator', renewBody(bentPack(setup.pack, packM.value), renewal(setup.pack, setup.bearer, now) as unknown as Doc)), 400, 'INVALID_SIGNATURE', `a renewal presenting the pack with ${packM.note}`, sig),
    ...everyWay(redeemM).map((m) => async () => verdict(await send(ctx, 'operator', redeem(setup.pack, bentSigned('redemption-request', redemption(setup.pack, setup.bearer, setup.redeemer, now) as unknown as Doc, setup.bearer, m.value))), 400, 'INVALID_SIGNATURE', `a Redemption Request signed with ${m.note}`, sig)),
    async () => verdict(await send(ctx, 'operator', redeem(bentPack(setup.pack, packM2.value), redemption(setup.pack, setup.bearer, setup.redeemer, now) as unknown as Doc)), 400, 'INVALID_SIGNATURE', `a redemption presenting the pack with ${packM2.note}`, sig),
    async () => {
      const read = statusRequest(ctx, setup.pack.pack_id, setup.principal, seconds);
      const headers = read.headers;
      const signature = headers['signature']!;
      const raw = /:([A-Za-z0-9+/=]+):/.exec(signature)![1]!;
      const bent = Buffer.from(withSPlusL(Buffer.from(raw, 'base64'), statusM.value.multiple)).toString('base64');
      return verdict(await send(ctx, 'operator', { ...read, headers: { ...headers, signature: signature.replace(raw, bent) } }), 401, 'UNAUTHENTICATED', `a status read whose HTTP Message Signature has ${statusM.note}`, ['PRF-AUTH-1', 'PRF-SIG-2']);
    },
  ];
  /** Whether a message body fits the target's max_body_bytes; one that does not is not sent, and the result says so. */
  const fits = (body: Doc, what: string): boolean => {
    if (Buffer.byteLength(JSON.stringify(body)) <= setup.policy.max_body_bytes) return true;
    ctx.leftOut.add(`${what}, as it is over max_body_bytes (${setup.policy.max_body_bytes})`);
    return false;
  };
  const [principalK, renewerK, redeemerK, initialK, nextK] = c.keys as [ClassValue<WeakKey>, ClassValue<WeakKey>, ClassValue<WeakKey>, ClassValue<WeakKey>, ClassValue<WeakKey>];
  const weakCode = (k: ClassValue<WeakKey>) => (k.value.kind === 'kid-mismatch' ? 'MALFORMED_REQUEST' : 'INVALID_SIGNATURE');
  const weakRules = (k: ClassValue<WeakKey>) => (k.value.kind === 'kid-mismatch' ? ['PRF-JWK-1'] : sig);
  /** A pack handed to a weak key (issued to it, or renewed to it): refused, or its redemption by nobody refused. */
  const handedTo = async (k: ClassValue<WeakKey>, hand: (jwk: OkpJwk) => Promise<HttpResult>, what: string): Promise<PropertyFailure | undefined> => {
    const weak = weakSigner(k.value);
    const answer = await hand(weak.jwk);
    if (k.value.kind === 'kid-mismatch') return verdict(answer, 400, 'MALFORMED_REQUEST', `${what}: ${k.note}`, ['PRF-JWK-1']);
    if (answer.status !== 200) return undefined; // an Operator may refuse to hand a pack to such a key
    const pack = answer.body as CashPack;
    const r = weak.sign('redemption-request', { ...(redemption(pack, createSigningKey(), setup.redeemer, now) as unknown as Doc), bearer_pk: weak.jwk });
    // A redemption the target's body limit leaves no room for (a pack renewed once, under a small max_body_bytes): not sent, and the result says so.
    if (!fits({ cash_pack: pack, redemption: r }, `the redemption of ${what}`)) return undefined;
    return verdict(await send(ctx, 'operator', redeem(pack, r)), 400, 'INVALID_SIGNATURE', `${what} (${k.note}), then redeemed with a signature by nobody under it`, sig);
  };
  const weakItems: Item[] = [
    async () => {
      const weak = weakSigner(principalK.value);
      const lock = weak.sign('lock-request', { ...(lockRequest(setup, now) as unknown as Doc), principal_pk: weak.jwk });
      return verdict(await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lock)), 400, weakCode(principalK), `a Lock Request by ${principalK.note}`, weakRules(principalK));
    },
    async () => {
      const weak = weakSigner(renewerK.value);
      const entry = weak.sign('renewal-entry', { ...(renewal(setup.pack, setup.bearer, now) as unknown as Doc), bearer_pk: weak.jwk });
      return verdict(await send(ctx, 'operator', renewBody(setup.pack, entry)), 400, weakCode(renewerK), `a Renewal Entry by ${renewerK.note}`, weakRules(renewerK));
    },
    async () => {
      const weak = weakSigner(redeemerK.value);
      const r = weak.sign('redemption-request', { ...(redemption(setup.pack, setup.bearer, setup.redeemer, now) as unknown as Doc), bearer_pk: weak.jwk });
      return verdict(await send(ctx, 'operator', redeem(setup.pack, r)), 400, weakCode(redeemerK), `a Redemption Request by ${redeemerK.note}`, weakRules(redeemerK));
    },
    () => handedTo(initialK, (jwk) => send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', resigned('lock-request', lockRequest(setup, now) as unknown as Doc, { initial_bearer_pk: jwk }, setup.principal))), 'a pack issued to a weak initial bearer'),
    async () => {
      const bearer = createSigningKey();
      const pack = await issuePack(ctx, setup, bearer, now);
      return handedTo(nextK, (jwk) => send(ctx, 'operator', renewBody(pack, resigned('renewal-entry', renewal(pack, bearer, now) as unknown as Doc, { new_bearer_pk: jwk }, bearer))), 'a pack renewed to a weak key');
    },
  ];
  const [principalOf, issuedTo, renewedTo] = c.mixed as [ClassValue<MixedOrderKey>, ClassValue<MixedOrderKey>, ClassValue<MixedOrderKey>];
  /** A granted answer, or the failure of a signature §2.3 accepts refused. */
  const granted = (answer: HttpResult, what: string): PropertyFailure | undefined =>
    answer.status === 200 ? undefined : { expected: { status: 200 }, actual: { status: answer.status, code: (answer.body as { code?: unknown } | undefined)?.code ?? null }, message: `${what}: PROFILE.md §2.3 accepts a key of mixed order and a signature meeting both equations (speccheck's case 3)`, requirements: ['PRF-SIG-2'] };
  const mixedItems: Item[] = [
    async () => {
      const principal = mixedOrderBearer(principalOf.value);
      const what = `a Lock Request by a Principal whose key is ${principalOf.note}`;
      const provisioned = await send(ctx, 'operator', jsonRequest('POST', '/_control/operator/principals', { public_key: principal.jwk, asset: setup.asset, balance: '1000' }));
      if (provisioned.status !== 201) return { expected: { status: 201 }, actual: { status: provisioned.status, code: (provisioned.body as { code?: unknown } | undefined)?.code ?? null }, message: `provisioning a Principal whose key is ${principalOf.note} (PROFILE.md §2.1, §2.3: a valid key)`, requirements: ['PRF-CTL-1'] };
      const lock = principal.signed('lock-request', { ...(lockRequest(setup, now) as unknown as Doc), principal_pk: principal.jwk });
      return granted(await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lock)), what);
    },
    async () => {
      const bearer = mixedOrderBearer(issuedTo.value);
      const what = `a pack issued to ${issuedTo.note}`;
      const issued = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lockRequest(setup, now, { bearer: bearer.jwk })));
      const refusedIssue = granted(issued, what);
      if (refusedIssue) return refusedIssue;
      const pack = issued.body as CashPack;
      // Where no renewal is allowed (max_chain_depth 0), the key of mixed order redeems the pack itself.
      if (setup.policy.max_chain_depth === 0) {
        const own = bearer.signed('redemption-request', { ...(redemption(pack, setup.bearer, setup.redeemer, now) as unknown as Doc), bearer_pk: bearer.jwk });
        return fits({ cash_pack: pack, redemption: own }, `the redemption of ${what}`) ? granted(await send(ctx, 'operator', redeem(pack, own)), `${what}, then redeemed by it`) : undefined;
      }
      const next = createSigningKey();
      const entry = bearer.signed('renewal-entry', { ...(renewal(pack, setup.bearer, now, next) as unknown as Doc), bearer_pk: bearer.jwk });
      const body = { cash_pack: pack, renewal: entry };
      if (!fits(body, `the renewal of ${what}`)) return undefined;
      const renewed = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/renew', body));
      const refusedRenewal = granted(renewed, `${what}, then renewed by it`);
      if (refusedRenewal) return refusedRenewal;
      // The pack still names the key of mixed order as its initial bearer: its redemption by the next bearer verifies nothing under it, and is granted.
      const held = renewed.body as CashPack;
      const r = redemption(held, next, setup.redeemer, now) as unknown as Doc;
      return fits({ cash_pack: held, redemption: r }, `the redemption of ${what}`) ? granted(await send(ctx, 'operator', redeem(held, r)), `${what}, renewed by it, then redeemed by the next bearer`) : undefined;
    },
    async () => {
      const bearer = mixedOrderBearer(renewedTo.value);
      const what = `a pack renewed to ${renewedTo.note}`;
      if (setup.policy.max_chain_depth === 0) {
        ctx.leftOut.add('a pack renewed to a key of mixed order, as max_chain_depth is 0');
        return undefined;
      }
      const first = createSigningKey();
      const issued = await issuePack(ctx, setup, first, now);
      const renewed = await send(ctx, 'operator', renewBody(issued, resigned('renewal-entry', renewal(issued, first, now) as unknown as Doc, { new_bearer_pk: bearer.jwk }, first)));
      const refusedRenewal = granted(renewed, what);
      if (refusedRenewal) return refusedRenewal;
      const pack = renewed.body as CashPack;
      const r = bearer.signed('redemption-request', { ...(redemption(pack, first, setup.redeemer, now) as unknown as Doc), bearer_pk: bearer.jwk });
      const body = { cash_pack: pack, redemption: r };
      return fits(body, `the redemption of ${what}`) ? granted(await send(ctx, 'operator', redeem(pack, r)), `${what}, then redeemed by it`) : undefined;
    },
  ];
  const tagRules = ['CPP-SIG-1', 'PRF-SIG-1'];
  /** A message signed over another input, sent; none when the bend makes §2.2's own bytes. */
  const overInput = (message: Doc | undefined, request: (signed: Doc) => WireRequest, what: string): Item => async () => (message === undefined ? undefined : verdict(await send(ctx, 'operator', request(message)), 400, 'INVALID_SIGNATURE', what, tagRules));
  const over = "over another signing input than PROFILE.md §2.2's";
  const inputItems: Item[] = c.inputs.map((b, i) => {
    const kind = PARTY_SIGNED[i >> 1]![1];
    if (kind === 'lock-request') return overInput(signedOver(kind, lockRequest(setup, now) as unknown as Doc, setup.principal, b.value), (m) => jsonRequest('POST', '/v1/cashpack/issue', m), `a Lock Request signed by its Principal ${over}: ${b.note}`);
    if (kind === 'renewal-entry') return overInput(signedOver(kind, renewal(setup.pack, setup.bearer, now) as unknown as Doc, setup.bearer, b.value), (m) => renewBody(setup.pack, m), `a Renewal Entry signed by its bearer ${over}: ${b.note}`);
    return overInput(signedOver(kind, redemption(setup.pack, setup.bearer, setup.redeemer, now) as unknown as Doc, setup.bearer, b.value), (m) => redeem(setup.pack, m), `a Redemption Request signed by its bearer ${over}: ${b.note}`);
  });
  return [...malleated, ...weakItems, ...mixedItems, ...inputItems, ...signerItems(ctx, setup, now), ...aliasItems(ctx, setup, now, fits)];
}

/**
 * Each message a party signs, naming its right signer, signed instead by every
 * other party around it (the keys it names or hands the pack to, the pack's
 * Principal, the redeemer) and by a key registered nowhere: refused
 * INVALID_SIGNATURE whoever signed (PROFILE.md §5 issue step 2, renew and
 * redeem: the signature under principal_pk or bearer_pk). A verifier that also
 * tries another key the message carries takes one of them.
 */
function signerItems(ctx: ScenarioContext, setup: OperatorSetup, now: number): Item[] {
  const seconds = Math.floor(now / 1000);
  const refusedAs = (request: WireRequest, what: string, who: string): Item => async () => verdict(await send(ctx, 'operator', request), 400, 'INVALID_SIGNATURE', `${what}, signed by ${who}`, ['CPP-SIG-1']);
  const locks = (['its Initial Bearer', 'the redeemer', 'the bearer of another pack', 'a key registered nowhere'] as const).map((who) => {
    const initial = createSigningKey();
    const signer = { 'its Initial Bearer': initial, 'the redeemer': setup.redeemer, 'the bearer of another pack': setup.bearer, 'a key registered nowhere': createSigningKey() }[who];
    const lock = resigned('lock-request', lockRequest(setup, now, { bearer: initial.jwk }) as unknown as Doc, {}, signer);
    return refusedAs(jsonRequest('POST', '/v1/cashpack/issue', lock), 'a Lock Request naming its Principal', who);
  });
  const renewals = (['its new bearer', "the pack's Principal", 'the redeemer', 'a key registered nowhere'] as const).map((who) => {
    const next = createSigningKey();
    const signer = { 'its new bearer': next, "the pack's Principal": setup.principal, 'the redeemer': setup.redeemer, 'a key registered nowhere': createSigningKey() }[who];
    const entry = resigned('renewal-entry', renewal(setup.pack, setup.bearer, now, next) as unknown as Doc, {}, signer);
    return refusedAs(jsonRequest('POST', '/v1/cashpack/renew', { cash_pack: setup.pack, renewal: entry }), 'a Renewal Entry naming the current bearer', who);
  });
  const redemptions = (['the redeemer it names', "the pack's Principal", 'a key registered nowhere'] as const).map((who) => {
    const signer = { 'the redeemer it names': setup.redeemer, "the pack's Principal": setup.principal, 'a key registered nowhere': createSigningKey() }[who];
    const r = resigned('redemption-request', redemption(setup.pack, setup.bearer, setup.redeemer, now) as unknown as Doc, {}, signer);
    return refusedAs(redeemRequest(ctx, JSON.stringify({ cash_pack: setup.pack, redemption: r }), setup.redeemer, seconds), 'a Redemption Request naming the current bearer', who);
  });
  return [...locks, ...renewals, ...redemptions];
}

/**
 * A pack handed to a key that holds another role around it, as no rule
 * forbids (PROFILE.md §5 lists every refusal; spec §1.2): issued to its own
 * Principal's key and to the redeemer's, and renewed to each, then redeemed
 * by that key as its bearer (the redeemer's as bearer and redeemer at once).
 * Each step granted.
 */
function aliasItems(ctx: ScenarioContext, setup: OperatorSetup, now: number, fits: (body: Doc, what: string) => boolean): Item[] {
  const seconds = Math.floor(now / 1000);
  const granted = (answer: HttpResult, what: string, requirements: string[]): PropertyFailure | undefined =>
    answer.status === 200 ? undefined : { expected: { status: 200 }, actual: { status: answer.status, code: (answer.body as { code?: unknown } | undefined)?.code ?? null }, message: `${what}: no rule of PROFILE.md §5 refuses a key for holding another role`, requirements };
  const redeemedBy = async (pack: CashPack, bearer: SigningKey, what: string): Promise<PropertyFailure | undefined> => {
    const r = redemption(pack, bearer, setup.redeemer, now);
    // A redemption the target's body limit leaves no room for (a pack renewed once, under a small max_body_bytes): not sent, and the result says so.
    if (!fits({ cash_pack: pack, redemption: r as unknown as Doc }, `the redemption of ${what}`)) return undefined;
    return granted(await send(ctx, 'operator', redeemRequest(ctx, JSON.stringify({ cash_pack: pack, redemption: r }), setup.redeemer, seconds)), `${what}, then redeemed by it as its bearer`, ['CPP-RED-1']);
  };
  const holders = [
    ["its Principal's", setup.principal],
    ["the redeemer's", setup.redeemer],
  ] as const;
  const issuedTo = holders.map(([whose, key]): Item => async () => {
    const what = `a pack issued to ${whose} key`;
    const issued = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/issue', lockRequest(setup, now, { bearer: key.jwk })));
    return granted(issued, what, ['CPP-ISS-1']) ?? (await redeemedBy(issued.body as CashPack, key, what));
  });
  const renewedTo = holders.map(([whose, key]): Item => async () => {
    if (setup.policy.max_chain_depth === 0) return undefined;
    const what = `a pack renewed to ${whose} key`;
    const first = createSigningKey();
    const pack = await issuePack(ctx, setup, first, now);
    const body = { cash_pack: pack, renewal: renewal(pack, first, now, key) };
    if (!fits(body as unknown as Doc, `the renewal of ${what}`)) return undefined;
    const renewed = await send(ctx, 'operator', jsonRequest('POST', '/v1/cashpack/renew', body));
    return granted(renewed, what, ['CPP-RNW-1']) ?? (await redeemedBy(renewed.body as CashPack, key, what));
  });
  return [...issuedTo, ...renewedTo];
}

/**
 * A message its signer's key signs, bent every way (MALLEATION_KINDS) in each
 * case, the drawn way first: a verifier lax in one way only is met every case.
 * The drawn multiple of L and point of small order serve every way.
 */
function everyWay(drawn: ClassValue<Malleation>): ClassValue<Malleation>[] {
  const others = MALLEATION_KINDS.filter((kind) => kind !== drawn.value.kind).map((kind) => ({ ...drawn.value, kind }));
  return [drawn, ...others.map((value) => ({ ...drawn, value, note: malleationNote(value) }))];
}

/** A signed message with some members changed and signed again by its signer. */
function resigned(type: MessageType, message: Doc, changes: Doc, signer: SigningKey): Doc {
  const { signature: _old, ...unsigned } = message;
  return signObject(type, { ...unsigned, ...changes }, signer.secretKey);
}

export const OPERATOR_SIGNATURES = define<SignatureCase>({
  id: 'PROP-OP-011',
  title: 'every signature of every signed message kind, bent every way (S + k·L, small-order, non-canonical or mixed-order R), made over another signing input or by every other party around the message, and every small-order or non-canonical key a message names, are refused; a mixed-order bearer key signing so that both equations hold, and a bearer key that is its Principal\'s or the redeemer\'s, are accepted',
  requirements: ['CPP-SIG-1', 'PRF-SIG-1', 'PRF-SIG-2', 'PRF-JWK-1', 'PRF-AUTH-1', 'CPP-ISS-1', 'CPP-RNW-1', 'CPP-RED-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §2.1', 'PROFILE §2.3', 'PROFILE §2.4', '§5.2', '§7.1'],
  needs: ['provision'],
  // Its setup freezes the Operator's clock under a tight policy (operator-setup.ts).
  shares: 'clock-if-tight-policy',
  defaultRuns: 20,
  caseWeight: 4,
  file: FILE,
  // The clock, frozen by the setup under a tight policy, runs again.
  teardown: (ctx) => restoreClock(ctx, 'operator'),
  covers: COVERS,
  // Where no renewal is allowed, none is sent expecting a grant: its pass claims nothing of the renewal rule.
  vacuousUnder: ({ policy }) => (policy?.max_chain_depth === 0 ? ['CPP-RNW-1'] : []),
  arbitrary: (target) => cases(target.policy),
  async check(ctx, c) {
    const setup = await operatorSetup(ctx);
    const now = await operatorNow(ctx);
    return firstFailure(ctx, items(ctx, setup, now, c), 6, (item) => item());
  },
});
