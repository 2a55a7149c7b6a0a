// signingInputBend: a signature made, by the right key, over bytes other than
// PROFILE.md §2.2's signing input, ASCII(tag) || 0x0A || JCS(object without
// "signature") (class signature.input). Each bend is one mistake an
// implementation makes in building that input: the tag of another message
// type, the tag's namespace written as a profile identifier (the tags are
// names, not versions: they keep CPP-PROFILE-1.0 whatever the profile is
// called), the tag in another letter case or with the type spelled otherwise,
// no tag, another separator, the object serialised otherwise than by JCS, or
// with its `signature` member. A verifier that builds the input any of these
// ways accepts that signature; PROFILE.md §2.3 refuses it (INVALID_SIGNATURE).
import fc from 'fast-check';
import { canonicalJson } from '../../profile/jcs.ts';
import { MESSAGE_TYPES, SIGNING_TAGS, signingInput, type MessageType } from '../../profile/signing.ts';
import { PROFILE_VERSIONS, TAG_NAMESPACE } from '../../profile/version.ts';
import type { ClassValue } from './catalogue.ts';

type Unsigned = Readonly<Record<string, unknown>>;

export interface SigningInputBend {
  /** The tag, for the message type the bend is made for. */
  readonly tag: (type: MessageType) => string;
  /** What stands between the tag and the object. */
  readonly separator: string;
  /** The object as the bend writes it. */
  readonly body: (unsigned: Unsigned) => string;
}

const JCS = (unsigned: Unsigned): string => canonicalJson(unsigned);
const right = { tag: (type: MessageType) => SIGNING_TAGS[type], separator: '\n', body: JCS };

/** The identifiers the profile has had besides the tags' name: an implementation may take the one it advertises for it. */
const PROFILE_IDS = PROFILE_VERSIONS.map((v) => v.id).filter((id) => id !== TAG_NAMESPACE);

const ORDINALS = ['first', 'second', 'third', 'fourth'];

const camel = (type: MessageType) => type.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

const bend = (note: string, changes: Partial<SigningInputBend>): ClassValue<SigningInputBend> => ({ class: 'signature.input', value: { ...right, ...changes }, note });

const spellings = fc.constantFrom(
  bend('the tag in capitals', { tag: (type) => SIGNING_TAGS[type].toUpperCase() }),
  bend('the tag in small letters', { tag: (type) => SIGNING_TAGS[type].toLowerCase() }),
  bend('the type written with an underscore', { tag: (type) => `${TAG_NAMESPACE}/${type.replaceAll('-', '_')}` }),
  bend('the type written in camel case', { tag: (type) => `${TAG_NAMESPACE}/${camel(type)}` }),
  bend('the tag without its namespace', { tag: (type) => type }),
  bend('the tag with a space after it', { tag: (type) => `${SIGNING_TAGS[type]} ` }),
  bend('no tag and no separator', { tag: () => '', separator: '' }),
);

/** Another message type's tag: the type the bend is made for is replaced by the k-th other. */
const otherType = fc.nat(MESSAGE_TYPES.length - 2).map((k) => bend(`another message type's tag (the ${ORDINALS[k]} other, in the profile's order)`, { tag: (type) => SIGNING_TAGS[MESSAGE_TYPES.filter((t) => t !== type)[k]!] }));

const separators = fc.constantFrom(
  bend('no separator', { separator: '' }),
  bend('CR LF as the separator', { separator: '\r\n' }),
  bend('a space as the separator', { separator: ' ' }),
  bend('two line feeds', { separator: '\n\n' }),
);

const bodies = fc.constantFrom(
  bend('the object with its members in reverse order', { body: (u) => JSON.stringify(Object.fromEntries(Object.entries(u).reverse())) }),
  bend('the object indented', { body: (u) => JSON.stringify(JSON.parse(canonicalJson(u)), null, 1) }),
  bend('the object with its signature member, empty', { body: (u) => canonicalJson({ ...u, signature: '' }) }),
);

export interface SigningInputBendConstraints {
  /**
   * The profile identifier the target publishes (its policy document's
   * `profile`): half the tags named after a profile identifier take it, the
   * rest any the profile has had. @defaultValue none: any of them
   */
  readonly published?: string;
}

/** A bend of the signing input: the tag (most often; named after a profile identifier half the time), the separator, or the object's serialisation. */
export function signingInputBend(constraints: SigningInputBendConstraints = {}): fc.Arbitrary<ClassValue<SigningInputBend>> {
  const { published } = constraints;
  if (published !== undefined && typeof published !== 'string') throw new RangeError(`signingInputBend: constraints.published must be a string, got ${String(published)}`);
  const known = fc.constantFrom(...PROFILE_IDS);
  const ids = published === undefined || published === TAG_NAMESPACE ? known : fc.oneof(fc.constant(published), known);
  const profileNamed = ids.map((id) => bend(`the tag named after the profile identifier ${id}`, { tag: (type) => `${id}/${type}` }));
  const tags = fc.oneof({ weight: 1, arbitrary: otherType }, { weight: 2, arbitrary: profileNamed }, { weight: 1, arbitrary: spellings });
  return fc.oneof({ weight: 4, arbitrary: tags }, { weight: 1, arbitrary: separators }, { weight: 1, arbitrary: bodies });
}

/**
 * The bytes a bend signs for `type` and `unsigned` (the object without its
 * signature), or undefined where they are §2.2's own (the members of a one-member
 * object in reverse order, say): no bend then.
 */
export function bentSigningInput(type: MessageType, unsigned: Unsigned, b: SigningInputBend): Uint8Array | undefined {
  const bytes = new TextEncoder().encode(`${b.tag(type)}${b.separator}${b.body(unsigned)}`);
  return Buffer.from(bytes).equals(signingInput(type, unsigned)) ? undefined : bytes;
}
