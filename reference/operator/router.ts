// The Operator's routes (spec §4.2, §4.3; PROFILE.md §4.8, §11, §12).
//
// Atomicity (spec §1.2, PROFILE.md §5.1): the server reads the whole body before
// it calls the handler, and every endpoint below is synchronous: once the body is
// parsed, a request's checks and its state change run with no await in between.
// Of N concurrent renewals or redemptions of one pack exactly one therefore sees
// it ACTIVE with the right bearer and digest, and funds move once.
import { problemResponse } from '../http/respond.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import type { Endpoint, OperatorContext } from './context.ts';
import { cancelRoute, principalBalanceRoute, principalsRoute, redeemerBalanceRoute, redeemersRoute, staffRoute } from './control.ts';
import { issue } from './issue.ts';
import { redeem } from './redeem.ts';
import { renew } from './renew.ts';
import { status } from './status.ts';
import { policy, pubkey } from './well-known.ts';

interface Route {
  /** Anchored; its groups are the path parameters. */
  readonly path: RegExp;
  readonly methods: Readonly<Record<string, Endpoint>>;
  readonly control?: true;
}

const SEGMENT = '([^/]+)';

/**
 * The route table, built at each request rather than once at import: a table
 * evaluated at import is one mutation testing can only judge by reloading the
 * module, and a few regular expressions per request cost nothing that matters.
 */
const routes = (): readonly Route[] => [
  { path: /^\/v1\/cashpack\/issue$/, methods: { POST: issue } },
  { path: /^\/v1\/cashpack\/renew$/, methods: { POST: renew } },
  { path: /^\/v1\/cashpack\/redeem$/, methods: { POST: redeem } },
  { path: new RegExp(`^/v1/cashpack/${SEGMENT}/status$`), methods: { GET: status } },
  { path: /^\/\.well-known\/cashpack-policy\.json$/, methods: { GET: policy, HEAD: policy } },
  { path: /^\/\.well-known\/cashpack-pubkey\.json$/, methods: { GET: pubkey, HEAD: pubkey } },
  // Stryker disable next-line Regex,BooleanLiteral: test control (PROFILE.md §12): the harness calls its routes only as the profile spells them, and only with test control on
  { path: /^\/_control\/operator\/principals$/, methods: { POST: principalsRoute }, control: true },
  // Stryker disable next-line Regex,BooleanLiteral: test control (PROFILE.md §12): the harness calls its routes only as the profile spells them, and only with test control on
  { path: /^\/_control\/operator\/redeemers$/, methods: { POST: redeemersRoute }, control: true },
  // Stryker disable next-line Regex,BooleanLiteral: test control (PROFILE.md §12): the harness calls its routes only as the profile spells them, and only with test control on
  { path: /^\/_control\/operator\/staff$/, methods: { POST: staffRoute }, control: true },
  // Stryker disable next-line BooleanLiteral: test control (PROFILE.md §12): the harness calls its routes only as the profile spells them, and only with test control on
  { path: new RegExp(`^/_control/operator/packs/${SEGMENT}/cancel$`), methods: { POST: cancelRoute }, control: true },
  // Stryker disable next-line BooleanLiteral: test control (PROFILE.md §12): the harness calls its routes only as the profile spells them, and only with test control on
  { path: new RegExp(`^/_control/operator/principals/${SEGMENT}/balance$`), methods: { GET: principalBalanceRoute }, control: true },
  // Stryker disable next-line BooleanLiteral: test control (PROFILE.md §12): the harness calls its routes only as the profile spells them, and only with test control on
  { path: new RegExp(`^/_control/operator/redeemers/${SEGMENT}/balance$`), methods: { GET: redeemerBalanceRoute }, control: true },
];

/** The path prefixes the Operator answers for, so that a composite server can delegate. */
export const OPERATOR_PREFIXES = ['/v1/cashpack/', '/.well-known/cashpack-', '/_control/operator/'] as const;

// Stryker disable all: a library call for a composite server (test/reference covers it); the reference's own server routes by path itself
export function handlesPath(path: string): boolean {
  return OPERATOR_PREFIXES.some((prefix) => path.startsWith(prefix));
}
// Stryker restore all

interface RouterOptions {
  /** When false, the /_control/operator/ routes answer 404 CONTROL_DISABLED (PROFILE.md §11). */
  readonly control: boolean;
}

export function route(ctx: OperatorContext, request: RefRequest, options: RouterOptions): RefResponse {
  // Mutant op-route-trailing-slash-tolerated: trailing slashes stripped before routing, as a router that is not strict does.
  // Stryker disable next-line all: only the op-route-trailing-slash-tolerated fault strips them
  const path = ctx.faults.has('op-route-trailing-slash-tolerated') && request.path.length > 1 ? request.path.replace(/\/+$/, '')
    // Mutant op-route-path-percent-decoded: the path decoded before it is matched, so %2F becomes a separator.
    // Stryker disable next-line all: only the op-route-path-percent-decoded fault decodes the path
    : ctx.faults.has('op-route-path-percent-decoded') ? decodedPath(request.path)
    : request.path;
  for (const candidate of routes()) {
    // Mutant op-route-prefix-match: a route's pattern is taken without its end anchor, so a longer path is answered as the resource.
    // Mutant op-route-parameter-spans-segments: a path parameter matches whatever lies between the fixed parts, slashes too.
    // Mutant op-route-suffix-match: a route's pattern is taken without its start anchor, so a path that ends as a resource's is answered as it.
    const pattern = ctx.faults.has('op-route-prefix-match') ? new RegExp(candidate.path.source.replace(/\$$/, ''))
      // Stryker disable next-line all: only the op-route-suffix-match fault drops the start anchor
      : ctx.faults.has('op-route-suffix-match') ? new RegExp(candidate.path.source.replace(/^\^/, ''))
      // Stryker disable next-line all: only the op-route-parameter-spans-segments fault widens the parameter
      : ctx.faults.has('op-route-parameter-spans-segments') ? new RegExp(candidate.path.source.replaceAll(SEGMENT, '(.+)'))
      // Mutant op-route-dots-unescaped: the patterns written from template strings, their dots left unescaped, so a dot matches any character.
      // Stryker disable next-line all: only the op-route-dots-unescaped fault unescapes the dots
      : ctx.faults.has('op-route-dots-unescaped') ? new RegExp(candidate.path.source.replaceAll('\\.', '.'))
      : candidate.path;
    const match = pattern.exec(path);
    if (!match) continue;
    // Stryker disable next-line ConditionalExpression: the reference's own start-up option: every run the harness makes has test control on, and a target without it is judged without its routes
    if (candidate.control && !options.control) return problemResponse('CONTROL_DISABLED', 'the test-control interface is disabled');
    const endpoint = candidate.methods[request.method];
    if (!endpoint) {
      const allow = Object.keys(candidate.methods).join(', ');
      // Mutant op-405-without-allow: the 405 says which methods in its detail only, not in Allow.
      return problemResponse('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${allow}`, ctx.faults.has('op-405-without-allow') ? {} : { allow });
    }
    return endpoint(ctx, request, match.slice(1));
  }
  return problemResponse('NOT_FOUND', `no such resource: ${request.path}`);
}

// Stryker disable all: only the op-route-path-percent-decoded fault calls this function
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
// Stryker restore all
