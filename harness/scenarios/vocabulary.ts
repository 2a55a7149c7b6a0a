// The scenario language's vocabulary: every action a step can `do` and every
// named check an `expect` can use, with the JSON Schema of its parameters.
// suites/scenario.schema.json is generated from this table (schema.ts) and a
// test keeps the committed file in step with it.
import { IDENTITY_LEVELS, type Capability } from '../../profile/control.ts';
import { SIGNATURE_LAYOUTS } from '../../profile/http-signature.ts';
import { TORSION_R_KINDS } from '../crypto/ed25519-forge.ts';
import { MESSAGE_KINDS } from '../../profile/cashpack/schemas.ts';
import { isProblemCode } from '../../profile/problems.ts';
import type { Role } from '../../profile/registry.ts';
import { cprRulesOf } from '../cpr-charges.ts';
import { STUB_HOSTS } from '../stub/hosts.ts';

type Schema = Readonly<Record<string, unknown>>;

/** What `app-read` gives the paying application. */
export const APP_INPUT_KINDS = ['json', 'object', 'file', 'uri'] as const;
type AppInputKind = (typeof APP_INPUT_KINDS)[number];

const T: Schema = { $ref: '#/$defs/template' };
/** A key name, or a template giving one (`k${i}` inside a repeat). */
const KEY: Schema = { $ref: '#/$defs/keyName' };
const ANY: Schema = {};
const ROLE: Schema = { $ref: '#/$defs/role' };
const MESSAGE_TYPE: Schema = { $ref: '#/$defs/messageType' };
/** The layout of an HTTP Message Signature: the profile's, or a named departure that is still valid RFC 9421 (profile/http-signature.ts). */
const SIGNATURE_LAYOUT: Schema = { enum: [...SIGNATURE_LAYOUTS] };
const CODE: Schema = { $ref: '#/$defs/code' };
/** The profile's JSON Schemas a `schema` check can name (a typo is refused when the file loads). */
const SCHEMA_NAMES = ['cpr', 'payment', ...MESSAGE_KINDS] as const;
const SCHEMA_NAME: Schema = { enum: [...SCHEMA_NAMES] };
const INT_OR_T = (min?: number, max?: number): Schema => ({ oneOf: [{ type: 'integer', ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) }, T] });
const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

export interface ActionSpec {
  /** What the step does (Markdown): its row of the table in suites/README.md (tables.ts). */
  readonly summary: string;
  readonly params: Readonly<Record<string, Schema>>;
  readonly required: readonly string[];
  /** A test-control capability the action needs; a scenario using it declares it in `needs`. */
  readonly capability?: Capability;
  /** Alternative sets of required parameters, one of which must be present. */
  readonly requireOneOf?: readonly (readonly string[])[];
  /** State every test against the target shares, which the action moves: a scenario using it runs alone (runner/shared-state.ts). */
  readonly shares?: SharedState;
  /**
   * What a setup step (`setup: true`) proves when it has no requirement of its
   * own named: the requirement of the operation it performs. Its failure ends
   * the test as HARNESS_SETUP_FAILED under this requirement, not under those
   * being tested. An action without one needs `setup: REQUIREMENT-ID`.
   */
  readonly setupRequirement?: string;
}

/**
 * State that every test against one target shares (PROFILE.md §12): `clock`,
 * the implementation's one clock (and the lease that guards it), moved through
 * test control; `credentials`, the parties the target file hands every test,
 * whose balances each test that uses them moves. Everything else a test
 * touches is its own: the parties, requests and packs it provisions.
 */
export type SharedState = 'clock' | 'credentials';

