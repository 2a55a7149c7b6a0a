// signatureMalleation: how an Ed25519 signature is bent so that a verifier
// short of PROFILE.md §2.3's strict rule accepts it (class signature.malleable).
// The harness applies it (harness/crypto/ed25519-malleate.ts): S + k·L needs
// only the signature, so it applies to the Operator's own; a small-order or
// non-canonical R needs the signer's private key, and so does an R of mixed
// order ([r]B plus a point of small order, S = r + k·a), which only the
// cofactored equation RFC 8032 also allows accepts.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';
import { TORSION_POINTS } from './weak-key.ts';

export type MalleationKind = 's-plus-l' | 'r-small-order' | 'r-non-canonical' | 'r-mixed-order';

export interface Malleation {
  readonly kind: MalleationKind;
  /** For s-plus-l: S + multiple · L (1 to 14: S + 14 L still fits 32 bytes). */
  readonly multiple: number;
  /** For r-mixed-order: the point of small order added to R (an index into TORSION_POINTS). */
  readonly torsion: number;
}

export interface SignatureMalleationConstraints {
  /** Whether the signer's private key is at hand (only S + k·L otherwise). @defaultValue true */
  readonly withKey?: boolean;
}

export function signatureMalleation(constraints: SignatureMalleationConstraints = {}): fc.Arbitrary<ClassValue<Malleation>> {
  const { withKey = true } = constraints;
  if (typeof withKey !== 'boolean') throw new RangeError(`signatureMalleation: constraints.withKey must be a boolean, got ${String(withKey)}`);
  const kinds: readonly MalleationKind[] = withKey ? MALLEATION_KINDS : ['s-plus-l'];
  return fc.tuple(fc.constantFrom(...kinds), fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 14 })), fc.nat(TORSION_POINTS.length - 1)).map(([kind, multiple, torsion]) => {
    const value = { kind, multiple, torsion };
    return { class: 'signature.malleable' as const, value, note: malleationNote(value) };
  });
}

/** Every kind of bend, the ones that need the signer's key among them. */
export const MALLEATION_KINDS: readonly MalleationKind[] = ['s-plus-l', 'r-small-order', 'r-non-canonical', 'r-mixed-order'];

/** What a bend does, for a reader. */
export function malleationNote({ kind, multiple, torsion }: Malleation): string {
  if (kind === 's-plus-l') return `S + ${multiple}·L`;
  if (kind === 'r-small-order') return 'R of small order, S = k·a';
  if (kind === 'r-non-canonical') return 'R of small order written with y = p + 1';
  return `R = [r]B + ${TORSION_POINTS[torsion]!.what}, S = r + k·a: only the cofactored equation holds`;
}
