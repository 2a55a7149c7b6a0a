// Ed25519 signatures bent the ways a verifier short of PROFILE.md §2.3 still
// accepts (generators/classes/signature.ts, weak-key.ts): S + k·L, which a
// verifier that reduces S takes for S; a small-order R under the real key
// (ed25519-forge.ts); and a signature by nobody under a small-order public key,
// which a cofactorless verifier that does not refuse small-order keys accepts.
// Test material only: nothing here signs for real.
import { createHash } from 'node:crypto';
import { generateKeyPair } from '../../profile/ed25519.ts';
import { forgeTorsionSignature, L, le32, leInt, secretScalar } from './ed25519-forge.ts';
import type { Malleation } from '../../generators/classes/signature.ts';

/** `signature` with S replaced by S + multiple · L (still 32 bytes for multiple ≤ 14). */
export function withSPlusL(signature: Uint8Array, multiple: number): Uint8Array {
  if (signature.length !== 64 || !Number.isInteger(multiple) || multiple < 1 || multiple > 14) throw new RangeError('withSPlusL: a 64-byte signature and a multiple from 1 to 14');
  return new Uint8Array(Buffer.concat([signature.subarray(0, 32), le32(leInt(signature.subarray(32)) + BigInt(multiple) * L)]));
}

/** The signature of `message` bent as `m` says; a small-order R needs the signer's key. */
export function malleate(signature: Uint8Array, m: Malleation, message: Uint8Array, signer?: { readonly secretKey: Uint8Array; readonly publicKey: Uint8Array }): Uint8Array {
  if (m.kind === 's-plus-l') return withSPlusL(signature, m.multiple);
  if (!signer) throw new Error(`malleate: ${m.kind} needs the signer's key`);
  return new Uint8Array(forgeTorsionSignature(signer.secretKey, signer.publicKey, message, m.kind === 'r-small-order' ? 'small-order' : 'non-canonical'));
}

/**
 * A signature of `message` under the public key `encoding`, a point of small
 * order `order`: R = [r]B and S = r for an r whose k = H(R || A || M) is a
 * multiple of the order, so that [k]A is the identity and [S]B = R + [k]A.
 */
export function forgeUnderSmallOrderKey(encoding: Uint8Array, order: number, message: Uint8Array): Uint8Array {
  for (let i = 0; i < 4096; i++) {
    const seed = new Uint8Array(createHash('sha256').update(`forge ${i}\n`).update(message).digest());
    const r = generateKeyPair(seed).publicKey;
    const k = leInt(createHash('sha512').update(r).update(encoding).update(message).digest()) % L;
    if (k % BigInt(order) === 0n) return new Uint8Array(Buffer.concat([r, le32(secretScalar(seed) % L)]));
  }
  throw new Error(`forgeUnderSmallOrderKey: no r found for order ${order}`);
}