const HTTP_PARAMS = {
  role: ROLE,
  method: { enum: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
  path: T,
  headers: { type: 'object', additionalProperties: T },
  json: ANY,
  body: T,
  body_base64: T,
  content_type: T,
  sign_as: KEY,
  signed_at: INT_OR_T(),
  signature: SIGNATURE_LAYOUT,
  transport: { enum: ['default', 'plaintext'] },
};
const EXPIRY = { requested_expiry: T, expiry_in: INT_OR_T() };
/** The step deliberately goes past the Operator's max_amount or max_chain_depth; without it such a step makes the scenario not applicable. */
const BEYOND_LIMIT = { beyond_limit: { const: true } };
const LOCK = { principal: KEY, bearer: KEY, amount: T, asset: ANY, ...EXPIRY, created_at: T, request_id: T, ...BEYOND_LIMIT };
const RENEWAL = { pack: T, bearer: KEY, new_bearer: KEY, prev_chain_digest: T, renewal_id: T, created_at: T, ...BEYOND_LIMIT };
const REDEMPTION = { pack: T, bearer: KEY, redeemer: KEY, redemption_id: T, created_at: T };
/** The issue, renew and redeem steps a parallel step can release together (`of`, `steps`). */
const CASHPACK_STEPS: readonly Schema[] = [
  { type: 'object', properties: { do: { const: 'issue' }, ...LOCK }, required: ['do', 'principal', 'bearer', 'amount'], additionalProperties: false },
  { type: 'object', properties: { do: { const: 'renew' }, ...RENEWAL }, required: ['do', 'pack', 'bearer', 'new_bearer'], additionalProperties: false },
  { type: 'object', properties: { do: { const: 'redeem' }, ...REDEMPTION, identify_as: { oneOf: [KEY, { const: false }] } }, required: ['do', 'pack', 'bearer', 'redeemer'], additionalProperties: false },
];

export const ACTIONS = {
  http: { summary: "one HTTP request: `method`, `path`, optional `role`, `headers`, `json`, `body` or `body_base64` (bytes a string cannot hold), `content_type`, `sign_as` (RFC 9421 by a named key, `signed_at` to set its `created`, `signature` for a layout other than the profile's), `transport: plaintext`", params: HTTP_PARAMS, required: ['method', 'path'] },
  parallel: {
    summary: "`copies` of one request released together, or with `of: { do: issue | renew | redeem, ... }` N separately built messages (fresh ids, own signatures) released together, or with `steps: [...]` different operator requests (`issue`, `renew`, `redeem`, `status`, `cancel`, each with its step's parameters) released together; the result has `responses`, `statuses` and `sent` (per request; none for a status read or a cancellation); each renewal answered 200 must name its new bearer (CPP-RNW-1, as `renew`)",
    params: {
      ...HTTP_PARAMS,
      copies: { type: 'integer', minimum: 2, maximum: 100 },
      of: { oneOf: [...CASHPACK_STEPS] },
      steps: {
        type: 'array',
        minItems: 2,
        maxItems: 100,
        items: {
          oneOf: [
            ...CASHPACK_STEPS,
            { type: 'object', properties: { do: { const: 'status' }, pack_id: T, sign_as: { oneOf: [KEY, { const: false }] }, signed_at: INT_OR_T() }, required: ['do', 'pack_id', 'sign_as'], additionalProperties: false },
            { type: 'object', properties: { do: { const: 'cancel' }, pack_id: T }, required: ['do', 'pack_id'], additionalProperties: false },
          ],
        },
      },
    },
    required: [],
    requireOneOf: [['copies', 'of'], ['copies', 'method', 'path'], ['steps']],
  },
  let: { summary: '`values`: name values computed from templates', params: { values: { type: 'object', propertyNames: { $ref: '#/$defs/name' } } }, required: ['values'] },
  repeat: {
    summary: "run `steps` `times` times (0 allowed, at most 10 000; the target's values may set it: `${p.policy.max_chain_depth}`); inside, `${i}` is the 0-based iteration, key names may be templates (`\"k${i + 1}\"`), and a name captured in one iteration is seen by the next and after the loop",
    params: { times: INT_OR_T(0), steps: { type: 'array', minItems: 1, items: { $ref: '#/$defs/step' } } },
    required: ['times', 'steps'],
  },
  tamper: {
    summary: 'a modified copy of `value`: `set` / `delete` dotted paths, `flip_signature`, `resign: { type, key }` (with `torsion_r`, a signature whose R is a point of small order, canonical or not, that only a verifier laxer than PROFILE.md §2.3 accepts)',
    params: { value: T, set: { type: 'object' }, delete: { type: 'array', items: { type: 'string' } }, flip_signature: { type: 'boolean' }, resign: object({ type: MESSAGE_TYPE, key: KEY, torsion_r: { enum: [...TORSION_R_KINDS] } }, ['type', 'key']) },
    required: ['value'],
  },
  keygen: { summary: '`names`: Ed25519 key pairs; `${name}` is the public JWK', params: { names: { type: 'array', items: KEY, minItems: 1 } }, required: ['names'] },
  sign: { summary: 'sign `object` as a message `type` (PROFILE.md §2.2) with `key`', params: { type: MESSAGE_TYPE, key: KEY, object: ANY }, required: ['type', 'key', 'object'] },
  'create-request': { summary: 'the payee creates a request (PROFILE.md §12): `with: { sub_interface, amount?, memo?, rail_hint?, extensions? }`; the result has `request_id`, `cpr`, `token`, `token_expires_at`, `qr_uri`, `deep_link`, `inline_uri`, `qr_png`', params: { with: { type: 'object' } }, required: [], capability: 'provision' },
  'payee-config': { summary: "the payee's configured `token_lifetime_seconds`, `request_validity_seconds`, `base_url`", params: {}, required: [], capability: 'provision' },
  fulfil: { summary: 'mark `request_id` fulfilled at the payee; the result is the HTTP answer', params: { request_id: T }, required: ['request_id'], capability: 'fulfil', setupRequirement: 'PRF-CTL-1' },
  clock: { summary: "`freeze`, `set`, `advance` (seconds) the implementation's clock; the result is `{ now, frozen }` (`now` in epoch seconds), and a frozen clock is released after the scenario. The clock is every test's: a scenario with this step runs alone, with no other test in flight (`run --concurrency`)", params: { role: ROLE, freeze: { type: 'boolean' }, set: T, advance: INT_OR_T(0) }, required: [], capability: 'clock', shares: 'clock' },
  credential: {
    summary: "bind `key` to the target file's `of: principal | redeemer | staff` credential (for targets without test control; skipped when the file has none); those parties are every test's, so a scenario with this step runs alone",
    params: { key: KEY, of: { enum: ['principal', 'redeemer', 'staff'] } },
    required: ['key', 'of'],
    shares: 'credentials',
  },
  'provision-principal': { summary: 'a funded Principal `key` with a `balance` (and `asset`)', params: { key: KEY, balance: T, asset: ANY }, required: ['key', 'balance'], capability: 'provision' },
  'provision-redeemer': { summary: 'an identified redeemer `key` at an `identity_level`', params: { key: KEY, identity_level: INT_OR_T(IDENTITY_LEVELS.min, IDENTITY_LEVELS.max) }, required: ['key', 'identity_level'], capability: 'provision' },
  'provision-staff': { summary: 'an Operator staff `key` (reads any status)', params: { key: KEY }, required: ['key'], capability: 'provision' },
  cancel: { summary: 'cancel `pack_id` as the Operator; the result is the HTTP answer', params: { pack_id: T }, required: ['pack_id'], capability: 'cancel', setupRequirement: 'PRF-CTL-1' },
  balance: { summary: "a `principal`'s or `redeemer`'s balance", params: { principal: KEY, redeemer: KEY }, required: [], capability: 'balance' },
  policy: { summary: 'the Operator Policy Document and signing key: `${x.policy}`, `${x.key}`', params: {}, required: [] },
  'lock-request': { summary: 'build a signed Lock Request without sending it', params: LOCK, required: ['principal', 'bearer', 'amount'] },
  renewal: { summary: 'build a signed Renewal Entry without sending it', params: RENEWAL, required: ['pack', 'bearer', 'new_bearer'] },
  redemption: { summary: 'build a signed Redemption Request without sending it', params: REDEMPTION, required: ['pack', 'bearer', 'redeemer'] },
  issue: { summary: 'build a Lock Request and POST it to `/v1/cashpack/issue`; the result is the HTTP answer plus `sent` (the message)', params: LOCK, required: ['principal', 'bearer', 'amount'], setupRequirement: 'CPP-ISS-1' },
  renew: { summary: 'build a Renewal Entry and POST it with the `pack` to `/v1/cashpack/renew`; the result is the HTTP answer plus `sent` (the message). An answer 200 whose `current_bearer_pk` is not the new bearer fails CPP-RNW-1 and ends the scenario, whatever it tests: every later step as that bearer presumes the handover', params: RENEWAL, required: ['pack', 'bearer', 'new_bearer'], setupRequirement: 'CPP-RNW-1' },
  redeem: {
    summary: 'build a Redemption Request and POST it with the `pack` to `/v1/cashpack/redeem`, signed at the HTTP layer by the redeemer (`identify_as: false` omits it); the result is the HTTP answer plus `sent` (the message)',
    params: { ...REDEMPTION, identify_as: { oneOf: [KEY, { const: false }] }, signed_at: INT_OR_T(), signature: SIGNATURE_LAYOUT },
    required: ['pack', 'bearer', 'redeemer'],
    setupRequirement: 'CPP-RED-1',
  },
  status: { summary: "`GET /v1/cashpack/{pack_id}/status` signed by `sign_as` (or `false`), `signed_at` to set the signature's `created`", params: { pack_id: T, sign_as: { oneOf: [KEY, { const: false }] }, signed_at: INT_OR_T(), signature: SIGNATURE_LAYOUT }, required: ['pack_id', 'sign_as'], setupRequirement: 'CPP-STS-1' },
  'app-read': {
    summary: 'the paying application reads `input: { kind: json | object | file | uri, ... }`',
    params: {
      input: {
        oneOf: [
          object({ kind: { const: 'json' satisfies AppInputKind }, text: T }, ['kind', 'text']),
          object({ kind: { const: 'object' satisfies AppInputKind }, value: ANY }, ['kind', 'value']),
          object({ kind: { const: 'file' satisfies AppInputKind }, content: T }, ['kind', 'content']),
          object({ kind: { const: 'uri' satisfies AppInputKind }, uri: T }, ['kind', 'uri']),
        ],
      },
    },
    required: ['input'],
  },
  'app-derive': { summary: 'the paying application derives a Payment from `cpr` and a derivation `context`', params: { cpr: ANY, context: { type: 'object' } }, required: ['cpr', 'context'] },
  'stub-serve': {
    summary: "the harness's own retrieval stub (a stand-in payee on loopback, TLS with a CA the paying application is told to trust) serves `GET <base_path>/cpr/<token>` with this answer: `status`, `content_type`, `headers`, `body` / `body_base64` / `json`, and `chunked`, `chunk_delay_ms` (a slow body), `truncate` (cut off halfway), `redirect` (a 3xx to a path that would serve the same body), `redirect_to` (where it points: `same-host` by default, `other-host` the stub's other name, `plaintext` its plaintext listener, `itself` the retrieval URL, a loop, or `none`, no Location), `host` (how the endpoint names the stub: `127.0.0.1` by default, `localhost`, or ::1 in one of five spellings, `[::1]` to `[0000:…:0001]`, the step skipped where the machine has no IPv6 loopback), `plaintext` (an `http://` endpoint), `certificate` (served by an impostor whose certificate the application must refuse: `other-name`, from the CA it trusts but naming another host only, `untrusted-ca`, from a CA it was never told to trust, or `expired` and `not-yet-valid`, from the CA it trusts for its host but out of date by the machine's clock); the result has `id`, `token`, `endpoint`, `uri` and `url`. Skipped when the paying application was not told to trust the stub: `run` starts it when a selected scenario uses it (DLV-RESOLVE-003 to 005, TOK-TLS-004 and 006, fuzzer regressions of a paying application) or a selected property serves from it (PROP-APP-015), and the embedded reference's paying application always trusts one",
    params: {
      status: INT_OR_T(100, 599),
      content_type: T,
      headers: { type: 'object', additionalProperties: T },
      body: T,
      body_base64: T,
      json: ANY,
      chunked: { type: 'boolean' },
      chunk_delay_ms: { type: 'integer', minimum: 0, maximum: 250 },
      truncate: { type: 'boolean' },
      redirect: { type: 'integer', minimum: 300, maximum: 399 },
      redirect_to: { enum: ['same-host', 'other-host', 'plaintext', 'itself', 'none'] },
      base_path: T,
      host: { enum: [...STUB_HOSTS] },
      plaintext: { type: 'boolean' },
      certificate: { enum: ['other-name', 'untrusted-ca', 'expired', 'not-yet-valid'] },
    },
    required: [],
    requireOneOf: [['body'], ['body_base64'], ['json']],
  },
  'stub-log': {
    summary: 'what the stub was asked for exhibit `served` (a `stub-serve` id): `requests` (`method`, `path`, `secure`, `where`: `retrieval`, `redirect-target` or `elsewhere`) and the counts `retrievals`, `redirected`, `elsewhere`, `plaintext`',
    params: { served: T },
    required: ['served'],
  },
} as const satisfies Readonly<Record<string, ActionSpec>>;

export type ActionName = keyof typeof ACTIONS;

/** The requirement a setup step of this action proves when it names none (ActionSpec.setupRequirement). */
export function setupRequirementOf(name: ActionName): string | undefined {
  return (ACTIONS[name] as ActionSpec).setupRequirement;
}

/** The profile rules some checks judge beside their own requirement (CheckSpec.charges). */
export const PROBLEM_STATUS_RULE = 'PRF-ERR-1';
export const ENDPOINT_ENCODING_RULE = 'PRF-URI-1';
export const REJECTION_FORM_RULE = 'PRF-APP-1';

export interface CheckSpec {
  /** When the check passes (Markdown): its row of the table in suites/README.md (tables.ts). */
  readonly summary: string;
  readonly arg: Schema;
  /**
   * The check judges a step's outcome (did the operation succeed, was it
   * refused, with which code). When one fails, the target's state is no longer
   * the one later steps assume, so the scenario stops there, and the step's
   * other checks are not judged. Any other failed check (a value, a signature,
   * a header, a profile status beside the right spec outcome) is recorded and
   * the scenario goes on.
   *
   * `'body'`: the check judges the form of the answer the outcome checks
   * accepted (its media type), so it is judged after them, and only when they
   * passed; when it fails, the checks that read the body are not judged, as
   * the body is not the document they read, and the scenario stops there.
   */
  readonly gates?: true | 'body';
  /**
   * Which requirements the check can charge beside its own, for its argument
   * in a scenario of this role: read by what a scenario can judge
   * (scenarioRequirements), so a targeted run and the coverage catalogue know
   * every requirement a test can fail. An extra a check records outside this
   * list is a harness fault.
   */
  readonly charges?: (arg: unknown, role: Role) => readonly string[];
  /**
   * What it charges beside its own requirement is the form of the answer (a
   * refusal's media type and status, a rejection's code and message, an
   * endpoint's encoding), never what the answer is. In a setup step such a
   * failure is its rule's and the setup still holds; the extras of any other
   * check (the rules a served CPR breaks) are the setup's own substance.
   */
  readonly formExtras?: true;
}

export const CHECKS = {
  status: { gates: true, summary: 'the HTTP status is the code, the class (`4xx`) or one of a list', arg: { oneOf: [{ type: 'integer', minimum: 100, maximum: 599 }, { enum: ['1xx', '2xx', '3xx', '4xx', '5xx'] }, { type: 'array', items: { type: 'integer' }, minItems: 1 }] } },
  not_status: { gates: true, summary: 'the HTTP status is not the code or class (no response at all counts as not)', arg: { oneOf: [{ type: 'integer' }, { enum: ['1xx', '2xx', '3xx', '4xx', '5xx'] }] } },
  problem: {
    gates: true,
    summary: 'an error carrying this `code`; an error answer is judged apart, as PRF-ERR-1, for its form: `application/problem+json` with the status PROFILE.md §11 gives the code it carries (nothing of PRF-ERR-1 is judged of an answer that is no error)',
    arg: CODE,
    // A literal that is no protocol code has no status of its own; a template may be one.
    charges: (arg) => (typeof arg === 'string' && !arg.includes('${') && !isProblemCode(arg) ? [] : [PROBLEM_STATUS_RULE]),
    formExtras: true,
  },
  content_type: { gates: 'body', summary: 'the media type (parameters ignored); judged after the outcome checks, and a body in another is not the document the later checks read', arg: { type: 'string' } },
  header: { summary: 'a response header `equals`, `matches` or is `absent`', arg: object({ name: { type: 'string' }, equals: T, matches: { type: 'string' }, absent: { const: true } }, ['name']) },
  schema: {
    summary: "the step's body validates against a profile schema (`cpr`, `payment`, `cash-pack`, `status`, `policy`, `pubkey`, `problem`, `redemption-confirmation`, ...); `{ of: NAME, value: X }` validates another value. An unknown name is refused when the file loads",
    arg: { oneOf: [SCHEMA_NAME, object({ of: SCHEMA_NAME, value: ANY }, ['of', 'value'])] },
  },
  cpr_valid: {
    summary:
      'a valid CPR (spec §2, PROFILE.md §7), optionally within `validity_seconds`; each violation is charged to the registry rule it breaks (a rule that does not bind the scenario\'s role, and the check\'s own requirements, to the check); with `rule: ID`, only that rule is judged (the others are left to their own checks)',
    arg: { oneOf: [{ const: true }, object({ validity_seconds: INT_OR_T(), rule: { $ref: '#/$defs/requirementId' } })] },
    charges: (arg, role) => (cprValidRule(arg) === undefined ? cprRulesOf(role) : []),
  },
  inline_decodes_to: {
    summary: "`{ uri, value }`: an inline URI (`std-cpr://inline/...`) decodes by the profile's strict rules (strict base64url, JSON) to exactly `value`",
    arg: object({ uri: T, value: ANY }, ['uri', 'value']),
  },
  delivery_uri: {
    summary: '`{ uri, token, base_url }`: a QR or deep-link URI is `std-cpr://<token>?endpoint=<base_url>` (spec §4.4) compared as a URI (RFC 3986 §6.2: letter case, percent-encoding, IPv6 forms, the default port; other query parameters ignored), never by a pattern for one shape of base URL; as PRF-URI-1, the base URL keeps PROFILE.md §8.1 and the endpoint is percent-encoded as `encodeURIComponent` does',
    arg: object({ uri: T, token: T, base_url: T }, ['uri', 'token', 'base_url']),
    charges: () => [ENDPOINT_ENCODING_RULE],
    formExtras: true,
  },
  no_payer_data: { summary: 'no `payer`, `authorization`, `settlement` or `payer_*` member anywhere (PROFILE.md §7.5)', arg: { const: true } },
  profile_id: {
    summary: "a templated value is this harness's profile identifier (PROFILE.md §13); for an earlier one the failure says which rules changed since, and when (PROFILE.md §14)",
    arg: T,
  },
  equals: { summary: '`{ value, to }`: two templated values are deeply equal', arg: object({ value: ANY, to: ANY }, ['value', 'to']) },
  not_equals: { summary: '`{ value, to }`: two templated values differ', arg: object({ value: ANY, to: ANY }, ['value', 'to']) },
  matches: { summary: '`{ value, pattern }`: a templated string matches a regular expression', arg: object({ value: T, pattern: { type: 'string' } }, ['value', 'pattern']) },
  at_most: { summary: '`{ value, max }`: a number is at most a bound', arg: object({ value: ANY, max: ANY }, ['value', 'max']) },
  one_of: { summary: '`{ value, in: [...] }`: the value is deeply equal to one of the list (the statuses of concurrent requests that some order of them gives, say)', arg: object({ value: ANY, in: { type: 'array', minItems: 1 } }, ['value', 'in']) },
  signature_valid: { summary: "a signed message verifies (strict rule) under the Operator's well-known key or a named `key`", arg: object({ value: ANY, type: MESSAGE_TYPE, key: KEY }, ['value', 'type']) },
  chain_digest: { summary: "the harness recomputes the pack's chain digest from `pack_id`, `initial_bearer_pk` and `renewal_chain` and gets the one in the pack", arg: T },
  exactly_one: { gates: true, summary: 'over a `parallel` result: exactly one response has this `status`', arg: object({ status: { type: 'integer' } }, ['status']) },
  all: {
    gates: true,
    summary: 'over a `parallel` result: every response has this `status`, class or one of a list and, with `problem`, one of these codes',
    arg: object({ status: { oneOf: [{ type: 'integer' }, { enum: ['2xx', '4xx'] }, { type: 'array', items: { type: 'integer' }, minItems: 1 }] }, problem: { type: 'array', items: CODE, minItems: 1 } }, ['status']),
  },
  assume: {
    summary: "a precondition on the target (its policy, say): when the values differ the scenario is never failed, and the check is not itself an observation. `basis` says why they can differ: `spec` (the target does not offer an optional feature the rule is about) and `policy` (the target's published policy makes the rule vacuous) make it **not applicable**, no gap in coverage; `harness` (the harness could not build the input the rule needs) makes it skipped: not exercised",
    arg: object({ value: ANY, to: ANY, basis: { enum: ['spec', 'policy', 'harness'] }, reason: { type: 'string' } }, ['value', 'to', 'basis', 'reason']),
  },
  balance: { summary: 'a balance read through test control has these amounts', arg: object({ principal: KEY, redeemer: KEY, available: T, locked: T, held: T }) },
  qr_decodes_to: {
    summary: 'a PNG decodes, with a real QR decoder, to exactly this string; `png`, test control\'s qr_png, is base64 as RFC 4648 §4 writes it (PRF-CTL-1)',
    arg: object({ png: T, uri: T }, ['png', 'uri']),
    charges: () => ['PRF-CTL-1'],
  },
  qr_format: {
    summary: 'a QR PNG uses byte mode only, error correction M and a quiet zone of at least 4 modules (PROFILE.md §8.1)',
    arg: object({ png: T }, ['png']),
  },
  not_derived: {
    summary: 'a secret (a retrieval token) is not derived from public values: not one of them, their digits, their hex, their SHA-256, SHA-1 or MD5 (or a prefix of one), and unlike each of `others` in at least a quarter of its bits',
    arg: object({ value: T, from: { type: 'array', items: ANY, minItems: 1 }, others: { type: 'array', items: ANY } }, ['value', 'from']),
  },
  accepted: { gates: true, summary: 'the paying application accepted (a CPR or a Payment, no rejection)', arg: { const: true } },
  rejected: {
    gates: true,
    summary: "the paying application rejected (did not process) the request without crashing; the profile's part of a rejection (PROFILE.md §8.3: a human-readable message, the `code`, and with `CPR_INVALID` the `violation`, a requirement ID, and with `path` the JSON Pointer that violation names) is checked apart under PRF-APP-1",
    arg: { oneOf: [CODE, object({ code: CODE, violation: { type: 'string' }, path: { type: 'string' } })] },
    charges: () => [REJECTION_FORM_RULE],
    formExtras: true,
  },
} as const satisfies Readonly<Record<string, CheckSpec>>;

export type CheckName = keyof typeof CHECKS;

/** Whether a failure of this check stops the scenario (CheckSpec.gates). */
export function gatesLaterChecks(name: CheckName): boolean {
  return (CHECKS[name] as CheckSpec).gates !== undefined;
}

/** Whether the check judges the form of the body the outcome checks accepted (CheckSpec.gates `'body'`): judged after them. */
export function judgesBodyForm(name: CheckName): boolean {
  return (CHECKS[name] as CheckSpec).gates === 'body';
}

/** The requirements a check can charge beside its own, for this argument in a scenario of this role (CheckSpec.charges). */
/** Whether a check's extras judge only the form of the answer (CheckSpec.formExtras). */
export function extrasAreForm(name: CheckName): boolean {
  return (CHECKS[name] as CheckSpec).formExtras === true;
}

export function extraRequirements(name: CheckName, arg: unknown, role: Role): readonly string[] {
  return (CHECKS[name] as CheckSpec).charges?.(arg, role) ?? [];
}

/** The one rule a `cpr_valid` judges (`{ rule: ID }`), or undefined when it judges the whole CPR. */
function cprValidRule(arg: unknown): string | undefined {
  const rule = typeof arg === 'object' && arg !== null ? (arg as { rule?: unknown }).rule : undefined;
  return typeof rule === 'string' ? rule : undefined;
}
