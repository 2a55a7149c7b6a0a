// cpr-documents.json: CPRs as JSON text. Valid ones of every sub-interface (seeded
// samples of generators/cpr.ts plus the reference payee's realistic accounts), and
// one invalid CPR per entry of CPR_MUTATIONS (generators/cpr-broken.ts), each
// breaking exactly one rule, labelled with its registry ID.
import { CPR_MUTATIONS, brokenCpr } from '../../../generators/cpr-broken.ts';
import { DEFAULT_NOW, validCpr, type AmountKind } from '../../../generators/cpr.ts';
import { CPR_VERSION, SUB_INTERFACES, SUB_INTERFACE_FIELDS, type SubInterface } from '../../../profile/cpr/index.ts';
import { formatTimestamp } from '../../../profile/time.ts';
import { RAIL_SAMPLES } from '../../../reference/payee/samples.ts';
import type { DraftCase, DraftFile, JsonObject } from '../model.ts';
import { draftCase, sampleOne, seedOf } from './draft.ts';
import { vectorUuid } from './messages.ts';

export const CPR_NOW = formatTimestamp(DEFAULT_NOW, 'cpr');

const SUB_REQUIREMENT: Record<SubInterface, string> = {
  ON_CHAIN: 'SUB-CHAIN-1',
  IBAN: 'SUB-IBAN-1',
  ACCOUNT: 'SUB-ACCT-1',
  INSTANT_KEY: 'SUB-KEY-1',
};

function validCase(key: string, comment: string, flags: string[], sub: SubInterface, doc: unknown): DraftCase {
  return draftCase(key, comment, flags, 'valid', ['CPR-VER-1', 'CPR-PAYEE-1', 'CPR-VAL-1', SUB_REQUIREMENT[sub], 'PRF-CPR-1'], {
    json: JSON.stringify(doc),
    expected: { sub_interface: sub },
  });
}

/** The reference payee's accounts as a CPR (as reference/payee/build-cpr.ts builds one), with fixed ids. */
function sampleCpr(sub: SubInterface, amount: string | undefined, memo: string | undefined): JsonObject {
  const s = RAIL_SAMPLES[sub];
  const reference = vectorUuid(`cpr sample ${sub}`).replaceAll('-', '');
  return JSON.parse(
    JSON.stringify({
      cpr_version: CPR_VERSION,
      request_id: vectorUuid(`cpr sample request ${sub}`),
      created_at: '2025-12-31T23:55:00Z',
      expires_at: '2026-01-01T00:10:00Z',
      payee: { display_name: s.displayName, rail_address: { ...s.address } },
      value: { ...(amount !== undefined ? { amount } : {}), asset: { ...s.asset } },
      ...(memo !== undefined ? { memo } : {}),
      rail_hint: SUB_INTERFACE_FIELDS[sub].defaultRailHint,
      ...s.address,
      ...s.other(reference, memo),
    }),
  ) as JsonObject;
}

function validCases(): DraftCase[] {
  const cases: DraftCase[] = [];
  for (const sub of SUB_INTERFACES) {
    cases.push(validCase(`valid:sample:${sub}`, `the reference payee's ${sub} account, fixed amount, mirrored address fields`, ['SpecSample'], sub, sampleCpr(sub, '12500', 'Invoice 2026-0001')));
    const amounts: [AmountKind, number][] = [['fixed', 1], ['fixed', 2], ['open', 1], ['any', 1]];
    for (const [amount, n] of amounts) {
      const cpr = sampleOne(validCpr({ subInterface: sub, amount }), `cpr-documents valid ${sub} ${amount} ${n}`);
      const flags = ['Generated', ...(cpr.value.amount === undefined ? ['OpenAmount'] : [])];
      cases.push(validCase(`valid:generated:${sub}:${amount}:${n}`, `a generated ${sub} CPR (${cpr.value.amount === undefined ? 'open amount' : 'fixed amount'})`, flags, sub, cpr));
    }
  }
  const iban = sampleCpr('IBAN', '500', undefined);
  cases.push(validCase('valid:unlisted-rail-hint', 'an unlisted rail_hint is not an error: a paying application reads it as OPEN (PROFILE.md §8.3)', ['UnlistedRailHint'], 'IBAN', { ...iban, rail_hint: 'CARRIER_PIGEON' }));
  cases.push(
    validCase('valid:request-id-not-v4', 'a request_id that is a canonical UUID but not version 4: a SHOULD (CPR-ID-2), never a rejection', ['ShouldOnly'], 'IBAN', {
      ...iban,
      request_id: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
    }),
  );
  cases.push(
    validCase('valid:extension-key-unprefixed', 'an extensions key that is neither std: nor reverse-domain: a SHOULD, and unrecognized keys are ignored (CPR-EXT-1)', ['ShouldOnly'], 'IBAN', {
      ...iban,
      extensions: { loyalty: { points: 10 }, 'std:invoice': 'INV-1' },
    }),
  );
  cases.push(validCase('valid:memo-140-astral', 'a memo of exactly 140 code points, all outside the BMP (280 UTF-16 units)', ['CodePointLength'], 'IBAN', { ...iban, memo: '\u{1F4B6}'.repeat(140) }));
  cases.push(validCase('valid:no-mirror', 'address fields only in payee.rail_address: the top-level copy is optional (PROFILE.md §7.4)', ['AuthoritativeRailAddress'], 'IBAN', (() => {
    const { iban: _i, bic: _b, ...rest } = iban;
    return rest;
  })()));
  return cases;
}

