// PROP-OP-016: the Operator's methods and paths (PROFILE.md §11, RFC 9110
// §15.5.5–6). Every resource of §4 answers a method it does not take with 405
// METHOD_NOT_ALLOWED and an Allow header naming the methods it does take; and a
// path near one of them that is none of them (a segment more before or after,
// one of the profile's own paths before it,
// an empty one after it among them: a trailing slash; one more between any two
// of its segments; a separator between two of them percent-encoded, %2F; a
// last segment written longer, another version or collection segment; each
// dot or hyphen of a fixed segment, and the last segment's first character,
// replaced by another) with
// 404 NOT_FOUND, never as the resource it resembles. Letter case is left alone:
// a server that routes paths without regard to case is not judged here.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { matching } from '../../../generators/parts/deferred.ts';
import { isUuid } from '../../../profile/uuid.ts';
import { send } from '../../scenarios/http.ts';
import { define, firstFailure } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { expectProblem } from './problem.ts';

const FILE = 'harness/properties/field-classes/operator-routes.ts';

/** The resources of PROFILE.md §4 and the methods each takes (§4.8: the well-known documents also HEAD). */
const RESOURCES = [
  { field: 'POST /v1/cashpack/issue', path: () => '/v1/cashpack/issue', methods: ['POST'] },
  { field: 'POST /v1/cashpack/renew', path: () => '/v1/cashpack/renew', methods: ['POST'] },
  { field: 'POST /v1/cashpack/redeem', path: () => '/v1/cashpack/redeem', methods: ['POST'] },
  { field: 'GET /v1/cashpack/{pack_id}/status', path: () => `/v1/cashpack/${randomUUID()}/status`, methods: ['GET'] },
  { field: 'GET /.well-known/cashpack-policy.json', path: () => '/.well-known/cashpack-policy.json', methods: ['GET', 'HEAD'] },
  { field: 'GET /.well-known/cashpack-pubkey.json', path: () => '/.well-known/cashpack-pubkey.json', methods: ['GET', 'HEAD'] },
] as const;

/** Methods a client may try; HEAD and OPTIONS are left out (a HEAD answer has no body to judge, OPTIONS is CORS's). */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** How a path is moved off a resource: each gives a path that names no resource of §4. */
const NEAR = ['segment-after', 'longer-last-segment', 'segment-before', 'own-path-before', 'other-version', 'segment-inside', 'separator-encoded', 'character-replaced'] as const;
type Near = (typeof NEAR)[number];

interface RouteCase {
  /** Per resource: the segment each way of moving its path uses. */
  readonly resources: readonly { readonly segments: readonly string[] }[];
}

const COVERS: Coverage[] = RESOURCES.flatMap(({ field }) => [
  { field, class: 'http.method' as const },
  { field, class: 'http.path' as const },
]);

