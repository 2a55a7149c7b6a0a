// PROP-OP-010: every member of every message the Operator reads (the Lock
// Request; the renewal and the redemption with the cash-pack they present), in
// every class of its form, and every signed member altered after signing: the
// Operator answers as PROFILE.md §5 orders its checks. The oracle is the
// profile's own message validator (profile/cashpack/schemas.ts): a message it
// refuses gets 400 MALFORMED_REQUEST; one it accepts whose signed bytes changed
// gets 400 INVALID_SIGNATURE. A member in a new form is re-signed, so that its
// form is all that is wrong.
import fc from 'fast-check';
import { signObject, type MessageType } from '../../../profile/signing.ts';
import { validateMessage, type SigningKey } from '../../../profile/cashpack/index.ts';
import type { ClassValue, FieldClassId } from '../../../generators/classes/index.ts';
import type { ScenarioContext } from '../../scenarios/context.ts';
import { jsonRequest, send } from '../../scenarios/http.ts';
import { fieldsOf } from '../fields.ts';
import { define, firstFailure } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { lockRequest, operatorNow, operatorSetup, redeemRequest, redemption, renewal, type OperatorSetup } from './operator-setup.ts';
import { restoreClock } from './clock.ts';
import { getAt, withAt } from './pointer.ts';
import { alteredVariant, formVariant, isFormClass, type FormClass } from './variants.ts';

const FILE = 'harness/properties/field-classes/operator-fields.ts';

const MESSAGES = ['lock-request', 'renew-request', 'redeem-request'] as const;
type Message = (typeof MESSAGES)[number];

/** The form classes of an operator message's members: what a value means (a bound, a large amount) is other properties'. */
const MEANINGLESS = new Set<FieldClassId>(['amount.large', 'amount.bound']);

const TARGETS = MESSAGES.flatMap((message) =>
  fieldsOf(message)
    .filter((f) => f.pointer !== '')
    .flatMap((field) => field.classes.filter((c) => (isFormClass(c) && !MEANINGLESS.has(c)) || c === 'signed.altered').map((cls) => ({ message, field, cls }))),
);

/** The signed object a member belongs to, its type and its signer (undefined: the Operator's, which the harness cannot re-sign). */
function signedPart(message: Message, pointer: string): { at: string; type: MessageType } | undefined {
  if (message === 'lock-request') return { at: '', type: 'lock-request' };
  if (pointer.startsWith('/renewal')) return { at: '/renewal', type: 'renewal-entry' };
  if (pointer.startsWith('/redemption')) return { at: '/redemption', type: 'redemption-request' };
  return undefined;
}

interface Sent {
  /** Index in TARGETS. */
  readonly target: number;
  /** Draws the member's variant from its value in the message the case builds (a fresh message each time). */
  readonly seed: number;
}

/** The message of one target, built on the Operator's setup, and the variant drawn for its member. */
function buildMessage(sent: Sent, setup: OperatorSetup, now: number): { body: Record<string, unknown>; variant: ClassValue } {
  const { message, field, cls } = TARGETS[sent.target]!;
  const base: Record<string, unknown> =
    message === 'lock-request'
      ? (lockRequest(setup, now) as unknown as Record<string, unknown>)
      : message === 'renew-request'
        ? { cash_pack: setup.pack, renewal: renewal(setup.pack, setup.bearer, now) }
        : { cash_pack: setup.pack, redemption: redemption(setup.pack, setup.bearer, setup.redeemer, now) };
  const current = getAt(base, field.pointer);
  const arbitrary = cls === 'signed.altered' ? alteredVariant(field, current) : formVariant(field, cls as FormClass, current);
  const variant = fc.sample(arbitrary, { seed: sent.seed, numRuns: 1 })[0]!;
  const changed = withAt(base, field.pointer, variant.value);
  const part = signedPart(message, field.pointer);
  // A new form is re-signed by the part's signer; an alteration after signing, or a signature itself, is not.
  if (cls === 'signed.altered' || field.kind === 'signature' || part === undefined) return { body: changed, variant };
  const signer: SigningKey = message === 'lock-request' ? setup.principal : setup.bearer;
  const { signature: _old, ...unsigned } = getAt(changed, part.at) as Record<string, unknown>;
  return { body: withAt(changed, part.at, signObject(part.type, unsigned, signer.secretKey)), variant };
}

const PATHS: Readonly<Record<Message, string>> = { 'lock-request': '/v1/cashpack/issue', 'renew-request': '/v1/cashpack/renew', 'redeem-request': '/v1/cashpack/redeem' };

/** Which rule a form class is about, when its member is refused. */
const FORM_RULE: Partial<Record<FieldClassId, string>> = {
  'identifier.case': 'PRF-ID-1',
  'identifier.form': 'PRF-ID-1',
  'timestamp.fraction': 'PRF-TIME-1',
  'timestamp.offset': 'PRF-TIME-1',
  'timestamp.leap-second': 'PRF-TIME-1',
  'amount.non-canonical': 'PRF-AMT-1',
  'binary.non-canonical': 'PRF-B64-1',
  'enum.case': 'PRF-ASSET-1',
  'code.case': 'PRF-ASSET-1',
};

