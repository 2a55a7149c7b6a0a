// PROP-OP-014: the Operator's HTTP surfaces, every class (PROFILE.md §1, §2.4,
// §4.8, §11, §12): a request body is application/json in any letter case and
// with parameters, and any other media type is 415; member names written with
// \u escapes are the same members, a member twice at any depth or a byte
// order mark is 400, on every endpoint and on the test-control bodies that
// provision accounts (the clock's is PROP-CTL-002's: it moves shared state); a body
// sent chunked, without Content-Length, is read at max_body_bytes and is 413
// one byte over; a
// public document fetched with an HTTP Message Signature, or with forwarding
// headers, is served as without; a forwarding header never stands in for the
// authority a signature covers; a Host naming another host (or the
// Operator's own written another way) is refused or changes nothing, and a
// signature made for the authority it names identifies nobody, while one made
// for the Operator's own host on another port identifies its signer; a status read
// with a query is signed over its path alone (RFC 9421 @path); the headers of a
// read just answered, sent word for word for another path, identify nobody, nor
// does the Principal's key under its kid with letters in another case, nor its
// valid signature under a label other than cpp; a status read by the Principal
// whose pack_id segment is no identifier (a percent sign without two hex
// digits, escapes of bytes that are not UTF-8, long text) is a 4xx problem,
// never a 5xx; and every refusal is a problem document.
import fc from 'fast-check';
import { buildLockRequest, createSigningKey, type CashPack, type SigningKey } from '../../../profile/cashpack/index.ts';
import { signRequestAs } from '../../../profile/http-signature.ts';
import { recased } from '../../../generators/cashpack/corruptions.ts';
import { foreignHost, hostChoice, mediaTypeVariant, pathSegment, signatureLabel, untrustedHeaders, type ClassValue, type HostChoice, type UntrustedHeaders } from '../../../generators/classes/index.ts';
import type { WireRequest } from '../../adapters/types.ts';
import type { HttpResult, ScenarioContext } from '../../scenarios/context.ts';
import { send } from '../../scenarios/http.ts';
import { define, sameJson } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { lifetimeSeconds, operatorNow, operatorSetup, redeemRequest, redemption, renewal, type OperatorSetup } from './operator-setup.ts';
import { restoreClock } from './clock.ts';
import { expectProblem, problemDefects } from './problem.ts';
import { jsonTextOf, JSON_TEXT_CLASSES } from './variants.ts';

const FILE = 'harness/properties/field-classes/operator-http.ts';

const BODIES = ['lock-request', 'renew-request', 'redeem-request'] as const;
const CONTROL = ['principal', 'redeemer', 'staff'] as const;

interface HttpCase {
  /** Per body: a JSON media type, another media type, and seeds for its JSON variants. */
  readonly bodies: readonly { readonly json: ClassValue<string>; readonly other: ClassValue<string>; readonly seeds: readonly number[] }[];
  readonly control: readonly number[];
  readonly headers: ClassValue<UntrustedHeaders>;
  /** A Host header against the target's authority (over HTTP only: an in-process role has no Host). */
  readonly host: HostChoice;
  /** A query string on the status read: RFC 9421 §2.2.6 leaves it out of @path (PROFILE.md §2.4). */
  readonly query: string;
  /** Which letters of the Principal's kid a keyid spells in the other case (corruptions.ts recased). */
  readonly recase: number;
  /** A label other than `cpp` for the Principal's own signature. */
  readonly label: ClassValue<string>;
  /** A pack_id segment that is no identifier, for a status read by the Principal. */
  readonly segment: ClassValue<string>;
}

