// The mutant catalogue: the reference with one realistic fault switched
// on by name, to prove that the suite catches faulty implementations. Each entry
// says what is wrong and which requirements' checks should catch it; the fault
// itself is one small branch at its site in reference/, marked with the name.
//
// Names are stable: a selftest report, a CI log and `serve --mutant NAME` all
// refer to them. Never reuse a name for another fault.
//
// Two kinds, by who must catch the fault (`catcher`): the suite's mutants, which
// selftest requires the suite's scenarios and properties to kill, and the
// fuzzer's: faults nobody placed a check for, which only the fuzzer of their
// role must find (harness/fuzz/README.md "Faults nobody pointed to"). A fuzzer
// mutant is the reference with one part written again with the mistake, in
// reference/faults/ (switched on with `faults.hasAny(...)` at the part it replaces).
import type { Family, Role } from '../profile/registry.ts';
import type { ReferenceOptions } from './start.ts';

/** Who must catch a mutant: the suite (selftest kills it) or only the fuzzer of its role. */
export type Catcher = 'suite' | 'fuzzer';

export interface MutantSpec {
  /** kebab-case, stable; prefixed with its role (payee-, app-, op-) or ctl- for test control. */
  readonly name: string;
  readonly family: Family;
  readonly role: Role;
  /** What is wrong, one sentence. */
  readonly description: string;
  /** Registry IDs whose scenarios or properties should detect it (for a fuzzer mutant: the rules its findings are named by). */
  readonly catches: readonly string[];
  /**
   * 'suite' (the default): selftest requires the suite to kill it. 'fuzzer': a
   * fault the suite's scenarios are not required to kill, only the fuzzer of its
   * role (`cpr-conformance fuzz`); selftest counts it neither killed nor survived.
   */
  readonly catcher?: Catcher;
  /**
   * The legal configuration the reference runs this mutant under, where it is
   * not the reference's default: Operator policy members over the defaults, a
   * payee's token lifetime or request validity. For a fault that shows only
   * there (a limit read from the defaults, say). selftest starts the mutant so,
   * and `serve --mutant` too for each part its flags do not give.
   */
  readonly configuration?: MutantConfiguration;
}

/** What MutantSpec.configuration may set: the reference's options a deployment chooses. */
type MutantConfiguration = Pick<ReferenceOptions, 'policy' | 'tokenLifetimeSeconds' | 'requestValiditySeconds'>;

