// The equivalence and boundary classes of the profile's fields, as data: what
// each class holds, and which kinds of field have it. The field inventory
// (harness/properties/fields.ts) gives every field of the schemas a kind, so
// every field gets the classes of its kind; the properties declare which
// (field, class) pairs they generate, and the coverage table is computed from
// both. A class is a set of inputs a target must treat alike (every member of
// it accepted, or every member refused, or carried unchanged), with its
// boundaries: a fault that lives in one member of a class is reached by
// generating across the class, not by one sample placed where someone expected
// the bug.

/** What a field holds, as far as its classes go. */
export const FIELD_KINDS = [
  'identifier',
  'timestamp',
  'amount',
  'free-text',
  'enumeration',
  'code',
  'binary',
  'signature',
  'public-key',
  'integer',
  'list',
  'opaque',
  'document',
  'request-body',
  'token',
  'public-get',
  'authenticated-get',
  'retrieval',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export interface FieldClass {
  readonly id: string;
  /** One line: the members of the class, and what a target does with every one of them. */
  readonly summary: string;
}

/** Every class, by family. IDs are stable: properties and the README table name them. */
export const FIELD_CLASSES = [
  // text
  { id: 'identifier.case', summary: 'a UUID in upper or mixed case: refused on input, never written' },
  { id: 'identifier.form', summary: 'braces, urn:uuid:, no hyphens, a digit short or over: refused' },
  { id: 'text.non-ascii', summary: 'BMP, astral, combining and format characters, line breaks and other controls, white space at either end or alone: carried exactly' },
  { id: 'text.length', summary: 'at the bound in code points with more UTF-16 units and UTF-8 bytes than the bound: accepted; one code point over: refused; the least length (the empty text where a field takes it): accepted; one under: refused' },
  { id: 'text.normalisation', summary: 'NFC and NFD spellings of one text: carried as written, never normalised' },
  { id: 'enum.case', summary: 'a listed value in another letter case: not that value' },
  { id: 'code.case', summary: 'a code in another letter case than its format allows: refused (an EVM address: its checksum decides)' },
  // numbers
  { id: 'amount.large', summary: 'beyond 2^53, up to 78 digits: carried and computed exactly' },
  { id: 'amount.non-canonical', summary: 'zero, leading zero, sign, exponent, fraction, white space, a JSON number: refused' },
  { id: 'amount.bound', summary: 'at and one unit either side of the bound the target publishes or the request sets' },
  // time
  { id: 'timestamp.fraction', summary: 'a fraction of 1 to 9 digits (CPR: 1 to 3 accepted, more refused; cash-pack: any refused)' },
  { id: 'timestamp.offset', summary: 'an offset other than Z, a lower-case t or z, no zone: refused' },
  { id: 'timestamp.leap-second', summary: 'second 60, hour 24, a day the month does not have: refused' },
  { id: 'timestamp.dst', summary: 'instants inside daylight-saving time of common zones, judged with the process time zone set to them; for a clock, also past where integer writings of time run out (2038, 2106, 2262) and in the year 9000' },
  { id: 'timestamp.boundary', summary: 'at, and within one second either side of, the instant its rule compares with (sub-second included)' },
  // encodings
  { id: 'binary.non-canonical', summary: 'padding, the standard alphabet, non-zero unused bits, white space, a wrong length: refused' },
  { id: 'signature.malleable', summary: 'S ≥ L, a non-canonical R, a small-order R under the right key, a mixed-order R only the cofactored equation accepts: refused as INVALID_SIGNATURE' },
  { id: 'signature.input', summary: 'a signature by the right key over another signing input than PROFILE.md §2.2\'s: another type\'s tag, the tag named after a profile identifier, in another letter case or spelling, no tag, another separator, the object not in JCS or with its signature member: refused as INVALID_SIGNATURE' },
  { id: 'key.weak', summary: 'a small-order or non-canonical A: its signatures refused; a kid that is not its thumbprint: malformed' },
  { id: 'key.mixed-order', summary: 'A with a small-order component, signing so that both equations hold (speccheck case 3): accepted' },
  { id: 'signed.altered', summary: 'a signed member changed after signing: INVALID_SIGNATURE' },
  { id: 'json.escaped-name', summary: 'member names written with \\u escapes (and, with every character of the names, string values\' non-ASCII characters, a pair of escapes beyond the BMP), and each object\'s members in another order: the same members' },
  { id: 'json.duplicate', summary: 'a member twice, spelled plainly or with escapes, at any depth: refused' },
  { id: 'json.bom', summary: 'a UTF-8 byte order mark before the document: refused' },
  // HTTP
  { id: 'path.segment', summary: 'an identifier in a path written as none: a percent sign without two hex digits, escapes of bytes that are not UTF-8, other escapes, long text: a 4xx problem, never a 5xx' },
  { id: 'http.media-type', summary: 'application/json in any letter case, with parameters and white space: accepted; other types: 415' },
  { id: 'http.chunked', summary: 'a body sent in pieces without Content-Length: read at max_body_bytes, 413 one byte over, as with a Content-Length' },
  { id: 'http.untrusted-headers', summary: "client headers that must not be trusted (X-Forwarded-*, Forwarded, a Host naming another host, or the target's own on another port or written another way): change nothing, or the request is refused" },
  { id: 'http.signature-label', summary: "an HTTP Message Signature valid in every way but its label, which is not `cpp` (RFC 9421's sig1, cpp with letters before or after it, cut short, in capitals, any other key): identifies nobody" },
  { id: 'http.signed-get', summary: 'a public document fetched with an HTTP Message Signature: served as without one' },
  { id: 'http.method', summary: 'a method the resource does not take: 405 METHOD_NOT_ALLOWED with an Allow header naming the methods it takes' },
  { id: 'http.path', summary: 'a path near the resource that names none (a segment more before or after, another of the profile\'s paths before it, a longer last segment, another version): 404 NOT_FOUND' },
  { id: 'http.problem', summary: 'every error: application/problem+json with type, title, status and code as PROFILE.md §11 gives them' },
  // what a paying application retrieves (PROFILE.md §8.3)
  { id: 'retrieval.status', summary: "any 4xx or 5xx (the payee's own refusals with their problem documents among them), any 3xx pointing anywhere (its host, another name, plaintext, itself, nowhere): RETRIEVAL_FAILED, the token sent once and never where a redirect points" },
  { id: 'retrieval.media-type', summary: 'application/json in other letter case or with parameters: read; another media type or none: read or refused' },
  { id: 'retrieval.body', summary: 'chunked without Content-Length at and over 65 536 bytes, slow, cut off, empty or not JSON: read when whole, JSON and at most the bound; refused otherwise' },
  // credentials
  { id: 'token.altered', summary: 'a retrieval token truncated, extended, prefixed or in upper case: unknown, and the real token untouched' },
  { id: 'token.channel', summary: 'single use through every delivery channel (the token, the QR URI, the deep link)' },
  // recursive and derived data
  { id: 'payer.depth', summary: 'a payer-named member at any depth of extensions: never served, refused' },
  { id: 'json.lookalike', summary: 'strings that look like another type (date-times in every zone and fraction, impossible dates, long or signed integers, exponents, hex, true/null), alone, in arrays and objects: carried as written' },
  { id: 'derived.exact', summary: 'copied into the Payment unchanged: no member added, dropped or re-formed' },
] as const satisfies readonly FieldClass[];

export type FieldClassId = (typeof FIELD_CLASSES)[number]['id'];

/** The classes a field of each kind has, whatever its document. */
export const CLASSES_OF_KIND: Readonly<Record<FieldKind, readonly FieldClassId[]>> = {
  identifier: ['identifier.case', 'identifier.form'],
  timestamp: ['timestamp.fraction', 'timestamp.offset', 'timestamp.leap-second', 'timestamp.dst', 'timestamp.boundary'],
  amount: ['amount.large', 'amount.non-canonical', 'amount.bound'],
  'free-text': ['text.non-ascii', 'text.length', 'text.normalisation'],
  enumeration: ['enum.case'],
  code: ['code.case'],
  binary: ['binary.non-canonical'],
  signature: ['signature.malleable', 'signature.input', 'binary.non-canonical'],
  'public-key': ['key.weak', 'key.mixed-order'],
  integer: [],
  list: [],
  opaque: ['derived.exact'],
  document: ['json.escaped-name', 'json.duplicate', 'json.bom'],
  'request-body': ['json.escaped-name', 'json.duplicate', 'json.bom', 'http.media-type', 'http.chunked', 'http.problem'],
  token: ['token.altered', 'token.channel'],
  'public-get': ['http.signed-get', 'http.untrusted-headers'],
  'authenticated-get': ['http.untrusted-headers', 'http.problem', 'signature.malleable', 'http.signature-label', 'path.segment'],
  retrieval: ['retrieval.status', 'retrieval.media-type', 'retrieval.body'],
};

export function isFieldClass(id: string): id is FieldClassId {
  return FIELD_CLASSES.some((c) => c.id === id);
}

/** One generated member of a class: the value, and what makes it that member. */
export interface ClassValue<T = unknown> {
  readonly class: FieldClassId;
  readonly value: T;
  /** Shown when a check fails: which member of the class this is. */
  readonly note: string;
}
