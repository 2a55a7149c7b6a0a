// PROFILE.md §7.5 (spec §1.1, §2.6, §4.7.1, §4.7.6): no member anywhere in a CPR,
// extensions included, is named for a payer.
import { isPayerMemberName } from './fields.ts';
import { pointer } from './findings.ts';
import type { Violation } from './types.ts';

// Deeper than I-JSON allows (32); a cap so a hostile in-memory value cannot exhaust the stack.
const MAX_DEPTH = 64;

export function findPayerMembers(value: unknown): Violation[] {
  const found: Violation[] = [];
  const seen = new WeakSet<object>();
  const walk = (node: unknown, path: readonly (string | number)[]): void => {
    if (typeof node !== 'object' || node === null || seen.has(node) || path.length > MAX_DEPTH) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i]));
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      if (isPayerMemberName(key)) {
        found.push({ requirement: 'CPR-PAYER-1', path: pointer(...path, key), message: 'a CPR carries no payer, authorization or settlement data' });
      }
      walk(child, [...path, key]);
    }
  };
  walk(value, []);
  return found;
}
