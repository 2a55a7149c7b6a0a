// A Stryker ignorer (stryker.config.json "ignorers"): the hand-made faults of
// reference/mutants.ts are switched on by `faults.has('name')` at their sites in
// reference/. In a mutation run no fault is on, so a mutant of the switch itself,
// or of the code it guards, changes nothing a test could observe: it is
// reported as Ignored with this reason, never as a survivor or a kill. The
// correct path beside the switch (the `else`, the other arm) is mutated as usual.
// Plain JavaScript: Stryker loads plugins with Node's own import.

const REASON = 'a hand-made fault of reference/mutants.ts: its switch is off in a mutation run, so this code never runs';

/** `<anything>.faults.has(...)` or `faults.has(...)`. */
function isFaultSwitch(node) {
  if (node?.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return false;
  const { object, property } = node.callee;
  if (property.type !== 'Identifier' || property.name !== 'has') return false;
  return (object.type === 'Identifier' && object.name === 'faults') || (object.type === 'MemberExpression' && object.property.type === 'Identifier' && object.property.name === 'faults');
}

/** Ignore the switch, the branch it alone opens, and `switch && more` (evaluated only with the fault on). */
function shouldIgnore(path) {
  const { node, parent, key } = path;
  if (isFaultSwitch(node)) return REASON;
  if (node.type === 'LogicalExpression' && node.operator === '&&' && isFaultSwitch(node.left)) return REASON;
  if ((parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') && key === 'consequent' && isFaultSwitch(parent.test)) return REASON;
  return undefined;
}

export const strykerPlugins = [{ kind: 'Ignore', name: 'fault-switch', value: { shouldIgnore } }];
