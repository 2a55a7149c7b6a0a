// payerDataVariant: extensions that carry a payer-named member (PROFILE.md
// §7.5) at any depth: a member of extensions itself, of an object nested in
// it, or of an object inside an array, half of them on a path through an
// array (class payer.depth). A rule applied at the top level only passes every
// one that is nested, one that walks objects only every one inside an array.
import fc from 'fast-check';
import { matching } from '../parts/deferred.ts';
import type { ClassValue } from './catalogue.ts';

export interface PayerDataVariantConstraints {
  /** Deepest nesting of the payer member below extensions (0: a member of extensions itself), 0 to 8. @defaultValue 4 */
  readonly maxDepth?: number;
}

export interface PayerData {
  readonly extensions: Record<string, unknown>;
  /** JSON Pointer of the payer member, from the CPR's root. */
  readonly path: string;
}

/** A name PROFILE.md §7.5 keeps out of a CPR: payer, authorization, settlement, or payer_ and more. */
export const payerMemberName: fc.Arbitrary<string> = fc.oneof(fc.constantFrom('payer', 'authorization', 'settlement'), matching(/^[a-z_]{1,12}$/).map((s) => `payer_${s}`));
const EXT_KEYS = fc.constantFrom('std:invoice', 'com.example.order', 'org.example.loyalty', 'net.example.meta');
const CHILD_KEYS = fc.constantFrom('customer', 'lines', 'meta', 'ref', 'details', 'x');

export function payerDataVariant(constraints: PayerDataVariantConstraints = {}): fc.Arbitrary<ClassValue<PayerData>> {
  const { maxDepth = 4 } = constraints;
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 8) throw new RangeError(`payerDataVariant: constraints.maxDepth must be an integer from 0 to 8, got ${String(maxDepth)}`);
  const inArray = { key: '0', array: true };
  const step = fc.oneof(CHILD_KEYS.map((k) => ({ key: k, array: false })), fc.constant(inArray));
  // Half the paths go through an array at least once (at any place of the path): a search that walks objects only misses them.
  const steps = fc.oneof(
    fc.array(step, { maxLength: maxDepth }),
    maxDepth === 0 ? fc.array(step, { maxLength: 0 }) : fc.tuple(fc.array(step, { maxLength: maxDepth - 1 }), fc.nat()).map(([rest, at]) => [...rest.slice(0, at % (rest.length + 1)), inArray, ...rest.slice(at % (rest.length + 1))]),
  );
  return fc
    .tuple(EXT_KEYS, steps, payerMemberName, fc.jsonValue({ maxDepth: 1 }), fc.boolean())
    .map(([extKey, steps, name, payerValue, topLevel]) => {
      if (topLevel && steps.length === 0) {
        return { class: 'payer.depth' as const, value: { extensions: { [extKey]: 'ok', [name]: payerValue }, path: `/extensions/${name}` }, note: `extensions.${name}` };
      }
      let node: Record<string, unknown> = { [name]: payerValue, note: 'kept' };
      let path = `/${name}`;
      for (const s of [...steps].reverse()) {
        if (s.array) {
          node = { items: [node] } as Record<string, unknown>;
          path = `/items/0${path}`;
        } else {
          node = { [s.key]: node };
          path = `/${s.key}${path}`;
        }
      }
      return { class: 'payer.depth' as const, value: { extensions: { [extKey]: node }, path: `/extensions/${extKey}${path}` }, note: `${name} at depth ${path.split('/').length - 1} below extensions.${extKey}` };
    });
}
