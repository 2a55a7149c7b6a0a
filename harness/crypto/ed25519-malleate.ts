// Ed25519 signatures bent the ways a verifier short of PROFILE.md §2.3 still
// accepts (generators/classes/signature.ts, weak-key.ts): S + k·L, which a
// verifier that reduces S takes for S; a small-order R under the real key
// (ed25519-forge.ts); and a signature by nobody under a small-order public key,
// which a cofactorless verifier that does not refuse small-order keys accepts;
// an R of mixed order that only the cofactored equation accepts. And the one
// kind of key a verifier stricter than §2.3 refuses: a mixed-order A, signing
// so that both equations hold.
// Test material only: nothing here signs for real.
import { createHash } from 'node:crypto';
import { generateKeyPair } from '../../profile/ed25519.ts';
import { encodeB64url } from '../../profile/b64url.ts';
import { publicJwk, type OkpJwk } from '../../profile/jwk.ts';
import { signingInput, type MessageType } from '../../profile/signing.ts';
import { ed } from './noble.ts';
import { forgeTorsionSignature, L, le32, leInt, secretScalar } from './ed25519-forge.ts';
import type { Malleation } from '../../generators/classes/signature.ts';
import { TORSION_POINTS, type MixedOrderKey } from '../../generators/classes/weak-key.ts';

type Signer = { readonly secretKey: Uint8Array; readonly publicKey: Uint8Array };

const sha512 = (...parts: (Uint8Array | string)[]): Uint8Array => {
  const h = createHash('sha512');
  for (const part of parts) h.update(part);
  return new Uint8Array(h.digest());
};

/** A nonce r in [1, L) drawn from `parts`, so that the same inputs give the same signature. */
const nonce = (...parts: (Uint8Array | string)[]): bigint => (leInt(sha512(...parts)) % (L - 1n)) + 1n;

/** `signature` with S replaced by S + multiple · L (still 32 bytes for multiple ≤ 14). */
export function withSPlusL(signature: Uint8Array, multiple: number): Uint8Array {
  if (signature.length !== 64 || !Number.isInteger(multiple) || multiple < 1 || multiple > 14) throw new RangeError('withSPlusL: a 64-byte signature and a multiple from 1 to 14');
  return new Uint8Array(Buffer.concat([signature.subarray(0, 32), le32(leInt(signature.subarray(32)) + BigInt(multiple) * L)]));
}

/** The signature of `message` bent as `m` says; a small-order R needs the signer's key. */
export function malleate(signature: Uint8Array, m: Malleation, message: Uint8Array, signer?: Signer): Uint8Array {
  if (m.kind === 's-plus-l') return withSPlusL(signature, m.multiple);
  if (!signer) throw new Error(`malleate: ${m.kind} needs the signer's key`);
  if (m.kind === 'r-mixed-order') return withMixedOrderR(message, signer, TORSION_POINTS[m.torsion]!.encoding);
  return new Uint8Array(forgeTorsionSignature(signer.secretKey, signer.publicKey, message, m.kind === 'r-small-order' ? 'small-order' : 'non-canonical'));
}

/**
 * A signature of `message` by `signer` whose R is [r]B + T, T the point of
 * small order `torsion`, and S = r + k·a with k = H(R || A || M): [S]B − [k]A
 * is [r]B, not R, so the cofactorless equation fails, while [8][S]B =
 * [8]R + [8][k]A holds. RFC 8032 §5.1.7 lets a verifier check either; PROFILE.md
 * §2.3 requires the cofactorless one.
 */
export function withMixedOrderR(message: Uint8Array, signer: Signer, torsion: Uint8Array): Uint8Array {
  const a = secretScalar(signer.secretKey) % L;
  const r = nonce(signer.secretKey, 'mixed-order R', message);
  const rBytes = ed.Point.BASE.multiply(r).add(ed.Point.fromBytes(torsion)).toBytes();
  const k = leInt(sha512(rBytes, signer.publicKey, message)) % L;
  return new Uint8Array(Buffer.concat([rBytes, le32((r + k * a) % L)]));
}

/**
 * The key of class key.mixed-order: A = [a]B + T, and its signatures: R = [r]B
 * for an r whose k = H(R || A || M) is a multiple of T's order, so that [k]T is
 * the identity and S = r + k·a meets the cofactorless equation and the
 * cofactored one alike (speccheck's case 3, which PROFILE.md §2.3 accepts).
 */
export function mixedOrderSigner(key: MixedOrderKey): { readonly publicKey: Uint8Array; sign(message: Uint8Array): Uint8Array } {
  const a = secretScalar(key.seed) % L;
  const publicKey = ed.Point.BASE.multiply(a).add(ed.Point.fromBytes(key.torsion.encoding)).toBytes();
  const order = BigInt(key.torsion.order);
  return {
    publicKey,
    sign(message) {
      for (let i = 0; i < 4096; i++) {
        const r = nonce(key.seed, `mixed-order key ${i}`, message);
        const rBytes = ed.Point.BASE.multiply(r).toBytes();
        const k = leInt(sha512(rBytes, publicKey, message)) % L;
        if (k % order === 0n) return new Uint8Array(Buffer.concat([rBytes, le32((r + k * a) % L)]));
      }
      throw new Error(`mixedOrderSigner: no r found for order ${order}`);
    },
  };
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

/** A key of class key.mixed-order as the JWK a message names, and a message signed by it (its signature member replaced) so that both equations hold. */
export function mixedOrderBearer(key: MixedOrderKey): { readonly jwk: OkpJwk; signed<T extends object>(type: MessageType, message: T): T } {
  const signer = mixedOrderSigner(key);
  return {
    jwk: publicJwk(signer.publicKey),
    signed<T extends object>(type: MessageType, message: T): T {
      const { signature: _old, ...unsigned } = message as T & { signature?: unknown };
      return { ...unsigned, signature: encodeB64url(signer.sign(signingInput(type, unsigned))) } as T;
    },
  };
}