const CATALOGUE = [
  // ---------------------------------------------------------------- cpr-structure
  {
    name: 'payee-request-id-reused',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee draws one request_id at start-up and gives it to every request',
    catches: ['CPR-ID-1'],
  },
  {
    name: 'payee-expiry-unbounded',
    family: 'cpr-structure',
    role: 'payee',
    description: "the payee sets expires_at a year after created_at, far beyond its configured validity window",
    catches: ['CPR-TIME-2'],
  },
  {
    name: 'payee-payer-field-leaked',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee serves every CPR with a payer_reference member (payer data in a request)',
    catches: ['CPR-PAYER-1', 'PRF-PAYER-1'],
  },
  {
    name: 'op-route-prefix-match',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the Operator routes by prefix: a path with a segment after a resource (/v1/cashpack/issue/x) is answered as that resource',
    catches: ['PRF-HTTP-1'],
  },
  {
    name: 'op-route-trailing-slash-tolerated',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the Operator strips trailing slashes before it routes, as a router that is not strict does: POST /v1/cashpack/issue/ issues a pack and GET /.well-known/cashpack-policy.json/ serves the policy, where PROFILE.md §11 wants 404 for a path no resource has',
    catches: ['PRF-HTTP-1'],
  },
  {
    name: 'op-route-parameter-spans-segments',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the path parameter of the status route matches whatever lies between its fixed parts, slashes too: GET /v1/cashpack/x/y/status is answered as a status read (401 unsigned), where PROFILE.md §11 wants 404 for a path no resource has',
    catches: ['PRF-HTTP-1'],
  },
  {
    name: 'op-route-path-percent-decoded',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the Operator decodes the path before it routes it, so %2F becomes a separator: GET /v1/cashpack/{pack_id}%2Fstatus is answered as a status read, where a reserved character and its percent-encoding differ (PROFILE.md §8.1) and §11 wants 404 for a path no resource has',
    catches: ['PRF-HTTP-1'],
  },
  {
    name: 'op-405-without-allow',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the Operator answers a wrong method with 405 but no Allow header (RFC 9110 §15.5.6)',
    catches: ['PRF-HTTP-1'],
  },
  {
    name: 'app-violation-path-dotted',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app names where each rule broke in dot notation (value.amount), not as the JSON Pointer its rejection promises',
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-memo-141-accepted',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app checks the memo limit off by one and accepts a memo of 141 characters',
    catches: ['CPR-MEMO-1'],
  },
  {
    name: 'payee-domain-separator-short',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee serves an on-chain domain_separator one hex digit short: 63 digits, no 32-byte EIP-712 domain separator',
    catches: ['SUB-CHAIN-3'],
  },
  {
    name: 'payee-order-reference-upper-case',
    family: 'cpr-structure',
    role: 'payee',
    description: "the payee writes an on-chain order_reference as an upper-case UUID: the same 16 bytes, written otherwise than the profile's canonical lower-case form",
    catches: ['PRF-FIELD-1'],
  },
  {
    name: 'payee-purpose-code-five-letters',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee serves an IBAN request whose purpose_code has five letters (GOODS), no ISO 20022 purpose code',
    catches: ['SUB-IBAN-2'],
  },
  {
    name: 'payee-asset-code-lower-case',
    family: 'cpr-structure',
    role: 'payee',
    description: "the payee writes a fiat request's ISO 4217 asset code in lower case (eur), a code the spec knows written otherwise than the profile's ^[A-Z]{3}$",
    catches: ['PRF-ASSET-1'],
  },
  {
    name: 'payee-asset-code-numeric',
    family: 'cpr-structure',
    role: 'payee',
    description: "the payee writes a fiat request's asset code as the currency's ISO 4217 numeric code (978 for EUR), not the alphabetic code the spec asks for",
    catches: ['CPR-VAL-3'],
  },
  {
    name: 'payee-amount-major-units',
    family: 'cpr-structure',
    role: 'payee',
    description: "the payee writes a fiat request's amount in major units with two fraction digits, as an invoice prints it (12.50 for 1250), not in the asset's smallest unit",
    catches: ['CPR-VAL-2'],
  },
  {
    name: 'payee-amount-json-number',
    family: 'cpr-structure',
    role: 'payee',
    description: "the payee writes a request's amount as a JSON number (4999), as its numeric column serializes, not as the decimal string the profile asks for",
    catches: ['PRF-AMT-1'],
  },
  {
    name: 'payee-request-id-from-instant',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee makes request_id from the creation instant and the input (so that a retried creation gets its id back): identical requests created in one millisecond share one request_id',
    catches: ['CPR-ID-1'],
  },
  {
    name: 'payee-request-id-counter-raced',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee draws request ids from a counter it reads and writes back around a store round trip, so requests created at once share one request_id',
    catches: ['CPR-ID-1'],
  },
  {
    name: 'payee-request-id-version-7',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee draws each request_id as a time-ordered version 7 UUID (RFC 9562 §5.7), a database-friendly key, instead of the version 4 the spec recommends',
    catches: ['CPR-ID-2'],
  },
  {
    name: 'payee-request-id-variant-unset',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee writes each request_id by hand from 16 random bytes, the version nibble set to 4 but the RFC 9562 variant bits (10) left as drawn: three ids in four are no version 4 UUID, where the spec recommends one',
    catches: ['CPR-ID-2'],
  },
  {
    name: 'payee-record-status-served',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee serves its stored record of the request as the CPR, with its bookkeeping member status ("OPEN") beside the CPR\'s fields',
    catches: ['PRF-CPR-1'],
  },
  {
    name: 'payee-rail-address-empty',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee serves payee.rail_address as an empty object and its address fields at the top level only, as a RailAddress type written from the spec\'s table (which lists no members) serializes it',
    catches: ['CPR-PAYEE-1'],
  },
  {
    name: 'app-chain-id-condition-ignored',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app accepts a stablecoin or tokenized asset without chain_id',
    catches: ['CPR-VAL-1'],
  },
  {
    name: 'app-unknown-rail-hint-crash',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app looks an unrecognized rail_hint up in its table of rail names and throws instead of reading it as OPEN',
    catches: ['CPR-RAIL-1', 'PRF-APP-1'],
  },
  {
    name: 'app-unknown-extension-rejected',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app rejects an extensions key that is neither std: nor reverse-domain instead of ignoring it',
    catches: ['CPR-EXT-1'],
  },
  {
    name: 'app-payer-in-array-accepted',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app looks for payer data through the request\'s objects only: a payer-named member inside an array (extensions.x.items[0].payer) is accepted',
    catches: ['CPR-PAYER-1', 'PRF-PAYER-1'],
  },
  {
    name: 'app-payer-field-accepted',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app accepts a CPR that carries payer, authorization or settlement data',
    catches: ['CPR-PAYER-1', 'PRF-PAYER-1'],
  },
  {
    name: 'app-version-unchecked',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app never checks cpr_version and processes any version',
    catches: ['CPR-VER-1', 'DLV-FILE-1', 'DRV-VALID-1'],
  },
  // --------------------------------------------------------------- sub-interfaces
  {
    name: 'payee-iban-mirror-spaced',
    family: 'sub-interfaces',
    role: 'payee',
    description: 'the top-level copy of an IBAN is written in its printed form (groups of four, spaced), so it no longer equals rail_address.iban',
    catches: ['PRF-RAIL-1'],
  },
  {
    name: 'payee-evm-checksum-broken',
    family: 'sub-interfaces',
    role: 'payee',
    description: "the payee serves its on-chain receiver_address in mixed case with a failing EIP-55 checksum (one letter's case changed): still 20 bytes, written against the profile's form",
    catches: ['PRF-EVM-1'],
  },
  {
    name: 'payee-on-chain-hint-missing',
    family: 'sub-interfaces',
    role: 'payee',
    description: 'the payee serves on-chain requests with rail_hint OPEN instead of ON_CHAIN',
    catches: ['SUB-CHAIN-1'],
  },
  {
    name: 'app-iban-checksum-unchecked',
    family: 'sub-interfaces',
    role: 'paying-app',
    description: "the paying app checks an IBAN's shape only, not its country length or mod 97-10 check digits",
    catches: ['SUB-IBAN-1', 'PRF-IBAN-1'],
  },
  {
    name: 'app-acquirer-id-not-defaulted',
    family: 'sub-interfaces',
    role: 'paying-app',
    description: 'the paying app leaves acquirer_id out of an on-chain Payment instead of reading it as the all-zero ID',
    catches: ['SUB-CHAIN-2', 'PRF-PAY-1'],
  },
  {
    name: 'payee-account-beneficiary-missing',
    family: 'sub-interfaces',
    role: 'payee',
    description: 'the payee leaves beneficiary_name out of its account requests, giving the account number alone',
    catches: ['SUB-ACCT-1'],
  },
  {
    name: 'payee-instant-key-type-missing',
    family: 'sub-interfaces',
    role: 'payee',
    description: 'the payee leaves key_type out of its instant-key requests, giving key_value alone',
    catches: ['SUB-KEY-1'],
  },
  {
    name: 'app-key-type-closed',
    family: 'sub-interfaces',
    role: 'paying-app',
    description: "the paying app accepts only the spec's example key_type values and rejects any other",
    catches: ['SUB-OPEN-1'],
  },
  // --------------------------------------------------------------------- delivery
  {
    name: 'payee-qr-other-uri',
    family: 'delivery',
    role: 'payee',
    description: 'the QR image encodes the https retrieval URL instead of the std-cpr:// URI the payee reports',
    catches: ['DLV-QR-1'],
  },
  {
    name: 'payee-deep-link-https',
    family: 'delivery',
    role: 'payee',
    description: 'the payee gives the https retrieval URL of the token as its deep link, instead of a URI in the QR format (std-cpr://)',
    catches: ['DLV-DEEP-1'],
  },
  {
    name: 'payee-retrieval-text-plain',
    family: 'delivery',
    role: 'payee',
    description: 'the payee serves a retrieved CPR as text/plain; charset=utf-8 instead of application/json',
    catches: ['TOK-GET-1'],
  },
  {
    name: 'payee-qr-level-l',
    family: 'delivery',
    role: 'payee',
    description: 'the payee draws its QR codes at error-correction level L, the smallest symbol, instead of M',
    catches: ['PRF-QR-1'],
  },
  {
    name: 'payee-qr-quiet-zone-narrow',
    family: 'delivery',
    role: 'payee',
    description: 'the payee crops its QR images to a quiet zone of 2 modules instead of 4',
    catches: ['PRF-QR-1'],
  },
  {
    name: 'payee-inline-uri-unbounded',
    family: 'delivery',
    role: 'payee',
    description: 'the payee offers an inline URI however long the request, beyond the 2 048-byte bound',
    catches: ['PRF-INLINE-1'],
  },
  {
    name: 'payee-inline-padded',
    family: 'delivery',
    role: 'payee',
    description: "the payee encodes its inline URI with the platform's padded base64 (+, / and =) instead of unpadded base64url",
    catches: ['DLV-INLINE-1', 'PRF-B64-1'],
  },
  {
    name: 'payee-inline-not-utf8',
    family: 'delivery',
    role: 'payee',
    description: "the payee's inline URI carries the JSON's UTF-16 code units cut to one byte each (Latin-1) instead of its UTF-8: right for every request in ASCII, another CPR (or no JSON) for a memo, name or extension outside it",
    catches: ['DLV-INLINE-1'],
  },
  {
    name: 'payee-inline-bound-utf16',
    family: 'delivery',
    role: 'payee',
    description: "the payee decides whether the inline URI fits its 2 048 bytes from the JSON's UTF-16 length, not its UTF-8 bytes: exact for a CPR in ASCII, and inline URIs of up to half again as long for one whose text is outside it",
    catches: ['PRF-INLINE-1'],
  },
  {
    name: 'payee-endpoint-unencoded',
    family: 'delivery',
    role: 'payee',
    description: 'the payee writes the endpoint of its QR URI without percent-encoding it',
    catches: ['PRF-URI-1'],
  },
  {
    name: 'payee-endpoint-minimal-escape',
    family: 'delivery',
    role: 'payee',
    description: "the payee escapes its URIs' endpoint by hand, only '%', ': / ? # & = +' and white space: a base URL with '[ ]' (an IPv6 host) or '@ ; , $' in its path goes out with them raw, where PROFILE.md §8.1 encodes every character encodeURIComponent does",
    catches: ['PRF-URI-1'],
  },
  {
    name: 'payee-endpoint-escapes-decoded',
    family: 'delivery',
    role: 'payee',
    description: "the payee decodes its base URL's own escapes before it percent-encodes it as the endpoint (decodeURI, against escaping them twice): /p/%C3%A9 goes out as /p/é, /acme%28eu%29 as /acme(eu), another resource, where PROFILE.md §8.1 encodes the base URL as it is",
    catches: ['PRF-URI-1'],
  },
  {
    name: 'app-inline-padding-accepted',
    family: 'delivery',
    role: 'paying-app',
    description: 'the paying app strips = padding from an inline payload instead of rejecting it',
    catches: ['PRF-B64-1', 'PRF-INLINE-1', 'DLV-INLINE-1'],
  },
  // -------------------------------------------------------------- retrieval-token
  {
    name: 'payee-token-reusable',
    family: 'retrieval-token',
    role: 'payee',
    description: 'a retrieval token is never consumed: every retrieval serves the CPR again',
    catches: ['TOK-ONCE-1'],
  },
  {
    name: 'payee-token-with-memo-reusable',
    family: 'retrieval-token',
    role: 'payee',
    description: 'a retrieval token whose CPR carries a memo is never consumed: every retrieval serves it again (one path of the store, for requests with a memo, forgets to burn the token)',
    catches: ['TOK-ONCE-1'],
  },
  {
    name: 'payee-token-with-extensions-reusable',
    family: 'retrieval-token',
    role: 'payee',
    description: 'a retrieval token whose CPR carries extensions is never consumed: every retrieval serves it again (the store copies requests with extensions through another path, which forgets to burn the token)',
    catches: ['TOK-ONCE-1'],
  },
  {
    name: 'payee-head-spends-token',
    family: 'retrieval-token',
    role: 'payee',
    description: "the payee answers HEAD /cpr/<token> as its GET (as frameworks do), so a link checker's HEAD retrieves nothing and spends the token, and the paying application's GET meets TOKEN_CONSUMED",
    catches: ['TOK-ONCE-1'],
  },
  {
    name: 'payee-tls-refusal-live-tokens-only',
    family: 'retrieval-token',
    role: 'payee',
    description: 'over plaintext the payee refuses only a live token with 403 TLS_REQUIRED; an unknown or used one gets 404 or 410 in the clear, telling an eavesdropper what became of it',
    catches: ['PRF-TOK-1'],
  },
  {
    name: 'payee-used-token-forgotten-from-use',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the payee remembers a used token for a lifetime after its use, not after its expiry, so one used early and presented again between the two is TOKEN_UNKNOWN where PROFILE.md §10 wants TOKEN_CONSUMED',
    catches: ['PRF-TOK-1'],
  },
  {
    name: 'payee-token-burned-on-refusal',
    family: 'retrieval-token',
    role: 'payee',
    description: 'a refused retrieval consumes the token too, so an expired token is called consumed from its second retrieval on',
    catches: ['PRF-TOK-1'],
  },
  {
    name: 'payee-token-lifetime-fixed',
    family: 'retrieval-token',
    role: 'payee',
    description: 'retrieval tokens live the token store\'s own 300 s whatever lifetime the payee is configured with and reports in token_expires_at: under a lifetime of 600 s, a live token is refused TOKEN_EXPIRED from 300 s on (observable only under a lifetime other than 300 s)',
    catches: ['TOK-GET-1'],
    configuration: { tokenLifetimeSeconds: 600 },
  },
  {
    name: 'payee-token-expiry-whole-second',
    family: 'retrieval-token',
    role: 'payee',
    description: 'a retrieval token made a fraction into a second is refused TOKEN_EXPIRED from the whole second its lifetime ends in, before its token_expires_at (expiry judged in whole seconds)',
    catches: ['TOK-GET-1'],
  },
  {
    name: 'payee-token-never-expires',
    family: 'retrieval-token',
    role: 'payee',
    description: "a retrieval token is still served after its lifetime (the expiry check is missing)",
    catches: ['TOK-EXP-1'],
  },
  {
    name: 'payee-serves-plaintext',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the payee serves the CPR over plaintext HTTP as over TLS',
    catches: ['TOK-TLS-1', 'PRF-TOK-1'],
  },
  {
    name: 'payee-tls-from-forwarded-proto',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the payee takes a request carrying X-Forwarded-Proto: https for one over TLS, so any client that sends the header gets the CPR in the clear',
    catches: ['TOK-TLS-1'],
  },
  {
    name: 'payee-plaintext-token-kept',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the payee refuses a retrieval over plaintext HTTP with 403 TLS_REQUIRED but leaves the token valid, though it travelled in the clear',
    catches: ['PRF-TOK-2'],
  },
  {
    name: 'payee-token-race',
    family: 'retrieval-token',
    role: 'payee',
    description: 'token retrieval is not atomic: it checks the token, awaits, then consumes it, so concurrent retrievals all succeed',
    catches: ['TOK-RACE-1'],
  },
  {
    name: 'payee-token-cacheable',
    family: 'retrieval-token',
    role: 'payee',
    description: 'retrieval responses are marked cacheable (private, max-age=300) instead of no-store',
    catches: ['PRF-TOK-1'],
  },
  // ------------------------------------------------------------------- derivation
  {
    name: 'app-past-expiry-accepted',
    family: 'derivation',
    role: 'paying-app',
    description: 'the paying app never compares expires_at with its clock and pays an expired request',
    catches: ['DRV-EXP-1', 'DLV-FILE-1'],
  },
  {
    name: 'app-expiry-instant-accepted',
    family: 'derivation',
    role: 'paying-app',
    description: 'the paying app compares expires_at off by one and still pays a request at exactly its expires_at',
    catches: ['DRV-EXP-1'],
  },
  {
    name: 'app-amount-converted',
    family: 'derivation',
    role: 'paying-app',
    description: 'when it converts, the paying app puts the converted amount and asset in the Payment value instead of the requested ones',
    catches: ['DRV-VALUE-1', 'DRV-CONV-1'],
  },
  {
    name: 'app-partial-payment-accepted',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app pays the payer's amount even when the request sets another amount",
    catches: ['DRV-PARTIAL-1'],
  },
  {
    name: 'app-open-amount-through-double',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app reads the payer's amount for an open request as a JavaScript number, so one beyond 2^53 is paid rounded",
    catches: ['DRV-OPEN-1'],
  },
  {
    name: 'app-payment-id-reused',
    family: 'derivation',
    role: 'paying-app',
    description: 'the paying app uses the request_id as the Payment id, so every derivation of a request has the same id',
    catches: ['DRV-SHAPE-1', 'DRV-RETRY-1'],
  },
  {
    name: 'app-reference-ignores-memo',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app always takes the intent's reference from request_id, even when there is a memo",
    catches: ['DRV-INTENT-1'],
  },
  {
    name: 'app-payer-from-cpr',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app fills the Payment's payer from the CPR (its payee descriptor) instead of the derivation context",
    catches: ['DRV-PAYER-1'],
  },
  {
    name: 'app-empty-supported-rails-ignored',
    family: 'derivation',
    role: 'paying-app',
    description: 'the paying app takes an empty supported_rails for none given and falls back to every rail, so it pays by a hinted rail it said it cannot serve',
    catches: ['DRV-RAIL-1'],
  },
  {
    name: 'app-conversion-at-par-undisclosed',
    family: 'derivation',
    role: 'paying-app',
    description: 'a conversion at rate 1 ("1", "1.0": a EUR stablecoin for EUR) is taken for none: not disclosed in the Payment\'s context, where spec §4.6.2 discloses every conversion as extra context',
    catches: ['DRV-CONV-1'],
  },
  {
    name: 'app-unknown-hint-read-as-usual-rail',
    family: 'derivation',
    role: 'paying-app',
    description: "a rail_hint none of the listed values is read as the rail the request's sub-interface is usually paid on (SEPA_CT for an IBAN), not as OPEN: refused RAIL_UNSUPPORTED where that rail is not served, where PROFILE.md §8.3 treats it as no preference",
    catches: ['DRV-RAIL-1'],
  },
  {
    name: 'app-conditions-from-hinted-rail',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app builds intent.conditions from the sub-interface of the rail rail_hint names, not the one payee.rail_address identifies, so an IBAN request hinted PIX or ACH loses its own fields from the conditions",
    catches: ['DRV-INTENT-1'],
  },
  {
    name: 'app-open-amount-from-conversion',
    family: 'derivation',
    role: 'paying-app',
    description: "for an open request derived with a conversion, the paying app pays the conversion's amount (what the payer spends in its own asset) as value.amount in place of the payer's amount",
    catches: ['DRV-OPEN-1'],
  },
  {
    name: 'app-unsupported-rail-ignored',
    family: 'derivation',
    role: 'paying-app',
    description: 'the paying app silently derives a Payment when it cannot serve the hinted rail',
    catches: ['DRV-RAIL-1', 'DRV-RAIL-2', 'DRV-RAIL-3'],
  },
  {
    name: 'app-derive-skips-validation',
    family: 'derivation',
    role: 'paying-app',
    description: 'derive trusts its input: only read validates, so an invalid CPR handed to derive yields a Payment',
    catches: ['DRV-VALID-1'],
  },
  {
    name: 'payee-fulfil-repeatable',
    family: 'derivation',
    role: 'payee',
    description: 'the payee never marks a request consumed, so it can be fulfilled again',
    catches: ['DRV-SINGLE-1'],
  },
  {
    name: 'payee-fulfil-consumes-expired',
    family: 'test-control',
    role: 'payee',
    description: 'the payee marks a request consumed before it checks its expiry, so a refused fulfilment of an expired request turns the next one into 409 REQUEST_CONSUMED',
    catches: ['PRF-CTL-1'],
  },
  // ----------------------------------------------------------- cashpack-endpoints
  {
    name: 'op-status-open',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the status endpoint answers anyone, signed or not',
    catches: ['CPP-STS-1', 'PRF-AUTH-1'],
  },
  {
    name: 'op-signs-with-other-key',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the Operator signs packs and confirmations with a key other than the one it publishes at /.well-known',
    catches: ['CPP-WK-2'],
  },
  {
    name: 'op-policy-wrong-profile',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the policy document names the profile CPP-PROFILE-0.9',
    catches: ['CPP-WK-1', 'PRF-WK-1'],
  },
  {
    name: 'op-policy-older-profile',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'an Operator built against an earlier profile version names it in its policy document (CPP-PROFILE-1.0, two versions back): the run says which rules changed since',
    catches: ['PRF-WK-1'],
  },
  {
    name: 'op-policy-document-missing',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the Operator publishes no policy document (404), though it applies a policy; the scenarios that adapt to the policy cannot run, the policy\'s own scenarios fail',
    catches: ['CPP-WK-1'],
  },
  // --------------------------------------------------------------- cashpack-crypto
  {
    name: 'op-signatures-unverified',
    family: 'cashpack-crypto',
    role: 'operator',
    description: 'the Operator never verifies the signature of a Lock Request, Renewal Entry or Redemption Request (INVALID_SIGNATURE never returned)',
    catches: ['CPP-SIG-1'],
  },
  {
    name: 'op-domain-tag-ignored',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator accepts a message signature made under any message type's domain tag",
    catches: ['PRF-SIG-1'],
  },
  {
    name: 'op-previous-bearer-accepted',
    family: 'cashpack-crypto',
    role: 'operator',
    description: 'a key that held the pack before the last renewal is still accepted as its bearer (BEARER_MISMATCH for the wrong condition)',
    catches: ['CPP-BRR-1'],
  },
  {
    name: 'op-bearer-compared-as-json',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator compares the bearer's JWK with the pack's current_bearer_pk as JSON text, not by x: the bearer's own key with its members in another order than it was registered in gets BEARER_MISMATCH",
    catches: ['CPP-RNW-1', 'CPP-RED-1'],
  },
  {
    name: 'op-chain-digest-wrong',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the renewal digest hashes the submitting bearer's key in place of new_bearer_pk",
    catches: ['CPP-CHN-1', 'PRF-DIG-1'],
  },
  {
    name: 'op-chain-digest-unchecked',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator never compares prev_chain_digest with the pack's digest (CHAIN_DIGEST_MISMATCH never returned)",
    catches: ['CPP-CHN-2'],
  },
  // --------------------------------------------------------------- cashpack-errors
  {
    name: 'op-held-funds-spendable',
    family: 'cashpack-errors',
    role: 'operator',
    description: "the funds held for a cancelled pack count towards the Principal's balance at issue: a Lock Request over what is available but within it and the held funds is granted, spending the held funds",
    catches: ['CPP-BAL-1'],
  },
  {
    name: 'op-balance-any-asset',
    family: 'cashpack-errors',
    role: 'operator',
    description: "the Operator's balance check ignores the asset: a Principal funded in one asset the policy lists locks a pack in another out of it (observable only under a policy of two assets or more)",
    catches: ['CPP-BAL-1'],
  },
  {
    name: 'op-balance-off-by-one',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'INSUFFICIENT_BALANCE is returned when the amount equals the available balance',
    catches: ['CPP-BAL-1', 'PRF-BOUND-1'],
  },
  {
    name: 'op-limit-off-by-one',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'AMOUNT_EXCEEDS_LIMIT is returned when the amount equals max_amount',
    catches: ['CPP-LIM-1', 'PRF-BOUND-1'],
  },
  {
    name: 'op-identity-level-zero-unidentified',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'a redeemer of identity level 0 is never identified, even under a policy whose required_identity_level is 0: its redemption is refused REDEEMER_NOT_IDENTIFIED (observable only under such a policy)',
    catches: ['CPP-RED-1', 'CPP-IDN-1'],
    configuration: { policy: { required_identity_level: 0 } },
  },
  {
    name: 'op-depth-zero-unlimited',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'a max_chain_depth of 0 is read as no limit configured: every renewal is granted where CHAIN_DEPTH_EXCEEDED is due (observable only under such a policy)',
    catches: ['CPP-DEPTH-1'],
    configuration: { policy: { max_chain_depth: 0 } },
  },
  {
    name: 'op-body-limit-fixed',
    family: 'cashpack-errors',
    role: 'operator',
    description: "the Operator's handlers refuse bodies over 65 536 bytes whatever max_body_bytes the policy publishes: under a policy of 131 072, a body it allows is refused 413 (observable only under a policy above 65 536)",
    catches: ['PRF-BOUND-1'],
    configuration: { policy: { max_body_bytes: 131_072 } },
  },
  {
    name: 'op-depth-limit-fixed',
    family: 'cashpack-errors',
    role: 'operator',
    description: "the renewal depth is checked against the default policy's max_chain_depth (8), not the one the Operator publishes: under a policy of 3, renewals past the third are granted (observable only under a policy whose max_chain_depth is not the default)",
    catches: ['CPP-DEPTH-1'],
    configuration: { policy: { max_chain_depth: 3 } },
  },
  {
    name: 'op-depth-off-by-one',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'CHAIN_DEPTH_EXCEEDED comes one renewal late: a chain may grow to max_chain_depth + 1',
    catches: ['CPP-DEPTH-1', 'PRF-BOUND-1'],
  },
  {
    name: 'op-depth-unchecked',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'the Operator has no depth check: a chain grows past max_chain_depth and CHAIN_DEPTH_EXCEEDED is never returned',
    catches: ['CPP-DEPTH-1'],
  },
  {
    name: 'op-depth-from-presented-pack',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'the Operator reads the chain depth from the pack version presented, not its stored state: an earlier version renews a chain already at max_chain_depth',
    catches: ['CPP-DEPTH-1'],
  },
  {
    name: 'op-asset-matched-by-code',
    family: 'cashpack-errors',
    role: 'operator',
    description: "the Operator matches a Lock Request's asset to the policy's by its code alone, so {crypto, EUR} passes for {fiat, EUR}",
    catches: ['PRF-ERR-1'],
  },
  {
    name: 'op-depth-checked-first',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'renew judges the chain depth before the bearer and the digest, so a pack at max_chain_depth gets CHAIN_DEPTH_EXCEEDED whoever renews it with whatever digest',
    catches: ['PRF-ORDER-1', 'CPP-BRR-1', 'CPP-CHN-2'],
  },
  {
    name: 'op-expiry-min-off-by-one',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'EXPIRY_INVALID is returned for a requested expiry exactly expiry_min_seconds ahead',
    catches: ['CPP-EXP-1', 'PRF-BOUND-1'],
  },
  {
    name: 'op-expiry-max-off-by-one',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'EXPIRY_INVALID is returned for a requested expiry exactly expiry_max_seconds ahead',
    catches: ['CPP-EXP-1', 'PRF-BOUND-1'],
  },
  {
    name: 'op-replay-unchecked',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'the Operator never records ids (DUPLICATE_ID never returned)',
    catches: ['CPP-RPL-1', 'PRF-RPL-1'],
  },
  {
    name: 'op-replay-window-from-created-at',
    family: 'cashpack-errors',
    role: 'operator',
    description: "the Operator counts an id's two windows from the message's created_at, not from its own clock when it recorded the id: an id first sent dated a window behind the clock is forgotten a window early",
    catches: ['CPP-RPL-1'],
  },
  {
    name: 'op-replay-namespaces-split',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'request_id, renewal_id and redemption_id are remembered in separate namespaces',
    catches: ['PRF-RPL-1'],
  },
  {
    name: 'op-redeemer-unidentified',
    family: 'cashpack-errors',
    role: 'operator',
    description: "the Operator credits the redeemer named by redeemer_kid without checking the redeemer's HTTP Message Signature",
    catches: ['CPP-IDN-1', 'PRF-IDN-1'],
  },
  {
    name: 'op-identity-level-off-by-one',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'a redeemer one level below required_identity_level is accepted (REDEEMER_NOT_IDENTIFIED off by one)',
    catches: ['CPP-IDN-1', 'PRF-IDN-1', 'PRF-BOUND-1'],
  },
  {
    name: 'op-expiry-applied-on-read',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "an expired pack's funds return to the Principal only when something reads the pack or the balance: a Lock Request for them right after the expiry instant is refused INSUFFICIENT_BALANCE",
    catches: ['CPP-EXP-2', 'PRF-LIFE-1'],
  },
  {
    name: 'op-identity-level-exclusive',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'a redeemer exactly at required_identity_level is refused REDEEMER_NOT_IDENTIFIED (the level must exceed it, not reach it)',
    catches: ['CPP-IDN-1', 'PRF-BOUND-1'],
  },
  {
    name: 'op-freshness-unchecked',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'the Operator never checks created_at against its request window (STALE_REQUEST never returned)',
    catches: ['PRF-FRESH-1'],
  },
  {
    name: 'op-duplicate-id-status-400',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'DUPLICATE_ID is answered with HTTP 400 instead of 409',
    catches: ['PRF-ERR-1'],
  },
  {
    name: 'op-balance-before-limit',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'issue checks the balance before the limit, so an amount above both gets INSUFFICIENT_BALANCE',
    catches: ['PRF-ORDER-1', 'CPP-LIM-1'],
  },
  {
    name: 'op-unknown-principal-issued',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'the Operator opens an account for any key that signs a Lock Request, funded with the amount it asks for: an unregistered principal_pk obtains issuance',
    catches: ['CPP-PRN-1'],
  },
  {
    name: 'op-unknown-principal-empty',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'an unregistered principal_pk is read as an empty account: still refused, but with INSUFFICIENT_BALANCE (step 9) instead of PRINCIPAL_UNKNOWN (step 3)',
    catches: ['PRF-ORDER-1'],
  },
  // ------------------------------------------------------------ cashpack-lifecycle
  {
    name: 'op-redeem-non-atomic',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: 'redemption awaits a ledger round trip between its ACTIVE check and its state change, so concurrent redemptions all succeed (double spend)',
    catches: ['CPP-RACE-1'],
  },
  {
    name: 'op-expiry-funds-kept',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "an expired pack's amount stays locked instead of returning to the Principal",
    catches: ['CPP-EXP-2', 'PRF-LIFE-1'],
  },
  {
    name: 'op-renew-previous-key-refused',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "a renewal handing the pack back to a key that has held it (A to B to A, or A to A) is refused BEARER_MISMATCH, the spec's disposable keys read as a rule the Operator enforces, where PROFILE.md §5 renew refuses no new_bearer_pk for having been one",
    catches: ['CPP-RNW-1'],
  },
  {
    name: 'op-expiry-timer-overflow',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "each pack is expired by a timer set for its remaining lifetime, which never looks at the clock: a delay past 2^31 - 1 ms is 1 ms to Node, so a pack issued for more than about 24.86 days (the default maximum is 30) expires at once, its funds back long before its expiry",
    catches: ['CPP-EXP-2', 'CPP-FND-1'],
  },
  {
    name: 'op-expiry-sweep-in-issue-order',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "the Operator's sweep before a balance is read or a Lock Request judged stops at the first of the Principal's packs still running, as if packs expired in the order they were issued: a later pack that expires first keeps its funds locked until someone reads its status",
    catches: ['CPP-EXP-2'],
  },
  {
    name: 'op-expiry-one-second-late',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: 'a pack is still ACTIVE at its expiry instant and expires one second later',
    catches: ['CPP-EXP-2', 'PRF-LIFE-1', 'PRF-BOUND-1', 'CPP-ACT-1'],
  },
  {
    name: 'op-updated-at-stamped-before-checks',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "a renewal stamps the pack's updated_at before checking the bearer, the digest and the depth, so a renewal it refuses moves updated_at",
    catches: ['PRF-STS-1'],
  },
  {
    name: 'op-expiry-late-seconds-dropped',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "a pack asked to expire in the last ten seconds of a minute (:50 to :59) is signed with the minute itself as its expiry: a formatter that rounds the late seconds away",
    catches: ['CPP-ISS-1'],
  },
  {
    name: 'op-status-deep-pack-active',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: 'the status of a pack three renewals deep or more reads ACTIVE, whether it was redeemed, cancelled or expired: a status kept apart for the first renewals only',
    catches: ['CPP-STS-1'],
  },
  {
    name: 'op-updated-at-stamped-by-read',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "a status read stamps the pack's updated_at with the Operator's clock, as if reading changed it",
    catches: ['PRF-STS-1'],
  },
  {
    name: 'op-expired-stamped-when-applied',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "an expired pack's updated_at is the moment the Operator noticed the expiry (the read that applied it), not the expiry instant",
    catches: ['PRF-STS-1'],
  },
  {
    name: 'op-cancel-updated-at-unstamped',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "a cancellation leaves the pack's updated_at as it was (the Operator's own act taken for no change of the pack), so a cancelled pack's status shows its issue or last renewal where PROFILE.md §4.7 wants the cancellation's instant",
    catches: ['PRF-STS-1'],
  },
  {
    name: 'op-renewal-updated-at-from-created-at',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "a renewal stamps the pack's updated_at with the Renewal Entry's created_at (when the bearer signed it), not the Operator's clock: a renewal dated anywhere in the freshness window shows that date, where PROFILE.md §4.7 wants the Operator's clock at the change",
    catches: ['PRF-STS-1'],
  },
  {
    name: 'op-cancel-releases-funds',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "cancellation returns the pack's amount to the Principal's available funds instead of holding it",
    catches: ['CPP-CAN-1', 'PRF-LIFE-1'],
  },
  {
    name: 'op-terminal-state-revived',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: 'a renewal of a REDEEMED, EXPIRED or CANCELLED pack makes it ACTIVE again instead of INSTRUMENT_NOT_ACTIVE',
    catches: ['CPP-ACT-1'],
  },
  {
    name: 'op-issue-locks-nothing',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "issuing a pack leaves the Principal's available balance untouched",
    catches: ['CPP-FND-1'],
  },
  {
    name: 'op-renew-keeps-bearer',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: 'a renewal appends its entry but leaves current_bearer_pk unchanged',
    catches: ['CPP-RNW-1'],
  },
  {
    name: 'op-renewal-restamps-issued-at',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "a renewal dates the pack it signs again with the Operator's clock, so the renewed pack's issued_at is the renewal's instant, not its issue's",
    catches: ['PRF-MSG-1'],
  },
  // -------------------------------------------------------------------- robustness
  {
    name: 'op-malformed-json-500',
    family: 'robustness',
    role: 'operator',
    description: 'the Operator parses request bodies with JSON.parse outside its error handling, so malformed JSON gets a 500',
    catches: ['CPP-ERR-1', 'PRF-JSON-1'],
  },
  {
    name: 'op-media-type-unchecked',
    family: 'robustness',
    role: 'operator',
    description: 'the Operator parses any request body as JSON whatever its Content-Type (415 never returned)',
    catches: ['PRF-HTTP-1'],
  },
  {
    name: 'op-body-limit-off-by-one',
    family: 'robustness',
    role: 'operator',
    description: 'a body of exactly max_body_bytes gets 413 PAYLOAD_TOO_LARGE',
    catches: ['PRF-HTTP-1', 'PRF-BOUND-1'],
  },
  // ---------------------------------------------------------------------- encoding
  {
    name: 'payee-request-id-upper-case',
    family: 'encoding',
    role: 'payee',
    description: 'the payee writes request_id in upper case',
    catches: ['PRF-ID-1'],
  },
  {
    name: 'payee-timestamp-local-time',
    family: 'encoding',
    role: 'payee',
    description: 'the payee writes created_at and expires_at in its local time, two hours ahead of UTC, with a +02:00 offset',
    catches: ['CPR-TIME-1'],
  },
  {
    name: 'payee-timestamp-offset',
    family: 'encoding',
    role: 'payee',
    description: 'the payee writes created_at and expires_at with a +00:00 offset instead of Z',
    catches: ['PRF-TIME-1'],
  },
  {
    name: 'payee-memo-utf16-truncated',
    family: 'encoding',
    role: 'payee',
    description: 'the payee cuts the memo to 140 UTF-16 code units, shortening a memo of characters outside the BMP',
    catches: ['PRF-LEN-1', 'CPR-MEMO-1'],
  },
  {
    name: 'payee-memo-line-breaks-folded',
    family: 'encoding',
    role: 'payee',
    description: "the payee writes the memo's line breaks (CR, LF, CRLF, U+2028, U+2029) as spaces, serving another memo than the one asked for",
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'payee-empty-memo-dropped',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee copies the memo it is asked for by its truthiness: a request for the empty memo (0 code points, which PROFILE.md §7.1 allows) is served without one, so a paying application takes request_id as its reference',
    catches: ['PRF-CTL-1', 'PRF-LEN-1'],
  },
  {
    name: 'app-memo-utf16-length',
    family: 'encoding',
    role: 'paying-app',
    description: 'the paying app counts the memo in UTF-16 code units and rejects 140 characters outside the BMP',
    catches: ['PRF-LEN-1', 'CPR-MEMO-1', 'DRV-VALID-1'],
  },
  {
    name: 'app-leading-zero-amount',
    family: 'encoding',
    role: 'paying-app',
    description: 'the paying app accepts an amount written with leading zeros',
    catches: ['PRF-AMT-1'],
  },
  {
    name: 'app-duplicate-members-accepted',
    family: 'encoding',
    role: 'paying-app',
    description: 'the paying app reads JSON text with JSON.parse, so a duplicate member name silently wins',
    catches: ['PRF-JSON-1'],
  },
  // ------------------------------------------------------------------ test-control
  {
    name: 'ctl-extensions-dropped',
    family: 'test-control',
    role: 'payee',
    description: 'the payee control interface ignores the extensions it is asked to put in a request',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'ctl-cancel-terminal-ok',
    family: 'test-control',
    role: 'operator',
    description: 'cancelling a pack that is already REDEEMED, EXPIRED or CANCELLED answers 200 (changing nothing) instead of 409',
    catches: ['PRF-CTL-1', 'CPP-ACT-1'],
  },
  {
    name: 'ctl-lease-holder-utf16-length',
    family: 'test-control',
    role: 'operator',
    description: 'the lease counts its holder in UTF-16 units, so a holder of 200 characters with astral ones is refused',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'ctl-clock-json-parse',
    family: 'test-control',
    role: 'operator',
    description: "the clock's test-control body is read with JSON.parse after dropping a byte order mark, as many body parsers do: a member written twice is taken (the last copy), and so is a body after a byte order mark",
    catches: ['PRF-JSON-1', 'PRF-CTL-1'],
  },
  {
    name: 'ctl-reprovision-before-expiries',
    family: 'test-control',
    role: 'operator',
    description: "provisioning a Principal again sets its balance first and settles the packs that expired since afterwards: their funds land on top of the new balance (and, still counted locked, refuse an asset change), where PROFILE.md §12 brings them back first and replaces them",
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'ctl-redeemer-level-kept',
    family: 'test-control',
    role: 'operator',
    description: 'a redeemer provisioned again keeps the identity level it was first given, so a redeemer lowered below required_identity_level after it redeemed still redeems',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'ctl-reprovision-clears-held',
    family: 'test-control',
    role: 'operator',
    description: 'a Principal provisioned again loses the funds its cancelled packs hold, where PROFILE.md §12 keeps its held funds',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'ctl-reprovision-drops-running-packs',
    family: 'test-control',
    role: 'operator',
    description: "a Principal provisioned again forgets which of its packs are running: when they expire after it, their funds stay locked for a balance read and a Lock Request until someone reads that pack's status, where PROFILE.md §12 keeps its packs and §5.1 brings the funds back at the expiry instant",
    catches: ['CPP-EXP-2'],
  },
  {
    name: 'ctl-reprovision-asset-change-ignores-held',
    family: 'test-control',
    role: 'operator',
    description: "a Principal provisioned again may change its asset while funds are held, as long as nothing is locked: after a cancellation, its held funds in the old asset are then counted in the new one, where PROFILE.md §12 refuses the change (400 MALFORMED_REQUEST)",
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'ctl-redeemer-credits-reset',
    family: 'test-control',
    role: 'operator',
    description: 'a redeemer provisioned again loses the funds released to it, where PROFILE.md §12 keeps them',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'ctl-lease-id-prefix-match',
    family: 'test-control',
    role: 'operator',
    description: 'a lease is renewed or released by any prefix of its lease_id',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'ctl-lease-renewal-extends-expiry',
    family: 'test-control',
    role: 'operator',
    description: 'a lease renewal adds ttl_seconds to the expiry in force instead of counting it from now: each renewal lengthens the lease, and a holder that crashed after renewing locks the clock longer than its ttl_seconds',
    catches: ['PRF-CTL-1'],
  },
  // ------------------------------------------- unhappy paths of the wire rules
  // Faults that pass every test that only walks the happy path: each rule's
  // refusals exercised on the wire, with inputs that are otherwise valid.
  {
    name: 'op-signature-path-with-query',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator writes @path with the request's query, as the request line has it (RFC 9421 §2.2.6 leaves the query to @query): a status read or redemption signed right whose URL has a query identifies nobody, and one signed over path and query is taken",
    catches: ['PRF-AUTH-1'],
  },
  {
    name: 'op-signature-created-clock-rounded',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator reads its clock to the nearest second before it compares an HTTP Message Signature's created with it: at a clock in the second half of a second, a signature created a window and a second ahead of the clock's second is taken as fresh",
    catches: ['PRF-AUTH-1'],
  },
  {
    name: 'op-own-authority-port-compared',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator takes a Host as its own only when host and port are its primary authority's: its own host on another port, where a front server of its own may listen, is judged as another host, so a status read or redemption signed for it identifies nobody",
    catches: ['PRF-AUTH-1'],
  },
  {
    name: 'op-http-signature-any-components',
    family: 'cashpack-crypto',
    role: 'operator',
    description: 'the Operator verifies an HTTP Message Signature over whatever components it lists, so one that leaves out @authority is accepted',
    catches: ['PRF-AUTH-1', 'PRF-IDN-1'],
  },
  {
    name: 'op-http-signature-any-parameters',
    family: 'cashpack-crypto',
    role: 'operator',
    description: 'the Operator reads Signature-Input parameters in any order and ignores extra ones, instead of the profile form',
    catches: ['PRF-AUTH-1', 'PRF-IDN-1'],
  },
  {
    name: 'op-content-digest-unchecked',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator checks the redeemer's signature over the Content-Digest header but never that the digest matches the body",
    catches: ['PRF-IDN-1', 'CPP-IDN-1'],
  },
  {
    name: 'op-small-order-r-accepted',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator's Ed25519 verification checks A for small order but not R, so R = the identity with S = k·a verifies (OpenSSL's own verify)",
    catches: ['PRF-SIG-2', 'CPP-SIG-1'],
  },
  {
    name: 'op-non-canonical-r-accepted',
    family: 'cashpack-crypto',
    role: 'operator',
    description: 'the Operator reduces a non-canonical R before comparing points, after looking up small order on the y as written, so the identity written with y = p + 1 verifies',
    catches: ['PRF-SIG-2', 'CPP-SIG-1'],
  },
  {
    name: 'op-redeem-bearer-from-presented-pack',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'a redemption is checked against current_bearer_pk of the pack version the caller presents, so a previous bearer redeems with the pack as it was before the renewal',
    catches: ['CPP-BRR-1'],
  },
  {
    name: 'op-digest-from-presented-pack',
    family: 'cashpack-errors',
    role: 'operator',
    description: "a renewal's prev_chain_digest is compared with the digest of the pack version presented, not the stored one, so a stale version with its own digest renews",
    catches: ['CPP-CHN-2'],
  },
  {
    name: 'op-chain-digest-case-insensitive',
    family: 'cashpack-errors',
    role: 'operator',
    description: "the Operator compares a renewal's prev_chain_digest with the pack's chain_digest in one letter case, as hex digests may be: base64url is case-sensitive, so a digest with letters in the other case, which names other bytes, is taken",
    catches: ['CPP-CHN-2'],
  },
  {
    name: 'op-replay-store-one-window',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'the replay store forgets ids after one request window instead of two, so a fresh message reusing an id a window and a second old succeeds',
    catches: ['PRF-RPL-1', 'CPP-RPL-1'],
  },
  {
    name: 'op-issue-non-atomic',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: 'an issue checks the balance, waits on a ledger round trip, then locks the amount, so concurrent Lock Requests overdraw the Principal',
    catches: ['CPP-BAL-1', 'CPP-FND-1'],
  },
  // -------------------------------------------- the Operator's clock, not the message's
  // Every signed message can be dated anywhere inside the freshness window; a rule
  // that must use the Operator's clock is told apart from one using created_at only
  // when the two differ.
  {
    name: 'op-expiry-range-from-created-at',
    family: 'cashpack-errors',
    role: 'operator',
    description: 'the permitted expiry range is measured from the Lock Request\'s created_at instead of the Operator\'s clock at receipt',
    catches: ['CPP-EXP-1'],
  },
  {
    name: 'op-issued-at-from-created-at',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: "an issued pack's issued_at is the Lock Request's created_at, not the Operator's clock",
    catches: ['PRF-MSG-1'],
  },
  {
    name: 'op-expiry-judged-at-created-at',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "a renewal or redemption judges the pack's expiry at the message's created_at, so a message dated before the expiry still renews or redeems an expired pack",
    catches: ['CPP-ACT-1', 'CPP-EXP-2'],
  },
  // ------------------------------------------------- faults that live at a boundary
  // Fixed samples far from a bound (or all on one side of a rounding) let these
  // pass: each needs an input computed to sit exactly at the rule's edge.
  {
    name: 'app-inline-needs-padding',
    family: 'delivery',
    role: 'paying-app',
    description: "the paying app decodes inline payloads with a base64 decoder that wants whole 4-character groups, so JSON whose length is not a multiple of 3 is refused",
    catches: ['DLV-INLINE-1', 'PRF-B64-1'],
  },
  {
    name: 'payee-inline-limit-off-by-one',
    family: 'delivery',
    role: 'payee',
    description: 'the payee withholds the inline URI of a request whose inline form is exactly 2 048 bytes',
    catches: ['PRF-INLINE-1'],
  },
  {
    name: 'app-file-limit-off-by-one',
    family: 'delivery',
    role: 'paying-app',
    description: 'the paying app refuses a request file of exactly 65 536 bytes',
    catches: ['PRF-BOUND-1', 'PRF-APP-1'],
  },
  {
    name: 'app-expiry-clock-truncated',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app reads its clock to the whole second before comparing it with expires_at, so a request is accepted until the end of the second it expires in",
    catches: ['DRV-EXP-1'],
  },
  {
    name: 'app-empty-memo-dropped',
    family: 'derivation',
    role: 'paying-app',
    description: 'the paying app takes an empty memo for no memo and uses request_id as the intent reference',
    catches: ['DRV-INTENT-1'],
  },
  {
    name: 'payee-fulfil-at-expiry',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee still fulfils a request at the very instant of its expires_at',
    catches: ['PRF-CTL-1', 'DRV-SINGLE-1'],
  },
  {
    name: 'payee-request-retention-token-lifetime',
    family: 'cpr-structure',
    role: 'payee',
    description: "the payee keeps an expired request for a token lifetime, the token store's retention copied, not for its validity period: fulfilling it between the two ends answers NOT_FOUND where PROFILE.md §12 wants REQUEST_EXPIRED",
    catches: ['PRF-CTL-1'],
  },
  // -------------------------------------------------- what cannot be seen, and what can
  // Randomness cannot be observed from outside (the report names that part of the
  // requirement unverifiable); derivation from public values can.
  {
    name: 'payee-token-from-request-id',
    family: 'retrieval-token',
    role: 'payee',
    description: "the payee's retrieval token is the SHA-256 of the request's request_id, cut to 128 bits: well-formed, unique, and computable by anyone who has seen the invoice",
    catches: ['PRF-TOK-1'],
  },
  {
    name: 'payee-token-from-uuid',
    family: 'retrieval-token',
    role: 'payee',
    description: "the payee's retrieval token is a UUIDv4 without its hyphens: 32 lower-case hex digits, but 122 random bits and six fixed (version and variant)",
    catches: ['PRF-TOK-1'],
  },
  // ---------------------------------------------------------- a SHOULD, and only that
  // A legal configuration the spec advises against: a conformant run reports it as a warning.
  {
    name: 'payee-token-lifetime-20-minutes',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the payee gives its retrieval tokens a 20-minute lifetime, and says so in its config: honoured, but above the 15 minutes the spec recommends (a SHOULD)',
    catches: ['TOK-EXP-2'],
  },
  // ------------------------------------------------ a URI of the right shape, not the right URI
  // A pattern written for the shape of a URI passes it, and resolving it stops at the
  // harness's own host guard (a harness error); only comparing it, as a URI, with the
  // one the payee's advertised base URL gives catches it.
  {
    name: 'payee-endpoint-origin-only',
    family: 'delivery',
    role: 'payee',
    description: "the payee writes its base URL's origin alone as the endpoint of its QR URIs and deep links (a normalised URL), dropping the base path: right for every payee at the root of its host",
    catches: ['DLV-QR-1', 'DLV-DEEP-1', 'PRF-URI-1'],
  },
  {
    name: 'payee-endpoint-host-renamed',
    family: 'delivery',
    role: 'payee',
    description: "the payee writes its URIs' endpoint with another name for its own host (localhost where the base URL it advertises has 127.0.0.1): the same server, but not its base URL",
    catches: ['DLV-QR-1', 'PRF-URI-1'],
  },
  // ------------------------------------------- every field, every class (generated)
  // Single honest mistakes in a class of a field that no example reached: each is
  // killed by a property that generates the whole class on every path of the field
  // (harness/properties/, README "Field coverage"), not by a check placed for it.
  {
    name: 'app-rail-hint-case-folded',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'the paying app upper-cases rail_hint before reading it, so an unlisted "on_chain" on an IBAN request is taken for ON_CHAIN and the request refused',
    catches: ['CPR-RAIL-1', 'DRV-VALID-1'],
  },
  {
    name: 'app-timestamp-fraction-unbounded',
    family: 'encoding',
    role: 'paying-app',
    description: 'the paying app reads timestamps with Date.parse, so a fraction of 4 to 9 digits is accepted instead of refused',
    catches: ['PRF-TIME-1', 'DRV-VALID-1'],
  },
  {
    name: 'app-expiry-local-time',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app builds expires_at's instant with the local-time Date constructor: right in UTC, hours off on a device in another zone",
    catches: ['DRV-EXP-1', 'DRV-VALID-1'],
  },
  {
    name: 'app-expiry-fraction-leading-zeros-dropped',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app reads expires_at's fraction as a number padded to milliseconds, dropping its leading zeros: .05 is taken for 500 ms, so a request is fulfilled up to 0.9 s after it expired",
    catches: ['DRV-EXP-1'],
  },
  {
    name: 'app-validity-compared-in-seconds',
    family: 'derivation',
    role: 'paying-app',
    description: 'the paying app checks that expires_at is after created_at to the whole second, so a valid request whose lifetime ends within the second it began is refused',
    catches: ['DRV-VALID-1'],
  },
  {
    name: 'app-reference-normalised',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app stores the memo in Unicode NFC, so a memo written in NFD is not the Payment's intent.reference",
    catches: ['DRV-INTENT-1'],
  },
  {
    name: 'app-payee-address-lowercased',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app writes the Payment payee's EVM addresses in lower case, dropping their checksum case: no longer the request's payee",
    catches: ['DRV-SHAPE-1', 'PRF-PAY-1'],
  },
  {
    name: 'app-payee-named-from-beneficiary',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app names a payee that has no display_name by the request's beneficiary_name: the Payment's payee is no longer the request's for IBAN, ACCOUNT and INSTANT_KEY requests without a name",
    catches: ['DRV-SHAPE-1'],
  },
  {
    name: 'app-payer-amount-compared-as-number',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app compares the payer's amount with the requested one as doubles and pays the payer's, so beyond 2^53 a different amount passes",
    catches: ['DRV-PARTIAL-1', 'DRV-VALUE-1'],
  },
  {
    name: 'app-file-bom-stripped',
    family: 'encoding',
    role: 'paying-app',
    description: 'the paying app drops a byte order mark at the start of a request file instead of refusing the file',
    catches: ['PRF-JSON-1'],
  },
  {
    name: 'app-plaintext-endpoint-fetched',
    family: 'delivery',
    role: 'paying-app',
    description: 'the paying app fetches a token URI whose endpoint is http://, sending the token in the clear',
    catches: ['TOK-TLS-2'],
  },
  {
    name: 'app-same-code-conversion-undisclosed',
    family: 'derivation',
    role: 'paying-app',
    description: "a conversion into an asset that shares the requested asset's code (USDC on another chain, a tokenized EUR for fiat EUR) is taken for no conversion: the Payment's context.conversion and its disclosure are dropped",
    catches: ['DRV-CONV-1'],
  },
  {
    name: 'app-amount-before-rail',
    family: 'derivation',
    role: 'paying-app',
    description: "the paying app builds the value before it selects the rail (spec §4.5 has step 2 before step 4): a request whose hinted rail it does not serve, with a payer's amount it refuses, is answered PARTIAL_PAYMENT_UNSUPPORTED or AMOUNT_REQUIRED, not RAIL_UNSUPPORTED",
    catches: ['DRV-RAIL-1'],
  },
  {
    name: 'app-conversion-rate-through-double',
    family: 'derivation',
    role: 'paying-app',
    description: 'the conversion rate is read as a number and written back into the Payment\'s context: "1.0850" is disclosed as "1.085", "0.0000001" as "1e-7", and a rate of more digits than a double holds as another rate',
    catches: ['DRV-CONV-1'],
  },
  {
    name: 'app-tls-unverified',
    family: 'delivery',
    role: 'paying-app',
    description: "the paying app retrieves a token URI without verifying the server's certificate: the token goes to any server on the endpoint's host and port",
    catches: ['TOK-TLS-2'],
  },
  {
    name: 'app-tls-name-unchecked-for-address',
    family: 'delivery',
    role: 'paying-app',
    description: "for an endpoint named by IP address, the paying app checks the server's certificate chain but not that the certificate names that address: any certificate from a trusted CA gets the token",
    catches: ['TOK-TLS-2'],
  },
  {
    name: 'app-endpoint-decoded-twice',
    family: 'delivery',
    role: 'paying-app',
    description: "the paying app resolves the endpoint's percent-escapes once more before retrieving (decodeURI), so a base path with %28, %21 or %25 is fetched at another path: right for every payee at the root of its host",
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-retrieval-retried-on-server-error',
    family: 'delivery',
    role: 'paying-app',
    description: 'the paying app retries a retrieval the payee answered with a 5xx, sending the single-use token a second time',
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-throttled-retrieval-retried',
    family: 'delivery',
    role: 'paying-app',
    description: 'the paying app takes a 408 or 429 for throttling and retries the retrieval, sending the single-use token a second time',
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-retrieval-decoded-leniently',
    family: 'delivery',
    role: 'paying-app',
    description: 'the paying app decodes the retrieved body with a default TextDecoder before parsing it: a byte order mark is dropped and bytes that are not UTF-8 become U+FFFD, so a body that is not I-JSON is read where it is RETRIEVAL_FAILED',
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-retrieved-non-json-invalid',
    family: 'delivery',
    role: 'paying-app',
    description: 'a token URL answered with a body that is no JSON at all (HTML, nothing) is rejected as CPR_INVALID, where PROFILE.md §8.3 has it RETRIEVAL_FAILED',
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-retrieval-charset-honoured',
    family: 'delivery',
    role: 'paying-app',
    description: "a retrieved body is decoded in the charset Content-Type names: under charset=iso-8859-1 a UTF-8 CPR's text turns into mojibake, under utf-16 the retrieval fails, where JSON defines no charset (RFC 8259 §11) and the CPR read is the one served",
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-version-decides-only-alone',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'CPR_VERSION_UNSUPPORTED only when the version is the one defect: a CPR-2.0 document with a member 1.0 does not know is CPR_INVALID, where PROFILE.md §8.2 validates the version first and §8.3 answers CPR_VERSION_UNSUPPORTED for it',
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-endpoint-escapes-upper-hex-only',
    family: 'delivery',
    role: 'paying-app',
    description: "a token URI's percent-escapes are decoded only with upper-case hex digits (%3A, not %3a), so an endpoint written https%3a%2f%2f... is refused or retrieved from another URL, where PROFILE.md §8.1 makes the case of hex digits change nothing",
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-endpoint-parameter-name-case-folded',
    family: 'delivery',
    role: 'paying-app',
    description: 'query parameter names of a token URI are read in lower case, so Endpoint= and ENDPOINT= count as endpoint: a URI that also carries one is refused for its two endpoints, where PROFILE.md §8.1 ignores every parameter other than endpoint',
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-object-input-not-ijson-checked',
    family: 'encoding',
    role: 'paying-app',
    description: 'an in-memory document is deep-copied as it is, never read as I-JSON: a string or a member name with a lone surrogate, or nesting past 32, is accepted on the object path alone, where PROFILE.md §1 refuses it on every path',
    catches: ['PRF-JSON-1'],
  },
  {
    name: 'app-root-pointer-written-slash',
    family: 'cpr-structure',
    role: 'paying-app',
    description: 'a text that is no JSON document is refused with a violation whose path is "/", the pointer of a member named by the empty string, where PROFILE.md §8.3 names the document ""',
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-endpoint-first-parameter',
    family: 'delivery',
    role: 'paying-app',
    description: 'the paying app checks a token URI\'s shape as std-cpr://<token>?endpoint=..., so a valid URI with another parameter before endpoint (a router\'s ?lang=de&) is URI_INVALID and never retrieved',
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-endpoint-scheme-case-sensitive',
    family: 'delivery',
    role: 'paying-app',
    description: "the paying app checks that a token URI's endpoint is https by its text's first eight characters, so an endpoint written HTTPS:// or Https:// (the same URI, RFC 3986 §3.1) is URI_INVALID and never retrieved",
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-redirect-followed',
    family: 'delivery',
    role: 'paying-app',
    description: "the paying app's HTTP client follows a redirect with a Location, so the token goes wherever the payee's server points",
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-retrieval-limit-off-by-one',
    family: 'delivery',
    role: 'paying-app',
    description: 'the paying app refuses a retrieved body whose Content-Length is exactly the 65 536-byte bound',
    catches: ['PRF-BOUND-1'],
  },
  {
    name: 'app-duplicate-check-raw-names',
    family: 'encoding',
    role: 'paying-app',
    description: 'the paying app looks for duplicate member names as written, so a second member spelled with \\u escapes slips through and wins',
    catches: ['PRF-JSON-1'],
  },
  {
    name: 'payee-endpoint-from-forwarded-host',
    family: 'delivery',
    role: 'payee',
    description: "the payee builds the endpoint of a request's URIs from the X-Forwarded-Host and X-Forwarded-Proto headers of the call that created it",
    catches: ['DLV-QR-1', 'PRF-URI-1'],
  },
  {
    name: 'payee-endpoint-from-host-header',
    family: 'delivery',
    role: 'payee',
    description: "the payee builds the endpoint of a request's URIs from the Host header of the call that created it, not from its configured base URL",
    catches: ['DLV-QR-1', 'PRF-URI-1'],
  },
  {
    name: 'payee-token-prefix-match',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the payee looks a retrieval token up by its first 32 characters, so the token with anything appended retrieves (and consumes) the request',
    catches: ['TOK-AUTH-1', 'PRF-TOK-1'],
  },
  {
    name: 'payee-deep-link-token-reusable',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the deep link carries a token of its own, from a store that never consumes it: single use holds for the QR URI only',
    catches: ['TOK-ONCE-1'],
  },
  {
    name: 'payee-amount-through-double',
    family: 'encoding',
    role: 'payee',
    description: 'the payee keeps amounts as doubles and writes them back as integers, so an amount beyond 2^53 is served rounded',
    catches: ['PRF-AMT-1', 'PRF-CTL-1'],
  },
  {
    name: 'payee-payer-check-top-level',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee looks for payer-named members among the top-level keys of extensions only, and serves one nested deeper',
    catches: ['CPR-PAYER-1', 'PRF-PAYER-1'],
  },
  {
    name: 'payee-problem-type-about-blank',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the payee answers its retrieval-token errors with type "about:blank" (RFC 9457\'s default) instead of the profile\'s problem type',
    catches: ['PRF-ERR-1', 'PRF-TOK-1'],
  },
  {
    name: 'op-authority-from-forwarded-host',
    family: 'cashpack-crypto',
    role: 'operator',
    description: 'the Operator verifies HTTP Message Signatures against the X-Forwarded-Host header when one is sent, so a signature made for another host identifies its signer',
    catches: ['PRF-AUTH-1', 'PRF-IDN-1'],
  },
  {
    name: 'op-authority-from-host-header',
    family: 'cashpack-crypto',
    role: 'operator',
    description: "the Operator verifies HTTP Message Signatures against whatever authority the Host header names, so a signature made for another host, sent with that host's name, identifies its signer",
    catches: ['PRF-AUTH-1', 'PRF-IDN-1'],
  },
  {
    name: 'op-well-known-signed-get-refused',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'an authentication layer in front of every route checks any HTTP Message Signature it sees, so a signed GET of a well-known document by a key it does not know gets 401',
    catches: ['CPP-WK-1', 'PRF-WK-1'],
  },
  {
    name: 'op-media-type-case-sensitive',
    family: 'robustness',
    role: 'operator',
    description: 'the Operator matches Content-Type application/json case-sensitively, so Application/JSON gets 415',
    catches: ['PRF-HTTP-1'],
  },
  {
    name: 'op-redemption-s-unreduced',
    family: 'cashpack-crypto',
    role: 'operator',
    description: 'the Operator verifies Redemption Requests with a library that reduces S modulo L, so a signature with S + L verifies there (and only there)',
    catches: ['PRF-SIG-2', 'CPP-SIG-1'],
  },
  {
    name: 'op-balance-as-double',
    family: 'cashpack-lifecycle',
    role: 'operator',
    description: "the Operator reads a Principal's provisioned balance as a double, so a balance beyond 2^53 is rounded before anything is locked from it",
    catches: ['PRF-AMT-1', 'CPP-FND-1'],
  },
  {
    name: 'op-issue-201-created',
    family: 'cashpack-endpoints',
    role: 'operator',
    description: 'the Operator answers a Lock Request it grants with 201 Created and the pack, as a REST framework answers a POST that creates a resource, where the profile gives 200',
    catches: ['CPP-ISS-1'],
  },
  {
    name: 'op-jwk-kid-unchecked',
    family: 'encoding',
    role: 'operator',
    description: "the Operator takes a key's kid as written and never compares it with the key's RFC 7638 thumbprint, as a reader that keys accounts by the kid it is given does",
    catches: ['PRF-JWK-1'],
  },
  {
    name: 'op-created-at-fraction-accepted',
    family: 'encoding',
    role: 'operator',
    description: "the Operator reads a message's created_at with the CPR timestamp rule, so a fraction of a second is accepted instead of MALFORMED_REQUEST",
    catches: ['PRF-TIME-1', 'PRF-MSG-1'],
  },
  {
    name: 'op-body-limit-from-content-length',
    family: 'robustness',
    role: 'operator',
    description: 'the Operator judges max_body_bytes by the Content-Length header behind a front server that takes up to 1 MiB, so a body sent chunked, without one, is read whatever its size',
    catches: ['PRF-HTTP-1'],
  },
  {
    name: 'payee-control-bom-stripped',
    family: 'encoding',
    role: 'payee',
    description: 'the payee drops a byte order mark before a test-control request body, as many JSON body parsers do, so a body that is not I-JSON is taken',
    catches: ['PRF-JSON-1'],
  },
  {
    name: 'op-control-bom-stripped',
    family: 'encoding',
    role: 'operator',
    description: 'the Operator drops a byte order mark before a provisioning request body (principals, redeemers, staff), so a body that is not I-JSON is taken',
    catches: ['PRF-JSON-1', 'PRF-CTL-1'],
  },
  {
    name: 'payee-control-error-plain-json',
    family: 'test-control',
    role: 'payee',
    description: 'the payee refuses invalid test-control input (an amount, a memo, a rail hint ...) with a 400 in its own JSON shape, as validation middleware does, not a problem document',
    catches: ['PRF-ERR-1'],
  },
  // ------------------------------------------------------ caught by the fuzzer
  // Faults nobody placed a check for (catcher 'fuzzer'): the suite need not kill
  // them, the fuzzer of their role must (test/harness/fuzz/). Their code is in
  // reference/faults/.
  {
    name: 'op-replay-store-off',
    family: 'cashpack-errors',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'the replay store never reports an id as seen, so every message id may be used again',
    catches: ['CPP-RPL-1'],
  },
  {
    name: 'op-replay-store-once',
    family: 'cashpack-errors',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'the replay store lets exactly one duplicate id through, then works: a failure that does not come back',
    catches: ['CPP-RPL-1'],
  },
  {
    name: 'op-digest-unchecked',
    family: 'cashpack-crypto',
    role: 'operator',
    catcher: 'fuzzer',
    description: "renew step 9 is left out: a renewal's prev_chain_digest is never compared with the pack's chain_digest",
    catches: ['CPP-CHN-2'],
  },
  {
    name: 'op-non-atomic-redeem',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'redeem checks the pack, then yields 5 ms before it moves the funds, without checking again',
    catches: ['CPP-RACE-1'],
  },
  {
    name: 'op-pack-expiry-late',
    family: 'cashpack-endpoints',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'issue answers with a pack whose expiry is a second later than requested, properly signed: only a comparison of the returned members sees it',
    catches: ['CPP-ISS-1'],
  },
  {
    name: 'op-identity-level-strict',
    family: 'cashpack-errors',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'redeem step 9 compares with <= where the profile says <: a redeemer exactly at required_identity_level is refused REDEEMER_NOT_IDENTIFIED',
    catches: ['CPP-IDN-1'],
  },
  {
    name: 'op-contended-redeem-refused',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'redemptions of one pack that meet in flight are all refused INSTRUMENT_NOT_ACTIVE: of concurrent redemptions none succeeds',
    catches: ['CPP-RACE-1'],
  },
  {
    name: 'op-redeemer-credit-lost-update',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'redeem credits the redeemer by reading its credit, waiting 20 ms and writing the sum back, so concurrent redemptions to one redeemer lose credit',
    catches: ['CPP-RED-1', 'CPP-FND-1'],
  },
  {
    name: 'op-redeem-rechecks-status-only',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'redeem checks, waits 20 ms on a ledger round trip, then re-checks only that the pack is still ACTIVE, so a renewal in between goes unseen',
    catches: ['CPP-CHN-1', 'CPP-RACE-1'],
  },
  {
    name: 'op-cancel-unchecked-after-wait',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'cancel checks that the pack is ACTIVE, waits 20 ms on a legal hold service, then cancels without checking again',
    catches: ['CPP-RACE-1'],
  },
  {
    name: 'op-status-depth-before-pack',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: "a renewal writes the pack's chain_depth column 20 ms before the signed pack, so a status read in between shows a depth no pack has",
    catches: ['CPP-CHN-1'],
  },
  {
    name: 'op-balance-in-doubles',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: "issue computes the Principal's new available balance in binary floating point, so amounts beyond 2^53 are rounded",
    catches: ['CPP-FND-1'],
  },
  {
    name: 'op-balance-asset-blind',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: "issue step 9 reads the Principal's balance whatever asset the Lock Request names",
    catches: ['CPP-BAL-1'],
  },
  {
    name: 'op-limit-before-asset',
    family: 'cashpack-errors',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'issue checks max_amount before the asset, so a request breaking both is refused AMOUNT_EXCEEDS_LIMIT instead of ASSET_NOT_SUPPORTED',
    catches: ['PRF-ORDER-1'],
  },
  {
    name: 'op-lookup-before-pack-signature',
    family: 'cashpack-crypto',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'renew and redeem look pack_id up before they verify the presented cash-pack, so a forged pack with an unknown id is refused NOT_FOUND instead of INVALID_SIGNATURE',
    catches: ['CPP-SIG-1'],
  },
  {
    name: 'op-renewal-stamps-issued-at',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: "a renewal re-signs the pack with issued_at set to the Operator's now, as if it were a new issue",
    catches: ['PRF-MSG-1'],
  },
  {
    name: 'op-identity-window-from-created-at',
    family: 'cashpack-crypto',
    role: 'operator',
    catcher: 'fuzzer',
    description: "the redeemer's HTTP signature created is judged against the Redemption Request's created_at instead of the Operator's clock",
    catches: ['CPP-IDN-1'],
  },
  {
    name: 'op-verification-cached-by-digest',
    family: 'cashpack-crypto',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'cash-pack verification is cached by chain_digest: a digest once verified passes, whatever else the presented pack says',
    catches: ['CPP-SIG-1'],
  },
  {
    name: 'op-identity-level-cached',
    family: 'cashpack-errors',
    role: 'operator',
    catcher: 'fuzzer',
    description: "a redeemer's identity level is cached at its first identification, so a re-provisioned level is never seen",
    catches: ['CPP-IDN-1'],
  },
  {
    name: 'op-reprovision-replaces-account',
    family: 'test-control',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'provisioning a known Principal again replaces its account, forgetting its locked and held funds and its active packs',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'op-replay-store-capacity',
    family: 'cashpack-errors',
    role: 'operator',
    catcher: 'fuzzer',
    description: 'the replay store holds at most 1 000 ids, forgetting the oldest first, so an id within its window is accepted again',
    catches: ['CPP-RPL-1'],
  },
  {
    name: 'op-expiry-sweep-limited',
    family: 'cashpack-lifecycle',
    role: 'operator',
    catcher: 'fuzzer',
    description: "expiry before a balance is read or checked visits only the first 16 of a Principal's active packs",
    catches: ['CPP-EXP-2', 'CPP-FND-1'],
  },
  {
    name: 'payee-token-prefix-lookup',
    family: 'retrieval-token',
    role: 'payee',
    catcher: 'fuzzer',
    description: "tokens are looked up by prefix (a LIKE 'token%' query): a truncated token of 8 characters or more serves the CPR",
    catches: ['TOK-AUTH-1'],
  },
  {
    name: 'payee-token-case-insensitive',
    family: 'retrieval-token',
    role: 'payee',
    catcher: 'fuzzer',
    description: 'tokens are compared case-insensitively (a case-insensitive collation): an upper-case token serves the CPR',
    catches: ['TOK-AUTH-1'],
  },
  {
    name: 'payee-token-extension-ignored',
    family: 'retrieval-token',
    role: 'payee',
    catcher: 'fuzzer',
    description: 'only the first 32 characters of the path are looked up (a fixed-width column): an extended token serves the CPR',
    catches: ['TOK-AUTH-1'],
  },
  {
    name: 'payee-token-prefix-stripped',
    family: 'retrieval-token',
    role: 'payee',
    catcher: 'fuzzer',
    description: 'a token is found by suffix (a route that strips an unknown prefix): a prefixed token serves the CPR',
    catches: ['TOK-AUTH-1'],
  },
  {
    name: 'payee-token-expiry-instant-served',
    family: 'retrieval-token',
    role: 'payee',
    catcher: 'fuzzer',
    description: "the token's lifetime is compared with >: at token_expires_at itself the token still serves the CPR once",
    catches: ['TOK-EXP-1'],
  },
  {
    name: 'payee-refusal-burns-token',
    family: 'retrieval-token',
    role: 'payee',
    catcher: 'fuzzer',
    description: 'a failed lookup burns the lower-cased token: presenting the upper-case token consumes the real one',
    catches: ['TOK-ONCE-1'],
  },
  {
    name: 'payee-plaintext-refusal-get-only',
    family: 'retrieval-token',
    role: 'payee',
    description: 'over plaintext only GET /cpr/<token> is refused TLS_REQUIRED; another method gets its ordinary answer (405), where PROFILE.md §10 refuses every /cpr/* request in the clear',
    catches: ['PRF-TOK-1'],
  },
  {
    name: 'payee-plaintext-unknown-token-denied',
    family: 'retrieval-token',
    role: 'payee',
    description: 'every string presented over plaintext goes on a deny-list, issued or not, and a lookup that finds no token answers a listed one TOKEN_CONSUMED: a token never issued is answered as used once it travelled in the clear, where PROFILE.md §10 keeps it 404 TOKEN_UNKNOWN',
    catches: ['PRF-TOK-1'],
  },
  {
    name: 'payee-fulfil-forgets-token',
    family: 'retrieval-token',
    role: 'payee',
    description: "a fulfilment drops the request's retrieval token with it: presented afterwards, a used token is TOKEN_UNKNOWN and an unused live one too, where PROFILE.md §10 keeps every token known until a lifetime after it expired",
    catches: ['PRF-TOK-1'],
  },
  {
    name: 'payee-accept-matched-literally',
    family: 'retrieval-token',
    role: 'payee',
    description: 'a retrieval whose Accept does not spell application/json or */* in lower case is answered 406, the token unspent: Accept: application/* or Application/JSON takes the JSON the payee serves (RFC 9110 §12.5.1, §8.3.1) and is refused',
    catches: ['TOK-GET-1'],
  },
  {
    name: 'payee-retrieval-drops-null-members',
    family: 'retrieval-token',
    role: 'payee',
    description: "the CPR a token serves is written with its null members left out: an extension whose value is null is missing from the retrieval, where the token serves the full CPR the payee made (spec §4.1, §4.4)",
    catches: ['TOK-GET-1'],
  },
  {
    name: 'payee-rail-hint-bound-to-sub-interface',
    family: 'cpr-structure',
    role: 'payee',
    description: "the payee refuses a rail_hint usual for another sub-interface's address (an ACCOUNT request hinted SWIFT, an IBAN request hinted PIX), where PROFILE.md §7.4 binds only ON_CHAIN and keeps every other hint advisory",
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'payee-retrieval-bom-non-ascii',
    family: 'retrieval-token',
    role: 'payee',
    description: 'a CPR with text outside ASCII (a memo, a display_name in another script) is served with the UTF-8 byte order mark in front, where PROFILE.md §1 writes JSON as I-JSON, UTF-8 without one (RFC 8259 §8.1)',
    catches: ['PRF-JSON-1', 'TOK-GET-1'],
  },
  {
    name: 'payee-display-name-trimmed',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the display_name a payee is asked for is written trimmed of the white space at its ends (a space, a no-break or an ideographic space), where PROFILE.md §12 writes it as the request\'s payee.display_name',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'payee-extension-proto-member-lost',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the payee copies extensions member by member by assignment, so a member named __proto__ at any depth sets the copy\'s prototype and is not served',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'payee-extension-arrays-copied-as-objects',
    family: 'cpr-structure',
    role: 'payee',
    description: 'the extensions a payee is asked for are copied by a hand-written deep copy that takes arrays for objects: ["gift"] is written {"0":"gift"}, where PROFILE.md §12 writes the members it took into the request',
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'payee-token-store-plain-object',
    family: 'retrieval-token',
    role: 'payee',
    description: 'the token store is looked up as a plain object, so /cpr/constructor, /cpr/__proto__ and the like are served (an empty document) instead of 404 TOKEN_UNKNOWN',
    catches: ['TOK-AUTH-1', 'PRF-TOK-1'],
  },
  {
    name: 'payee-read-consumes-request',
    family: 'test-control',
    role: 'payee',
    description: 'reading a request through its token (GET /cpr/<token>) also marks it fulfilled, so its first fulfilment after a read is refused REQUEST_CONSUMED',
    catches: ['PRF-CTL-1', 'DRV-SINGLE-1'],
  },
  {
    name: 'payee-fulfil-on-token-window',
    family: 'test-control',
    role: 'payee',
    catcher: 'fuzzer',
    description: "fulfilment is judged against the token's expiry instead of the request's: refused REQUEST_EXPIRED once the token expired",
    catches: ['PRF-CTL-1'],
  },
  {
    name: 'payee-refusal-cacheable',
    family: 'retrieval-token',
    role: 'payee',
    catcher: 'fuzzer',
    description: 'refusals of /cpr are sent without Cache-Control (only the 200 route sets it)',
    catches: ['PRF-TOK-1'],
  },
  {
    name: 'payee-fulfil-check-then-act',
    family: 'derivation',
    role: 'payee',
    catcher: 'fuzzer',
    description: 'fulfilment checks, then records, with a store round trip between: concurrent fulfilments of one request all succeed',
    catches: ['DRV-SINGLE-1'],
  },
  {
    name: 'app-media-type-exact',
    family: 'delivery',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: 'only the exact media type application/json is taken from a retrieval: application/json; charset=utf-8 is refused',
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-length-from-header',
    family: 'delivery',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: "the retrieval's body limit is checked against Content-Length only: a chunked body of any size is read",
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-retry-on-server-error',
    family: 'delivery',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: 'a 5xx answer to a retrieval is retried once: the single-use token is sent twice',
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-retry-on-throttle',
    family: 'delivery',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: 'a 408 or 429 answer to a retrieval is taken for throttling and retried once: the single-use token is sent twice',
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-base-path-dropped',
    family: 'delivery',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: "the retrieval URL is resolved against the endpoint's origin (new URL('/cpr/' + token, endpoint)): its base path is lost",
    catches: ['DLV-RESOLVE-1'],
  },
  {
    name: 'app-endpoint-query-swallowed',
    family: 'delivery',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: 'the endpoint of a token URI is everything after endpoint=, other query parameters included',
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-plaintext-endpoint-retrieved',
    family: 'delivery',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: "an http:// endpoint is retrieved as it is, by the application's own URI parser: the token travels in the clear",
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-bom-stripped',
    family: 'encoding',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: "a byte order mark before direct JSON is dropped (a text reader's convenience), so the document is read",
    catches: ['PRF-JSON-1'],
  },
  {
    name: 'app-reference-trimmed',
    family: 'derivation',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: "the Payment's intent.reference is the memo trimmed of white space",
    catches: ['DRV-INTENT-1'],
  },
  {
    name: 'app-retrieval-client-json',
    family: 'delivery',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: "the retrieved body is parsed with the HTTP client's own JSON reader (a BOM dropped, the last of two equal members kept), then read as a value",
    catches: ['PRF-APP-1'],
  },
  {
    name: 'app-nanosecond-fraction-accepted',
    family: 'encoding',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: 'fraction digits beyond milliseconds are refused only up to microseconds: a timestamp with 7 to 9 is read',
    catches: ['PRF-TIME-1'],
  },
  {
    name: 'app-nested-duplicate-accepted',
    family: 'encoding',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: "member names are checked for duplicates among the document's own members only: one written twice inside payee, value or extensions is read, the last copy kept",
    catches: ['PRF-JSON-1', 'PRF-APP-1'],
  },
  {
    name: 'app-payer-depth-limited',
    family: 'cpr-structure',
    role: 'paying-app',
    catcher: 'fuzzer',
    description: 'payer data is looked for three objects deep below extensions only: anything deeper is read',
    catches: ['CPR-PAYER-1', 'PRF-PAYER-1'],
  },
] as const satisfies readonly MutantSpec[];

