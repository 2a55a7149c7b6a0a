// fast-check arbitraries for the CPR and cash-pack profiles: one
// arbitrary family per file, each documented in its header and in README.md.
export {
  DEFAULT_NOW,
  MEMO_LIMIT,
  allowedRailHints,
  compatibleRailHints,
  cprExtensions,
  shapedExtensions,
  resolveCprConstraints,
  validCpr,
  type AmountKind,
  type ResolvedCprConstraints,
  type ValidCprConstraints,
} from './cpr.ts';
export { CPR_MUTATIONS, brokenCpr, type BrokenCpr, type BrokenCprConstraints, type CprMutation, type MutationResult } from './cpr-broken.ts';
export { IPV6_LOOPBACK, legalBaseUrl, type BaseUrlConstraints, type BaseUrlHostKind, type LegalBaseUrl } from './base-url.ts';
export {
  DELIVERY_DEFECTS,
  deepLink,
  endpointUrl,
  inlineUri,
  qrUri,
  type DeliveryForm,
  type ExpectedUriRejection,
  type InlineDelivery,
  type InlineUriConstraints,
  type MalformedDelivery,
  type TokenDelivery,
  type TokenUriConstraints,
} from './delivery.ts';
export {
  CORRUPTION_KINDS,
  CORRUPTION_STATUS,
  DEFAULT_CASHPACK_POLICY,
  corruptedMessage,
  validLockRequest,
  validRedemption,
  validRenewal,
  type CashpackCase,
  type CashpackConstraints,
  type CashpackMessageKind,
  type CashpackPolicy,
  type CorruptedMessage,
  type CorruptedMessageConstraints,
  type CorruptionCode,
  type CorruptionKind,
  type LockRequestCase,
  type RedeemCase,
  type RenewCase,
} from './cashpack/index.ts';
export {
  MALFORMED_KINDS,
  MAX_BODY_BYTES,
  malformedBody,
  type MalformedBody,
  type MalformedBodyConstraints,
  type MalformedKind,
  type MalformedLayer,
} from './malformed-body.ts';