/**
 * What the Operator answers a member in a form its schema allows, re-signed:
 * an asset code in another letter case (a token symbol, unlike an ISO 4217
 * code, may take any) is another asset, ASSET_NOT_SUPPORTED unless the policy
 * lists it as written (PROFILE.md §5 issue step 6); any other member, a 4xx.
 */
function legalFormAnswer(setup: OperatorSetup, fieldId: string, body: Record<string, unknown>): { status: number; code?: string } | 'a 4xx' {
  if (!fieldId.endsWith('/asset/code')) return 'a 4xx';
  const asset = JSON.stringify(body.asset);
  return setup.policy.assets.some((a) => JSON.stringify(a) === asset) ? { status: 200 } : { status: 422, code: 'ASSET_NOT_SUPPORTED' };
}

async function judge(ctx: ScenarioContext, setup: OperatorSetup, now: number, sent: Sent): Promise<PropertyFailure | undefined> {
  const { message, field, cls } = TARGETS[sent.target]!;
  const { body, variant } = buildMessage(sent, setup, now);
  const valid = validateMessage(message, body);
  const resigned = cls !== 'signed.altered' && field.kind !== 'signature' && signedPart(message, field.pointer) !== undefined;
  if (valid.ok && resigned) {
    const answer = await send(ctx, 'operator', message === 'redeem-request' ? redeemRequest(ctx, JSON.stringify(body), setup.redeemer, Math.floor(now / 1000)) : jsonRequest('POST', PATHS[message], body));
    const code = (answer.body as { code?: unknown } | undefined)?.code;
    const expected = legalFormAnswer(setup, field.id, body);
    const held = expected === 'a 4xx' ? answer.status !== null && answer.status >= 400 && answer.status < 500 : answer.status === expected.status && (expected.code === undefined || code === expected.code);
    if (held) return undefined;
    return { expected, actual: { status: answer.status, code: code ?? null }, message: `${field.id}, ${cls}: ${variant.note} (${JSON.stringify(variant.value)}), a form the schema allows, re-signed`, requirements: [...(answer.status !== null && answer.status >= 500 ? ['CPP-ERR-1'] : []), FORM_RULE[cls] ?? 'PRF-MSG-1'] };
  }
  const expected = valid.ok ? 'INVALID_SIGNATURE' : 'MALFORMED_REQUEST';
  const request = message === 'redeem-request' ? redeemRequest(ctx, JSON.stringify(body), setup.redeemer, Math.floor(now / 1000)) : jsonRequest('POST', PATHS[message], body);
  const answer = await send(ctx, 'operator', request);
  const code = (answer.body as { code?: unknown } | undefined)?.code;
  if (answer.status === 400 && code === expected) return undefined;
  const rule = valid.ok ? 'CPP-SIG-1' : (FORM_RULE[cls] ?? 'PRF-MSG-1');
  return {
    expected: { status: 400, code: expected, ...(valid.ok ? {} : { because: valid.errors.slice(0, 3) }) },
    actual: { status: answer.status, code: code ?? null },
    message: `${field.id}, ${cls}: ${variant.note} (${JSON.stringify(variant.value)})`,
    requirements: [...(answer.status !== null && answer.status >= 500 ? ['CPP-ERR-1'] : []), rule, ...(valid.ok ? [] : ['PRF-MSG-1'])],
  };
}

export const OPERATOR_FIELDS = define<readonly Sent[]>({
  id: 'PROP-OP-010',
  title: 'every member of every message the Operator reads, in every class of its form or altered after signing, is refused as PROFILE.md §5 orders: MALFORMED_REQUEST, else INVALID_SIGNATURE',
  requirements: ['PRF-MSG-1', 'PRF-ID-1', 'PRF-TIME-1', 'PRF-AMT-1', 'PRF-B64-1', 'PRF-ASSET-1', 'CPP-SIG-1', 'CPP-ERR-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §1', 'PROFILE §4', 'PROFILE §5', '§5.2', '§7.1'],
  needs: ['provision'],
  // Its setup freezes the Operator's clock under a tight policy (operator-setup.ts).
  shares: 'clock-if-tight-policy',
  defaultRuns: 20,
  caseWeight: 10,
  file: FILE,
  // The clock, frozen by the setup under a tight policy, runs again.
  teardown: (ctx) => restoreClock(ctx, 'operator'),
  covers: TARGETS.map(({ field, cls }): Coverage => ({ field: field.id, class: cls })),
  arbitrary: () => fc.tuple(...TARGETS.map((_, target) => fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((seed): Sent => ({ target, seed })))),
  async check(ctx, sent) {
    const setup = await operatorSetup(ctx);
    const now = await operatorNow(ctx);
    return firstFailure(ctx, sent, 16, (s) => judge(ctx, setup, now, s));
  },
});

