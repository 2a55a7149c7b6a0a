// PROP-APP-015: what the paying application does with every class of answer a
// payee's server may give its retrieval of a token URI (PROFILE.md §8.3, §10;
// spec §4.1, §4.4, §5.1): every error status (the payee's own refusals, 410
// TOKEN_EXPIRED among them, with their problem documents) and every redirect wherever it
// points (RETRIEVAL_FAILED, the token sent once and never where a redirect
// points), application/json spelled otherwise or with a charset that is not
// UTF-8 (read, as UTF-8: the CPR read is the one served) and other media types
// (read or refused), bodies chunked at and over the 65 536-byte bound, slow,
// cut off or empty, under a Date header of any instant (the payee's clock is not
// the application's), and bodies that are not I-JSON (a byte order mark, a member
// twice, HTML, the CPR with text after it that is not JSON white space) or are
// the same JSON with escaped member names; the token URIs
// carry tokens of 32 to 128 hex digits and other query parameters before or after their endpoint (one named
// endpoint in other letters among them; one that makes the URI 2 048 bytes long, one byte more, or twice that:
// the inline form's bound is not theirs), or none, and
// their endpoint's scheme, host and the hex digits of its escapes in any
// letter case (a token URI refused URI_INVALID then was not read: DLV-RESOLVE-1),
// their endpoint's host a name, an IPv4 address or, one time in three where the
// machine has an IPv6 loopback, an IPv6 literal in any of its spellings
// (PROFILE.md §8.1; the fuzzer's stubHost, 127.0.0.1 in its place elsewhere). The
// answers are the fuzzer's own classes (generators/classes/retrieval-answer.ts),
// served by the harness's retrieval stub, and judged by the fuzzer's oracle;
// what the stub saw is judged too. Each case also reads a token URI twice, its
// token spent the second time (410 TOKEN_CONSUMED or TOKEN_EXPIRED):
// RETRIEVAL_FAILED, never a CPR from the application's memory. And a file
// delivery it cannot read (nothing there, a folder, a link to nothing, a path
// through a file) is RETRIEVAL_FAILED too (§8.3).
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { letterCaseVariant, retrievalClass, retrievalDelivery, retrievalErrorStatus, retrievalMediaType, retrievalRedirect, type RetrievalAnswer } from '../../../generators/classes/index.ts';
import { legalBaseUrl, validCpr } from '../../../generators/index.ts';
import { notJsonTrailer } from '../../../generators/parts/json-trailer.ts';
import { MAX_INLINE_URI_BYTES } from '../../../profile/cpr/uri.ts';
import { PROBLEM_STATUS } from '../../../profile/problems.ts';
import type { AppResult } from '../../adapters/types.ts';
import type { Exhibit, StubHost } from '../../stub/retrieval-stub.ts';
import { StepError, type ScenarioContext } from '../../scenarios/context.ts';
import { appCall } from '../../scenarios/actions/index.ts';
import { encode, exhibitOf, FAR_AHEAD } from '../../fuzz/paying-app/execute.ts';
import { expectRead, type Expectation } from '../../fuzz/paying-app/oracle.ts';
import { stubHost } from '../../fuzz/paying-app/commands.ts';
import type { Encoding } from '../../fuzz/paying-app/spec.ts';
import { define, refusalOf, REFUSAL_RULES, sameJson } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';

const FILE = 'harness/properties/field-classes/app-retrieval.ts';
/** What every case judges: one retrieval of <endpoint>/cpr/<token> (spec §4.4), and the result PROFILE.md §8.3 gives each answer. */
const JUDGED = ['DLV-RESOLVE-1', 'PRF-APP-1'];
const FIELD = 'retrieved: GET <endpoint>/cpr/{token}';

/**
 * How the body of the delivery's retrieval is sized (as the CPR, at the
 * 65 536-byte bound, one byte over, nothing), and how the fifth retrieval's,
 * answered 200 application/json, is written: not I-JSON (a byte order mark, a
 * member twice, no JSON at all, the CPR with text after it) or the same JSON
 * with escaped member names.
 */
type Size = Extract<Encoding, 'plain' | 'at-limit' | 'over-limit' | 'empty'>;
type Text = Extract<Encoding, 'bom' | 'duplicate-member' | 'not-json' | 'escaped-names' | { readonly trailing: string }>;

