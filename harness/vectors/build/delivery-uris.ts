// delivery-uris.json: QR, deep-link and inline URIs (spec §4.4, PROFILE.md §8.1),
// valid with the expected parse, and malformed with the expected rejection: one
// or more samples of every defect of generators/delivery.ts, plus hand-written
// cases for the rules a reader most often gets wrong.
import fc from 'fast-check';
import { DELIVERY_DEFECTS, deepLink, inlineUri, qrUri, type MalformedDelivery } from '../../../generators/delivery.ts';
import { buildInlineUri, buildQrUri } from '../../../profile/cpr/index.ts';
import type { DraftCase, DraftFile, JsonObject } from '../model.ts';
import { draftCase, sampleOne, seedOf } from './draft.ts';

const FORM_REQUIREMENT = { qr: 'DLV-QR-1', 'deep-link': 'DLV-DEEP-1', inline: 'DLV-INLINE-1' } as const;
type Form = keyof typeof FORM_REQUIREMENT;

function tokenCase(key: string, comment: string, flags: string[], form: Form, uri: string, token: string, endpoint: string): DraftCase {
  return draftCase(key, comment, flags, 'valid', [FORM_REQUIREMENT[form], 'PRF-URI-1'], {
    form,
    uri,
    expected: { kind: 'token', token, endpoint, retrieval_url: `${endpoint}/cpr/${token}` },
  });
}

function validCases(): DraftCase[] {
  const cases: DraftCase[] = [];
  for (let n = 1; n <= 6; n++) {
    const qr = sampleOne(qrUri(), `delivery qr ${n}`);
    cases.push(tokenCase(`valid:qr:${n}`, 'a QR URI as a payee renders it', ['Generated'], 'qr', qr.uri, qr.token, qr.endpoint));
    const deep = sampleOne(deepLink(), `delivery deep-link ${n}`);
    cases.push(tokenCase(`valid:deep-link:${n}`, 'a deep link: the QR form, other query parameters ignored', ['Generated', 'ExtraParameters'], 'deep-link', deep.uri, deep.token, deep.endpoint));
    const inline = sampleOne(inlineUri(), `delivery inline ${n}`);
    cases.push(
      draftCase(`valid:inline:${n}`, 'an inline URI of a valid CPR, at most 2 048 bytes', ['Generated'], 'valid', ['DLV-INLINE-1', 'PRF-INLINE-1'], {
        form: 'inline',
        uri: inline.uri,
        expected: { kind: 'inline', json: inline.json },
      }),
    );
  }
  const token = '0123456789abcdef0123456789abcdef';
  const hand: [string, string, string[], Form, string, string][] = [
    ['qr:port-and-path', 'an endpoint with a port and a path', [], 'qr', token, 'https://pay.example.com:8443/merchants/42'],
    ['qr:percent-encoded-path', 'an endpoint whose path needs percent-encoding (encodeURIComponent of the whole URL)', [], 'qr', token, 'https://pay.example/caf\u00e9/a&b=c'],
    ['qr:token-128', 'a 128-digit token, the longest allowed (PROFILE.md §10)', [], 'qr', 'f'.repeat(128), 'https://pay.example'],
    ['qr:ipv4', 'an IPv4 host', [], 'qr', token, 'https://192.0.2.10:8443'],
  ];
  for (const [k, comment, flags, form, t, endpoint] of hand) cases.push(tokenCase(`valid:${k}`, comment, ['HandWritten', ...flags], form, buildQrUri(t, endpoint), t, endpoint));
  cases.push(
    tokenCase(
      'valid:deep-link:endpoint-last',
      'endpoint after other parameters, and a parameter whose name merely starts with "endpoint"',
      ['HandWritten', 'ExtraParameters'],
      'deep-link',
      `std-cpr://${token}?utm_source=mail&endpointx=https%3A%2F%2Fevil.example&endpoint=https%3A%2F%2Fpay.example`,
      token,
      'https://pay.example',
    ),
  );
  const small = { cpr_version: 'CPR-1.0' };
  const json = JSON.stringify(small);
  cases.push(
    draftCase('valid:inline:not-a-cpr', 'a well-formed inline URI whose JSON is not a valid CPR: the URI parses; the CPR is then rejected by validation (DLV-INLINE-1)', ['HandWritten', 'ParseOnly'], 'valid', ['PRF-INLINE-1'], {
      form: 'inline',
      uri: buildInlineUri(small)!,
      expected: { kind: 'inline', json },
    }),
  );
  return cases;
}

