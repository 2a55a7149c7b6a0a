// The well-known documents (spec §4.3; PROFILE.md §4.8): served with GET and HEAD,
// application/json, without authentication.
import { PROFILE_VERSIONS } from '../../profile/version.ts';
import { json, problemResponse } from '../http/respond.ts';
import type { RefRequest, RefResponse } from '../http/types.ts';
import { verifyCaller, type Endpoint, type OperatorContext } from './context.ts';
import { createOperatorKeys, pubkeyDocument, type OperatorKeys } from './keys.ts';
import { DEFAULT_POLICY, policyDocument } from './policy.ts';

/** HEAD gets the same response; serializeResponse sends its headers without the body. */
function document(make: (ctx: OperatorContext) => unknown): Endpoint {
  return (ctx, request) => signedGetRefused(ctx, request) ?? json(200, make(ctx));
}

/**
 * Mutant op-well-known-signed-get-refused: an authentication layer in front of
 * every route verifies any HTTP Message Signature it sees and refuses the
 * request when it does not identify a registered key, public documents included.
 */
function signedGetRefused(ctx: OperatorContext, request: RefRequest): RefResponse | undefined {
  if (ctx.faults.has('op-well-known-signed-get-refused') && request.headers.signature !== undefined) {
    const caller = verifyCaller(ctx, request, (kid) => ctx.state.accountKey(kid), ctx.clock.now());
    return caller.ok ? undefined : problemResponse('UNAUTHENTICATED', caller.reason);
  }
  return undefined;
}

/** /.well-known/cashpack-policy.json: the Operator Policy Document. */
export const policy: Endpoint = (ctx, request) => {
  const refused = signedGetRefused(ctx, request);
  if (refused) return refused;
  // Mutant op-policy-document-missing: the Operator publishes no policy (it still applies its own).
  if (ctx.faults.has('op-policy-document-missing')) return json(404, { type: 'about:blank', title: 'Not Found', status: 404 });
  // Mutant op-policy-document-defaults: the document written from the default policy, while the configured one is applied.
  // Stryker disable next-line all: only the op-policy-document-defaults fault publishes the defaults
  const published = policyDocument(ctx.faults.has('op-policy-document-defaults') ? DEFAULT_POLICY : ctx.policy, publishedKeys(ctx).jwk.kid);
  // Mutant op-policy-wrong-profile: names a profile this Operator does not implement.
  if (ctx.faults.has('op-policy-wrong-profile')) return json(200, { ...published, profile: 'CPP-PROFILE-0.9' });
  // Mutant op-policy-older-profile: names the first published version (PROFILE.md §14), older by every change since.
  if (ctx.faults.has('op-policy-older-profile')) return json(200, { ...published, profile: PROFILE_VERSIONS.at(-1)!.id });
  return json(200, published);
};

/** /.well-known/cashpack-pubkey.json: the current signing key as a JWK set. */
export const pubkey: Endpoint = document((ctx) => pubkeyDocument(publishedKeys(ctx)));

let otherKeys: OperatorKeys | undefined;

/** The signing key (mutant op-signs-with-other-key: another key, so what the Operator signs never verifies under what it publishes). */
function publishedKeys(ctx: OperatorContext): OperatorKeys {
  return ctx.faults.has('op-signs-with-other-key') ? (otherKeys ??= createOperatorKeys()) : ctx.keys;
}
