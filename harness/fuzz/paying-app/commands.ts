// The arbitraries that choose the paying-application fuzzer's commands
// (spec.ts): documents from the CPR generators (valid ones, and ones broken in
// exactly one rule), written in every encoding PROFILE.md §1 speaks of,
// delivered through every channel of spec §4.4, and for token URIs answered by
// the retrieval stub in every odd way a payee can answer; and derivations of
// valid documents at instants around their expires_at, with and without the
// payer's amount and the rails the application serves.
import fc from 'fast-check';
import { RAIL_HINTS, type Cpr } from '../../../profile/cpr/index.ts';
import { brokenCpr, validCpr } from '../../../generators/index.ts';
import { codePointText } from '../../../generators/parts/text.ts';
import { asData } from '../literal.ts';
import { FAR_AHEAD } from './execute.ts';
import type { AppCommand, AppCommandKind, Channel, DeriveContext, Document, Encoding, Endpoint, Serving } from './spec.ts';
import { retrievalAnswer } from '../../../generators/classes/retrieval-answer.ts';

const weighted = <T>(...entries: [fc.Arbitrary<T>, number][]) => fc.oneof(...entries.map(([arbitrary, weight]) => ({ arbitrary, weight })));

/** Documents generated years ahead of any clock: only `dating: 'expired'` makes them expired. */
const valid = validCpr({ now: FAR_AHEAD });
const document = weighted<Document>([valid.map((cpr) => ({ valid: cpr as unknown })), 3], [brokenCpr({ now: FAR_AHEAD }).map((b) => ({ broken: b.cpr, rule: b.rule })), 2]);

/** What each channel can carry: an in-memory value has no encoding; sizes at the 65 536-byte bound belong to files and retrievals. */
const ENCODINGS: Readonly<Record<Channel, readonly Encoding[]>> = {
  object: ['plain'],
  json: ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json'],
  inline: ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json'],
  file: ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json', 'at-limit', 'over-limit', 'empty'],
  qr: ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json', 'at-limit', 'over-limit', 'empty'],
  'deep-link': ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json', 'at-limit', 'over-limit', 'empty'],
};

function encoding(channel: Channel): fc.Arbitrary<Encoding> {
  const others = ENCODINGS[channel].filter((e) => e !== 'plain');
  return others.length === 0 ? fc.constant('plain') : weighted<Encoding>([fc.constant('plain'), 4], [fc.constantFrom(...others), 2]);
}

const serving: fc.Arbitrary<Serving> = retrievalAnswer();

/** Base paths a payee may have (PROFILE.md §8.1): none, plain segments, percent-encodings, sub-delimiters. */
const endpoint: fc.Arbitrary<Endpoint> = fc
  .record({
    host: fc.constantFrom('127.0.0.1' as const, 'localhost' as const),
    basePath: fc.constantFrom('', '/shop', '/shops/acme%20gmbh', '/pay/acme(eu)', '/a/b/c', '/%7Euser/pay', '/caf%C3%A9'),
    extraQuery: weighted<string | undefined>([fc.constant(undefined), 4], [fc.constantFrom('lang=pt-BR', 'v=2&x=%26'), 1]),
    plaintext: weighted<true | undefined>([fc.constant(undefined), 12], [fc.constant(true as const), 1]),
  })
  .map(({ extraQuery, plaintext, ...e }) => ({ ...e, ...(extraQuery !== undefined ? { extraQuery } : {}), ...(plaintext ? { plaintext } : {}) }));

const read: fc.Arbitrary<AppCommand> = fc.constantFrom<Channel>('json', 'object', 'file', 'inline', 'qr', 'deep-link').chain((channel) =>
  fc
    .record({
      doc: document,
      dating: weighted([fc.constant('as-generated' as const), 5], [fc.constant('expired' as const), 1]),
      encoding: encoding(channel),
      serving,
      endpoint,
    })
    .map(({ serving: s, endpoint: e, ...rest }) => ({ kind: 'read' as const, channel, ...rest, ...(channel === 'qr' || channel === 'deep-link' ? { serving: s, endpoint: e } : {}) })),
);

const amountText = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.bigInt({ min: 2n ** 53n - 2n, max: 10n ** 78n - 1n })).map(String);

function context(doc: Cpr): fc.Arbitrary<DeriveContext> {
  const requested = doc.value.amount;
  return fc
    .record({
      payer: fc.record({ id: fc.uuid(), name: codePointText(1, 40) }),
      rail: fc.constantFrom<unknown>('SEPA_INST', 'card', { network: 'visa', last4: '4242' }),
      authorization: fc.record({ token: fc.stringMatching(/^[0-9a-f]{16}$/) }),
      payer_amount: weighted<string | undefined>([fc.constant(requested), 3], [fc.constant(undefined), 2], [amountText, 1]),
      supported_rails: weighted<string[] | undefined>([fc.constant(undefined), 3], [fc.subarray([...RAIL_HINTS]), 1]),
    })
    .map(({ payer_amount, supported_rails, ...c }) => ({ ...c, ...(payer_amount !== undefined ? { payer_amount } : {}), ...(supported_rails !== undefined ? { supported_rails } : {}) }));
}

const derive: fc.Arbitrary<AppCommand> = valid.chain((doc) =>
  fc.record({ context: context(doc), nowFromExpiryMs: fc.constantFrom(-60_000, -1000, -1, 0, 1, 1000) }).map((c) => ({ kind: 'derive' as const, doc, ...c })),
);

/** One arbitrary per command kind, with its weight. */
export const APP_COMMAND_ARBITRARIES: Readonly<Record<AppCommandKind, [fc.Arbitrary<AppCommand>, number]>> = {
  read: [read, 3],
  derive: [derive, 1],
};

/** A model run's commands: each stands alone, so a run is a handful of them. */
export function appCommands(maxCommands = 8): fc.Arbitrary<AppCommand[]> {
  return fc.array(weighted(...Object.values(APP_COMMAND_ARBITRARIES)).map(asData), { minLength: 1, maxLength: maxCommands, size: 'max' });
}
