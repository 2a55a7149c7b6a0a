// What a conformant paying application answers (PROFILE.md §8.3, §9; spec
// §4.4–§4.7), with the profile's own validator (profile/cpr/validate.ts) as the
// oracle of what a CPR is. Each call is predicted as the outcomes a conformant
// application may give, the oracle's own first: where the profile leaves a
// choice (a body served as text/plain that is JSON, a slow body, which of two
// broken rules an application reports first), every choice is allowed, and
// nothing the profile does not demand is ever expected.
import { parseTimestamp } from '../../../profile/index.ts';
import { isRailHint, otherFields, validateCpr, ZERO_ACQUIRER_ID, type Cpr, type SubInterface } from '../../../profile/cpr/index.ts';
import type { Channel, DeriveContext, Document, Encoding, Endpoint, Serving } from './spec.ts';

/** One answer a conformant application may give, and the requirement of the rule that says so. */
export interface Outcome {
  readonly kind: 'accept' | 'reject';
  /** The rejection's code (PROFILE.md §8.3). */
  readonly code?: string;
  /** With CPR_INVALID: the registry IDs of which `violations` must name one. */
  readonly violations?: readonly string[];
  /** Where it is known: the JSON Pointer that violation names ("" for a text that is no JSON document, PROFILE.md §8.3). */
  readonly at?: string;
  readonly requirement: string;
  /** Where the profile says so, and why it applies. */
  readonly rule: string;
}

/** The outcomes allowed, the oracle's own first. */
export type Expectation = readonly [Outcome, ...Outcome[]];

/** Which requirement an application that accepts from this channel fulfils (and one that refuses a valid CPR breaks). */
export const ACCEPT_REQUIREMENT: Readonly<Record<Channel | 'derive', string>> = {
  json: 'DLV-FILE-1',
  object: 'DLV-FILE-1',
  file: 'DLV-FILE-1',
  inline: 'DLV-INLINE-1',
  qr: 'DLV-RESOLVE-1',
  'deep-link': 'DLV-RESOLVE-1',
  derive: 'DRV-SHAPE-1',
};

/** The rule a rejection code stands for (an application that refuses with it where the oracle accepts applied that rule wrongly). */
export const CODE_REQUIREMENT: Readonly<Record<string, string>> = {
  CPR_VERSION_UNSUPPORTED: 'CPR-VER-1',
  CPR_INVALID: 'DRV-VALID-1',
  CPR_EXPIRED: 'DRV-EXP-1',
  RAIL_UNSUPPORTED: 'DRV-RAIL-1',
  PARTIAL_PAYMENT_UNSUPPORTED: 'DRV-PARTIAL-1',
  AMOUNT_REQUIRED: 'DRV-OPEN-1',
  URI_INVALID: 'PRF-URI-1',
  RETRIEVAL_FAILED: 'DLV-RESOLVE-1',
};

const accept = (channel: Channel | 'derive', rule: string): Outcome => ({ kind: 'accept', requirement: ACCEPT_REQUIREMENT[channel], rule });
const reject = (code: string, requirement: string, rule: string, violations?: readonly string[]): Outcome => ({ kind: 'reject', code, requirement, rule, ...(violations ? { violations } : {}) });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The document a command carries. */
export function documentOf(doc: Document): unknown {
  return 'valid' in doc ? doc.valid : 'broken' in doc ? doc.broken : doc.drawn;
}

/**
 * What the application answers a CPR once it holds the document (spec §4.5
 * step 1, PROFILE.md §8.2–§8.3): cpr_version first, then the whole request
 * (the validator's violations), then expires_at against its clock. An
 * application may look at expires_at before the rest (PROFILE.md §8.2 lists it
 * among the first), so an invalid and expired CPR may get either code.
 */
