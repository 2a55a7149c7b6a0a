// PROP-APP-010: every field of a CPR, every class of its form (identifiers,
// timestamps, amounts, texts, enumerations, codes) and payer data at any depth
// of extensions, read through every delivery path: the paying application
// accepts the CPR exactly when the
// profile's own validator (profile/cpr/validate.ts) does. Each case generates
// one member of every (field, class) pair the inventory gives the CPR, and of
// a length class two: one within the field's bounds and one outside them.
import fc from 'fast-check';
import { addressFields, otherFields, SUB_INTERFACES, validateCpr, type SubInterface } from '../../../profile/cpr/index.ts';
import { validCpr } from '../../../generators/index.ts';
import { letterCaseVariant, payerDataVariant, type ClassValue } from '../../../generators/classes/index.ts';
import { fieldsOf, type Field } from '../fields.ts';
import { acceptanceCharges } from '../../cpr-charges.ts';
import { crashed, define, firstFailure, FUTURE } from '../support.ts';
import type { Coverage } from '../types.ts';
import { deliveryPath, readThrough, type DeliveryPath } from './delivery-paths.ts';
import { getAt, withAt } from './pointer.ts';
import { formVariant, isFormClass, type FormClass } from './variants.ts';

const FILE = 'harness/properties/field-classes/app-fields.ts';

/** The sub-interfaces whose requests carry the member (PROFILE.md §7.4); every one for a base member. */
export function subInterfacesOf(field: Field): SubInterface[] {
  const name = field.pointer.split('/').at(-1)!;
  if (field.pointer.startsWith('/payee/rail_address/')) return SUB_INTERFACES.filter((s) => addressFields(s).includes(name as never));
  // value.asset.chain_id must equal the on-chain chain_id in an ON_CHAIN request: its forms are judged off chain.
  if (field.pointer === '/value/asset/chain_id') return SUB_INTERFACES.filter((s) => s !== 'ON_CHAIN');
  const rail = SUB_INTERFACES.filter((s) => addressFields(s).includes(name as never) || otherFields(s).includes(name as never));
  return rail.length > 0 ? rail : [...SUB_INTERFACES];
}

/**
 * The CPR with the member at the field set to `value`. An address field is
 * authoritative in payee.rail_address and its top-level copy must equal it
 * (PROFILE.md §7.4): the copy is set with it, or left out, so that only the
 * class's own rule is judged.
 */
export function cprWith(base: Record<string, unknown>, field: Field, value: unknown): Record<string, unknown> {
  const name = field.pointer.split('/').at(-1)!;
  if (field.pointer.startsWith('/payee/rail_address/')) return withAt(withAt(base, field.pointer, value), `/${name}`, undefined);
  const isAddress = SUB_INTERFACES.some((s) => addressFields(s).includes(name as never));
  if (field.pointer === `/${name}` && isAddress) return withAt(withAt(base, `/payee/rail_address/${name}`, value), field.pointer, value);
  return withAt(base, field.pointer, value);
}

type AppClass = FormClass | 'payer.depth';

interface Target {
  readonly field: Field;
  readonly cls: AppClass;
  /** The value whose letters the variant changes, where one value decides more than the others. */
  readonly around?: string;
  /** Of a length class: a member within the field's bounds, or one outside them (one over the most, one under the least). */
  readonly bounds?: 'within' | 'outside';
}

// rail_hint's case matters for one value: an ON_CHAIN request must carry exactly
// "ON_CHAIN", and "on_chain" on any other request is an unlisted hint, read as
// no preference (PROFILE.md §7.4, §8.3). Every case writes ON_CHAIN in other
// letters, on a request of a drawn sub-interface, besides the drawn value's variant.
const RAIL_HINT_DECIDING = 'ON_CHAIN';

const TARGETS: readonly Target[] = fieldsOf('cpr').flatMap((field) =>
  field.classes
    .filter((c): c is AppClass => isFormClass(c) || c === 'payer.depth')
    .flatMap((cls): Target[] =>
      cls === 'text.length'
        ? // Both sides of the bounds in every case: a case or two a run would otherwise miss the one just over them.
          [{ field, cls, bounds: 'within' }, { field, cls, bounds: 'outside' }]
        : [{ field, cls }, ...(field.pointer === '/rail_hint' && cls === 'enum.case' ? [{ field, cls, around: RAIL_HINT_DECIDING }] : [])],
    ),
);

