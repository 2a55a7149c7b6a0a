// The wire profile (PROFILE.md; its identifier in version.ts) as code: encodings, keys, signatures, chain
// digest, caller authentication and problem codes (PROFILE.md).
export * from './amount.ts';
export * from './b64url.ts';
export * from './chain.ts';
export * from './ed25519.ts';
export * from './http-signature.ts';
export * from './ijson.ts';
export * from './jcs.ts';
export * from './jwk.ts';
export * from './problems.ts';
export * from './signing.ts';
export * from './time.ts';
export * from './uuid.ts';
export * from './version.ts';
