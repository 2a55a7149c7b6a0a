// Routes a request on the reference's one origin to the role that owns the path.
import type { Handler, RefRequest } from './http/types.ts';
import { problemResponse } from './http/respond.ts';

export interface Routes {
  readonly payee: Handler;
  readonly operator: Handler;
  readonly control: Handler;
  /** When set, /_control/* requires `Authorization: Bearer <token>` (PROFILE.md §12). */
  readonly controlToken?: string;
  /** When false, /_control/* does not exist (CONTROL_DISABLED). */
  readonly controlEnabled: boolean;
}

const OWNERS: readonly [prefix: string, owner: keyof Pick<Routes, 'payee' | 'operator' | 'control'>][] = [
  ['/cpr/', 'payee'],
  ['/_control/payee/', 'payee'],
  ['/v1/cashpack/', 'operator'],
  ['/.well-known/cashpack-', 'operator'],
  ['/_control/operator/', 'operator'],
  // Stryker disable next-line StringLiteral: test control has nothing at other paths either: 404 NOT_FOUND alike
  ['/_control/', 'control'],
];

export function createRouter(routes: Routes): Handler {
  return (request: RefRequest) => {
    const owner = OWNERS.find(([prefix]) => request.path.startsWith(prefix))?.[1];
    if (owner === undefined) return problemResponse('NOT_FOUND', `nothing is served at ${request.path}`);
    // Stryker disable all: test control's gate (PROFILE.md §12), test plumbing as reference/control.ts is (stryker.config.mjs): the run needs it open, without a token; test/reference/start.test.ts tests it
    if (request.path.startsWith('/_control/')) {
      if (!routes.controlEnabled) return problemResponse('CONTROL_DISABLED', 'the test-control interface is disabled');
      if (routes.controlToken !== undefined && request.headers.authorization !== `Bearer ${routes.controlToken}`) {
        return problemResponse('UNAUTHENTICATED', 'the test-control interface needs its bearer token');
      }
    }
    // Stryker restore all
    return routes[owner](request);
  };
}

/**
 * The plaintext listener exists only to show that a CPR is never served without
 * TLS (spec §5.1.4): /cpr/* goes to the payee, which refuses and burns the token;
 * everything else is refused too.
 */
export function createPlaintextRouter(payee: Handler): Handler {
  return (request: RefRequest) =>
    // Stryker disable next-line StringLiteral: the payee refuses every other path in the clear as well (404): no rule fixes which refusal
    request.path.startsWith('/cpr/') ? payee(request) : problemResponse('TLS_REQUIRED', 'this service is only offered over TLS');
}