interface Item {
  readonly field: string;
  readonly class: AppClass;
  readonly variant: ClassValue;
  readonly path: DeliveryPath;
  readonly doc: Record<string, unknown>;
}

const bases = fc.tuple(...SUB_INTERFACES.map((subInterface) => validCpr({ now: FUTURE, subInterface, amount: 'fixed', maxExtensionKeys: 1 }).map((cpr) => cpr as unknown as Record<string, unknown>)));

function item({ field, cls, around, bounds }: Target, all: readonly Record<string, unknown>[]): fc.Arbitrary<Item> {
  const subs = subInterfacesOf(field);
  return fc.tuple(fc.constantFrom(...subs), deliveryPath).chain(([sub, path]) => {
    const base = all[SUB_INTERFACES.indexOf(sub)]!;
    const variant =
      cls === 'payer.depth'
        ? payerDataVariant().map((v): ClassValue => ({ class: cls, value: v.value.extensions, note: v.note }))
        : around !== undefined && cls === 'enum.case'
          ? letterCaseVariant({ class: cls, value: around })
          : formVariant(field, cls, getAt(base, field.pointer)).filter((v) => bounds === undefined || (v as { withinBounds?: boolean }).withinBounds === (bounds === 'within'));
    return variant.map((v) => ({ field: field.id, class: cls, variant: v, path, doc: cprWith(base, field, v.value) }));
  });
}

/** Requirements a violation names that bind the paying application, besides DRV-VALID-1. */

const REQUIREMENTS = ['DRV-VALID-1', 'CPR-PAYER-1', 'PRF-PAYER-1', 'CPR-RAIL-1', 'CPR-VER-1', 'PRF-TIME-1', 'PRF-AMT-1', 'PRF-LEN-1', 'PRF-ID-1', 'PRF-ASSET-1', 'PRF-EVM-1', 'PRF-IBAN-1', 'PRF-FIELD-1', 'DLV-FILE-1', 'DLV-INLINE-1'];

export const APP_FIELDS = define<{ readonly items: readonly Item[] }>({
  id: 'PROP-APP-010',
  title: 'every CPR field in every class of its form, read through every delivery path, is accepted exactly when the profile\'s validator accepts it',
  requirements: REQUIREMENTS,
  level: 'MUST',
  role: 'paying-app',
  sections: ['§4.5.1', '§4.4', '§2.1', '§2.5', 'PROFILE §1', 'PROFILE §7'],
  needs: [],
  defaultRuns: 20,
  caseWeight: 10,
  file: FILE,
  covers: TARGETS.filter((t) => t.around === undefined && t.bounds !== 'outside').map(({ field, cls }): Coverage => ({ field: field.id, class: cls })),
  arbitrary: () => bases.chain((all) => fc.tuple(...TARGETS.map((target) => item(target, all)))).map((items) => ({ items })),
  async check(ctx, { items }) {
    return firstFailure(ctx, items, 16, async (it) => {
      const oracle = validateCpr(it.doc);
      const { answer, path } = await readThrough(ctx, it.path, JSON.stringify(it.doc));
      const expected = oracle.ok ? 'accepted' : { rejected: oracle.violations.map((v) => `${v.path} ${v.requirement}`) };
      const where = `${it.field}, ${it.class} (${it.variant.note}), read as ${path}`;
      if (crashed(answer)) return { expected, actual: { crashed: answer.message }, message: `${where}: the paying application crashed`, requirements: ['DRV-VALID-1'] };
      if (answer.ok === oracle.ok) return undefined;
      return {
        expected,
        actual: answer.ok ? 'accepted' : { code: answer.code, message: answer.message },
        message: `${where}: ${oracle.ok ? 'a valid CPR was refused' : 'an invalid CPR was accepted'}`,
        requirements: oracle.ok ? ['DRV-VALID-1', ...(it.field === 'cpr/rail_hint' ? ['CPR-RAIL-1'] : [])] : acceptanceCharges(oracle.violations.map((v) => v.requirement)),
      };
    });
  },
});
