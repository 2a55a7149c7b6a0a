// PROP-CTL-001: the test-control lease (PROFILE.md §12, capability lease), its
// every field in its classes. The holder is text of 1 to 200 characters,
// counted in code points: at the bound with astral characters (more UTF-16
// units and UTF-8 bytes than 200) it is taken, one over it is refused; a
// lease body with escaped member names is the same body, one with a member
// twice or a byte order mark is refused (a 4xx problem, PROFILE.md §11). The lease_id names the lease in force
// exactly: truncated, extended, prefixed, in upper case or doubled, it renews
// nothing and releases nothing (409 CONTROL_BUSY, naming the holder), and the
// lease in force stays. With a lease of its own (none in force when the case
// starts), a case also moves the clock with an altered Control-Lease header
// (409), reads its holder back exactly as written (non-ASCII, NFC or NFD),
// and after releasing it finds it gone: renewed or released again, 404
// NOT_FOUND. Each renewal's expires_at is ttl_seconds from that renewal, on
// real time: two lie as far apart as the renewals, on the harness's monotonic
// clock. When this run holds the lease (runner/lease.ts), the lease in
// force is the run's own, which the case renews but never releases.
import fc from 'fast-check';
import { LEASE } from '../../../profile/control.ts';
import { parseTimestamp } from '../../../profile/time.ts';
import { alterToken, textVariant, tokenAlteration, type TextValue, type TokenAlteration } from '../../../generators/classes/index.ts';
import type { WireRequest } from '../../adapters/types.ts';
import { StepError, type HttpResult, type ScenarioContext } from '../../scenarios/context.ts';
import { send } from '../../scenarios/http.ts';
import { define } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { problemDefects } from './problem.ts';
import { jsonTextOf, JSON_TEXT_CLASSES } from './variants.ts';

const FILE = 'harness/properties/field-classes/control-lease.ts';

const HOLDER_CLASSES = ['text.non-ascii', 'text.length', 'text.normalisation'] as const;
const ALTERATIONS = ['cut-end', 'cut-start', 'append', 'prepend', 'upper-case', 'twice', 'object-name'] as const;
/** Long enough to outlast a case, short enough that a lease left behind by a crash ends soon. */
const TTL = 60;

interface LeaseCase {
  /** The holder the case acquires with, and one over the bound. */
  readonly holder: TextValue;
  readonly over: TextValue;
  /** Seeds of the JSON-text variants of the acquisition and renewal bodies. */
  readonly seeds: readonly [number, number, number, number];
  /** Whether the case's own acquisition is written with escaped member names. */
  readonly escaped: boolean;
  /** One alteration of every kind (token.altered). */
  readonly alterations: readonly TokenAlteration[];
}

const COVERS: Coverage[] = [
  ...HOLDER_CLASSES.map((cls) => ({ field: 'control:lease/holder', class: cls })),
  ...['control:lease', 'control:lease-renewal'].flatMap((field) => [...JSON_TEXT_CLASSES, 'http.problem' as const].map((cls) => ({ field, class: cls }))),
  ...['POST /_control/lease/{lease_id}', 'DELETE /_control/lease/{lease_id}'].flatMap((field) => [
    { field, class: 'token.altered' as const },
    { field, class: 'http.problem' as const },
  ]),
  { field: 'POST /_control/clock Control-Lease', class: 'token.altered', when: 'the lease free, not held by this run' },
  { field: 'POST /_control/clock Control-Lease', class: 'http.problem', when: 'the lease free, not held by this run' },
];

const bounds = { min: 1, max: LEASE.holderMaxLength };
const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });

const cases: fc.Arbitrary<LeaseCase> = fc.record({
  holder: fc.constantFrom(...HOLDER_CLASSES).chain((cls) => textVariant({ class: cls, ...bounds }).filter((v) => v.withinBounds)),
  over: textVariant({ class: 'text.length', ...bounds }).filter((v) => !v.withinBounds && v.codePoints > bounds.max),
  seeds: fc.tuple(seed, seed, seed, seed),
  escaped: fc.boolean(),
  alterations: fc.tuple(...ALTERATIONS.map((kind) => tokenAlteration().filter((a) => a.kind === kind))),
});

const jsonPost = (path: string, text: string): WireRequest => ({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: text });

const bodyOf = (r: HttpResult) => (r.body ?? {}) as { code?: unknown; lease_id?: unknown; holder?: unknown; held?: unknown; expires_at?: unknown };