const segment = matching(/^[a-z0-9._-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
/** A segment after the resource's path may also be empty, or two empty ones: a trailing slash, or two (a router that strips them answers the resource). */
const segmentAfter = fc.oneof(segment, fc.constantFrom('', '/'));
/**
 * One of the profile's own paths, whole or its first two segments at least
 * (/v1/cashpack, /v1/cashpack/renew, /.well-known/cashpack-pubkey.json): put
 * before a resource's path, the path still begins as the Operator's do, so
 * that a router that looks at a path's end alone (a pattern without its start
 * anchor) answers it as the resource, even behind a server that hands on only
 * the paths beginning as the Operator's.
 */
const ownPrefix = fc.tuple(fc.constantFrom(...RESOURCES.map(({ path }) => path().split('/').slice(1))), fc.uuid(), fc.nat()).map(([segments, packId, k]) => {
  const named = segments.map((s, i) => (segments.length === 4 && i === 2 ? packId : s));
  return named.slice(0, 2 + (k % (named.length - 1))).join('/');
});
const cases: fc.Arbitrary<RouteCase> = fc.record({
  resources: fc.tuple(...RESOURCES.map(() => fc.record({ segments: fc.tuple(...NEAR.map((how) => (how === 'segment-after' ? segmentAfter : how === 'own-path-before' ? ownPrefix : segment))) }))),
});

/** Whether a segment of a resource's path is its pack_id (a UUID), which no way of moving the path changes. */
const isPackId = (segment: string): boolean => isUuid(segment);

/** The paths moved off `path` as `near` says: one, or with a segment inside, one at each place between two of its segments. */
function nearPaths(path: string, near: Near, segment: string): string[] {
  const segments = path.split('/').slice(1);
  switch (near) {
    case 'segment-after':
      return [`${path}/${segment}`];
    case 'longer-last-segment':
      return [`${path}${segment.replace(/^[./]+/, '') || 'x'}`];
    case 'segment-before':
    case 'own-path-before':
      return [`/${segment}${path}`];
    case 'other-version':
      // /v1/… → /v2/…; /.well-known/cashpack-policy.json → /.well-known/xcashpack-policy.json.
      return [segments[0] === 'v1' ? `/v2/${segments.slice(1).join('/')}` : `/${segments[0]}/x${segments.slice(1).join('/')}`];
    case 'segment-inside':
      // /v1/x/cashpack/issue, /v1/cashpack/x/{pack_id}/status, /v1/cashpack/{pack_id}/x/status: a parameter matched across segments answers some of them.
      return segments.slice(1).map((_, gap) => `/${[...segments.slice(0, gap + 1), segment, ...segments.slice(gap + 1)].join('/')}`);
    case 'character-replaced': {
      // Each character of a fixed segment that is no letter or digit (the dots and hyphens of
      // /.well-known/cashpack-policy.json), and the first of the last segment, replaced by another (from the drawn
      // segment, never the same): a pattern whose dot matches any character answers some of them. A pack_id is left whole.
      const drawn = segment.replace(/[^a-z0-9_]/g, '')[0] ?? 'x';
      const by = (ch: string) => (drawn !== ch ? drawn : ch === 'x' ? 'y' : 'x');
      return segments.flatMap((seg, i) =>
        isPackId(seg)
          ? []
          : [...seg].flatMap((ch, j) => (/[a-z0-9]/.test(ch) && !(i === segments.length - 1 && j === 0) ? [] : [`/${segments.map((other, k) => (k === i ? `${seg.slice(0, j)}${by(ch)}${seg.slice(j + 1)}` : other)).join('/')}`])),
      );
    }
    case 'separator-encoded': {
      // /v1/cashpack/{pack_id}%2Fstatus: a reserved character and its percent-encoding differ (RFC 3986 §2.2, PROFILE.md §8.1),
      // so the path has a segment fewer; a router that decodes before it matches answers the resource. Hex digits in the drawn case.
      const slash = segment.length % 2 === 0 ? '%2F' : '%2f';
      return segments.slice(1).map((_, gap) => `/${segments.slice(0, gap + 1).join('/')}${slash}${segments.slice(gap + 1).join('/')}`);
    }
  }
}

/** The methods an Allow header lists, upper case. */
function allowed(header: string | undefined): string[] {
  return (header ?? '').split(',').map((m) => m.trim().toUpperCase()).filter((m) => m !== '');
}

async function judgeResource(ctx: Parameters<typeof send>[0], resource: (typeof RESOURCES)[number], c: RouteCase['resources'][number]): Promise<PropertyFailure | undefined> {
  const path = resource.path();
  // Every method the resource does not take, each case: a fault may sit in one of them only.
  for (const method of METHODS.filter((m) => !(resource.methods as readonly string[]).includes(m))) {
    const body = method === 'GET' || method === 'DELETE' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' };
    const wrong = await send(ctx, 'operator', { method, path, ...body });
    const what = `${method} ${path} (${resource.field} takes ${resource.methods.join(', ')})`;
    const refused = expectProblem(wrong, 405, 'METHOD_NOT_ALLOWED', what, ['PRF-HTTP-1']);
    if (refused) return refused;
    const allow = allowed(wrong.headers['allow']);
    if (!resource.methods.every((m) => allow.includes(m)) || allow.includes(method)) {
      return { expected: { allow: `every one of ${resource.methods.join(', ')}, not ${method}` }, actual: { allow: wrong.headers['allow'] ?? null }, message: `${what}: a 405 names the methods the resource takes in Allow (RFC 9110 §15.5.6)`, requirements: ['PRF-HTTP-1'] };
    }
  }
  // Every way of moving the path, each case: a fault may sit in one of them only (a pattern without its start or its end anchor).
  const own = resource.methods[0];
  for (const [k, how] of NEAR.entries()) for (const near of nearPaths(path, how, c.segments[k]!)) {
    const elsewhere = await send(ctx, 'operator', { method: own, path: near, ...(own === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
    const failure = expectProblem(elsewhere, 404, 'NOT_FOUND', `${own} ${near}: a path near ${resource.field} (${how}) that names no resource of PROFILE.md §4`, ['PRF-HTTP-1']);
    if (failure) return failure;
  }
  return undefined;
}

export const OPERATOR_ROUTES = define<RouteCase>({
  id: 'PROP-OP-016',
  title: 'every resource answers a method it does not take with 405 and Allow, and a path near it that is none of the profile with 404',
  requirements: ['PRF-HTTP-1', 'PRF-ERR-1', 'CPP-ERR-1'],
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §4', 'PROFILE §11'],
  needs: [],
  defaultRuns: 6,
  caseWeight: 2,
  file: FILE,
  covers: COVERS,
  arbitrary: () => cases,
  check: (ctx, c) => firstFailure(ctx, RESOURCES.map((resource, i) => [resource, c.resources[i]!] as const), 2, ([resource, one]) => judgeResource(ctx, resource, one)),
});