interface RetrievalCase {
  readonly doc: unknown;
  /** Of the class retrieval.status: an error status, and a redirect. */
  readonly status: RetrievalAnswer;
  readonly redirect: RetrievalAnswer;
  readonly mediaType: RetrievalAnswer;
  readonly delivery: RetrievalAnswer;
  readonly size: Size;
  readonly text: Text;
  readonly basePath: string;
  readonly host: StubHost;
  /** The token's length in hex digits: 32, 128 or any between (PROFILE.md §10 takes 32 to 128). */
  readonly tokenDigits: number;
  /** Other query parameters of the token URI, before or after endpoint, which a paying application ignores (PROFILE.md §8.1). */
  readonly extra: { readonly where: 'before' | 'after'; readonly params: string } | null;
  /**
   * The whole token URI's length in bytes, made up by one more parameter at its end: at the inline form's 2 048-byte
   * bound, one byte over it, or twice it (PROFILE.md §8.1 bounds only the inline form); null, as it comes.
   */
  readonly length: number | null;
  /**
   * How the endpoint's scheme, host and percent-escapes are spelt: the letter case of the first two, and of the
   * escapes' hex digits, does not matter (RFC 3986 §3.1, §3.2.2, §6.2.2.1; PROFILE.md §8.1).
   */
  readonly spelling: { readonly scheme: 'https' | 'HTTPS' | 'Https'; readonly host: 'as-is' | 'upper' | 'mixed'; readonly escapes: 'upper' | 'lower' | 'mixed' };
  /** What the token of the case's read-twice answers once spent. */
  readonly spent: 'TOKEN_CONSUMED' | 'TOKEN_EXPIRED';
  /**
   * The Date header of the stub's answers, the payee's clock (RFC 9110 §6.6.1):
   * the machine's, or an instant from 1970 to 9999. It is not the application's
   * clock, which alone judges a CPR's expiry (spec §4.7.2, PROFILE.md §8.3).
   */
  readonly date: number | null;
  /** A file delivery the application cannot read (PROFILE.md §8.3: an unreadable file is RETRIEVAL_FAILED). */
  readonly unreadable: UnreadableFile;
}

/**
 * A path no file can be read from: nothing there, under a folder that is not
 * there, a folder, a link to nothing, a path through a file as if it were a
 * folder.
 */
type UnreadableFile = 'missing' | 'missing-folder' | 'folder' | 'dangling-link' | 'through-a-file';
const UNREADABLE: Readonly<Record<UnreadableFile, string>> = {
  missing: 'a file that is not there',
  'missing-folder': 'a file under a folder that is not there',
  folder: 'a folder',
  'dangling-link': 'a symbolic link to nothing',
  'through-a-file': 'a path through a file, as if it were a folder',
};

const COVERS: Coverage[] = [
  { field: FIELD, class: 'retrieval.status' },
  { field: FIELD, class: 'retrieval.media-type' },
  { field: FIELD, class: 'retrieval.body' },
];

/** A parameter named endpoint in other letters (Endpoint, ENDPOINT, eNdPoint...): another parameter, since a query's names are compared as written. */
const otherEndpointName = fc
  .tuple(letterCaseVariant({ class: 'enum.case', value: 'endpoint' }), fc.constantFrom('', 'x', 'https%3A%2F%2Fpay.example.invalid'))
  .map(([name, value]) => `${name.value}=${value}`);

const cases = (ipv6: boolean): fc.Arbitrary<RetrievalCase> => fc.record({
  doc: validCpr({ now: FAR_AHEAD }) as fc.Arbitrary<unknown>,
  status: retrievalErrorStatus(),
  redirect: retrievalRedirect(),
  mediaType: retrievalMediaType(),
  delivery: retrievalDelivery(),
  size: fc.constantFrom<Size>('plain', 'at-limit', 'over-limit', 'empty'),
  text: fc.oneof(fc.constantFrom<Text>('bom', 'duplicate-member', 'not-json', 'escaped-names'), notJsonTrailer.map((t): Text => ({ trailing: t.text }))),
  // The payee's base path: a few fixed ones, and any RFC 3986 allows (sub-delimiters, reserved characters percent-encoded, UTF-8 in either hex case).
  basePath: fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom('', '/shop', '/shops/acme%20gmbh', '/pay/acme(eu)') },
    { weight: 3, arbitrary: legalBaseUrl({ hosts: 'loopback', ipv6: false, port: 443 }).map((b) => b.path) },
  ),
  host: stubHost(ipv6),
  tokenDigits: fc.oneof(fc.constantFrom(32, 33, 127, 128), fc.integer({ min: 32, max: 128 })),
  extra: fc.option(fc.record({ where: fc.constantFrom('before' as const, 'after' as const), params: fc.oneof(fc.constantFrom('lang=de', 'utm_source=mail&v=2', 'x=%26%3D', 'endpoint_hint=1'), otherEndpointName) })),
  length: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(MAX_INLINE_URI_BYTES, MAX_INLINE_URI_BYTES + 1, 2 * MAX_INLINE_URI_BYTES) }),
  spelling: fc.record({ scheme: fc.constantFrom('https' as const, 'HTTPS' as const, 'Https' as const), host: fc.constantFrom('as-is' as const, 'upper' as const, 'mixed' as const), escapes: fc.constantFrom('upper' as const, 'lower' as const, 'mixed' as const) }),
  spent: fc.constantFrom('TOKEN_CONSUMED' as const, 'TOKEN_EXPIRED' as const),
  unreadable: fc.constantFrom(...(Object.keys(UNREADABLE) as UnreadableFile[])),
  date: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(0, Date.UTC(9999, 11, 31, 23, 59, 59)) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: Date.UTC(9999, 11, 31) / 1000 }).map((s) => s * 1000) }),
});