export type MutantName = (typeof CATALOGUE)[number]['name'];

type FuzzerEntry = Extract<(typeof CATALOGUE)[number], { readonly catcher: 'fuzzer' }>;

/** The fuzzer mutants (catcher 'fuzzer'), as a type. */
export type FuzzerMutantName = FuzzerEntry['name'];

/** The fuzzer mutants of one role, as a type: the table of its faulty parts in reference/faults/ names every one. */
export type FuzzerMutantOfRole<R extends Role> = Extract<FuzzerEntry, { readonly role: R }>['name'];

/** The suite's mutants of one role, as a type: a table keyed by it must name every one. */
export type MutantOfRole<R extends Role> = Exclude<Extract<(typeof CATALOGUE)[number], { readonly role: R }>['name'], FuzzerMutantName>;

/** The catalogue, each entry with its catcher ('suite' where it names none). */
export const MUTANTS: readonly (MutantSpec & { readonly name: MutantName; readonly catcher: Catcher })[] = CATALOGUE.map((m) => ({ catcher: 'suite' as const, ...m }));

/** Which fault is switched on: at most one. */
export interface Faults {
  has(name: MutantName): boolean;
  /** True when the fault switched on is one of `names` (a part of the reference written again for several faults: reference/faults/). */
  hasAny(names: readonly MutantName[]): boolean;
  /** The mutant switched on, if any. */
  readonly active?: MutantName;
}

