// The reference paying application: public face.
export { createPayingApp, type PayingApp, type PayingAppOptions } from './app.ts';
export type { Derivation } from './derive.ts';
export type { Conditions, Conversion, DerivationContext, Payment } from './payment.ts';
export type { ReadInput } from './read.ts';
export { REJECTION_CODES, type Accepted, type Rejection, type RejectionCode } from './rejection.ts';