export function documentOutcomes(doc: unknown, channel: Channel | 'derive', now: number, rule?: string): Expectation {
  if (isObject(doc) && doc.cpr_version !== 'CPR-1.0') return [reject('CPR_VERSION_UNSUPPORTED', 'CPR-VER-1', 'PROFILE.md §8.3: cpr_version is not CPR-1.0')];
  const validation = validateCpr(doc);
  const expires = isObject(doc) ? parseTimestamp(doc.expires_at, 'cpr') : undefined;
  const expired = reject('CPR_EXPIRED', 'DRV-EXP-1', 'spec §4.5 step 1, PROFILE.md §8.3: expires_at is at or before the application\'s clock');
  if (!validation.ok) {
    const broken = [...new Set(validation.violations.map((v) => v.requirement))];
    const requirement = rule !== undefined && broken.includes(rule) ? rule : broken[0]!;
    const invalid = reject('CPR_INVALID', requirement, `spec §7.2, PROFILE.md §8.3: the request breaks ${broken.join(', ')}`, broken);
    return expires !== undefined && expires <= now ? [invalid, expired] : [invalid];
  }
  if (expires !== undefined && expires <= now) return [expired];
  return [accept(channel, 'spec §4.5 step 1: a valid CPR that has not expired is read')];
}

/** The bytes the channel carries hold I-JSON (PROFILE.md §1) or not. */
function notJson(encoding: Encoding): boolean {
  if (typeof encoding === 'object') return 'trailing' in encoding || encoding.json.class === 'json.duplicate';
  return encoding === 'duplicate-member' || noJsonText(encoding);
}

/**
 * The bytes hold no JSON text at all (a byte order mark before it, nothing, HTML,
 * a document with text after it): the violation names the document, "" (PROFILE.md §8.3). A member written twice
 * may be charged to that member, so its path is left open.
 */
function noJsonText(encoding: Encoding): boolean {
  return encoding === 'bom' || encoding === 'not-json' || encoding === 'empty' || (typeof encoding === 'object' && 'trailing' in encoding);
}

const JSON_RULE = 'PROFILE.md §1, §8.3: not I-JSON (a byte order mark, a member written twice, or no JSON at all, an empty body included)';

/** CPR_INVALID for bytes that are not I-JSON, naming the document where they hold no JSON text at all. */
const invalidText = (encoding: Encoding): Outcome => ({ ...reject('CPR_INVALID', 'PRF-JSON-1', JSON_RULE, ['PRF-JSON-1']), ...(noJsonText(encoding) ? { at: '' } : {}) });

/** What a read of `doc`, written with `encoding`, delivered through `channel`, may get at the application's clock `now`. */
export function expectRead(command: { readonly doc: Document; readonly channel: Channel; readonly encoding: Encoding; readonly serving?: Serving; readonly endpoint?: Endpoint }, doc: unknown, uriBytes: number | undefined, now: number): Expectation {
  const { channel, encoding } = command;
  const rule = 'rule' in command.doc ? command.doc.rule : undefined;
  const content = (): Expectation => (notJson(encoding) ? [invalidText(encoding)] : documentOutcomes(doc, channel, now, rule));
  switch (channel) {
    case 'object':
      return documentOutcomes(doc, channel, now, rule);
    case 'json':
      return content();
    case 'file':
      if (encoding === 'over-limit') return [reject('RETRIEVAL_FAILED', 'PRF-APP-1', 'PROFILE.md §1, §8.3: a file over 65 536 bytes')];
      return content();
    case 'inline':
      if (uriBytes !== undefined && uriBytes > 2048) return [reject('URI_INVALID', 'PRF-INLINE-1', 'PROFILE.md §8.1: an inline URI longer than 2 048 bytes')];
      return content();
    case 'qr':
    case 'deep-link':
      return expectRetrieval(command.serving ?? 'ok', command.endpoint, encoding, content);
  }
}

