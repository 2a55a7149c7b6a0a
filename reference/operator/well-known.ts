// The well-known documents (spec §4.3; PROFILE.md §4.8): served with GET and HEAD,
// application/json, without authentication.
import { json } from '../http/respond.ts';
import type { Endpoint, OperatorContext } from './context.ts';
import { pubkeyDocument } from './keys.ts';
import { policyDocument } from './policy.ts';

/** HEAD answers the same headers as GET without a body. */
function document(make: (ctx: OperatorContext) => unknown): Endpoint {
  return (ctx, request) => {
    const response = json(200, make(ctx));
    return request.method === 'HEAD' ? { status: response.status, headers: response.headers ?? {} } : response;
  };
}

/** /.well-known/cashpack-policy.json: the Operator Policy Document. */
export const policy: Endpoint = document((ctx) => policyDocument(ctx.policy, ctx.keys.jwk.kid));

/** /.well-known/cashpack-pubkey.json: the current signing key as a JWK set. */
export const pubkey: Endpoint = document((ctx) => pubkeyDocument(ctx.keys));
