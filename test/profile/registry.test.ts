import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import {
  FAMILIES,
  LEVELS,
  ROLES,
  RegistryError,
  loadRegistry,
  validateRegistry,
  type RegistryIssue,
} from '../../profile/registry.ts';

// The IDs that issue 2 ("The requirement registry") requires, copied from its
// table: id, spec sections, level, roles, what it requires.
const ISSUE_TABLE: ReadonlyArray<readonly [string, string[], string, string[], string]> = [
  ["CPR-VER-1", ["§2.1", "§9"], "MUST", ["paying-app"], "cpr_version must equal CPR-1.0; any other value is not processed"],
  ["CPR-ID-1", ["§2.1", "§4.7.3", "§4.8"], "MUST", ["payee"], "request_id present; every request gets a globally unique request_id"],
  ["CPR-TIME-1", ["§2.1"], "MUST", ["payee"], "created_at and expires_at present, ISO 8601 UTC"],
  ["CPR-TIME-2", ["§4.8", "§8"], "MUST", ["payee"], "expires_at is bounded: after created_at and within the payee's configured window"],
  ["CPR-PAYEE-1", ["§2.2"], "MUST", ["payee"], "payee present with a rail_address holding the applicable sub-interface's address fields (and the profile's reading of the 'at least one optional field' rule)"],
  ["CPR-VAL-1", ["§2.3"], "MUST", ["payee"], "value.asset present; type is fiat|stablecoin|crypto|tokenized; code present; chain_id present when type is stablecoin or tokenized"],
  ["CPR-VAL-2", ["§2.3", "§4.6.4"], "MUST", ["payee"], "amount, when present, is the smallest unit as a decimal string; omitted means an open amount"],
  ["CPR-MEMO-1", ["§2.1", "§8"], "MUST", ["payee"], "memo at most 140 characters"],
  ["CPR-RAIL-1", ["§2.4", "§4.8"], "MUST", ["paying-app"], "rail_hint is one of the listed values when sent; an unrecognized rail_hint is handled gracefully, never an error"],
  ["CPR-EXT-1", ["§2.1", "§9"], "MUST", ["paying-app"], "unrecognized extensions keys are ignored; std: prefix for standards keys, reverse-domain for third-party (SHOULD)"],
  ["CPR-PAYER-1", ["§4.7.1", "§4.7.6", "§4.8"], "MUST", ["payee", "paying-app"], "a CPR carries no payer, authorization or settlement data, as served and as stored or sent on by a paying app"],
  ["SUB-CHAIN-1", ["§2.5"], "MUST", ["payee"], "ON_CHAIN requests carry rail_hint ON_CHAIN, chain_id and an EVM receiver_address; order_reference and acquirer_id are 16 bytes when present"],
  ["SUB-IBAN-1", ["§2.5"], "MUST", ["payee"], "IBAN requests carry a valid iban and beneficiary_name; bic well-formed when present; remittance_info at most 140 characters"],
  ["SUB-ACCT-1", ["§2.5"], "MUST", ["payee"], "account requests carry account_number and beneficiary_name; remittance_info at most 140 characters"],
  ["SUB-KEY-1", ["§2.5"], "MUST", ["payee"], "instant-key requests carry key_type (open list) and key_value"],
  ["DLV-QR-1", ["§4.4"], "MUST", ["payee"], "QR delivery is std-cpr://<token>?endpoint=<url> and the rendered QR decodes to exactly that URI"],
  ["DLV-INLINE-1", ["§4.4"], "MUST", ["payee", "paying-app"], "inline delivery is std-cpr://inline/<base64url JSON> decoding to a valid CPR"],
  ["DLV-DEEP-1", ["§4.4"], "MUST", ["payee"], "deep links use the QR URI format"],
  ["DLV-FILE-1", ["§4.4"], "MUST", ["paying-app"], "a file or direct JSON CPR is validated (cpr_version, request_id, expires_at) before processing"],
  ["DLV-SUPPORT-1", ["§4.4"], "SHOULD", ["payee"], "the payee supports at least QR and URL-token delivery"],
  ["TOK-GET-1", ["§4.1"], "MUST", ["payee"], "GET /cpr/<token> returns a CPR with content type application/json"],
  ["TOK-ONCE-1", ["§5.1"], "MUST", ["payee"], "a token is invalidated after the first successful retrieval; a repeated use returns an error"],
  ["TOK-RACE-1", ["§5.1"], "MUST", ["payee"], "concurrent retrievals with one token: exactly one succeeds"],
  ["TOK-EXP-1", ["§5.1", "§8"], "MUST", ["payee"], "a token expires within the configured window (at most 15 minutes recommended); retrieval after expiry errors"],
  ["TOK-TLS-1", ["§5.1", "§4.8"], "MUST", ["payee"], "tokens and CPR payloads travel only over TLS"],
  ["DRV-VALID-1", ["§4.5.1", "§7.2"], "MUST", ["paying-app"], "a CPR is parsed and validated before derivation; an invalid one is not processed"],
  ["DRV-EXP-1", ["§4.7.2", "§4.8"], "MUST", ["paying-app"], "a request whose expires_at is past is never fulfilled"],
  ["DRV-RAIL-1", ["§4.5.2", "§4.6.1", "§4.7.4"], "MUST", ["paying-app"], "rail_hint is advisory; an unsupported rail gets a human-readable message or an alternative, never silent ignoring"],
  ["DRV-PAYER-1", ["§4.5.3", "§2.6"], "MUST", ["paying-app"], "payer, rail and authorization come from the derivation context, never from the CPR"],
  ["DRV-VALUE-1", ["§4.7.5", "§4.6.2"], "MUST", ["paying-app"], "amount and asset are preserved unmodified in the Payment; any conversion is disclosed as extra context"],
  ["DRV-INTENT-1", ["§4.5.5"], "MUST", ["paying-app"], "intent.reference is memo if present, otherwise request_id; conditions come from the sub-interface"],
  ["DRV-SHAPE-1", ["§4.5.7", "§3.1"], "MUST", ["paying-app"], "a derived Payment has a new id, state CREATED, payee from the request, context from the rail, and request_id bound to its context"],
  ["DRV-PARTIAL-1", ["§4.6.3"], "MUST", ["paying-app"], "with amount set, the full amount is paid or the request rejected; no partial payment"],
  ["DRV-OPEN-1", ["§4.6.4"], "MUST", ["paying-app"], "with amount omitted, the payer's amount becomes the payment amount"],
  ["DRV-SINGLE-1", ["§3.1"], "SHOULD", ["payee"], "a request is marked consumed after fulfillment and a later fulfillment with the same request_id is rejected"],
  ["CPP-EP-1", ["§4.2"], "MUST", ["operator"], "POST /v1/cashpack/issue, /renew, /redeem and GET /v1/cashpack/{pack_id}/status exist"],
  ["CPP-WK-1", ["§4.3"], "MUST", ["operator"], "/.well-known/cashpack-policy.json serves the Operator Policy Document"],
  ["CPP-WK-2", ["§4.3", "§5.2"], "MUST", ["operator"], "/.well-known/cashpack-pubkey.json serves the current signing key as a JWK; issued packs verify under it"],
  ["CPP-ISS-1", ["§1.2", "§4.2"], "MUST", ["operator"], "a valid signed Lock Request yields a signed ACTIVE cash-pack naming the initial bearer key"],
  ["CPP-SIG-1", ["§5.2", "§7.1"], "MUST", ["operator"], "a failed signature verification (lock request, renewal, redemption, cash-pack) gives INVALID_SIGNATURE"],
  ["CPP-BRR-1", ["§5.2", "§7.1"], "MUST", ["operator"], "renewal or redemption by a key other than current_bearer_pk gives BEARER_MISMATCH, including the previous bearer after a renewal"],
  ["CPP-CHN-1", ["§1.2"], "MUST", ["operator"], "each renewal is appended to renewal_chain and chain_digest rolls per the profile, recomputable by anyone"],
  ["CPP-CHN-2", ["§7.1"], "MUST", ["operator"], "prev_chain_digest different from the current chain_digest gives CHAIN_DIGEST_MISMATCH"],
  ["CPP-DEPTH-1", ["§7.1", "§8"], "MUST", ["operator"], "a renewal beyond the configured maximum depth gives CHAIN_DEPTH_EXCEEDED"],
  ["CPP-RPL-1", ["§7.1"], "MUST", ["operator"], "a request_id or renewal_id seen before gives DUPLICATE_ID"],
  ["CPP-BAL-1", ["§7.1"], "MUST", ["operator"], "an amount above the Principal's available balance gives INSUFFICIENT_BALANCE"],
  ["CPP-LIM-1", ["§7.1", "§8"], "MUST", ["operator"], "an amount above the configured maximum gives AMOUNT_EXCEEDS_LIMIT"],
  ["CPP-EXP-1", ["§7.1", "§8"], "MUST", ["operator"], "a requested expiry outside the permitted range gives EXPIRY_INVALID"],
  ["CPP-EXP-2", ["§1.2", "§3.2"], "MUST", ["operator"], "at expiry an unredeemed pack becomes EXPIRED and its funds return to the Principal"],
  ["CPP-ACT-1", ["§3.2", "§7.1"], "MUST", ["operator"], "renew or redeem on a REDEEMED, EXPIRED or CANCELLED pack gives INSTRUMENT_NOT_ACTIVE; terminal states never change"],
  ["CPP-RED-1", ["§1.2", "§4.2"], "MUST", ["operator"], "redemption by the bearer yields a Redemption Confirmation, status REDEEMED and releases the funds"],
  ["CPP-IDN-1", ["§5.2", "§7.1"], "MUST", ["operator"], "an unverified redeemer gives REDEEMER_NOT_IDENTIFIED; renewal needs no identity"],
  ["CPP-RACE-1", ["§1.2", "§3.2"], "MUST", ["operator"], "concurrent renewals or redemptions of one pack: exactly one succeeds and funds move once"],
  ["CPP-STS-1", ["§4.2", "§5.2"], "MUST", ["operator"], "the status endpoint returns one of the four statuses, to the issuing Principal and the Operator only"],
  ["CPP-CAN-1", ["§1.2", "§3.2"], "MUST", ["operator"], "a cancelled pack is CANCELLED with funds held; renew and redeem are refused"],
  ["CPP-FND-1", ["§1.2"], "MUST", ["operator"], "issuing locks the amount from the Principal's balance"],
  ["CPP-ERR-1", ["§7.1"], "PROFILE", ["operator"], "errors use the profile's problem body with the spec's code; malformed input gets a 4xx, never a 5xx"],
];