/**
 * The token URI with its endpoint's scheme and host in the case's letter case,
 * and the hex digits of the endpoint's percent-escapes (%3A, %2F, %25...) in
 * lower case or alternately: the same URI (RFC 3986 §6.2.2.1), which the paying
 * application reads as it reads the one written as encodeURIComponent does.
 */
function spelt(uri: string, spelling: RetrievalCase['spelling']): string {
  const at = uri.indexOf('endpoint=https%3A%2F%2F');
  if (at < 0) return uri;
  const hostAt = at + 'endpoint=https%3A%2F%2F'.length;
  // An IPv6 literal's colons are escaped too: the port's colon is the first after its closing bracket.
  const hostEnd = uri.indexOf('%3A', uri.startsWith('%5B', hostAt) ? uri.indexOf('%5D', hostAt) : hostAt);
  const host = uri.slice(hostAt, hostEnd < 0 ? undefined : hostEnd);
  const casedHost = spelling.host === 'upper' ? host.toUpperCase() : spelling.host === 'mixed' ? [...host].map((ch, i) => (i % 2 === 0 ? ch.toUpperCase() : ch)).join('') : host;
  const valueEnd = uri.indexOf('&', at);
  const rest = hostEnd < 0 ? '' : uri.slice(hostEnd, valueEnd < 0 ? undefined : valueEnd);
  let n = 0;
  const hexCase = (text: string) => (spelling.escapes === 'upper' ? text : text.replace(/%[0-9A-F]{2}/g, (escape) => (spelling.escapes === 'lower' || n++ % 2 === 0 ? escape.toLowerCase() : escape)));
  return `${uri.slice(0, at)}endpoint=${spelling.scheme}${hexCase('%3A%2F%2F')}${casedHost}${hexCase(rest)}${valueEnd < 0 ? '' : uri.slice(valueEnd)}`;
}

/** The token URI with the case's other parameters put before or after its endpoint. */
function withParams(uri: string, extra: RetrievalCase['extra']): string {
  if (extra === null) return uri;
  const [head, query] = [uri.slice(0, uri.indexOf('?')), uri.slice(uri.indexOf('?') + 1)];
  return extra.where === 'before' ? `${head}?${extra.params}&${query}` : `${head}?${query}&${extra.params}`;
}

/** The token URI with a parameter `pad=xxx…` at its end that makes it `length` bytes long (no longer than it is when it already reaches that). */
function lengthened(uri: string, length: number | null): string {
  if (length === null) return uri;
  const room = length - Buffer.byteLength(uri) - '&pad='.length;
  return room < 0 ? uri : `${uri}&pad=${'x'.repeat(room)}`;
}

