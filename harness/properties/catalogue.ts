// The properties a run executes besides the scenarios: each checks a
// rule over generated inputs, against any target, through the adapters.
import fc from 'fast-check';
import { acceptanceCharges, cprRulesOf } from '../cpr-charges.ts';
import { ACTION_IMPLEMENTATIONS, appCall } from '../scenarios/actions/index.ts';
import { Params } from '../scenarios/params.ts';
import { StepError, type HttpResult } from '../scenarios/context.ts';
import { send } from '../scenarios/http.ts';
import { brokenCpr, deepLink, inlineUri, malformedBody, MAX_BODY_BYTES, qrUri, validCpr, type CashpackMessageKind } from '../../generators/index.ts';
import { FIELD_PROPERTIES } from './field-classes/index.ts';
import { OPERATOR_EXPIRIES } from './operator-expiries.ts';
import { OPERATOR_REPLAY } from './operator-replay.ts';
import { OPERATOR_ASSETS } from './operator-assets.ts';
import { OPERATOR_IDENTITY } from './operator-identity.ts';
import { OPERATOR_ORDER } from './operator-order.ts';
import { OPERATOR_ORDER_PACKS } from './operator-order-packs.ts';
import { OPERATOR_UPDATED_AT } from './operator-updated-at.ts';
import { PAYEE_LIFETIMES } from './payee-lifetimes.ts';
import { PAYEE_IDS } from './payee-ids.ts';
import { CONTEXT, crash, crashed, define, FUTURE, read, refusalOf, REFUSAL_RULES, rejectionFailure, servedCprDefect, SERVED_CPR_CHARGES, unlocatedPaths } from './support.ts';
import type { PropertyDefinition } from './types.ts';

/** Base URLs on loopback's discard port, where nothing answers: a retrieval there fails at once. */
const NOWHERE = fc.tuple(fc.constantFrom('https://127.0.0.1:9', 'https://localhost:9'), fc.constantFrom('', '/pay', '/shops/acme%20gmbh')).map(([origin, path]) => origin + path);

const OPERATOR_ENDPOINTS: Readonly<Record<CashpackMessageKind, string>> = {
  'lock-request': '/v1/cashpack/issue',
  'renew-request': '/v1/cashpack/renew',
  'redeem-request': '/v1/cashpack/redeem',
};

