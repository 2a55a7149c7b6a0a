// The paying-application fuzzer's documents drawn field by field from the
// field classes (generators/classes/): a valid CPR of any sub-interface, then
// one to three of its fields, each a field of the inventory
// (harness/properties/fields.ts) that the sub-interface carries, set to a
// member of one of that field's classes: identifiers in other cases and forms,
// timestamps with 1 to 9 fraction digits, offsets and leap seconds, amounts
// beyond 2^53 and at the profile's ends, text at its bound in code points with
// more UTF-16 units and UTF-8 bytes, one over, non-ASCII and in either
// normalisation form, enumerations and codes in other letter cases, payer data
// at any depth of extensions, and expires_at at and within a second of
// created_at. Whether the result is a CPR is the profile's own validator's to
// say (oracle.ts): nothing here predicts it.
import fc from 'fast-check';
import { identifySubInterface } from '../../../profile/cpr/index.ts';
import { formatTimestamp, parseTimestamp } from '../../../profile/time.ts';
import { validCpr } from '../../../generators/index.ts';
import { boundaryOffset, payerDataVariant, type ClassValue, type FieldClassId } from '../../../generators/classes/index.ts';
import { fieldsOf, type Field } from '../../properties/fields.ts';
import { cprWith, subInterfacesOf } from '../../properties/field-classes/app-fields.ts';
import { getAt } from '../../properties/field-classes/pointer.ts';
import { formVariant, isFormClass } from '../../properties/field-classes/variants.ts';

/** One field of the document set to a member of one of its classes. */
export interface Draw {
  readonly field: string;
  readonly class: FieldClassId;
  readonly note: string;
}

export interface DrawnCprConstraints {
  /** The generation instant (ms): the valid CPR drawn from is not expired at it. */
  readonly now: number;
  /** Most fields drawn from their classes, 1 to 8. @defaultValue 3 */
  readonly maxDraws?: number;
}

/** The two instants of a CPR: each one's boundary is the other (expires_at after created_at, spec §2.1). */
const PAIRED: Readonly<Record<string, string>> = { '/created_at': '/expires_at', '/expires_at': '/created_at' };

/** The (field, class) pairs of the CPR a document can draw from. */
const TARGETS: readonly { readonly field: Field; readonly cls: FieldClassId }[] = fieldsOf('cpr').flatMap((field) =>
  field.classes.filter((c) => isFormClass(c) || c === 'payer.depth' || (c === 'timestamp.boundary' && PAIRED[field.pointer] !== undefined)).map((cls) => ({ field, cls })),
);

type Json = Record<string, unknown>;

/** A member of `cls` for `field` of `doc`, as the value the field takes in it. */
function variant(field: Field, cls: FieldClassId, doc: Json): fc.Arbitrary<ClassValue> {
  if (cls === 'payer.depth') {
    // Merged into the extensions the document has: the payer member sits among ordinary ones.
    const own = typeof doc.extensions === 'object' && doc.extensions !== null && !Array.isArray(doc.extensions) ? (doc.extensions as Json) : {};
    return payerDataVariant().map((v): ClassValue => ({ class: cls, value: { ...own, ...v.value.extensions }, note: v.note }));
  }
  if (cls === 'timestamp.boundary') {
    const other = PAIRED[field.pointer]!;
    const at = parseTimestamp(getAt(doc, other), 'cpr')!;
    const sign = field.pointer === '/expires_at' ? 1 : -1;
    return boundaryOffset({ tick: 'ms' }).map((o): ClassValue => ({ class: cls, value: formatTimestamp(at + sign * o.value, 'cpr'), note: `${o.note} of ${other.slice(1)}` }));
  }
  if (!isFormClass(cls)) throw new Error(`no generator of ${cls} for ${field.id}`);
  return formVariant(field, cls, getAt(doc, field.pointer));
}

/** Documents drawn field by field from the field classes (see the header), with the draws that made them. */
export function drawnCpr(constraints: DrawnCprConstraints): fc.Arbitrary<{ readonly drawn: unknown; readonly draws: readonly Draw[] }> {
  const { now, maxDraws = 3 } = constraints;
  if (!Number.isInteger(maxDraws) || maxDraws < 1 || maxDraws > 8) throw new RangeError(`drawnCpr: constraints.maxDraws must be an integer from 1 to 8, got ${String(maxDraws)}`);
  return validCpr({ now, maxExtensionKeys: 2 }).chain((cpr) => {
    const base = cpr as unknown as Json;
    const sub = identifySubInterface((base.payee as Json).rail_address as Json, base.rail_hint)!;
    // A class first, then one of its fields: every class is as likely as another, however many fields have it.
    const carried = TARGETS.filter((t) => subInterfacesOf(t.field).includes(sub));
    const byClass = [...new Set(carried.map((t) => t.cls))].map((cls) => carried.filter((t) => t.cls === cls));
    const pick = fc.tuple(fc.nat({ max: byClass.length - 1 }), fc.nat()).map(([c, f]) => byClass[c]![f % byClass[c]!.length]!);
    // Mostly one field: a member that breaks a rule is then the only thing wrong, and a reader that lets it through is seen doing so.
    const count = fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: maxDraws }) });
    const picks = count.chain((n) => fc.uniqueArray(pick, { minLength: 1, maxLength: n, selector: (t) => t.field.id }));
    return picks.chain((targets) =>
      fc.tuple(...targets.map((target) => variant(target.field, target.cls, base).map((v) => ({ target, v })))).map((chosen) => ({
        drawn: chosen.reduce<Json>((doc, { target, v }) => cprWith(doc, target.field, v.value), base),
        draws: chosen.map(({ target, v }) => ({ field: target.field.id, class: target.cls, note: v.note })),
      })),
    );
  });
}