/** A token URI (PROFILE.md §8.1, §8.3): what the stand-in payee served decides before the document does. */
function expectRetrieval(serving: Serving, endpoint: Endpoint | undefined, encoding: Encoding, content: () => Expectation): Expectation {
  const failed = (why: string) => reject('RETRIEVAL_FAILED', 'PRF-APP-1', `PROFILE.md §8.3: ${why} is RETRIEVAL_FAILED`);
  if (endpoint?.plaintext) return [reject('URI_INVALID', 'TOK-TLS-2', 'spec §5.1 rule 4, PROFILE.md §8.3: an endpoint that is not https is URI_INVALID before any request')];
  if (typeof serving === 'object' && 'status' in serving) return [failed(`an error status (${serving.status})`)];
  if (typeof serving === 'object' && 'redirect' in serving) return [failed(`a redirect (${serving.redirect}), never followed,`)];
  if (serving === 'truncated') return [failed('a body cut off'), reject('CPR_INVALID', 'PRF-APP-1', 'a body cut off is no JSON')];
  if (encoding === 'over-limit') return [failed('a body over 65 536 bytes')];
  // No JSON at all (HTML, nothing) is a retrieval that failed (PROFILE.md §8.3); JSON that is not I-JSON
  // (a byte order mark, a member twice) may be taken for one, or read as a CPR that is invalid.
  const noJson = encoding === 'not-json' || encoding === 'empty';
  const read: Expectation = noJson ? [failed('a body that is no JSON at all')] : notJson(encoding) ? [failed('a body that is not I-JSON'), invalidText(encoding)] : content();
  // Neither a slow body nor a JSON body under another media type is a rule of the profile: reading it and refusing it are both right.
  if (serving === 'slow' || (typeof serving === 'object' && 'otherType' in serving)) return read.some((o) => o.code === 'RETRIEVAL_FAILED') ? read : [...read, failed(serving === 'slow' ? 'a body the application would not wait for' : 'a body not served as application/json')];
  return read;
}

/** What the Payment derived from a valid CPR must be (PROFILE.md §9, spec §4.5). */
export interface PaymentExpectation {
  readonly payer: unknown;
  readonly authorization: unknown;
  readonly rail: unknown;
  readonly request_id: string;
  readonly payee: unknown;
  readonly amount: string;
  readonly asset: unknown;
  readonly reference: string;
  readonly conditions: Readonly<Record<string, string>>;
}

/** A derivation at `now` (spec §4.5, §4.6; PROFILE.md §9): the CPR's own rules, then the rail, then the amount. */
export function expectDerive(doc: Cpr, subInterface: SubInterface | undefined, context: DeriveContext, now: number): { readonly expected: Expectation; readonly payment?: PaymentExpectation } {
  const first = documentOutcomes(doc, 'derive', now);
  if (first[0].kind === 'reject' || subInterface === undefined) return { expected: first };
  const refusals: Outcome[] = [];
  const hint = doc.rail_hint;
  if (context.supported_rails !== undefined && isRailHint(hint) && hint !== 'OPEN' && !context.supported_rails.includes(hint)) {
    refusals.push(reject('RAIL_UNSUPPORTED', 'DRV-RAIL-1', `spec §4.6.1: the hinted rail ${hint} is not among those the application serves; it must not ignore the request in silence`));
  }
  const requested = doc.value.amount;
  const offered = context.payer_amount;
  if (requested !== undefined && offered !== undefined && offered !== requested) refusals.push(reject('PARTIAL_PAYMENT_UNSUPPORTED', 'DRV-PARTIAL-1', 'spec §4.6.3: the full amount or a rejection'));
  if (requested === undefined && offered === undefined) refusals.push(reject('AMOUNT_REQUIRED', 'DRV-OPEN-1', 'spec §4.6.4: an open amount and the payer gave none'));
  if (refusals.length > 0) return { expected: refusals as unknown as Expectation };
  const conditions: Record<string, string> = subInterface === 'ON_CHAIN' ? { acquirer_id: ZERO_ACQUIRER_ID } : {};
  for (const field of otherFields(subInterface)) {
    const value = (doc as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string') conditions[field] = value;
  }
  conditions.expires_at = doc.expires_at;
  return {
    expected: [accept('derive', 'spec §4.5: a valid, unexpired CPR is derived into a Payment')],
    payment: {
      payer: context.payer,
      authorization: context.authorization,
      rail: context.rail,
      request_id: doc.request_id,
      payee: doc.payee,
      amount: requested ?? offered!,
      asset: doc.value.asset,
      reference: doc.memo ?? doc.request_id,
      conditions,
    },
  };
}