const schema = JSON.parse(
  readFileSync(new URL('../../suites/requirements.schema.json', import.meta.url), 'utf8'),
) as { $defs: { requirement: { properties: Record<string, { enum?: unknown[]; items?: { enum?: unknown[] } }> } } };

const GOOD = {
  id: 'CPR-VER-1',
  sections: ['§2.1'],
  level: 'MUST',
  roles: ['paying-app'],
  summary: 'cpr_version must equal CPR-1.0',
  family: 'cpr-structure',
};

function issuesOf(data: unknown): readonly RegistryIssue[] {
  try {
    validateRegistry(data, 'test-registry');
  } catch (error) {
    expect(error).toBeInstanceOf(RegistryError);
    const registryError = error as RegistryError;
    expect(registryError.code).toBe('REGISTRY_INVALID');
    expect(registryError.message).toContain('test-registry');
    return registryError.issues;
  }
  throw new Error('expected validateRegistry to reject the data');
}

describe('requirement registry (suites/requirements.yaml)', () => {
  const registry = loadRegistry();
  const byId = new Map(registry.map((r) => [r.id, r]));

  it('validates against its schema and holds more than the issue table', () => {
    expect(registry.length).toBeGreaterThan(ISSUE_TABLE.length);
  });

  it.each(ISSUE_TABLE)('holds %s with the issue table\'s sections, level, roles and meaning', (id, sections, level, roles, summary) => {
    const entry = byId.get(id);
    expect(entry, `${id} missing`).toBeDefined();
    expect(entry?.level).toBe(level);
    expect(entry?.roles).toEqual(roles);
    expect(entry?.sections).toEqual(sections);
    expect(entry?.summary).toBe(summary);
    expect(entry?.retired).not.toBe(true);
  });

  it('has unique IDs', () => {
    expect(byId.size).toBe(registry.length);
  });

  it('gives every profile rule a PROFILE.md section, and every PRF- ID the PROFILE level or SHOULD (a profile recommendation)', () => {
    for (const entry of registry) {
      if (entry.level === 'PROFILE' || entry.id.startsWith('PRF-')) expect(entry.profile_sections?.length, entry.id).toBeGreaterThan(0);
      if (entry.id.startsWith('PRF-')) expect(['PROFILE', 'SHOULD'], entry.id).toContain(entry.level);
    }
  });

  it('keeps the TypeScript enums equal to the schema enums', () => {
    const props = schema.$defs.requirement.properties;
    expect(props['level']?.enum).toEqual([...LEVELS]);
    expect(props['roles']?.items?.enum).toEqual([...ROLES]);
    expect(props['family']?.enum).toEqual([...FAMILIES]);
  });

  it('loads once and returns frozen entries', () => {
    expect(loadRegistry()).toBe(registry);
    expect(Object.isFrozen(registry)).toBe(true);
    expect(Object.isFrozen(registry[0])).toBe(true);
    expect(Object.isFrozen(registry[0]?.roles)).toBe(true);
  });
});