/** Malformed input: any 4xx problem response (PROFILE.md §11); undefined when it is one. */
function malformed(r: HttpResult, what: string): PropertyFailure | undefined {
  const defects = r.status !== null && r.status >= 400 && r.status < 500 ? problemDefects(r) : [`HTTP ${r.status}`];
  if (defects.length === 0) return undefined;
  return { expected: { status: '4xx', content_type: 'application/problem+json' }, actual: { status: r.status, code: bodyOf(r).code ?? null, defects }, message: what, requirements: r.status !== null && r.status >= 400 && r.status < 500 ? ['PRF-CTL-1', 'PRF-ERR-1'] : ['PRF-CTL-1'] };
}

/** A refusal that must be this status, code and a profile problem (PROFILE.md §11); undefined when it is. */
function refusal(r: HttpResult, status: number, code: string, what: string): PropertyFailure | undefined {
  const defects = r.status === status ? problemDefects(r, code) : [`HTTP ${r.status}${typeof bodyOf(r).code === 'string' ? ` ${String(bodyOf(r).code)}` : ''}`];
  if (defects.length === 0) return undefined;
  return { expected: { status, code, content_type: 'application/problem+json' }, actual: { status: r.status, code: bodyOf(r).code ?? null, defects }, message: what, requirements: r.status === status ? ['PRF-CTL-1', 'PRF-ERR-1'] : ['PRF-CTL-1'] };
}

