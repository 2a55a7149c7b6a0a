// The Operator's configuration and its Policy Document (spec §4.3, §8; PROFILE.md §4.8).
import { PROFILE_ID } from '../../profile/index.ts';
import { validateMessage, type AssetDescriptor, type PolicyDocument } from '../../profile/cashpack/index.ts';

/** The configurable members of the Policy Document (PROFILE.md §4.8). */
export type Policy = Omit<PolicyDocument, 'profile' | 'operator_kid'>;

/** The reference's defaults; spec §8 leaves every value to the Operator. */
export const DEFAULT_POLICY: Policy = Object.freeze({
  assets: Object.freeze([Object.freeze({ type: 'fiat', code: 'EUR' }) as AssetDescriptor]),
  max_amount: '1000000',
  max_chain_depth: 8,
  expiry_min_seconds: 60,
  expiry_max_seconds: 2_592_000, // 30 days
  required_identity_level: 2, // identity document verified (PROFILE.md §4.8)
  request_window_seconds: 300,
  max_body_bytes: 65_536,
});

export function policyDocument(policy: Policy, operatorKid: string): PolicyDocument {
  return { profile: PROFILE_ID, operator_kid: operatorKid, ...policy };
}

/** A policy override that does not give a valid Policy Document. */
// Stryker disable all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), not its behaviour on the wire
export class PolicyError extends RangeError {
  constructor(readonly errors: readonly string[]) {
    super(`invalid operator policy: ${errors.join('; ')}`);
    this.name = 'PolicyError';
  }
}

// Stryker restore all
/** Merges overrides into the defaults; throws PolicyError when the result is not a valid policy. */
export function resolvePolicy(overrides: Partial<Policy> = {}, operatorKid: string): Policy {
  const policy: Policy = { ...DEFAULT_POLICY, ...overrides };
  const check = validateMessage('policy', policyDocument(policy, operatorKid));
  if (!check.ok) throw new PolicyError(check.errors);
  return Object.freeze(structuredClone(policy));
}