/** The reference as it should be. */
export const NO_FAULTS: Faults = Object.freeze({ has: () => false, hasAny: () => false });

export function isMutantName(name: string): name is MutantName {
  return MUTANTS.some((m) => m.name === name);
}

/** The faults of a mutant chosen by name; undefined is the correct reference. Throws for an unknown name. */
export function faultsFor(name: string | undefined): Faults {
  if (name === undefined) return NO_FAULTS;
  if (!isMutantName(name)) {
    throw new Error(`unknown mutant ${JSON.stringify(name)}; the mutants are: ${MUTANTS.map((m) => m.name).join(', ')}`);
  }
  return Object.freeze({ has: (candidate: MutantName) => candidate === name, hasAny: (names: readonly MutantName[]) => names.includes(name), active: name });
}

/**
 * The reference as it should be, noting each switch it consults: `has` answers
 * false and remembers the name. selftest runs the suite against it one test at
 * a time to learn which tests reach each mutant's switch: a test that never
 * consults a mutant's switch runs the same with that fault on, for the fault
 * changes nothing before its switch is asked.
 */
export class SwitchRecorder {
  readonly #consulted = new Set<MutantName>();
  readonly faults: Faults = Object.freeze({
    has: (name: MutantName) => {
      this.#consulted.add(name);
      return false;
    },
    hasAny: (names: readonly MutantName[]) => {
      for (const name of names) this.#consulted.add(name);
      return false;
    },
  });

  /** The switches consulted since the last take, sorted; forgets them. */
  take(): MutantName[] {
    const names = [...this.#consulted].sort();
    this.#consulted.clear();
    return names;
  }
}

/** One line per mutant (name, role, who must catch it, description), for `serve --list-mutants` and help texts. */
export function describeMutants(): string {
  const width = Math.max(...MUTANTS.map((m) => m.name.length));
  return MUTANTS.map((m) => `${m.name.padEnd(width)}  ${m.role.padEnd(10)}  ${m.catcher.padEnd(6)}  ${m.description}`).join('\n') + '\n';
}