async function judgeCase(ctx: ScenarioContext, role: 'operator' | 'payee', c: LeaseCase): Promise<PropertyFailure | undefined> {
  const call = (request: WireRequest) => send(ctx, role, request);
  const fail = (expected: unknown, r: HttpResult, message: string): PropertyFailure => ({ expected, actual: { status: r.status, body: r.body ?? r.text.slice(0, 200) }, message, requirements: ['PRF-CTL-1'] });
  const acquisition = { holder: c.holder.value, ttl_seconds: TTL };

  // Malformed bodies: a 4xx problem whatever the lease's state (a lease granted by mistake is released again).
  const overText = JSON.stringify({ holder: c.over.value, ttl_seconds: TTL });
  const refusals: [string, string][] = [
    [overText, `a holder of ${c.over.note}`],
    [jsonTextOf('json.duplicate', acquisition, c.seeds[0]).value, `an acquisition with ${jsonTextOf('json.duplicate', acquisition, c.seeds[0]).note}`],
    [jsonTextOf('json.bom', acquisition, c.seeds[1]).value, 'an acquisition after a byte order mark'],
  ];
  for (const [text, what] of refusals) {
    const answer = await call(jsonPost('/_control/lease', text));
    const granted = bodyOf(answer).lease_id;
    if (answer.status === 201 && typeof granted === 'string') await call({ method: 'DELETE', path: `/_control/lease/${encodeURIComponent(granted)}` });
    const failure = malformed(answer, `${what}: refused (PROFILE.md §1, §11, §12)`);
    if (failure) return failure;
  }

  const runs = ctx.target.controlLease?.(role);
  const before = bodyOf(await call({ method: 'GET', path: '/_control/lease' }));
  if (before.held === true && runs === undefined) throw new StepError('skipped', `another client holds the lease (${String(before.holder).slice(0, 80)}): the lease's rules can be seen only with it free or held by this run`);

  // The holder at the bound, in code points, and every other member of its classes: taken (201, or 409 while this run holds the lease).
  const taken = await call(jsonPost('/_control/lease', c.escaped ? jsonTextOf('json.escaped-name', acquisition, c.seeds[2]).value : JSON.stringify(acquisition)));
  const holderWhat = `a holder of ${c.holder.note}${c.escaped ? ', member names escaped' : ''}`;
  let id: string;
  let own = false;
  if (runs !== undefined) {
    const failure = refusal(taken, 409, 'CONTROL_BUSY', `${holderWhat} while this run holds the lease: taken, so refused only as busy`);
    if (failure) return failure;
    id = runs;
  } else {
    const b = bodyOf(taken);
    if (taken.status !== 201 || typeof b.lease_id !== 'string') return fail({ status: 201, lease_id: 'a string' }, taken, `${holderWhat}: a lease granted (PROFILE.md §12)`);
    id = b.lease_id;
    own = true;
    if (b.holder !== c.holder.value) return fail({ holder: c.holder.value }, taken, `${holderWhat}: the holder written back exactly`);
  }
  // A renewal runs its TTL from its own moment, on real time (PROFILE.md §12): the expires_at of two
  // renewals lie as far apart as the two requests did, on the harness's monotonic clock, give or take a
  // second for a time written in whole seconds; never a TTL further, as an expiry extended from the last one is.
  let previous: { readonly expiresAt: number; readonly sent: number; readonly answered: number } | undefined;
  const renew = async (text: string, what: string): Promise<PropertyFailure | undefined> => {
    const sent = performance.now();
    const answer = await call(jsonPost(`/_control/lease/${id}`, text));
    const answered = performance.now();
    if (answer.status !== 200 || bodyOf(answer).lease_id !== id) return fail({ status: 200, lease_id: id }, answer, what);
    const expiresAt = typeof bodyOf(answer).expires_at === 'string' ? parseTimestamp(bodyOf(answer).expires_at as string, 'cpr') : undefined;
    if (expiresAt === undefined) return fail({ expires_at: 'a timestamp' }, answer, `${what}: its expires_at`);
    const last = previous;
    previous = { expiresAt, sent, answered };
    if (last === undefined) return undefined;
    const apart = expiresAt - last.expiresAt;
    const [least, most] = [sent - last.answered - 1000, answered - last.sent + 1000];
    if (apart >= least && apart <= most) return undefined;
    return { expected: `expires_at ${Math.round(least)} to ${Math.round(most)} ms after the last renewal's, each ttl_seconds (${TTL}) from its renewal`, actual: { expires_at: bodyOf(answer).expires_at, ms_after_the_last: apart }, message: `${what}: a renewal counts ttl_seconds from now, on real time`, requirements: ['PRF-CTL-1'] };
  };
  try {
    // The renewal body in its JSON classes: the same body escaped; a member twice or a BOM refused.
    const renewal = { ttl_seconds: TTL };
    const renewed = await renew(jsonTextOf('json.escaped-name', renewal, c.seeds[3]).value, 'a renewal with escaped member names: the same body, renewed');
    if (renewed) return renewed;
    for (const cls of ['json.duplicate', 'json.bom'] as const) {
      const failure = malformed(await call(jsonPost(`/_control/lease/${id}`, jsonTextOf(cls, renewal, c.seeds[3]).value)), `a renewal with ${jsonTextOf(cls, renewal, c.seeds[3]).note}: refused`);
      if (failure) return failure;
    }

    // The id altered: it names no lease, and the one in force is another: 409 CONTROL_BUSY, nothing renewed or released.
    for (const alteration of c.alterations) {
      const altered = alterToken(id, alteration);
      for (const request of [jsonPost(`/_control/lease/${encodeURIComponent(altered.value)}`, JSON.stringify(renewal)), { method: 'DELETE', path: `/_control/lease/${encodeURIComponent(altered.value)}` }]) {
        const failure = refusal(await call(request), 409, 'CONTROL_BUSY', `${request.method} of the lease_id ${altered.note}: not the lease in force`);
        if (failure) return failure;
      }
      if (own) {
        // Advancing by nothing: refused as busy, and a target that lets it through changes nothing either.
        const moved = await call({ ...jsonPost('/_control/clock', JSON.stringify({ advance_seconds: 0 })), headers: { 'content-type': 'application/json', [LEASE.header]: altered.value } });
        const failure = refusal(moved, 409, 'CONTROL_BUSY', `a clock move with Control-Lease ${altered.note}: not the holder`);
        if (failure) return failure;
      }
      const still = await renew(JSON.stringify(renewal), `after the lease_id ${altered.note} was presented: the lease in force untouched`);
      if (still) return still;
    }

    if (own) {
      const held = bodyOf(await call({ method: 'GET', path: '/_control/lease' }));
      if (held.held !== true || held.holder !== c.holder.value) return { expected: { held: true, holder: c.holder.value }, actual: held, message: `GET /_control/lease: the holder (${c.holder.note}) read back exactly`, requirements: ['PRF-CTL-1'] };
      const released = await call({ method: 'DELETE', path: `/_control/lease/${id}` });
      own = false;
      if (released.status !== 204) return fail({ status: 204 }, released, 'the release of the lease');
      for (const request of [jsonPost(`/_control/lease/${id}`, JSON.stringify(renewal)), { method: 'DELETE', path: `/_control/lease/${id}` }]) {
        const failure = refusal(await call(request), 404, 'NOT_FOUND', `${request.method} of a released lease: it ended`);
        if (failure) return failure;
      }
    }
    return undefined;
  } finally {
    // A case that stopped early leaves no lease of its own behind.
    if (own) await call({ method: 'DELETE', path: `/_control/lease/${id}` });
  }
}

export const CONTROL_LEASE = define<LeaseCase>({
  id: 'PROP-CTL-001',
  title: 'the test-control lease: a holder counted in code points, its bodies read as JSON is, its lease_id matched exactly on renewal, release and clock moves, a released lease gone',
  requirements: ['PRF-CTL-1', 'PRF-ERR-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §1', 'PROFILE §11', 'PROFILE §12'],
  needs: ['lease'],
  // It takes, renews and releases the lease that guards the clock: nothing else may run beside it.
  shares: 'clock',
  defaultRuns: 5,
  file: FILE,
  covers: COVERS,
  arbitrary: () => cases,
  check: (ctx, c) => judgeCase(ctx, 'operator', c),
});
