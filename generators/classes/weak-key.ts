// weakKey: public keys a verifier short of PROFILE.md §2.3 trusts (class
// key.weak): points of small order, with which a signature by nobody
// verifies under a cofactorless check that does not refuse them; non-canonical
// encodings (y ≥ p); and, for the JWK, a kid that is not its thumbprint.
// mixedOrderKey: the key a verifier stricter than §2.3 refuses (class
// key.mixed-order): A = [a]B + T, T a point of small order other than the
// identity, signing so that both equations hold (speccheck's case 3, which
// §2.3 accepts). The harness makes it (harness/crypto/ed25519-malleate.ts).
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

const P = 2n ** 255n - 19n;
const Y8 = 2707385501144840649318225287225658788936804267575313519463743609750303402022n;

export type WeakKeyKind = 'small-order' | 'non-canonical' | 'kid-mismatch';

export interface WeakKey {
  readonly kind: WeakKeyKind;
  /** The 32-byte encoding of A (absent for kid-mismatch, which uses a real key). */
  readonly encoding?: Uint8Array;
  /** For small-order: the point's order (1, 2, 4 or 8). */
  readonly order?: number;
}

function le32(n: bigint, signBit = false): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  if (signBit) out[31]! |= 0x80;
  return out;
}

/** The small-order points by their canonical encodings: y and the x sign, with their order. */
const SMALL_ORDER: readonly [bigint, boolean, number, string][] = [
  [1n, false, 1, 'the identity'],
  [P - 1n, false, 2, '(0, −1), order 2'],
  [0n, false, 4, 'x = √−1, y = 0, order 4'],
  [0n, true, 4, 'x = −√−1, y = 0, order 4'],
  [Y8, false, 8, 'an order-8 point'],
  [Y8, true, 8, 'an order-8 point, negated'],
  [P - Y8, false, 8, 'an order-8 point, y = p − Y8'],
  [P - Y8, true, 8, 'an order-8 point, y = p − Y8, negated'],
];

/** The small-order points other than the identity: T of a mixed-order key or R (signature.ts r-mixed-order). */
export const TORSION_POINTS: readonly { readonly encoding: Uint8Array; readonly order: number; readonly what: string }[] = SMALL_ORDER.filter(([, , order]) => order > 1).map(([y, sign, order, what]) => ({ encoding: le32(y, sign), order, what }));

export function weakKey(): fc.Arbitrary<ClassValue<WeakKey>> {
  const smallOrder = fc.constantFrom(...SMALL_ORDER).map(([y, sign, order, what]): ClassValue<WeakKey> => ({ class: 'key.weak', value: { kind: 'small-order', encoding: le32(y, sign), order }, note: `A = ${what}` }));
  const nonCanonical = fc.tuple(fc.integer({ min: 0, max: 18 }), fc.boolean()).map(([k, sign]): ClassValue<WeakKey> => ({ class: 'key.weak', value: { kind: 'non-canonical', encoding: le32(P + BigInt(k), sign) }, note: `A written with y = p + ${k}${sign ? ', sign bit set' : ''}` }));
  const kidMismatch = fc.constant<ClassValue<WeakKey>>({ class: 'key.weak', value: { kind: 'kid-mismatch' }, note: 'a kid that is not the key\'s thumbprint' });
  return fc.oneof({ weight: 3, arbitrary: smallOrder }, { weight: 2, arbitrary: nonCanonical }, { weight: 1, arbitrary: kidMismatch });
}

export interface MixedOrderKey {
  /** The seed a is derived from (RFC 8032 §5.1.5), so that A = [a]B + T. */
  readonly seed: Uint8Array;
  /** T: one of TORSION_POINTS. */
  readonly torsion: (typeof TORSION_POINTS)[number];
}

export function mixedOrderKey(): fc.Arbitrary<ClassValue<MixedOrderKey>> {
  return fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom(...TORSION_POINTS)).map(([seed, torsion]) => ({
    class: 'key.mixed-order' as const,
    value: { seed, torsion },
    note: `A = [a]B + ${torsion.what}, signing so that both equations hold`,
  }));
}
