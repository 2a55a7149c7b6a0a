// PROP-PAYEE-011: a retrieval token serves its request once, through every
// channel that carries it (the token, the QR URI, the deep link), the CPR test
// control made, member for member, whatever Accept header that takes
// application/json the retrieval sends (a media range, other letters), and nothing
// that is not the token serves or spends it: cut short, extended, prefixed or
// in upper case, it is unknown (404 TOKEN_UNKNOWN) and the real token still
// works; nor does a request on the real token with another method than GET
// (HEAD, OPTIONS, a write), which retrieves nothing. Over the payee's
// plaintext listener the altered token and the used one are each 403
// TLS_REQUIRED, as a live one is, and so is any other /cpr/ path (/cpr/ alone,
// segments after the token), and the altered one, never issued, is still
// unknown over TLS afterwards. Every refusal is a problem document. Forwarding headers a client
// sends (X-Forwarded-Host and the like), and a Host naming another host or
// the payee's own written another way, change neither the URIs the payee writes
// nor what it serves; a call with such a Host may be refused (spec §4.1, §4.4,
// §5.1; PROFILE.md §8.1, §10, §11). The request behind the token is of any
// sub-interface, with or without an amount (beyond 2^53 too), a memo (text
// outside ASCII, of the full 140 code points, in NFD), a rail_hint the
// sub-interface travels on and extensions (any JSON): a token serves once
// whatever it carries.
import fc from 'fast-check';
import { compareTokenUri, parseDeliveryUri } from '../../../profile/cpr/index.ts';
import { SUB_INTERFACES, type SubInterface } from '../../../profile/cpr/fields.ts';
import { compatibleRailHints, cprExtensions } from '../../../generators/index.ts';
import { alterToken, foreignHost, hostChoice, textVariant, tokenAlteration, untrustedHeaders, type ClassValue, type HostChoice, type TokenAlteration, type UntrustedHeaders } from '../../../generators/classes/index.ts';
import { StepError, type HttpResult, type ScenarioContext } from '../../scenarios/context.ts';
import { send } from '../../scenarios/http.ts';
import { CONTROL_RULE } from '../../scenarios/actions/index.ts';
import { payeeRequestAllowed } from '../../../profile/control.ts';
import { define, sameJson } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { payeeConfig } from './payee-config.ts';
import { problemDefects } from './problem.ts';

const FILE = 'harness/properties/field-classes/payee-tokens.ts';