/** The JSON value a served body holds, when it is JSON text at all (a byte order mark before it, and no JSON, give none). */
function servedValue(text: string): unknown {
  try {
    return text.startsWith('\uFEFF') ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

const shown = (r: AppResult | { crashed: true; message: string }): unknown => ('crashed' in r ? { crashed: r.message.slice(0, 200) } : r.ok ? 'accepted' : { rejected: r.code });

/** One retrieval: the answer served, the application's result against the oracle's, and what the stub saw. */
async function retrieve(ctx: ScenarioContext, c: RetrievalCase, answer: RetrievalAnswer, encoding: Encoding): Promise<PropertyFailure | undefined> {
  const stub = ctx.target.stub;
  if (!stub) throw new StepError('skipped', "the paying application was not told to trust the harness's retrieval stub");
  const member = retrievalClass(answer);
  const text = encode(c.doc, encoding);
  const served = stub.serve(dated(exhibitOf(answer, new TextEncoder().encode(text)), c.date), { basePath: c.basePath, host: c.host, tokenDigits: c.tokenDigits });
  const uri = lengthened(spelt(withParams(served.uri, c.extra), c.spelling), c.length);
  const what = `a token URI ${uri.length > 300 ? `${uri.slice(0, 240)}… (${uri.length} bytes)` : uri}${c.extra === null ? '' : ` (with "${c.extra.params}" ${c.extra.where} its endpoint)`} answered ${member.note} (${member.class})${c.date === null ? '' : ` dated ${new Date(c.date).toUTCString()}`}, its body ${encoding === 'plain' ? 'the CPR' : typeof encoding === 'object' && 'trailing' in encoding ? `the CPR followed by ${JSON.stringify(encoding.trailing)}` : typeof encoding === 'object' ? encoding.json.class : encoding}`;
  try {
    const expected: Expectation = expectRead({ doc: { valid: c.doc }, channel: 'qr', encoding, serving: answer }, c.doc, undefined, Date.now());
    const result = await appCall(() => ctx.app().read({ kind: 'uri', uri }));
    const crashed = 'crashed' in result;
    const same = expected.find((o) => (o.kind === 'accept' ? !crashed && result.ok : !crashed && !result.ok && o.code === result.code));
    // Charged to the oracle's rule when it is one this property judges in every case, else to the profile's rule for results.
    if (!same) {
      // A token URI of §8.1 refused as none (URI_INVALID): it was not read, whatever its retrieval would have answered.
      const unread = !crashed && !result.ok && result.code === 'URI_INVALID' && !expected.some((o) => o.kind === 'reject' && o.code === 'URI_INVALID');
      const charged = unread ? 'DLV-RESOLVE-1' : JUDGED.includes(expected[0].requirement) ? expected[0].requirement : 'PRF-APP-1';
      // A CPR that was to be read, refused: when the application refuses it read on its own, that is a refusal of a valid CPR.
      const refused = !crashed && !result.ok && expected.some((o) => o.kind === 'accept');
      return { expected: expected.map((o) => (o.kind === 'accept' ? 'accepted' : `rejected ${o.code}`)), actual: shown(result), message: what, requirements: refused ? await refusalOf(ctx, c.doc, [charged]) : [charged] };
    }
    // What was read is the CPR served (spec §4.4), whatever the media type's parameters say of its characters.
    const read = result as AppResult & { ok: true };
    const value = servedValue(text);
    if (expected.some((o) => o.kind === 'accept') && result.ok && read.cpr !== undefined && value !== undefined && !sameJson(read.cpr, value)) {
      return { expected: value, actual: read.cpr, message: `${what}: the CPR read is not the one served`, requirements: ['DLV-RESOLVE-1'] };
    }
    const seen = stub.seen(served.id);
    const count = (test: (s: (typeof seen)[number]) => boolean) => seen.filter(test).length;
    const faults: [number, string, string][] = [
      [count((s) => !s.secure), 'PRF-APP-1', 'a redirect to the plaintext listener was followed: the token was sent in the clear'],
      [count((s) => s.where === 'redirect-target'), 'PRF-APP-1', 'a redirect was followed'],
      [count((s) => s.where === 'elsewhere'), 'DLV-RESOLVE-1', 'the token was sent elsewhere than <endpoint>/cpr/<token>'],
      [Math.max(0, count((s) => s.where === 'retrieval') - 1), 'DLV-RESOLVE-1', 'the token was sent more than once'],
    ];
    const fault = faults.find(([n]) => n > 0);
    return fault ? { expected: 'one GET of <endpoint>/cpr/<token>, over TLS, nowhere else', actual: seen, message: `${what}: ${fault[2]}`, requirements: [fault[1]] } : undefined;
  } finally {
    stub.forget(served.id);
  }
}

/** The exhibit with the payee's Date header at `date` (null: the stub's own, the machine's clock). */
const dated = (exhibit: Exhibit, date: number | null): Exhibit => (date === null ? exhibit : { ...exhibit, headers: { ...exhibit.headers, date: new Date(date).toUTCString() } });

/**
 * The case's token URI served as the CPR, read, then read again once its token
 * is spent, answered as a payee answers a used token (410 TOKEN_CONSUMED, or
 * TOKEN_EXPIRED once its lifetime is over too, PROFILE.md §10): each read
 * resolves the URI by a retrieval (spec §4.4, §5.1: a token is single use), so
 * the second is RETRIEVAL_FAILED, never the first's CPR from memory nor a
 * reading of the payee's problem code. A first read refused is judged by the
 * case's other retrievals.
 */
async function readTwice(ctx: ScenarioContext, c: RetrievalCase): Promise<PropertyFailure | undefined> {
  const stub = ctx.target.stub!;
  const spent: RetrievalAnswer = { status: PROBLEM_STATUS[c.spent], problem: c.spent };
  const served = stub.serve({ ...exhibitOf('ok', new TextEncoder().encode(encode(c.doc, 'plain'))), spent: exhibitOf(spent, new Uint8Array()) }, { basePath: c.basePath, host: c.host, tokenDigits: c.tokenDigits });
  const uri = spelt(withParams(served.uri, c.extra), c.spelling);
  const read = () => appCall(() => ctx.app().read({ kind: 'uri', uri }));
  try {
    const first = await read();
    if ('crashed' in first || !first.ok) return undefined;
    const again = await read();
    if (!('crashed' in again) && !again.ok && again.code === 'RETRIEVAL_FAILED') return undefined;
    return { expected: 'rejected RETRIEVAL_FAILED', actual: shown(again), message: `a token URI ${uri} read, then read again once its token is spent (answered ${spent.status} ${c.spent}): each read retrieves the CPR`, requirements: again.ok ? ['DLV-RESOLVE-1'] : ['PRF-APP-1'] };
  } finally {
    stub.forget(served.id);
  }
}

/** A file delivery of the case's unreadable kind, in a folder of its own (the CPR beside it): rejected RETRIEVAL_FAILED. */
async function readUnreadable(ctx: ScenarioContext, c: RetrievalCase): Promise<PropertyFailure | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'cpr-unreadable-'));
  try {
    const beside = join(dir, 'request.json');
    writeFileSync(beside, encode(c.doc, 'plain'));
    const paths: Record<UnreadableFile, () => string> = {
      missing: () => join(dir, 'missing.json'),
      'missing-folder': () => join(dir, 'gone', 'request.json'),
      folder: () => dir,
      'dangling-link': () => {
        // Where no symbolic link can be made (Windows without the privilege), the link's target, which is not there, is read instead.
        try {
          symlinkSync(join(dir, 'missing.json'), join(dir, 'link.json'));
          return join(dir, 'link.json');
        } catch {
          return join(dir, 'missing.json');
        }
      },
      'through-a-file': () => join(beside, 'request.json'),
    };
    const path = paths[c.unreadable]();
    const answer = await appCall(() => ctx.app().read({ kind: 'file', path }));
    if (!('crashed' in answer) && !answer.ok && answer.code === 'RETRIEVAL_FAILED') return undefined;
    return { expected: 'rejected RETRIEVAL_FAILED', actual: shown(answer), message: `a file delivery of ${UNREADABLE[c.unreadable]} (${JSON.stringify(path)}): PROFILE.md §8.3, an unreadable file is RETRIEVAL_FAILED`, requirements: !('crashed' in answer) && answer.ok ? ['DLV-RESOLVE-1'] : ['PRF-APP-1'] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const APP_RETRIEVAL = define<RetrievalCase>({
  id: 'PROP-APP-015',
  title: 'every class of retrieval answer: error statuses and redirects anywhere are RETRIEVAL_FAILED with the token sent once, never followed; JSON media types in any spelling read; bodies chunked at and over the bound, slow, cut off, empty or not I-JSON judged as they arrive',
  requirements: JUDGED,
  charges: () => REFUSAL_RULES,
  level: 'MUST',
  role: 'paying-app',
  sections: ['§4.1', '§4.4', '§5.1', 'PROFILE §8.3', 'PROFILE §10'],
  needs: [],
  stub: true,
  defaultRuns: 20,
  file: FILE,
  covers: COVERS,
  arbitrary: (target) => cases(target.stubIpv6 === true),
  async check(ctx, c) {
    // The five retrievals are independent (each its own token, served and forgotten on its own), so they
    // run side by side: a slow body's pauses no longer add up. The first failure, in this order, is the case's.
    const failures = await Promise.all([retrieve(ctx, c, c.status, 'plain'), retrieve(ctx, c, c.redirect, 'plain'), retrieve(ctx, c, c.mediaType, 'plain'), retrieve(ctx, c, c.delivery, c.size), retrieve(ctx, c, 'ok', c.text), readTwice(ctx, c), readUnreadable(ctx, c)]);
    return failures.find((failure) => failure !== undefined);
  },
});
