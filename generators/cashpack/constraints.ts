// The constraints every cash-pack generator takes, checked and resolved once at construction.
import { isAmount } from '../../profile/amount.ts';
import { validateMessage, type AssetDescriptor, type PolicyDocument } from '../../profile/cashpack/index.ts';
import { DEFAULT_NOW } from '../cpr.ts';

/** The members of the Operator Policy Document (PROFILE.md §4.8) the generators obey. */
export type CashpackPolicy = Pick<
  PolicyDocument,
  'assets' | 'max_amount' | 'max_chain_depth' | 'expiry_min_seconds' | 'expiry_max_seconds' | 'request_window_seconds'
>;

/** The reference Operator's defaults (reference/operator/policy.ts). */
export const DEFAULT_CASHPACK_POLICY: CashpackPolicy = Object.freeze({
  assets: Object.freeze([Object.freeze({ type: 'fiat', code: 'EUR' }) as AssetDescriptor]),
  max_amount: '1000000',
  max_chain_depth: 8,
  expiry_min_seconds: 60,
  expiry_max_seconds: 2_592_000,
  request_window_seconds: 300,
});

export interface CashpackConstraints {
  /** Policy members, merged over the defaults. @defaultValue DEFAULT_CASHPACK_POLICY */
  readonly policy?: Partial<CashpackPolicy>;
  /** The Operator's clock when it receives the message (ms, whole seconds are used). @defaultValue DEFAULT_NOW (2026-01-01T00:00:00Z) */
  readonly now?: number;
  /**
   * Seconds kept between generated times and the policy's bounds, for targets whose
   * clock moves between generation and receipt; 0 puts values on the bounds.
   * An integer ≥ 0, below request_window_seconds. @defaultValue 0
   */
  readonly clockSkewSeconds?: number;
  /** Most renewals already in a pack's chain (capped by max_chain_depth). An integer 0..32. @defaultValue 3 */
  readonly maxPriorRenewals?: number;
}

export interface Resolved {
  readonly policy: CashpackPolicy;
  readonly now: number;
  readonly skew: number;
  readonly maxPrior: number;
}

function int(fn: string, name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${fn}: constraints.${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

export function resolve(fn: string, constraints: CashpackConstraints): Resolved {
  const policy: CashpackPolicy = { ...DEFAULT_CASHPACK_POLICY, ...(constraints.policy ?? {}) };
  const { now = DEFAULT_NOW, clockSkewSeconds: skew = 0, maxPriorRenewals = 3 } = constraints;
  if (!Array.isArray(policy.assets) || policy.assets.length === 0 || !policy.assets.every((a) => validateMessage('asset', a).ok)) {
    throw new RangeError(`${fn}: constraints.policy.assets must be a non-empty array of AssetDescriptors`);
  }
  if (!isAmount(policy.max_amount)) throw new RangeError(`${fn}: constraints.policy.max_amount must be an amount (^[1-9][0-9]{0,77}$)`);
  int(fn, 'policy.max_chain_depth', policy.max_chain_depth, 0);
  int(fn, 'policy.request_window_seconds', policy.request_window_seconds, 1);
  int(fn, 'clockSkewSeconds', skew, 0, policy.request_window_seconds - 1);
  int(fn, 'policy.expiry_min_seconds', policy.expiry_min_seconds, 0);
  int(fn, 'policy.expiry_max_seconds', policy.expiry_max_seconds, Math.max(1, policy.expiry_min_seconds + 2 * skew));
  int(fn, 'now', now, 86_400_000 + policy.request_window_seconds * 1000 + policy.expiry_max_seconds * 1000, Date.UTC(9000, 0, 1));
  int(fn, 'maxPriorRenewals', maxPriorRenewals, 0, 32);
  return { policy, now: Math.floor(now / 1000) * 1000, skew, maxPrior: Math.min(maxPriorRenewals, policy.max_chain_depth) };
}