/** The first `perDefect` distinct URIs of every defect, from one seeded stream. */
function malformedSamples(form: Form, perDefect: number): MalformedDelivery[] {
  const arb: fc.Arbitrary<MalformedDelivery> =
    form === 'qr' ? qrUri({ malformed: true }) : form === 'deep-link' ? deepLink({ malformed: true }) : inlineUri({ malformed: true });
  const wanted = DELIVERY_DEFECTS.filter((d) => d.startsWith(`${form}:`));
  const found = new Map<string, MalformedDelivery[]>(wanted.map((d) => [d, []]));
  const stream = fc.sample(arb, { seed: seedOf(`delivery malformed ${form}`), numRuns: form === 'inline' ? 600 : 400 });
  for (const m of stream) {
    const list = found.get(m.defect);
    if (list && list.length < perDefect && !list.some((x) => x.uri === m.uri)) list.push(m);
  }
  const missing = wanted.filter((d) => (found.get(d) ?? []).length === 0);
  if (missing.length > 0) throw new Error(`delivery-uris: no sample of ${missing.join(', ')}; raise numRuns`);
  return wanted.flatMap((d) => found.get(d)!);
}

function invalidCase(m: MalformedDelivery, n: number): DraftCase {
  const expected: JsonObject = { stage: m.expected.stage, code: m.expected.code, requirement: m.expected.requirement };
  const flags = m.expected.stage === 'json' ? ['NotIJson'] : ['UriRejected'];
  return draftCase(`invalid:${m.defect}:${n}`, m.description, flags, 'invalid', [...new Set([FORM_REQUIREMENT[m.form], m.expected.requirement])], {
    form: m.form,
    uri: m.uri,
    defect: m.defect,
    expected,
  });
}

function invalidCases(): DraftCase[] {
  const cases: DraftCase[] = [];
  for (const form of ['qr', 'deep-link', 'inline'] as const) {
    const counts = new Map<string, number>();
    for (const m of malformedSamples(form, 2)) {
      const n = (counts.get(m.defect) ?? 0) + 1;
      counts.set(m.defect, n);
      cases.push(invalidCase(m, n));
    }
  }
  return cases;
}

export function buildDeliveryUris(): DraftFile {
  return {
    kind: 'delivery-uris',
    header: [
      'Delivery URIs (spec §4.4, PROFILE.md §8.1): std-cpr://<token>?endpoint=<percent-encoded base URL> for QR codes and deep links, std-cpr://inline/<strict base64url of the CPR JSON> inline.',
      'valid: parse `uri`; a token URI must give exactly `expected.token` and `expected.endpoint` (decoded), and the CPR is then retrieved from `expected.retrieval_url`; an inline URI must give the UTF-8 text `expected.json` (compare the text, then parse it as I-JSON).',
      'invalid with `expected.stage` "uri": the URI itself must be rejected, before any network request, with the paying-application code `expected.code` (URI_INVALID). With stage "json": the URI parses, but its payload is not I-JSON, so the CPR is rejected with CPR_INVALID (PRF-JSON-1).',
      '`defect` names the defect of generators/delivery.ts that produced the case.',
    ],
    notes: {
      Generated: 'A seeded sample of generators/delivery.ts.',
      HandWritten: 'Written by hand for a rule readers often get wrong.',
      ExtraParameters: 'Query parameters other than endpoint are ignored (PROFILE.md §8.1).',
      ParseOnly: 'Only the URI layer is valid: the payload is checked as a CPR afterwards and fails there.',
      UriRejected: 'The URI is not one of the forms of PROFILE.md §8.1: URI_INVALID, and no request is made.',
      NotIJson: 'The inline payload decodes, but to text that is not I-JSON (PROFILE.md §1).',
    },
    groups: [
      { members: { type: 'DeliveryUriTest', comment: 'valid URIs' }, tests: validCases() },
      { members: { type: 'DeliveryUriTest', comment: 'malformed URIs' }, tests: invalidCases() },
    ],
  };
}
