// The arbitraries that choose the paying-application fuzzer's commands
// (spec.ts): documents from the CPR generators (valid ones, and ones broken in
// exactly one rule), written in every encoding PROFILE.md §1 speaks of,
// delivered through every channel of spec §4.4, and for token URIs answered by
// the retrieval stub in every odd way a payee can answer; and derivations of
// valid documents at instants around their expires_at, with and without the
// payer's amount and the rails the application serves.
import fc from 'fast-check';
import { matching } from '../../../generators/parts/deferred.ts';
import { RAIL_HINTS, type Cpr } from '../../../profile/cpr/index.ts';
import { brokenCpr, IPV6_LOOPBACK, validCpr } from '../../../generators/index.ts';
import { codePointText } from '../../../generators/parts/text.ts';
import { boundaryOffset, jsonTextChoices } from '../../../generators/classes/index.ts';
import { drawnCpr, type Draw } from './documents.ts';
import { asData } from '../literal.ts';
import { FAR_AHEAD } from './execute.ts';
import type { AppCommand, AppCommandKind, Channel, DeriveContext, Document, Encoding, Endpoint, Serving } from './spec.ts';
import { retrievalAnswer } from '../../../generators/classes/retrieval-answer.ts';
import { isIpv6, type StubHost } from '../../stub/hosts.ts';

const weighted = <T>(...entries: [fc.Arbitrary<T>, number][]) => fc.oneof(...entries.map(([arbitrary, weight]) => ({ arbitrary, weight })));

/** Documents generated years ahead of any clock: only `dating: 'expired'` makes them expired. */
const valid = validCpr({ now: FAR_AHEAD });
const drawnDocuments = drawnCpr({ now: FAR_AHEAD });
const drawn = drawnDocuments.map((d): Document => d);

/**
 * Where documents come from: `field-classes` draws most of them field by field
 * from the field classes (documents.ts) and the rest from the fixed shapes of
 * validCpr and brokenCpr (whose rules the classes do not reach: a member
 * missing, of another type, in the wrong place); `examples` draws only those
 * fixed shapes, as the fuzzer did before, kept as the baseline the gain of the
 * classes is measured against.
 */
export type DocumentSource = 'field-classes' | 'examples';
export const DOCUMENT_SOURCES: readonly DocumentSource[] = ['field-classes', 'examples'];

const examples = (weight: number): [fc.Arbitrary<Document>, number][] => [
  [valid.map((cpr) => ({ valid: cpr as unknown })), 3 * weight],
  [brokenCpr({ now: FAR_AHEAD }).map((b) => ({ broken: b.cpr, rule: b.rule })), 2 * weight],
];
const DOCUMENTS: Readonly<Record<DocumentSource, fc.Arbitrary<Document>>> = {
  'field-classes': weighted<Document>([drawn, 6], ...examples(1)),
  examples: weighted<Document>(...examples(1)),
};

/** A duplicate member or escaped names written anywhere in the document (generators/classes/json-text.ts). */
const jsonText: fc.Arbitrary<Encoding> = fc
  .constantFrom('json.duplicate' as const, 'json.escaped-name' as const)
  .chain((cls) => jsonTextChoices(cls))
  .map((choices) => ({ json: choices as Extract<Encoding, { json: unknown }>['json'] }));

/** What each channel can carry: an in-memory value has no encoding; sizes at the 65 536-byte bound belong to files and retrievals. */
const ENCODINGS: Readonly<Record<Channel, readonly Encoding[]>> = {
  object: ['plain'],
  json: ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json'],
  inline: ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json'],
  file: ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json', 'at-limit', 'over-limit', 'empty'],
  qr: ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json', 'at-limit', 'over-limit', 'empty'],
  'deep-link': ['plain', 'bom', 'duplicate-member', 'escaped-names', 'not-json', 'at-limit', 'over-limit', 'empty'],
};

function encoding(channel: Channel, source: DocumentSource): fc.Arbitrary<Encoding> {
  const others = ENCODINGS[channel].filter((e) => e !== 'plain');
  if (others.length === 0) return fc.constant('plain');
  return weighted<Encoding>([fc.constant('plain'), 4], [fc.constantFrom(...others), 2], ...(source === 'field-classes' ? ([[jsonText, 1]] as [fc.Arbitrary<Encoding>, number][]) : []));
}

const serving: fc.Arbitrary<Serving> = retrievalAnswer();

/**
 * The stub's host as a token URI names it: by name or IPv4 address, or (one
 * time in three) by ::1 in one of its spellings. Where the stub has no ::1
 * listener those draws name it 127.0.0.1: one seed draws the same commands on
 * every machine but for that host.
 */
