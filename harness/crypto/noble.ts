// @noble/ed25519 with the SHA-512 its synchronous signing needs, set once for
// the package's keys and signatures.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

ed.hashes.sha512 = sha512;

export { ed };