function invalidCases(): DraftCase[] {
  return CPR_MUTATIONS.map((m) => {
    const sub = m.subInterfaces[seedOf(m.name) % m.subInterfaces.length]!;
    const broken = sampleOne(brokenCpr({ mutations: [m.name], subInterface: sub }), `cpr-documents invalid ${m.name}`);
    const json = JSON.stringify(broken.cpr);
    return draftCase(
      `invalid:${m.name}`,
      `${broken.description} (${sub} request)`,
      [m.rule === 'CPR-VER-1' ? 'VersionUnsupported' : m.rule.startsWith('PRF-') ? 'ProfileRule' : 'SpecRule'],
      'invalid',
      [m.rule],
      {
        json,
        mutation: m.name,
        expected: { requirement: m.rule, code: m.rule === 'CPR-VER-1' ? 'CPR_VERSION_UNSUPPORTED' : 'CPR_INVALID' },
      },
    );
  });
}

export function buildCprDocuments(): DraftFile {
  return {
    kind: 'cpr-documents',
    header: [
      'Canonical Payment Requests (spec §2, PROFILE.md §7) as JSON text, for checking a CPR parser and validator.',
      'For each case: parse `json` yourself (it is I-JSON), then validate the value against every rule of spec §2 and PROFILE.md §7.',
      'valid: the CPR must be accepted, and the sub-interface it is read as must equal `expected.sub_interface`.',
      'invalid: the CPR breaks exactly one rule, `expected.requirement` (a registry ID of suites/requirements.yaml); a validator must reject it and should name that rule. A paying application answers with the rejection code `expected.code` (PROFILE.md §8.3).',
      'The group member `now` is the instant a paying application\'s clock should read when these CPRs are presented to it: every valid CPR is unexpired then.',
      '`mutation` names the entry of generators/cpr-broken.ts CPR_MUTATIONS that produced the case.',
    ],
    notes: {
      SpecSample: 'A realistic request: the reference payee\'s own account for that sub-interface, with top-level mirrors as in the spec\'s samples.',
      Generated: 'A seeded sample of generators/cpr.ts validCpr: arbitrary code points, optional fields present or absent.',
      OpenAmount: 'value.amount is absent: the payer chooses the amount (spec §4.6.4).',
      UnlistedRailHint: 'rail_hint is a string outside the listed values: advisory, read as OPEN, never an error (spec §4.8).',
      ShouldOnly: 'Breaks a SHOULD only: a validator may note it but must not reject.',
      CodePointLength: 'Lengths count Unicode code points, not UTF-16 units or bytes (PROFILE.md §1).',
      AuthoritativeRailAddress: 'payee.rail_address is authoritative; top-level copies of address fields are optional (PROFILE.md §7.4).',
      VersionUnsupported: 'cpr_version is missing or not CPR-1.0: the request is not processed further (spec §9).',
      SpecRule: 'Breaks a MUST of the specification.',
      ProfileRule: 'Breaks a rule of the profile (PROFILE.md); an implementation certified through an adapter with another wire format reports it separately.',
    },
    groups: [
      { members: { type: 'CprDocumentTest', comment: 'valid requests', now: CPR_NOW }, tests: validCases() },
      { members: { type: 'CprDocumentTest', comment: 'one broken rule each', now: CPR_NOW }, tests: invalidCases() },
    ],
  };
}