export const stubHost = (ipv6: boolean): fc.Arbitrary<StubHost> =>
  weighted<StubHost>([fc.constantFrom<StubHost>('127.0.0.1', 'localhost'), 2], [fc.constantFrom<StubHost>(...IPV6_LOOPBACK), 1]).map((host) => (ipv6 || !isIpv6(host) ? host : '127.0.0.1'));

/** Base URLs a payee may have (PROFILE.md §8.1): its host (stubHost), and no path, plain segments, percent-encodings, sub-delimiters. */
const endpoint = (ipv6: boolean): fc.Arbitrary<Endpoint> => fc
  .record({
    host: stubHost(ipv6),
    basePath: fc.constantFrom('', '/shop', '/shops/acme%20gmbh', '/pay/acme(eu)', '/a/b/c', '/%7Euser/pay', '/caf%C3%A9'),
    extraQuery: weighted<string | undefined>([fc.constant(undefined), 4], [fc.constantFrom('lang=pt-BR', 'v=2&x=%26'), 1]),
    plaintext: weighted<true | undefined>([fc.constant(undefined), 12], [fc.constant(true as const), 1]),
  })
  .map(({ extraQuery, plaintext, ...e }) => ({ ...e, ...(extraQuery !== undefined ? { extraQuery } : {}), ...(plaintext ? { plaintext } : {}) }));

const read = (source: DocumentSource, ipv6: boolean): fc.Arbitrary<AppCommand> => fc.constantFrom<Channel>('json', 'object', 'file', 'inline', 'qr', 'deep-link').chain((channel) =>
  fc
    .record({
      doc: DOCUMENTS[source],
      dating: weighted([fc.constant('as-generated' as const), 5], [fc.constant('expired' as const), 1]),
      encoding: encoding(channel, source),
      serving,
      endpoint: endpoint(ipv6),
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
      authorization: fc.record({ token: matching(/^[0-9a-f]{16}$/) }),
      payer_amount: weighted<string | undefined>([fc.constant(requested), 3], [fc.constant(undefined), 2], [amountText, 1]),
      supported_rails: weighted<string[] | undefined>([fc.constant(undefined), 3], [fc.subarray([...RAIL_HINTS]), 1]),
    })
    .map(({ payer_amount, supported_rails, ...c }) => ({ ...c, ...(payer_amount !== undefined ? { payer_amount } : {}), ...(supported_rails !== undefined ? { supported_rails } : {}) }));
}

/**
 * The instant of a derivation, from the document's expires_at (DerivationContext.now
 * is the run's clock): a minute before, or at and within a second either
 * side of it (boundaryOffset, sub-second included).
 */
const nowFromExpiry = (source: DocumentSource): fc.Arbitrary<number> =>
  source === 'examples' ? fc.constantFrom(-60_000, -1000, -1, 0, 1, 1000) : weighted([fc.constant(-60_000), 1], [boundaryOffset({ tick: 'ms' }).map((o) => o.value), 4]);

/** A derivation from a valid CPR, or (field classes) from a drawn document, valid or not. */
const derive = (source: DocumentSource): fc.Arbitrary<AppCommand> => {
  const plain = valid.map((cpr) => ({ doc: cpr as unknown }));
  const documents = source === 'examples' ? plain : weighted<{ doc: unknown; draws?: readonly Draw[] }>([plain, 1], [drawnDocuments.map((d) => ({ doc: d.drawn, draws: d.draws })), 2]);
  return documents.chain((d) => fc.record({ context: context(d.doc as Cpr), nowFromExpiryMs: nowFromExpiry(source) }).map((c) => ({ kind: 'derive' as const, ...d, ...c })));
};

/** One arbitrary per command kind, with its weight; `ipv6`: the stub listens on ::1 (RetrievalStub.ipv6), so token URIs may name it there. */
export function appCommandArbitraries(source: DocumentSource = 'field-classes', ipv6 = false): Readonly<Record<AppCommandKind, [fc.Arbitrary<AppCommand>, number]>> {
  return { read: [read(source, ipv6), 3], derive: [derive(source), 1] };
}

/** A model run's commands: each stands alone, so a run is a handful of them. */
export function appCommands(maxCommands = 8, source: DocumentSource = 'field-classes', ipv6 = false): fc.Arbitrary<AppCommand[]> {
  return fc.array(weighted(...Object.values(appCommandArbitraries(source, ipv6))).map(asData), { minLength: 1, maxLength: maxCommands, size: 'max' });
}
