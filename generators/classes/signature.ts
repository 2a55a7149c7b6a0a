// signatureMalleation: how an Ed25519 signature is bent so that a verifier
// short of PROFILE.md §2.3's strict rule accepts it (class signature.malleable).
// The harness applies it (harness/crypto/ed25519-malleate.ts): S + k·L needs
// only the signature, so it applies to the Operator's own; a small-order or
// non-canonical R needs the signer's private key.
import fc from 'fast-check';
import type { ClassValue } from './catalogue.ts';

export type MalleationKind = 's-plus-l' | 'r-small-order' | 'r-non-canonical';

export interface Malleation {
  readonly kind: MalleationKind;
  /** For s-plus-l: S + multiple · L (1 to 14: S + 14 L still fits 32 bytes). */
  readonly multiple: number;
}

export interface SignatureMalleationConstraints {
  /** Whether the signer's private key is at hand (only S + k·L otherwise). @defaultValue true */
  readonly withKey?: boolean;
}

export function signatureMalleation(constraints: SignatureMalleationConstraints = {}): fc.Arbitrary<ClassValue<Malleation>> {
  const { withKey = true } = constraints;
  if (typeof withKey !== 'boolean') throw new RangeError(`signatureMalleation: constraints.withKey must be a boolean, got ${String(withKey)}`);
  const kinds: MalleationKind[] = withKey ? ['s-plus-l', 'r-small-order', 'r-non-canonical'] : ['s-plus-l'];
  return fc.tuple(fc.constantFrom(...kinds), fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 14 }))).map(([kind, multiple]) => ({
    class: 'signature.malleable' as const,
    value: { kind, multiple },
    note: kind === 's-plus-l' ? `S + ${multiple}·L` : kind === 'r-small-order' ? 'R of small order, S = k·a' : 'R of small order written with y = p + 1',
  }));
}
