// The well-known documents (spec §4.3; PROFILE.md §4.8): served with GET and HEAD,
// application/json, without authentication.
import { PROFILE_VERSIONS } from '../../profile/version.ts';
import { json } from '../http/respond.ts';
import type { Endpoint, OperatorContext } from './context.ts';
import { createOperatorKeys, pubkeyDocument, type OperatorKeys } from './keys.ts';
import { policyDocument } from './policy.ts';

/** HEAD gets the same response; serializeResponse sends its headers without the body. */
function document(make: (ctx: OperatorContext) => unknown): Endpoint {
  return (ctx) => json(200, make(ctx));
}

/** /.well-known/cashpack-policy.json: the Operator Policy Document. */
export const policy: Endpoint = (ctx) => {
  // Mutant op-policy-document-missing: the Operator publishes no policy (it still applies its own).
  if (ctx.faults.has('op-policy-document-missing')) return json(404, { type: 'about:blank', title: 'Not Found', status: 404 });
  const published = policyDocument(ctx.policy, publishedKeys(ctx).jwk.kid);
  // Mutant op-policy-wrong-profile: names a profile this Operator does not implement.
  if (ctx.faults.has('op-policy-wrong-profile')) return json(200, { ...published, profile: 'CPP-PROFILE-0.9' });
  // Mutant op-policy-older-profile: names the version before this one (PROFILE.md §14).
  if (ctx.faults.has('op-policy-older-profile')) return json(200, { ...published, profile: PROFILE_VERSIONS[1]!.id });
  return json(200, published);
};

/** /.well-known/cashpack-pubkey.json: the current signing key as a JWK set. */
export const pubkey: Endpoint = document((ctx) => pubkeyDocument(publishedKeys(ctx)));

let otherKeys: OperatorKeys | undefined;

/** The signing key (mutant op-signs-with-other-key: another key, so what the Operator signs never verifies under what it publishes). */
function publishedKeys(ctx: OperatorContext): OperatorKeys {
  return ctx.faults.has('op-signs-with-other-key') ? (otherKeys ??= createOperatorKeys()) : ctx.keys;
}
