// malformedBody: request bodies an Operator must answer with a profile 4xx problem
// (PROFILE.md §1, §5 step 1, §11; CPP-ERR-1), each derived from a real, valid,
// signed message of the chosen kind so that exactly one thing is wrong:
//
// | layer  | kinds                                                                  | status | code                   |
// |--------|------------------------------------------------------------------------|--------|------------------------|
// | http   | oversize (valid JSON padded with white space past maxBodyBytes)        | 413    | PAYLOAD_TOO_LARGE      |
// | http   | wrong-content-type (a valid body under another media type)             | 415    | UNSUPPORTED_MEDIA_TYPE |
// | json   | truncated, trailing-comma, single-quotes, nan, comment, unquoted-key,  | 400    | MALFORMED_REQUEST      |
// |        | bad-number, duplicate-key, lone-surrogate, control-character, bom,     |        |                        |
// |        | huge-number (overflows a double: 1e400), deep-nesting (33..200),       |        |                        |
// |        | invalid-utf8, empty                                                    |        |                        |
// | schema | wrong-type, huge-integer (100..300 digits: valid I-JSON, but a number  | 400    | MALFORMED_REQUEST      |
// |        | where the schema wants a string), not-an-object                        |        |                        |
//
// parseIJson rejects every `json` body; `schema` bodies are valid I-JSON that
// validateMessage rejects; `http` bodies are otherwise valid messages. Every body
// but the wrong-content-type ones is sent as application/json. The size is
// judged first (PROFILE.md §5 step 1): whatever else is wrong, a body larger than
// maxBodyBytes expects 413 PAYLOAD_TOO_LARGE, so the bodies serve every limit a
// policy may set, the smallest included.
import fc from 'fast-check';
import { notUtf8, withBytesAt } from './parts/utf8.ts';
import { validLockRequest, validRedemption, validRenewal, type CashpackMessageKind } from './cashpack/index.ts';

export type MalformedLayer = 'http' | 'json' | 'schema';

export const MALFORMED_KINDS = [
  'oversize',
  'wrong-content-type',
  'truncated',
  'trailing-comma',
  'single-quotes',
  'nan',
  'comment',
  'unquoted-key',
  'bad-number',
  'duplicate-key',
  'lone-surrogate',
  'control-character',
  'bom',
  'huge-number',
  'deep-nesting',
  'invalid-utf8',
  'empty',
  'wrong-type',
  'huge-integer',
  'not-an-object',
] as const;
export type MalformedKind = (typeof MALFORMED_KINDS)[number];

export interface MalformedBody {
  readonly bytes: Uint8Array;
  /** The Content-Type header to send. */
  readonly contentType: string;
  readonly kind: MalformedKind;
  readonly layer: MalformedLayer;
  readonly expectedStatus: 400 | 413 | 415;
  readonly code: 'MALFORMED_REQUEST' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE';
  /** PRF-HTTP-1 (http), PRF-JSON-1 (json) or PRF-MSG-1 (schema). */
  readonly requirement: 'PRF-HTTP-1' | 'PRF-JSON-1' | 'PRF-MSG-1';
  /** The message kind the body pretends to be (its endpoint's). */
  readonly message: CashpackMessageKind;
  readonly description: string;
}

export interface MalformedBodyConstraints {
  /** The message the bodies are derived from. @defaultValue 'lock-request' (POST /v1/cashpack/issue) */
  readonly message?: CashpackMessageKind;
  /** The body limit (policy max_body_bytes), an integer from 1 to 16 777 216. @defaultValue 65536 */
  readonly maxBodyBytes?: number;
  /** Only these kinds. @defaultValue every kind */
  readonly kinds?: readonly MalformedKind[];
}

const LAYER: Readonly<Record<MalformedKind, MalformedLayer>> = Object.fromEntries(
  MALFORMED_KINDS.map((k) => [k, k === 'oversize' || k === 'wrong-content-type' ? 'http' : k === 'wrong-type' || k === 'huge-integer' || k === 'not-an-object' ? 'schema' : 'json']),
) as Record<MalformedKind, MalformedLayer>;

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8'];
const WRONG_TYPES = [
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonx',
  'application/json-patch+json',
  'application/problem+json',
  'application/octet-stream',
];