/** What a harness may ask a payee to put into a request (PROFILE.md §12), payer-free by construction. */
const requestInput = () =>
  fc.record(
    {
      sub_interface: fc.constantFrom('ON_CHAIN', 'IBAN', 'ACCOUNT', 'INSTANT_KEY'),
      amount: fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String),
      memo: fc.string({ unit: 'grapheme', maxLength: 40 }).filter((m) => [...m].length <= 140),
      extensions: fc.dictionary(fc.constantFrom('std:note', 'com.example.order', 'org.example.tag'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
    },
    { requiredKeys: ['sub_interface'] },
  );

export const PROPERTIES: readonly PropertyDefinition[] = [
  define({
    id: 'PROP-PAYEE-001',
    title: 'the payee never serves payer data and always serves a valid CPR, whatever it is asked to put in a request',
    requirements: ['CPR-PAYER-1', 'TOK-GET-1'],
    charges: () => [...cprRulesOf('payee'), ...SERVED_CPR_CHARGES],
    level: 'MUST',
    role: 'payee',
    sections: ['§4.7.1', '§4.8'],
    needs: ['provision'],
    defaultRuns: 25,
    arbitrary: requestInput,
    async check(ctx, input) {
      const created = (await ACTION_IMPLEMENTATIONS['create-request'](ctx, new Params('create-request', { with: input }))) as { token: string };
      const served: HttpResult = await send(ctx, 'payee', { method: 'GET', path: `/cpr/${created.token}` });
      return servedCprDefect(served, ['CPR-PAYER-1']);
    },
  }),
  define({
    id: 'PROP-APP-001',
    title: 'the paying application accepts every valid CPR of every sub-interface',
    requirements: ['DRV-VALID-1', 'CPR-EXT-1', 'SUB-OPEN-1'],
    level: 'MUST',
    role: 'paying-app',
    sections: ['§4.5.1', '§2.5', '§9'],
    needs: [],
    defaultRuns: 60,
    arbitrary: () => validCpr({ now: FUTURE }),
    async check(ctx, cpr) {
      const result = await read(ctx, { kind: 'object', value: cpr });
      if (crashed(result)) return crash(result, 'accepted');
      return result.ok ? undefined : { ...rejectionFailure(result, 'accepted'), requirements: await refusalOf(ctx, cpr, []) };
    },
  }),
  define({
    id: 'PROP-APP-002',
    title: 'the paying application rejects every CPR that breaks exactly one rule',
    requirements: ['DRV-VALID-1'],
    level: 'MUST',
    role: 'paying-app',
    sections: ['§4.5.1', '§7.2'],
    needs: [],
    defaultRuns: 120,
    arbitrary: () => brokenCpr({ now: FUTURE }),
    async check(ctx, broken) {
      const result = await read(ctx, { kind: 'object', value: broken.cpr });
      if (crashed(result)) return crash(result, { rejected: true, broken: broken.rule, by: broken.description });
      return result.ok ? rejectionFailure(result, { rejected: true, broken: broken.rule, by: broken.description }) : undefined;
    },
  }),
  define({
    id: 'PROP-APP-016',
    title: 'a copy PROFILE.md §7.4 wants equal to its original, written as another spelling of the same thing (the chain as CAIP-2 eip155:<n>, an address copy in another letter case), is refused CPR_INVALID for PRF-RAIL-1',
    requirements: ['PRF-RAIL-1'],
    charges: () => acceptanceCharges(['PRF-RAIL-1']),
    level: 'PROFILE',
    role: 'paying-app',
    sections: ['PROFILE §7.4', 'PROFILE §8.3'],
    needs: [],
    defaultRuns: 25,
    // Among every one-rule-broken CPR these are two mutations of eighty-four: drawn alone, each is met in every run.
    arbitrary: () => brokenCpr({ now: FUTURE, mutations: ['ON_CHAIN:asset.chain_id:caip2-of-rail', 'ON_CHAIN:address:copy-in-other-case'] }),
    async check(ctx, broken) {
      const result = await read(ctx, { kind: 'object', value: broken.cpr });
      const expected = { code: 'CPR_INVALID', violation: broken.rule, by: broken.description };
      if (crashed(result)) return crash(result, expected);
      if (result.ok) return { ...rejectionFailure(result, expected), requirements: acceptanceCharges([broken.rule]) };
      const named = (result.violations ?? []).some((v) => (v as { requirement?: unknown }).requirement === broken.rule);
      return result.code === 'CPR_INVALID' && named ? undefined : rejectionFailure(result, expected);
    },
  }),
  define({
    id: 'PROP-APP-003',
    title: 'a one-rule-broken CPR is rejected for exactly that rule (CPR_INVALID naming it at a JSON Pointer to where it broke, or CPR_VERSION_UNSUPPORTED), and CPR_VERSION_UNSUPPORTED when its cpr_version is wrong too',
    requirements: ['PRF-APP-1'],
    charges: () => acceptanceCharges(cprRulesOf('paying-app')),
    level: 'PROFILE',
    role: 'paying-app',
    sections: ['PROFILE §8.2', 'PROFILE §8.3'],
    needs: [],
    defaultRuns: 120,
    // One case in four also writes cpr_version otherwise (or leaves it out): the version is validated
    // first (PROFILE.md §8.2), and a document written to another version is CPR_VERSION_UNSUPPORTED
    // whatever else it breaks (§8.3), as a newer version's members are unknown to this one.
    // One document in ten breaks the rule at a member whose name holds "/" or "~", whose pointer escapes them (RFC 6901 §3): a
    // class of paths that one mutation of the eighty-odd alone would leave to a few draws a run.
    arbitrary: () =>
      fc.tuple(
        fc.oneof({ weight: 9, arbitrary: brokenCpr({ now: FUTURE }) }, { weight: 1, arbitrary: brokenCpr({ now: FUTURE, mutations: ['unknown-member:name-with-slash-or-tilde'] }) }),
        fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('CPR-2.0', 'CPR-1.1', 'cpr-1.0', 'CPR-1', undefined) }),
      ),
    async check(ctx, [broken, version]) {
      // A document that is a JSON object, whose version can be written otherwise.
      const object = typeof broken.cpr === 'object' && broken.cpr !== null && !Array.isArray(broken.cpr);
      if (version !== null && object && broken.rule !== 'CPR-VER-1') {
        const { cpr_version: _version, ...rest } = broken.cpr as Record<string, unknown>;
        const doc = version === undefined ? rest : { ...rest, cpr_version: version };
        const result = await read(ctx, { kind: 'object', value: doc });
        const expected = { code: 'CPR_VERSION_UNSUPPORTED', also: { broken: broken.rule, by: broken.description }, cpr_version: version ?? 'left out' };
        if (crashed(result)) return crash(result, expected);
        if (result.ok) return { ...rejectionFailure(result, expected), requirements: acceptanceCharges(['CPR-VER-1']) };
        return result.code === 'CPR_VERSION_UNSUPPORTED' ? undefined : rejectionFailure(result, expected);
      }
      const result = await read(ctx, { kind: 'object', value: broken.cpr });
      if (crashed(result)) return crash(result, { code: 'CPR_INVALID', violation: broken.rule });
      // Processed, not rejected: what breaks is the rule and DRV-VALID-1, not the form of a rejection there was none of.
      if (result.ok) return { ...rejectionFailure(result, { code: 'CPR_INVALID', violation: broken.rule }), requirements: acceptanceCharges([broken.rule]) };
      const named = (result.violations ?? []).some((v) => (v as { requirement?: unknown }).requirement === broken.rule);
      const versionCode = broken.rule === 'CPR-VER-1' && result.code === 'CPR_VERSION_UNSUPPORTED';
      if (!((result.code === 'CPR_INVALID' && named) || versionCode)) return rejectionFailure(result, { code: 'CPR_INVALID', violation: broken.rule, mutation: broken.description });
      // The broken rule's violations point where in the document it broke (PROFILE.md §8.3), member names holding "/" or "~" escaped.
      const lost = result.code === 'CPR_INVALID' ? unlocatedPaths(broken.cpr, result.violations ?? [], broken.rule, broken.path) : [];
      return lost.length === 0 ? undefined : { expected: { violations: `paths that are JSON Pointers into the document (RFC 6901), such as ${JSON.stringify(broken.path)}` }, actual: { unlocated: lost }, message: `${broken.description}: a violation's path points nowhere in the document`, requirements: ['PRF-APP-1'] };
    },
  }),
  define({
    id: 'PROP-DRV-001',
    title: 'derivation preserves the amount and asset exactly, or takes the payer amount when open',
    requirements: ['DRV-VALUE-1', 'DRV-OPEN-1'],
    charges: () => REFUSAL_RULES,
    level: 'MUST',
    role: 'paying-app',
    sections: ['§4.7.5', '§4.6.4'],
    needs: [],
    defaultRuns: 60,
    arbitrary: () => fc.tuple(validCpr({ now: FUTURE }), fc.bigInt({ min: 1n, max: 10n ** 40n }).map(String)),
    async check(ctx, [cpr, payerAmount]) {
      const requested = (cpr as { value: { amount?: string; asset: unknown } }).value;
      const open = requested.amount === undefined;
      const result = await appCall(() => ctx.app().derive(cpr, { ...CONTEXT, ...(open ? { payer_amount: payerAmount } : {}) }));
      if (crashed(result)) return crash(result, { amount: open ? payerAmount : requested.amount });
      const value = (result.ok ? (result.payment as { value?: unknown } | undefined)?.value : undefined) as { amount?: unknown; asset?: unknown } | undefined;
      const expected = { amount: open ? payerAmount : requested.amount, asset: requested.asset };
      const same = value !== undefined && JSON.stringify(value.amount) === JSON.stringify(expected.amount) && JSON.stringify(value.asset) === JSON.stringify(expected.asset);
      if (same) return undefined;
      const failure = { expected, actual: result.ok ? value ?? null : { rejected: result.code, message: result.message }, message: 'the Payment value is not the requested value' };
      return result.ok ? failure : { ...failure, requirements: await refusalOf(ctx, cpr, open ? ['DRV-OPEN-1'] : ['DRV-VALUE-1']) };
    },
  }),
  define({
    id: 'PROP-DLV-001',
    title: 'the paying application accepts every valid inline URI and rejects every malformed one',
    requirements: ['DLV-INLINE-1', 'PRF-B64-1'],
    charges: () => REFUSAL_RULES,
    level: 'MUST',
    role: 'paying-app',
    sections: ['§4.4', 'PROFILE §8.1'],
    needs: [],
    defaultRuns: 60,
    arbitrary: () => fc.oneof(inlineUri({ cpr: { now: FUTURE, maxExtensionKeys: 1 } }), inlineUri({ malformed: true, cpr: { now: FUTURE, maxExtensionKeys: 1 } })),
    async check(ctx, delivery) {
      const result = await read(ctx, { kind: 'uri', uri: delivery.uri });
      if (crashed(result)) return crash(result, delivery.malformed ? { code: delivery.expected.code } : 'accepted');
      // A valid inline URI refused: its CPR refused on its own is a refusal of the CPR, not of the inline form.
      if (!delivery.malformed) return result.ok ? undefined : { ...rejectionFailure(result, 'accepted'), requirements: await refusalOf(ctx, delivery.cpr, ['DLV-INLINE-1', 'PRF-B64-1']) };
      return !result.ok && result.code === delivery.expected.code ? undefined : rejectionFailure(result, { code: delivery.expected.code, defect: delivery.defect });
    },
  }),
  define({
    id: 'PROP-DLV-002',
    title: 'the paying application refuses every malformed token URI, QR or deep link, URI_INVALID without retrieving it',
    requirements: ['DLV-QR-1', 'DLV-DEEP-1', 'PRF-URI-1'],
    level: 'MUST',
    role: 'paying-app',
    sections: ['§4.4', 'PROFILE §8.1', 'PROFILE §8.3'],
    needs: [],
    defaultRuns: 50,
    // Eight URIs a case, each with one defect of its own (ten kinds, in a QR URI or a deep link), built on a loopback port where nothing
    // answers: an application that retrieves one all the same answers at once, and otherwise than URI_INVALID.
    arbitrary: () => fc.array(fc.oneof(qrUri({ malformed: true, endpoints: NOWHERE }), deepLink({ malformed: true, endpoints: NOWHERE })), { minLength: 8, maxLength: 8 }),
    async check(ctx, deliveries) {
      for (const delivery of deliveries) {
        const result = await read(ctx, { kind: 'uri', uri: delivery.uri });
        const expected = { uri: delivery.uri, code: delivery.expected.code, defect: delivery.defect, description: delivery.description };
        if (crashed(result)) return crash(result, expected, [delivery.expected.requirement]);
        if (result.ok || result.code !== delivery.expected.code) return { ...rejectionFailure(result, expected), requirements: [delivery.expected.requirement] };
      }
      return undefined;
    },
  }),
  define({
    id: 'PROP-ERR-001',
    title: 'every malformed body on every operator endpoint gets a 4xx problem, never a 5xx or a hang',
    requirements: ['CPP-ERR-1', 'PRF-JSON-1', 'PRF-HTTP-1'],
    level: 'PROFILE',
    role: 'operator',
    sections: ['PROFILE §1', 'PROFILE §11'],
    needs: [],
    defaultRuns: 60,
    arbitrary: ({ policy }) => {
      // The oversized bodies are past the target's own limit, and every body over it expects 413 first.
      const maxBodyBytes = policy?.max_body_bytes ?? 65_536;
      if (maxBodyBytes > MAX_BODY_BYTES) {
        throw new StepError('skipped', `the generator makes its oversize bodies in memory, for body limits up to ${MAX_BODY_BYTES} bytes; the target's max_body_bytes is ${maxBodyBytes}`);
      }
      return fc.constantFrom<CashpackMessageKind>('lock-request', 'renew-request', 'redeem-request').chain((message) => malformedBody({ message, maxBodyBytes }));
    },
    async check(ctx, body) {
      // Over the limit on purpose where the body is: the generator expects 413 first there.
      const answer = await send(ctx, 'operator', { method: 'POST', path: OPERATOR_ENDPOINTS[body.message], headers: { 'content-type': body.contentType }, body: body.bytes, timeoutMs: 10_000 }, { overLimit: body.expectedStatus === 413 });
      const code = (answer.body as { code?: unknown } | undefined)?.code;
      const ok = answer.status === body.expectedStatus && answer.headers['content-type']?.startsWith('application/problem+json') === true && code === body.code;
      return ok ? undefined : { expected: { status: body.expectedStatus, code: body.code }, actual: { status: answer.status, code: code ?? null, content_type: answer.headers['content-type'] ?? null }, message: `${body.kind}: ${body.description}` };
    },
  }),
  OPERATOR_UPDATED_AT,
  OPERATOR_EXPIRIES,
  OPERATOR_IDENTITY,
  OPERATOR_ORDER,
  OPERATOR_ORDER_PACKS,
  OPERATOR_REPLAY,
  OPERATOR_ASSETS,
  PAYEE_LIFETIMES,
  PAYEE_IDS,
  // Every field, every class: generated across the field inventory (fields.ts), one property per path family.
  ...FIELD_PROPERTIES,
];

export function findProperty(id: string): PropertyDefinition | undefined {
  return PROPERTIES.find((p) => p.id === id);
}
