// A Stryker ignorer (stryker.config.json "ignorers"): the hand-made faults of
// reference/mutants.ts are switched on by `faults.has('name')` at their sites in
// reference/, or by `faults.hasAny(NAMES)` where a part written again for several
// faults (reference/faults/) replaces the reference's own. In a mutation run no fault is on, so a mutant of the switch itself,
// or of the code it guards, changes nothing a test could observe: it is
// reported as Ignored with this reason, never as a survivor or a kill. The
// correct path beside the switch (the `else`, the other arm) is mutated as usual.
// Plain JavaScript: Stryker loads plugins with Node's own import.

export const REASON = 'a hand-made fault of reference/mutants.ts, off in a mutation run: its switch and the code only the switch opens change nothing a test sees (turning the switch on is that fault, which selftest kills)';

const CALLS = new Set(['CallExpression', 'OptionalCallExpression']);
const MEMBERS = new Set(['MemberExpression', 'OptionalMemberExpression']);

const SWITCHES = new Set(['has', 'hasAny']);

/** `<anything>.faults.has(...)` or `faults.has(...)` (or `.hasAny(...)`), optional chaining (`settings.faults?.has(...)`) included. */
export function isFaultSwitch(node) {
  if (!CALLS.has(node?.type) || !MEMBERS.has(node.callee.type)) return false;
  const { object, property } = node.callee;
  if (property.type !== 'Identifier' || !SWITCHES.has(property.name)) return false;
  return (object.type === 'Identifier' && object.name === 'faults') || (MEMBERS.has(object.type) && object.property.type === 'Identifier' && object.property.name === 'faults');
}

/** `switch && more` or `more && switch`: true only with the fault on. */
function opensOnlyWithFault(node) {
  return isFaultSwitch(node) || (node?.type === 'LogicalExpression' && node.operator === '&&' && (opensOnlyWithFault(node.left) || opensOnlyWithFault(node.right)));
}

/**
 * Ignore the switch and its negation (`!faults.has(...)` is the correct path's
 * own condition: replaced by true it is the reference, by false the hand-made
 * fault, which selftest kills), `switch && more`, and the branch such a test
 * alone opens.
 */
export function shouldIgnore(path) {
  const { node, parent, key } = path;
  if (opensOnlyWithFault(node)) return REASON;
  if (node.type === 'UnaryExpression' && node.operator === '!' && isFaultSwitch(node.argument)) return REASON;
  if ((parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') && key === 'consequent' && opensOnlyWithFault(parent.test)) return REASON;
  return undefined;
}

export const strykerPlugins = [{ kind: 'Ignore', name: 'fault-switch', value: { shouldIgnore } }];