describe('validateRegistry', () => {
  it('accepts a minimal valid registry', () => {
    expect(validateRegistry([GOOD])).toEqual([GOOD]);
  });

  it.each([
    ['a duplicate ID', [GOOD, { ...GOOD, summary: 'again' }], { entry: 'entry #1 (CPR-VER-1)', field: 'id', expected: /already used by entry #0/ }],
    ['a bad level', [GOOD, { ...GOOD, id: 'CPR-ID-1', level: 'MUSTNT' }], { entry: 'entry #1 (CPR-ID-1)', field: 'level', expected: /one of "MUST", "SHOULD", "MAY", "PROFILE", got "MUSTNT"/ }],
    ['a missing summary', [{ ...GOOD, summary: undefined }], { entry: 'entry #0 (CPR-VER-1)', field: 'summary', expected: /present/ }],
    ['a role outside the list', [{ ...GOOD, roles: ['payer'] }], { entry: 'entry #0 (CPR-VER-1)', field: 'roles/0', expected: /one of "payee", "paying-app", "operator"/ }],
    ['an ID that breaks the pattern', [{ ...GOOD, id: 'cpr-ver-1' }], { entry: 'entry #0 (cpr-ver-1)', field: 'id', expected: /matching/ }],
    ['an unknown member', [{ ...GOOD, level_: 'MUST' }], { entry: 'entry #0 (CPR-VER-1)', field: 'level_', expected: /no such member/ }],
    ['a PRF- ID at a spec level', [{ ...GOOD, id: 'PRF-X-1', profile_sections: ['§1'] }], { entry: 'entry #0 (PRF-X-1)', field: 'level', expected: /"PROFILE", "SHOULD", got "MUST"/ }],
    ['a PRF- ID without profile_sections', [{ ...GOOD, id: 'PRF-X-1', level: 'SHOULD' }], { entry: 'entry #0 (PRF-X-1)', field: 'profile_sections', expected: /present/ }],
    ['a PROFILE entry without profile_sections', [{ ...GOOD, level: 'PROFILE' }], { entry: 'entry #0 (CPR-VER-1)', field: 'profile_sections', expected: /present/ }],
    ['a spec entry without sections', [{ ...GOOD, sections: [] }], { entry: 'entry #0 (CPR-VER-1)', field: 'sections', expected: /at least 1/ }],
    ['a malformed section', [{ ...GOOD, sections: ['2.1'] }], { entry: 'entry #0 (CPR-VER-1)', field: 'sections/0', expected: /matching/ }],
  ])('rejects %s, naming the entry and the field', (_name, data, want) => {
    const issues = issuesOf(data);
    expect(issues).toContainEqual({ entry: want.entry, field: want.field, expected: expect.stringMatching(want.expected) });
  });

  it('rejects a document that is not a list', () => {
    expect(issuesOf({ id: 'CPR-VER-1' })).toContainEqual({ entry: '(registry)', field: '(entry)', expected: expect.stringMatching(/type array/) });
  });

  it('reports every problem at once', () => {
    const issues = issuesOf([{ ...GOOD, level: 'X', family: 'nope' }, { ...GOOD, summary: '' }]);
    expect(issues.map((i) => `${i.entry}:${i.field}`)).toEqual(
      expect.arrayContaining(['entry #0 (CPR-VER-1):level', 'entry #0 (CPR-VER-1):family', 'entry #1 (CPR-VER-1):summary', 'entry #1 (CPR-VER-1):id']),
    );
  });
});