const encoder = new TextEncoder();
const utf8 = (text: string): Uint8Array => encoder.encode(text);

type Json = Record<string, unknown>;
type Made = { readonly bytes: Uint8Array; readonly description: string; readonly contentType?: string };

/** Top-level and second-level member paths of the base message, with their values. */
function members(doc: Json): [string[], unknown][] {
  const out: [string[], unknown][] = [];
  for (const [k, v] of Object.entries(doc)) {
    out.push([[k], v]);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) for (const [k2, v2] of Object.entries(v)) out.push([[k, k2], v2]);
  }
  return out;
}

function replaceAt(doc: Json, path: readonly string[], value: unknown): Json {
  const copy = structuredClone(doc);
  let parent: Json = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Json;
  Object.defineProperty(parent, path[path.length - 1] as string, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** JSON text of `doc` with the value at `path` written as raw `text` (which may be anything). */
function withRaw(doc: Json, path: readonly string[], text: string): string {
  const marker = '\u0000RAW\u0000';
  return JSON.stringify(replaceAt(doc, path, marker)).replace(JSON.stringify(marker), text);
}

function wrongTypeFor(value: unknown): unknown[] {
  if (typeof value === 'string') return [Number.isFinite(Number(value)) && value !== '' ? Number(value) : 42, true, null, [value], { value }];
  if (Array.isArray(value)) return [{}, 'x', 0];
  if (typeof value === 'object' && value !== null) return ['x', [value], 1, null];
  return ['x', null, {}];
}

type Maker = (doc: Json, text: string, max: number) => fc.Arbitrary<Made>;

const MAKERS: Readonly<Record<MalformedKind, Maker>> = {
  oversize: (_doc, text, max) =>
    fc.integer({ min: 1, max: 4096 }).map((over) => {
      // White space between tokens is valid JSON: only the size is wrong.
      const bytes = utf8(`{${' '.repeat(Math.max(1, max + over - utf8(text).length))}${text.slice(1)}`);
      return { bytes, description: `a valid body of ${bytes.length} bytes (limit ${max})` };
    }),
  'wrong-content-type': (_doc, text) => fc.constantFrom(...WRONG_TYPES).map((type) => ({ bytes: utf8(text), contentType: type, description: `a valid body sent as ${type}` })),
  truncated: (_doc, text) => fc.integer({ min: 1, max: text.length - 1 }).map((n) => ({ bytes: utf8(text.slice(0, n)), description: `the first ${n} of ${text.length} bytes` })),
  'trailing-comma': (_doc, text) =>
    fc.constantFrom(
      { bytes: utf8(`${text.slice(0, -1)},}`), description: 'a trailing comma before the final }' },
      { bytes: utf8(text.replace('}', ',}')), description: 'a trailing comma in the first nested object' },
      { bytes: utf8(`${text.slice(0, -1)},"com.example":[1,2,]}`), description: 'a trailing comma in an array' },
    ),
  'single-quotes': (_doc, text) =>
    fc.constantFrom(
      { bytes: utf8(text.replaceAll('"', "'")), description: 'single-quoted names and strings' },
      { bytes: utf8(text.replace(/"([a-z_]+)":/, "'$1':")), description: 'one single-quoted member name' },
    ),
  nan: (doc) =>
    fc.tuple(fc.constantFrom(...members(doc)), fc.constantFrom('NaN', 'Infinity', '-Infinity', 'undefined')).map(([[path], word]) => ({
      bytes: utf8(withRaw(doc, path, word)),
      description: `${path.join('.')} is ${word}`,
    })),
  comment: (_doc, text) =>
    fc.constantFrom(
      { bytes: utf8(`/* comment */${text}`), description: 'a /* */ comment' },
      { bytes: utf8(`// comment\n${text}`), description: 'a // comment' },
      { bytes: utf8(`${text.slice(0, -1)} /* c */}`), description: 'a comment before the final }' },
    ),
  'unquoted-key': (_doc, text) => fc.constant({ bytes: utf8(text.replace(/^\{"([a-z_]+)":/, '{$1:')), description: 'an unquoted member name' }),
  'bad-number': (doc) =>
    fc.tuple(fc.constantFrom(...members(doc)), fc.constantFrom('0x10', '0123', '+1', '.5', '1.', '1e', '--1', '1_000')).map(([[path], n]) => ({
      bytes: utf8(withRaw(doc, path, n)),
      description: `${path.join('.')} is ${n}, not a JSON number`,
    })),
  'duplicate-key': (doc, text) =>
    fc.constantFrom(...members(doc)).chain(([path, value]) =>
      fc.boolean().map((escaped) => {
        // The duplicate goes at the start of the member's object; JSON.parse would keep the last silently.
        const key = path[path.length - 1] as string;
        const name = escaped ? `"\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}${key.slice(1)}"` : JSON.stringify(key);
        const parent = path.slice(0, -1);
        const dup = `${name}:${JSON.stringify(value)},`;
        if (parent.length === 0) return { bytes: utf8(`{${dup}${text.slice(1)}`), description: `member ${key} twice${escaped ? ' (once written with a \\u escape)' : ''}` };
        const inner = JSON.stringify((doc as Record<string, Json>)[parent[0] as string]);
        return {
          bytes: utf8(withRaw(doc, parent, `{${dup}${inner.slice(1)}`)),
          description: `member ${path.join('.')} twice${escaped ? ' (once written with a \\u escape)' : ''}`,
        };
      }),
    ),
  'lone-surrogate': (doc) =>
    fc.tuple(fc.constantFrom(...members(doc)), fc.constantFrom('\\ud800', '\\udc00', '\\ud800\\u0041', 'x\\udbff')).map(([[path], s]) => ({
      bytes: utf8(withRaw(doc, path, `"${s}"`)),
      description: `${path.join('.')} holds the lone surrogate escape ${s}`,
    })),
  'control-character': (doc) =>
    fc.tuple(fc.constantFrom(...members(doc)), fc.integer({ min: 0, max: 0x1f })).map(([[path], c]) => ({
      bytes: utf8(withRaw(doc, path, `"a${String.fromCharCode(c)}b"`)),
      description: `${path.join('.')} holds the raw control character U+${c.toString(16).padStart(4, '0')}`,
    })),
  bom: (_doc, text) => fc.constant({ bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(text)]), description: 'a UTF-8 byte order mark' }),
  'huge-number': (doc) =>
    fc.tuple(fc.constantFrom(...members(doc)), fc.constantFrom('1e400', '-1e400', '1.5e309', '2E308', '1' + '0'.repeat(400))).map(([[path], n]) => ({
      bytes: utf8(withRaw(doc, path, n)),
      description: `${path.join('.')} is ${n.length > 20 ? `a ${n.length}-digit integer` : n}, beyond a double`,
    })),
  'deep-nesting': (doc) =>
    fc.tuple(fc.constantFrom(...members(doc).filter(([p]) => p.length === 1)), fc.integer({ min: 33, max: 200 }), fc.boolean()).map(([[path], depth, arrays]) => {
      // The top-level object is depth 1; the member's value adds depth − 1 levels.
      const n = depth - 1;
      const nested = arrays ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);
      return { bytes: utf8(withRaw(doc, path, nested)), description: `nesting depth ${depth} (limit 32) in ${path.join('.')}` };
    }),
  'invalid-utf8': (doc) =>
    fc
      .tuple(
        fc.constantFrom(...members(doc).filter(([, v]) => typeof v === 'string')),
        notUtf8,
      )
      .map(([[path], bad]) => ({
        bytes: withBytesAt(withRaw(doc, path, '"\u0001"'), '\u0001', bad.bytes),
        description: `${path.join('.')} holds the bytes ${bad.note}, which are not UTF-8`,
      })),
  empty: () => fc.constantFrom({ bytes: new Uint8Array(0), description: 'an empty body' }, { bytes: utf8(' \r\n\t'), description: 'a body of white space only' }),
  'wrong-type': (doc) =>
    fc.constantFrom(...members(doc)).chain(([path, value]) =>
      fc.constantFrom(...wrongTypeFor(value)).map((wrong) => ({
        bytes: utf8(JSON.stringify(replaceAt(doc, path, wrong))),
        description: `${path.join('.')} is ${JSON.stringify(wrong).slice(0, 40)} (wrong type)`,
      })),
    ),
  'huge-integer': (doc) =>
    fc
      .tuple(fc.constantFrom(...members(doc).filter(([, v]) => typeof v === 'string')), fc.integer({ min: 100, max: 300 }), fc.integer({ min: 1, max: 9 }))
      .map(([[path], digits, first]) => ({
        bytes: utf8(withRaw(doc, path, String(first) + '0'.repeat(digits - 1))),
        description: `${path.join('.')} is a ${digits}-digit JSON number (valid I-JSON, but not the schema's string)`,
      })),
  'not-an-object': (_doc, text) =>
    fc.constantFrom('[]', `[${text}]`, JSON.stringify(text), '42', 'null', 'true', '"lock"').map((body) => ({
      bytes: utf8(body),
      description: `a JSON ${body.startsWith('[') ? 'array' : body.startsWith('"') ? 'string' : 'scalar'} instead of an object`,
    })),
};

