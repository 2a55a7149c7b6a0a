// The reference payee system: public face.
export { createPayee, type CreatedRequest, type Payee, type PayeeConfig, type PayeeOptions } from './payee.ts';
export { PAYEE_PATH_PREFIXES } from './handler.ts';
export { PayeeInputError, checkRequestInput, type CreateRequestInput } from './input.ts';
export { RAIL_SAMPLES } from './samples.ts';
export { renderQrPng, renderQrSvg } from './qr.ts';
export type { FulfilOutcome } from './requests.ts';
export type { TakeResult, TokenFailure } from './tokens.ts';