const CHANNELS = ['token', 'qr_uri', 'deep_link'] as const;
/** Methods that are no retrieval (spec §4.1 retrieves with GET): a link checker's HEAD, a preflight, a write. */
const PROBES = ['HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
type Channel = (typeof CHANNELS)[number];

interface TokenCase {
  readonly sub: SubInterface;
  /** The request's optional members, each present or not. */
  readonly amount: string | null;
  readonly memo: string | null;
  readonly rail_hint: string | null;
  readonly extensions: Record<string, unknown> | null;
  readonly headers: ClassValue<UntrustedHeaders>;
  /** A Host header against the payee's authority, sent with the forwarding headers when the request is created (over HTTP only). */
  readonly host: HostChoice;
  /** Applied to the token the payee hands out. */
  readonly alter: TokenAlteration;
  /** The order the channels are tried in. */
  readonly channels: readonly Channel[];
  /** Requests with other methods than GET, sent on the real token before any retrieval, in this order: they retrieve nothing, so they spend nothing. */
  readonly probes: readonly (typeof PROBES)[number][];
  /** The method of the requests sent over the payee's plaintext listener at the end: every one of them is 403 TLS_REQUIRED (PROFILE.md §10). */
  readonly plaintextMethod: string;
  /** A /cpr/ path that names no token, sent over plaintext too: /cpr/ alone (null), or the used token with these segments after it. */
  readonly strayPath: readonly string[] | null;
  /** The Accept header of every retrieval, or none: each accepts the application/json the payee serves. */
  readonly accept: string | null;
}

/**
 * Accept headers that take application/json (RFC 9110 §12.5.1: a media range,
 * a subtype wildcard, the type in other letters, §8.3.1; quality values; a
 * browser's list): a payee neither refuses a retrieval for them (406) nor leaves
 * the token unspent, it serves the CPR.
 */
const ACCEPTS = ['application/json', '*/*', 'application/*', 'Application/JSON', 'application/json;q=0.9, text/plain;q=0.5', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'] as const;

const COVERS: Coverage[] = [
  { field: 'GET /cpr/{token}', class: 'token.altered' },
  { field: 'GET /cpr/{token}', class: 'token.channel' },
  { field: 'GET /cpr/{token}', class: 'http.problem' },
  { field: 'POST /_control/payee/requests', class: 'http.untrusted-headers' },
];

/** A memo the profile allows (1..140 code points), in each class of text. */
const memo = fc
  .constantFrom('text.non-ascii', 'text.length', 'text.normalisation' as const)
  .chain((cls) => textVariant({ class: cls, min: 1, max: 140 }))
  .filter((t) => t.withinBounds)
  .map((t) => t.value);

const cases: fc.Arbitrary<TokenCase> = fc.record({
  sub: fc.constantFrom(...SUB_INTERFACES),
  hint: fc.option(fc.nat()),
  amount: fc.option(fc.bigInt({ min: 1n, max: 10n ** 24n }).map(String)),
  memo: fc.option(memo),
  extensions: fc.option(cprExtensions(2)),
  headers: untrustedHeaders(),
  host: hostChoice(),
  alter: tokenAlteration(),
  channels: fc.shuffledSubarray([...CHANNELS], { minLength: 3, maxLength: 3 }),
  probes: fc.shuffledSubarray([...PROBES], { minLength: PROBES.length, maxLength: PROBES.length }),
  plaintextMethod: fc.constantFrom('GET', 'GET', ...PROBES.filter((m) => m !== 'HEAD')),
  strayPath: fc.option(fc.array(fc.stringMatching(/^[a-z0-9]{0,8}$/), { minLength: 1, maxLength: 2 }), { freq: 4 }),
  accept: fc.option(fc.constantFrom(...ACCEPTS)),
}).map(({ hint, ...c }) => {
  // A rail hint the sub-interface travels on, or none.
  const hints = compatibleRailHints(c.sub);
  return { ...c, rail_hint: hint === null ? null : hints[hint % hints.length]! };
});

const fail = (expected: unknown, actual: unknown, message: string, requirements: string[]): PropertyFailure => ({ expected, actual, message, requirements });

/**
 * A refusal with `code` (PROFILE.md §10, §11): served, it fails `requirements`;
 * refused with another code, the profile's token codes (PRF-TOK-1); with the
 * code but not as a problem document with its status, the error form
 * (PRF-ERR-1).
 */
function refusal(result: HttpResult, code: string, where: string, requirements: string[]): PropertyFailure | undefined {
  if (result.status === 200) return fail(code, 200, `${where}: served`, requirements);
  const defects = problemDefects(result, code);
  if (defects.length === 0) return undefined;
  const coded = (result.body as { code?: unknown } | undefined)?.code === code;
  return fail({ problem: code }, { status: result.status, defects }, `${where}: ${coded ? "not the profile's problem" : 'another code'}`, coded ? ['PRF-ERR-1'] : ['PRF-TOK-1']);
}

function describeAsked(c: TokenCase): string {
  const extensions = c.extensions === null ? 'no extensions' : `extensions ${JSON.stringify(c.extensions).slice(0, 80)}`;
  return `${c.sub}, ${c.amount === null ? 'no amount' : `amount ${c.amount}`}, ${c.memo === null ? 'no memo' : `a memo of ${[...c.memo].length} code points`}, ${c.rail_hint === null ? 'no rail_hint' : `rail_hint ${c.rail_hint}`}, ${extensions}`;
}

export const PAYEE_TOKENS = define<TokenCase>({
  id: 'PROP-PAYEE-011',
  title: 'a retrieval token serves once through every channel; an altered token is unknown and spends nothing; forwarding headers change no URI; every refusal is a problem document',
  requirements: ['TOK-AUTH-1', 'TOK-ONCE-1', 'TOK-GET-1', 'PRF-TOK-1', 'PRF-ERR-1', 'DLV-QR-1', 'DLV-DEEP-1', 'PRF-URI-1'],
  level: 'MUST',
  role: 'payee',
  sections: ['§4.1', '§4.4', '§5.1', 'PROFILE §8.1', 'PROFILE §10', 'PROFILE §11'],
  needs: ['provision'],
  defaultRuns: 20,
  caseWeight: 2,
  file: FILE,
  covers: COVERS,
  arbitrary: () => cases,
  async check(ctx, c) {
    const { baseUrl: base } = await payeeConfig(ctx);
    const hostile = c.headers.value.headers;
    const asked = { sub_interface: c.sub, ...(c.amount !== null ? { amount: c.amount } : {}), ...(c.memo !== null ? { memo: c.memo } : {}), ...(c.rail_hint !== null ? { rail_hint: c.rail_hint } : {}), ...(c.extensions !== null ? { extensions: c.extensions } : {}) };
    const ask = (headers: Record<string, string>) => send(ctx, 'payee', { method: 'POST', path: '/_control/payee/requests', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(asked) });
    const http = ctx.http('payee');
    const host = http.kind === 'http' ? foreignHost(http.authority, c.host) : undefined;
    // With a Host naming another host the payee may refuse the call (any 4xx); then it is asked without that Host.
    const withHost = host ? await ask({ ...hostile, host: host.value.host }) : undefined;
    const refusedHost = withHost?.status != null && withHost.status >= 400 && withHost.status < 500;
    const created = withHost && !refusedHost ? withHost : await ask(hostile);
    const note = withHost && !refusedHost ? `${c.headers.note} and ${host!.note}` : c.headers.note;
    if (created.status !== 201 && created.status !== 200) {
      // Refused only because of the client's forwarding headers: they changed what the payee does.
      const plain = await ask({});
      if (plain.status === 201 || plain.status === 200) return fail(created.status === null ? 'an answer' : 201, { status: created.status, body: created.body }, `a request created with ${note}, which without them is created`, ['DLV-QR-1', 'PRF-URI-1']);
      const said = `test control POST /_control/payee/requests answered ${plain.status}: ${plain.text.slice(0, 200)}`;
      throw plain.status !== null && payeeRequestAllowed(asked) ? StepError.setupFailed(CONTROL_RULE, `${said} (a request the profile lets a payee serve)`) : new StepError('error', said);
    }
    const body = created.body as Record<Channel, string> & { readonly cpr: unknown };
    // The URIs name the payee's own base URL, whatever the client's headers claimed.
    const tokens = new Map<Channel, string>([['token', body.token]]);
    for (const channel of ['qr_uri', 'deep_link'] as const) {
      const parsed = parseDeliveryUri(body[channel]);
      if (parsed.kind !== 'token') return fail('a token URI', body[channel], `${channel} of a request created with ${note}`, [channel === 'qr_uri' ? 'DLV-QR-1' : 'DLV-DEEP-1']);
      const form = compareTokenUri(body[channel], parsed.token, base).form;
      if (form.length > 0) return fail({ endpoint: base }, { uri: body[channel], form }, `${channel} of a request created with ${note}`, [channel === 'qr_uri' ? 'DLV-QR-1' : 'DLV-DEEP-1', 'PRF-URI-1']);
      tokens.set(channel, parsed.token);
    }
    // An altered token is unknown, and leaves the real one unspent.
    const altered = alterToken(body.token, c.alter);
    const probe = await send(ctx, 'payee', { method: 'GET', path: `/cpr/${altered.value}`, headers: hostile });
    const unknown = refusal(probe, 'TOKEN_UNKNOWN', `the token ${altered.note}`, ['TOK-AUTH-1', 'PRF-TOK-1']);
    if (unknown) return unknown;
    // Requests that are no retrieval (any answer) leave the token to its first GET.
    const probed: string[] = [];
    for (const method of c.probes) probed.push(`${method} ${(await send(ctx, 'payee', { method, path: `/cpr/${body.token}`, headers: hostile })).status}`);
    // Each distinct token serves once, whichever channel carries it, in the generated order: the request the payee made.
    const served = new Set<string>();
    const retrieving = { ...hostile, ...(c.accept !== null ? { accept: c.accept } : {}) };
    for (const channel of c.channels) {
      const token = tokens.get(channel)!;
      for (const attempt of [1, 2]) {
        const answer = await send(ctx, 'payee', { method: 'GET', path: `/cpr/${token}`, headers: retrieving });
        const where = `retrieval ${attempt} through ${channel} (channels in the order ${c.channels.join(', ')}; ${c.headers.note}${c.accept !== null ? `; Accept: ${c.accept}` : ''}; a request ${describeAsked(c)}), after the token ${altered.note} was tried`;
        if (!served.has(token)) {
          const spentBy = (answer.body as { code?: unknown } | undefined)?.code === 'TOKEN_CONSUMED' && token === body.token ? `, after ${probed.join(', ')} of it (method and answer)` : '';
          // The token taken for another (a token code) is its authentication's fault too; any other refusal is the retrieval's alone.
          const tokenRefused = String((answer.body as { code?: unknown } | undefined)?.code ?? '').startsWith('TOKEN_');
          if (answer.status !== 200) return fail(200, { status: answer.status, body: answer.body }, `${where}: the first retrieval of this token${spentBy}`, spentBy ? ['TOK-ONCE-1'] : tokenRefused ? ['TOK-GET-1', 'TOK-AUTH-1'] : ['TOK-GET-1']);
          if (!sameJson(answer.body, body.cpr)) return fail(body.cpr, answer.body, `${where}: the CPR served is not the one test control made (spec §4.1, §4.4: the full CPR)`, ['TOK-GET-1']);
          served.add(token);
          continue;
        }
        const spent = refusal(answer, 'TOKEN_CONSUMED', where, ['TOK-ONCE-1']);
        if (spent) return spent;
      }
    }
    // Every /cpr/* path is refused over plaintext (PROFILE.md §10), not only a token's: /cpr/ alone, or segments after the token.
    const stray = c.strayPath === null ? ['', '/cpr/ alone'] : [`${body.token}/${c.strayPath.join('/')}`, `the used token with ${c.strayPath.length} more segment(s) after it`];
    const clear = await plaintextRefusals(ctx, [[altered.value, `the token ${altered.note}`], [body.token, 'the token, used'], stray as [string, string]], c.plaintextMethod);
    if (clear || http.plaintextBaseUrl === undefined) return clear;
    // Invalidating what travelled in the clear makes no token of a string the payee never issued: still unknown over TLS.
    const after = await send(ctx, 'payee', { method: 'GET', path: `/cpr/${altered.value}`, headers: hostile });
    return refusal(after, 'TOKEN_UNKNOWN', `the token ${altered.note}, retrieved over TLS after it was sent ${c.plaintextMethod} over plaintext`, ['TOK-AUTH-1', 'PRF-TOK-1']);
  },
});

/**
 * Over the payee's plaintext listener, where it declares one (PROFILE.md §10),
 * every /cpr/ request is 403 TLS_REQUIRED, whatever its method and whatever the token names: one it
 * never issued, one already used or expired (an answer that tells them apart
 * says in the clear what became of the token). No answer at all is no
 * plaintext service.
 */
export async function plaintextRefusals(ctx: ScenarioContext, tokens: readonly (readonly [string, string])[], method: string = 'GET'): Promise<PropertyFailure | undefined> {
  if (ctx.http('payee').plaintextBaseUrl === undefined) return undefined;
  for (const [token, what] of tokens) {
    const answer = await send(ctx, 'payee', { method, path: `/cpr/${token}`, transport: 'plaintext' });
    if (answer.status === null) continue;
    const wrong = refusal(answer, 'TLS_REQUIRED', `${what}, ${method === 'GET' ? 'retrieved' : `sent ${method}`} over plaintext`, ['PRF-TOK-1']);
    if (wrong) return wrong;
  }
  return undefined;
}