/** The largest body limit the bodies are made for: an oversize body is made in memory. */
export const MAX_BODY_BYTES = 16_777_216;

const ANSWERS = {
  tooLarge: { expectedStatus: 413, code: 'PAYLOAD_TOO_LARGE' },
  mediaType: { expectedStatus: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  malformed: { expectedStatus: 400, code: 'MALFORMED_REQUEST' },
} as const satisfies Record<string, Pick<MalformedBody, 'expectedStatus' | 'code'>>;

/** Malformed request bodies (see the header). Throws RangeError at construction for a bad constraint. */
export function malformedBody(constraints: MalformedBodyConstraints = {}): fc.Arbitrary<MalformedBody> {
  const { message = 'lock-request', maxBodyBytes = 65_536, kinds = MALFORMED_KINDS } = constraints;
  if (!['lock-request', 'renew-request', 'redeem-request'].includes(message)) {
    throw new RangeError(`malformedBody: constraints.message must be lock-request, renew-request or redeem-request, got ${String(message)}`);
  }
  if (typeof maxBodyBytes !== 'number' || !Number.isInteger(maxBodyBytes) || maxBodyBytes < 1 || maxBodyBytes > MAX_BODY_BYTES) {
    throw new RangeError(`malformedBody: constraints.maxBodyBytes must be an integer from 1 to ${MAX_BODY_BYTES}, got ${String(maxBodyBytes)}`);
  }
  if (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((k) => !(MALFORMED_KINDS as readonly string[]).includes(k))) {
    throw new RangeError(`malformedBody: constraints.kinds must be a non-empty subset of ${MALFORMED_KINDS.join(', ')}, got ${JSON.stringify(kinds)}`);
  }
  // A short chain keeps renew and redeem bodies far below the limit.
  const cases: fc.Arbitrary<{ readonly message: unknown }> = message === 'lock-request' ? validLockRequest() : message === 'renew-request' ? validRenewal({ maxPriorRenewals: 1 }) : validRedemption({ maxPriorRenewals: 1 });
  return fc
    .tuple(fc.constantFrom<MalformedKind>(...kinds), cases.map((c) => c.message as Json), fc.constantFrom(...JSON_TYPES))
    .chain(([kind, doc, jsonType]) =>
      MAKERS[kind](doc, JSON.stringify(doc), maxBodyBytes).map((made): MalformedBody => {
        // Too large is judged before anything else is read (PROFILE.md §5 step 1).
        const tooLarge = made.bytes.length > maxBodyBytes;
        const layer = tooLarge ? 'http' : LAYER[kind];
        const answer = tooLarge || kind === 'oversize' ? ANSWERS.tooLarge : kind === 'wrong-content-type' ? ANSWERS.mediaType : ANSWERS.malformed;
        return {
          bytes: made.bytes,
          contentType: made.contentType ?? jsonType,
          kind,
          layer,
          ...answer,
          requirement: layer === 'http' ? 'PRF-HTTP-1' : layer === 'json' ? 'PRF-JSON-1' : 'PRF-MSG-1',
          message,
          description: tooLarge && kind !== 'oversize' ? `${made.description}, in ${made.bytes.length} bytes: over the limit of ${maxBodyBytes}, which is judged first` : made.description,
        };
      }),
    );
}