const COVERS: Coverage[] = [
  ...BODIES.flatMap((field) => [...JSON_TEXT_CLASSES, 'http.media-type' as const, 'http.chunked' as const, 'http.problem' as const].map((cls) => ({ field, class: cls }))),
  ...CONTROL.flatMap((message) => [...JSON_TEXT_CLASSES, 'http.problem' as const].map((cls) => ({ field: `control:${message}`, class: cls }))),
  { field: 'GET /v1/cashpack/{pack_id}/status', class: 'http.untrusted-headers' },
  { field: 'GET /v1/cashpack/{pack_id}/status', class: 'http.problem' },
  { field: 'GET /v1/cashpack/{pack_id}/status', class: 'http.signature-label' },
  { field: 'GET /v1/cashpack/{pack_id}/status', class: 'path.segment' },
  ...['GET /.well-known/cashpack-policy.json', 'GET /.well-known/cashpack-pubkey.json'].flatMap((field) => [
    { field, class: 'http.signed-get' as const },
    { field, class: 'http.untrusted-headers' as const },
  ]),
];

const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const cases: fc.Arbitrary<HttpCase> = fc.record({
  bodies: fc.tuple(...BODIES.map(() => fc.record({ json: mediaTypeVariant({ json: true }), other: mediaTypeVariant({ json: false }), seeds: fc.tuple(seed, seed, seed) }))),
  control: fc.tuple(...CONTROL.map(() => seed)),
  headers: untrustedHeaders(),
  host: hostChoice(),
  query: fc.constantFrom('?', '?fields=all', '?a=1&b=%20x', `?pack_id=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, '?%2Fv1=%3F'),
  recase: fc.nat(),
  label: signatureLabel(),
  segment: pathSegment(),
});

const codeOf = (r: HttpResult): unknown => (r.body as { code?: unknown } | undefined)?.code;

/** JSON text followed by white space up to `bytes` UTF-8 bytes (the text itself when it is that long already). */
const padded = (text: string, bytes: number): string => text + ' '.repeat(Math.max(0, bytes - Buffer.byteLength(text)));

interface Endpoint {
  readonly name: (typeof BODIES)[number];
  readonly message: () => Record<string, unknown>;
  readonly request: (text: string, contentType: string) => WireRequest;
  /** After a success: what the next body starts from. */
  readonly accepted?: (body: unknown) => void;
}

async function judgeCase(ctx: ScenarioContext, setup: OperatorSetup, c: HttpCase): Promise<PropertyFailure | undefined> {
  const now = await operatorNow(ctx);
  const seconds = Math.floor(now / 1000);
  const { policy, principal, redeemer } = setup;
  const limit = policy.max_body_bytes;
  let bearer: SigningKey = createSigningKey();
  let pack: CashPack | undefined;
  const post = (path: string) => (text: string, contentType: string): WireRequest => ({ method: 'POST', path, headers: { 'content-type': contentType }, body: text });
  const endpoints: Endpoint[] = [
    {
      name: 'lock-request',
      message: () => buildLockRequest({ principal, amount: '1', asset: setup.asset as never, initialBearer: bearer.jwk, requested_expiry: now + lifetimeSeconds(policy) * 1000, created_at: now }) as unknown as Record<string, unknown>,
      request: post('/v1/cashpack/issue'),
      accepted: (body) => (pack = body as CashPack),
    },
    {
      name: 'renew-request',
      message: () => {
        const next = createSigningKey();
        const entry = renewal(pack!, bearer, now, next);
        nextBearer = next;
        return { cash_pack: pack, renewal: entry };
      },
      request: post('/v1/cashpack/renew'),
      accepted: (body) => {
        pack = body as CashPack;
        bearer = nextBearer!;
      },
    },
    {
      name: 'redeem-request',
      message: () => ({ cash_pack: pack, redemption: redemption(pack!, bearer, redeemer, now) }),
      request: (text, contentType) => {
        const r = redeemRequest(ctx, text, redeemer, seconds);
        return { ...r, headers: { ...r.headers, 'content-type': contentType } };
      },
    },
  ];
  let nextBearer: SigningKey | undefined;
  // No renewal is sent where the policy allows none.
  const unsent = (e: Endpoint): boolean => e.name === 'renew-request' && policy.max_chain_depth === 0;
  for (const [i, endpoint] of endpoints.entries()) {
    if (unsent(endpoint)) continue;
    const spec = c.bodies[i]!;
    const message = endpoint.message();
    const plain = JSON.stringify(message);
    // A message the target's body limit leaves no room for (a small max_body_bytes, PROFILE.md §4.8): this endpoint and those after it, which need its answer, are not judged here, and the result says so.
    if (Buffer.byteLength(plain) > limit) {
      const rest = endpoints.slice(i).filter((e) => !unsent(e)).map((e) => e.name);
      ctx.leftOut.add(`${rest.join(' and ')}, as the ${endpoint.name} is over max_body_bytes (${limit})`);
      break;
    }
    // Refusals first: none of them changes anything. A malformed text the limit leaves no room for is refused PAYLOAD_TOO_LARGE first (PROFILE.md §5 step 1's order).
    type Refusal = [string, string, number, string, string, string[], boolean?];
    const malformed = (text: string, what: string): Refusal =>
      Buffer.byteLength(text) > limit ? [text, 'application/json', 413, 'PAYLOAD_TOO_LARGE', `${what}, over max_body_bytes (${limit})`, ['PRF-HTTP-1']] : [text, 'application/json', 400, 'MALFORMED_REQUEST', what, ['PRF-JSON-1']];
    const refusals: Refusal[] = [
      [plain, spec.other.value, 415, 'UNSUPPORTED_MEDIA_TYPE', `${endpoint.name} sent as ${spec.other.note}`, ['PRF-HTTP-1']],
      [padded(plain, limit + 1), 'application/json', 413, 'PAYLOAD_TOO_LARGE', `${endpoint.name} of max_body_bytes + 1 (${limit + 1}) bytes, sent chunked without Content-Length`, ['PRF-HTTP-1'], true],
      ...JSON_TEXT_CLASSES.slice(1).map((cls, k): Refusal => {
        const text = jsonTextOf(cls, message, spec.seeds[k + 1]!);
        return malformed(text.value, `${endpoint.name}: ${text.note}`);
      }),
    ];
    for (const [text, type, status, code, what, requirements, chunked] of refusals) {
      const failure = expectProblem(await send(ctx, 'operator', { ...endpoint.request(text, type), chunked: chunked === true }, { overLimit: status === 413 }), status, code, what, requirements);
      if (failure) return failure;
    }
    // The same message, its member names escaped (written plainly where escapes would take it over the limit), under a JSON media type of another spelling, padded to max_body_bytes and chunked: accepted.
    const drawn = jsonTextOf('json.escaped-name', message, spec.seeds[0]!);
    const escaped = Buffer.byteLength(drawn.value) <= limit ? drawn : { value: plain, note: `its names written plainly (${drawn.note} would be over max_body_bytes)` };
    const answer = await send(ctx, 'operator', { ...endpoint.request(padded(escaped.value, limit), spec.json.value), chunked: true });
    if (answer.status !== 200) return { expected: 200, actual: { status: answer.status, code: codeOf(answer) ?? null }, message: `${endpoint.name}: ${escaped.note}, sent as ${spec.json.note}, padded to max_body_bytes (${limit}) and chunked`, requirements: answer.status === 415 || answer.status === 413 ? ['PRF-HTTP-1'] : ['PRF-JSON-1'] };
    endpoint.accepted?.(answer.body);
  }
  return (await statusAndDocuments(ctx, setup, c, seconds)) ?? controlBodies(ctx, setup, c);
}

async function statusAndDocuments(ctx: ScenarioContext, setup: OperatorSetup, c: HttpCase, seconds: number): Promise<PropertyFailure | undefined> {
  const { principal } = setup;
  const hostile = c.headers.value;
  const authority = ctx.http('operator').authority;
  const path = `/v1/cashpack/${setup.pack.pack_id}/status`;
  const signed = (as: string, p = path) => signRequestAs({ method: 'GET', authority: as, path: p }, { secretKey: principal.secretKey, kid: principal.jwk.kid }, seconds, 'profile');
  // Forwarding headers change nothing; a signature for the host they claim identifies nobody here.
  const honestHeaders = { ...signed(authority), ...hostile.headers };
  const honest = await send(ctx, 'operator', { method: 'GET', path, headers: honestHeaders });
  if (honest.status !== 200) return { expected: 200, actual: { status: honest.status, code: codeOf(honest) ?? null }, message: `a status read by the issuing Principal, with ${c.headers.note}`, requirements: ['CPP-STS-1', 'PRF-AUTH-1'] };
  const claimed = hostile.headers['x-forwarded-host'] ?? hostile.host;
  const elsewhere = await send(ctx, 'operator', { method: 'GET', path, headers: { ...signed(claimed), ...hostile.headers, 'x-forwarded-host': claimed } });
  const refusedElsewhere = expectProblem(elsewhere, 401, 'UNAUTHENTICATED', `a status read signed for the authority ${claimed}, sent with X-Forwarded-Host: ${claimed}`, ['PRF-AUTH-1']);
  if (refusedElsewhere) return refusedElsewhere;
  const misdirected = await foreignHostReads(ctx, c, honest, path, signed);
  if (misdirected) return misdirected;
  const queried = await queryReads(ctx, honest, path, c.query, signed);
  if (queried) return queried;
  const unsigned = expectProblem(await send(ctx, 'operator', { method: 'GET', path }), 401, 'UNAUTHENTICATED', 'an unsigned status read', ['PRF-AUTH-1']);
  if (unsigned) return unsigned;
  // The Principal's own key under its kid spelled with letters in another case: a kid is its exact base64url text (PROFILE.md §2.1), so the keyid names no registered key.
  const recasedKid = recased(principal.jwk.kid, c.recase);
  const recasedRead = await send(ctx, 'operator', { method: 'GET', path, headers: { ...signRequestAs({ method: 'GET', authority, path }, { secretKey: principal.secretKey, kid: recasedKid }, seconds, 'profile') } });
  const refusedRecased = expectProblem(recasedRead, 401, 'UNAUTHENTICATED', `a status read signed by the issuing Principal's key under keyid ${recasedKid}: its kid ${principal.jwk.kid} with letters in another case, a key nobody registered (PROFILE.md §2.1, §2.4)`, ['PRF-AUTH-1']);
  if (refusedRecased) return refusedRecased;
  // The Principal's own signature, valid in every way, under another label than `cpp`: the label is no part of the signature base, so only a verifier holding to it refuses.
  const relabelled = await send(ctx, 'operator', { method: 'GET', path, headers: { ...signRequestAs({ method: 'GET', authority, path }, { secretKey: principal.secretKey, kid: principal.jwk.kid }, seconds, 'other-label', c.label.value) } });
  const refusedRelabelled = expectProblem(relabelled, 401, 'UNAUTHENTICATED', `a status read by the issuing Principal, its valid signature labelled ${JSON.stringify(c.label.value)}, ${c.label.note} (PROFILE.md §2.4: the label is cpp)`, ['PRF-AUTH-1']);
  if (refusedRelabelled) return refusedRelabelled;
  const otherPath = `/v1/cashpack/${crypto.randomUUID()}/status`;
  const unknown = expectProblem(await send(ctx, 'operator', { method: 'GET', path: otherPath, headers: { ...signed(authority, otherPath) } }), 403, 'FORBIDDEN', 'a Principal reading a pack that does not exist', ['CPP-STS-1', 'PRF-AUTH-1']);
  if (unknown) return unknown;
  // A pack_id segment that names no pack and is no identifier: a 4xx problem whichever (the Principal's signature covers the path as sent, RFC 9421 §2.2.6), never a 5xx.
  const oddPath = `/v1/cashpack/${c.segment.value}/status`;
  const odd = await send(ctx, 'operator', { method: 'GET', path: oddPath, headers: { ...signed(authority, oddPath) } });
  const oddWhat = `a status read by the Principal at ${oddPath.length > 120 ? `${oddPath.slice(0, 100)}…` : oddPath}, its pack_id segment ${c.segment.note}`;
  if (!refusedAny(odd)) return { expected: 'a 4xx problem: no pack has that id, and malformed input is never a 5xx (PROFILE.md §11)', actual: { status: odd.status, code: codeOf(odd) ?? null }, message: oddWhat, requirements: ['CPP-ERR-1'] };
  const oddForm = problemDefects(odd);
  if (oddForm.length > 0) return { expected: { status: odd.status, content_type: 'application/problem+json' }, actual: { status: odd.status, defects: oddForm }, message: oddWhat, requirements: ['PRF-ERR-1', 'CPP-ERR-1'] };
  // The read just answered, its headers word for word, for that other path: its signature base holds the first path (RFC 9421 §2.5), so it identifies nobody here, however lately it verified.
  const replayed = expectProblem(await send(ctx, 'operator', { method: 'GET', path: otherPath, headers: honestHeaders }), 401, 'UNAUTHENTICATED', "the headers of the status read just answered, word for word, sent for another pack's path", ['PRF-AUTH-1']);
  if (replayed) return replayed;
  // The public documents: the same with a signature by a key nobody registered, and with forwarding headers.
  for (const document of ['/.well-known/cashpack-policy.json', '/.well-known/cashpack-pubkey.json']) {
    const stranger = createSigningKey();
    const plain = await send(ctx, 'operator', { method: 'GET', path: document });
    const withSignature = await send(ctx, 'operator', { method: 'GET', path: document, headers: { ...signRequestAs({ method: 'GET', authority, path: document }, { secretKey: stranger.secretKey, kid: stranger.jwk.kid }, seconds, 'profile') } });
    const forwarded = await send(ctx, 'operator', { method: 'GET', path: document, headers: hostile.headers });
    for (const [what, r] of [['with an HTTP Message Signature by an unregistered key', withSignature], [`with ${c.headers.note}`, forwarded]] as const) {
      if (r.status !== 200 || !sameJson(r.body, plain.body)) return { expected: { status: 200, body: plain.body }, actual: { status: r.status, body: r.body }, message: `GET ${document} ${what}`, requirements: ['CPP-WK-1', 'PRF-WK-1'] };
    }
  }
  return undefined;
}

/**
 * A status read whose URL carries a query (PROFILE.md §2.4, RFC 9421 §2.2.6:
 * @path is the path alone): signed over the path, it identifies its signer, so
 * it is answered as without the query or refused for the query (a 4xx other
 * than 401, as no rule fixes one), never UNAUTHENTICATED; signed over the path
 * and the query, its signature covers what @path is not and fails: refused.
 */
async function queryReads(ctx: ScenarioContext, honest: HttpResult, path: string, query: string, signed: (as: string, p?: string) => ReturnType<typeof signRequestAs>): Promise<PropertyFailure | undefined> {
  const authority = ctx.http('operator').authority;
  const right = await send(ctx, 'operator', { method: 'GET', path: `${path}${query}`, headers: { ...signed(authority, path) } });
  const answered = right.status === 200 && sameJson(right.body, honest.body);
  if (!answered && !(refusedAny(right) && right.status !== 401)) {
    return { expected: { status: '200 with the status, or a 4xx refusal of the query other than 401', body: honest.body }, actual: { status: right.status, code: codeOf(right) ?? null }, message: `a status read by the issuing Principal at ${path}${query}, @path signed as the path alone (RFC 9421 §2.2.6)`, requirements: ['PRF-AUTH-1'] };
  }
  const wrong = await send(ctx, 'operator', { method: 'GET', path: `${path}${query}`, headers: { ...signed(authority, `${path}${query}`) } });
  return refusedAny(wrong) ? undefined : { expected: 'a 4xx refusal: @path does not hold the query', actual: { status: wrong.status, code: codeOf(wrong) ?? null }, message: `a status read at ${path}${query} whose signature put the query in @path`, requirements: ['PRF-AUTH-1'] };
}

/** A refusal of any 4xx status: what a request for another authority may get, as no rule fixes one (421 Misdirected Request, 400, 401, 403, 404). */
const refusedAny = (r: HttpResult): boolean => r.status !== null && r.status >= 400 && r.status < 500;

/**
 * A Host naming another host, or the target's own on another port or written another way
 * (PROFILE.md §2.4): a status read signed for the target's authority is refused
 * or answered as with the real Host; one signed for the authority a foreign Host
 * names identifies nobody, one signed for its own host on another port identifies
 * its signer; the public documents are refused or the same.
 */
async function foreignHostReads(ctx: ScenarioContext, c: HttpCase, honest: HttpResult, path: string, signed: (as: string, p?: string) => ReturnType<typeof signRequestAs>): Promise<PropertyFailure | undefined> {
  const http = ctx.http('operator');
  if (http.kind !== 'http') return undefined;
  const host = foreignHost(http.authority, c.host);
  const sameOrRefused = (r: HttpResult, expected: HttpResult, what: string, requirements: string[]): PropertyFailure | undefined =>
    refusedAny(r) || (r.status === 200 && sameJson(r.body, expected.body)) ? undefined : { expected: { status: `${expected.status} with the same body, or a 4xx refusal`, body: expected.body }, actual: { status: r.status, body: r.body }, message: what, requirements };
  const asOwn = await send(ctx, 'operator', { method: 'GET', path, headers: { ...signed(http.authority), host: host.value.host } });
  const own = sameOrRefused(asOwn, honest, `a status read signed for the target's authority, sent with ${host.note}`, ['CPP-STS-1', 'PRF-AUTH-1']);
  if (own) return own;
  // Its own host on another port is not another host (a front server of its own may listen there): a read
  // signed for that authority identifies its signer. Answered as the honest read, or refused for the
  // authority with a 4xx other than 401, which would say the signature identifies nobody.
  const otherPort = foreignHost(http.authority, { form: 'other-port', pick: c.host.pick });
  const ownElsewhere = await send(ctx, 'operator', { method: 'GET', path, headers: { ...signed(otherPort.value.host), host: otherPort.value.host } });
  if (!(ownElsewhere.status === 200 && sameJson(ownElsewhere.body, honest.body)) && !(refusedAny(ownElsewhere) && ownElsewhere.status !== 401)) {
    return { expected: { status: '200 with the same body, or a 4xx refusal of the authority other than 401', body: honest.body }, actual: { status: ownElsewhere.status, code: codeOf(ownElsewhere) ?? null }, message: `a status read by the issuing Principal signed for the authority its ${otherPort.note} names`, requirements: ['PRF-AUTH-1'] };
  }
  if (host.value.foreign) {
    const forged = await send(ctx, 'operator', { method: 'GET', path, headers: { ...signed(host.value.host), host: host.value.host } });
    if (!refusedAny(forged)) return { expected: 'a 4xx refusal: a signature made for another host identifies nobody here', actual: { status: forged.status, code: codeOf(forged) ?? null }, message: `a status read signed for the authority its ${host.note} names`, requirements: ['PRF-AUTH-1'] };
  }
  for (const document of ['/.well-known/cashpack-policy.json', '/.well-known/cashpack-pubkey.json']) {
    const plain = await send(ctx, 'operator', { method: 'GET', path: document });
    const failure = sameOrRefused(await send(ctx, 'operator', { method: 'GET', path: document, headers: { host: host.value.host } }), plain, `GET ${document} with ${host.note}`, ['CPP-WK-1', 'PRF-WK-1']);
    if (failure) return failure;
  }
  return undefined;
}

async function controlBodies(ctx: ScenarioContext, setup: OperatorSetup, c: HttpCase): Promise<PropertyFailure | undefined> {
  const { policy } = setup;
  const bodies: Readonly<Record<(typeof CONTROL)[number], [string, Record<string, unknown>]>> = {
    principal: ['/_control/operator/principals', { public_key: createSigningKey().jwk, asset: policy.assets[0], balance: '1' }],
    redeemer: ['/_control/operator/redeemers', { public_key: createSigningKey().jwk, identity_level: 0 }],
    staff: ['/_control/operator/staff', { public_key: createSigningKey().jwk }],
  };
  for (const [i, name] of CONTROL.entries()) {
    const [path, value] = bodies[name];
    // Provisioned: 201 (PROFILE.md §12).
    const failure = await controlBodyInClasses(ctx, path, value, c.control[i]!, [201]);
    if (failure) return failure;
  }
  return undefined;
}

/**
 * A test-control body (PROFILE.md §12) POSTed to `path` in each class of the
 * I-JSON rule, the k-th class's variant picked by `seed + k`: with escaped
 * member names it is the same body, taken (answered with one of `accepted`);
 * with a member twice or after a byte order mark, refused 400 as a problem
 * document (PRF-JSON-1, PRF-CTL-1). The first answer otherwise, or none.
 */
export async function controlBodyInClasses(ctx: ScenarioContext, path: string, value: Record<string, unknown>, seed: number, accepted: readonly number[]): Promise<PropertyFailure | undefined> {
  for (const [k, cls] of JSON_TEXT_CLASSES.entries()) {
    const text = jsonTextOf(cls, value, (seed + k) % 2 ** 31);
    const answer = await send(ctx, 'operator', { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: text.value });
    // Escaped member names are the same members: taken as the plain body would be.
    if (cls === 'json.escaped-name') {
      if (answer.status !== null && accepted.includes(answer.status)) continue;
      // Taken with another success status: the body was read, only the status is not the profile's.
      const taken = answer.status !== null && answer.status >= 200 && answer.status < 300;
      return { expected: accepted.length === 1 ? accepted[0] : accepted.join(' or '), actual: { status: answer.status, code: codeOf(answer) ?? null }, message: `test control ${path}: ${text.note}${taken ? `, answered ${answer.status} where PROFILE.md §12 gives ${accepted.join(' or ')}` : ''}`, requirements: taken ? ['PRF-CTL-1'] : CONTROL_JUDGED };
    }
    const failure = expectProblem(answer, 400, undefined, `test control ${path}: ${text.note}`, CONTROL_JUDGED);
    if (failure) return failure;
  }
  return undefined;
}

/** What a test-control body in the I-JSON classes is judged against. */
export const CONTROL_JUDGED = ['PRF-JSON-1', 'PRF-CTL-1'];

export const OPERATOR_HTTP = define<HttpCase>({
  id: 'PROP-OP-014',
  title: 'application/json in any spelling, chunked bodies at and over max_body_bytes, escaped names, duplicates and a byte order mark on every body; forwarding headers and signed GETs of public documents change nothing; every refusal a problem document',
  requirements: ['PRF-HTTP-1', 'PRF-JSON-1', 'PRF-ERR-1', 'CPP-ERR-1', 'PRF-AUTH-1', 'CPP-STS-1', 'CPP-WK-1', 'PRF-WK-1', 'PRF-CTL-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §1', 'PROFILE §2.4', 'PROFILE §4.8', 'PROFILE §11', 'PROFILE §12'],
  needs: ['provision'],
  // Each case provisions accounts of its own; its setup freezes the clock under a tight policy.
  shares: 'clock-if-tight-policy',
  defaultRuns: 10,
  caseWeight: 3,
  file: FILE,
  // The clock, frozen by the setup under a tight policy, runs again.
  teardown: (ctx) => restoreClock(ctx, 'operator'),
  covers: COVERS,
  arbitrary: () => cases,
  async check(ctx, c) {
    return judgeCase(ctx, await operatorSetup(ctx), c);
  },
});
