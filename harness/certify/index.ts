// Certification packages: one signed, deterministic archive of a full run
// (contents.ts says what it holds). suite.ts digests the suite that ran,
// grade.ts says whether a run certifies, keys.ts and jws.ts make and check the
// signature, build.ts writes a package, verify.ts checks one, archive.ts is the tar.
export { buildPackage, targetSlug } from './build.ts';
export { PACKAGE_ENTRIES } from './contents.ts';
export { certificationProblems } from './grade.ts';
export { freshSigningKey, privateJwk, readPublicKid, readSigningKey, type SigningKey } from './keys.ts';
export { suiteDigest } from './suite.ts';
export { verifyPackage } from './verify.ts';
